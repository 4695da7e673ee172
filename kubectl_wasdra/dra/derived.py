"""KEP-6080 derived attributes (DRADerivedAttributes, alpha in 1.37, off by default): per request, named CEL
expressions evaluated on each candidate device; the values are seen only by the claim's matchAttribute and
distinctAttribute constraints, and shadow a device attribute of the same name.

Source: kubernetes/enhancements keps/sig-scheduling/6080-dra-derived-attributes/README.md and the resource.k8s.io/v1
API (ExactDeviceRequest.derivedAttributes, DeviceSubRequest.derivedAttributes: `{name, expression}`). The allocator
code of kubernetes/kubernetes PR #140029 was not available to read; evaluation order and the error path follow the
KEP: the expression runs after the request's selectors passed, a runtime error aborts the allocation as a selector
error does, the result is a scalar (int, string, bool) or a list of one of those (compared as a set, as with
DRAListTypeAttributes). With the gate off the API server drops the field, so constraints naming a derived attribute
see no value and never match.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kubectl_wasdra.dra.fields import mappings, path, text
from kubectl_wasdra.reasons import Reason

_SCALAR = {bool: "bool", int: "int", str: "string"}


def _plain(value: Any) -> Any:
    return value.value() if hasattr(value, "value") and callable(value.value) else value


def _typed(value: Any) -> dict[str, Any] | None:
    """A CEL result as a device attribute ({"int": 1}, {"strings": [...]}); None for another type."""
    value = _plain(value)
    kind = _SCALAR.get(type(value))
    if kind is not None:
        return {kind: value}
    if isinstance(value, list) and value:
        items = [_plain(v) for v in value]
        kinds = {_SCALAR.get(type(v)) for v in items}
        if len(kinds) == 1 and None not in kinds:
            return {f"{kinds.pop()}s": items}
    return None


@dataclass
class DerivedAttribute:
    """One `{name, expression}` of a request; values cached per device."""

    name: str
    expression: str
    program: Any = None
    values: dict[str, dict[str, Any] | None] = field(default_factory=dict)

    def value(self, device: Any) -> dict[str, Any] | None:
        """The derived value of `device` as an attribute mapping; AllocationError (SelectorError, fatal) when the
        expression does not compile, fails on the device or yields another type."""
        if device.key in self.values:
            return self.values[device.key]
        from cel_expr_python import cel

        from kubectl_wasdra.dra.cel import _environment  # the selectors' CEL environment (variable `device`)

        env = _environment(True, True)
        if self.program is None:
            self.program = _compiled(self.expression)
            if isinstance(self.program, str):
                raise self._error(f"CEL compile error: {self.program}")
        try:
            result = self.program.eval(device.view.activation(env, ()))
        except (RuntimeError, ValueError, TypeError, OverflowError) as exc:
            raise self._error(f"on device {device.key}: {exc}") from None
        typed = None if result.type() == cel.Type.ERROR else _typed(result.value())
        if typed is None:
            problem = result.value() if result.type() == cel.Type.ERROR else "must be a string, int, bool or a list of one"
            raise self._error(f"on device {device.key}: {problem}")
        self.values[device.key] = typed
        return typed

    def _error(self, message: str) -> Exception:
        from kubectl_wasdra.dra.requests import AllocationError

        return AllocationError(Reason.SELECTOR_ERROR, f"derived attribute {self.name}: {message}")


@functools.lru_cache(maxsize=1024)
def _compiled(expression: str) -> Any:
    """The compiled program, or the compile error text (both cached: every node rebuilds the claim's constraints)."""
    from kubectl_wasdra.dra.cel import _environment

    try:
        return _environment(True, True).compile(expression)
    except RuntimeError as exc:
        return str(exc)


Tables = Mapping[str, Mapping[str, DerivedAttribute]]  # "req" or "req/sub" -> attribute name -> DerivedAttribute


def derived_tables(claim: Mapping[str, Any]) -> dict[str, dict[str, DerivedAttribute]]:
    """The claim's derived attributes per request ("req") and subrequest ("req/sub")."""
    out: dict[str, dict[str, DerivedAttribute]] = {}

    def add(key: str, spec: Any) -> None:
        items = {text(d.get("name")): DerivedAttribute(text(d.get("name")), text(d.get("expression")))
                 for d in mappings((spec or {}).get("derivedAttributes")) if d.get("name") and d.get("expression")}
        if items:
            out[key] = items

    for request in mappings(path(claim, "spec", "devices", "requests")):
        name = text(request.get("name"))
        if isinstance(request.get("exactly"), Mapping):
            add(name, request["exactly"])
        for sub in mappings(request.get("firstAvailable")):
            add(f"{name}/{text(sub.get('name'))}", sub)
    return out
