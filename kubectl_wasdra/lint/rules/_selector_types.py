"""FIT001/FIT002's type check: a selector against the attribute and capacity types the snapshot's slices declare,
reported at the error's line and column inside the expression, before anything is evaluated (dra/cel_types.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.lint.problem import SetProblem
from kubectl_wasdra.lint.rules.validation._base import as_dict, as_list
from kubectl_wasdra.load import Document

if TYPE_CHECKING:
    from kubectl_wasdra.dra.cel_types import SelectorTypeError
    from kubectl_wasdra.lint.rules._devices import ClusterDevices

_SHOWN_SLICES: Final = 3
_EQUALITY: Final = {"'_==_'": "never true", "'_!=_'": "always true"}


def _slices(names: tuple[str, ...]) -> str:
    shown = ", ".join(f'"{name}"' for name in names[:_SHOWN_SLICES])
    more = len(names) - _SHOWN_SLICES
    return shown + (f" and {more} more" if more > 0 else "")


def _message(error: SelectorTypeError) -> tuple[str, str]:
    """(message, hint) naming the attribute, its declared type and the slices that declare it."""
    declared = ""
    if error.reference is not None and error.declared is not None:
        kind = "capacity" if error.reference.where == "capacity" else "attribute"
        declared = (f" ({error.reference.text} is {error.declared.type_name} in every ResourceSlice that declares the "
                    f"{kind}: {_slices(error.declared.slices)})")
    equality = next((effect for op, effect in _EQUALITY.items() if f"overload for {op}" in error.message), None)
    if equality is not None:
        return (f"CEL type error{declared}: {error.message}; at run time the comparison is {equality}",
                "compare with a value of the declared type (kubectl get resourceslices -o yaml)")
    return (f"CEL type error{declared}: {error.message}",
            "fix the expression for the declared type (kubectl get resourceslices -o yaml); the scheduler fails the "
            "allocation with this error on every device it evaluates the expression on")


def type_problem(document: Document, obj: Any, path: tuple[str | int, ...], devices: ClusterDevices
                 ) -> SetProblem | None:
    """The first type error among the selectors of `obj` (a DeviceClass spec or a request) at `path`, or None."""
    from kubectl_wasdra.errors import CelCompileError
    from kubectl_wasdra.lint.rules.validation.cel_rule import error_position

    for position, selector in enumerate(as_list(as_dict(obj).get("selectors"))):
        expression = as_dict(as_dict(selector).get("cel")).get("expression") if isinstance(selector, Mapping) else None
        if not isinstance(expression, str):
            continue
        error = devices.type_error(expression)
        if error is None:
            continue
        where = (*path, "selectors", position, "cel", "expression")
        message, hint = _message(error)
        at = error_position(document, where, expression, CelCompileError(error.message, error.line, error.column))
        return SetProblem(document, where, message, hint, at="value", position=at)
    return None
