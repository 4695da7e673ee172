"""What a live read will believe of a list response, and how long it will wait for one: the checks that keep a
malformed or endless answer from becoming a confident verdict.

- A list body is a `<Kind>List` whose `items` is a list and whose `metadata.continue` is a string when present; a
  `remainingItemCount` without a token says objects were left out. Anything else (an HTTP 200 carrying a `Status`
  failure, an integer token, `items` that is not a list) is a gap, never a short list.
- A kind stops at `max_objects` objects (and at twice the pages that many objects fill, so an endless run of empty
  pages ends too): the kind is a gap naming the cap.
- Waiting between retries is capped per wait (Retry-After included) and in total for the whole read, well under the
  read deadline; a kind whose retries would overrun the budget is given up as a gap saying so.
Upstream: k8s.io/apimachinery pkg/apis/meta/v1 types.go (ListMeta: continue, remainingItemCount; Status).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

DEFAULT_MAX_OBJECTS: Final = 250_000  # per kind: a 5,000-node cluster at its 150,000-pod limit, with room
RETRY_WAIT_CAP: Final = 2.0  # seconds: the longest single wait, whatever Retry-After says
RETRY_BUDGET: Final = 8.0  # seconds of waiting between retries over a whole read (the deadline is 5 min)
_PAGE_SLACK: Final = 10  # pages allowed past twice what max_objects fill (a server may send short pages)


class ListProblem(Exception):
    """The body cannot be taken as a page of the list; the message says why (a gap)."""


def page_items(page: Mapping[str, Any], kind: str) -> list[Any]:
    """The `items` of one page of a `kind` list; ListProblem when the body is not such a list."""
    body_kind = page.get("kind")
    if body_kind == "Status":
        message = page.get("message") if isinstance(page.get("message"), str) else "no message"
        raise ListProblem(f"the server answered 200 with a Status instead of a {kind}List: {message[:200]}")
    if body_kind is not None and body_kind != f"{kind}List":
        raise ListProblem(f"the server sent a {str(body_kind)[:60]!r}, not a {kind}List")
    items = page.get("items")
    if items is None and body_kind is None:
        raise ListProblem(f"the server sent no {kind}List (no kind, no items)")
    if items is not None and not isinstance(items, list):
        raise ListProblem(f"the {kind}List items are not a list")
    return items or []


def page_token(page: Mapping[str, Any]) -> str | None:
    """The page's continue token, None at the end; ListProblem for a token that is not a string, or objects said to
    remain with no token to read them by."""
    meta = page.get("metadata")
    if meta is None:
        return None
    if not isinstance(meta, dict):
        raise ListProblem("the list metadata is not an object")
    token = meta.get("continue")
    if token is not None and not isinstance(token, str):
        raise ListProblem(f"incomplete: the continue token is not a string ({type(token).__name__})")
    remaining = meta.get("remainingItemCount")
    if not token and isinstance(remaining, int) and not isinstance(remaining, bool) and remaining > 0:
        raise ListProblem(f"incomplete: the server says {remaining} more object(s) remain but sent no continue token")
    return token or None


@dataclass
class ObjectCap:
    """Objects and pages read of one kind, against the per-kind cap."""

    max_objects: int
    page_size: int
    objects: int = 0
    pages: int = 0

    def add(self, count: int) -> None:
        """Count one page of `count` objects; ListProblem once the kind passes the cap."""
        self.objects += count
        self.pages += 1
        if self.objects > self.max_objects:
            raise ListProblem(f"not read in full: more than {self.max_objects} objects (--max-objects)")
        if self.pages > 2 * (self.max_objects // max(self.page_size, 1)) + _PAGE_SLACK:
            raise ListProblem(f"not read in full: {self.pages} pages and {self.objects} objects, past what "
                              f"{self.max_objects} objects fill (--max-objects)")


@dataclass
class RetryBudget:
    """Seconds a whole read may spend waiting between retries (each wait is already capped by the reader)."""

    total: float = RETRY_BUDGET
    spent: float = 0.0

    def wait(self, wanted: float) -> float | None:
        """The pause to take before the next attempt, or None when the budget is spent (give the kind up)."""
        pause = max(wanted, 0.0)
        if self.spent + pause > self.total:
            return None
        self.spent += pause
        return pause

    def exhausted(self) -> str:
        return f"the retries of the whole read may wait {self.total:g}s in all, and that was spent"
