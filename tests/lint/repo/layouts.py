"""Repository layouts of issue-style scenarios, written into a temporary git repository."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

GIT = shutil.which("git")
GATES = {"GenericWorkload": True}
RUNTIME = {"scheduling.k8s.io/v1beta1": True}

GROUPS = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: train, namespace: ml}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy:
      gang: {minCount: 8}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train-workers, namespace: ml}
spec:
  workloadRef: {workloadName: train, templateName: workers}
  schedulingPolicy:
    gang: {minCount: 8}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
"""

JOB = """\
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: PARALLELISM
  completions: 8
  template:
    spec:
      restartPolicy: Never
      schedulingGroup: {podGroupName: train-workers}
      resourceClaims:
      - name: gpu
        resourceClaimTemplateName: gpu
      containers:
      - name: main
        image: busybox
        resources:
          claims: [{name: gpu}]
"""


def job(parallelism: int) -> str:
    return JOB.replace("PARALLELISM", str(parallelism))


def git(work: Path, *args: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com")
    subprocess.run([GIT or "git", *args], cwd=work, env=env, check=True, capture_output=True)


def write(work: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def repository(work: Path, files: dict[str, str]) -> Path:
    """A git work tree at `work` holding `files` (committed)."""
    work.mkdir(parents=True, exist_ok=True)
    git(work, "init", "-q")
    write(work, files)
    git(work, "add", "-A")
    git(work, "commit", "-qm", "layout")
    return work
