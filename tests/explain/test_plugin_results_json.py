"""explain --plugin-results: the "plugins" key of each group (docs/plugin-results.md), absent without the flag, and
recording changes nothing else in the output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from kubectl_wasdra.cli import cli
from kubectl_wasdra.explain.model import ExplainReport
from kubectl_wasdra.explain.render_json import plugin_results_json, render_json
from kubectl_wasdra.explain.run import ExplainOptions, run_explain

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = str(ROOT / "fixtures" / "clusters" / "two-racks")
GANG_FITS = str(ROOT / "fixtures" / "manifests" / "explain" / "finetune-gang-rack.yaml")
GANG_FAILS = str(ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml")
ON = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
      "--runtime-config", "scheduling.k8s.io/v1beta1=true"]
POD_KEYS = ["nodes", "domain", "preFilter", "filter", "score", "chosenNode", "feasible", "scored", "rejectedBy",
            "nodesLeftOut"]


def _explain(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["explain", *args], standalone_mode=False, catch_exceptions=False)
    return result.return_value, result.output


def _without_plugins(data: dict[str, Any]) -> dict[str, Any]:
    for group in data["groups"]:
        group.pop("plugins", None)
    return data


@pytest.mark.parametrize("manifest", [GANG_FITS, GANG_FAILS], ids=["fits", "does-not-fit"])
def test_recording_adds_only_the_plugins_key(manifest):
    base = ["-f", manifest, "--snapshot", CLUSTER, *ON, "-o", "json"]
    code_off, off = _explain(*base)
    code_on, on = _explain(*base, "--plugin-results")
    assert code_off == code_on
    assert all("plugins" not in group for group in json.loads(off)["groups"])
    data = json.loads(on)
    assert all("plugins" in group for group in data["groups"])
    assert _without_plugins(data) == json.loads(off)  # suggestions, placement and reasons unchanged


def test_a_gang_that_fits_lists_each_pod_with_its_placement_as_chosen_node():
    code, out = _explain("-f", GANG_FITS, "--snapshot", CLUSTER, *ON, "-o", "json", "--plugin-results")
    (group,) = json.loads(out)["groups"]
    assert code == 0 and group["fits"]
    plugins = group["plugins"]
    assert list(plugins) == list(group["placement"]["pods"])
    for pod, data in plugins.items():
        assert list(data) == POD_KEYS
        assert data["chosenNode"] == group["placement"]["pods"][pod]
        assert data["domain"] == group["placement"]["domain"]
        assert data["filter"][0]["node"] == data["chosenNode"]
        assert data["nodes"] == len(data["filter"]) + data["nodesLeftOut"]
        if data["score"]:
            totals = {s["node"]: s["total"] for s in data["score"]}
            assert totals[data["chosenNode"]] == max(totals.values())
            assert all(s["total"] == sum(x["weighted"] for x in s["scores"]) for s in data["score"])


def test_a_gang_that_fits_nowhere_shows_the_pods_that_found_no_node():
    _, out = _explain("-f", GANG_FAILS, "--snapshot", CLUSTER, *ON, "-o", "json", "--plugin-results")
    (group,) = json.loads(out)["groups"]
    assert not group["fits"]
    placeable = {d["value"]: d["placeable"] for d in group["domains"]}
    (shown,) = {tuple(data["domain"].items()) for data in group["plugins"].values()}  # one domain: the closest
    assert placeable[shown[0][1]] == max(placeable.values())
    unplaced = [data for data in group["plugins"].values() if data["chosenNode"] is None]
    assert unplaced
    for data in unplaced:
        assert data["feasible"] == 0 and data["score"] == []
        assert sum(data["rejectedBy"].values()) == data["nodes"]
        for entry in data["filter"]:
            statuses = [r["status"] for r in entry["results"]]
            rejected = [i for i, s in enumerate(statuses) if s not in ("pass", "skipped")]
            assert len(rejected) == 1
            assert set(statuses[rejected[0] + 1:]) <= {"skipped"} and set(statuses[:rejected[0]]) == {"pass"}


def test_plugin_nodes_bounds_the_listing():
    base = ["-f", GANG_FITS, "--snapshot", CLUSTER, "-o", "json", "--plugin-results"]  # pods one by one: 10 nodes
    _, out = _explain(*base, "--plugin-nodes", "2")
    pods = [data for group in json.loads(out)["groups"] for data in group.get("plugins", {}).values()]
    assert len(pods) == 4
    for data in pods:
        assert len(data["filter"]) == 3 and data["nodesLeftOut"] == data["nodes"] - 3 > 0
    _, out = _explain(*base, "--plugin-nodes", "all")
    pods = [data for group in json.loads(out)["groups"] for data in group.get("plugins", {}).values()]
    assert len(pods) == 4
    for data in pods:
        assert len(data["filter"]) == data["nodes"] and data["nodesLeftOut"] == 0


def test_yaml_carries_the_same_data():
    base = ["-f", GANG_FITS, "--snapshot", CLUSTER, *ON, "--plugin-results"]
    _, as_json = _explain(*base, "-o", "json")
    _, as_yaml = _explain(*base, "-o", "yaml")
    assert yaml.safe_load(as_yaml) == json.loads(as_json)


def test_bad_plugin_nodes_is_a_usage_error(capsys):
    from cli_runner import run

    code, _, err = run(["explain", "-f", GANG_FITS, "--snapshot", CLUSTER, "--plugin-results", "--plugin-nodes", "some"],
                       capsys)
    assert code == 2 and "--plugin-nodes" in err and "Traceback" not in err


def test_python_entry_point_gives_what_json_prints():
    options = ExplainOptions(files=[GANG_FITS], snapshot=[CLUSTER], suggestions=False, plugin_results=True,
                             plugin_nodes=5, feature_gates={"GenericWorkload": True,
                                                            "TopologyAwareWorkloadScheduling": True},
                             runtime_config={"scheduling.k8s.io/v1beta1": True})
    report = run_explain(options)
    printed = json.loads(render_json(report))
    assert [plugin_results_json(g) for g in report.groups] == [g["plugins"] for g in printed["groups"]]
    off = run_explain(ExplainOptions(files=[GANG_FITS], snapshot=[CLUSTER], suggestions=False))
    assert [plugin_results_json(g) for g in off.groups] == [None] * len(off.groups)
    assert "plugins" not in render_json(ExplainReport(off.k8s_version, off.groups))
