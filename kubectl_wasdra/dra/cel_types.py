"""A static type check of a device selector against the attribute and capacity types a cluster's slices declare.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go (release-1.37) declares
`device.attributes` as map(string, map(string, dyn)): the API server cannot know the types, so a selector comparing an
int attribute with a string compiles and fails on every device at run time ("no such overload"). With a snapshot the
types are known: each DeviceAttribute holds exactly one of int, bool, string, version (or, 1.36+, their list forms),
and capacity values are quantities (compile.go: map(string, map(string, Quantity))).

Method: every literal reference `device.attributes["dom"].name` / `device.attributes["dom"]["name"]` (and the same
for `device.capacity`) whose type is known for certain is replaced by an identifier of exactly the same length,
declared with that type; the rewritten text is compiled by the same CEL checker, so error positions are those of the
original. Nothing is evaluated. Only what is certain is typed: a name declared with different types by different
slices, a domain no slice declares, an access that is optional (`?`, `has()`), or an expression rebinding `device`
(a macro variable or cel.bind) stays `dyn`, and the errors cel-go would not raise at run time (cross-type numeric
comparisons, which Kubernetes enables in apiserver/pkg/cel/environment/base.go) are dropped.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.dra.cel import Token, literal_body, tokens_of

# the scalar DeviceAttribute value fields (resource/v1 types.go) and the CEL type each one has in a selector
ATTRIBUTE_TYPES: Final = {"int": "int", "bool": "bool", "string": "string", "version": "version"}
# The list forms (DRAListTypeAttributes) are never typed: upstream lets scalar operations apply to them
# (`names > 0`, `names == "fish"`, `names.isGreaterThan(semver(...))` match: dynamic-resource-allocation/cel/
# compile_test.go, list-of-int / list-of-string / list-of-semver), which no static list(T) type expresses.
LIST_FIELDS: Final = frozenset({"ints", "bools", "strings", "versions"})
QUANTITY: Final = "quantity"
_NUMERIC: Final = frozenset({"int", "uint", "double"})
_ORDERING: Final = frozenset({"_<_", "_<=_", "_>_", "_>=_"})
_OVERLOAD_RE: Final = re.compile(r"found no matching overload for '([^']+)' applied to '\((.*)\)'")
# the checker's type errors; any other error of the typed compile (none is expected) is not reported
_TYPE_ERRORS: Final = ("found no matching overload for", "cannot be the operand of a select operation",
                       "cannot be the range of a comprehension")


@dataclass(frozen=True)
class Reference:
    """One literal reference to an attribute or capacity value: where it is in the text and its key."""

    start: int
    end: int
    where: str      # attributes | capacity
    domain: str
    name: str

    @property
    def text(self) -> str:
        return f'device.{self.where}["{self.domain}"].{self.name}'


@dataclass(frozen=True)
class DeclaredType:
    """The one type every slice declaring (where, domain, name) gives it, and those slices (sorted)."""

    type_name: str
    slices: tuple[str, ...]


@dataclass(frozen=True)
class SelectorTypeError:
    """A type error of a selector: 1-based line/column inside the expression, the message, the reference at fault."""

    line: int
    column: int
    message: str
    reference: Reference | None
    declared: DeclaredType | None


def _match_reference(tokens: list[Token], i: int) -> tuple[Reference, bool] | None:
    """(reference, optional?) for `device.W["dom"].name` / `device.W["dom"]["name"]` starting at tokens[i]."""
    t = [token.text for token in tokens[i:i + 4]]
    if t != ["device", ".", "attributes", "["] and t != ["device", ".", "capacity", "["]:
        return None
    if i > 0 and tokens[i - 1].text == ".":
        return None  # x.device: not the variable
    j, optional = i + 4, False
    if j < len(tokens) and tokens[j].text == "?":
        j, optional = j + 1, True
    if j + 2 >= len(tokens) or tokens[j].kind != "string" or tokens[j + 1].text != "]":
        return None
    named = _name(tokens, j + 2)
    if named is None:
        return None
    name, end, optional_name = named
    last = tokens[end - 1]
    return Reference(tokens[i].offset, last.offset + len(last.text), t[2], _literal(tokens[j].text), name), \
        optional or optional_name


def _name(tokens: list[Token], j: int) -> tuple[str, int, bool] | None:
    """(name, index after it, optional?) for `.name`, `.?name`, `["name"]` or `[?"name"]` at tokens[j]."""
    if j + 1 >= len(tokens) or tokens[j].text not in (".", "["):
        return None
    opener, j, optional = tokens[j].text, j + 1, False
    if tokens[j].text == "?":
        j, optional = j + 1, True
    if j >= len(tokens):
        return None
    if opener == "." and tokens[j].kind == "ident":
        if j + 1 < len(tokens) and tokens[j + 1].text == "(":
            return None  # a method call on the domain map
        return tokens[j].text, j + 1, optional
    if opener == "[" and tokens[j].kind == "string" and j + 1 < len(tokens) and tokens[j + 1].text == "]":
        return _literal(tokens[j].text), j + 2, optional
    return None


def _literal(text: str) -> str:
    if text[:1] in "rRbB" or "\\" in text:
        return "\0"  # raw, bytes or escaped literals are left dyn: never a declared name
    return literal_body(text)


def references(expression: str) -> tuple[list[Reference], set[tuple[str, str, str]]] | None:
    """The literal references and the keys accessed optionally (`?`, inside has()); None when `device` is rebound."""
    tokens = tokens_of(expression)
    if any(tok.text == "device" and k + 1 < len(tokens) and tokens[k + 1].text == ","
           for k, tok in enumerate(tokens)):
        return None  # a macro variable or cel.bind named device: the text no longer says what it refers to
    if any(tok.text == "/" and k + 1 < len(tokens) and tokens[k + 1].text == "/"
           and tokens[k + 1].offset == tok.offset + 1 for k, tok in enumerate(tokens)):
        return None  # a comment: its text (quotes included) is not tokenized as CEL would
    found, optional = [], set()
    for i in range(len(tokens)):
        matched = _match_reference(tokens, i)
        if matched is None:
            continue
        reference, is_optional = matched
        in_has = i >= 2 and tokens[i - 1].text == "(" and tokens[i - 2].text == "has"
        if is_optional or in_has:
            optional.add((reference.where, reference.domain, reference.name))
        else:
            found.append(reference)
    return found, optional


@functools.cache
def _type(name: str) -> Any:
    from cel_expr_python import cel

    simple = {"int": cel.Type.INT, "bool": cel.Type.BOOL, "string": cel.Type.STRING,
              "version": cel.Type.AbstractType("Semver"), QUANTITY: cel.Type.AbstractType("Quantity")}
    return simple[name]


@functools.lru_cache(maxsize=256)
def _environment(variables: tuple[tuple[str, str], ...]) -> Any:
    """A checking environment: the selector environment plus one typed variable per rewritten reference."""
    from cel_expr_python import cel
    from cel_expr_python.ext import ext_bindings, ext_math, ext_optional, ext_strings

    from kubectl_wasdra.dra.cel_library import checking_decls

    declared = {"device": cel.Type.Map(cel.Type.STRING, cel.Type.DYN)}
    declared.update({name: _type(type_name) for name, type_name in variables})
    extensions = [ext_bindings.ExtBindings(), ext_optional.ExtOptional(), ext_strings.ExtStrings(), ext_math.ExtMath()]
    return cel.NewEnv(variables=declared, extensions=extensions, functions=list(checking_decls()))


def _placeholder(index: int, length: int) -> str | None:
    name = f"_t{index}_"
    return name + "_" * (length - len(name)) if len(name) <= length else None


def _is_runtime_accepted(message: str) -> bool:
    """Errors cel-go accepts in Kubernetes' environment: ordering across int/uint/double (CrossTypeNumericComparisons)
    and equality of numbers of different types (heterogeneous equality: 1 == 1.0 is true)."""
    found = _OVERLOAD_RE.search(message)
    if found is None:
        return False
    args = [a.strip() for a in found.group(2).split(",")]
    numeric = len(args) == 2 and all(a in _NUMERIC for a in args)
    return numeric and (found.group(1) in _ORDERING or found.group(1) in ("_==_", "_!=_"))


def check_types(expression: str, declared: Mapping[tuple[str, str, str], DeclaredType]) -> SelectorTypeError | None:
    """The first type error of `expression` once the references with a certain type are typed, or None (also when
    nothing is typed, or the expression does not compile untyped: VALID031 reports that)."""
    from kubectl_wasdra.dra.cel import compile_selector
    from kubectl_wasdra.errors import CelCompileError

    try:
        compile_selector(expression)
    except CelCompileError:
        return None  # VALID031's finding: only errors the declared types cause are this check's
    found = references(expression)
    if found is None:
        return None
    refs, optional = found
    typed = [r for r in refs if (r.where, r.domain, r.name) in declared and (r.where, r.domain, r.name) not in optional]
    if not typed:
        return None
    text, variables, names = expression, [], {}
    for reference in typed:
        key = (reference.where, reference.domain, reference.name)
        if key not in names:
            names[key] = _placeholder(len(names), reference.end - reference.start)
        name = names[key]
        if name is None or len(name) != reference.end - reference.start:
            continue
        text = text[:reference.start] + name + text[reference.end:]
        variables.append((name, declared[key].type_name))
    if text == expression:
        return None
    return _first_error(expression, text, tuple(sorted(set(variables))), typed, declared)


def _first_error(expression: str, text: str, variables: tuple[tuple[str, str], ...], typed: list[Reference],
                 declared: Mapping[tuple[str, str, str], DeclaredType]) -> SelectorTypeError | None:
    from cel_expr_python import cel

    try:
        program = _environment(variables).compile(text)
    except RuntimeError as exc:
        for line, column, message in re.findall(r"ERROR: <input>:(\d+):(\d+): ([^\n]*)", str(exc)):
            if any(kind in message for kind in _TYPE_ERRORS) and not _is_runtime_accepted(message):
                reference = _culprit(expression, typed, declared, int(line), int(column), message)
                key = (reference.where, reference.domain, reference.name) if reference else None
                return SelectorTypeError(int(line), int(column), user_message(message.strip()), reference,
                                         declared.get(key) if key else None)
        return None
    result = program.return_type()
    if result not in (cel.Type.BOOL, cel.Type.DYN):
        reference = typed[0] if len(typed) == 1 else None
        return SelectorTypeError(1, 1, f"must evaluate to bool, not {_cel_name(result)}", reference,
                                 declared[(reference.where, reference.domain, reference.name)] if reference else None)
    return None


def _cel_name(cel_type: Any) -> str:
    name = str(cel_type.name())
    return name.lower() if name.isupper() else user_message(name)


def _offset(expression: str, line: int, column: int) -> int:
    lines = expression.split("\n")
    return sum(len(text) + 1 for text in lines[:max(line, 1) - 1]) + column - 1


def _culprit(expression: str, typed: list[Reference], declared: Mapping[tuple[str, str, str], DeclaredType],
             line: int, column: int, message: str) -> Reference | None:
    """The typed reference the error is about: of those whose declared type the message names, the nearest at or
    before the error (the first after it when none is before)."""
    at = _offset(expression, line, column)
    text = user_message(message)
    named = [r for r in typed if declared[(r.where, r.domain, r.name)].type_name in text] or typed
    before = [r for r in named if r.start <= at]
    return max(before, key=lambda r: r.start) if before else min(named, key=lambda r: r.start)


def user_message(message: str) -> str:
    """A checker message with the Kubernetes names of the library types."""
    return message.replace("Semver", "version").replace("Quantity", "quantity")
