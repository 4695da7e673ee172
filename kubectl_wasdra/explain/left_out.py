"""Objects left out of a run because they are malformed: one line or JSON entry each, with file:line:col (or the error
that stops the run when they cannot be left out)."""

from __future__ import annotations

from typing import Any

from kubectl_wasdra.errors import LoadError
from kubectl_wasdra.load.document import LoadProblem


def problem_error(problem: LoadProblem) -> LoadError:
    """The problem as the error that stops a run (exit 2) when the object cannot be left out."""
    where = f"{problem.file}:{max(problem.line, 1)}:{max(problem.column, 1)}"
    return LoadError(problem.message, where=where, hint=problem.hint)


def problem_line(problem: LoadProblem) -> str:
    """`file:line:col: what — how`, the way every error of the tool reads."""
    return str(problem_error(problem))


def problem_json(problem: LoadProblem) -> dict[str, Any]:
    """{"file", "line", "column", "message", "hint"} for -o json."""
    return {"file": problem.file, "line": max(problem.line, 1), "column": max(problem.column, 1),
            "message": problem.message, "hint": problem.hint}
