"""check --live with Nodes forbidden keeps what was read: references resolve against the DeviceClasses that were read
(no "check it exists in the cluster" warning for one that exists, REF010 for one that does not), and only the rules
that need Nodes are skipped, each named (lint/cluster_needs.py)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_runner import run
from fake_apiserver import FakeApiServer, Fault, serve, write_kubeconfig

CLAIMS = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: typo, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.exmaple.com}
"""


def test_nodes_forbidden_keeps_the_device_classes_that_were_read(tmp_path: Path, offline, capsys) -> None:
    manifest = tmp_path / "claims.yaml"
    manifest.write_text(CLAIMS)
    server = FakeApiServer(objects=offline.objects, faults={"/api/v1/nodes": Fault(status=403, times=999)})
    kubeconfig = tmp_path / "kubeconfig"
    with serve(server) as url:
        write_kubeconfig(str(kubeconfig), url, "t")
        live = ["--live", "--kubeconfig", str(kubeconfig), "--context", "fake"]
        code, out, err = run(["check", str(manifest), *live, "-o", "json"], capsys)
        _, text, _ = run(["check", str(manifest), *live], capsys)
    assert code == 2, err
    report = json.loads(out)
    found = sorted((f["rule"], f["line"]) for f in report["findings"])
    assert found == [("REF010", 19)], found
    (typo,) = report["findings"]
    assert "gpu.exmaple.com" in typo["message"] and "gpu.example.com" in (typo["hint"] or "")
    assert [g["kind"] for g in report["gaps"] if g["blocksVerdicts"]] == ["Node"]
    assert "not read from the cluster: Node: 403 Forbidden: injected 403 — skipped: FIT003, FIT004, GANG004" in text
