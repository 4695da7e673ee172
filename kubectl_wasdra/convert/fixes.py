"""`check --fix [--unsafe-fixes]`: the findings that carry one fix get it, in place, with the same round-trip editing
as `convert` (comments, order, quoting, layout, CRLF and BOM kept). Which rules have fixes: lint/codes.py FIXABILITY."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert.edit import rename_key
from kubectl_wasdra.convert.engine import Converter
from kubectl_wasdra.convert.resource import EXACT_FIELDS, nest_request
from kubectl_wasdra.convert.roundtrip import (
    Chunk,
    SourceText,
    added_documents,
    dump_edited,
    join_documents,
    load_yaml,
    split_documents,
    to_plain,
)
from kubectl_wasdra.lint.codes import Fixability, fixability
from kubectl_wasdra.load.bounded import read_capped
from kubectl_wasdra.load.safe_write import rewrite_in_place

_YAML11_BOOLEANS: Final = frozenset({"yes", "no", "on", "off", "y", "n"})
_DID_YOU_MEAN: Final = re.compile(r'^did you mean "([^"]+)"\?$')
_REQUEST: Final = re.compile(r"(?:^|\.)devices\.requests\[\d+\]$")
_NESTED_DRA: Final = frozenset({"resource.k8s.io/v1", "resource.k8s.io/v1beta2"})


@dataclass
class FixSummary:
    """What --fix did (or could do): fixed findings and the fixable ones left for --fix / --unsafe-fixes."""

    fixed: int = 0
    safe: int = 0
    unsafe: int = 0
    files: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def line(self, applied: bool) -> str:
        """ruff's wording: what was fixed, and what more the flags would fix."""
        parts = [f"Fixed {self.fixed} finding(s) in {len(self.files)} file(s)."] if applied else []
        if self.safe:
            parts.append(f"{self.safe} fixable with --fix.")
        if self.unsafe:
            parts.append(f"{self.unsafe} more fixable with --fix --unsafe-fixes.")
        return " ".join(parts)


def _resolve(node: Any, path: str) -> tuple[Any, Any] | None:
    """(parent, key) for a finding path such as `spec.devices.requests[1].deviceClassName`; keys may hold dots."""
    parent, key, rest = None, None, path
    while rest:
        if rest.startswith("["):
            end = rest.index("]")
            index = int(rest[1:end])
            if not isinstance(node, list) or index >= len(node):
                return None
            parent, key, node, rest = node, index, node[index], rest[end + 1:].removeprefix(".")
            continue
        if not isinstance(node, dict):
            return None
        matches = [k for k in node if isinstance(k, str) and (rest == k or rest.startswith((k + ".", k + "[")))]
        if not matches:
            return None
        step = max(matches, key=len)
        parent, key, node, rest = node, step, node[step], rest[len(step):].removeprefix(".")
    return (parent, key) if parent is not None else None


def _quote_boolean_literal(doc: Any, finding: Any, apply: bool) -> Fixability | None:
    """SCHEMA001: `yes`/`no`/`on`/`off` read as booleans by Kubernetes' YAML 1.1 where a string is expected."""
    where = _resolve(doc, finding.path)
    if where is None or "expected string" not in finding.message:
        return None
    parent, key = where
    value = parent[key]
    if type(value) is not str or value.lower() not in _YAML11_BOOLEANS:  # quoted values load as ScalarString subclasses
        return None
    if apply:
        parent[key] = DoubleQuotedScalarString(value)
    return Fixability.SAFE


def _nest_exactly(doc: Any, request_path: str, apply: bool) -> Fixability | None:
    """A v1/v1beta2 DRA request written in the v1beta1 shape: its exact-request fields go under `exactly:`."""
    where = _resolve(doc, request_path)
    if doc.get("apiVersion") not in _NESTED_DRA or where is None:
        return None
    request = where[0][where[1]]
    if not isinstance(request, dict) or "exactly" in request or "firstAvailable" in request \
            or not set(request) & set(EXACT_FIELDS):
        return None
    if apply:
        nest_request(request)
    return Fixability.SAFE


def _unknown_field(doc: Any, finding: Any, apply: bool) -> Fixability | None:
    """SCHEMA002: rename to the single close match, or nest a DRA field that belongs under `exactly:`."""
    parent_path, _, field_name = finding.path.rpartition(".")
    if _REQUEST.search(parent_path) and field_name in EXACT_FIELDS:
        return _nest_exactly(doc, parent_path, apply)
    match = _DID_YOU_MEAN.match(finding.hint or "")
    where = _resolve(doc, finding.path)
    if match is None or where is None or not isinstance(where[0], dict) or match.group(1) in where[0]:
        return None
    if apply:
        rename_key(where[0], field_name, match.group(1))
    return Fixability.SAFE


def _one_of(doc: Any, finding: Any, apply: bool) -> Fixability | None:
    """VALID001 on a DRA request with neither exactly nor firstAvailable."""
    return _nest_exactly(doc, finding.path, apply) if _REQUEST.search(finding.path) else None


FIELD_FIXERS: Final[dict[str, Callable[[Any, Any, bool], Fixability | None]]] = {
    "SCHEMA001": _quote_boolean_literal, "SCHEMA002": _unknown_field, "VALID001": _one_of}
API_RULES: Final = frozenset({"API001", "API002", "API003"})


@dataclass
class _Document:
    """One YAML document of a file being fixed."""

    chunk: Chunk
    data: Any
    extra: list[Any] = field(default_factory=list)
    changed: bool = False


class Fixer:
    """Apply (or count) the fixes of one check run, file by file."""

    def __init__(self, release: Release, runtime_config: Mapping[str, bool], *, apply: bool, unsafe: bool,
                 roots: Sequence[str] = ()) -> None:
        self.converter = Converter(release, runtime_config)
        self.apply, self.unsafe, self.roots = apply, unsafe, tuple(roots)
        self.summary = FixSummary()

    def run(self, findings: Iterable[Any]) -> FixSummary:
        by_file: dict[str, list[Any]] = defaultdict(list)
        for finding in findings:
            if fixability(finding.rule) is not Fixability.NONE and finding.file != "-":
                by_file[finding.file].append(finding)
        for path, found in sorted(by_file.items()):
            self._file(path, found)
        return self.summary

    def _file(self, path: str, findings: list[Any]) -> None:
        try:
            raw = read_capped(path)
            source = SourceText.decode(raw, path)
        except (OSError, UnicodeDecodeError):
            return
        body = self.edited(source, findings)
        if body is None:
            return
        try:
            rewrite_in_place(path, source.encode(body), self.roots)
        except OSError as exc:
            self.summary.refused.append(f"{path}:1:1: not fixed: {exc.strerror or exc}")
            return
        self.summary.files.append(path)

    def edited(self, source: SourceText, findings: list[Any]) -> str | None:
        """The body of `source` with the findings' fixes applied (with apply=True), or None when nothing changed;
        counting only (apply=False) always gives None. An editor's code actions call this on unsaved text."""
        if source.is_json:
            return None  # JSON files: `kubectl wasdra convert` rewrites them; field fixes keep to YAML
        chunks = split_documents(source.body)
        starts = [chunk.line for chunk in chunks]
        documents: dict[int, _Document] = {}
        for finding in sorted(findings, key=lambda f: (f.line, f.column, f.rule)):
            index = max(bisect.bisect_right(starts, finding.line) - 1, 0)   # the document holding the line
            document = documents.get(index) or self._load(chunks[index])
            if document is None:
                continue
            documents[index] = document
            self._fix(document, finding)
        if not self.apply or not any(d.changed for d in documents.values()):
            return None
        return self._joined(chunks, documents)

    def _load(self, chunk: Chunk) -> _Document | None:
        try:
            data = load_yaml(chunk.source)
        except Exception:  # a syntax error is LOAD001's finding, not ours to fix
            return None
        return _Document(chunk, data) if isinstance(data, dict) else None

    def _fix(self, document: _Document, finding: Any) -> None:
        """Apply one finding's fix, or count it (counting edits the loaded copy too, so that two findings with one
        fix, such as VALID001 and SCHEMA002 on a request without `exactly:`, count once)."""
        safety = self._apply(document, finding, apply=False)
        if safety is None:
            return
        allowed = self.apply and (safety is Fixability.SAFE or self.unsafe)
        if not allowed:
            self.summary.safe += safety is Fixability.SAFE
            self.summary.unsafe += safety is Fixability.UNSAFE
            if self.apply:
                return
        self._apply(document, finding, apply=True)
        document.changed = allowed
        self.summary.fixed += allowed

    def _apply(self, document: _Document, finding: Any, *, apply: bool) -> Fixability | None:
        if finding.rule in API_RULES:
            return self._convert(document, apply=apply)
        return FIELD_FIXERS[finding.rule](document.data, finding, apply)

    def _convert(self, document: _Document, *, apply: bool) -> Fixability | None:
        """The API rules' fix is `convert`: safe when only apiVersion changes, unsafe when fields move or objects are added."""
        new, extra, note = self.converter.object(document.data, 0)
        if note is None or note.status != "converted":
            return None
        before = {**to_plain(document.data), "apiVersion": note.target}
        safety = Fixability.SAFE if to_plain(new) == before and not extra else Fixability.UNSAFE
        if apply:
            document.data, document.extra = new, document.extra + extra
        return safety

    @staticmethod
    def _joined(chunks: list[Chunk], documents: dict[int, _Document]) -> str:
        out: list[Chunk] = []
        for index, chunk in enumerate(chunks):
            document = documents.get(index)
            if document is not None and document.changed:
                chunk.text = dump_edited(document.data, chunk.source)
                out.extend([chunk, *added_documents(chunk, document.extra)])
            else:
                out.append(chunk)
        return join_documents(out)


def fix_findings(findings: Iterable[Any], release: Release, runtime_config: Mapping[str, bool], *, apply: bool,
                 unsafe: bool, roots: Sequence[str] = ()) -> FixSummary:
    """Apply the fixes (apply=True) or count them; `unsafe` admits the unsafe ones. Files are written only when they
    are regular files inside `roots` (load/safe_write.py)."""
    return Fixer(release, runtime_config, apply=apply, unsafe=unsafe, roots=roots).run(findings)


def fixed_text(text: str, name: str, findings: Iterable[Any], release: Release, runtime_config: Mapping[str, bool], *,
               unsafe: bool) -> tuple[str | None, FixSummary]:
    """`text` (a file's content, e.g. an editor's buffer) with the findings' fixes applied, None when nothing
    changed, and what was fixable: with `unsafe` False the unsafe fixes are left out and counted."""
    source = SourceText.decode(text.encode("utf-8"), name)
    fixer = Fixer(release, runtime_config, apply=True, unsafe=unsafe)
    body = fixer.edited(source, [f for f in findings if fixability(f.rule) is not Fixability.NONE])
    return (source.encode(body).decode("utf-8") if body is not None else None), fixer.summary
