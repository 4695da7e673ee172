"""Rules: the `rule` decorator and the explicit list of implementations (lint/rules/FAMILIES).

The decorator only tags the function; nothing registers itself on import. `all_rules()` imports the family modules
named in `kubectl_wasdra.lint.rules.FAMILIES` and collects the tagged functions, in that order; `rules_for()` leaves
out the families a check's kinds cannot need.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from kubectl_wasdra.catalog.spelling import closest_name
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.codes import RuleInfo

Scope = Literal["document", "set", "load", "suppression"]
F = TypeVar("F", bound=Callable[..., Any])
_ATTRIBUTE = "__wasdra_rule__"


@dataclass(frozen=True)
class Rule:
    """An implemented rule: its identity, its scope and the check function (whose docstring is its documentation)."""

    info: RuleInfo
    scope: Scope
    check: Callable[..., Any]

    @property
    def doc(self) -> str:
        return _dedent(self.check.__doc__ or "")


def rule(info: RuleInfo, *, scope: Scope = "document") -> Callable[[F], F]:
    """Mark `fn` as the implementation of `info`. Document rules: `fn(doc, ctx) -> Iterator[Problem]`;
    set rules: `fn(docs, ctx) -> Iterator[SetProblem]`; load rules: `fn(problem) -> bool` (does it own the problem)."""

    def decorate(fn: F) -> F:
        setattr(fn, _ATTRIBUTE, Rule(info, scope, fn))
        return fn

    return decorate


@functools.cache
def all_rules() -> tuple[Rule, ...]:
    """Every implemented rule, family by family in FAMILIES order, each family in definition order."""
    from kubectl_wasdra.lint.rules import FAMILIES

    return tuple(implemented for family in FAMILIES for implemented in family_rules(family))


def rules_for(kinds: Iterable[tuple[str, str | None]], *, cluster: bool) -> tuple[Rule, ...]:
    """The rules a check of documents of these (API group, kind)s needs, in all_rules() order: without a cluster, the
    workload families are left out (and not imported) when every kind is one they never report on."""
    from kubectl_wasdra.lint.rules import FAMILIES, UNRELATED_KINDS, WORKLOAD_FAMILIES

    unrelated = not cluster and all(kind in UNRELATED_KINDS for kind in kinds)
    return tuple(implemented for family in FAMILIES if not (unrelated and family in WORKLOAD_FAMILIES)
                 for implemented in family_rules(family))


@functools.cache
def family_rules(family: str) -> tuple[Rule, ...]:
    """The rules of one family module (lint/rules/FAMILY.py), in definition order; imports it on first use."""
    module = importlib.import_module(f"kubectl_wasdra.lint.rules.{family}")
    return tuple(getattr(value, _ATTRIBUTE) for value in vars(module).values() if hasattr(value, _ATTRIBUTE))


@functools.cache
def rule_infos() -> tuple[RuleInfo, ...]:
    """Every RuleInfo declared in lint/codes.py (implemented or not), in declaration order."""
    return tuple(value for value in vars(codes).values() if isinstance(value, RuleInfo))


def find_info(key: str) -> RuleInfo:
    """The RuleInfo for an ID or a name (case-insensitive); UsageError with a suggestion otherwise."""
    wanted = key.strip()
    for info in rule_infos():
        if wanted.upper() == info.id or wanted.lower() == info.name:
            return info
    raise _unknown(wanted, "--select/--ignore")


def select_rules(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> frozenset[str]:
    """IDs of the rules to run: `select` (default ALL) minus `ignore`; each item is ALL, a family, an ID or a name."""
    select = [s for s in select if s.strip()] or ["ALL"]
    chosen = set().union(*(_expand(item, "--select") for item in select))
    dropped = set().union(*(_expand(item, "--ignore") for item in ignore if item.strip()))
    return frozenset(chosen - dropped)


def _expand(item: str, flag: str) -> set[str]:
    key = item.strip()
    infos = rule_infos()
    if key.upper() == "ALL":
        return {i.id for i in infos}
    family = {i.id for i in infos if i.family == key.upper()}
    if family:
        return family
    exact = {i.id for i in infos if key.upper() == i.id or key.lower() == i.name}
    if exact:
        return exact
    raise _unknown(key, flag)


def _unknown(key: str, flag: str) -> UsageError:
    return UsageError(f'unknown rule or family "{key}"', where=flag, hint=unknown_rule_hint(key))


def unknown_rule_hint(key: str) -> str:
    """'did you mean "REF003"?' for a key that names no rule, family or name (flags and suppressions alike)."""
    infos = rule_infos()
    candidates = sorted({i.id for i in infos} | {i.name for i in infos} | {i.family for i in infos} | {"ALL"})
    close = closest_name(key.upper() if key[:1].isupper() else key.lower(), candidates, cutoff=0.5) or \
        closest_name(key, candidates, cutoff=0.5)
    return f'did you mean "{close}"?' if close else "see `kubectl wasdra rules` for the rule IDs"


def _dedent(text: str) -> str:
    import inspect

    return inspect.cleandoc(text)
