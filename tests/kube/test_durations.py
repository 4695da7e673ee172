"""Duration syntax (kube/durations.py) against Go's own ParseDuration table and kubectl's --request-timeout rules,
both written out in go_parse_duration.yaml. Results are compared in whole nanoseconds, as Go holds them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.kube.durations import go_duration, go_nanoseconds, parse_duration

TABLE = yaml.safe_load((Path(__file__).with_name("go_parse_duration.yaml")).read_text(encoding="utf-8"))


def _nanoseconds(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds * 1e9)


@pytest.mark.parametrize("case", TABLE["go"], ids=lambda case: repr(case["in"]))
def test_go_parse_duration_table(case: dict[str, Any]) -> None:
    assert go_nanoseconds(case["in"]) == case["ns"]
    if case.get("negative") or case["ns"] is None:
        assert go_duration(case["in"]) is None


@pytest.mark.parametrize("case", TABLE["request_timeout"], ids=lambda case: repr(case["in"]))
def test_request_timeout_reads_what_kubectl_reads(case: dict[str, Any]) -> None:
    if case.get("error"):
        with pytest.raises(UsageError, match="invalid timeout value"):
            parse_duration(case["in"])
    else:
        assert _nanoseconds(parse_duration(case["in"])) == case["ns"]
