"""explain's cluster loader applies 1.33/1.34 DeviceTaintRules that select by DeviceClass or CEL to exactly the devices
they select, as the allocator's inventory does (so the placement map and the funnel agree with the allocation)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dra"))
from dra_objects import DRIVER, device, device_class, resource_slice

from kubectl_wasdra.explain.run import load_cluster_leaving_out

SLICE = resource_slice("node-1-gpus", [device("gpu-0", attributes={"model": "a100"}),
                                       device("gpu-1", attributes={"model": "h100"})])
RULE = {"apiVersion": "resource.k8s.io/v1alpha3", "kind": "DeviceTaintRule", "metadata": {"name": "bad-h100"},
        "spec": {"deviceSelector": {"deviceClassName": "h100"},
                 "taint": {"key": "example.com/bad", "effect": "NoSchedule"}}}


def test_class_selected_rule_taints_only_matching_devices(tmp_path: Path) -> None:
    dump = tmp_path / "dump.yaml"
    classes = [device_class("h100", f'device.attributes["{DRIVER}"].model == "h100"')]
    dump.write_text(yaml.safe_dump_all([SLICE, *classes, RULE]))
    snapshot, left_out = load_cluster_leaving_out([str(dump)])
    assert left_out == ()
    tainted = sorted(key[-1] if isinstance(key, tuple) else str(key) for key in snapshot.rule_taints)
    assert tainted == ["gpu-1"]


def test_check_reads_the_cluster_the_same_way(tmp_path: Path) -> None:
    """check --snapshot sees the same rule taints as explain (one loader for the simulator's cluster)."""
    from kubectl_wasdra.cli_check import check_snapshot

    dump = tmp_path / "dump.yaml"
    classes = [device_class("h100", f'device.attributes["{DRIVER}"].model == "h100"')]
    dump.write_text(yaml.safe_dump_all([SLICE, *classes, RULE]))
    snapshot, left_out = check_snapshot(SimpleNamespace(live=False, snapshot=[str(dump)]))
    assert left_out == ()
    tainted = sorted(key[-1] if isinstance(key, tuple) else str(key) for key in snapshot.rule_taints)
    assert tainted == ["gpu-1"]
