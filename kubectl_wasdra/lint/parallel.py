"""Running the document-scope rules on every core for large inputs.

The main process loads everything (fast: yaml-rs, json.loads), checks a few documents itself so that schemas, gate
tables and CEL programs are compiled once, then forks one child per extra core. The children inherit the documents
and those caches, check their share and send back only their findings through a pipe; the main process checks its
own share meanwhile instead of waiting. Set-scope rules run afterwards, once, in the main process. Small inputs stay
in-process: forking costs more than it saves below a few hundred documents.

A bare fork and a pipe rather than a ProcessPoolExecutor: the pool forked a worker for every share (the main process
only waited), started manager and feeder threads and pickled each task; on 2,000 documents that was about 0.1 CPU
second more than checking in one process.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from kubectl_wasdra.lint.context import CheckContext
    from kubectl_wasdra.lint.problem import Finding
    from kubectl_wasdra.lint.registry import Rule
    from kubectl_wasdra.load import Document

MIN_DOCUMENTS_PER_WORKER: Final = 400  # 2 processes from 800 documents


def worker_count(documents: int, jobs: int | None) -> int:
    """How many processes to use for `documents` documents (1 = in-process)."""
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(jobs, documents // MIN_DOCUMENTS_PER_WORKER))


def document_findings_parallel(documents: Sequence[Document], rules: Sequence[Rule], ctx: CheckContext,
                               jobs: int | None) -> list[Finding]:
    """The same findings as `pipeline.document_findings`, computed by this process and forked children when the
    input is large."""
    from kubectl_wasdra.lint.pipeline import document_findings

    workers = worker_count(len(documents), jobs)
    if workers < 2 or ctx.snapshot is not None or not hasattr(os, "fork"):
        return document_findings(documents, rules, ctx)
    warm = _warm_up_indexes(documents)
    findings = document_findings([documents[i] for i in warm], rules, ctx)
    done = set(warm)
    rest = [document for i, document in enumerate(documents) if i not in done]
    size = -(-len(rest) // workers)
    shares = [rest[start:start + size] for start in range(0, len(rest), size)]  # contiguous: see _Child
    children: list[_Child] = []
    try:
        children.extend(_Child.fork(share, rules, ctx) for share in shares[1:])
        findings.extend(document_findings(shares[0], rules, ctx))
        for child in children:
            findings.extend(child.result())
    except BaseException:  # Ctrl-C (or a failure): stop the children now rather than let them finish their shares
        for child in children:
            child.stop()
        raise
    return findings


def _warm_up_indexes(documents: Sequence[Document]) -> list[int]:
    """The first document of every (apiVersion, kind): checking these compiles everything the rules will need."""
    seen: dict[tuple[str | None, str | None], int] = {}
    for index, document in enumerate(documents):
        seen.setdefault((document.api_version, document.kind), index)
    return sorted(seen.values())


@dataclass
class _Child:
    """A forked process checking one share of the documents; its findings (or its exception) arrive pickled.

    Shares are contiguous runs of documents, which sit mostly on their own memory pages: every page a process touches
    (reference counts) is copied on write, and interleaved shares made both processes copy nearly every page."""

    pid: int
    pipe: int  # read end
    done: bool = False

    @classmethod
    def fork(cls, documents: Sequence[Document], rules: Sequence[Rule], ctx: CheckContext) -> _Child:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child, which leaves through os._exit
            os.close(read_end)
            _run_child(write_end, documents, rules, ctx)
        os.close(write_end)
        return cls(pid, read_end)

    def result(self) -> list[Finding]:
        """The child's findings; its exception is raised here (a WasdraError keeps its one-line message)."""
        import pickle  # only inputs large enough to fork need it

        with os.fdopen(self.pipe, "rb") as pipe:
            payload = pipe.read()
        os.waitpid(self.pid, 0)
        self.done = True
        if not payload:
            raise RuntimeError(f"a check worker (pid {self.pid}) exited without an answer")
        ok, value = pickle.loads(payload)
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        if self.done:
            return
        self.done = True
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def ignore_ctrl_c() -> None:
    """Ctrl-C reaches the whole process group; only the main process answers it (one line, exit 130), so children
    ignore it instead of printing tracebacks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_child(write_end: int, documents: Sequence[Document], rules: Sequence[Rule],
               ctx: CheckContext) -> None:  # pragma: no cover - runs in the forked child
    """Check `documents`, write (True, findings) or (False, exception) to the pipe, and leave without running the
    parent's exit handlers or flushing its buffered output a second time."""
    import pickle

    from kubectl_wasdra.lint.pipeline import document_findings

    status = 0
    try:
        ignore_ctrl_c()
        answer: tuple[bool, Any]
        try:
            answer = (True, document_findings(documents, rules, ctx))
        except BaseException as exc:
            answer = (False, exc)
        try:
            payload = pickle.dumps(answer)
        except Exception as exc:  # an exception that does not pickle: its text still reaches the user
            payload = pickle.dumps((False, RuntimeError(f"{type(answer[1]).__name__}: {answer[1]} ({exc})")))
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
    except BaseException:
        status = 1
    finally:
        os._exit(status)
