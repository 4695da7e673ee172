"""kubectl's timeout syntax (`--request-timeout`): a bare integer is seconds, else a Go duration; "0" means no limit.

Upstream: kubernetes/kubernetes staging/src/k8s.io/client-go/tools/clientcmd/client_config.go (getRequestTimeout),
Go's time.ParseDuration for the units.
"""

from __future__ import annotations

import re
from typing import Final

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lazy_regex import lazy

# Go time.ParseDuration units, in nanoseconds (src/time/format.go unitMap)
_UNITS: Final = {"ns": 1, "us": 1_000, "µs": 1_000, "μs": 1_000, "ms": 1_000_000, "s": 10**9, "m": 60 * 10**9,
                 "h": 3600 * 10**9}
_TERM: Final = lazy(r"([0-9]*)(?:\.([0-9]*))?(ns|us|µs|μs|ms|s|m|h)")
_MAX_NANOSECONDS: Final = 2**63 - 1  # time.Duration is an int64 of nanoseconds
# client-go's message for a value it cannot parse (client_config.go)
_INVALID: Final = ("invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a "
                   "corresponding time unit (e.g. 1s | 2m | 3h)")


def parse_duration(text: str, *, flag: str = "--request-timeout") -> float | None:
    """Seconds from kubectl's timeout syntax ("0", "30", "30s", "1m", "1h2m3.5s"); None for 0 (no limit).
    UsageError names the flag for anything else (negative values included)."""
    value = text.strip()
    if re.fullmatch(r"[0-9]+", value):
        seconds = float(int(value))
    else:
        seconds = go_duration(value)
        if seconds is None:
            raise UsageError(_INVALID, where=flag, hint='e.g. "0" (no limit), "30s", "1m"')
    return None if seconds == 0 else seconds


def go_duration(value: str) -> float | None:
    """Seconds of a Go duration (time.ParseDuration: "1h2m3.5s", ".5s", "+10ms", "0"), or None when it does not
    parse, overflows an int64 of nanoseconds, or is negative (no field that takes one here accepts it)."""
    nanoseconds = go_nanoseconds(value)
    return None if nanoseconds is None or nanoseconds < 0 else nanoseconds / 1e9


def go_nanoseconds(value: str) -> int | None:
    """time.ParseDuration (src/time/format.go): [-+] then terms of digits, an optional fraction and a unit; "0"
    alone needs none. The fraction is scaled as Go scales it (through a float64, truncated)."""
    sign, body = (value[0], value[1:]) if value[:1] in ("-", "+") else ("", value)
    if body == "0":
        return 0
    if not body:
        return None
    position, total = 0, 0
    while position < len(body):
        match = _TERM.match(body, position)
        if match is None or not (match.group(1) or match.group(2)):
            return None  # no digits before the unit (".s", "s")
        unit = _UNITS[match.group(3)]
        whole, fraction = match.group(1) or "0", match.group(2) or ""
        total += int(whole) * unit
        if fraction.strip("0"):
            total += int(float(int(fraction)) * (unit / 10 ** len(fraction)))
        if total > _MAX_NANOSECONDS + (sign == "-"):
            return None
        position = match.end()
    return -total if sign == "-" else total
