"""explain -o html: the page's numbers (read back from its DOM) equal -o json's on the bundled fixtures and a generated
cluster; the page is self-contained; --output-file writes what stdout would show."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from kubectl_wasdra.cluster.files import read_snapshot_leaving_out
from kubectl_wasdra.explain.grid import DOMAINS_WITH_ROWS, ROWS_PER_DOMAIN
from kubectl_wasdra.explain.render_html import render_html
from tests.cli_runner import run
from tests.explain.html_dom import assert_agrees, parse, report_numbers

ROOT = Path(__file__).resolve().parents[2]
GATES = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
         "--runtime-config", "scheduling.k8s.io/v1beta1=true"]
# (manifests, snapshot, extra flags): the README's example and the NUMA fixtures
CASES = {
    "readme-two-racks": ("fixtures/manifests/explain", "fixtures/clusters/two-racks", GATES),
    "numa-gpu-fits": ("fixtures/manifests/numa/dra-with-exclusive-cpus.yaml", "fixtures/clusters/numa-gpu", []),
    "numa-gpu-kubelet-rejects": ("fixtures/manifests/numa/kubelet-rejects.yaml", "fixtures/clusters/numa-gpu", []),
    "numa-gpu-driver-attribute": ("fixtures/manifests/numa/dra-driver-attribute.yaml", "fixtures/clusters/numa-gpu", []),
}


def explain_both(capsys, manifests: str, snapshot: str, flags: list[str], tmp_path: Path) -> tuple[dict, str]:
    """(-o json document, -o html page) of one explain run, the page written with --output-file."""
    argv = ["explain", str(ROOT / manifests), "--snapshot", str(ROOT / snapshot), *flags, "--fail-on", "never"]
    code, out, err = run([*argv, "-o", "json", "--plugin-results"], capsys)
    assert code == 0, err
    page = tmp_path / "report.html"
    code, shown, err = run([*argv, "-o", "html", "--plugin-results", "--output-file", str(page)], capsys)
    assert (code, shown) == (0, ""), err
    return orjson.loads(out), page.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_pages_numbers_are_the_json_numbers(case, capsys, tmp_path):
    manifests, snapshot, flags = CASES[case]
    doc, page = explain_both(capsys, manifests, snapshot, flags, tmp_path)
    cluster, _ = read_snapshot_leaving_out([str(ROOT / snapshot)])
    root = parse(page)
    grids = assert_agrees(report_numbers(root), doc, cluster, root)
    assert grids >= 1  # every case asks for devices: a grid is drawn and checked


def test_the_readme_example_shows_verdicts_causes_suggestions_and_the_grid(capsys, tmp_path):
    doc, page = explain_both(capsys, *CASES["readme-two-racks"], tmp_path)
    root = parse(page)
    verdicts = [span.attrs["data-verdict"] for span in root.find_all("span") if "data-verdict" in span.attrs]
    assert verdicts == ["fits" if g["fits"] else "does not fit" for g in doc["groups"]]
    train = next(g for g in report_numbers(root) if g["name"] == "train")
    assert train["fits"] is False and [d[0] for d in train["domains"]] == ["r0", "r1"]
    assert train["grid"]["counts"]["example.com/rack=r0"][1] > 0  # the gang's own partial placement is drawn
    suggestions = [li.text() for ul in root.find_all("ul", class_="suggestions") for li in ul.find_all("li")]
    assert len(suggestions) == sum(len(g["suggestions"]) for g in doc["groups"]) > 0
    plugins = {g["name"]: g["plugins"] for g in report_numbers(root)}
    assert plugins["finetune"] and all(p["chosen"] for p in plugins["finetune"].values())  # per-pod plugin tables
    assert {p["chosen"] for p in plugins["finetune"].values()} <= set(doc["groups"][1]["placement"]["pods"].values())
    tried = root.find_all("table", class_="tried")
    assert sum(len(t.rows()) for t in tried) == sum(len(g["tried"]) for g in doc["groups"])


def test_the_page_loads_nothing_from_anywhere(capsys, tmp_path):
    _, page = explain_both(capsys, *CASES["readme-two-racks"], tmp_path)
    root = parse(page)
    assert not root.find_all("link") and not root.find_all("img") and not root.find_all("iframe")
    assert all("src" not in s.attrs for s in root.find_all("script"))
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page)
    assert not re.search(r"url\(|@import|@font-face", page)
    (policy,) = [m for m in root.find_all("meta") if m.attrs.get("http-equiv") == "Content-Security-Policy"]
    assert "default-src 'none'" in policy.attrs["content"]
    assert "prefers-color-scheme:dark" in page  # a dark scheme beside the light one
    skip = root.find_all("a", class_="skip")[0]
    assert skip.attrs["href"] == "#main" and root.find_all("main", id="main")


def test_output_file_holds_what_stdout_shows(capsys, tmp_path):
    manifests, snapshot, flags = CASES["readme-two-racks"]
    argv = ["explain", str(ROOT / manifests), "--snapshot", str(ROOT / snapshot), *flags, "--fail-on", "never"]
    for output in ("html", "json", "text"):
        code, out, _ = run([*argv, "-o", output], capsys)
        target = tmp_path / f"out.{output}"
        code_file, shown, said = run([*argv, "-o", output, "--output-file", str(target)], capsys)
        assert (code, code_file, shown) == (0, 0, "") and said.startswith(f"wrote {target} ({output}, ")
        assert target.read_text(encoding="utf-8") == out
    drawn = parse((tmp_path / "out.html").read_text(encoding="utf-8"))
    assert not drawn.find_all("p", class_="plugins-absent")  # -o html records the pods it draws by default
    assert '"plugins"' not in (tmp_path / "out.json").read_text(encoding="utf-8")  # -o json only when asked


def test_no_plugin_results_leaves_the_tables_out_of_the_page(capsys):
    manifests, snapshot, flags = CASES["readme-two-racks"]
    argv = ["explain", str(ROOT / manifests), "--snapshot", str(ROOT / snapshot), *flags, "--fail-on", "never"]
    _, page, _ = run([*argv, "-o", "html", "--no-plugin-results"], capsys)
    assert parse(page).find_all("p", class_="plugins-absent")
    _, default_page, _ = run([*argv, "-o", "html"], capsys)
    _, asked_page, _ = run([*argv, "-o", "html", "--plugin-results"], capsys)
    assert default_page == asked_page  # a 6-pod gang: the sample is every pod


def test_an_unwritable_output_file_is_exit_2_with_the_reason(capsys, tmp_path):
    manifests, snapshot, flags = CASES["readme-two-racks"]
    target = tmp_path / "missing-dir" / "report.html"
    code, out, err = run(["explain", str(ROOT / manifests), "--snapshot", str(ROOT / snapshot), *flags,
                          "-o", "html", "--output-file", str(target)], capsys)
    assert code == 2 and out == "" and "cannot write" in err and "Traceback" not in err


def test_text_from_the_cluster_is_escaped():
    doc = {"k8sVersion": "1.37", "groups": [{
        "kind": "Pod", "namespace": "ns", "name": "p", "fits": False,
        "placement": {"pods": {}, "claims": {}, "domain": None},
        "reasons": [{"code": "UntoleratedTaint", "message": 'taint {a: <script>alert(1)</script>}', "count": 3,
                     "details": {}}], "suggestions": [], "tried": []}]}
    page = render_html(doc)
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    (group,) = report_numbers(parse(page))
    assert group["reasons"] == [("UntoleratedTaint", 3)]


def test_a_capacity_document_gets_its_own_section():
    """render_html draws a capacity document with the capacity command's sections (explain/capacity_html.py)."""
    nodes = [{"name": f"n{i}", "domain": "r1", "pods": i % 3, "limit": None} for i in range(60)]
    page = render_html(None, {"shape": {"kind": "Pod", "namespace": "default", "name": "p", "podsPerCopy": 1},
                              "copies": 60, "capped": True, "max": 60, "topologyKey": "rack", "limits": [],
                              "domains": [{"value": "r1", "nodes": 60, "copies": 60, "pods": 60, "limits": []}],
                              "nodes": nodes})
    root = parse(page)
    (section,) = root.find_all("section", id="capacity")
    (total,) = section.find_all("p", class_="capacity-total")
    assert (total.attrs["data-copies"], total.attrs["data-capped"]) == ("60", "true")
    (domains,) = root.find_all("table", data_list="domains")
    assert [c[2].text() for c in domains.rows()] == ["60"]
    (listed,) = root.find_all("table", data_list="nodes")  # nodes that took copies, folded past 50 rows
    assert len(listed.rows()) == 40


def test_plugin_tables_show_every_verdict_and_total():
    plugins = {"trainer-0": {
        "nodes": 2, "preFilter": None, "chosenNode": "a", "feasible": 1, "scored": 0,
        "rejectedBy": {"TaintToleration": 1}, "nodesLeftOut": 0,
        "filter": [{"node": "a", "results": [{"plugin": "TaintToleration", "status": "pass", "reason": None, "message": ""},
                                             {"plugin": "NodeResourcesFit", "status": "pass", "reason": None, "message": ""}]},
                   {"node": "b", "results": [{"plugin": "TaintToleration", "status": "unschedulable_and_unresolvable",
                                              "reason": "UntoleratedTaint", "message": "node(s) had untolerated taint"},
                                             {"plugin": "NodeResourcesFit", "status": "skipped", "reason": None,
                                              "message": ""}]}],
        "score": [{"node": "a", "scores": [{"plugin": "NodeResourcesFit", "raw": 87, "normalized": 87, "weight": 1,
                                            "weighted": 87}], "total": 87}]}}
    doc = {"k8sVersion": "1.37", "groups": [{
        "kind": "Pod", "namespace": "ns", "name": "trainer-0", "fits": True,
        "placement": {"pods": {"trainer-0": "a"}, "claims": {}, "domain": None}, "reasons": [], "suggestions": [],
        "tried": [], "plugins": plugins}]}
    (group,) = report_numbers(parse(render_html(doc)))
    assert group["plugins"] == {"trainer-0": {
        "chosen": "a", "totals": {"a": 87},
        "filter": {"a": {"TaintToleration": "pass", "NodeResourcesFit": "pass"},
                   "b": {"TaintToleration": "unschedulable_and_unresolvable", "NodeResourcesFit": "skipped"}}}}


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A 240-node, 24-rack copy of the bench's gang case (bench/explain_scale.py), written as a snapshot file."""
    from tests.explain.test_scale_causes import GEN, SCALE

    where = tmp_path_factory.mktemp("gen")
    (where / "cluster.json").write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List",
                                                       "items": GEN.generate(240, 8, 8, 0.7, 24)}))
    (where / "gang.json").write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List",
                                                    "items": SCALE.gang_manifests(0.6)}))
    return where


def test_a_generated_cluster_folds_domains_and_still_counts_every_device(generated, capsys, tmp_path):
    argv = ["explain", str(generated / "gang.json"), "--snapshot", str(generated / "cluster.json"), *GATES,
            "--fail-on", "never", "--what-if-budget", "5s,2"]
    code, out, _ = run([*argv, "-o", "json", "--plugin-results"], capsys)
    page_file = tmp_path / "gen.html"
    code_html, _, _ = run([*argv, "-o", "html", "--plugin-results", "--output-file", str(page_file)], capsys)
    assert code == code_html == 0
    doc, page = orjson.loads(out), page_file.read_text(encoding="utf-8")
    cluster, _ = read_snapshot_leaving_out([str(generated / "cluster.json")])
    root = parse(page)
    (group,) = report_numbers(root)
    assert_agrees([group], doc, cluster, root)
    assert len(group["grid"]["counts"]) == 24  # a summary row per rack (the total row was checked and taken out)
    assert len(group["grid"]["cells"]) == DOMAINS_WITH_ROWS * ROWS_PER_DOMAIN  # node rows only for the first racks
    assert len(page) < 400_000


def test_many_groups_fold_into_outcome_rows_and_the_first_sections(capsys, tmp_path):
    """A Job of 400 one-GPU pods on 30 nodes with 240 GPUs (half held): 400 groups of one pod, two outcomes."""
    from tests.explain.test_scale_causes import GEN, SCALE

    (tmp_path / "cluster.json").write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List",
                                                          "items": GEN.generate(30, 8, 8, 0.5, 3)}))
    (tmp_path / "job.json").write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List",
                                                      "items": SCALE.job10k_manifests(0.04)}))
    argv = ["explain", str(tmp_path / "job.json"), "--snapshot", str(tmp_path / "cluster.json"), "--fail-on", "never",
            "--no-suggestions"]
    _, out, _ = run([*argv, "-o", "json", "--plugin-results"], capsys)
    _, page, _ = run([*argv, "-o", "html", "--plugin-results"], capsys)
    doc, root = orjson.loads(out), parse(page)
    assert len(doc["groups"]) == 400 and {g["fits"] for g in doc["groups"]} == {True, False}
    cluster, _ = read_snapshot_leaving_out([str(tmp_path / "cluster.json")])
    assert_agrees(report_numbers(root), doc, cluster, root)
    assert len(root.find_all("table", id="verdict-table")[0].rows()) < 10
    assert root.find_all("section", id="more") and len(page) < 2_000_000  # 50 sections, 20 grids: bounded


def test_explain_pending_draws_its_verdicts_records_and_grid(capsys, tmp_path):
    argv = ["explain-pending", "--snapshot", str(ROOT / "fixtures/clusters/two-racks"), "-A"]
    _, out, _ = run([*argv, "-o", "json"], capsys)
    code, shown, err = run([*argv, "-o", "html", "--output-file", str(tmp_path / "pending.html")], capsys)
    assert shown == "" and code in (0, 1), err
    doc, root = orjson.loads(out), parse((tmp_path / "pending.html").read_text(encoding="utf-8"))
    cluster, _ = read_snapshot_leaving_out([str(ROOT / "fixtures/clusters/two-racks")])
    assert assert_agrees(report_numbers(root), doc, cluster, root) >= 1
    agreed = [b.attrs["data-agree"] for b in root.find_all("b") if "data-agree" in b.attrs]
    assert agreed == [g["agree"]["verdict"] for g in doc["groups"]] != []


def test_the_page_is_usable_with_the_keyboard(capsys, tmp_path):
    _, page = explain_both(capsys, *CASES["readme-two-racks"], tmp_path)
    root = parse(page)
    body = root.find_all("body")[0]
    first = next(c for c in body.children if not isinstance(c, str))
    assert first.tag == "a" and first.attrs["href"] == "#main"  # the skip link is the first thing Tab reaches
    assert root.find_all("main")[0].attrs["tabindex"] == "-1"
    details = root.find_all("details")
    assert details and all(next(c for c in d.children if not isinstance(c, str)).tag == "summary" for d in details)
    for table in root.find_all("table"):  # every table says what its columns are
        assert all(th.attrs.get("scope") == "col" for th in table.find_all("th")) and table.find_all("thead")
    wide = [r for r in root.find_all("div", class_="scroll") if r.find_all("table", class_="filter-table")]
    assert wide and all(r.attrs["tabindex"] == "0" and r.attrs["aria-label"] for r in wide)  # scrolls by keyboard
    ids = [e.attrs["id"] for e in root.iter() if "id" in e.attrs]
    assert len(ids) == len(set(ids))  # anchors are unique
    links = [a.attrs["href"][1:] for a in root.find_all("a") if a.attrs.get("href", "").startswith("#")]
    assert set(links) <= set(ids)  # every in-page link has its target
