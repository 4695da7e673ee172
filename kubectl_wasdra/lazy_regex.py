"""Regular expressions compiled when first used, for patterns most runs never need.

Compiling is a cost of every start (a character class reaching past Latin-1 takes about 0.3 ms, the YAML screening
patterns several times that): a short `check` spent about 7% of its CPU in `re.compile` at import. A module-level
`lazy(...)` is used like the compiled pattern; after the first use its methods are the compiled pattern's own.
"""

from __future__ import annotations

import re
from typing import Any

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyPattern:
    """A pattern compiled on first attribute access; the methods above are then kept on the instance, so later calls
    cost what calls on the compiled pattern cost."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(*self._source)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, deferred until the pattern is first used."""
    return LazyPattern(pattern, flags)  # type: ignore[return-value]  # quacks like the compiled pattern
