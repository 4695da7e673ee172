"""Benchmark: `explain -o html` at 2,000 and 5,000 nodes: the page's size and what drawing it costs over `-o json`.

Each row runs the CLI twice in fresh processes on a generated snapshot (bench/gen_cluster.py, cached under bench/out/),
once with -o json and once with -o html --output-file, and prints CPU seconds (user+sys) of each, the difference (the
grid and the page), and both outputs' sizes. CPU time rather than wall time: the machine is shared.

    python bench/explain_html.py                  # every row
    python bench/explain_html.py --rows gang2k    # some rows
    python bench/explain_html.py --quick          # a tenth of the size

Rows:
  gang2k   bench/explain_scale.py's gang row: 2,000 nodes, 40 racks, 70% of GPUs held, a 40-pod rack-constrained
           NUMA-aligned gang that does not fit, with suggestions
  gang5k   the same gang on 5,000 nodes in 50 racks (50% of GPUs held): it fits
  gang5k-plugins  the same with --plugin-results (both runs): the per-plugin tables
  job5k    a Job of 5,000 one-GPU pods (half fit) on the 5,000-node snapshot: 5,000 groups of one pod
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import resource
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _scale_module() -> Any:
    spec = importlib.util.spec_from_file_location("bench_explain_scale", HERE / "explain_scale.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


SCALE = _scale_module()
ROWS = {
    "gang2k": SCALE.Row("gang2k", (2000, 8, 8, 0.7, 40), SCALE.gang_manifests, (), "html <= 5 MB"),
    "gang5k": SCALE.Row("gang5k", (5000, 8, 10, 0.5, 50), SCALE.gang_manifests, (), "html <= 5 MB"),
    "gang5k-plugins": SCALE.Row("gang5k-plugins", (5000, 8, 10, 0.5, 50), SCALE.gang_manifests, ("--plugin-results",),
                                "html <= 5 MB (the recording costs the same with -o json)"),
    "job5k": SCALE.Row("job5k", (5000, 8, 10, 0.5, 50), lambda s: SCALE.job10k_manifests(s / 2), ("--no-suggestions",),
                       "html <= 5 MB"),
}


def run_pair(row: Any, scale: float, timeout: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the -o json run, the -o html run) of one row."""
    json_row = dataclasses.replace(row, name=f"{row.name}-json", flags=(*row.flags, "-o", "json"))
    html_file = SCALE.OUT / f"{row.name}.html"
    html_row = dataclasses.replace(row, name=f"{row.name}-html",
                                   flags=(*row.flags, "-o", "html", "--output-file", str(html_file)))
    html_file.unlink(missing_ok=True)  # a failed run must not report the size of an older page
    as_json = SCALE.run_row(json_row, scale, timeout)
    as_html = SCALE.run_row(html_row, scale, timeout)
    as_html["output"] = html_file.stat().st_size if html_file.exists() else 0
    return as_json, as_html


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated, of: {', '.join(ROWS)}")
    parser.add_argument("--quick", action="store_true", help="about a tenth of each size (the same shapes)")
    parser.add_argument("--timeout", type=float, default=300, help="CPU seconds before a run is killed")
    args = parser.parse_args(argv)
    scale = 0.1 if args.quick else 1.0
    names = SCALE.chosen_rows(parser, args.rows, ROWS)
    print(f"{'row':<14} {'json CPU s':>10} {'html CPU s':>10} {'page CPU s':>10} {'json':>10} {'html':>10} {'exit':>5}  target")
    for name in names:
        as_json, as_html = run_pair(ROWS[name], scale, args.timeout)
        extra = as_html["cpu"] - as_json["cpu"]
        print(f"{name:<14} {as_json['cpu']:>10.2f} {as_html['cpu']:>10.2f} {extra:>10.2f} "
              f"{SCALE._size(as_json['output']):>10} {SCALE._size(as_html['output']):>10} "
              f"{as_json['exit']:>2},{as_html['exit']:>2}  {ROWS[name].target}")
        print(f"    rerun: {as_html['command']}", flush=True)
    print("(CPU = user+sys of each explain process, noisy on a shared machine; page CPU = html - json: the grid and the "
          f"page; rerun: python bench/explain_html.py{' --quick' if args.quick else ''} --rows {','.join(names)})")
    return 0


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.exit(main())
