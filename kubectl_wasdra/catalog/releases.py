"""Kubernetes releases this tool knows (1.33-1.37) as a small, hashable value.

Every versioned fact (schemas, gates, served APIs) is keyed by a `Release`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from kubectl_wasdra.errors import UsageError

_RELEASE_RE: Final = re.compile(r"^v?(\d+)\.(\d+)(?:\.\d+)?$")


@dataclass(frozen=True, order=True)
class Release:
    """A Kubernetes minor release, e.g. Release(1, 37); str() gives "1.37"."""

    major: int
    minor: int

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"

    @classmethod
    def parse(cls, text: str) -> Release:
        """Parse "1.37", "v1.37" or "1.37.2"; raise UsageError for anything else or an unknown release."""
        match = _RELEASE_RE.match(text.strip())
        if not match:
            raise UsageError(f'"{text}" is not a Kubernetes version', where="--k8s-version",
                             hint=f"use one of {', '.join(map(str, SUPPORTED))}")
        release = cls(int(match.group(1)), int(match.group(2)))
        if release not in SUPPORTED:
            raise UsageError(f"Kubernetes {release} is not supported", where="--k8s-version",
                             hint=f"use one of {', '.join(map(str, SUPPORTED))}")
        return release

    def previous(self) -> Release | None:
        """The minor before this one, or None for the oldest supported release."""
        index = SUPPORTED.index(self)
        return SUPPORTED[index - 1] if index > 0 else None


SUPPORTED: Final[tuple[Release, ...]] = tuple(Release(1, minor) for minor in range(33, 38))
NEWEST: Final = SUPPORTED[-1]


def minor_key(text: object) -> tuple[int, int]:
    """(major, minor) of a release named in the catalogue data ("1.32"), which may lie outside SUPPORTED."""
    major, minor = str(text).split(".")
    return int(major), int(minor)


def parse_release_list(text: str) -> tuple[Release, ...]:
    """Parse "1.37", "1.35,1.37" or a range "1.35..1.37" (or "1.35-1.37") into sorted releases."""
    releases: set[Release] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        bounds = re.split(r"\.\.|-(?=v?\d)", part, maxsplit=1)
        if len(bounds) == 2:
            low, high = Release.parse(bounds[0]), Release.parse(bounds[1])
            releases.update(r for r in SUPPORTED if low <= r <= high)
        else:
            releases.add(Release.parse(part))
    if not releases:
        raise UsageError("no Kubernetes version given", where="--k8s-version", hint="e.g. --k8s-version 1.37")
    return tuple(sorted(releases))
