"""Pieces shared by the DRA validators: selectors, tolerations, quantities, request-name references.

Upstream: kubernetes/kubernetes pkg/apis/resource/validation/validation.go (validateSelectorSlice,
validateDeviceToleration, validateRequestNameRef) and pkg/apis/resource/types.go (size limits).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.catalog.spelling import did_you_mean
from kubectl_wasdra.kube.quantity import QuantityError, parse_quantity
from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict, as_list, too_many
from kubectl_wasdra.lint.rules.validation._names import (
    dns_label_error,
    dns_subdomain_error,
    driver_name_error,
    label_key_error,
    label_value_error,
)

DEVICE_SELECTORS_MAX: Final = 32          # resource.DeviceSelectorsMaxSize
DEVICE_TOLERATIONS_MAX: Final = 16        # resource.DeviceTolerationsMaxLength
POOL_NAME_MAX: Final = 253                # resource.PoolNameMaxLength
CEL_EXPRESSION_MAX_LENGTH: Final = 10 * 1024   # resource.CELSelectorExpressionMaxLength
OPAQUE_PARAMETERS_MAX_LENGTH: Final = 10 * 1024   # resource.OpaqueParametersMaxLength (pkg/apis/resource/types.go)
_GO_JSON_ESCAPES: Final = {ord(c): f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"}   # encoding/json's HTML-safe output
TOLERATION_OPERATORS: Final = ("Exists", "Equal")
TOLERATION_EFFECTS: Final = ("NoSchedule", "NoExecute")
NONE_EFFECT_SINCE: Final = Release(1, 35)      # v1.35.0 OpenAPI: "Valid effects are None, NoSchedule and NoExecute"


def selectors(items: Any, path: Path) -> Iterator[Violation]:
    # upstream: validateSelectorSlice / validateSelector / validateCELExpression (length only)
    """Each selector needs `cel.expression` (compiled by the CEL rule); at most 32 selectors."""
    if (v := too_many(items, DEVICE_SELECTORS_MAX, path, "selectors")) is not None:
        yield v
        return
    for index, selector in enumerate(as_list(items)):
        cel = as_dict(selector).get("cel")
        if not isinstance(cel, dict) or not isinstance(cel.get("expression"), str) or not cel["expression"]:
            yield _missing_expression(as_dict(selector), cel, (*path, index))
        elif (size := len(cel["expression"].encode())) > CEL_EXPRESSION_MAX_LENGTH:   # validateCELExpression: bytes
            yield Violation(Check.LIMIT, (*path, index, "cel", "expression"),
                            f"must be no more than {CEL_EXPRESSION_MAX_LENGTH} bytes, has {size}")


def tolerations(items: Any, path: Path, release: Release) -> Iterator[Violation]:
    """Device tolerations (validateDeviceToleration): at most 16; a key, when set, is a label key; operator Equal
    (the default, so unset is Equal) needs a label value, Exists an empty value; effect empty or a taint effect.
    Unlike a Pod toleration, an empty key with Equal is accepted: it is only warned about (UNINTENDED)."""
    if (v := too_many(items, DEVICE_TOLERATIONS_MAX, path, "tolerations")) is not None:
        yield v
        return
    effects = (*TOLERATION_EFFECTS, "None") if release >= NONE_EFFECT_SINCE else TOLERATION_EFFECTS
    for index, toleration in enumerate(as_list(items)):
        if isinstance(toleration, dict):   # anything else is SCHEMA001's finding
            yield from _toleration(toleration, (*path, index), effects)


def _toleration(toleration: dict[str, Any], here: Path, effects: tuple[str, ...]) -> Iterator[Violation]:
    key, operator = str(toleration.get("key") or ""), toleration.get("operator") or "Equal"  # +default="Equal"
    value = toleration.get("value")
    if key and (error := label_key_error(key)):
        yield Violation(Check.NAME, (*here, "key"), f'"{key}": {error}', at="value")
    if operator == "Exists" and value:
        yield Violation(Check.INVALID_VALUE, (*here, "value"), f'value "{value}" must be empty for operator `Exists`',
                        hint="drop the value (Exists matches every value), or use operator: Equal", at="value")
    elif operator == "Equal" and isinstance(value, str) and (error := label_value_error(value)):
        yield Violation(Check.INVALID_VALUE, (*here, "value"), f'invalid value "{value}": {error}', at="value")
    elif operator not in TOLERATION_OPERATORS:
        yield Violation(Check.ENUM, (*here, "operator"), f'unsupported value "{operator}"',
                        hint=f"use one of {', '.join(TOLERATION_OPERATORS)}", at="value")
    if not key and operator == "Equal":
        shown = f'"{value}"' if value else "empty"
        yield Violation(Check.UNINTENDED, here,
                        f"kube-apiserver accepts this toleration, but with an empty key and operator Equal"
                        f"{'' if toleration.get('operator') else ' (the default)'} it tolerates every taint whose "
                        f"value is {shown}, whatever its key: probably not meant",
                        hint="set operator: Exists to tolerate every taint, or set the key of the taint to tolerate")
    effect = toleration.get("effect")
    if effect and effect not in effects:
        yield Violation(Check.ENUM, (*here, "effect"), f'unsupported value "{effect}"',
                        hint=f"use one of {', '.join(effects)} or leave it empty", at="value")


def _missing_expression(selector: dict[str, Any], cel: Any, path: Path) -> Violation:
    """VALID011 for a selector without cel.expression, saying what is there instead."""
    if "expression" in selector:     # `expression:` aligned with `cel:` instead of nested under it
        return Violation(Check.REQUIRED, (*path, "cel"), "cel.expression is required, but cel is empty and "
                         "`expression` is a sibling of `cel` instead of inside it",
                         hint="indent `expression:` under `cel:` (two more spaces)", covers=((*path, "expression"),))
    if cel is None:
        what = "cel is missing" if "cel" not in selector else "cel is empty"
    elif isinstance(cel, dict):
        what = "cel.expression is empty" if "expression" in cel else "cel has no expression"
    else:
        kind = {"str": "string", "list": "list", "int": "number", "float": "number", "bool": "boolean"}
        what = f"cel is a {kind.get(type(cel).__name__, type(cel).__name__)}, not an object"
    at_fault = (*path, "cel", "expression") if isinstance(cel, dict) else (*path, "cel")  # as the schema's "required"
    return Violation(Check.REQUIRED, at_fault, f"cel.expression is required, but {what}",
                     hint='set cel.expression, e.g. device.driver == "gpu.example.com"')


def pool_name(name: Any, path: Path) -> Iterator[Violation]:
    """validatePoolName: required, <= 253 characters, each '/'-separated part a DNS subdomain."""
    if name is not None and not isinstance(name, str):
        return  # SCHEMA001 reports the type
    if not name:
        yield Violation(Check.REQUIRED, path, "pool name is required")
    elif len(name) > POOL_NAME_MAX:
        yield Violation(Check.LIMIT, path, f"must be no more than {POOL_NAME_MAX} characters", at="value")
    elif error := next(filter(None, map(dns_subdomain_error, name.split("/"))), None):
        yield Violation(Check.NAME, path, f'invalid pool name "{name}": {error}', at="value")


def quantity(value: Any, path: Path) -> tuple[Decimal | None, Violation | None]:
    # upstream: apimachinery resource.ParseQuantity (decoding, before validation)
    """Parse a Quantity field; a Violation (at the value) when it does not parse."""
    try:
        return parse_quantity(value), None
    except QuantityError as exc:
        return None, Violation(Check.QUANTITY, path, str(exc), hint='write a quantity such as "1", "500m" or "40Gi"',
                               at="value")


def label_name(value: Any, path: Path, what: str) -> Iterator[Violation]:
    # upstream: validateRequestName / validateDeviceName / validateCounterName = ValidateDNS1123Label
    """A required DNS label (request names, device names, counter names); any other type is SCHEMA001's finding."""
    if value is not None and not isinstance(value, str):
        return
    if not value:
        yield Violation(Check.REQUIRED, path, f"{what} is required")
    elif error := dns_label_error(value):
        yield Violation(Check.NAME, path, f'invalid {what} "{value}": {error}', at="value")


def request_reference(name: Any, path: Path, known: Mapping[str, frozenset[str]]) -> Iterator[Violation]:
    """`req` or `req/sub` naming a request (and subrequest) of the same claim (validateRequestNameRef)."""
    text = str(name)
    parts = text.split("/")
    request = parts[0]
    found = len(parts) <= 2 and request in known and (len(parts) == 1 or parts[1] in known[request])
    if not found:
        names = ", ".join(sorted(known)) or "none"
        choices = [*known, *(f"{name}/{sub}" for name, subs in known.items() for sub in subs)]
        yield Violation(Check.REQUEST_REFERENCE, path,
                        f'"{text}" must be the name of a request in the claim or a request and a subrequest separated by "/"',
                        hint=did_you_mean(text, choices) or f"requests in this claim: {names}", at="value")


def configuration(entry: Any, path: Path) -> Iterator[Violation]:
    """validateDeviceConfiguration of one `config[]` entry (DeviceClass and claims alike): `opaque` is required, and
    validateOpaqueConfiguration checks its driver (validateDriverName) and parameters (validateRawExtension)."""
    opaque = as_dict(entry).get("opaque")
    if not isinstance(opaque, dict):
        yield Violation(Check.REQUIRED, (*path, "opaque") if isinstance(entry, dict) else path, "opaque is required",
                        hint="set opaque.driver and opaque.parameters")
        return
    driver = opaque.get("driver")
    if (driver is None or isinstance(driver, str)) and (error := driver_name_error(driver or "")):   # else SCHEMA001
        yield Violation(Check.REQUIRED if not driver else Check.NAME, (*path, "opaque", "driver"),
                        f'invalid driver "{driver}": {error}' if driver else "driver is required",
                        hint="name the DRA driver the parameters are for, e.g. gpu.example.com",
                        at="value" if driver else "key")
    yield from _parameters(opaque, (*path, "opaque", "parameters"))


def _parameters(opaque: dict[str, Any], path: Path) -> Iterator[Violation]:
    """validateRawExtension: required (null counts as unset), at most 10 Ki of JSON as sent, a JSON object."""
    parameters = opaque.get("parameters")
    if parameters is None:
        yield Violation(Check.REQUIRED, path, "parameters is required",   # at the field, as SCHEMA003 reports it
                        hint="set opaque.parameters to the driver's configuration object (e.g. {} for none)")
        return
    size = _raw_json_length(parameters)
    if size > OPAQUE_PARAMETERS_MAX_LENGTH:
        yield Violation(Check.LIMIT, path, f"must be no more than {OPAQUE_PARAMETERS_MAX_LENGTH} bytes of JSON, "
                        f"has {size}", hint="move bulky configuration out of the claim (e.g. into a ConfigMap the "
                        "driver reads)")
    elif not isinstance(parameters, dict):
        kind = "a list" if isinstance(parameters, list) else f"{type(parameters).__name__} {parameters!r}"
        yield Violation(Check.INVALID_VALUE, path, f"must be a valid JSON object, not {kind}",
                        hint="write the parameters as a mapping, e.g. {apiVersion: gpu.example.com/v1, kind: GpuConfig}",
                        at="value")


def _raw_json_length(value: Any) -> int:
    """Bytes of `value` as kubectl sends it: compact JSON, UTF-8, with Go's HTML escaping of <, > and &."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    return len(text.translate(_GO_JSON_ESCAPES).encode())
