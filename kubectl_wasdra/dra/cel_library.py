"""Declarations of the Kubernetes CEL library (quantity, semver, includes, regex find) for the embedded CEL runtime.

Upstream: kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/cel/library/quantity.go, semverlib.go, regex.go and
staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go (includes), release-1.37.
Not provided (compile error "undeclared reference"): the Kubernetes lists library (isSorted, sum, min, max, indexOf,
lastIndexOf), URL, IP/CIDR and format libraries, and the sets extension.
The runtime dispatches Python overloads on concrete kinds only (a `dyn` parameter never matches at run time), so
quantities and versions share map-typed overloads and `includes` is declared once per operand kind.
"""

from __future__ import annotations

import functools
from typing import Any

from kubectl_wasdra.dra import values


def _overload(cel: Any, overload_id: str, result: Any, params: list[Any], impl: Any, *, member: bool) -> Any:
    return cel.Overload(overload_id, result, params, is_member=member, impl=impl)


@functools.cache
def function_decls(includes: bool = True) -> tuple[Any, ...]:
    """FunctionDecl objects for the Kubernetes library functions the DRA environment offers (`includes()` only when
    asked: the API server's new-expressions environment has it only with DRAListTypeAttributes)."""
    from cel_expr_python import cel

    t = cel.Type
    tagged = t.Map(t.STRING, t.STRING)  # Quantity and Semver (values.py)

    def decl(name: str, *overloads: tuple[str, Any, list[Any], Any, bool]) -> Any:
        return cel.FunctionDecl(name, [_overload(cel, oid, res, params, impl, member=member)
                                       for oid, res, params, impl, member in overloads])

    decls = [
        decl("quantity", ("string_to_quantity", tagged, [t.STRING], values.to_quantity, False)),
        decl("isQuantity", ("is_quantity_string", t.BOOL, [t.STRING], values.is_quantity_text, False)),
        decl("semver", ("string_to_semver", tagged, [t.STRING], values.semver_value, False),
             ("string_bool_to_semver", tagged, [t.STRING, t.BOOL], values.semver_value, False)),
        decl("isSemver", ("is_semver_string", t.BOOL, [t.STRING], values.is_semver_text, False),
             ("is_semver_string_bool", t.BOOL, [t.STRING, t.BOOL], values.is_semver_text, False)),
        decl("compareTo", ("tagged_compare_to", t.INT, [tagged, tagged], values.compare, True)),
        decl("isGreaterThan", ("tagged_greater", t.BOOL, [tagged, tagged], lambda a, b: values.compare(a, b) > 0, True)),
        decl("isLessThan", ("tagged_less", t.BOOL, [tagged, tagged], lambda a, b: values.compare(a, b) < 0, True)),
        decl("add", ("quantity_add", tagged, [tagged, tagged], values.add, True),
             ("quantity_add_int", tagged, [tagged, t.INT], values.add, True)),
        decl("sub", ("quantity_sub", tagged, [tagged, tagged], values.sub, True),
             ("quantity_sub_int", tagged, [tagged, t.INT], values.sub, True)),
        decl("sign", ("quantity_sign", t.INT, [tagged], lambda q: values.compare(q, 0), False),
             ("quantity_sign_member", t.INT, [tagged], lambda q: values.compare(q, 0), True)),
        decl("asInteger", ("quantity_as_integer", t.INT, [tagged], values.as_integer, True)),
        decl("asApproximateFloat", ("quantity_as_float", t.DOUBLE, [tagged],
                                    lambda q: float(values.quantity_of(q)), True)),
        decl("isInteger", ("quantity_is_integer", t.BOOL, [tagged], values.is_integer, True)),
        decl("major", ("semver_major", t.INT, [tagged], lambda v: values.version_part(v, 0), True)),
        decl("minor", ("semver_minor", t.INT, [tagged], lambda v: values.version_part(v, 1), True)),
        decl("patch", ("semver_patch", t.INT, [tagged], lambda v: values.version_part(v, 2), True)),
        decl("find", ("string_find", t.STRING, [t.STRING, t.STRING], values.find, True)),
        decl("findAll", ("string_find_all", t.List(t.STRING), [t.STRING, t.STRING], values.find_all, True),
             ("string_find_all_n", t.List(t.STRING), [t.STRING, t.STRING, t.INT], values.find_all, True)),
    ]
    kinds = {"int": t.INT, "string": t.STRING, "bool": t.BOOL, "tagged": tagged}
    receivers = {"list": t.List(t.DYN), **kinds}
    if not includes:
        return tuple(decls)
    decls.append(decl("includes", *[(f"{rname}_includes_{aname}", t.BOOL, [rtype, atype], values.includes, True)
                                    for rname, rtype in receivers.items() for aname, atype in kinds.items()]))
    return tuple(decls)


def _never(*_: Any) -> Any:
    raise ValueError("a checking declaration is never evaluated")


@functools.cache
def checking_decls() -> tuple[Any, ...]:
    """The same library for type checking only (cel_types.py): Quantity and Semver as the distinct opaque types they
    are upstream (quantity.go, semverlib.go), and `includes` accepted on every receiver and operand (dyn, dyn) so the check
    never rejects what the runtime accepts. Never evaluated: the implementations raise."""
    from cel_expr_python import cel

    t = cel.Type
    quantity, semver = t.AbstractType("Quantity"), t.AbstractType("Semver")

    def decl(name: str, *overloads: tuple[str, Any, list[Any], bool]) -> Any:
        return cel.FunctionDecl(name, [_overload(cel, oid, res, params, _never, member=member)
                                       for oid, res, params, member in overloads])

    both = (("quantity", quantity), ("semver", semver))
    decls = [
        decl("quantity", ("string_to_quantity", quantity, [t.STRING], False)),
        decl("isQuantity", ("is_quantity_string", t.BOOL, [t.STRING], False)),
        decl("semver", ("string_to_semver", semver, [t.STRING], False),
             ("string_bool_to_semver", semver, [t.STRING, t.BOOL], False)),
        decl("isSemver", ("is_semver_string", t.BOOL, [t.STRING], False),
             ("is_semver_string_bool", t.BOOL, [t.STRING, t.BOOL], False)),
        decl("compareTo", *[(f"{n}_compare_to", t.INT, [k, k], True) for n, k in both]),
        decl("isGreaterThan", *[(f"{n}_greater", t.BOOL, [k, k], True) for n, k in both]),
        decl("isLessThan", *[(f"{n}_less", t.BOOL, [k, k], True) for n, k in both]),
        decl("add", ("quantity_add", quantity, [quantity, quantity], True),
             ("quantity_add_int", quantity, [quantity, t.INT], True)),
        decl("sub", ("quantity_sub", quantity, [quantity, quantity], True),
             ("quantity_sub_int", quantity, [quantity, t.INT], True)),
        decl("sign", ("quantity_sign", t.INT, [quantity], False), ("quantity_sign_member", t.INT, [quantity], True)),
        decl("asInteger", ("quantity_as_integer", t.INT, [quantity], True)),
        decl("asApproximateFloat", ("quantity_as_float", t.DOUBLE, [quantity], True)),
        decl("isInteger", ("quantity_is_integer", t.BOOL, [quantity], True)),
        *[decl(part, (f"semver_{part}", t.INT, [semver], True)) for part in ("major", "minor", "patch")],
        decl("find", ("string_find", t.STRING, [t.STRING, t.STRING], True)),
        decl("findAll", ("string_find_all", t.List(t.STRING), [t.STRING, t.STRING], True),
             ("string_find_all_n", t.List(t.STRING), [t.STRING, t.STRING, t.INT], True)),
    ]
    decls.append(decl("includes", ("any_includes_any", t.BOOL, [t.DYN, t.DYN], True)))
    return tuple(decls)
