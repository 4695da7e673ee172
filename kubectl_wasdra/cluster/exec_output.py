"""Running an exec credential plugin with its output bounded: a plugin that prints without end (2 GB) is stopped
at the cap instead of filling memory, as one that never returns is stopped at the timeout."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Final

MAX_PLUGIN_OUTPUT: Final = 1 << 20  # an ExecCredential is a few KiB; client-go reads it whole, with no stated cap
_CHUNK: Final = 64 * 1024


class PluginOutputTooLarge(Exception):
    """The plugin printed more than the cap on stdout or stderr; it was stopped."""


@dataclass(frozen=True)
class PluginRun:
    returncode: int
    stdout: str
    stderr: str


def _drain(stream: IO[bytes], cap: int, into: list[bytes], over: threading.Event) -> None:
    size = 0
    while chunk := stream.read1(_CHUNK) if hasattr(stream, "read1") else stream.read(_CHUNK):
        size += len(chunk)
        if size > cap:
            over.set()
            return
        into.append(chunk)


def run_plugin_capped(args: Sequence[str], *, stdin: int | None, cwd: str | None, env: Mapping[str, str],
                      timeout: float | None, cap: int = MAX_PLUGIN_OUTPUT) -> PluginRun:
    """Run `args`; subprocess.TimeoutExpired past `timeout`, PluginOutputTooLarge past `cap` bytes on either stream
    (the process is killed in both cases), OSError when it cannot start."""
    process = subprocess.Popen(args, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=dict(env))
    out: list[bytes] = []
    err: list[bytes] = []
    over = threading.Event()
    readers = [threading.Thread(target=_drain, args=(stream, cap, into, over), daemon=True)
               for stream, into in ((process.stdout, out), (process.stderr, err))]
    for reader in readers:
        reader.start()
    end = None if timeout is None else time.monotonic() + timeout
    try:
        while process.poll() is None or any(r.is_alive() for r in readers):
            if over.is_set():
                raise PluginOutputTooLarge(f"printed more than {cap // 1024} KiB")
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(list(args), timeout or 0)
            time.sleep(0.01)
        if over.is_set():
            raise PluginOutputTooLarge(f"printed more than {cap // 1024} KiB")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    return PluginRun(process.returncode, b"".join(out).decode("utf-8", "replace"), b"".join(err).decode("utf-8", "replace"))
