"""Names and Event messages cannot inject into CI logs or terminals: no raw CR/LF, bidi or line-separator character in
any format, and on CI no line of text output starts with a workflow command (`::error::`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kubectl_wasdra.report.safe import json_safe, neutralise_workflow_commands, printable

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "evil\r\n::error file=x::pwned\u202etxt.exe\u2028::add-mask::y\u2066"
RAW = ("\r", "\u202e", "\u2028", "\u2066")


def _pending_snapshot(tmp_path: Path) -> Path:
    text = (ROOT / "fixtures" / "sched" / "pending" / "cluster.yaml").read_text()
    events = (ROOT / "fixtures" / "sched" / "pending" / "events.yaml").read_text()
    hostile = json.dumps(HOSTILE)
    (tmp_path / "cluster.yaml").write_text(text.replace("name: train-0,", f"name: {hostile},"))
    (tmp_path / "events.yaml").write_text(events.replace("name: train-0,", f"name: {hostile},")
                                          .replace('"0/3 nodes are available: 1 node', hostile[:-1] + ' 1 node', 1))
    return tmp_path


def _run(args: list[str], *, ci: bool, cwd: Path | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
    env.update({"PYTHONPATH": str(ROOT), **({"CI": "true", "GITHUB_ACTIONS": "true"} if ci else {})})
    done = subprocess.run([sys.executable, "-m", "kubectl_wasdra", *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


@pytest.mark.parametrize("output", ["text", "json"])
def test_explain_pending_escapes_hostile_names_and_events(tmp_path: Path, output: str) -> None:
    snapshot = _pending_snapshot(tmp_path)
    out = _run(["explain-pending", "--snapshot", str(snapshot), "-A", "--feature-gates", "GenericWorkload=true",
                "--runtime-config", "scheduling.k8s.io/v1beta1=true", "-o", output], ci=True)
    assert "pwned" in out, "the hostile text is shown, escaped"
    assert [c for c in RAW if c in out] == []
    assert [line for line in out.splitlines() if line.lstrip().startswith("::")] == []


@pytest.mark.parametrize("ci", [True, False], ids=["on-ci", "ci-not-detected"])
def test_check_text_neutralises_wrapped_workflow_commands(tmp_path: Path, ci: bool) -> None:
    """The wrap starts a line with `::error::`: escaped whether CI is detected or not (the container image inside a
    CI job sees no CI variables)."""
    words = " ".join(["::error::pwned"] * 12)
    manifest = tmp_path / "claim.yaml"
    manifest.write_text("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\n"
                        f'spec:\n  devices:\n    requests:\n    - name: r\n      exactly: {{deviceClassName: "{words}"}}\n')
    out = _run(["check", str(manifest)], ci=ci)
    assert [line for line in out.splitlines() if line.lstrip().startswith("::")] == []
    assert [line for line in out.splitlines() if line[:1] == "\\" and line[1:].lstrip().startswith("::error::")], \
        "the wrap did start a line"
    assert out.count("pwned") == 24  # shown in full by both findings (REF003, VALID004)


def test_check_upgrade_text_on_ci_neutralises_a_file_name(tmp_path: Path) -> None:
    """--upgrade-from's text starts a line with each file name: on CI a file named like a workflow command is shown,
    not run, as in check's own text."""
    manifest = tmp_path / "::error::pwned.yaml"
    manifest.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  workloadRef: {name: w, podGroup: g}\n"
                        "  containers: [{name: c, image: i}]\n")
    args = ["check", "--upgrade-from", "1.35", "--k8s-version", "1.37", "--", manifest.name]
    assert [line for line in _run(args, ci=False, cwd=tmp_path).splitlines() if line.lstrip().startswith("::")] == []
    on_ci = _run(args, ci=True, cwd=tmp_path)
    assert "pwned" in on_ci
    assert [line for line in on_ci.splitlines() if line.lstrip().startswith("::")] == []


@pytest.mark.parametrize("char", ["\n", "\r", "\u202e", "\u2028", "\u2029", "\u200f", "\u2066", "\x1b"])
def test_every_escape_covers_line_breaks_and_bidi(char: str) -> None:
    assert char not in printable(f"a{char}b")
    assert char not in json_safe(json.dumps(f"a{char}b", ensure_ascii=False))


def test_neutralise_only_touches_command_lines() -> None:
    text = "ok ::error:: inside\n  ::warning::x\n::debug::y\nplain"
    assert neutralise_workflow_commands(text) == "ok ::error:: inside\n\\  ::warning::x\n\\::debug::y\nplain"
