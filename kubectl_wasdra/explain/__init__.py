"""explain: diagnoses of groups against a snapshot (model, suggestions, renderers); `run_explain` is the entry point."""

from __future__ import annotations

from typing import Any


def run_explain(options: Any) -> Any:
    """explain.run.run_explain, imported on first use so importing the package stays cheap."""
    from kubectl_wasdra.explain.run import run_explain as run

    return run(options)
