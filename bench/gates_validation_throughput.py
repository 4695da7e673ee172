#!/usr/bin/env python3
"""Throughput of the GATE and VALID rule families alone (in-process, no rendering) on the benchmark corpus.

Needs the corpus from `python bench/check_throughput.py` (bench/out/corpus). Prints documents/s (CPU time of this
process, so other load on the machine distorts it less) for the first pass (gate tables, field-gate map and CEL
environment loaded on first use) and for the best of five warm passes.

    python bench/gates_validation_throughput.py [--k8s-version 1.37]
"""

from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import check_documents
from kubectl_wasdra.load import load_paths

CORPUS = Path(__file__).resolve().parent / "out" / "corpus"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k8s-version", default="1.37")
    args = parser.parse_args()
    documents = load_paths([str(CORPUS)]).documents
    rules = []
    for family in ("gates", "validation"):
        module = importlib.import_module(f"kubectl_wasdra.lint.rules.{family}")
        rules += [v.__wasdra_rule__ for v in vars(module).values() if hasattr(v, "__wasdra_rule__")]
    release = Release.parse(args.k8s_version)
    timings = []
    for _ in range(6):
        start = time.process_time()
        findings = check_documents(documents, rules, CheckContext(release=release))
        timings.append(time.process_time() - start)
    for label, elapsed in (("first pass", timings[0]), ("warm (best)", min(timings[1:]))):
        print(f"{label:<11} {len(documents)} documents, {len(findings)} findings: {elapsed:.3f} s, "
              f"{len(documents) / elapsed:,.0f} documents/s")
    print("rerun: python bench/gates_validation_throughput.py")


if __name__ == "__main__":
    main()
