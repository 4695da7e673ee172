"""The one way files are written: a temporary file made exclusively in the target's directory (`tempfile.mkstemp`:
O_CREAT|O_EXCL, a random name, never a planted symlink), the wanted mode set on the descriptor, then an atomic
`os.replace`. In-place rewrites (`convert --write`, `check --fix`) also refuse anything but a regular file inside the
paths the user named: a symlink, or a file reached through a symlinked directory, is never written through.
"""

from __future__ import annotations

import contextlib
import glob
import os
import stat
import tempfile
from collections.abc import Sequence


class WriteRefused(OSError):
    """The file is not one the tool may rewrite; the message says why."""


def _umask_mode() -> int:
    """0o666 less the process umask: the mode `open(path, "w")` would give a new file."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _replace(path: str, data: bytes, mode: int) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".wasdra-tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as stream:
            os.fchmod(stream.fileno(), mode)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_output(path: str, data: bytes, *, mode: int | None = None) -> None:
    """Write a file the user named as an output (`--output-file`, `--write-baseline`, `config --init`): atomically,
    with `mode` (default: the umask's). A link the user named is followed to its target; a FIFO or device (`/dev/stdout`)
    is written in place, as it cannot be replaced."""
    target = os.path.realpath(path)
    with contextlib.suppress(FileNotFoundError):
        kind = os.stat(target).st_mode
        if not stat.S_ISREG(kind) and not stat.S_ISDIR(kind):
            with open(target, "wb") as stream:
                stream.write(data)
            return
    _replace(target, data, _umask_mode() if mode is None else mode)


def rewrite_in_place(path: str, data: bytes, roots: Sequence[str]) -> None:
    """Replace an existing input file with `data`, keeping its mode. WriteRefused unless `path` itself is a regular
    file (not a symlink) whose real location is inside one of `roots` (the paths named on the command line)."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise WriteRefused(f"{path} is a symbolic link: not written through")
    if not stat.S_ISREG(info.st_mode):
        raise WriteRefused(f"{path} is not a regular file: not written")
    if not is_inside(path, roots):
        raise WriteRefused(f"{path} lies outside the paths given (a symlinked directory?): not written")
    _replace(path, data, stat.S_IMODE(info.st_mode))


def is_inside(path: str, roots: Sequence[str]) -> bool:
    """True when the real location of `path` is one of `roots` or under one of them (roots resolved too)."""
    real = os.path.realpath(path)
    for root in roots:
        base = os.path.realpath(_fixed_prefix(root))
        if real == base or real.startswith(base.rstrip(os.sep) + os.sep):
            return True
    return False


def _fixed_prefix(root: str) -> str:
    """A glob's directory part before its first wildcard (`repo/**/*.yaml` -> `repo`); other paths as they are."""
    if not glob.has_magic(root):
        return root
    parts = []
    for part in root.split(os.sep):
        if glob.has_magic(part):
            break
        parts.append(part)
    return os.sep.join(parts) or "."
