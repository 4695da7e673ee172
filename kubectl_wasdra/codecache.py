"""The code of the methods `dataclasses` generates, kept between runs as __pycache__ keeps modules.

Every @dataclass writes its __init__, __repr__, __eq__ (and, frozen, __hash__, __setattr__, __delattr__) as source
text and compiles it while its module is imported: about 1 ms a class on CPython 3.11, some 30 ms of a 0.1 s check of
one small file. That text depends only on the class, so the compiled code can be reused: `install()` sends the
module's `exec` calls through a cache keyed by the text, read from and written to the user's cache directory (one file
per interpreter version). The file is an index (key -> where the entry sits) and the entries, each the marshalled
(text, code); only the entries a run uses are unmarshalled, so a short run that needs a quarter of the classes pays
for a quarter (unmarshalling every entry of a full cache was 3% of a one-file check). The classes are exactly what
they are without it; a cache that cannot be read or written is left alone, and WASDRA_NO_CODE_CACHE=1 turns it off.
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import os
import sys
import zlib
from pathlib import Path
from types import CodeType
from typing import Any, Final

MAX_ENTRIES: Final = 2000  # 157 classes make about 1,200; old texts (edited classes) are dropped past this
FORMAT: Final = 2
_HEADER: Final = 8  # the index's length, little-endian
_codes: dict[str, CodeType] = {}  # resolved in this run
_stored: dict[int, tuple[int, int]] = {}  # key -> (offset, length) in _blob
_blob: list[memoryview] = []  # the entries of the file mapped at install (one view, or none)
_mapping: list[Any] = []  # that file's mmap, closed before the file is replaced
_new: dict[int, bytes] = {}  # entries compiled in this run
_used: set[int] = set()
_state = {"installed": False}


def cache_file() -> Path | None:
    """$XDG_CACHE_HOME/kubectl-wasdra (else ~/.cache/kubectl-wasdra)/dataclass-code.<interpreter tag>.v2."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kubectl-wasdra" / f"dataclass-code.{tag}.v{FORMAT}"


def install() -> None:
    """Route the dataclasses module's compilations through the cache (once per process)."""
    if _state["installed"] or os.environ.get("WASDRA_NO_CODE_CACHE"):
        return
    import dataclasses

    _state["installed"] = True
    _load(cache_file())
    dataclasses.exec = _cached_exec  # type: ignore[attr-defined]  # shadows the builtin for that module only
    atexit.register(save)


def _load(path: Path | None) -> None:
    """Map the file and read its index; only the pages of the entries a run uses are then read from disk (a whole
    read of a full cache was some 180 page faults). A file that is not a cache of this format is ignored."""
    import mmap

    try:
        if path is None:
            return
        with path.open("rb") as file:
            mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        size = int.from_bytes(mapping[:_HEADER], "little")
        version, index = marshal.loads(mapping[_HEADER:_HEADER + size])
    except (OSError, ValueError, EOFError, TypeError):
        return
    _mapping.append(mapping)
    if version == FORMAT and isinstance(index, dict):
        _stored.update(index)
        _blob.append(memoryview(mapping)[_HEADER + size:])


def _unmap() -> None:
    """Close the mapping of the file read at install: Windows refuses to replace a file that is mapped."""
    import contextlib

    while _blob:
        _blob.pop().release()
    _stored.clear()
    while _mapping:
        mapping = _mapping.pop()
        with contextlib.suppress(BufferError):  # a view is still alive: where replacing fails, the old file stays
            mapping.close()


def _key(text: str) -> int:
    """The text's length and CRC-32: the lookup key (an entry holds its text, so a collision is only a miss)."""
    return len(text) << 32 | zlib.crc32(text.encode("utf-8", "surrogatepass"))


def _entry(key: int) -> memoryview | bytes | None:
    """The raw entry stored under `key`: compiled in this run, or read from the file."""
    if key in _new:
        return _new[key]
    place = _stored.get(key)
    if place is None or not _blob:
        return None
    try:
        offset, length = place
        return _blob[0][offset:offset + length]
    except (TypeError, ValueError):
        return None


def _compiled(text: str) -> CodeType:
    """The code of `text`: from the cache when an entry holds this very text, else compiled and kept."""
    key = _key(text)
    _used.add(key)
    raw = _entry(key)
    if raw is not None:
        try:
            stored, code = marshal.loads(raw)
        except (ValueError, EOFError, TypeError):
            stored, code = None, None
        if stored == text and isinstance(code, CodeType):
            return code
    # dont_inherit: compiled as the dataclasses module would, without this module's __future__ flags
    code = compile(text, "<string>", "exec", dont_inherit=True)
    _new[key] = marshal.dumps((text, code))
    return code


def _cached_exec(source: Any, globals: Any = None, locals: Any = None) -> None:  # exec's own names
    if isinstance(source, str):
        code = _codes.get(source)
        if code is None:
            code = _codes[source] = _compiled(source)
        source = code
    builtins.exec(source, globals, locals)


def save() -> None:
    """Write the cache when this run compiled something new: what it used first, then what was stored, up to the cap;
    replaced atomically, so concurrent runs never read half a file."""
    path = cache_file()
    if not _new or path is None:
        return
    kept: dict[int, bytes] = {}
    for key in [*_used, *_stored]:
        if len(kept) >= MAX_ENTRIES:
            break
        raw = None if key in kept else _entry(key)
        if raw is not None:
            kept[key] = bytes(raw)  # copied out of the mapping, which is closed before the file is replaced
    raw = None
    _unmap()
    index, offset = {}, 0
    for key, raw in kept.items():
        index[key] = (offset, len(raw))
        offset += len(raw)
    head = marshal.dumps((FORMAT, index))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with partial.open("wb") as out:
            out.write(len(head).to_bytes(_HEADER, "little"))
            out.write(head)
            out.writelines(kept.values())
        os.replace(partial, path)
        path.with_suffix(".marshal").unlink(missing_ok=True)  # the format before this one
    except OSError:
        return
    _new.clear()
