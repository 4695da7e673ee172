"""Finding formatters: text, json, sarif, junit, github. Each returns a string; only the CLI writes it."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from kubectl_wasdra.lint.pipeline import CheckReport

FORMATS: Final = {"text": "text", "json": "json_report", "sarif": "sarif", "junit": "junit", "github": "github"}


def render(report: CheckReport, output: str, *, color: bool = False, fail_on: str = "error") -> str:
    """The report in format `output` (one of FORMATS), ending with a newline."""
    module = importlib.import_module(f"kubectl_wasdra.report.{FORMATS[output]}")
    return module.render(report, color=color, fail_on=fail_on)
