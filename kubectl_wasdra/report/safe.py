"""Text from manifests made safe to print: control characters (a key or value may hold ESC, BEL, NUL ...) are shown as
escapes, so no report can drive the terminal, break a workflow command, or make XML that does not parse."""

from __future__ import annotations

import re
from typing import Final

from kubectl_wasdra.lazy_regex import lazy

# Characters that reorder or break a line where they are shown (Unicode bidi controls, line/paragraph separators):
# a name holding U+202E shows text reversed, U+2028 starts a new line in many viewers (Trojan Source, CVE-2021-42574)
_INVISIBLE: Final = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
# C0 controls except tab (so CR and LF too: a value never starts a new line), DEL, C1 controls, lone surrogates (not
# encodable as UTF-8), and the invisible reorderers above
_UNSAFE: Final = lazy(f"[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff{_INVISIBLE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` as one line with every control, line-breaking or bidi character written as a \\xNN (or \\uNNNN) escape;
    tabs stay."""
    if text.isascii() and text.isprintable():  # no control character: the pattern is not even compiled
        return text
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


_JSON_UNSAFE: Final = lazy(f"[\x7f-\x9f{_INVISIBLE}]")


def json_safe(dumped: str) -> str:
    """JSON text (from json.dumps, which escapes only C0 controls) with DEL, C1 controls, bidi controls and line
    separators as \\u escapes too: the same JSON value, safe to show on a terminal."""
    if dumped.isascii() and "\x7f" not in dumped:  # DEL is the one character of the set in ASCII
        return dumped
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", dumped)


def neutralise_workflow_commands(text: str) -> str:
    """Text for a CI log: a line whose first non-blank characters are `::` (a GitHub Actions workflow command such as
    `::error::` or `::add-mask::`, which the runner executes wherever it appears at a line start) gets a backslash
    before it, so it is shown, not run."""
    if "::" not in text:
        return text
    return "\n".join("\\" + line if line.lstrip().startswith("::") else line for line in text.split("\n"))


LONG_WORD: Final = 1000  # characters of one word shown in full; longer ones (a 10 MiB name) are cut
_LONG_WORD: Final = lazy(r"\S{" + str(LONG_WORD + 1) + ",}")
MAX_MESSAGE: Final = 20_000


def shortened(text: str) -> str:
    """`text` with every word longer than LONG_WORD characters cut to its start and its length, and the whole cut at
    MAX_MESSAGE: wrapping or echoing a 10 MiB value took minutes (textwrap on one long word)."""
    text = without_long_words(text)
    return text if len(text) <= MAX_MESSAGE else f"{text[:MAX_MESSAGE]}...({len(text)} characters)"


def without_long_words(text: str) -> str:
    """`text` with every word longer than LONG_WORD characters cut to its start and its length."""
    if len(text) <= LONG_WORD:
        return text
    return _LONG_WORD.sub(lambda m: f"{m.group()[:80]}...({len(m.group())} characters)", text)
