"""One large manifest: a ~30 MB YAML file of ~93,000 Pods checked in one run, for memory (peak RSS) and throughput.

Run: python bench/large_manifest.py [--pods 93000] [--out bench/out/pods-93k.yaml]
Writes the file (Pods with requests, labels, a claim on every tenth), then runs `kubectl-wasdra check FILE -o json`
in a child process and prints its wall time, documents/s and peak RSS, and the command to rerun. Not a test: nothing
here asserts a time or a size.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

POD = """---
apiVersion: v1
kind: Pod
metadata:
  name: worker-{i:06d}
  namespace: team-{ns:02d}
  labels: {{app: trainer, shard: "s{shard}", tier: batch}}
spec:
  priorityClassName: batch
  nodeSelector: {{example.com/pool: gpu}}
  containers:
  - name: worker
    image: registry.example.com/trainer:1.{minor}
    resources:
      requests: {{cpu: "{cpu}", memory: {mem}Gi}}
"""


def write(path: Path, pods: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for i in range(pods):
            handle.write(POD.format(i=i, ns=i % 40, shard=i % 16, minor=i % 9, cpu=1 + i % 8, mem=2 + i % 30))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int, default=93_000)
    parser.add_argument("--out", default="bench/out/pods-93k.yaml")
    parser.add_argument("--jobs", type=int, default=None, help="-j for check (default: its own, all cores)")
    args = parser.parse_args()
    path = Path(args.out)
    write(path, args.pods)
    size = path.stat().st_size
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    start = time.perf_counter()
    jobs = ["-j", str(args.jobs)] if args.jobs else []
    done = subprocess.run([sys.executable, "-m", "kubectl_wasdra", "check", str(path), "-o", "json", *jobs],
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{args.pods} Pods, {size / 2**20:.1f} MiB in one file: exit {done.returncode}")
    print(f"  wall {wall:.1f} s, {args.pods / wall:,.0f} documents/s, peak RSS {peak:,.0f} MiB")
    if done.stderr.strip():
        print(f"  stderr: {done.stderr.strip().splitlines()[0]}")
    rerun = f"python bench/large_manifest.py --pods {args.pods} --out {args.out}"
    print("rerun: " + rerun + (f" --jobs {args.jobs}" if args.jobs else ""))


if __name__ == "__main__":
    main()
