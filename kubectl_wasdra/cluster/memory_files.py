"""The client key (and the other credential data of a kubeconfig) never on disk: the client library writes
`client-key-data` to a temporary file for `ssl` to load; here that file is an anonymous in-memory file
(`os.memfd_create`), which `ssl` opens by its `/proc/self/fd/N` path and which vanishes with the process, whatever
signal ends it. Where there is no memfd (not Linux), the client library's files are removed on every terminating
signal as well as at the end of the read."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from typing import Any, Final

# signals whose default action ends the process (SIGKILL cannot be caught: only the memfd survives that)
_TERMINATING: Final = tuple(getattr(signal, name) for name in (
    "SIGHUP", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGQUIT", "SIGPIPE", "SIGVTALRM", "SIGPROF", "SIGXCPU",
    "SIGXFSZ", "SIGPOLL") if hasattr(signal, name))


def has_memfd() -> bool:
    return hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd")


@contextlib.contextmanager
def credentials_in_memory(kube_config: Any, cleanup: Callable[[], None]) -> Iterator[None]:
    """While open, credential data the client library (`kube_config`, kubernetes.config.kube_config, passed in by
    the one module that imports the client) would write to a file goes to a memfd; on leaving, the memfds are
    closed. Without memfd, `cleanup` (which removes the library's files) runs on every terminating signal too."""
    if not has_memfd():
        with _cleanup_on_signals(cleanup):
            yield
        return
    descriptors: list[int] = []
    original = kube_config._create_temp_file_with_content

    def in_memory(content: Any, temp_file_path: Any = None, force_recreate: bool = False) -> str:
        fd = os.memfd_create("kubeconfig-credential", os.MFD_CLOEXEC)
        descriptors.append(fd)
        os.write(fd, content.encode() if isinstance(content, str) else content)
        return f"/proc/self/fd/{fd}"

    kube_config._create_temp_file_with_content = in_memory
    try:
        yield
    finally:
        kube_config._create_temp_file_with_content = original
        for fd in descriptors:
            with contextlib.suppress(OSError):
                os.close(fd)


@contextlib.contextmanager
def _cleanup_on_signals(cleanup: Callable[[], None]) -> Iterator[None]:
    def handler(number: int, _frame: Any) -> None:
        cleanup()
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)

    previous = {}
    for number in _TERMINATING:
        with contextlib.suppress(ValueError, OSError):  # not the main thread, or not settable here
            previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            with contextlib.suppress(ValueError, OSError):
                signal.signal(number, old)
