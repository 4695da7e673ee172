"""kubectl's --request-timeout syntax (kube/durations.py): accepted as client-go accepts it, rejected as it rejects."""

from __future__ import annotations

import pytest

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.kube.durations import go_duration, parse_duration


@pytest.mark.parametrize(("text", "parsed"), [("0", None), ("30", 30.0), ("30s", 30.0), ("1m", 60.0), ("1h2m3.5s", 3723.5),
                                               ("500ms", 0.5), ("0s", None)], ids=str)
def test_request_timeout_takes_kubectls_format(text: str, parsed: float | None) -> None:
    assert parse_duration(text) == parsed


@pytest.mark.parametrize("text", ["-1", "1x", "s", "", "1 m", "-5s"])
def test_request_timeout_rejects_what_kubectl_rejects(text: str) -> None:
    with pytest.raises(UsageError, match="invalid timeout value"):
        parse_duration(text)


@pytest.mark.parametrize(("text", "parsed"), [("0", 0.0), ("+0", 0.0), ("10s", 10.0), (".5s", 0.5), ("1.s", 1.0),
                                               ("1m30s", 90.0), ("+2h", 7200.0), ("3μs", 3e-6), ("3µs", 3e-6)], ids=str)
def test_go_duration_reads_what_time_parse_duration_reads(text: str, parsed: float) -> None:
    assert go_duration(text) == pytest.approx(parsed)


@pytest.mark.parametrize("text", ["", "10", "-1s", "1x", "1s2", "s", "00", "1 s"])
def test_go_duration_refuses_what_time_parse_duration_refuses_and_negatives(text: str) -> None:
    assert go_duration(text) is None
