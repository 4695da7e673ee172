"""Convert the objects of one file for a target release: pick each object's target version (plan), change its shape
with the group's conversion module, check the result against the target schema, and put the file back together."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kubectl_wasdra.catalog.apis import serving_releases
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert import classic, resource, scheduling
from kubectl_wasdra.convert.edit import ConversionError
from kubectl_wasdra.convert.plan import Target, target_for
from kubectl_wasdra.convert.pods import convert_pod_links
from kubectl_wasdra.convert.roundtrip import (
    Chunk,
    SourceText,
    added_documents,
    dump_edited,
    dump_json,
    join_documents,
    json_indent,
    load_yaml,
    split_documents,
    to_plain,
)
from kubectl_wasdra.load.classify import classify

_TOP_API_VERSION: Final = re.compile(r"""^apiVersion:[ \t]*["']?([^\s"'#]+)["']?[ \t]*(?:#.*)?$""", re.MULTILINE)
_TOP_KIND: Final = re.compile(r"""^kind:[ \t]*["']?([^\s"'#]+)["']?[ \t]*(?:#.*)?$""", re.MULTILINE)
_HUB_MODULES: Final = {resource.GROUP: resource, scheduling.GROUP: scheduling}
_SOURCE_VERSIONS: Final = {resource.GROUP: frozenset({"v1alpha3", "v1beta1", "v1beta2", "v1"}),
                           scheduling.GROUP: frozenset({"v1alpha1", "v1alpha2", "v1alpha3", "v1beta1"})}
_CLASSIC_DRA: Final = ("classic DRA (resource.k8s.io/v1alpha2, removed in 1.31) has no conversion to structured parameters: "
                       "write a DeviceClass with CEL selectors and claims whose requests name it")
_NO_OBJECT_HINTS: Final = {
    "PodGroup": "Kubernetes 1.35 has no PodGroup object: delete it and list the group in its Workload's spec.podGroups",
    "ResourceClass": _CLASSIC_DRA, "ResourceClaim": _CLASSIC_DRA, "ResourceClaimTemplate": _CLASSIC_DRA,
}


@dataclass(frozen=True)
class Note:
    """What happened to one object: converted, kept (with what the release needs to serve it) or failed (and why)."""

    line: int
    column: int
    source: str
    kind: str
    name: str
    status: str   # converted | kept | failed
    target: str | None = None
    message: str = ""
    hint: str = ""
    runtime_config: str | None = None
    gates: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnparsedDocument:
    """A YAML document conversion had no reason to parse, kept as text until -o json needs its objects."""

    text: str


@dataclass
class FileResult:
    """One file before and after."""

    path: str
    original: bytes
    converted: bytes
    notes: list[Note] = field(default_factory=list)
    documents: list[Any] = field(default_factory=list)   # every document after conversion, in order (see objects())

    @property
    def changed(self) -> bool:
        return self.original != self.converted

    def objects(self) -> list[Any]:
        """Every object after conversion, in file order (for -o json): unparsed documents are read now."""
        found: list[Any] = []
        for document in self.documents:
            if not isinstance(document, UnparsedDocument):
                found.append(document)
                continue
            try:
                found.extend(_items(load_yaml(document.text)))
            except Exception:  # ruamel raises many types; an unreadable document holds no object to print
                continue
        return found


def _position(obj: Any, base_line: int) -> tuple[int, int]:
    lc = getattr(obj, "lc", None)
    if lc is None:
        return base_line, 1
    try:
        line, col = lc.key("apiVersion")
    except (KeyError, TypeError):
        line, col = lc.line, lc.col
    return base_line + line, col + 1


def _change_version(obj: dict[str, Any], source: str, kind: str, target: str) -> list[dict[str, Any]]:
    """Rewrite obj from `source` to `target` in place; the extra objects the new version needs (hub shape converted)."""
    group, _, version = source.rpartition("/")
    new_group, _, new_version = target.rpartition("/")
    module = _HUB_MODULES.get(group)
    extra: list[dict[str, Any]] = []
    if module is not None and group == new_group and kind in module.KINDS:
        if version not in _SOURCE_VERSIONS[group]:
            raise ConversionError("apiVersion", f"{source} {kind} has no conversion to {target}",
                                  _NO_OBJECT_HINTS.get(kind, f"the API was redesigned; write the object anew for {target}"))
        extra = module.up(obj, kind, version)
        module.down(obj, kind, new_version)
        for item in extra:
            module.down(item, item["kind"], new_version)
            item["apiVersion"] = target
    elif classic.can_convert(source, kind, target):
        if kind == "Ingress":
            classic.convert_ingress(obj)
    else:
        raise ConversionError("apiVersion", f"no mechanical conversion from {source} to {target} for {kind}",
                              "the versions differ in defaults or shape: rewrite it following the Kubernetes "
                              "deprecated API migration guide")
    obj["apiVersion"] = target
    return extra


def _verify(obj: dict[str, Any], release: Release, where: str) -> None:
    """A conversion to an older release must not leave fields its schema lacks (what the old API cannot express)."""
    from kubectl_wasdra.catalog.schemas import validate_document
    from kubectl_wasdra.lint.problem import format_path

    for violation in validate_document(release, to_plain(obj)):
        if violation.category == "unknown":
            path = format_path(violation.path)
            raise ConversionError(path, f"{where} cannot express {path}", "remove it, or target a newer release")


@dataclass(frozen=True)
class Converter:
    """The settings of one run."""

    release: Release
    runtime_config: Mapping[str, bool] = field(default_factory=dict)
    # (kind, namespace, name) of the objects already in the input: a PodGroup a 1.35 Workload implies is not added
    # again when the files define it (two copies would be REF013)
    existing: frozenset[tuple[str, str, str]] = frozenset()

    def object(self, obj: Any, base_line: int) -> tuple[Any, list[Any], Note | None]:
        """(the object, converted or as it was; objects to add after it; what happened, None when nothing to say)."""
        if not isinstance(obj, dict) or not isinstance(obj.get("apiVersion"), str) or not isinstance(obj.get("kind"), str):
            return obj, [], None
        source, kind = obj["apiVersion"], obj["kind"]
        meta = obj.get("metadata")
        name = str(meta.get("name", "")) if isinstance(meta, dict) else ""
        line, column = _position(obj, base_line)
        target = target_for(self.release, source, kind, self.runtime_config)
        work = copy.deepcopy(obj)
        try:
            extra, changes = self._apply(work, source, kind, target)
        except ConversionError as exc:
            message = exc.message if exc.path in ("apiVersion", "kind") else f"{exc.path}: {exc.message}"
            return obj, [], Note(line, column, source, kind, name, "failed", target.api_version, message, exc.hint)
        if target.api_version is None and target.reason:
            return obj, [], Note(line, column, source, kind, name, "failed", None, target.reason,
                                 _NO_OBJECT_HINTS.get(kind, "no conversion exists; the object must be redesigned"))
        changed = work != obj or bool(changes)
        gates = tuple(dict.fromkeys(target.gates + self._field_gates(work) + tuple(
            g for item in extra for g in self._field_gates(item))))
        if not changed and target.runtime_config is None and not target.gates:
            return obj, [], None
        present = [item for item in extra if self._exists(item)]
        extra = [item for item in extra if not self._exists(item)]
        changes += [f"adds {item['kind']} {item['metadata']['name']}" for item in extra]
        changes += [f"keeps the existing {item['kind']} {item['metadata']['name']}" for item in present]
        return (work if changed else obj), extra, Note(
            line, column, source, kind, name, "converted" if changed else "kept", target.api_version or source,
            "; ".join(changes), runtime_config=target.runtime_config, gates=gates)

    def _apply(self, work: dict[str, Any], source: str, kind: str, target: Target) -> tuple[list[dict[str, Any]], list[str]]:
        extra: list[dict[str, Any]] = []
        if target.api_version is not None and target.api_version != source:
            extra = _change_version(work, source, kind, target.api_version)
            if any(r > self.release for r in serving_releases(source, kind)):
                _verify(work, self.release, f"{target.api_version} {kind} (Kubernetes {self.release})")
        return extra, convert_pod_links(work, self.release.minor)

    def _exists(self, obj: dict[str, Any]) -> bool:
        """Whether the input already defines `obj` (same kind and name; a missing namespace matches any)."""
        meta = obj.get("metadata") or {}
        kind, name, namespace = obj.get("kind"), meta.get("name"), meta.get("namespace") or ""
        return any((k, n) == (kind, name) and (ns == namespace or not ns or not namespace)
                   for k, ns, n in self.existing)

    def _field_gates(self, obj: dict[str, Any]) -> tuple[str, ...]:
        """The feature gates, off by default in the release, of the fields the object sets."""
        from kubectl_wasdra.catalog.field_gates import checked_fields, find_governed
        from kubectl_wasdra.catalog.gates import effective_gates

        state = effective_gates(self.release)
        found = [g for f in checked_fields(self.release, obj["apiVersion"], obj["kind"])
                 if next(find_governed(obj, f), None) is not None for g in f.gates_all]
        return tuple(g for g in dict.fromkeys(found) if not state.enabled(g))

    def file(self, path: str, raw: bytes) -> FileResult:
        """Convert every object of one file; the bytes come back unchanged when nothing needs converting."""
        source = SourceText.decode(raw, path)
        if classify(path, source.body) is not None:  # Helm templates, kustomizations ...: check says why it skips them
            return FileResult(path, raw, raw)
        if source.is_json:
            return self._json_file(path, raw, source)
        result = FileResult(path, raw, raw)
        chunks = split_documents(source.body)
        out: list[Chunk] = []
        for chunk in chunks:
            out.append(chunk)
            out.extend(self._chunk(chunk, result))
        body = join_documents(out)
        if body != source.body:
            result.converted = source.encode(body)
        return result

    def _chunk(self, chunk: Chunk, result: FileResult) -> list[Chunk]:
        """Convert one YAML document in place (chunk.text); returns the documents to add after it."""
        text = chunk.source
        if not self._may_change(text):
            result.documents.append(UnparsedDocument(text))
            return []
        try:
            data = load_yaml(text)
        except Exception as exc:  # ruamel raises many types; the check command reports the syntax error itself
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            result.notes.append(Note(chunk.line, 1, "", "", "", "failed", message=f"cannot read the document: {first}",
                                     hint="kubectl wasdra check shows where and why"))
            return []
        new, extra = self._objects(data, chunk.line, result)
        result.documents.extend(_items(new) + extra)
        if new is not data:
            if text != chunk.text:  # the marker line held content: it is part of what was dumped
                chunk.separator = "---\n"
            listed = isinstance(data, dict) and data.get("kind") == "List"   # List items were replaced in place
            chunk.text = dump_edited(new, text, None if listed else data)
        return added_documents(chunk, extra)

    def _may_change(self, text: str) -> bool:
        """False when the document's top-level apiVersion and kind (read from the text) need nothing in the release
        and no pod spec links a group: most documents are then never parsed."""
        if "apiVersion" not in text:
            return False
        if "workloadRef" in text or "schedulingGroup" in text:
            return True
        api_version, kind = _TOP_API_VERSION.search(text), _TOP_KIND.search(text)
        if api_version is None or kind is None or kind.group(1) == "List":
            return True
        target = target_for(self.release, api_version.group(1), kind.group(1), self.runtime_config)
        return bool(target.api_version or target.reason or target.runtime_config or target.gates)

    def _objects(self, data: Any, line: int, result: FileResult) -> tuple[Any, list[Any]]:
        """A document: one object, or a List whose items are converted one by one."""
        if isinstance(data, dict) and data.get("kind") == "List" and isinstance(data.get("items"), list):
            items, changed, extra = data["items"], False, []
            for index, item in enumerate(list(items)):
                new, more, note = self.object(item, line)
                if note is not None:
                    result.notes.append(note)
                if new is not item:
                    items[index], changed = new, True
                extra.extend(more)
            items.extend(extra)
            return (copy.copy(data) if changed or extra else data), []
        new, extra, note = self.object(data, line)
        if note is not None:
            result.notes.append(note)
        return new, extra

    def _json_file(self, path: str, raw: bytes, source: SourceText) -> FileResult:
        result = FileResult(path, raw, raw)
        try:
            data = json.loads(source.body)
        except ValueError as exc:
            result.notes.append(Note(1, 1, "", "", "", "failed", message=f"not valid JSON: {exc}"))
            return result
        new, extra = self._objects(data, 1, result)
        if extra:
            new = {"apiVersion": "v1", "kind": "List", "items": [new, *extra]}
        result.documents.extend(_items(new))
        if new is not data:
            result.converted = source.encode(dump_json(new, json_indent(source.body)))
        return result


def _items(data: Any) -> list[Any]:
    if isinstance(data, dict) and data.get("kind") == "List" and isinstance(data.get("items"), list):
        return list(data["items"])
    return [data] if isinstance(data, dict) else []
