"""What git would walk: the files of a work tree that `.gitignore`, `.git/info/exclude` and `core.excludesFile` leave
out, asked of git itself (`git ls-files`), so every rule of git's own matching holds (negations, directory patterns,
nested .gitignore files, files already tracked staying in).

Without git, or outside a work tree, nothing is ignored. Kept free of YAML imports: `check DIR` pays one `git`
process per directory named.
"""

from __future__ import annotations

import functools
import os
from typing import Final

_TIMEOUT: Final = 30.0  # seconds: a hung git (a lock, a network file system) must not hang check


@functools.cache
def _git() -> str | None:
    """git's path on PATH (shutil.which would import more than check needs at start-up)."""
    for directory in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(directory or ".", "git")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _git_lines(directory: str, *args: str, stdin: bytes | None = None, ok: tuple[int, ...] = (0,)) -> list[str] | None:
    """NUL-separated output of `git -C directory ARGS`, None when git is missing, says no (not a work tree) or takes
    longer than _TIMEOUT."""
    git = _git()
    if git is None or not os.path.isdir(directory):
        return None
    if stdin is not None or not hasattr(os, "posix_spawn"):   # posix_spawn: not on Windows
        return _lines_via_subprocess([git, "-C", directory, *args], stdin, ok)
    output = _spawn_output([git, "-C", directory, *args], ok)
    return None if output is None else [entry for entry in output.decode("utf-8", "surrogateescape").split("\0") if entry]


def _spawn_output(argv: list[str], ok: tuple[int, ...]) -> bytes | None:
    """The stdout of `argv` run without a shell, stderr discarded; None on a failure or after _TIMEOUT. posix_spawn
    and a pipe rather than subprocess: importing subprocess costs a pre-commit run more than git itself."""
    import select
    import signal
    import time

    read_end, write_end = os.pipe()
    try:
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, write_end, 1), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0), (os.POSIX_SPAWN_CLOSE, read_end)])
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    os.close(write_end)
    chunks, deadline = [], time.monotonic() + _TIMEOUT
    with os.fdopen(read_end, "rb", buffering=0) as stream:
        while (left := deadline - time.monotonic()) > 0 and select.select([stream], [], [], left)[0]:
            chunk = stream.read(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    if time.monotonic() >= deadline:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return b"".join(chunks) if code in ok else None


def _lines_via_subprocess(argv: list[str], stdin: bytes | None, ok: tuple[int, ...]) -> list[str] | None:
    """As _git_lines, for a command that reads stdin (globs only: subprocess writes and reads without deadlock)."""
    import subprocess

    try:
        done = subprocess.run(argv, input=stdin, capture_output=True, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode not in ok:
        return None
    return [entry for entry in done.stdout.decode("utf-8", "surrogateescape").split("\0") if entry]


class IgnoredPaths:
    """The ignored files and directories below one directory, as absolute paths; `contains(path)` is true for an
    ignored path or anything under an ignored directory. (A plain class: built once per directory walked.)"""

    __slots__ = ("directories", "files")

    def __init__(self, files: frozenset[str], directories: frozenset[str]) -> None:
        self.files, self.directories = files, directories

    def __bool__(self) -> bool:
        return bool(self.files or self.directories)

    def contains(self, path: str) -> bool:
        absolute = os.path.abspath(path)
        if absolute in self.files or absolute in self.directories:
            return True
        return any(absolute.startswith(directory + os.sep) for directory in self.directories)


NOTHING_IGNORED: Final = IgnoredPaths(frozenset(), frozenset())


def ignored_below(directory: str) -> IgnoredPaths:
    """What git ignores under `directory` (untracked files matching an ignore rule; an ignored directory as one entry)."""
    entries = _git_lines(directory, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
    if not entries:
        return NOTHING_IGNORED
    base = os.path.abspath(directory)
    files = frozenset(os.path.join(base, e) for e in entries if not e.endswith("/"))
    directories = frozenset(os.path.join(base, e.rstrip("/")) for e in entries if e.endswith("/"))
    return IgnoredPaths(files, directories)


def work_tree_files(directory: str) -> list[str] | None:
    """Every file git would walk under `directory` (tracked, plus untracked and not ignored), relative to it, or None
    when `directory` is not in a git work tree (then the caller walks the file system itself)."""
    return _git_lines(directory, "ls-files", "-z", "--cached", "--others", "--exclude-standard")


def ignored_files(paths: list[str]) -> set[str]:
    """Those of `paths` (files a glob matched) that git ignores, asked per directory's work tree with
    `git check-ignore` (exit 1 means none is ignored); none outside a work tree."""
    found: set[str] = set()
    by_directory: dict[str, list[str]] = {}
    for path in paths:
        by_directory.setdefault(os.path.dirname(os.path.abspath(path)), []).append(path)
    for directory, group in by_directory.items():
        data = "\0".join(os.path.abspath(p) for p in group).encode("utf-8", "surrogateescape") + b"\0"
        lines = _git_lines(directory, "check-ignore", "-z", "--stdin", stdin=data, ok=(0, 1))
        ignored = set(lines or ())
        found.update(p for p in group if os.path.abspath(p) in ignored)
    return found
