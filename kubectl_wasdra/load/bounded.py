"""Every file the tool reads (manifests, snapshots' parts, baselines, configs, kubeconfigs, scheduler configs, values
files, CRDs) is read through here, with a size cap: `/dev/zero`, an endless pipe or a huge file named by a repository's
`.wasdra.yaml` stops at the cap with a clear error instead of exhausting memory."""

from __future__ import annotations

import os
import stat
from typing import Final

MAX_FILE_BYTES: Final = 32 * 1024 * 1024


class TooLarge(OSError):
    """The file is larger than the cap; the message names the cap."""


def too_large_message(cap: int) -> str:
    return f"file is larger than {cap // (1024 * 1024)} MiB"


def read_capped(path: str, cap: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes; TooLarge past `cap` (a regular file is refused by its size before reading; a pipe or device
    is read to one byte past the cap), OSError when it cannot be read."""
    with open(path, "rb") as stream:
        info = os.fstat(stream.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > cap:
            raise TooLarge(too_large_message(cap))
        data = stream.read(cap + 1)
    if len(data) > cap:
        raise TooLarge(too_large_message(cap))
    return data


def read_text_capped(path: str, cap: int = MAX_FILE_BYTES) -> str:
    """The file as UTF-8 text (a BOM dropped); TooLarge, OSError or UnicodeDecodeError when it cannot be."""
    return read_capped(path, cap).decode("utf-8-sig")
