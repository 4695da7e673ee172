"""Go templates that are valid YAML: a placeholder such as `name: test-class-{{.Index}}` (Kubernetes' scheduler_perf
templates, other tools' object templates) parses as a plain string, so the file looks like a manifest, yet the value is
filled in by the program that reads the file. Such files are not manifests; checked as written, the placeholder would
be reported as an invalid name or value that nobody ever applies.

Only an action on a field of the template's data (`{{.Index}}`, `{{ .Name }}`, `{{- .count -}}`) in an unquoted value
counts. Actions in quoted strings (Argo's `'{{workflow.name}}'`, CEL), in block scalars (a ConfigMap carrying
Alertmanager templates) and in comments belong to the object's own data, and `{{ $labels.x }}` is Prometheus'.
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.lazy_regex import lazy

# `{{.Index}}`, `{{ .Name }}`, `{{- .Spec.Count -}}`: one field reference, optionally trimmed
_FIELD_ACTION: Final = lazy(r"\{\{-?\s*\.[A-Za-z_]\w*(?:\.\w+)*\s*-?\}\}")
_QUOTED: Final = lazy(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'")
# a line whose value starts a block scalar: `key: |`, `- >-`, `key: |2 # comment`
_BLOCK_START: Final = lazy(r"(?:^|[:\-])\s*[|>][+\-0-9]*\s*(?:#.*)?$")


def _unquoted_part(line: str) -> str:
    """The line without its quoted strings and its comment."""
    return _QUOTED.sub("", line).split(" #", 1)[0]


def has_plain_field_action(text: str) -> bool:
    """True when an unquoted YAML value outside block scalars and comments holds a `{{.Field}}` action."""
    block_indent: int | None = None
    for line in text.splitlines():
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if block_indent is not None:
            if not stripped or indent > block_indent:
                continue
            block_indent = None
        if not stripped or stripped.startswith("#"):
            continue
        if _BLOCK_START.search(line):
            block_indent = indent
            continue
        if _FIELD_ACTION.search(_unquoted_part(line)):
            return True
    return False
