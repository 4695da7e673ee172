"""Code actions: the fix of each finding that has one (`check --fix`'s own edits, on the unsaved text; unsafe ones say
so in their title and are never preferred), every safe fix of a file at once, and converting the object under the
cursor to the API versions a release serves (`kubectl wasdra convert`'s conversion of that one object)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.lint.codes import FIXABILITY
from kubectl_wasdra.lint.problem import Finding


@dataclass(frozen=True)
class Edit:
    """A code action's outcome: a title, the whole new text of the file, and whether it is a safe fix."""

    title: str
    text: str
    kind: str   # "quickfix" | "source.fixAll" | "refactor.rewrite"
    safe: bool
    findings: tuple[Finding, ...] = ()


def finding_fixes(text: str, path: str, findings: Iterable[Finding], release: Release,
                  runtime_config: Mapping[str, bool]) -> list[Edit]:
    """One edit per finding whose rule has a fix that applies here: the safe fix, else the unsafe one, marked."""
    from kubectl_wasdra.convert.fixes import fixed_text

    edits = []
    for finding in findings:
        if finding.rule not in FIXABILITY:
            continue
        fixed, summary = fixed_text(text, path, [finding], release, runtime_config, unsafe=False)
        if fixed is not None:
            edits.append(Edit(f"Fix {finding.rule}: {_short(finding)}", fixed, "quickfix", True, (finding,)))
        elif summary.unsafe:
            fixed, _ = fixed_text(text, path, [finding], release, runtime_config, unsafe=True)
            if fixed is not None:
                edits.append(Edit(f"Fix {finding.rule} (unsafe: fields move or objects are added): {_short(finding)}",
                                  fixed, "quickfix", False, (finding,)))
    return edits


def fix_all(text: str, path: str, findings: Sequence[Finding], release: Release,
            runtime_config: Mapping[str, bool]) -> Edit | None:
    """Every safe fix of the file at once (`check --fix` on this file), or None when there is none."""
    from kubectl_wasdra.convert.fixes import fixed_text

    fixable = [f for f in findings if f.rule in FIXABILITY]
    if not fixable:
        return None
    fixed, summary = fixed_text(text, path, fixable, release, runtime_config, unsafe=False)
    if fixed is None:
        return None
    return Edit(f"Fix all safe kubectl-wasdra findings ({summary.fixed})", fixed, "source.fixAll", True, tuple(fixable))


def conversions(text: str, line: int, runtime_config: Mapping[str, bool]) -> list[Edit]:
    """For the object holding 1-based `line`: one edit per supported release whose served API versions differ from
    the object's, converting only that object (its `---` neighbours are left as they are)."""
    from kubectl_wasdra.convert.roundtrip import SourceText, split_documents

    source = SourceText.decode(text.encode("utf-8"))
    if source.is_json:
        return []
    chunks = split_documents(source.body)
    index = max(bisect.bisect_right([chunk.line for chunk in chunks], line) - 1, 0)
    edits = []
    for release in SUPPORTED:
        converted = _converted(source, chunks, index, release, runtime_config)
        if converted is not None:
            edits.append(Edit(f"Convert {converted[1]} to the API versions Kubernetes {release} serves",
                              converted[0], "refactor.rewrite", False))
    return edits


def _converted(source: Any, chunks: list[Any], index: int, release: Release,
               runtime_config: Mapping[str, bool]) -> tuple[str, str] | None:
    """(the file's new text, what was converted) or None when release X keeps the object as it is."""
    import copy

    from kubectl_wasdra.convert.engine import Converter
    from kubectl_wasdra.convert.roundtrip import added_documents, dump_edited, join_documents, load_yaml

    chunks = copy.deepcopy(chunks)
    chunk = chunks[index]
    try:
        data = load_yaml(chunk.source)
    except Exception:  # a syntax error is LOAD001's finding; nothing to convert
        return None
    new, extra, note = Converter(release, runtime_config).object(data, chunk.line)
    if note is None or note.status != "converted":
        return None
    chunk.text = dump_edited(new, chunk.source)
    out = [*chunks[:index], chunk, *added_documents(chunk, extra), *chunks[index + 1:]]
    label = f'{note.kind} "{note.name}" ({note.source} -> {note.target})' if note.name else f"{note.kind} ({note.source})"
    return source.encode(join_documents(out)).decode("utf-8"), label


def _short(finding: Finding) -> str:
    return finding.hint or finding.message
