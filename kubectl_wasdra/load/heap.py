"""Keeping the cyclic garbage collector out of the way of bulk loading.

Parsed documents, node trees and findings make no reference cycles, yet CPython's collector rescans the growing heap
every few hundred allocations: on 2,000 documents that was a third of `check`'s CPU, and 2-3x on big snapshots.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the collector while building large acyclic data. What is alive on entry (the imported modules) and on exit
    (the built data) moves to the permanent generation, so no later collection rescans it: the first one after a plain
    pause would scan every object made during it. Only cyclic garbage made meanwhile is never reclaimed. Restored on
    exit."""
    was_enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
