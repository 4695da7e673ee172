"""The capacity command end to end: text (natural order, shortened lists), JSON, exit codes, usage errors."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from builders import node, pod, pod_group
from cli_runner import run

RACK = "example.com/rack"


def _write(path: Path, *objects: dict) -> str:
    path.write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List", "items": list(objects)}))
    return str(path)


@pytest.fixture
def racks(tmp_path: Path) -> str:
    """Twelve racks r1..r12 of one 8-cpu node each (r2 sorts before r10 only in natural order)."""
    return _write(tmp_path / "cluster.json", *(node(f"n{i}", cpu="8", labels={RACK: f"r{i}"}) for i in range(1, 13)))


def test_json_counts_per_domain_and_node(tmp_path: Path, racks: str, capsys: pytest.CaptureFixture[str]) -> None:
    shape = _write(tmp_path / "pod.json", pod("p", cpu="3"))
    code, out, _ = run(["capacity", "-f", shape, "--snapshot", racks, "--topology-key", RACK, "-o", "json"], capsys)
    data = orjson.loads(out)
    assert code == 0
    assert (data["copies"], data["capped"], data["shape"]["kind"], data["topologyKey"]) == (24, False, "Pod", RACK)
    assert [d["value"] for d in data["domains"]][:3] == ["r1", "r2", "r3"]
    assert {d["copies"] for d in data["domains"]} == {2}
    assert [n["name"] for n in data["nodes"]][:3] == ["n1", "n2", "n3"]
    assert data["limits"] == [{"limit": "cpu", "code": "InsufficientResource", "excluded": False,
                               "details": {"resource": "cpu"}, "nodes": 12}]
    assert data["nextCopy"]["message"].startswith("0/12 nodes are available: 12 Insufficient cpu")


def test_text_lists_in_natural_order_and_says_what_it_left_out(tmp_path: Path, racks: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    shape = _write(tmp_path / "gang.json", pod_group("g", min_count=2, topology_key=RACK),
                   pod("g-0", cpu="3", group="g"), pod("g-1", cpu="3", group="g"))
    code, out, _ = run(["capacity", "-f", shape, "--snapshot", racks, "--feature-gates",
                        "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
                        "--runtime-config", "scheduling.k8s.io/v1beta1=true"], capsys)
    assert code == 0
    assert out.startswith("PodGroup default/g (2 pods a copy): 12 copies fit now\n")
    domains = [line.split()[0] for line in out.splitlines() if line.startswith("  r")]
    assert domains[:3] == ["r1", "r2", "r3"] and domains.index("r2") < domains.index("r10")
    wide = run(["capacity", "-f", shape, "--snapshot", racks, "--feature-gates",
                "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
                "--runtime-config", "scheduling.k8s.io/v1beta1=true", "-o", "wide"], capsys)[1]
    assert "more" not in wide and len([line for line in wide.splitlines() if line.startswith("  n")]) == 12


def test_long_node_lists_are_shortened(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cluster = _write(tmp_path / "cluster.json", *(node(f"n{i}", cpu="1") for i in range(30)))
    shape = _write(tmp_path / "pod.json", pod("p", cpu="1"))
    out = run(["capacity", "-f", shape, "--snapshot", cluster], capsys)[1]
    assert "… and 10 more nodes" in out


def test_min_and_max_set_the_exit_code(tmp_path: Path, racks: str, capsys: pytest.CaptureFixture[str]) -> None:
    shape = _write(tmp_path / "pod.json", pod("p", cpu="3"))
    assert run(["capacity", "-f", shape, "--snapshot", racks, "--min", "25"], capsys)[0] == 1
    assert run(["capacity", "-f", shape, "--snapshot", racks, "--min", "24"], capsys)[0] == 0
    code, out, _ = run(["capacity", "-f", shape, "--snapshot", racks, "--max", "3"], capsys)
    assert code == 0 and "at least 3 copies fit now (stopped at --max 3; more may fit)" in out
    big = _write(tmp_path / "big.json", pod("big", cpu="9"))
    assert run(["capacity", "-f", big, "--snapshot", racks], capsys)[0] == 1


def test_deployment_template_is_one_pod(tmp_path: Path, racks: str, capsys: pytest.CaptureFixture[str]) -> None:
    template = pod("ignored", cpu="4")
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
                  "spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "web"}}, "spec": template["spec"]}}}
    shape = _write(tmp_path / "deploy.json", deployment)
    data = orjson.loads(run(["capacity", "-f", shape, "--snapshot", racks, "-o", "json"], capsys)[1])
    assert (data["shape"], data["copies"]) == ({"kind": "Pod", "namespace": "default", "name": "web", "podsPerCopy": 1}, 24)


@pytest.mark.parametrize(("objects", "args", "message"), [
    ([pod("a"), pod("b")], [], "capacity counts copies of one pod or one group, the manifests define 2"),
    ([pod("a")], ["--no-snapshot"], "no cluster given"),
    ([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}], [], "the manifests define no pod"),
], ids=["two-pods", "no-cluster", "no-pod"])
def test_usage_errors_exit_2_with_one_line(tmp_path: Path, racks: str, capsys: pytest.CaptureFixture[str],
                                           objects: list[dict], args: list[str], message: str) -> None:
    shape = _write(tmp_path / "shape.json", *objects)
    cluster = [] if args == ["--no-snapshot"] else ["--snapshot", racks]
    code, _, err = run(["capacity", "-f", shape, *cluster], capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_html_page_shows_the_json_numbers(tmp_path: Path, racks: str, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.explain.html_dom import parse

    shape = _write(tmp_path / "gang.json", pod_group("g", min_count=2, topology_key=RACK),
                   pod("g-0", cpu="3", group="g"), pod("g-1", cpu="5", group="g"))
    flags = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
             "--runtime-config", "scheduling.k8s.io/v1beta1=true"]
    doc = orjson.loads(run(["capacity", "-f", shape, "--snapshot", racks, *flags, "-o", "json"], capsys)[1])
    page = tmp_path / "capacity.html"
    code, shown, _ = run(["capacity", "-f", shape, "--snapshot", racks, *flags, "-o", "html", "--output-file",
                          str(page)], capsys)
    assert (code, shown) == (0, "")
    root = parse(page.read_text(encoding="utf-8"))
    (total,) = root.find_all("p", class_="capacity-total")
    assert int(total.attrs["data-copies"]) == doc["copies"] == 12
    (domains,) = root.find_all("table", data_list="domains")
    assert {c[0].text(): int(c[2].text()) for c in domains.rows()} == {d["value"]: d["copies"] for d in doc["domains"]}
    (nodes,) = root.find_all("table", data_list="nodes")
    assert {c[0].text(): int(c[2].text()) for c in nodes.rows()} == {n["name"]: n["pods"] for n in doc["nodes"] if n["pods"]}
    (limits,) = root.find_all("table", data_list="limits")
    assert [(c[0].text(), int(c[2].text())) for c in limits.rows()] == [(x["limit"], x["nodes"]) for x in doc["limits"]]
    assert not re.search(r"(src|href)=\"https?:", page.read_text(encoding="utf-8"))  # loads nothing from anywhere


@pytest.mark.parametrize(("words", "expected"), [
    (["cap"], {"capacity"}),
    (["capacity", "-o", ""], {"text", "wide", "json", "html"}),
    (["capacity", "--k8s-version", ""], {"1.37", "auto"}),
    (["capacity", "--topo"], {"--topology-key"}),
], ids=["command", "output", "release", "flag"])
def test_shell_completion(words: list[str], expected: set[str], capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_cli_completion import complete

    out = complete("bash", words, capsys, monkeypatch)
    assert expected <= {line.split(",", 1)[1] for line in out.splitlines() if line.startswith("plain,")}
