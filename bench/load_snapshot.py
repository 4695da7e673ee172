"""Benchmark: loading a big snapshot (seconds and peak RSS), next to the bare parsers on the same file.

    python bench/gen_cluster.py -o /tmp/bench-cluster.json && python bench/gen_cluster.py -o /tmp/bench-cluster.yaml
    python bench/load_snapshot.py /tmp/bench-cluster.json /tmp/bench-cluster.yaml [--with-pyyaml] [--repeat 3]

Each measurement runs in a fresh process, so peak RSS is that of the measured step alone (plus the interpreter).
Wall and CPU seconds are both reported (CPU holds better on a busy machine); with --repeat the steps run in rotation and
the medians are shown.
Targets (issue 4): peak RSS < 1.5 GiB; load_snapshot within 3x of json.loads (JSON) and of the fastest YAML parser (YAML).
PyYAML's CSafeLoader is slow on big files; --with-pyyaml measures it too. The bare parsers run with the cyclic garbage
collector on, as a plain script would; load_snapshot pauses it while building (builder.paused_gc), so the "gc paused"
rows are the stricter baseline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

STEPS = {
    "json.loads": "import json; data = json.loads(open(PATH, 'rb').read())",
    "orjson.loads": "import orjson; data = orjson.loads(open(PATH, 'rb').read())",
    "json.loads, gc paused": "import gc, json; gc.disable(); data = json.loads(open(PATH, 'rb').read())",
    "yaml_rs.loads, gc paused": ("import gc, yaml_rs; gc.disable(); "
                                 "data = yaml_rs.loads(open(PATH, encoding='utf-8').read(), parse_datetime=False)"),
    "yaml_rs.loads": "import yaml_rs; data = yaml_rs.loads(open(PATH, encoding='utf-8').read(), parse_datetime=False)",
    "pyyaml CSafeLoader": "import yaml; data = yaml.load(open(PATH, encoding='utf-8').read(), Loader=yaml.CSafeLoader)",
    "load_snapshot": "from kubectl_wasdra.cluster.files import load_snapshot; data, problems = load_snapshot([PATH])",
    "load_snapshot + index": (
        "from kubectl_wasdra.cluster.files import load_snapshot; s, problems = load_snapshot([PATH]);"
        "free = [s.free_resources(n) for n in s.node_index.nodes]; a = s.allocated; p = s.pools; t = s.tainted_slices"),
}
PROBE = """
import resource, sys, time
PATH = sys.argv[1]
start, cpu = time.perf_counter(), time.process_time()
{step}
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
print(elapsed, cpu, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def measure(step: str, path: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MiB) of one step in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(step=STEPS[step]), path], check=True, capture_output=True,
                         text=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]) / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--with-pyyaml", action="store_true")
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    parser.add_argument("--repeat", type=int, default=1, help="runs of every step, in rotation (medians shown)")
    args = parser.parse_args(argv)
    results = []
    for path in args.paths:
        is_json = path.endswith(".json")
        pyyaml = ["pyyaml CSafeLoader"] if args.with_pyyaml else []
        steps = ["json.loads", "json.loads, gc paused", "orjson.loads"] if is_json else [
            "yaml_rs.loads", "yaml_rs.loads, gc paused", *pyyaml]
        steps += ["load_snapshot", "load_snapshot + index"]
        runs: dict[str, list[tuple[float, float, float]]] = {step: [] for step in steps}
        for _ in range(max(args.repeat, 1)):
            for step in steps:
                runs[step].append(measure(step, path))
        timings = {step: (statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows),
                          max(r[2] for r in rows)) for step, rows in runs.items()}
        baseline = timings["json.loads" if is_json else "yaml_rs.loads"][0]
        for step, (seconds, cpu, rss) in timings.items():
            results.append({"file": path, "step": step, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
                            "peak_rss_mib": round(rss), "vs_baseline": round(seconds / baseline, 2)})
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for row in results:
            print(f"{row['file']:<28} {row['step']:<26} {row['seconds']:>7.2f} s {row['cpu_seconds']:>7.2f} s CPU "
                  f"{row['peak_rss_mib']:>6} MiB {row['vs_baseline']:>5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
