"""`kubectl wasdra convert`: files in, converted files out (stdout, in place, or as a diff), one line per object that
changed or could not change, and the runtime config and feature gates the result needs."""

from __future__ import annotations

import difflib
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert.engine import Converter, FileResult, Note
from kubectl_wasdra.convert.roundtrip import to_plain
from kubectl_wasdra.errors import UsageError

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

    if mode == "write" and STDIN in paths:
        raise UsageError("--write cannot write back to stdin", where="--write", hint="drop --write, or name files")
    files, problems = expand_paths(paths)
    outcome = ConvertOutcome()
    errors = [f"{p.file}:{p.line}:{p.column}: error: {p.message} — {p.hint}" for p in problems]
    contents: dict[str, bytes] = {}
    for path in files:
        try:
            contents[path] = _read(path)
        except OSError as exc:
            errors.append(f"{path}:1:1: error: cannot read: {exc} — check the path, its size and that it is UTF-8 text")
    converter = Converter(release, runtime_config, existing=_identities(contents))
    for path, raw in contents.items():
        try:
            result = converter.file(path, raw)
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(f"{path}:1:1: error: cannot read: {exc} — check the path, its size and that it is UTF-8 text")
            continue
        outcome.results.append(result)
        if mode == "write" and result.changed:
            _write_back(path, result.converted)
    outcome.stdout = _stdout(outcome.results, mode, output)
    outcome.stderr = render_notes(outcome.results, release, errors)
    failed = errors or any(n.status == "failed" for r in outcome.results for n in r.notes)
    changed = any(r.changed for r in outcome.results)
    outcome.exit_code = 2 if problems and not files else 1 if failed or (mode == "diff" and changed) else 0
    return outcome


def _identities(contents: Mapping[str, bytes]) -> frozenset[tuple[str, str, str]]:
    """(kind, namespace, name) of every object of the input files, read with check's loader (unreadable text is
    left to the conversion, which reports it)."""
    from kubectl_wasdra.load.files import decode, load_text

    found = set()
    for path, raw in contents.items():
        text = decode(path, raw)
        if isinstance(text, str):
            for document in load_text(path, text)[0]:
                if document.kind and document.name:
                    found.add((document.kind, document.namespace or "", document.name))
    return frozenset(found)


def _write_back(path: str, data: bytes) -> None:
    """Replace the file atomically, keeping its permission bits."""
    temporary = f"{path}.wasdra-tmp"
    with open(temporary, "wb") as stream:
        stream.write(data)
    os.chmod(temporary, os.stat(path).st_mode & 0o7777)
    os.replace(temporary, path)


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



