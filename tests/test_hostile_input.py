"""Hostile input for check, explain and snapshot: each gets a clear message naming file:line:col and a non-zero exit,
never a traceback, and never hides the results of the other files."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from builders import write_failing_selector_case

from kubectl_wasdra.cli import main
from kubectl_wasdra.load import load_paths

ROOT = Path(__file__).resolve().parent.parent
CLUSTER = ROOT / "fixtures" / "clusters" / "two-racks"
GOOD = "apiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\nspec: {finalizers: [kubernetes], bogus: 1}\n"
COMPREHENSIONS = "".join(f"[1,2,3,4,5,6,7,8,9,10].all(v{i}, " for i in range(7)) + "true" + ")" * 7


def _cm(data: str) -> str:
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: x}}\ndata: {data}\n"


def _device_class(expression: str) -> str:
    return ("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: x}\nspec:\n  selectors:\n  - cel:\n"
            f"      expression: \"{expression}\"\n")


def _alias_bomb() -> str:
    lines = ['  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"  {cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n" + "\n".join(lines) + "\n"


# name -> (file name, content, rule expected on the hostile file)
CASES: dict[str, tuple[str, str | bytes, str]] = {
    "malformed": ("bad.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: a\n", "LOAD001"),
    "alias-bomb": ("bomb.yaml", _alias_bomb(), "LOAD010"),
    "binary": ("ls.yaml", b"\x7fELF\x02\x01\x01\x00\x00\x00" * 100, "LOAD008"),
    "utf16": ("u16.yaml", "apiVersion: v1\nkind: Pod\n".encode("utf-16"), "LOAD007"),
    "latin1": ("l1.yaml", b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: \"caf\xe9\"}\n", "LOAD007"),
    "wrong-types": ("types.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: [1], labels: 3}\nspec: {containers: {a: 1}}\n",
                    "SCHEMA001"),
    "type-meta-types": ("meta.yaml", "apiVersion: 5\nkind: [Pod]\nmetadata: {name: a}\n", "LOAD003"),
    "not-a-mapping": ("list.yaml", "- a\n- b\n", "LOAD005"),
    "unknown-kind": ("crd.yaml", "apiVersion: v1\nkind: Frobnicator\nmetadata: {name: a}\n", "API001"),
    "deep-flow": ("deep.yaml", _cm("[" * 5000 + "]" * 5000), "LOAD001"),
    "deep-block": ("deepblock.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n"
                   + "".join("  " * (i + 1) + "k:\n" for i in range(600)), "LOAD001"),
    "deep-json": ("deep.json", '{"apiVersion": "v1", "kind": "ConfigMap", "data": ' + "[" * 5000 + "]" * 5000 + "}", "LOAD001"),
    "deep-just-over-limit": ("deep250.yaml", _cm("[" * 250 + "]" * 250), "LOAD001"),
    "cel-100k": ("cel.yaml", _device_class("device.driver == 'a' && " * 4200 + "true"), "VALID031"),
    "cel-comprehensions": ("celx.yaml", _device_class(COMPREHENSIONS), "VALID031"),
    "tabs": ("tabs.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n\tname: a\n", "LOAD001"),
    "surrogate-yaml": ("sur.yaml", 'apiVersion: v1\nkind: Namespace\nmetadata: {name: "a\\ud800"}\n', "LOAD001"),
    "surrogate-json": ("sur.json", '{"apiVersion": "v1", "kind": "Namespace", "spec": {"\\udc00": 1}}', "SCHEMA002"),
    "duplicate-key": ("dup.yaml", "apiVersion: v1\nkind: Pod\nkind: Pod\nmetadata: {name: a}\n", "LOAD002"),
}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def _write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_reports_the_hostile_file_and_keeps_the_others(case: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    name, content, rule = CASES[case]
    hostile = _write(tmp_path / name, content)
    good = _write(tmp_path / "good.yaml", GOOD)
    code, out, err = run(["check", str(hostile), str(good), "-o", "json"], capsys)
    assert code != 0 and err == "", err
    findings = json.loads(out)["findings"]
    mine = [f for f in findings if f["file"] == str(hostile)]
    assert rule in {f["rule"] for f in mine}, mine
    assert all(f["line"] >= 1 and f["column"] >= 1 and f["message"] for f in mine)
    assert any(f["file"] == str(good) and f["rule"] == "SCHEMA002" for f in findings)


def test_deep_document_between_good_ones_keeps_their_positions(tmp_path: Path) -> None:
    deep = _cm("[" * 3000 + "]" * 3000)
    text = "# leading comment\n" + GOOD + "---\n" + deep + "---\n" + GOOD
    path = _write(tmp_path / "multi.yaml", text)
    result = load_paths([str(path)])
    assert [(p.line, p.column, "nested too deeply" in p.message) for p in result.problems] == [(6, 1, True)]
    assert [d.index for d in result.documents] == [0, 2]
    assert [d.position(("spec", "bogus")) for d in result.documents] == [(5, 34), (15, 34)]


def test_oversized_file_is_skipped_by_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as stream:  # 40 MiB, sparse: written in no time
        stream.truncate(40 * 1024 * 1024)
    good = _write(tmp_path / "good.yaml", GOOD)
    code, out, _ = run(["check", str(big), str(good), "-o", "json"], capsys)
    findings = json.loads(out)["findings"]
    assert code == 2 and {(f["file"], f["rule"]) for f in findings} == {(str(big), "LOAD009"), (str(good), "SCHEMA002")}


def test_huge_integers_do_not_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "int.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n"
                  "  replicas: 99999999999999999999999999999999999999999\n  selector: {matchLabels: {a: b}}\n"
                  "  template:\n    metadata: {labels: {a: b}}\n    spec:\n"
                  "      containers: [{name: c, image: i, resources: {requests: {cpu: 1e999999999}}}]\n")
    code, out, err = run(["check", str(path), "-o", "json"], capsys)
    findings = json.loads(out)["findings"]
    assert code == 1 and err == ""
    assert [(f["line"], f["column"], f["message"]) for f in findings] == [
        (5, 13, "1e+41 does not fit in a 32-bit integer"), (10, 68, "the number is too large: it reads as inf")]
    path.write_text(path.read_text().replace("99999999999999999999999999999999999999999", "9223372036854775808"))
    code, out, _ = run(["check", str(path), "-o", "json", "--select", "SCHEMA005"], capsys)
    assert code == 1 and [f["message"] for f in json.loads(out)["findings"]] == [
        "9223372036854775808 does not fit in a 32-bit integer"]


def test_ten_thousand_tiny_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(10_000):
        (tmp_path / f"n{i:05d}.yaml").write_text(f"apiVersion: v1\nkind: Namespace\nmetadata: {{name: n{i}}}\n")
    (tmp_path / "n00042.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: [x]}\n")
    code, out, _ = run(["check", str(tmp_path), "-o", "json", "-j", "1"], capsys)
    data = json.loads(out)
    assert code == 1 and data["summary"]["files"] == 10_000 and data["summary"]["documents"] == 10_000
    assert [(f["file"], f["line"]) for f in data["findings"]] == [(str(tmp_path / "n00042.yaml"), 3)]


def test_symlink_loops_dangling_links_and_fifos(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sub").mkdir()
    os.symlink("..", tmp_path / "sub" / "up")  # a directory loop
    os.symlink("a.yaml", tmp_path / "b.yaml")
    os.symlink("b.yaml", tmp_path / "a.yaml")  # a file loop
    os.symlink("/nonexistent/x.yaml", tmp_path / "dangling.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")  # reading it would block forever
    _write(tmp_path / "good.yaml", GOOD)
    for argv in (["check", str(tmp_path)], ["check", f"{tmp_path}/**/*.yaml"]):
        code, out, _ = run([*argv, "-o", "json"], capsys)
        findings = json.loads(out)["findings"]
        by_file = {(Path(f["file"]).name, f["rule"]) for f in findings}
        assert code == 2
        assert by_file == {("a.yaml", "LOAD011"), ("b.yaml", "LOAD011"), ("dangling.yaml", "LOAD011"),
                           ("good.yaml", "SCHEMA002")}
        assert len(findings) == 4  # the directory loop repeats nothing


def test_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # root reads a chmod 000 file anyway: make the open fail the way it fails for other users
    locked = _write(tmp_path / "locked.yaml", GOOD)
    good = _write(tmp_path / "good.yaml", GOOD)
    real_open = open

    def guarded_open(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == str(locked):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", guarded_open)
    code, out, _ = run(["check", str(locked), str(good), "-o", "json"], capsys)
    findings = json.loads(out)["findings"]
    assert code == 2
    assert [(f["file"], f["rule"], f["message"]) for f in findings if f["file"] == str(locked)] == [
        (str(locked), "LOAD011", "cannot read: Permission denied")]
    assert any(f["file"] == str(good) for f in findings)


@pytest.mark.parametrize("stdin", [b"", b"\n  \n"])
def test_empty_stdin_is_an_error(stdin: bytes, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code, out, _ = run(["check", "-", "-o", "json"], capsys)
    assert code == 2
    assert [(f["file"], f["line"], f["column"], f["rule"]) for f in json.loads(out)["findings"]] == [("-", 1, 1, "LOAD011")]


@pytest.mark.parametrize("case", ["deep-flow", "binary", "malformed", "alias-bomb"])
def test_explain_names_the_file_in_one_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name, content, _ = CASES[case]
    hostile = _write(tmp_path / name, content)
    code, out, err = run(["explain", "-f", str(hostile), "--snapshot", str(CLUSTER)], capsys)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"kubectl-wasdra: error: {hostile}:") and "Traceback" not in err
    line, column = err.split(f"{hostile}:")[1].split(":")[:2]
    assert int(line) >= 1 and int(column) >= 1


@pytest.mark.parametrize("case", ["binary", "malformed", "deep-flow"])
def test_snapshot_writes_the_rest_and_exits_2(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = tmp_path / "dump"
    shutil.copytree(CLUSTER, dump)
    name, content, _ = CASES[case]
    hostile = _write(dump / name, content)
    target = tmp_path / "out.json"
    code, _, err = run(["snapshot", "--snapshot", str(dump), "--output-file", str(target)], capsys)
    problems = [line for line in err.splitlines() if str(hostile) in line]
    assert code == 2 and problems and all(line.startswith(f"kubectl-wasdra: error: {hostile}:") for line in problems)
    line, column = problems[0].split(f"{hostile}:")[1].split(":")[:2]
    assert int(line) >= 1 and int(column) >= 1
    kinds = {item["kind"] for item in json.loads(target.read_text())["items"]}
    assert {"Node", "ResourceSlice"} <= kinds


def test_check_with_a_broken_snapshot_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = tmp_path / "dump"
    shutil.copytree(CLUSTER, dump)
    _write(dump / "ls.yaml", CASES["binary"][1])
    code, out, err = run(["check", str(ROOT / "fixtures" / "manifests" / "check"), "--snapshot", str(dump)], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"kubectl-wasdra: error: {dump / 'ls.yaml'}:1:1: ") and len(err.splitlines()) == 1


def test_type_meta_of_the_wrong_type_points_at_the_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "meta.yaml", "apiVersion: v1\nkind: 7\nmetadata: {name: a}\n")
    _, out, _ = run(["check", str(path), "-o", "json"], capsys)
    assert [(f["rule"], f["line"], f["column"], f["path"], f["message"]) for f in json.loads(out)["findings"]] == [
        ("LOAD004", 2, 7, "kind", "must be a string, not a number")]


def test_set_values_and_null_keys_are_findings_not_crashes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """!!set values load as go-yaml reads them (a map with null values): a SCHEMA finding at its position; a null key is
    refused as sigs.k8s.io/yaml refuses it (LOAD001 at the key). Never an internal error."""
    path = _write(tmp_path / "set.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
                  "  tolerations: !!set {a}\n  containers: [{name: c, image: x}]\n")
    code, out, err = run(["check", str(path), "-o", "json"], capsys)
    found = {(f["rule"], f["line"], f["path"]) for f in json.loads(out)["findings"]}
    assert code == 1 and err == "" and ("SCHEMA001", 6, "spec.tolerations") in found
    null_key = _write(tmp_path / "null.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {null: x}\n")
    code, out, err = run(["check", str(null_key), "-o", "json"], capsys)
    assert code == 1 and [(f["rule"], f["line"]) for f in json.loads(out)["findings"]] == [("LOAD001", 5)]


# ---- round 2: every case ends in a clear message and the documented exit code, never "internal error" ----

DEEP_JSON = "[" * 100_000 + "]" * 100_000
POD = "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  containers:\n  - name: c\n    image: i\n" \
      "    resources:\n      requests: {{cpu: {cpu}}}\n"


@pytest.mark.parametrize("value", ["abc", ".", "0x1g"])
def test_a_float_tag_on_a_non_number_is_a_finding(value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "f.yaml", f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: !!float {value}\n")
    code, out, err = run(["check", str(path), "-o", "json"], capsys)
    assert code == 1 and err == ""
    assert [(f["rule"], f["line"], f["column"]) for f in json.loads(out)["findings"]] == [("LOAD001", 4, 9)]
    code, out, err = run(["explain", "-f", str(path), "--snapshot", str(CLUSTER)], capsys)
    assert code == 2 and err.startswith(f"kubectl-wasdra: error: {path}:4:9: ") and "internal error" not in err


def test_a_json_integer_past_4300_digits_is_a_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "n.json", '{"apiVersion": "v1", "kind": "Namespace", "x": ' + "9" * 5000 + "}")
    code, out, _ = run(["check", str(path), "-o", "json"], capsys)
    assert code == 1 and [(f["rule"], f["line"], f["column"]) for f in json.loads(out)["findings"]] == [("LOAD001", 1, 48)]


@pytest.mark.parametrize("command", ["snapshot", "baseline", "convert", "config"])
def test_json_nested_100000_deep_is_refused_everywhere(command: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    deep = _write(tmp_path / "deep.json", DEEP_JSON)
    good = _write(tmp_path / "good.yaml", GOOD)
    argv = {"snapshot": ["snapshot", "--snapshot", str(deep), "--output-file", str(tmp_path / "out.yaml")],
            "baseline": ["check", str(good), "--baseline", str(deep)],
            "convert": ["convert", str(deep), "--to", "1.37"],
            "config": ["check", str(good), "--config", str(deep)]}[command]
    code, _, err = run(argv, capsys)
    assert code == 2 and str(deep) in err and "internal error" not in err and "Traceback" not in err


@pytest.mark.parametrize(("cpu", "verdict"), [("'-1'", "must be greater than or equal to 0"), ("'1e'", "is not a quantity"),
                                              ("'1m1'", "is not a quantity"), ("' 1 '", "is not a quantity")])
def test_one_quantity_verdict_in_check_and_explain(cpu: str, verdict: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "pod.yaml", POD.format(cpu=cpu))
    code, out, _ = run(["check", str(path), "-o", "json"], capsys)
    assert code == 1 and [(f["rule"], f["line"], verdict in f["message"]) for f in json.loads(out)["findings"]] == [
        ("VALID010", 9, True)]
    code, out, _ = run(["explain", "-f", str(path), "--snapshot", str(CLUSTER), "-o", "json"], capsys)
    (group,) = json.loads(out)["groups"]
    assert code != 0 and group["fits"] is not True and verdict in json.dumps(group)


def test_huge_quantities_are_held_not_an_internal_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = tmp_path / "dump"
    shutil.copytree(CLUSTER, dump)
    nodes = dump / "nodes.yaml"
    nodes.write_text(nodes.read_text().replace("cpu: '94'", "cpu: '1e400'", 1))
    path = _write(tmp_path / "pod.yaml", POD.format(cpu="'1e500'"))
    code, out, err = run(["check", str(path), "--snapshot", str(dump), "-o", "json"], capsys)
    assert code == 1 and "internal error" not in out + err
    assert any(f["rule"] == "FIT003" and "1e400 allocatable" in f["message"] for f in json.loads(out)["findings"])
    path.write_text(POD.format(cpu="'1e1000000'"))
    code, out, err = run(["explain", "-f", str(path), "--snapshot", str(CLUSTER), "-o", "json"], capsys)
    (group,) = json.loads(out)["groups"]
    assert code == 1 and err == ""  # held at int64 milli-units, as MilliValue returns int64
    assert group["reasons"][0]["details"]["requested"] == "9223372036854775807m"


@pytest.mark.parametrize("case", ["malformed", "alias-bomb", "deep-flow"])
def test_convert_reports_a_file_that_does_not_load(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name, content, _ = CASES[case]
    hostile = _write(tmp_path / name, content)
    code, out, err = run(["convert", str(hostile), "--to", "1.37"], capsys)
    assert code == 2 and out == "" and f"{hostile}:" in err and ": error: " in err


def test_dev_zero_is_unread_input_in_check_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "/dev/zero", "-o", "json"], capsys)
    assert code == 2 and [f["rule"] for f in json.loads(out)["findings"]] == ["LOAD009"]
    code, _, err = run(["explain", "-f", "/dev/zero", "--snapshot", str(CLUSTER)], capsys)
    assert code == 2 and err.startswith("kubectl-wasdra: error: /dev/zero:1:1:")


@pytest.mark.parametrize("flag", ["--baseline", "--config"])
def test_dev_zero_as_baseline_or_config_stops_at_the_cap(flag: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path / "good.yaml", GOOD)
    code, _, err = run(["check", str(good), flag, "/dev/zero"], capsys)
    assert code == 2 and "larger than 32 MiB" in err


def test_many_small_documents_load_in_linear_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'a: 1\\n---\\n' * 100,000 took 27 s (positions counted from the file's start per document); bench/ has numbers."""
    path = _write(tmp_path / "many.yaml", "a: 1\n---\n" * 20_000)
    code, out, _ = run(["check", str(path), "-o", "json"], capsys)
    findings = json.loads(out)["findings"]
    assert code == 1 and len(findings) == 20_000 and findings[-1]["line"] == 39_999


@pytest.mark.parametrize("text", ["spec: " + "[" * 100_000 + "]" * 100_000 + "\n",
                                  "apiVersion: v1\nkind: ConfigMap\ndata:\n  a:\n  " + "- " * 20_000 + "x\n"],
                         ids=["flow", "compact-sequences"])
def test_deep_nesting_is_refused_before_any_parser(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "deep.yaml", text)
    code, out, _ = run(["check", str(path), "-o", "json"], capsys)
    assert code == 1 and [(f["rule"], f["line"], "nested too deeply" in f["message"])
                          for f in json.loads(out)["findings"]] == [("LOAD001", 1, True)]


def test_a_ten_mebibyte_name_is_shortened_in_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + "a" * (10 << 20)
                  + "\nspec:\n  containers: [{name: c, image: i}]\n")
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 1 and re.search(r"aaa\.\.\.\(1048576\d characters\)", out) and len(out) < 10_000


def test_a_selector_that_errors_is_evaluated_once_and_reported_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`1 / 0 == 1` on a 100,000-device slice took 30 s and 1.46 GB: the allocator stops at the first runtime error,
    as upstream's does, so one device is evaluated per scan, not every one."""
    from kubectl_wasdra.dra import requests

    snapshot, manifest = write_failing_selector_case(tmp_path, devices=20_000)
    calls: list[str] = []
    real = requests.Selector.matches
    monkeypatch.setattr(requests.Selector, "matches", lambda self, device: calls.append(device.name) or real(self, device))
    code, out, _ = run(["explain", "-f", str(manifest), "--snapshot", str(snapshot), "-o", "json"], capsys)
    (group,) = json.loads(out)["groups"]
    assert code == 1 and [r["code"] for r in group["reasons"]] == ["SelectorError"]
    assert "on device gpu.example.com/n1/d0: CEL runtime error: divide by zero" in group["reasons"][0]["message"]
    assert set(calls) == {"d0"}
