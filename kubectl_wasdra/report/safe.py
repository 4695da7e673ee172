"""Text from manifests made safe to print: control characters (a key or value may hold ESC, BEL, NUL ...) are shown as
escapes, so no report can drive the terminal, break a workflow command, or make XML that does not parse."""

from __future__ import annotations

import re
from typing import Final

# C0 controls except tab and newline, DEL, C1 controls, and lone surrogates (not encodable as UTF-8)
_UNSAFE: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control character written as a \\xNN (or \\uNNNN) escape; tabs and newlines stay."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


_JSON_UNSAFE: Final = re.compile("[\x7f-\x9f]")


def json_safe(dumped: str) -> str:
    """JSON text (from json.dumps, which escapes only C0 controls) with DEL and C1 controls as \\u escapes too: the
    same JSON value, safe to show on a terminal."""
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", dumped)
