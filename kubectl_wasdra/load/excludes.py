"""Exclude patterns (`--exclude`, the config's `exclude`, the defaults) and the predicate that applies them.

Syntax, as in .gitignore: a pattern without `/` matches a file or directory name at any depth (`values*.yaml`,
`charts`); a pattern with `/` matches from the base directory (`deploy/legacy/**`), an absolute one from the
filesystem root; `*` and `?` stay within one name, `**` spans directories; a trailing `/` matches directories only.
A matching directory excludes everything below it.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable


def anchor(pattern: str, base: str) -> str:
    """`pattern` made absolute at directory `base` when it is anchored (holds a `/` before its end); name patterns
    stay as they are, since they match at any depth."""
    if os.path.isabs(pattern) or "/" not in pattern.rstrip("/"):
        return pattern
    return os.path.join(os.path.abspath(base), pattern)


class _Literal:
    """A pattern without wildcards: compared as a string (compiling a regex for each costs start-up time)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def fullmatch(self, name: str) -> bool:
        return name == self.text


@functools.lru_cache(maxsize=256)
def _regex(pattern: str) -> re.Pattern[str] | _Literal:
    if not any(char in pattern for char in "*?["):
        return _Literal(pattern)
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and "]" in pattern[i + 1:]:
            end = pattern.index("]", i + 1)
            body = pattern[i + 1:end].replace("\\", "\\\\")
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("".join(out))


class Excludes:
    """Patterns relative to `base` (default: the working directory); `matches(path)` says whether a file is left out.
    (A plain class: it is built on every `check`, and a dataclass costs start-up time.)"""

    __slots__ = ("base", "patterns")

    def __init__(self, patterns: tuple[str, ...], base: str = "") -> None:
        self.patterns = patterns
        self.base = base

    @classmethod
    def of(cls, *groups: Iterable[str], base: str = "") -> Excludes:
        return cls(tuple(dict.fromkeys(p.strip() for group in groups for p in group if p.strip())), base)

    def matches(self, path: str) -> bool:
        """True when `path` (a file) or one of its directories matches a pattern; stdin ("-") never does."""
        if path == "-" or not self.patterns:
            return False
        absolute = os.path.abspath(path).replace(os.sep, "/")
        relative = os.path.relpath(absolute, os.path.abspath(self.base or os.getcwd())).replace(os.sep, "/")
        return any(self._match(pattern, absolute, relative) for pattern in self.patterns)

    def excluded(self, absolute_paths: Iterable[str]) -> set[str]:
        """Those of `absolute_paths` (normalised, as os.path.abspath gives them) that `matches` would leave out, without
        normalising each path again: the repository index asks this of every file of a repository on every run."""
        if not self.patterns:
            return set()
        base = os.path.abspath(self.base or os.getcwd()).replace(os.sep, "/")
        prefix = base.rstrip("/") + "/"
        # plain names (".wasdra.yaml", "node_modules") are looked up in a set instead of matched one by one
        literal = {p for p in self.patterns if isinstance(_regex(p), _Literal) and "/" not in p}
        others = [p for p in self.patterns if p not in literal]
        found = set()
        for path in absolute_paths:
            absolute = path.replace(os.sep, "/")
            relative = absolute[len(prefix):] if absolute.startswith(prefix) else os.path.relpath(absolute, base)
            names = (relative if not relative.startswith("..") else absolute).split("/")
            if not literal.isdisjoint(names) or any(self._match(p, absolute, relative) for p in others):
                found.add(path)
        return found

    @staticmethod
    def _match(pattern: str, absolute: str, relative: str) -> bool:
        dir_only = pattern.endswith("/")
        body = pattern.rstrip("/")
        if os.path.isabs(body):
            target = absolute
        elif "/" in body:
            target = relative
        else:  # a name: any component of the path relative to the base (or the absolute path outside it)
            names = (relative if not relative.startswith("..") else absolute).split("/")
            names = names[:-1] if dir_only else names
            regex = _regex(body)
            return any(regex.fullmatch(name) for name in names)
        regex = _regex(body.replace(os.sep, "/"))
        parts = target.split("/")
        prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + (0 if dir_only else 1))]
        return any(regex.fullmatch(prefix) for prefix in prefixes)
