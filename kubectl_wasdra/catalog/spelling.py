"""Did-you-mean: the closest of a set of known names to a misspelt one (field names, object names, request names,
rule IDs).

One cutoff for every suggestion about manifests, so a field name and an object name are suggested alike; the rule
selection flags pass a looser one.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Final

CUTOFF: Final = 0.6   # difflib ratio; "cuont" -> "count", "two-gpu" -> "two-gpus", not "gpu" -> "tpu-v5"


def closest_name(word: str, known: Iterable[str], *, cutoff: float = CUTOFF) -> str | None:
    """The known name closest to `word` (difflib ratio at least `cutoff`; ties: alphabetical, so "REF03" suggests
    REF003 rather than REF013), or None when none is close enough or `word` is known."""
    return _closest(word, tuple(sorted(set(known))), cutoff)


@functools.lru_cache(maxsize=1024)
def _closest(word: str, choices: tuple[str, ...], cutoff: float) -> str | None:
    """Cached: one misspelt name is often referenced by many objects (every claim naming one missing DeviceClass), and
    it is compared with every known name. The cheap upper bounds skip most comparisons, as difflib.get_close_matches
    does."""
    if word in choices:
        return None
    import difflib  # only a misspelt name gets here

    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    best_score, best = 0.0, None
    for choice in choices:  # sorted: a later name must be strictly closer to win
        matcher.set_seq1(choice)
        bound = max(cutoff, best_score)
        if matcher.real_quick_ratio() < bound or matcher.quick_ratio() < bound:
            continue
        score = matcher.ratio()
        if score >= cutoff and score > best_score:
            best_score, best = score, choice
    return best


def did_you_mean(word: str, known: Iterable[str], *, cutoff: float = CUTOFF) -> str | None:
    """'did you mean "X"?' for the closest known name, or None."""
    close = closest_name(word, known, cutoff=cutoff)
    return f'did you mean "{close}"?' if close is not None else None
