"""Writing generated files, or with --check comparing them: the one loop the tools/gen_*.py scripts share."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path


def write_or_check(outputs: Iterable[tuple[Path, str, str]], check: bool, rerun: str) -> int:
    """Write each (path, text, what it holds) and say so; with `check`, write nothing and return 1 naming every file
    that differs from its text (the tests run the check, so a stale file fails CI with the command to rerun)."""
    stale = []
    for target, text, summary in outputs:
        if check:
            if not target.exists() or target.read_text() != text:
                stale.append(str(target))
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        print(f"{target}: {summary}")
    if stale:
        print("out of date: " + ", ".join(stale) + f" (run {rerun})", file=sys.stderr)
        return 1
    return 0
