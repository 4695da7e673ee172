"""CEL device selectors: compile once, evaluate on DeviceViews, with DRA's environment and error wording.

Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go and cache.go, and
staging/src/k8s.io/apiserver/pkg/cel/environment/base.go (release-1.37).

Implementation: cel-expr-python (Google's C++ CEL runtime). Chosen because it type-checks at compile time with cel-go
style `line:col` errors (undeclared functions, overload mismatches: what lint needs), has cel.bind, optional types
and the strings extension, takes typed Python overloads for the Kubernetes library, and evaluates on an activation
built once per device. Measured with bench/cel_eval.py (CPU time, 10,000 distinct devices, this machine class):
~70-110k evals/s for a plain attribute selector through CompiledSelector.matches, ~25-40k/s for a selector calling
quantity()/compareTo (Python callbacks), and millions/s for repeats served from the per-device result cache. Inside
the allocator, devices that agree on the fields a selector reads share one evaluation (projection.py), so a fleet of
same-model devices costs a handful of evaluations however many uuids it has.
common-expression-language (Rust) ran ~35-85k evals/s on the same plain selector but only checks syntax at compile
time (an unknown function fails at run time) and converts the input on every call; cel-python is pure Python
(~0.5k/s per the issue). Everything CEL-specific stays behind this module (plus cel_library.py / values.py / views.py
for the Kubernetes library and device values).

Differences from upstream, all documented:
- `device` is declared as `map(string, dyn)`; unknown fields (`device.foo`) are rejected by a token scan with cel-go's
  message "undefined field 'foo'" instead of by the type checker.
- The runtime has no cost tracking, so instead of the run-time limit of 1,000,000 cost units (compile.go) a static bound
  (comprehension nesting x list sizes x cel.bind doublings) makes a hostile expression a CelRuntimeError on every
  evaluation, as upstream's "actual cost limit exceeded" would be; nothing can hang the tool.
- Indexing an unknown domain yields an empty map upstream. We evaluate on the device's own maps first and, only if that
  fails with "no such key" for a domain the expression indexes with a string literal, once more with empty maps for
  those domains; so `"dom" in device.attributes && ...` guards and `has(device.attributes["dom"].x)` both behave as
  upstream (only an expression mixing both forms in one evaluation could still differ).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.dra.projection import Projection, analyse, project
from kubectl_wasdra.dra.views import DeviceView
from kubectl_wasdra.errors import CelCompileError, CelRuntimeError

__all__ = ["CelCompileError", "CelRuntimeError", "CompiledSelector", "DeviceView", "compile_selector"]

MAX_EXPRESSION_LENGTH: Final = 10 * 1024  # apiserver/pkg/apis/resource validation: selector CEL length limit
COST_LIMIT: Final = 1_000_000  # dynamic-resource-allocation/cel/compile.go: per-evaluation runtime cost limit
# scheduler hint appended to "no such key" (dynamic-resource-allocation/structured/internal/.../allocator.go, 1.36+)
NO_SUCH_KEY_HINT: Final = (". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() "
                           "for optional fields")
_DEVICE_FIELDS: Final = frozenset({"driver", "attributes", "capacity"})
_MACROS: Final = frozenset({"all", "exists", "exists_one", "map", "filter", "transformList", "transformMap",
                            "transformMapEntry", "sortBy"})
_TOKEN_RE: Final = re.compile(
    r'(?P<string>[rRbB]{0,2}(?:"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'))'
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)|(?P<number>[0-9][0-9a-fA-FxX.eEuU+-]*)|(?P<space>\s+)|(?P<punct>.)"
)
_PROJECTED_LIMIT: Final = 100_000  # results kept per expression for distinct projections
_ERROR_RE: Final = re.compile(r"ERROR: <input>:(\d+):(\d+): ([^\n]*)")
_MISSING_KEY_RE: Final = re.compile(r'Key not found in map : "?([^"]*)"?')


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    offset: int


def tokens_of(expression: str) -> list[Token]:
    """The expression's tokens with their offsets, spaces left out: the cheap scans (fields, domains, cost, type
    references) read these instead of compiling."""
    return [Token(match.lastgroup or "", match.group(), match.start()) for match in _TOKEN_RE.finditer(expression)
            if match.lastgroup != "space"]


def _position(expression: str, offset: int) -> tuple[int, int]:
    line = expression.count("\n", 0, offset) + 1
    return line, offset - (expression.rfind("\n", 0, offset) + 1) + 1


def literal_body(text: str) -> str:
    """The text between the quotes of a string or bytes literal token (prefix and quotes dropped, escapes kept)."""
    body = text.lstrip("rRbB")
    quote = 3 if body[:3] in ('"""', "'''") else 1
    return body[quote:-quote]


def _check_device_fields(expression: str, tokens: list[Token], allowed: frozenset[str]) -> None:
    """cel-go's "undefined field" for `device.<name>` outside the declared Device fields (position = the dot)."""
    for i in range(len(tokens) - 2):
        first, dot, name = tokens[i], tokens[i + 1], tokens[i + 2]
        preceded_by_dot = i > 0 and tokens[i - 1].text == "."
        if first.text == "device" and not preceded_by_dot and dot.text == "." and name.kind == "ident" \
                and name.text not in allowed:
            line, column = _position(expression, dot.offset)
            raise CelCompileError(f"undefined field '{name.text}'", line, column)


def _indexed_domains(tokens: list[Token]) -> tuple[str, ...]:
    """Domains the expression indexes literally: device.attributes["dom"] / device.capacity["dom"]."""
    domains = []
    for i in range(len(tokens) - 5):
        window = tokens[i:i + 6]
        if (window[0].text == "device" and window[1].text == "." and window[2].text in ("attributes", "capacity")
                and window[3].text == "[" and window[4].kind == "string" and window[5].text == "]"):
            domains.append(literal_body(window[4].text))
    return tuple(sorted(set(domains)))


def estimate_cost(expression: str, tokens: list[Token] | None = None) -> int:
    """A static upper bound on evaluation steps: (largest list)^(comprehension nesting) * 2^(cel.bind count).

    Device inputs are bounded (<= 48 list items per attribute), and without a range function a list can only be as
    long as the literals in the text, so this bound is generous for every realistic selector.
    """
    tokens = tokens_of(expression) if tokens is None else tokens
    stack: list[bool] = []
    depth = max_depth = binds = 0
    for i, token in enumerate(tokens):
        if token.text == "(":
            is_macro = i >= 2 and tokens[i - 1].text in _MACROS and tokens[i - 2].text == "."
            binds += i >= 2 and tokens[i - 1].text == "bind" and tokens[i - 2].text == "."
            stack.append(is_macro)
            depth += is_macro
            max_depth = max(max_depth, depth)
        elif token.text == ")" and stack:
            depth -= stack.pop()
    breadth = max(48, len(expression) // 2)
    return breadth**max_depth * 2 ** min(binds, 64)


@functools.cache
def _environment(allow_multiple: bool, includes: bool = True) -> Any:
    """The CEL environment of DRA selectors (one per field set), built on first use."""
    from cel_expr_python import cel
    from cel_expr_python.ext import ext_bindings, ext_math, ext_optional, ext_strings

    from kubectl_wasdra.dra.cel_library import function_decls

    extensions = [ext_bindings.ExtBindings(), ext_optional.ExtOptional(), ext_strings.ExtStrings(), ext_math.ExtMath()]
    return cel.NewEnv(variables={"device": cel.Type.Map(cel.Type.STRING, cel.Type.DYN)}, extensions=extensions,
                      functions=list(function_decls(includes)))


def _compile_error(expression: str, text: str) -> CelCompileError:
    errors = _ERROR_RE.findall(text)
    if not errors:
        return CelCompileError(text.strip() or "does not compile", 1, 1)
    line, column, message = errors[0]
    more = f" (and {len(errors) - 1} more error{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return CelCompileError(message.strip() + more, int(line), int(column))


def _missing_key(value: Any) -> str | None:
    found = _MISSING_KEY_RE.search(str(value))
    return found.group(1) if found else None


def _runtime_message(value: Any) -> str:
    """cel-go wording for the runtime errors users see most, plus the scheduler's "no such key" hint."""
    text = str(value)
    text = re.sub(r"^[A-Z_]+: ", "", text)
    missing = _MISSING_KEY_RE.search(text)
    if missing:
        return f"no such key: {missing.group(1)}{NO_SUCH_KEY_HINT}"
    return re.sub(r"No matching overloads found\s*:?\s*", "no such overload: ", text).rstrip(": ")


@dataclass
class CompiledSelector:
    """One compiled selector expression; `matches` evaluates it on a device (results cached on the DeviceView)."""

    expression: str
    program: Any
    env: Any
    domains: tuple[str, ...] = ()
    cost: int = 0
    _error: Any = field(default=None, repr=False)
    projection: Projection | None = None
    _projected: dict[tuple[Any, ...], bool | str] = field(default_factory=dict, repr=False)

    def matches_device(self, driver: str, raw: Mapping[str, Any], view: Callable[[], DeviceView],
                       error: Callable[[], str | None]) -> bool:
        """`matches` for a device given as its raw dict: devices with the same projection (projection.py) share one
        evaluation; `view` builds the DeviceView only when an evaluation is needed, `error` is the device's
        conversion error (views.value_error)."""
        if self.projection is None or self.cost > COST_LIMIT:
            return self.matches(view())
        problem = error()
        if problem:
            raise CelRuntimeError(problem)
        key = project(self.projection, driver, raw)
        found = self._projected.get(key)
        if found is None:
            try:
                found = self.matches(view())
            except CelRuntimeError as exc:
                found = exc.message
            if len(self._projected) >= _PROJECTED_LIMIT:
                self._projected.clear()
            self._projected[key] = found
        if isinstance(found, str):
            raise CelRuntimeError(found)
        return found

    def matches(self, view: DeviceView) -> bool:
        """True/False for this device; CelRuntimeError for a runtime error (missing key, bad value, cost limit)."""
        cached = view.results.get(self.expression)
        if cached is not None:
            return cached
        if self.cost > COST_LIMIT:
            raise CelRuntimeError("operation cancelled: actual cost limit exceeded")
        if view.error:
            raise CelRuntimeError(view.error)
        try:
            result = self.program.eval(view.activation(self.env, ()))
            value = result.value()
            if result.type() == self._error and self.domains and _missing_key(value) in self.domains:
                # an unknown domain indexes as {} upstream: evaluate again with empty maps for the literal domains
                result = self.program.eval(view.activation(self.env, self.domains))
                value = result.value()
        except (RuntimeError, ValueError, TypeError, OverflowError) as exc:  # the runtime refused the device's values
            raise CelRuntimeError(str(exc)) from None
        if result.type() == self._error:
            raise CelRuntimeError(_runtime_message(value))
        if not isinstance(value, bool):
            raise CelRuntimeError(f"CEL result of type {_type_name(result.type())} could not be converted to bool")
        view.results[self.expression] = value
        return value


def _allow_multiple(release: Release | None) -> bool:
    # DRAConsumableCapacity (device.allowMultipleAllocations) is alpha in 1.34/1.35, beta and on from 1.36
    return release is None or release >= Release(1, 36)


def compile_selector(expression: str, release: Release | None = None, *, consumable_capacity: bool | None = None,
                     list_attributes: bool = True) -> CompiledSelector:
    """Compile a device selector once (cached by text and environment); CelCompileError with 1-based line/column.

    The default is the scheduler's stored-expressions environment (everything available). For API-server style checks
    of new expressions pass `consumable_capacity` (adds device.allowMultipleAllocations) and `list_attributes`
    (DRAListTypeAttributes, adds includes()) as the gates say.
    """
    if not isinstance(expression, str):
        raise CelCompileError(f"CEL expression must be a string, not {type(expression).__name__}", 1, 1)
    allow_multiple = _allow_multiple(release) if consumable_capacity is None else consumable_capacity
    compiled = _compile(expression, allow_multiple, list_attributes)
    if isinstance(compiled, CelCompileError):
        raise CelCompileError(compiled.message, compiled.line, compiled.column, hint=compiled.hint)
    return compiled


@functools.lru_cache(maxsize=4096)
def _compile(expression: str, allow_multiple: bool, list_attributes: bool = True) -> CompiledSelector | CelCompileError:
    """The compiled selector, or its compile error: both cached, as an invalid selector recurs for every device."""
    try:
        return _build(expression, allow_multiple, list_attributes)
    except CelCompileError as exc:
        return exc.with_traceback(None)  # cached: keep no frames alive


def _build(expression: str, allow_multiple: bool, list_attributes: bool) -> CompiledSelector:
    if not expression.strip():
        raise CelCompileError("CEL expression empty (unsupported selector type?)", 1, 1)
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise CelCompileError(f"expression is {len(expression)} characters long, longer than the limit of "
                              f"{MAX_EXPRESSION_LENGTH}", 1, 1)
    env = _environment(allow_multiple, list_attributes)
    try:
        program = env.compile(expression)
    except RuntimeError as exc:
        raise _compile_error(expression, str(exc)) from None
    tokens = tokens_of(expression)
    allowed = _DEVICE_FIELDS | ({"allowMultipleAllocations"} if allow_multiple else frozenset())
    _check_device_fields(expression, tokens, allowed)
    from cel_expr_python import cel

    return_type = program.return_type()
    if return_type not in (cel.Type.BOOL, cel.Type.DYN):
        raise CelCompileError(f"must evaluate to bool or the unknown type, not {_type_name(return_type)}", 1, 1)
    return CompiledSelector(expression, program, env, _indexed_domains(tokens), estimate_cost(expression, tokens),
                            cel.Type.ERROR, analyse([(t.kind, t.text) for t in tokens]))


def _type_name(cel_type: Any) -> str:
    name = str(cel_type.name()).lower()
    if name.startswith(("list", "map")) and "string, string" not in name:
        return name[:4].rstrip("(<")  # cel-go names the kind only: "list", "map"
    return "Quantity or Semver" if name.startswith("map") and "string, string" in name else name
