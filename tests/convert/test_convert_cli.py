"""`kubectl wasdra convert` end to end: stdout, --write, --diff, -o json, exit codes, the printed needs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.convert.helpers import run_cli
from tests.convert.test_scheduling import WORKLOAD_135

CLAIM = "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n  devices:\n" \
        "    requests:\n    - name: gpu\n      deviceClassName: gpu  # class\n"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, "convert", *argv)


def test_write_rewrites_in_place_and_second_run_is_a_no_op(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "claim.yaml"
    path.write_text(CLAIM)
    code, out, err = _run(capsys, str(path), "--to", "1.37", "--write")
    assert (code, out) == (0, "")
    assert path.read_text() == CLAIM.replace("    - name: gpu\n      deviceClassName: gpu  # class\n",
                                             "    - name: gpu\n      exactly:\n        deviceClassName: gpu  # class\n") \
                                    .replace("v1beta1", "v1")
    assert f"{path}:1:1: converted resource.k8s.io/v1beta1 ResourceClaim c -> resource.k8s.io/v1" in err
    before = path.read_bytes()
    assert _run(capsys, str(path), "--to", "1.37", "--diff")[:2] == (0, "")
    assert path.read_bytes() == before


def test_diff_exits_1_and_leaves_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "claim.yaml"
    path.write_text(CLAIM)
    code, out, _ = _run(capsys, str(path), "--to", "1.37", "--diff")
    assert code == 1
    assert "-apiVersion: resource.k8s.io/v1beta1\n+apiVersion: resource.k8s.io/v1\n" in out
    assert path.read_text() == CLAIM


def test_workload_prints_runtime_config_and_gates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(WORKLOAD_135)
    code, out, err = _run(capsys, str(path), "--to", "1.37")
    assert code == 0 and "kind: PodGroup" in out
    assert "the result needs: --runtime-config scheduling.k8s.io/v1beta1=true --feature-gates GenericWorkload=true" in err


def test_json_output_is_a_list_of_the_converted_objects(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(WORKLOAD_135)
    code, out, _ = _run(capsys, str(path), "--to", "1.36", "-o", "json")
    body = json.loads(out)
    assert code == 0
    assert [(i["apiVersion"], i["kind"]) for i in body["items"]] == [
        ("scheduling.k8s.io/v1alpha2", "Workload"), ("scheduling.k8s.io/v1alpha2", "PodGroup")]


def test_json_output_holds_the_objects_that_needed_no_conversion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n---\n# nothing here\n---\n" + CLAIM)
    code, out, _ = _run(capsys, str(path), "--to", "1.37", "-o", "json")
    assert code == 0
    assert [(i["apiVersion"], i["kind"]) for i in json.loads(out)["items"]] == [
        ("v1", "ConfigMap"), ("resource.k8s.io/v1", "ResourceClaim")]


def test_unconvertible_object_exits_1_with_file_line_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.yaml"
    path.write_text("---\napiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClass\nmetadata: {name: gpu}\ndriverName: x\n")
    code, _, err = _run(capsys, str(path), "--to", "1.37", "--write")
    assert code == 1
    assert f"{path}:2:1: error: cannot convert resource.k8s.io/v1alpha2 ResourceClass gpu:" in err
    assert " — classic DRA" in err


def test_write_refuses_stdin(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "-", "--to", "1.37", "--write")
    assert code == 2 and "--write" in err


def test_bad_release_and_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, str(tmp_path), "--to", "1.99")[0] == 2
    code, _, err = _run(capsys, str(tmp_path / "nope.yaml"), "--to", "1.37")
    assert code == 2 and "nope.yaml" in err


TRAIN = (Path(__file__).resolve().parents[2] / "fixtures" / "manifests" / "convert" / "legacy.yaml").read_text()


def test_readme_migration_example_is_what_convert_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "migrating.md").read_text()
    block = guide.split("$ kubectl wasdra convert legacy.yaml --to 1.37 --diff\n", 1)[1].split("```", 1)[0]
    (tmp_path / "legacy.yaml").write_text(TRAIN)
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "legacy.yaml", "--to", "1.37", "--diff")
    assert code == 1
    assert out + err == block
