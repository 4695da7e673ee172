"""A PyYAML loader (libyaml C parser) that resolves plain scalars as Kubernetes does.

Kubernetes reads YAML with sigs.k8s.io/yaml on go-yaml v2 (YAML 1.1 flavoured): `yes`/`no`/`on`/`off`/`y`/`n` are
booleans, `0777` is octal, `0x1F`/`0o17`/`0b101` are integers, `_` is ignored inside numbers, `1e3` is a float, and
timestamps stay strings. PyYAML's default resolver differs (timestamps, `=`, floats need a dot, sexagesimal numbers),
so this module installs go-yaml v2's table instead.
Upstream: go-yaml/yaml v2 resolve.go (resolve table, yamlStyleFloat) and decode.go (timestamps into interface{} stay
strings; allowedAliasRatio), as vendored by sigs.k8s.io/yaml.
"""

from __future__ import annotations

import re
from typing import Any, Final

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.resolver import BaseResolver

_CParser = getattr(yaml, "CParser", None) or getattr(getattr(yaml, "cyaml", None), "CParser", None)

# go-yaml v2 resolve.go: the words of its resolve table
_TRUE: Final = ("y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE")
_FALSE: Final = ("n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE")
_NULL: Final = ("", "~", "null", "Null", "NULL")
_SPECIAL_FLOATS: Final = {".nan": float("nan"), ".NaN": float("nan"), ".NAN": float("nan"),
                          ".inf": float("inf"), ".Inf": float("inf"), ".INF": float("inf"),
                          "+.inf": float("inf"), "+.Inf": float("inf"), "+.INF": float("inf"),
                          "-.inf": float("-inf"), "-.Inf": float("-inf"), "-.INF": float("-inf")}
# strconv.ParseInt(s, 0, 64) after removing "_" (prefixes 0x, 0o, 0b; a leading 0 means octal)
_INT_RE: Final = re.compile(r"^[-+]?_*(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$")
# yamlStyleFloat, applied after removing "_"
_FLOAT_RE: Final = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")

# strconv.ParseInt / ParseUint (64 bits): beyond them go-yaml v2 falls through to ParseFloat
_INT_MIN: Final = -(2**63)
_UINT_MAX: Final = 2**64 - 1
INT_TAG: Final = "tag:yaml.org,2002:int"
FLOAT_TAG: Final = "tag:yaml.org,2002:float"


def resolve_plain(value: str) -> str:
    """The YAML tag go-yaml v2 gives a plain (unquoted) scalar."""
    if value in _NULL:
        return "tag:yaml.org,2002:null"
    if value in _TRUE or value in _FALSE:
        return "tag:yaml.org,2002:bool"
    if value == "<<":
        return "tag:yaml.org,2002:merge"
    first = value[0]
    if first.isdigit() or first in "+-.":
        if value in _SPECIAL_FLOATS:
            return FLOAT_TAG
        number = _int_value(value) if _INT_RE.match(value) else None
        if number is not None and _INT_MIN <= number <= _UINT_MAX:
            return INT_TAG
        if _FLOAT_RE.match(value.replace("_", "")):
            return FLOAT_TAG
    return "tag:yaml.org,2002:str"


def _shown(text: str) -> str:
    """A scalar as an error message quotes it: at most 40 characters."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _int_value(text: str) -> int | None:
    plain = text.replace("_", "")
    sign = -1 if plain.startswith("-") else 1
    digits = plain.lstrip("+-")
    prefix = digits[:2].lower()
    try:
        if prefix in ("0x", "0o", "0b"):
            return sign * int(digits[2:], {"0x": 16, "0o": 8, "0b": 2}[prefix])
        if len(digits) > 1 and digits[0] == "0":
            return sign * int(digits[1:], 8)
        return sign * int(digits, 10)
    except ValueError:
        return None


class KubeResolver(BaseResolver):
    """Resolves plain scalars with go-yaml v2's rules (resolve_plain); quoted scalars are strings."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is yaml.ScalarNode and implicit[0]:
            return resolve_plain(value)
        return super().resolve(kind, value, implicit)


class KubeConstructor(SafeConstructor):
    """SafeConstructor with go-yaml v2 numbers, booleans, string timestamps, and duplicate keys recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.duplicate_keys: list[tuple[str, Any]] = []

    def construct_yaml_bool(self, node: Any) -> bool:
        return self.construct_scalar(node) in _TRUE

    def construct_yaml_int(self, node: Any) -> int:
        value = _int_value(self.construct_scalar(node))
        if value is None:
            raise ConstructorError(None, None, f"{node.value!r} is not an integer", node.start_mark)
        return value

    def construct_yaml_float(self, node: Any) -> float:
        text = self.construct_scalar(node)
        if text in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[text]
        plain = text.replace("_", "")
        value = plain if _FLOAT_RE.match(plain) else _int_value(text)
        try:
            if value is not None:
                return float(value)
        except OverflowError:  # an integer beyond the float range
            pass
        # `!!float abc`: go-yaml v2 refuses it too
        raise ConstructorError(None, None, f"cannot decode {_shown(text)} as a !!float", node.start_mark)

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value != "<<":
                    if key_node.value in seen:
                        self.duplicate_keys.append((key_node.value, key_node.start_mark))
                    seen.add(key_node.value)
        mapping = super().construct_mapping(node, deep=deep)
        if all(isinstance(key, str) for key in mapping):
            return mapping
        if None in mapping:  # sigs.k8s.io/yaml convertToJSONableObject: "Unsupported map key of type" for nil keys
            key_node = next(k for k, _ in node.value if self.construct_object(k, deep=True) is None)
            raise ConstructorError(None, None, "a null key (empty, `~` or `null`) is not allowed in a Kubernetes object",
                                   key_node.start_mark)
        return {_key_string(key): value for key, value in mapping.items()}


def _key_string(key: Any) -> str:
    """sigs.k8s.io/yaml convertToJSONableObject: bool, int and float keys become their string form."""
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, float):
        return {float("inf"): ".inf", float("-inf"): "-.inf"}.get(key, ".nan" if key != key else repr(key))
    return key if isinstance(key, str) else str(key)


KubeConstructor.add_constructor("tag:yaml.org,2002:bool", KubeConstructor.construct_yaml_bool)
KubeConstructor.add_constructor(INT_TAG, KubeConstructor.construct_yaml_int)
KubeConstructor.add_constructor(FLOAT_TAG, KubeConstructor.construct_yaml_float)
KubeConstructor.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)
# go-yaml v2 decodes !!set into a map whose values are null (a Python set is not JSON data)
KubeConstructor.add_constructor("tag:yaml.org,2002:set",
                                lambda loader, node: dict.fromkeys(loader.construct_mapping(node, deep=True)))
# go-yaml v2 decodes !!binary into a string when the target is interface{}
KubeConstructor.add_constructor("tag:yaml.org,2002:binary",
                                lambda loader, node: loader.construct_yaml_binary(node).decode("utf-8", "replace"))

if _CParser is not None:
    class KubeLoader(_CParser, KubeConstructor, KubeResolver):  # type: ignore[misc, valid-type]
        """libyaml parser + Kubernetes scalar resolution."""

        def __init__(self, stream: Any) -> None:
            _CParser.__init__(self, stream)
            KubeConstructor.__init__(self)
            KubeResolver.__init__(self)
else:  # pragma: no cover - PyYAML without libyaml
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class KubeLoader(Reader, Scanner, Parser, Composer, KubeConstructor, KubeResolver):  # type: ignore[no-redef]
        """Pure-Python fallback with the same resolution."""

        def __init__(self, stream: Any) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)
            KubeConstructor.__init__(self)
            KubeResolver.__init__(self)
