"""Objects left out of a run because they are malformed: one line or JSON entry each, with file:line:col."""

from __future__ import annotations

from typing import Any

from kubectl_wasdra.load.document import LoadProblem


def problem_line(problem: LoadProblem) -> str:
    """`file:line:col: what — how`, the way every error of the tool reads."""
    where = f"{problem.file}:{max(problem.line, 1)}:{max(problem.column, 1)}"
    return f"{where}: {problem.message}" + (f" — {problem.hint}" if problem.hint else "")


def problem_json(problem: LoadProblem) -> dict[str, Any]:
    """{"file", "line", "column", "message", "hint"} for -o json."""
    return {"file": problem.file, "line": max(problem.line, 1), "column": max(problem.column, 1),
            "message": problem.message, "hint": problem.hint}
