#!/usr/bin/env python3
"""Throughput of `kubectl wasdra convert` (in process, no output written) over tests/corpus/realworld and
tests/corpus/upstream: files, documents and converted objects per second, best of --repeat; and the no-op case (the converted
corpus converted again, where every document is parsed and nothing is rewritten).

    python bench/convert_throughput.py --repeat 5
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert.engine import Converter
from kubectl_wasdra.convert.roundtrip import SourceText, split_documents
from kubectl_wasdra.load.files import expand_paths

ROOT = Path(__file__).resolve().parent.parent
CORPORA = (ROOT / "tests" / "corpus" / "realworld", ROOT / "tests" / "corpus" / "upstream")


def _best(inputs: list[tuple[str, bytes]], converter: Converter, repeat: int) -> tuple[float, float, int]:
    """Best wall-clock and best CPU seconds of `repeat` runs (CPU time is what a busy shared machine distorts least)."""
    wall = cpu = float("inf")
    converted = 0
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        results = [converter.file(path, raw) for path, raw in inputs]
        wall, cpu = min(wall, time.perf_counter() - start), min(cpu, time.process_time() - start_cpu)
        converted = sum(n.status == "converted" for r in results for n in r.notes)
    return wall, cpu, converted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--to", default="1.37")
    args = parser.parse_args()
    files, _ = expand_paths([str(c) for c in CORPORA if c.is_dir()])
    inputs = [(f, Path(f).read_bytes()) for f in files]
    documents = sum(len(split_documents(SourceText.decode(raw, path).body)) for path, raw in inputs)
    converter = Converter(Release.parse(args.to))
    converter.file(*inputs[0])  # catalogue and schema data loaded once, as in a real run
    wall, cpu, converted = _best(inputs, converter, args.repeat)
    print(f"corpus: {len(inputs)} files, {documents} documents, {converted} objects converted to {args.to}")
    print(f"convert: wall {wall:.3f} s, CPU {cpu:.3f} s = {documents / cpu:,.0f} documents/s of CPU, "
          f"{len(inputs) / cpu:,.0f} files/s")
    again = [(path, converter.file(path, raw).converted) for path, raw in inputs]
    wall, cpu, _ = _best(again, converter, args.repeat)
    print(f"no-op (already converted): wall {wall:.3f} s, CPU {cpu:.3f} s = {documents / cpu:,.0f} documents/s of CPU")
    print(f"rerun: python bench/convert_throughput.py --repeat {args.repeat} --to {args.to}")


if __name__ == "__main__":
    main()
