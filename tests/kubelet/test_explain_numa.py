"""explain on the numa-gpu fixture: the kubelet stage after binding, DRA NUMA alignment across drivers."""

from __future__ import annotations

from pathlib import Path

import orjson

from kubectl_wasdra.explain.render_json import render_json
from kubectl_wasdra.explain.render_text import render_text
from kubectl_wasdra.explain.run import ExplainOptions, run_explain

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = str(ROOT / "fixtures" / "clusters" / "numa-gpu")
MANIFESTS = ROOT / "fixtures" / "manifests" / "numa"


def explain(name: str):
    return run_explain(ExplainOptions(files=[str(MANIFESTS / name)], snapshot=[CLUSTER], suggestions=False))


def test_scheduler_binds_and_kubelet_rejects() -> None:
    report = explain("kubelet-rejects.yaml")
    (group,) = report.groups
    assert not group.fits and group.pods == {"train-4cpu-2gpu": "numa-dp-0"}
    (reason,) = group.reasons
    assert reason.code == "KubeletRejected"
    assert reason.details["reason"] == "TopologyAffinityError"
    assert reason.details["message"] == "Resources cannot be allocated with Topology locality"
    assert reason.details["admittingNodes"] == ["numa-dp-1", "numa-dp-2"]
    text = render_text(report)
    assert ("kube-scheduler: fits on numa-dp-0; kubelet on numa-dp-0 would reject: TopologyAffinityError: container main: "
            "no NUMA node has 4 exclusive CPUs and 2 nvidia.com/gpu together") in text
    assert "train-4cpu-2gpu -> numa-dp-0" in text


def test_dra_devices_of_three_drivers_share_one_numa_node() -> None:
    report = explain("dra-aligned.yaml")
    (group,) = report.groups
    assert group.fits
    (claim,) = group.claims.values()
    assert [d["driver"] for d in claim] == ["gpu.example.com"] * 4 + ["rdma.example.com", "dra.cpu"]
    assert group.claim_numa == {"aligned-worker-devices": [0] * 6}
    data = orjson.loads(render_json(report))
    assert data["groups"][0]["placement"]["numa"]["claims"] == {"aligned-worker-devices": [0] * 6}
    assert "numa-dra-0/cpudevnuma0 (NUMA 0)" in render_text(report)


def test_driver_specific_numa_attribute_never_matches_across_drivers() -> None:
    (group,) = explain("dra-driver-attribute.yaml").groups
    assert not group.fits
    assert any("first short: constraints" in funnel for _node, funnel in group.funnels)


def test_derived_attributes_align_across_driver_specific_names() -> None:
    def run(enabled: bool):
        options = ExplainOptions(files=[str(MANIFESTS / "derived-attributes.yaml")], snapshot=[CLUSTER], suggestions=False,
                                 feature_gates={"DRADerivedAttributes": enabled})
        (group,) = run_explain(options).groups
        return group

    on = run(True)
    assert on.fits and on.claim_numa == {"derived-numa": [0] * 5}
    assert not run(False).fits  # the API server dropped derivedAttributes: no device has example.com/numa


def test_derived_attribute_runtime_error_is_a_selector_error() -> None:
    from kubectl_wasdra.dra.cel import DeviceView
    from kubectl_wasdra.dra.derived import DerivedAttribute
    from kubectl_wasdra.dra.requests import AllocationError

    class Dev:
        key = "d/p/x"
        view = DeviceView("d", {"name": "x", "attributes": {}}, "x")

    try:
        DerivedAttribute("example.com/numa", 'device.attributes["d"].numa').value(Dev())
    except AllocationError as exc:
        assert exc.reason == "SelectorError" and exc.message.startswith("derived attribute example.com/numa: on device d/p/x")
    else:
        raise AssertionError("no error")


def test_placement_map_groups_devices_by_numa_node() -> None:
    (group,) = explain("dra-driver-attribute.yaml").groups
    rows = dict(group.placement_map)[""]
    assert ("numa-dra-0", "N0 □□□□□□□ N1 □□□□□□□") in rows  # 4 GPUs, 2 NICs, 1 CPU device per NUMA node


def test_dra_devices_with_exclusive_cpus_get_the_no_hints_note() -> None:
    report = explain("dra-with-exclusive-cpus.yaml")
    (group,) = report.groups
    assert group.fits and group.numa["mixed-worker"]["containers"]["main"]["cpus"] == {"node-0": 4}
    (note,) = group.numa["mixed-worker"]["notes"]
    assert note.startswith("DRA devices give the Topology Manager no hints in 1.37")
    assert "kubelet: DRA devices give the Topology Manager no hints" in render_text(report)
