"""The volume filters against upstream's unit-test tables, kept as YAML under fixtures/volumes/ (each case names the
upstream test): PreFilter message (or none) and each node's Filter messages, plugin by plugin as upstream tests them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.sched.admission import make_gates
from kubectl_wasdra.sched.filters import node_volume_limits, volume_binding, volume_zone
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.simulation import Simulation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "volumes"
PLUGINS: dict[str, Any] = {"VolumeBinding": volume_binding, "VolumeZone": volume_zone,
                           "NodeVolumeLimits": node_volume_limits}


def _cases() -> list[Any]:
    return [pytest.param(case, id=f"{path.stem}:{case['name']}") for path in sorted(FIXTURES.glob("*.yaml"))
            for case in yaml.safe_load(path.read_text())["cases"]]


def _snapshot(*objects: dict) -> ClusterSnapshot:
    from builders import snapshot

    return snapshot(*objects)


@pytest.mark.parametrize("case", _cases())
def test_upstream_volume_case(case: dict[str, Any]) -> None:
    assert case["upstream"]
    from kubectl_wasdra.catalog.releases import NEWEST

    sim = Simulation(_snapshot(*case["objects"], *case["nodes"]), make_gates(NEWEST))
    plugin = PLUGINS[case["plugin"]]
    pod = build_pod_info(case["pod"])
    index = sim.state.volume_index
    pre_filter = getattr(plugin, "pre_filter", None)
    got_pre = pre_filter(pod, index) if pre_filter is not None and index is not None else None
    assert (got_pre.message if got_pre is not None else None) == case["expect"]["preFilter"]
    for node, messages in (case["expect"].get("filter") or {}).items():
        status = plugin.filter_node(pod, sim.state.node(node))
        got = [s.message for s in status.all_reasons()] if status is not None else []
        assert got == messages, node
