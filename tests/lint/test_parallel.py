"""Large inputs are checked by forked workers; the report is identical to the single-process one."""

from __future__ import annotations

from pathlib import Path

from kubectl_wasdra.lint.parallel import MIN_DOCUMENTS_PER_WORKER, worker_count
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

DOCS = """\
apiVersion: v1
kind: ConfigMap
metadata: {{name: c{i}, namespace: ml}}
data: {{mode: fast}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: gpus-{i}, namespace: ml}}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {{deviceClassName: gpu.example.com, cuont: 2}}
---
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {{name: w{i}, namespace: ml}}
spec: {{}}
"""


def test_worker_count() -> None:
    assert worker_count(MIN_DOCUMENTS_PER_WORKER - 1, 2) == 1
    assert worker_count(MIN_DOCUMENTS_PER_WORKER * 2, 2) == 2
    assert worker_count(10**6, 1) == 1


def test_parallel_report_equals_serial(tmp_path: Path) -> None:
    for i in range(MIN_DOCUMENTS_PER_WORKER * 2 // 3 + 1):
        (tmp_path / f"m{i:04d}.yaml").write_text(DOCS.format(i=i))
    serial = run_check(CheckOptions(paths=(str(tmp_path),), jobs=1))
    parallel = run_check(CheckOptions(paths=(str(tmp_path),), jobs=2))
    assert len(serial.documents) >= MIN_DOCUMENTS_PER_WORKER * 2
    assert {f.rule for f in serial.findings} >= {"SCHEMA002", "API001"}
    assert parallel.findings == serial.findings
    assert parallel.as_dict() == serial.as_dict()
