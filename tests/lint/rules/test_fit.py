"""FIT rules: fixtures against the two-racks cluster (rule, line, column), did-you-mean hints, --simulate switch."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import CLUSTERS, ROOT, case_id, cases, check_case, report, snapshot_at

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.lint.rules._devices import cluster_devices

R137 = Release(1, 37)


@pytest.mark.parametrize("case", cases("FIT"), ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    check_case(case)


def _hints(rule: str) -> list[str]:
    return [f.hint for f in report(ROOT / "fixtures/lint" / rule / "bad.yaml", R137).findings if f.rule == rule]


def test_did_you_mean_for_attribute_names_values_and_drivers() -> None:
    assert _hints("FIT001") == ['no device of "gpu.example.com" publishes attribute "modle"; did you mean "model"?',
                                'no device has gpu.example.com/model == "X10O"; did you mean "X100"?']
    assert _hints("FIT002") == ['no driver "rdma.exmaple.com" publishes devices; did you mean "rdma.example.com"?']


@pytest.mark.parametrize(("expression", "suggestion"), [
    ('device.attributes["gpu.exmaple.com"].model == "X100"', 'did you mean "gpu.example.com"?'),
    ('device.capacity["gpu.example.com"].memroy.compareTo(quantity("1Gi")) >= 0', 'did you mean "memory"?'),
    ('device.attributes["gpu.example.com"]["model"] == "X100"', None),
], ids=["domain", "capacity-name", "published"])
def test_suggestion(expression: str, suggestion: str | None) -> None:
    devices = cluster_devices(snapshot_at(str(CLUSTERS / "two-racks")))
    found = devices.suggestion(expression)
    assert (found is None) if suggestion is None else found.endswith(suggestion)


def test_count_bound_counts_node_local_devices() -> None:
    devices = cluster_devices(snapshot_at(str(CLUSTERS / "two-racks")))
    gpus = devices.matching(['device.driver == "gpu.example.com"', 'device.attributes["gpu.example.com"].type == "gpu"'],
                            R137)
    assert gpus and devices.per_node_upper_bound(gpus) == 8


def test_no_simulate_turns_fit004_off() -> None:
    path = ROOT / "fixtures/lint/FIT004/bad.yaml"
    snapshot = snapshot_at(str(CLUSTERS / "two-racks"))
    on = run_check(CheckOptions(paths=(str(path),), snapshot=snapshot, simulate=True, jobs=1, select=("FIT004",)))
    off = run_check(CheckOptions(paths=(str(path),), snapshot=snapshot, simulate=False, jobs=1, select=("FIT004",)))
    assert [f.rule for f in on.findings] == ["FIT004"] and off.findings == ()
    assert "does not fit now: NoMatchingDevices" in on.findings[0].message


def test_fit_rules_need_a_snapshot() -> None:
    for rule in ("FIT001", "FIT002", "FIT003", "FIT004", "FIT005"):
        path = ROOT / "fixtures/lint" / rule / "bad.yaml"
        assert not run_check(CheckOptions(paths=(str(path),), jobs=1, select=(rule,))).findings


def _cli(*args: str) -> tuple[int, dict]:
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "kubectl_wasdra", "check", *args, "-o", "json"], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}


def test_cli_snapshot_simulates_by_default_and_no_simulate_skips() -> None:
    fixture, cluster = "fixtures/lint/FIT004/bad.yaml", "fixtures/clusters/two-racks"
    code, report_on = _cli(fixture, "--snapshot", cluster)
    assert code == 1 and "FIT004" in {f["rule"] for f in report_on["findings"]}
    code, report_off = _cli(fixture, "--snapshot", cluster, "--no-simulate")
    assert "FIT004" not in {f["rule"] for f in report_off["findings"]}


def test_cli_check_without_snapshot_loads_no_simulator() -> None:
    import subprocess
    import sys

    probe = ("import sys, io, contextlib\nfrom kubectl_wasdra.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             "    try:\n        main(['check', 'fixtures/lint/REF001/bad.yaml'])\n    except SystemExit:\n        pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('kubectl_wasdra.sched', 'kubectl_wasdra.dra', "
             "'kubectl_wasdra.explain', 'kubectl_wasdra.cluster', 'cel_expr_python'))))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


def test_cli_bad_snapshot_is_exit_2_with_position(tmp_path: Path) -> None:
    broken = tmp_path / "nodes.yaml"
    broken.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: [oops}\n")
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "kubectl_wasdra", "check", "fixtures/lint/REF001/good.yaml", "--snapshot",
                           str(broken)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 2 and f"{broken}:" in done.stderr and "Traceback" not in done.stderr


def test_gang_that_does_not_fit_now_gets_group_reason_and_verified_suggestion() -> None:
    from kubectl_wasdra.cli_options import parse_feature_gates

    snapshot = snapshot_at(str(CLUSTERS / "two-racks"))
    options = CheckOptions(paths=(str(ROOT / "fixtures/manifests/explain/train-gang-racks.yaml"),), snapshot=snapshot,
                           simulate=True, jobs=1, select=("FIT004",),
                           feature_gates=parse_feature_gates("GenericWorkload=true,TopologyAwareWorkloadScheduling=true"),
                           runtime_config={"scheduling.k8s.io/v1beta1": True})
    (finding,) = run_check(options).findings
    assert (finding.line, finding.column) == (26, 9)
    assert finding.message.startswith("PodGroup ml/train does not fit now: TopologyNoDomainFits: 0/2 placements")
    assert finding.hint.startswith("drop schedulingConstraints.topology -> fits")


def test_many_groups_failing_get_reasons_without_suggestions(tmp_path: Path) -> None:
    text = (ROOT / "fixtures/lint/FIT004/bad.yaml").read_text()
    pods, template = text.split("---\n")
    manifest = tmp_path / "many.yaml"
    manifest.write_text("---\n".join([pods.replace("needs-all-gpus", f"needs-all-gpus-{i}") for i in range(4)] + [template]))
    snapshot = snapshot_at(str(CLUSTERS / "two-racks"))
    found = run_check(CheckOptions(paths=(str(manifest),), snapshot=snapshot, simulate=True, jobs=1, select=("FIT004",)))
    assert len(found.findings) == 4
    assert all(f.hint.startswith("run kubectl wasdra explain -f") for f in found.findings)


FULL_NODE = ("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '2', memory: 8Gi, pods: '110'}}\n"
             "---\napiVersion: v1\nkind: Pod\nmetadata: {name: batch, namespace: default}\n"
             "spec: {nodeName: n1, priority: 10, containers: [{name: c, image: x, resources: {requests: {cpu: '2'}}}]}\n"
             "status: {phase: Running}\n")
POD = ("apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec: {{priority: {priority}, "
       "containers: [{{name: c, image: x, resources: {{requests: {{cpu: '1'}}}}}}]}}\n")


def _preemption_check(tmp_path: Path, name: str, priority: int, preemption: bool = True) -> list:
    """FIT004 findings for one 1-cpu pod against a 2-cpu node full with a priority-10 pod."""
    cluster = tmp_path / "cluster"
    cluster.mkdir(exist_ok=True)
    (cluster / "objects.yaml").write_text(FULL_NODE)
    manifest = tmp_path / "manifest.yaml"
    manifest.write_text(POD.format(name=name, priority=priority))
    options = CheckOptions(paths=(str(manifest),), snapshot=snapshot_at(str(cluster)), simulate=True, jobs=1,
                           select=("FIT004",), preemption=preemption)
    return list(run_check(options).findings)


def test_fit004_warns_when_only_preemption_makes_room(tmp_path: Path) -> None:
    found = _preemption_check(tmp_path, "urgent", 1000)
    assert [(f.rule, str(f.severity)) for f in found] == [("FIT004", "warning")]
    assert "fits only by preempting 1 pod(s) of priority <= 10 on node(s) n1" in found[0].message
    found = _preemption_check(tmp_path, "idle", 1)
    assert [(f.rule, str(f.severity)) for f in found] == [("FIT004", "error")]
    assert "does not fit now" in found[0].message


def test_check_no_preemption_reports_the_error(tmp_path: Path) -> None:
    found = _preemption_check(tmp_path, "urgent", 1000, preemption=False)
    assert [str(f.severity) for f in found] == ["error"]
