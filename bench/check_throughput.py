#!/usr/bin/env python3
"""Throughput of `kubectl-wasdra check` against kubernetes-validate on the same synthetic corpus.

Generates 2,000 valid documents in 200 files (Deployments, Pods with resource claims, Services, ResourceClaims,
DeviceClasses) under bench/out/corpus, then times (wall clock, best of --repeat):
  kubectl-wasdra check bench/out/corpus -o json
  kubernetes-validate --strict -k 1.37.0 --quiet <the same files>
and one 10-document file with kubectl-wasdra. Prints documents/s for both and the ratio.

    python bench/check_throughput.py                 # full run (kubernetes-validate takes ~1 minute)
    python bench/check_throughput.py --kv-files 20   # kubernetes-validate on the first 20 files only
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

OUT = Path(__file__).resolve().parent / "out"
FILES, DOCS_PER_FILE = 200, 10


def deployment(i: int) -> dict:
    labels = {"app": f"web-{i}", "tier": "frontend"}
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": f"web-{i}", "namespace": "apps", "labels": labels},
            "spec": {"replicas": 3, "selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels}, "spec": {
                "containers": [{"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                                "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"memory": "512Mi"}},
                                "env": [{"name": "MODE", "value": "prod"}, {"name": "WORKERS", "value": "4"}],
                                "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 5}}]}}}}


def pod_with_claims(i: int) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"train-{i}", "namespace": "ml", "labels": {"job": "train"}},
            "spec": {"containers": [{"name": "trainer", "image": "registry.example.com/trainer:2.1", "command": ["python", "train.py"],
                                     "resources": {"requests": {"cpu": "8", "memory": "64Gi"}, "claims": [{"name": "gpus"}]}}],
                     "resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "gpu-template"}],
                     "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]}}


def service(i: int) -> dict:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": f"web-{i}", "namespace": "apps"},
            "spec": {"selector": {"app": f"web-{i}"}, "ports": [{"name": "http", "port": 80, "targetPort": 8080}], "type": "ClusterIP"}}


def resource_claim(i: int) -> dict:
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": f"gpus-{i}", "namespace": "ml"},
            "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
                "deviceClassName": "gpu.example.com", "count": 2,
                "selectors": [{"cel": {"expression": 'device.attributes["gpu.example.com"].model == "H100"'}}]}}],
                "constraints": [{"requests": ["gpu"], "matchAttribute": "gpu.example.com/numa"}]}}}


def device_class(i: int) -> dict:
    return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": f"gpu-{i}.example.com"},
            "spec": {"selectors": [{"cel": {"expression": 'device.driver == "gpu.example.com"'}}]}}


MAKERS = (deployment, pod_with_claims, service, resource_claim, device_class)


def generate(root: Path) -> list[Path]:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    files = []
    for f in range(FILES):
        docs = [MAKERS[(f * DOCS_PER_FILE + d) % len(MAKERS)](f * DOCS_PER_FILE + d) for d in range(DOCS_PER_FILE)]
        path = root / f"manifests-{f:03d}.yaml"
        path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
        files.append(path)
    return files


def timed(command: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        best = min(best, time.perf_counter() - start)
        if result.returncode not in (0, 1):
            sys.exit(f"{' '.join(command[:3])} ... failed ({result.returncode}): {result.stderr.strip()[:500]}")
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs for kubectl-wasdra (default 3)")
    parser.add_argument("--kv-files", type=int, default=FILES, help="files given to kubernetes-validate (default: all)")
    args = parser.parse_args()
    files = generate(OUT / "corpus")
    docs = FILES * DOCS_PER_FILE
    wasdra = timed(["kubectl-wasdra", "check", str(OUT / "corpus"), "-o", "json"], args.repeat)
    kv_files = files[: args.kv_files]
    kv_docs = len(kv_files) * DOCS_PER_FILE
    kv = timed(["kubernetes-validate", "--strict", "-k", "1.37.0", "--quiet", *map(str, kv_files)], 1)
    small = OUT / "small.yaml"
    shutil.copy(files[0], small)
    one = timed(["kubectl-wasdra", "check", str(small)], args.repeat)
    print(f"corpus: {docs} documents in {FILES} files ({OUT / 'corpus'})")
    print(f"kubectl-wasdra check:                     {wasdra:6.2f} s  {docs / wasdra:8.0f} documents/s")
    print(f"kubernetes-validate --strict -k 1.37.0:   {kv:6.2f} s  {kv_docs / kv:8.0f} documents/s  ({kv_docs} documents)")
    print(f"ratio:                                    {(docs / wasdra) / (kv_docs / kv):6.1f}x")
    print(f"one 10-document file (kubectl-wasdra):    {one:6.3f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
