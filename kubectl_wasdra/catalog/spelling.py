"""Did-you-mean: the closest of a set of known names to a misspelt one (field names, object names, request names).

One cutoff for every suggestion, so a field name and an object name are suggested alike.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable
from typing import Final

CUTOFF: Final = 0.6   # difflib ratio; "cuont" -> "count", "two-gpu" -> "two-gpus", not "gpu" -> "tpu-v5"


def closest_name(word: str, known: Iterable[str]) -> str | None:
    """The known name closest to `word` (ties: alphabetical), or None when none is close enough or `word` is known."""
    return _closest(word, tuple(sorted(set(known))))


@functools.lru_cache(maxsize=1024)
def _closest(word: str, choices: tuple[str, ...]) -> str | None:
    """Cached: one misspelt name is often referenced by many objects (every claim naming one missing DeviceClass), and
    difflib compares it with every known name."""
    if word in choices:
        return None
    found = difflib.get_close_matches(word, choices, n=1, cutoff=CUTOFF)
    return found[0] if found else None


def did_you_mean(word: str, known: Iterable[str]) -> str | None:
    """'did you mean "X"?' for the closest known name, or None."""
    close = closest_name(word, known)
    return f'did you mean "{close}"?' if close is not None else None
