"""Code actions, hover and completion, registered on the server."""

from __future__ import annotations

from typing import Any


def register(server: Any) -> None:
    """Register the editing features on `server`."""
