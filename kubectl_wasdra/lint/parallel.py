"""Running the document-scope rules on every core for large inputs.

The main process loads everything (fast: yaml-rs, json.loads), checks a few documents itself so that schemas, gate
tables and CEL programs are compiled once, then forks workers that inherit the documents and those caches. Each
worker checks a slice of the documents and sends back only its findings. Set-scope rules run afterwards, once, in
the main process. Small inputs stay in-process: forking costs more than it saves below a few hundred documents.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from kubectl_wasdra.lint.context import CheckContext
    from kubectl_wasdra.lint.problem import Finding
    from kubectl_wasdra.lint.registry import Rule
    from kubectl_wasdra.load import Document

MIN_DOCUMENTS_PER_WORKER: Final = 400  # 2 workers from 800 documents
_WORKER_STATE: dict[str, Any] = {}  # set once per forked worker by _init_worker, never in the main process


def worker_count(documents: int, jobs: int | None) -> int:
    """How many processes to use for `documents` documents (1 = in-process)."""
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(jobs, documents // MIN_DOCUMENTS_PER_WORKER))


def document_findings_parallel(documents: Sequence[Document], rules: Sequence[Rule], ctx: CheckContext,
                               jobs: int | None) -> list[Finding]:
    """The same findings as `pipeline.document_findings`, computed by forked workers when the input is large."""
    from kubectl_wasdra.lint.pipeline import document_findings

    workers = worker_count(len(documents), jobs)
    if workers < 2 or ctx.snapshot is not None:
        return document_findings(documents, rules, ctx)
    warm = _warm_up_indexes(documents)
    findings = document_findings([documents[i] for i in warm], rules, ctx)
    done = set(warm)
    rest = [i for i in range(len(documents)) if i not in done]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    slices = [tuple(rest[i::workers]) for i in range(workers)]
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=_init_worker, initargs=(documents, rules, ctx))
    try:
        for part in pool.map(_check_slice, slices):
            findings.extend(part)
    except BaseException:  # Ctrl-C (or a failure): stop the workers now rather than let them finish their slices
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return findings


def _warm_up_indexes(documents: Sequence[Document]) -> list[int]:
    """The first document of every (apiVersion, kind): checking these compiles everything the rules will need."""
    seen: dict[tuple[str | None, str | None], int] = {}
    for index, document in enumerate(documents):
        seen.setdefault((document.api_version, document.kind), index)
    return sorted(seen.values())


def _init_worker(documents: Sequence[Document], rules: Sequence[Rule], ctx: CheckContext) -> None:
    """Runs in each forked worker: the arguments arrive by fork (not pickled). Ctrl-C reaches the whole process group;
    only the main process answers it (one line, exit 130), so workers ignore it instead of printing tracebacks."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_STATE.update(documents=documents, rules=rules, ctx=ctx)


def _check_slice(indexes: tuple[int, ...]) -> list[Finding]:
    from kubectl_wasdra.lint.pipeline import document_findings

    documents = _WORKER_STATE["documents"]
    return document_findings([documents[i] for i in indexes], _WORKER_STATE["rules"], _WORKER_STATE["ctx"])
