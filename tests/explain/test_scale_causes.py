"""The scale cases of bench/explain_scale.py on smaller copies with the same structure (a 200-node cluster of
bench/gen_cluster.py, racks, a NUMA gang; many standalone pods): the right cause for every domain, every domain in
JSON, grouping and natural order in text, summaries that keep the output linear, "no single change found" with
what was tried, the placement map's limits."""

# ruff: noqa: RUF001 (en dashes join runs of names, as explain prints them)
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import orjson
import pytest
from builders import snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.explain.model import ExplainReport
from kubectl_wasdra.explain.overlay import build_overlay
from kubectl_wasdra.explain.render_json import render_json
from kubectl_wasdra.explain.render_text import render_text
from kubectl_wasdra.explain.run import explain_results
from kubectl_wasdra.explain.whatif import Budget
from kubectl_wasdra.sched.admission import all_on

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


GEN, SCALE = _bench("gen_cluster"), _bench("explain_scale")


def _explain(cluster: list[dict], manifests: list[dict], budget: Budget | None = None) -> list:
    overlay = build_overlay(manifests)
    return explain_results(snapshot(*cluster, *overlay.objects), all_on(NEWEST), overlay, budget=budget)


@pytest.fixture(scope="module")
def gang():
    """200 nodes in 12 racks (r0 tainted), 70% of the GPUs held: no NUMA node, no node has 4 free GPUs."""
    cluster = GEN.generate(200, 8, 8, 0.7, 12)
    return _explain(cluster, SCALE.gang_manifests(0.5), Budget(runs=4))


def test_every_domain_gets_its_own_cause(gang):
    (group,) = gang
    assert not group.fits
    by_value = {d.value: d for d in group.domains}
    assert sorted(by_value) == sorted(f"r{i}" for i in range(12))
    assert [r.code for r in by_value["r0"].reasons] == ["UntoleratedTaint"]
    assert by_value["r0"].dra is None
    for value in (f"r{i}" for i in range(1, 12)):
        domain = by_value[value]
        assert "UntoleratedTaint" not in {r.code for r in domain.reasons}
        assert domain.dra is not None and (domain.dra.needed, domain.dra.best, domain.dra.stage) == (4, 2, "free")
        assert domain.dra.nodes == domain.nodes and domain.dra.attribute == "resource.kubernetes.io/numaNode"


def test_every_node_is_counted_once_in_the_domain_it_belongs_to(gang):
    (group,) = gang
    assert sum(r.count for d in group.domains for r in d.reasons) == 200
    assert sum(d.nodes for d in group.domains) == 200


def test_json_lists_every_domain_in_natural_order(gang):
    data = orjson.loads(render_json(ExplainReport("1.37", gang)))["groups"][0]
    values = [d["value"] for d in data["domains"]]
    assert len(values) == 12 and values.index("r2") < values.index("r10")
    r5 = next(d for d in data["domains"] if d["value"] == "r5")
    assert r5["dra"]["needed"] == 4 and r5["dra"]["bestFree"] == 2 and r5["nodes"] == r5["dra"]["nodes"]
    assert {"code", "message", "count", "details"} == set(r5["reasons"][0])
    assert all("funnelStages" not in r["details"] for d in data["domains"] for r in d["reasons"])
    assert data["tried"] and all({"kind", "change", "outcome"} == set(t) for t in data["tried"])


def test_text_groups_domains_with_one_cause_in_natural_order(gang):
    text = render_text(ExplainReport("1.37", gang))
    assert "per example.com/rack: 12 racks, 200 nodes, 2 distinct causes" in text
    assert "11 racks (r1–r11), " in text
    assert "1 rack (r0), " in text
    assert "needs 4 × gpu.example.com on one resource.kubernetes.io/numaNode; the best node has 2 free" in text
    assert text.index("11 racks (r1–r11)") < text.index("1 rack (r0)")  # the larger group first


def test_the_map_is_cut_explicitly_and_marks_tainted_nodes(gang):
    text = render_text(ExplainReport("1.37", gang), width=80)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  Placement map ("))
    rows = [line for line in lines[start + 1:] if line.startswith("      node-")]
    assert rows and all(len(line) <= 80 for line in rows)
    assert any("more nodes" in line for line in lines[start:])
    assert "more rack values not drawn" in text
    assert "node-00000⊘" in text and "gpu.example.com (class gpu.example.com)" in text


def test_budget_bounds_the_what_ifs_and_says_so(gang):
    (group,) = gang
    assert len(group.tried) <= 4
    assert group.suggestions or group.suggestions_note


def test_no_single_change_found_lists_what_was_tried():
    cluster = GEN.generate(6, 8, 2, 0.5, 2)
    huge = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "huge", "namespace": "ml"},
            "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "500"}}}]}}
    (group,) = _explain(cluster, [huge], Budget(runs=20))
    assert not group.fits and not group.suggestions
    assert group.suggestions_note.startswith("no single change found")
    assert group.tried and all(t.outcome == "does not fit" for t in group.tried)
    text = render_text(ExplainReport("1.37", [group]))
    assert "What would make it fit: no single change found" in text
    assert f"    - {group.tried[0].change}  -> does not fit" in text


def test_a_spent_budget_is_reported_not_silent():
    cluster = GEN.generate(6, 8, 2, 0.5, 2)
    huge = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "huge", "namespace": "ml"},
            "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "500"}}}]}}
    (group,) = _explain(cluster, [huge], Budget(runs=1))
    assert len(group.tried) == 1 and "what-if budget spent (1 of 1 what-ifs" in group.suggestions_note


def test_many_standalone_pods_are_summarised_linearly():
    cluster = GEN.generate(4, 8, 10, 0.5, 2)  # 2 untainted nodes with 100 free pod slots each
    groups = _explain(cluster, SCALE.standalone_manifests(0.2), Budget(runs=6))  # 400 pods
    assert len(groups) == 400 and sum(g.fits for g in groups) == 200
    text = render_text(ExplainReport("1.37", groups))
    assert "Pods ml/web-00000–web-00199 — fit" in text
    assert "… and 199 more pods with the same answer: web-00201–web-00399 (-o json lists all)" in text
    assert len(text.splitlines()) < 40
    assert text.count("capacity taken earlier by") <= 4  # three holders and the count of the rest
    data = orjson.loads(render_json(ExplainReport("1.37", groups)))
    assert len(data["groups"]) == 400


def test_the_headline_comes_from_the_domain_closest_to_fitting(gang):
    """Every rack places 0 pods; r0 is stopped by a node taint, the others by devices in use: the first pod that does
    not fit is shown where freeing or adding devices would help, not in the first rack by name."""
    (group,) = gang
    assert group.pod_message_domain == group.domains[0].value != "r0"
    assert "cannot allocate all claims" in group.pod_message and "taint" not in group.pod_message
    assert "UntoleratedTaint" not in {r.code for r in group.reasons}
    text = render_text(ExplainReport("1.37", gang))
    assert f"first pod that does not fit in example.com/rack={group.pod_message_domain}, as kube-scheduler" in text
    data = orjson.loads(render_json(ExplainReport("1.37", gang)))["groups"][0]
    assert data["domains"][0]["value"] == group.pod_message_domain  # JSON lists the closest domain first


def test_claims_too_small_to_close_the_gap_are_not_tried():
    """Freeing one 1-GPU claim cannot place pods short by several 4-GPU pods: no what-if is spent on it."""
    cluster = GEN.generate(40, 8, 8, 0.7, 4)
    (group,) = _explain(cluster, SCALE.gang_manifests(0.2), Budget(runs=20))
    assert not group.fits and group.tried
    assert not [t for t in group.tried if t.kind == "freeDevices"]
