#!/usr/bin/env python3
"""The language server, warm: CPU time from a change to its diagnostics, and memory on a large workspace.

Scenarios (each in this process, through the server's own analysis, as the server runs it after a didChange):
  full     a 100-document file re-checked after an edit that changes every document (the whole-file cost)
  one      the same file after a one-object edit (one document's text changes; the rest reuse their findings)
  moved    a line added to the first object: it changes, and the 99 others keep their findings one line lower
  folder   a workspace folder of --files files (10 documents each by default): its repository index built and
           reused, then one object edited in an ordinary file and in the file every other one names (the hub: it
           defines the DeviceClass all claims use), then the DeviceClass itself edited: a label and its selector with
           the same driver (nothing its dependents read), and the driver its selector pins (they are checked again);
           CPU to the edited file's diagnostics (the server's run) and to all its dependents' (the chunked steps
           after), and peak RSS of a child process that does only that (bench/lsp_server_memory.py: the server itself)

CPU time (user+sys of this process, time.process_time) is reported, median of --repeat runs; the machine is shared,
so wall time would mostly measure the neighbours. Not a test: nothing here asserts a time or a size.

    python bench/lsp_diagnostics.py                 # all of them
    python bench/lsp_diagnostics.py --files 2000 --docs-per-file 10
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from check_throughput import MAKERS

from kubectl_wasdra.lsp.analysis import Analysis
from kubectl_wasdra.lsp.settings import resolve_settings
from kubectl_wasdra.lsp.workspace import Workspace


def manifest(count: int, start: int = 0) -> list[dict]:
    return [MAKERS[i % len(MAKERS)](i) for i in range(start, start + count)]


def text_of(docs: list[dict]) -> str:
    return yaml.safe_dump_all(docs, sort_keys=False)


def cpu_ms(action) -> float:
    start = time.process_time()
    action()
    return (time.process_time() - start) * 1000


def edits(repeat: int) -> tuple[list[float], list[float], list[float], int]:
    """CPU ms per full re-check, per one-object edit and per line added to the first object (every later document
    moves down) of a 100-document file, and its findings."""
    settings = resolve_settings(None, {}, use_config=False)
    workspace = Workspace(None)
    analysis = Analysis(settings, workspace)
    docs = manifest(100)
    path = os.path.abspath("bench-lsp-100.yaml")

    def check(text: str) -> None:
        workspace.open(path, text)
        analysis.run()

    check(text_of(docs))   # warm: imports, schemas, caches
    full, one, moved = [], [], []
    for run in range(repeat):
        changed = [dict(d, metadata={**d["metadata"], "labels": {"run": str(run)}}) for d in docs]
        text = text_of(changed)   # made before the clock starts: the editor sends it
        full.append(cpu_ms(lambda text=text: check(text)))
        docs = changed
        edited = list(docs)
        edited[50] = dict(edited[50], metadata={**edited[50]["metadata"], "annotations": {"edit": str(run)}})
        text = text_of(edited)
        one.append(cpu_ms(lambda text=text: check(text)))
        docs = edited
        notes = {**docs[0]["metadata"].get("annotations", {}), f"note-{run}": "x"}   # one more line each time
        edited = [dict(docs[0], metadata={**docs[0]["metadata"], "annotations": notes}), *docs[1:]]
        text = text_of(edited)
        moved.append(cpu_ms(lambda text=text: check(text)))
        docs = edited
    return full, one, moved, len(analysis.run().get(path, []))


def check_pipeline(repeat: int) -> list[float]:
    """CPU ms of `check`'s own pipeline (run_check, in this process, warm) on a fresh 100-document file each time:
    the yardstick for the every-document-changed case, which re-runs every rule on every document as check does."""
    import dataclasses

    from kubectl_wasdra.lint.pipeline import run_check

    settings = resolve_settings(None, {}, use_config=False)
    times = []
    with tempfile.TemporaryDirectory() as root:
        path = Path(root, "check-100.yaml")
        for run in range(repeat + 1):
            docs = [dict(d, metadata={**d["metadata"], "labels": {"run": str(run)}}) for d in manifest(100)]
            path.write_text(text_of(docs))
            options = dataclasses.replace(settings.options, paths=(str(path),), jobs=1)
            times.append(cpu_ms(lambda options=options: run_check(options)))
    return times[1:]


def memory(files: int, per_file: int) -> None:
    """Child process: a workspace of `files` files, its index built (cold) and reused (warm), then one object edited
    in a file the folder's other files do not name (its context is a few files) and in the one file that defines the
    DeviceClass every claim of the folder names (its context is the whole folder); prints CPU ms and peak RSS (MB)."""
    with tempfile.TemporaryDirectory() as root, tempfile.TemporaryDirectory() as cache:
        for number in range(files):
            Path(root, f"m-{number:05d}.yaml").write_text(text_of(manifest(per_file, number * per_file)))
        settings = resolve_settings(root, {}, use_config=False)

        def workspace() -> Workspace:
            made = Workspace(root, settings.excluded, excludes=settings.excludes, cache_dir=cache)
            made.scan()
            return made

        cold = cpu_ms(workspace)
        warm = cpu_ms(workspace)
        print(f"{files} files, {files * per_file} documents: index built {cold:.0f} ms CPU, reused from its cache "
              f"{warm:.0f} ms CPU (one git ls-files or walk, a stat per file)")
        for number, what in ((files // 2, "a file no other file names"),
                             (0, "the file defining the DeviceClass all claims name")):
            folder = workspace()
            analysis = Analysis(settings, folder)
            path = str(Path(root, f"m-{number:05d}.yaml"))
            docs = manifest(per_file, number * per_file)
            text = text_of(docs)
            opened = cpu_ms(lambda text=text, path=path, folder=folder, analysis=analysis:
                            (folder.open(path, text), analysis.settle()))
            gc.collect()
            gc.freeze()   # as the server does after its first check (lsp/server.py _freeze)
            times = []
            for run in range(6):
                docs[0] = dict(docs[0], metadata={**docs[0]["metadata"], "annotations": {"edit": str(run)}})
                times.append(edit_ms(folder, analysis, path, text_of(docs)))
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"  one object edited in {what}: median {statistics.median(t[0] for t in times):.1f} ms CPU to its "
                  f"diagnostics, {statistics.median(t[1] for t in times):.1f} ms to its dependents' "
                  f"({analysis.dependents_checked} dependent files checked, opening it with them all: {opened:.0f} ms); "
                  f"context {len(folder.context())} documents, {len(folder.dependents)} dependent files; "
                  f"peak RSS so far {peak:.0f} MB")
        hub_edits(folder, analysis, path, docs)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  peak RSS of this process (a fresh one: index, workspace, analysis, all the edits above): {peak:.0f} MB")


def edit_ms(folder: Workspace, analysis: Analysis, path: str, text: str) -> tuple[float, float]:
    """CPU ms from an edit to the edited file's diagnostics (run), and to every dependent's (the steps the server
    takes after publishing them, and the run that publishes their delta)."""
    start = time.process_time()
    folder.open(path, text)
    analysis.run()
    own = time.process_time()
    while analysis.pending:
        before = time.process_time()
        if analysis.step():
            analysis.run()
        STEPS.append((time.process_time() - before) * 1000)
    return (own - start) * 1000, (time.process_time() - start) * 1000


STEPS: list[float] = []   # CPU ms of every step (a chunk of dependents): the longest a new edit waits behind them


def hub_edits(folder: Workspace, analysis: Analysis, path: str, docs: list[dict]) -> None:
    """The DeviceClass itself edited: a label and its selector with the same driver (nothing its dependents read
    without a cluster), then the driver its selector pins (what FIT020 reads: every dependent is checked again)."""
    at = next(i for i, d in enumerate(docs) if d["kind"] == "DeviceClass" and d["metadata"]["name"] == "gpu.example.com")
    edits = {"a label": [], "its selector, same driver": [], "the driver its selector pins": []}
    driver = "gpu.example.com"
    for run in range(4):
        same = {"selectors": [{"cel": {"expression": f'device.driver == "{driver}" && {run} >= 0'}}]}
        driver = "gpu-b.example.com" if driver == "gpu.example.com" else "gpu.example.com"
        other = {"selectors": [{"cel": {"expression": f'device.driver == "{driver}"'}}]}
        for what, spec, labels in (("a label", docs[at]["spec"], {"edit": str(run)}),
                                   ("its selector, same driver", same, None),
                                   ("the driver its selector pins", other, None)):
            before = analysis.dependents_checked
            metadata = {**docs[at]["metadata"], **({"labels": labels} if labels else {})}
            docs[at] = dict(docs[at], metadata=metadata, spec=spec)
            edits[what].append((*edit_ms(folder, analysis, path, text_of(docs)), analysis.dependents_checked - before))
    for what, times in edits.items():
        print(f"  the DeviceClass edited, {what}: median {statistics.median(t[0] for t in times):.1f} ms CPU to "
              f"its file's diagnostics, {statistics.median(t[1] for t in times):.1f} ms to all dependents' "
              f"({max(t[2] for t in times)} dependent files checked again)")
    if STEPS:
        print(f"  {len(STEPS)} chunks of dependents checked in all: median {statistics.median(STEPS):.1f} ms CPU each, "
              f"longest {max(STEPS):.1f} ms (the most an edit arriving meanwhile waits before its own check; "
              f"the five longest: {', '.join(f'{t:.0f}' for t in sorted(STEPS)[-5:])} ms)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--docs-per-file", type=int, default=10)
    parser.add_argument("--memory-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory(args.files, args.docs_per_file)
        return 0
    full, one, moved, findings = edits(args.repeat)
    print(f"100-document file, every document changed: median {statistics.median(full):.1f} ms CPU "
          f"(min {min(full):.1f}, max {max(full):.1f}); {findings} findings")
    print(f"100-document file, one object edited:      median {statistics.median(one):.1f} ms CPU "
          f"(min {min(one):.1f}, max {max(one):.1f})")
    print(f"100-document file, a line added on top:    median {statistics.median(moved):.1f} ms CPU "
          f"(min {min(moved):.1f}, max {max(moved):.1f}; the first object changes, the other 99 move down)")
    pipeline = check_pipeline(args.repeat)
    print(f"check's pipeline on a fresh 100-document file (run_check, -j 1): median {statistics.median(pipeline):.1f} ms "
          f"CPU (min {min(pipeline):.1f}, max {max(pipeline):.1f})")
    subprocess.run([sys.executable, __file__, "--memory-child", "--files", str(args.files),
                    "--docs-per-file", str(args.docs_per_file)], check=True)
    print(f"rerun: python bench/lsp_diagnostics.py --repeat {args.repeat} --files {args.files} "
          f"--docs-per-file {args.docs_per_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
