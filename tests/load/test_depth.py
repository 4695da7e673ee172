"""load/depth.py: the C-speed proof that brackets nest within the limit agrees with the exact running count."""

from __future__ import annotations

import random

from kubectl_wasdra.load.depth import _nested_within, _running, too_deep_documents


def _exactly_within(text: str, limit: int) -> bool:
    running = _running(text)
    return min(running, default=0) >= 0 and max(running, default=0) <= limit and (not running or running[-1] == 0)


def test_proof_holds_exactly_when_the_count_says_so() -> None:
    rng = random.Random(7)
    for _ in range(5000):
        text = "".join(rng.choice('[]{}a"') for _ in range(rng.randint(0, 16)))
        limit = rng.randint(1, 5)
        assert _nested_within(text, limit) == _exactly_within(text, limit), (text, limit)


def test_mixed_brackets_count_as_one_kind() -> None:
    assert _nested_within("{[{}]}", 3)
    assert not _nested_within("{[{}]}", 2)  # three deep
    assert not _nested_within("}{", 5)  # unbalanced: not proven, the exact count decides


def test_deep_document_is_still_found_among_shallow_ones() -> None:
    shallow = '{"a": [1, {"b": 2}]}\n' * 300
    deep = "[" * 250 + "]" * 250
    assert too_deep_documents(shallow + "---\n" + deep, 200) == [1]
    assert too_deep_documents(shallow, 200) == []


def test_bytes_proof_agrees_with_the_text_scan() -> None:
    from kubectl_wasdra.load.depth import within_depth

    rng = random.Random(11)
    for _ in range(3000):
        text = "".join(rng.choice(["[", "]", "{", "}", "- ", "a", "é", "\n"]) for _ in range(rng.randint(0, 20)))
        limit = rng.randint(1, 4)
        if within_depth(text.encode(), limit):
            assert too_deep_documents(text, limit) == [], (text, limit)
    assert within_depth(b'{"items": [{"a": [1]}]}', 4)
    assert not within_depth(b"[[[[]]]]", 3)
    assert not within_depth(b"- " * 5, 3)  # `- ` runs: the text scan decides
    assert within_depth(b'["- - - - -"]', 3, json=True)  # in JSON they stand inside strings and nest nothing
