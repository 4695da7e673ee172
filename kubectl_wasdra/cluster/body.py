"""Reading one HTTP response body within a time limit and a size cap.

urllib3's read timeout bounds each socket read, not the body: a server sending one byte every few seconds would
never end, and an endless body would fill memory. Chunks are read one at a time and both limits checked between them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

MAX_BODY_BYTES: Final = 256 * 1024 * 1024  # one list page of 500 objects is a few MiB; this is far above any real page
CHUNK: Final = 1 << 16


class BodyLimit(Exception):
    """The body took longer than allowed or was larger than the cap; the message says which."""


def read_body(response: Any, timeout: float | None, *, cap: int | None = None,
              clock: Callable[[], float] = time.monotonic) -> bytes:
    """The whole body of a urllib3 response opened with preload_content=False; BodyLimit past `timeout` seconds or
    `cap` bytes (the connection is dropped then, so its rest is never read)."""
    cap = MAX_BODY_BYTES if cap is None else cap
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > cap:
        response.release_conn()
        raise BodyLimit(f"the response is {int(declared)} bytes, above the cap of {cap} bytes")
    end = None if timeout is None else clock() + timeout
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = response.read1(CHUNK)
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        parts.append(chunk)
        if size > cap:
            response.close()
            raise BodyLimit(f"the response is larger than the cap of {cap} bytes")
        if end is not None and clock() > end:
            response.close()
            raise BodyLimit(f"the response body did not arrive within {timeout:g}s")
