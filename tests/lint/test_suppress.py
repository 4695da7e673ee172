"""lint/suppress.py: how much work finding the comment directives takes (their effect is in rules/test_config.py)."""

from __future__ import annotations

from kubectl_wasdra.lint.suppress import apply_suppressions
from kubectl_wasdra.load import Document
from kubectl_wasdra.load.positions import SourceText


class _CountingText(str):
    """A source text that counts how often it is searched for a word."""

    searches = 0

    def __contains__(self, word: object) -> bool:
        type(self).searches += 1
        return super().__contains__(word)  # type: ignore[operator]


def test_each_source_text_is_searched_for_directives_once_whatever_its_document_count() -> None:
    text = _CountingText("---\n".join(f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cm-{i}}}\n" for i in range(50)))
    source = SourceText(text)
    documents = [Document("big.yaml", i, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"cm-{i}"}},
                          None, source) for i in range(50)]
    _CountingText.searches = 0
    result = apply_suppressions([], documents, lambda document: document.name or "")
    assert result.suppressed == () and result.problems == ()
    assert _CountingText.searches == 1
