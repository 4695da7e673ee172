"""DeviceTaintRules of 1.33/1.34 (resource.k8s.io/v1alpha3) that select by DeviceClass or CEL taint only the devices
those selectors select (v1alpha3 types.go DeviceTaintSelector: the class's selectors and the rule's own must all be
satisfied), in the allocator's inventory exactly as in the snapshot's view (cluster.pools.rule_taints)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from dra_objects import DRIVER, device, device_class, resource_slice

from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.dra.inventory import Inventory, build_inventory, evaluate_selector

SLICE = resource_slice("node-1-gpus", [device("gpu-0", attributes={"model": "a100"}),
                                       device("gpu-1", attributes={"model": "h100"}),
                                       device("gpu-2", attributes={"model": "h100", "healthy": False})])
CLASSES = [device_class("h100", f'device.attributes["{DRIVER}"].model == "h100"'), device_class("any-gpu")]


def _rule(name: str, **selector: Any) -> dict[str, Any]:
    return {"apiVersion": "resource.k8s.io/v1alpha3", "kind": "DeviceTaintRule", "metadata": {"name": name},
            "spec": {"deviceSelector": selector, "taint": {"key": f"example.com/{name}", "effect": "NoSchedule"}}}


def _cel(*expressions: str) -> list[dict[str, Any]]:
    return [{"cel": {"expression": expression}} for expression in expressions]


RULES = [
    _rule("by-class", deviceClassName="h100"),
    _rule("by-cel", selectors=_cel(f'device.attributes["{DRIVER}"].model == "a100"')),
    _rule("class-and-cel", deviceClassName="h100", selectors=_cel(f'device.attributes["{DRIVER}"].healthy == false')),
    _rule("class-without-selectors", deviceClassName="any-gpu", device="gpu-0"),
    _rule("missing-class", deviceClassName="nope"),
    _rule("runtime-error", selectors=_cel(f'device.attributes["{DRIVER}"].missing == 1')),
    _rule("compile-error", selectors=_cel("device.")),
]
EXPECTED = {
    "gpu-0": ["by-cel", "class-without-selectors"],
    "gpu-1": ["by-class"],
    "gpu-2": ["by-class", "class-and-cel"],
}


def _taints(inventory: Inventory) -> dict[str, list[str]]:
    return {d.name: sorted(t["rule"] for t in d.taints) for s in inventory.slices for d in s.devices}


def test_only_selected_devices_are_tainted() -> None:
    assert _taints(Inventory(slices=[SLICE], classes=CLASSES, taint_rules=RULES)) == EXPECTED


def test_loaded_v1alpha3_rules_agree_with_the_snapshot_view(tmp_path: Path) -> None:
    dump = tmp_path / "dump.yaml"
    dump.write_text(yaml.safe_dump_all([SLICE, *CLASSES, *RULES]))
    snapshot, problems = load_snapshot([str(dump)])
    assert problems == ()
    assert _taints(build_inventory(snapshot)) == EXPECTED
    view = snapshot.with_selector_evaluator(evaluate_selector).rule_taints
    assert {key[2]: sorted(name for name, _ in taints) for key, taints in view.items()} == EXPECTED
