"""Loading many files on every core: the files are split into chunks, each chunk loaded in a worker process.

Parsing dominates a check, and it is pure Python/C work per file, so processes (not threads) are what scale.
Small inputs stay in-process: forking costs more than it saves below a few dozen files.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Final

from kubectl_wasdra.load import Document, LoadProblem, LoadResult, expand_paths, load_file

MIN_FILES_PER_WORKER: Final = 24


def worker_count(files: int, jobs: int | None) -> int:
    """How many processes to use for `files` files (1 = in-process)."""
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    cores = jobs
    return max(1, min(cores, files // MIN_FILES_PER_WORKER))


def load_parallel(paths: Sequence[str], *, max_bytes: int, jobs: int | None) -> LoadResult | None:
    """LoadResult for `paths` loaded by a pool, or None when the input is small (the caller loads in-process)."""
    if "-" in paths:
        return None
    files, problems = expand_paths(paths)
    workers = worker_count(len(files), jobs)
    if workers < 2:
        return None
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunks = [files[i::workers] for i in range(workers)]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        results = list(pool.map(_load_chunk, [(chunk, max_bytes) for chunk in chunks]))
    by_file: dict[str, tuple[list[Document], list[LoadProblem]]] = {}
    for chunk_result in results:
        by_file.update(chunk_result)
    documents = [d for f in files for d in by_file[f][0]]
    problems.extend(p for f in files for p in by_file[f][1])
    return LoadResult(tuple(documents), tuple(problems), tuple(files))


def _load_chunk(job: tuple[list[str], int]) -> dict[str, tuple[list[Document], list[LoadProblem]]]:
    chunk, max_bytes = job
    return {file: load_file(file, max_bytes=max_bytes) for file in chunk}
