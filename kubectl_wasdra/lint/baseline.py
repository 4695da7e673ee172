"""Baselines for legacy repositories: `--write-baseline FILE` records today's findings, `--baseline FILE` keeps only
the findings that are not in it.

A fingerprint is rule + file + object identity + field path (the message too for findings outside any object), so
it survives unrelated edits that shift lines. SARIF results carry it in `partialFingerprints`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint.problem import Finding
from kubectl_wasdra.load.bounded import read_text_capped

FORMAT_VERSION: Final = 1
SARIF_KEY: Final = "wasdraFingerprint/v1"


def fingerprint(finding: Finding) -> str:
    """A stable hex digest of what the finding is about, independent of its line and column."""
    file = finding.file.replace(os.sep, "/")
    parts = (finding.rule, file, finding.object, finding.path, "" if finding.object else finding.message)
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]


def render_baseline(findings: Iterable[Finding]) -> str:
    """The baseline file: JSON, one entry per finding, sorted, so it diffs well in review."""
    entries = sorted(({"fingerprint": fingerprint(f), "rule": f.rule, "file": f.file.replace(os.sep, "/"),
                       "object": f.object, "path": f.path, "message": f.message} for f in findings),
                     key=lambda e: (e["file"], e["rule"], e["object"], e["path"], e["fingerprint"]))
    return json.dumps({"version": FORMAT_VERSION, "tool": "kubectl-wasdra", "findings": entries}, indent=2,
                      ensure_ascii=False) + "\n"


def read_baseline(path: str) -> Counter[str]:
    """Fingerprints of a baseline file with how often each occurs; UsageError (exit 2) when it is not one."""
    try:
        data = json.loads(read_text_capped(path))
    except OSError as exc:
        raise UsageError(f"cannot read the baseline: {exc.strerror or exc}", where=path,
                         hint="create it with --write-baseline FILE") from None
    except RecursionError:
        raise UsageError("the baseline is nested too deeply to be one", where=path,
                         hint="recreate it with --write-baseline FILE") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"the baseline is not JSON: {str(exc)[:200]}", where=path,
                         hint="recreate it with --write-baseline FILE") from None
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION or not isinstance(data.get("findings"), list):
        raise UsageError("not a kubectl-wasdra baseline (version 1)", where=path, hint="recreate it with --write-baseline FILE")
    return Counter(e["fingerprint"] for e in data["findings"] if isinstance(e, dict) and isinstance(e.get("fingerprint"), str))


def split_by_baseline(findings: Sequence[Finding], known: Counter[str]) -> tuple[list[Finding], list[Finding]]:
    """(new findings, findings the baseline already holds); each baseline entry absorbs one finding."""
    remaining = Counter(known)
    new, old = [], []
    for finding in findings:
        key = fingerprint(finding)
        if remaining[key] > 0:
            remaining[key] -= 1
            old.append(finding)
        else:
            new.append(finding)
    return new, old
