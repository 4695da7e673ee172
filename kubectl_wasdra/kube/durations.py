"""kubectl's timeout syntax (`--request-timeout`): a bare integer is seconds, else a Go duration; "0" means no limit.

Upstream: kubernetes/kubernetes staging/src/k8s.io/client-go/tools/clientcmd/client_config.go (getRequestTimeout),
Go's time.ParseDuration for the units.
"""

from __future__ import annotations

import re
from typing import Final

from kubectl_wasdra.errors import UsageError

# Go time.ParseDuration units, in seconds
_UNITS: Final = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_TERM: Final = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)")
# client-go's message for a value it cannot parse (client_config.go)
_INVALID: Final = ("invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a "
                   "corresponding time unit (e.g. 1s | 2m | 3h)")


def parse_duration(text: str, *, flag: str = "--request-timeout") -> float | None:
    """Seconds from kubectl's timeout syntax ("0", "30", "30s", "1m", "1h2m3.5s"); None for 0 (no limit).
    UsageError names the flag for anything else (negative values included)."""
    value = text.strip()
    if re.fullmatch(r"\d+", value):
        seconds = float(int(value))
    else:
        seconds = go_duration(value)
        if seconds is None:
            raise UsageError(_INVALID, where=flag, hint='e.g. "0" (no limit), "30s", "1m"')
    return None if seconds == 0 else seconds


def go_duration(value: str) -> float | None:
    """Seconds of a Go duration (time.ParseDuration: "1h2m3.5s", ".5s", "+10ms", "0"), or None when it does not
    parse or is negative."""
    if value in ("0", "+0", "-0"):
        return 0.0
    body = value[1:] if value[:1] == "+" else value
    if not body or body.startswith("-"):
        return None
    position, total = 0, 0.0
    while position < len(body):
        match = _TERM.match(body, position)
        if match is None:
            return None
        total += float(match.group(1)) * _UNITS[match.group(2)]
        position = match.end()
    return total
