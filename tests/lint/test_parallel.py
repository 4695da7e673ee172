"""Large inputs are checked by forked workers; the report is identical to the single-process one."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint import pipeline
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


def test_a_tool_error_in_a_forked_share_reaches_the_main_process(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A WasdraError raised while a child checks its share ends the run with that error's one line, as in-process."""
    for i in range(MIN_DOCUMENTS_PER_WORKER * 2 // 3 + 1):
        (tmp_path / f"m{i:04d}.yaml").write_text(DOCS.format(i=i))
    main_pid, real = os.getpid(), pipeline.document_findings

    def failing_in_children(documents: Any, rules: Any, ctx: Any) -> Any:
        if os.getpid() != main_pid:
            raise UsageError("schema file unreadable", where="--schema-location", hint="give a readable file")
        return real(documents, rules, ctx)

    monkeypatch.setattr(pipeline, "document_findings", failing_in_children)
    with pytest.raises(UsageError) as raised:
        run_check(CheckOptions(paths=(str(tmp_path),), jobs=2))
    assert str(raised.value) == "--schema-location: schema file unreadable — give a readable file"
