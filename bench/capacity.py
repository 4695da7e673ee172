"""Benchmark: `kubectl wasdra capacity` of a one-GPU pod on the 5,000-node snapshot (bench/gen_cluster.py defaults:
8 GPUs a node, half of them held, 10 running pods a node, rack r0's 100 nodes tainted).

Each row runs the CLI in a fresh process and prints CPU seconds (user+sys, from wait4: the machine is shared, wall
time moves with the load), peak RSS, the copies counted and the command to rerun it.

    python bench/capacity.py                  # both rows, best of --repeat runs each
    python bench/capacity.py --repeat 3 --rows default

Rows:
  default   --max left at 10,000: the cap stops the count (19,600 GPUs are free on untainted nodes)
  full      --max 20000: every free GPU counted, and the copy that does not fit diagnosed on all 5,000 nodes
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
CLUSTER = OUT / "cluster-5000n-8d-10p-0.5f-50r.json"
GPU = "gpu.example.com"
ROWS = {"default": [], "full": ["--max", "20000"]}


def shape() -> list[dict]:
    """One pod asking for one GPU through a claim template, 1 CPU and 4Gi (no toleration of rack r0's taint)."""
    template = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                "metadata": {"name": "one-gpu", "namespace": "team-0"},
                "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": GPU,
                                                                                          "count": 1}}]}}}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "infer", "namespace": "team-0"},
           "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                    "containers": [{"name": "main", "image": "registry.example.com/infer:1",
                                    "resources": {"requests": {"cpu": "1", "memory": "4Gi"}, "claims": [{"name": "gpu"}]}}]}}
    return [template, pod]


def prepare() -> Path:
    """The snapshot (generated once, cached under bench/out/) and the shape file."""
    OUT.mkdir(exist_ok=True)
    if not CLUSTER.exists():
        subprocess.run([sys.executable, str(HERE / "gen_cluster.py"), "-o", str(CLUSTER)], check=True)
    path = OUT / "capacity-one-gpu.json"
    path.write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List", "items": shape()}))
    return path


def run_once(manifest: Path, flags: list[str]) -> tuple[float, float, dict, list[str]]:
    """(CPU seconds, peak RSS MiB, the JSON answer, the command) of one fresh process."""
    exe = shutil.which("kubectl-wasdra") or str(Path(sys.executable).parent / "kubectl-wasdra")
    command = [exe, "capacity", "-f", str(manifest), "--snapshot", str(CLUSTER), "-o", "json", *flags]
    out = OUT / "capacity.out"
    with open(out, "wb") as sink, open(os.devnull, "wb") as errors:
        proc = subprocess.Popen(command, stdout=sink, stderr=errors, env={k: v for k, v in os.environ.items() if k != "CI"})
        _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"capacity failed (exit {os.waitstatus_to_exitcode(status)}): {' '.join(command)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, orjson.loads(out.read_bytes()), command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated, of: {', '.join(ROWS)}")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row; the best CPU time is shown")
    args = parser.parse_args(argv)
    manifest = prepare()
    print(f"{'row':<8} {'CPU s':>7} {'peak MiB':>9} {'copies':>7} {'capped':>6}  target")
    for name in [n.strip() for n in args.rows.split(",") if n.strip()]:
        runs = [run_once(manifest, ROWS[name]) for _ in range(max(args.repeat, 1))]
        cpu, rss, answer, command = min(runs, key=lambda r: r[0])
        target = "<= 10 s CPU" if name == "default" else ""
        print(f"{name:<8} {cpu:>7.2f} {rss:>9.0f} {answer['copies']:>7,} {answer['capped']!s:>6}  {target}")
        print(f"    all runs: {', '.join(f'{r[0]:.2f}' for r in runs)} CPU s; rerun: {' '.join(command)}", flush=True)
    print(f"(CPU = user+sys of the capacity process, from wait4; load average now {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores: numbers move with the load; rerun all: python bench/capacity.py --repeat 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
