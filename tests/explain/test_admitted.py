"""explain agrees with check: an object the API server rejects is reported invalid (not simulated as if valid), and
pods of another scheduler are "scheduled by X, not simulated", never "fits"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml"
CLUSTER = str(ROOT / "fixtures" / "clusters" / "two-racks")
GATES = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
         "--runtime-config", "scheduling.k8s.io/v1beta1=true"]
POD = """apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: ml}}
spec:
  {extra}
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]
"""


def _explain(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(["explain", "-f", str(path), "--snapshot", CLUSTER, *GATES, *extra])
    return exit_info.value.code, capsys.readouterr().out


def test_a_pod_group_without_min_count_is_invalid_not_simulated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "train.yaml"
    manifest.write_text(DEMO.read_text().replace("      minCount: 6\n", "      {}\n"))
    code, out = _explain(manifest, capsys, "-o", "json")
    groups = json.loads(out)["groups"]
    invalid = [g for g in groups if any(r["code"] == "ObjectInvalid" for r in g["reasons"])]
    assert code == 1 and [(g["kind"], g["name"], g["fits"]) for g in invalid] == [("PodGroup", "train", False)]
    assert {r["details"]["rule"] for r in invalid[0]["reasons"]} <= {"SCHEMA003", "VALID011"}
    assert invalid[0]["reasons"][0]["details"]["line"] == 30
    # the Job's pods wait for a group that never exists, as they would in the cluster; nothing "fits"
    assert not any(g["fits"] for g in groups)
    code, text = _explain(manifest, capsys)
    assert "PodGroup ml/train — invalid: the API server rejects it" in text and "minCount" in text


def test_the_valid_demo_is_still_simulated(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _explain(DEMO, capsys, "-o", "json")
    (group,) = json.loads(out)["groups"]
    assert code == 1 and group["reasons"][0]["code"] == "TopologyNoDomainFits"


def test_pods_of_another_scheduler_are_not_simulated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "pods.yaml"
    manifest.write_text(POD.format(name="volc", extra="schedulerName: volcano") + "---\n" +
                        POD.format(name="plain", extra="priority: 0"))
    code, out = _explain(manifest, capsys, "-o", "json")
    groups = {g["name"]: g for g in json.loads(out)["groups"]}
    assert code == 0 and groups["plain"]["fits"] is True
    assert groups["volc"]["fits"] is None and groups["volc"]["placement"]["pods"] == {}
    assert groups["volc"]["reasons"][0]["code"] == "OtherScheduler"
    code, text = _explain(manifest, capsys)
    assert 'Pod ml/volc — not simulated' in text and 'scheduled by "volcano", not simulated' in text
    assert "ml/volc — fits" not in text


def test_a_gang_of_another_scheduler_is_not_simulated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "train.yaml"
    manifest.write_text(DEMO.read_text().replace("      schedulingGroup:\n", "      schedulerName: kai-scheduler\n"
                                                 "      schedulingGroup:\n"))
    code, out = _explain(manifest, capsys, "-o", "json")
    groups = {(g["kind"], g["name"]): g for g in json.loads(out)["groups"]}
    assert set(groups) == {("Job", "train"), ("PodGroup", "train")}
    assert all(g["fits"] is None and g["reasons"][0]["code"] == "OtherScheduler" for g in groups.values())
    assert code == 0


REALWORLD = ROOT / "tests" / "corpus" / "realworld"


def test_real_manifests_of_other_schedulers(capsys: pytest.CaptureFixture[str]) -> None:
    # volcano-sh/volcano example/job.yaml: a batch/v1 Job for kube-batch plus kube-batch's own PodGroup kind
    code, out = _explain(REALWORLD / "volcano-sh__volcano" / "example" / "job.yaml", capsys, "-o", "json")
    (group,) = json.loads(out)["groups"]
    assert code == 0 and (group["kind"], group["name"], group["fits"]) == ("Job", "qj-1", None)
    assert group["reasons"][0]["details"] == {"schedulerName": "kube-batch"}
    code, text = _explain(REALWORLD / "volcano-sh__volcano" / "example" / "job.yaml", capsys)
    assert 'PodGroup "qj-1" of scheduling.incubator.k8s.io/v1alpha1 left out' in text and "fits" not in text
    # a Volcano batch Job is not a Kubernetes Job: it is left out, not expanded into pods
    code, text = _explain(REALWORLD / "volcano-sh__volcano" / "example" / "openmpi-hello.yaml", capsys)
    assert code == 0 and 'Job "openmpi-hello" of batch.volcano.sh/v1alpha1 left out' in text


def test_left_out_objects_are_named_in_the_namespace_they_would_be_created_in(tmp_path: Path) -> None:
    """With a namespace for manifests that name none (--live -n, or the context's), the invalid and the other
    scheduler's pods are named in it, as the simulated ones are."""
    from kubectl_wasdra.explain.run import ExplainOptions, run_explain

    pod = POD.replace(", namespace: ml", "")
    manifest = tmp_path / "pods.yaml"
    manifest.write_text("---\n".join([pod.format(name="bad", extra="bogusField: 1"),
                                      pod.format(name="volc", extra="schedulerName: volcano"),
                                      pod.format(name="plain", extra="priority: 0")]))
    report = run_explain(ExplainOptions(files=[str(manifest)], snapshot=[CLUSTER], namespace="batch"))
    assert sorted((g.name, g.namespace) for g in report.groups) == [("bad", "batch"), ("plain", "batch"), ("volc", "batch")]
