"""Every exception the tool raises when it cannot do its job (a leaf: imports nothing from the package).

Expected negative outcomes (a finding, a Status, a funnel that empties) are data, never exceptions.
The CLI boundary turns a WasdraError into one line `kubectl-wasdra: error: where: what — how` and exit 2.
"""

from __future__ import annotations


class WasdraError(Exception):
    """The tool could not do its job. `where` is `file:line:col` (or a file, or a flag); `hint` says how to fix it."""

    def __init__(self, message: str, *, where: str | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.hint = hint

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return f"{text} — {self.hint}" if self.hint else text


class UsageError(WasdraError):
    """A flag or argument is wrong (unknown gate, bad version, unknown rule ID)."""


class UsageErrors(UsageError):
    """Several usage errors found in one pass (a config file with three bad keys): each on its own line, first first."""

    def __init__(self, errors: list[UsageError]) -> None:
        super().__init__(errors[0].message, where=errors[0].where, hint=errors[0].hint)
        self.errors = tuple(errors)

    def __str__(self) -> str:
        return "\n".join(UsageError.__str__(error) for error in self.errors)


class LoadError(WasdraError):
    """A file cannot be read or parsed at all."""


class SnapshotError(WasdraError):
    """A cluster snapshot cannot be read or is not a snapshot."""


class ClusterReadError(WasdraError):
    """The live cluster cannot be reached or refuses every request."""


class SelectorCompileError(WasdraError):
    """A CEL expression does not compile (used where compile failure aborts work, e.g. the allocator)."""


class CelCompileError(SelectorCompileError):
    """A CEL selector does not compile; `line`/`column` are 1-based within the expression text."""

    def __init__(self, message: str, line: int = 1, column: int = 1, *, hint: str | None = None) -> None:
        super().__init__(message, where=f"{line}:{column}", hint=hint)
        self.line = line
        self.column = column


class CelRuntimeError(WasdraError):
    """A CEL selector failed while evaluating on a device (missing key, bad quantity, cost limit)."""
