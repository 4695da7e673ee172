"""kubectl's habits in output: explain and explain-pending print -o yaml (the JSON document), -o name (what does not
fit, as kubectl spells objects) and -o wide (text with nothing cut); --color and FORCE_COLOR / CLICOLOR_FORCE /
NO_COLOR decide colour in one place."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_runner import run

from kubectl_wasdra.cli_output import use_color

ROOT = Path(__file__).resolve().parent.parent
CLUSTER = str(ROOT / "fixtures" / "clusters" / "two-racks")
EXPLAIN = ["explain", str(ROOT / "fixtures" / "manifests" / "explain"), "--snapshot", CLUSTER,
           "--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
           "--runtime-config", "scheduling.k8s.io/v1beta1=true"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("mode", "env", "tty", "expected"), [
    ("auto", {}, True, True),
    ("auto", {}, False, False),
    ("auto", {"NO_COLOR": "1"}, True, False),
    ("auto", {"FORCE_COLOR": "1"}, False, True),
    ("auto", {"FORCE_COLOR": "0"}, False, False),
    ("auto", {"CLICOLOR_FORCE": "1"}, False, True),
    ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),
    ("auto", {"TERM": "dumb"}, True, False),
    ("always", {"NO_COLOR": "1"}, False, True),
    ("never", {"FORCE_COLOR": "1"}, True, False),
], ids=["tty", "pipe", "no-color", "force-color", "force-color-0", "clicolor-force", "no-color-wins", "dumb",
        "always", "never"])
def test_color_decision(monkeypatch: pytest.MonkeyPatch, mode: str, env: dict[str, str], tty: bool,
                        expected: bool) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert use_color(Terminal() if tty else io.StringIO(), mode) is expected


@pytest.mark.parametrize("command", [["check", str(ROOT / "fixtures" / "manifests" / "check-broken")], EXPLAIN],
                         ids=["check", "explain"])
def test_color_flag_reaches_the_text(command: list[str], capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    _, coloured, _ = run([*command, "--color", "always"], capsys)
    _, plain, _ = run([*command, "--color", "never"], capsys)
    assert "\x1b[" in coloured and "\x1b[" not in plain
    code, _, err = run([*command, "--color", "sometimes"], capsys)
    assert code == 2 and "--color" in err


def test_yaml_is_the_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    code_json, as_json, _ = run([*EXPLAIN, "-o", "json"], capsys)
    code_yaml, as_yaml, _ = run([*EXPLAIN, "-o", "yaml"], capsys)
    assert code_json == code_yaml == 1 and yaml.safe_load(as_yaml) == json.loads(as_json)


def test_name_lists_what_does_not_fit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*EXPLAIN, "-o", "name"], capsys)
    groups = json.loads(run([*EXPLAIN, "-o", "json"], capsys)[1])["groups"]
    unfit = [g["name"] for g in groups if not g["fits"]]
    assert code == 1 and unfit and out.splitlines() == [f"podgroup.scheduling.k8s.io/{name}" for name in unfit]


def test_wide_cuts_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gang = tmp_path / "gang.yaml"  # 20 small pods in one PodGroup: text lists 16 placements, wide all 20
    gang.write_text(
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: wide, namespace: ml}\n"
        "spec: {schedulingPolicy: {gang: {minCount: 20}}}\n---\n"
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: wide, namespace: ml}\n"
        "spec:\n  completionMode: Indexed\n  completions: 20\n  parallelism: 20\n  template:\n    spec:\n"
        "      schedulingGroup: {podGroupName: wide}\n      restartPolicy: Never\n"
        "      containers: [{name: c, image: x, resources: {requests: {cpu: 10m}}}]\n")
    args = ["explain", str(gang), *EXPLAIN[2:]]
    code, text, _ = run(args, capsys)
    _, wide, _ = run([*args, "-o", "wide"], capsys)
    assert code == 0 and "4 more lines" in text and "more lines" not in wide
    assert len(wide.splitlines()) == len(text.splitlines()) + 3  # 4 placements instead of the "more lines" line


def test_explain_pending_takes_the_same_forms(capsys: pytest.CaptureFixture[str]) -> None:
    pending = ["explain-pending", "--snapshot", CLUSTER]
    code, as_yaml, _ = run([*pending, "-o", "yaml"], capsys)
    assert code == 0 and yaml.safe_load(as_yaml) == json.loads(run([*pending, "-o", "json"], capsys)[1])
    code, names, _ = run([*pending, "-o", "name"], capsys)
    assert code == 0 and names == ""  # pending-8gpu fits now: nothing to name
