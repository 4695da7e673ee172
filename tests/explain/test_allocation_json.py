"""`explain -o json` carries what upstream's allocation result carries, and check and explain agree on invalid pools."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kubectl_wasdra.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "fixtures" / "dra" / "shared-nic"
INVALID = ROOT / "fixtures" / "dra" / "invalid-pool-other-node"
INVALID_POD = ROOT / "fixtures" / "manifests" / "explain" / "invalid-pool-pod.yaml"


def _invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=False)


def test_shared_device_results_carry_share_id_consumed_capacity_and_node_selector() -> None:
    result = _invoke("explain", "-f", str(SHARED / "pod.yaml"), "--snapshot", str(SHARED / "cluster.yaml"),
                     "--no-suggestions", "-o", "json")
    group = json.loads(result.output)["groups"][0]
    assert group["fits"] is True
    claims = group["placement"]["claims"]
    assert sorted(claims) == ["worker-ctrl", "worker-data"]
    for devices in claims.values():
        assert [d["device"] for d in devices] == ["nic-0"]  # one device serves both claims
        assert devices[0]["consumedCapacity"] == {"bandwidth": "4G"}
        assert len(devices[0]["shareID"]) == 36
    assert claims["worker-ctrl"][0]["shareID"] != claims["worker-data"][0]["shareID"]
    expected = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "fabric", "operator": "In", "values": ["east"]}]}]}
    assert group["placement"]["nodeSelectors"] == {"worker-ctrl": expected, "worker-data": expected}


def test_check_and_explain_agree_on_a_pool_made_invalid_by_another_nodes_slice() -> None:
    explain = _invoke("explain", "-f", str(INVALID_POD), "--snapshot", str(INVALID), "--no-suggestions", "-o", "json")
    group = json.loads(explain.output)["groups"][0]
    assert group["fits"] is False
    assert [(r["code"], r["message"], r["count"]) for r in group["reasons"]] == [
        ("PoolIncomplete", "invalid resource pools were encountered", 2)]
    check = _invoke("check", str(INVALID_POD), "--snapshot", str(INVALID), "-o", "json")
    findings = [f for f in json.loads(check.output)["findings"] if f["rule"] == "FIT004"]
    assert len(findings) == 1 and "invalid resource pools were encountered (2 nodes)" in findings[0]["message"]


def test_a_gate_the_simulator_does_not_model_is_reported_not_accepted_silently() -> None:
    result = _invoke("explain", "-f", str(SHARED / "pod.yaml"), "--snapshot", str(SHARED / "cluster.yaml"),
                     "--no-suggestions", "-o", "json", "--feature-gates",
                     "SchedulerAsyncPreemption=false,DRAListTypeAttributes=true")
    notes = json.loads(result.output)["notes"]
    assert notes == ["feature gate SchedulerAsyncPreemption=false is not modelled by the simulator: the verdicts are "
                     "computed without it (kube-scheduler may decide differently)"]


def test_gates_table_says_which_gates_the_simulator_models() -> None:
    rows = {g["gate"]: g["simulator"] for g in json.loads(_invoke("gates", "-o", "json").output)["gates"]}
    assert rows["DRAListTypeAttributes"] == "modelled" and rows["DRAConsumableCapacity"] == "modelled"
    assert rows["SchedulerAsyncPreemption"] == "not modelled"
