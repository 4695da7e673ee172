"""Output for any terminal encoding: text that stdout cannot encode (ASCII, cp1252, `LANG=C` pipes) is rewritten to
what it can, instead of failing with UnicodeEncodeError half-way through a report.

Each format keeps its meaning: JSON (and SARIF) gets `\\uXXXX` escapes, which decode to the same value; XML (JUnit)
gets character references; text gets ASCII stand-ins for our glyphs (em dash, arrows, the placement map's cells)
and, for anything else, the letter without its accent or a `\\uXXXX` escape.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
from typing import Final

# the glyphs the reports use, and the ASCII each becomes; the placement map's cells stay distinct from each other
GLYPHS: Final = {
    "\u2014": "--", "\u2013": "-", "\u2192": "->", "\u2190": "<-", "\u2194": "<->", "\u21d2": "=>", "\u2026": "...",
    "\u2022": "*", "\u00b7": ".", "\u2265": ">=", "\u2264": "<=", "\u2260": "!=", "\u00d7": "x", "\u00a7": "S",
    "\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u00a0": " ",
    "\u25a3": "@", "\u25a0": "#", "\u25a1": ".", "\u2717": "x", "\u2713": "v", "\u2714": "v", "\u2500": "-",
    "\u2502": "|", "\u251c": "+", "\u2514": "+", "\u2588": "#", "\u2591": ".",
}
TEXT_ERRORS: Final = "wasdra-ascii"


def ascii_stand_in(char: str) -> str:
    """ASCII for one character: our glyph table, else the letter without accents (é -> e), else a \\u escape."""
    if char in GLYPHS:
        return GLYPHS[char]
    import unicodedata  # only output to a terminal that cannot show the character needs it

    stripped = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return stripped or _json_escape(char)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code > 0xFFFF:  # JSON writes characters outside the BMP as a UTF-16 surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _text_errors(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(ascii_stand_in(c) for c in error.object[error.start:error.end]), error.end


def _json_errors(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(_json_escape(c) for c in error.object[error.start:error.end]), error.end


@functools.cache
def register() -> None:
    """Register the codec error handlers (once): "wasdra-ascii" for text, "wasdra-json" for JSON."""
    codecs.register_error(TEXT_ERRORS, _text_errors)
    codecs.register_error("wasdra-json", _json_errors)


# the error handler per output format (-o) whose text is not plain: JSON escapes, XML character references
_FORMAT_ERRORS: Final = {"json": "wasdra-json", "sarif": "wasdra-json", "junit": "xmlcharrefreplace",
                              "html": "xmlcharrefreplace"}


def encodable(text: str, encoding: str | None, output: str = "text") -> str:
    """`text` unchanged when `encoding` can encode it; otherwise with what it cannot encode rewritten for `output`,
    the format the text is in: JSON for json and sarif, XML for junit, plain text (ASCII stand-ins) for the others."""
    if not encoding:
        return text
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:  # an encoding Python does not know: ASCII is safe everywhere
        encoding = "ascii"
    register()
    return text.encode(encoding, _FORMAT_ERRORS.get(output, TEXT_ERRORS)).decode(encoding)


def configure_stream(stream: object) -> None:
    """Make a text stream fall back to ASCII stand-ins instead of raising on characters its encoding lacks (for what
    is written without `encodable`, e.g. click's error lines)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None:
        return
    register()
    with contextlib.suppress(ValueError, OSError):  # a closed or detached stream: nothing will be written to it anyway
        reconfigure(errors=TEXT_ERRORS)
