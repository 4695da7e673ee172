"""lazy_regex: a deferred pattern matches exactly as the compiled one, is compiled only when used, and the fast paths
that skip it (report/safe.py) give what the pattern gives."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from kubectl_wasdra.lazy_regex import lazy
from kubectl_wasdra.report import safe


def test_a_lazy_pattern_is_compiled_on_first_use_only() -> None:
    pattern = lazy(r"(\d+)-(\w+)", re.ASCII)
    assert "search" not in vars(pattern)
    assert pattern.search("x 12-ab").groups() == ("12", "ab")
    assert "search" in vars(pattern)  # later calls go straight to the compiled pattern's method
    assert pattern.pattern == r"(\d+)-(\w+)" and pattern.flags & re.ASCII


@given(st.text(max_size=40))
def test_a_lazy_pattern_matches_as_the_compiled_one(text: str) -> None:
    source = r"^[ \t]*(a+|\d{2,})(?=:|$)"
    compiled, deferred = re.compile(source, re.MULTILINE), lazy(source, re.MULTILINE)
    assert [m.span() for m in deferred.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert deferred.sub("<\\1>", text) == compiled.sub("<\\1>", text)
    assert bool(deferred.fullmatch(text)) == bool(compiled.fullmatch(text))


@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("\t\x7f\x9b\u202e\ud800"), max_size=30))
def test_the_fast_paths_of_safe_text_agree_with_the_patterns(text: str) -> None:
    assert safe.printable(text) == safe._UNSAFE.sub(safe._escape, text)
    assert safe.json_safe(text) == safe._JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
