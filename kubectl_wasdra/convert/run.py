"""`kubectl wasdra convert`: files in, converted files out (stdout, in place, or as a diff), one line per object that
changed or could not change, and the runtime config and feature gates the result needs."""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert.engine import Converter, FileResult, Note
from kubectl_wasdra.convert.roundtrip import to_plain
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.load.document import Document, LoadProblem, ProblemKind

STDIN = "-"


@dataclass
class ConvertOutcome:
    """What the command prints (stdout, stderr) and its exit code."""

    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0
    results: list[FileResult] = field(default_factory=list)


def _read(path: str) -> bytes:
    """The file's bytes; OSError beyond check's size limit (convert holds the whole file in memory twice)."""
    from kubectl_wasdra.load.files import DEFAULT_MAX_BYTES

    if path == STDIN:
        data = sys.stdin.buffer.read(DEFAULT_MAX_BYTES + 1)
    else:
        with open(path, "rb") as stream:
            data = stream.read(DEFAULT_MAX_BYTES + 1)
    if len(data) > DEFAULT_MAX_BYTES:
        raise OSError(f"larger than {DEFAULT_MAX_BYTES // (1024 * 1024)} MiB, skipped")
    return data


def convert_paths(paths: Sequence[str], release: Release, runtime_config: Mapping[str, bool], *, mode: str = "print",
                  output: str = "yaml") -> ConvertOutcome:
    """Convert every manifest under `paths`. mode: print (stdout), write (in place) or diff (unified diff)."""
    from kubectl_wasdra.load.files import expand_paths
    from kubectl_wasdra.load.safe_write import rewrite_in_place

    if mode == "write" and STDIN in paths:
        raise UsageError("--write cannot write back to stdin", where="--write", hint="drop --write, or name files")
    files, problems = expand_paths(paths)
    outcome = ConvertOutcome()
    errors = [f"{p.file}:{p.line}:{p.column}: error: {p.message} — {p.hint}" for p in problems]
    unreadable = False
    contents: dict[str, bytes] = {}
    identities: set[tuple[str, str, str]] = set()
    for path in files:
        try:
            raw = _read(path)
        except OSError as exc:
            errors.append(f"{path}:1:1: error: cannot read: {exc} — check the path, its size and that it is UTF-8 text")
            unreadable = True
            continue
        broken, documents = _checked(path, raw)
        if broken:  # converting around a document that does not load would echo it as if it were fine
            errors.extend(broken)
            unreadable = True
            continue
        contents[path] = raw
        identities.update((d.kind, d.namespace or "", d.name) for d in documents if d.kind and d.name)
    converter = Converter(release, runtime_config, existing=frozenset(identities))
    for path, raw in contents.items():
        try:
            result = converter.file(path, raw)
        except UnicodeDecodeError as exc:
            errors.append(f"{path}:1:1: error: cannot read: {exc} — check the path, its size and that it is UTF-8 text")
            unreadable = True
            continue
        outcome.results.append(result)
        if mode == "write" and result.changed:
            try:
                rewrite_in_place(path, result.converted, paths)
            except OSError as exc:
                errors.append(f"{path}:1:1: error: cannot write: {exc.strerror or exc} — convert writes only regular "
                              "files inside the paths given; print the result instead (drop --write)")
                unreadable = True  # the job was not done: exit 2, as check --fix
    outcome.stdout = _stdout(outcome.results, mode, output)
    outcome.stderr = render_notes(outcome.results, release, errors)
    failed = errors or any(n.status == "failed" for r in outcome.results for n in r.notes)
    changed = any(r.changed for r in outcome.results)
    outcome.exit_code = 2 if unreadable or (problems and not files) else 1 if failed or (mode == "diff" and changed) else 0
    return outcome


# what stops a document from loading at all (a syntax error, a bad tag, an alias bomb, nesting, encoding)
_BROKEN: Final = frozenset({ProblemKind.SYNTAX, ProblemKind.DUPLICATE_KEY, ProblemKind.ALIAS_LIMIT, ProblemKind.NOT_UTF8,
                            ProblemKind.BINARY, ProblemKind.TOO_LARGE, ProblemKind.UNREADABLE})


def load_errors(path: str, raw: bytes) -> list[str]:
    """The problems check's loader finds in the file that stop a document from loading, as error lines; convert
    refuses such a file as check reports it (LOAD001, LOAD010 ...), so both commands agree on what is readable."""
    return _checked(path, raw)[0]


def _checked(path: str, raw: bytes) -> tuple[list[str], list[Document]]:
    """load_errors() and the documents check's loader reads from the file, from one parse: their (kind, namespace,
    name) are the input's objects the conversion must not collide with."""
    from kubectl_wasdra.load.files import decode, load_text

    text = decode(path, raw)
    documents, problems = ([], [text]) if isinstance(text, LoadProblem) else load_text(path, text)
    return [f"{p.file}:{p.line}:{p.column}: error: {p.message} — {p.hint or 'fix the file'}"
            for p in problems if p.kind in _BROKEN], documents


def _stdout(results: list[FileResult], mode: str, output: str) -> str:
    if mode == "write":
        return ""
    if mode == "diff":
        return "".join(_diff(r) for r in results if r.changed)
    if output == "json":
        items = [to_plain(d) for r in results for d in r.objects()]
        body = items[0] if len(items) == 1 else {"apiVersion": "v1", "kind": "List", "items": items}
        return json.dumps(body, indent=2, ensure_ascii=False) + "\n"
    texts = [r.converted.decode("utf-8-sig").replace("\r\n", "\n") for r in results]
    return "---\n".join(t if t.endswith("\n") or not t else t + "\n" for t in texts)


def _diff(result: FileResult) -> str:
    before = result.original.decode("utf-8-sig").replace("\r\n", "\n").splitlines(keepends=True)
    after = result.converted.decode("utf-8-sig").replace("\r\n", "\n").splitlines(keepends=True)
    name = result.path.lstrip("/")
    return "".join(difflib.unified_diff(before, after, f"a/{name}", f"b/{name}"))


def _note_line(path: str, note: Note) -> str:
    where = f"{path}:{note.line}:{note.column}"
    what = f"{note.source} {note.kind}" + (f" {note.name}" if note.name else "") if note.kind else "document"
    if note.status == "failed":
        hint = f" — {note.hint}" if note.hint else ""
        return f"{where}: error: cannot convert {what}: {note.message}{hint}"
    verb = "converted" if note.status == "converted" else "kept"
    arrow = f" -> {note.target}" if note.target and note.target != note.source else ""
    needs = ([f"--runtime-config {note.runtime_config}"] if note.runtime_config else []) + (
        [f"gates {', '.join(note.gates)}"] if note.gates else [])
    details = ([note.message] if note.message else []) + ([f"needs {' and '.join(needs)}"] if needs else [])
    detail = f" ({'; '.join(details)})" if details else ""
    return f"{where}: {verb} {what}{arrow}{detail}"


def needs_flags(results: list[FileResult]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The --runtime-config entries and feature gates the converted objects need, sorted."""
    notes = [n for r in results for n in r.notes if n.status != "failed"]
    configs = sorted({n.runtime_config for n in notes if n.runtime_config})
    gates = sorted({g for n in notes for g in n.gates})
    return tuple(configs), tuple(gates)


def render_notes(results: list[FileResult], release: Release, errors: list[str]) -> str:
    lines = [_note_line(r.path, n) for r in results for n in r.notes] + errors
    configs, gates = needs_flags(results)
    converted = sum(n.status == "converted" for r in results for n in r.notes)
    failed = sum(n.status == "failed" for r in results for n in r.notes)
    files = sum(r.changed for r in results)
    lines.append(f"{converted} object(s) converted in {files} file(s) for Kubernetes {release}; {failed} could not be converted")
    if configs or gates:
        flags = (f" --runtime-config {','.join(configs)}" if configs else "") + (
            f" --feature-gates {','.join(g + '=true' for g in gates)}" if gates else "")
        lines.append(f"the result needs:{flags}")
        lines.append(f"check it with: kubectl wasdra check --k8s-version {release}{flags} PATH...")
    return "\n".join(lines) + "\n"



