"""JSON output of `check`: DESIGN's shape, keys in a fixed order, byte-for-byte stable."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from kubectl_wasdra.report.safe import json_safe

if TYPE_CHECKING:
    from kubectl_wasdra.lint.pipeline import CheckReport


def render(report: CheckReport, *, color: bool = False, fail_on: str = "error") -> str:
    """`{"k8sVersion", "findings": [...], "summary": {...}}` as indented JSON."""
    return json_safe(json.dumps(report.as_dict(), indent=2, ensure_ascii=False)) + "\n"
