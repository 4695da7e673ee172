"""--scheduler-config end to end: profiles change verdicts, an invalid file is exit 2 naming file:line:col."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from kubectl_wasdra.cli import cli

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = ROOT / "fixtures" / "clusters" / "two-racks"
CONFIGS = ROOT / "fixtures" / "scheduler-config"
POD = """apiVersion: v1
kind: Pod
metadata: {name: batch, namespace: default}
spec:
  schedulerName: %s
  containers: [{name: main, image: busybox}]
"""


def _explain(tmp_path: Path, scheduler: str, *extra: str) -> dict:
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(POD % scheduler)
    result = CliRunner().invoke(cli, ["explain", "-f", str(manifest), "--snapshot", str(CLUSTER), "--no-suggestions",
                                      "-o", "json", *extra], standalone_mode=False, catch_exceptions=False)
    return json.loads(result.output)


def test_pod_for_a_profile_of_the_config_is_scheduled(tmp_path: Path) -> None:
    data = _explain(tmp_path, "no-scoring-scheduler", "--scheduler-config", str(CONFIGS / "no-scoring.yaml"))
    assert data["groups"][0]["fits"] is True


def test_pod_naming_no_profile_is_another_schedulers_not_simulated(tmp_path: Path) -> None:
    data = _explain(tmp_path, "no-scoring-scheduler")
    group = data["groups"][0]
    assert group["fits"] is None
    assert [r["code"] for r in group["reasons"]] == ["OtherScheduler"]


def test_invalid_config_is_exit_2_with_position(tmp_path: Path) -> None:
    bad = tmp_path / "config.yaml"
    bad.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                   "- plugins:\n    filter:\n      enabled:\n      - name: MyPlugin\n")
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(POD % "default-scheduler")
    proc = subprocess.run([sys.executable, "-m", "kubectl_wasdra", "explain", "-f", str(manifest), "--snapshot",
                           str(CLUSTER), "--scheduler-config", str(bad)], capture_output=True, text=True, check=False,
                          cwd=ROOT)
    assert proc.returncode == 2
    assert f'{bad}:7:9: plugin "MyPlugin" does not exist' in proc.stderr
    assert "Traceback" not in proc.stderr
