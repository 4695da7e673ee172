"""The code of the methods `dataclasses` generates, kept between runs as __pycache__ keeps modules.

Every @dataclass writes its __init__, __repr__, __eq__ (and, frozen, __hash__, __setattr__, __delattr__) as source
text and compiles it while its module is imported: about 1 ms a class on CPython 3.11, some 30 ms of a 0.1 s check of
one small file. That text depends only on the class, so the compiled code can be reused: `install()` sends the
module's `exec` calls through a cache keyed by the text, read from and written to the user's cache directory (marshal,
one file per interpreter version). The classes are exactly what they are without it; a cache that cannot be read or
written is left alone, and WASDRA_NO_CODE_CACHE=1 turns it off.
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any, Final

MAX_ENTRIES: Final = 2000  # a few hundred classes at most; old texts (edited classes) are dropped past this
_codes: dict[str, CodeType] = {}
_used: set[str] = set()
_state = {"installed": False, "new": False}


def cache_file() -> Path | None:
    """$XDG_CACHE_HOME/kubectl-wasdra (else ~/.cache/kubectl-wasdra)/dataclass-code.<interpreter tag>.marshal."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kubectl-wasdra" / f"dataclass-code.{tag}.marshal"


def install() -> None:
    """Route the dataclasses module's compilations through the cache (once per process)."""
    if _state["installed"] or os.environ.get("WASDRA_NO_CODE_CACHE"):
        return
    import dataclasses

    _state["installed"] = True
    _codes.update(_load(cache_file()))
    dataclasses.exec = _cached_exec  # type: ignore[attr-defined]  # shadows the builtin for that module only
    atexit.register(save)


def _load(path: Path | None) -> dict[str, CodeType]:
    try:
        data = marshal.loads(path.read_bytes()) if path is not None else {}
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, CodeType)}


def _cached_exec(source: Any, globals: Any = None, locals: Any = None) -> None:  # exec's own names
    if isinstance(source, str):
        code = _codes.get(source)
        if code is None:
            # dont_inherit: compiled as the dataclasses module would, without this module's __future__ flags
            code = _codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
            _state["new"] = True
        _used.add(source)
        source = code
    builtins.exec(source, globals, locals)


def save() -> None:
    """Write the cache when this run compiled something new: what it used first, then what it loaded, up to the cap;
    replaced atomically, so concurrent runs never read half a file."""
    path = cache_file()
    if not _state["new"] or path is None:
        return
    kept = {text: _codes[text] for text in _used}
    for text, code in _codes.items():
        if len(kept) >= MAX_ENTRIES:
            break
        kept.setdefault(text, code)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(marshal.dumps(kept))
        os.replace(partial, path)
    except OSError:
        return
    _state["new"] = False
