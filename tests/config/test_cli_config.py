"""The config file through the CLI: flags > WASDRA_* > .wasdra.yaml > defaults, `config` naming each source, clusters,
--config/--no-config/WASDRA_CONFIG, exit 2 for a bad file, and `config --init`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import run

NEEDS = """\
k8sVersion: "1.37"
featureGates:
  GenericWorkload: true
  TopologyAwareWorkloadScheduling: true
runtimeConfig:
  scheduling.k8s.io/v1beta1: true
"""



def settings(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code, out, err = run(["config", "-o", "json", *args], capsys)
    assert code == 0, err
    return json.loads(out)


def test_the_config_file_carries_the_flags(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["check", "deploy/", "--select", "API,GATE"], capsys)[0] == 1
    (repo / ".wasdra.yaml").write_text(NEEDS)
    code, out, err = run(["check", "deploy/", "--select", "API,GATE"], capsys)
    assert code == 0, out + err
    (repo / "deploy" / "sub").mkdir()
    (repo / "deploy" / "sub" / "train.yaml").write_text((repo / "deploy" / "train.yaml").read_text())
    code, out, _ = run(["check", "-R", ".", "--select", "API,GATE"], capsys)   # found upward from a subdirectory too
    assert code == 0, out


def test_precedence_flag_over_environment_over_file_over_default(repo: Path, capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings(capsys)["settings"]["profile"] == {"value": "default", "source": "default"}
    (repo / ".wasdra.yaml").write_text("profile: production\n")
    assert settings(capsys)["settings"]["profile"] == {"value": "production", "source": f"{repo}/.wasdra.yaml:1:10"}
    monkeypatch.setenv("WASDRA_PROFILE", "experimental")
    assert settings(capsys)["settings"]["profile"] == {"value": "experimental", "source": "env WASDRA_PROFILE"}
    assert settings(capsys, "--profile", "default")["settings"]["profile"] == {"value": "default", "source": "flag --profile"}


def test_config_text_lists_every_setting_with_its_source(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / ".wasdra.yaml").write_text(NEEDS)
    code, out, _ = run(["config"], capsys)
    assert code == 0
    assert out.splitlines()[0] == f"config file: {repo}/.wasdra.yaml"
    line = next(line for line in out.splitlines() if line.strip().startswith("runtimeConfig"))
    assert "scheduling.k8s.io/v1beta1=true" in line and line.endswith(f"{repo}/.wasdra.yaml:6:3")


def test_no_config_explicit_config_and_environment(repo: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / ".wasdra.yaml").write_text("profile: production\n")
    (repo / "other.yaml").write_text("profile: experimental\n")
    assert settings(capsys, "--no-config")["config"] is None
    assert settings(capsys, "--config", "other.yaml")["settings"]["profile"]["value"] == "experimental"
    monkeypatch.setenv("WASDRA_CONFIG", "other.yaml")
    assert settings(capsys)["settings"]["profile"]["value"] == "experimental"


def test_a_named_cluster(repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / ".wasdra.yaml").write_text(NEEDS + "clusters:\n  old:\n    k8sVersion: \"1.35\"\n")
    data = settings(capsys, "--config-cluster", "old")
    assert data["cluster"] == "old" and data["settings"]["k8sVersion"] == {"value": "1.35", "source": f"{repo}/.wasdra.yaml:9:17"}
    monkeypatch.setenv("WASDRA_CONFIG_CLUSTER", "old")
    assert settings(capsys)["settings"]["k8sVersion"]["value"] == "1.35"
    code, _, err = run(["check", "deploy/", "--config-cluster", "olt"], capsys)
    assert code == 2 and 'no cluster "olt"' in err and 'did you mean "old"?' in err


def test_the_former_names_of_config_cluster(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """--cluster is kubectl's kubeconfig cluster now: naming a description of the file (and no kubeconfig cluster) is
    exit 2 with the new flag, never a silent guess; the environment variable's old name still works, with a warning."""
    (repo / ".wasdra.yaml").write_text(NEEDS + "clusters:\n  old:\n    k8sVersion: \"1.35\"\n")
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "absent"))
    code, out, err = run(["check", "deploy/", "--cluster", "old"], capsys)
    assert code == 2 and out == "" and "--cluster names a kubeconfig cluster, as in kubectl" in err
    assert "--config-cluster old" in err
    monkeypatch.setenv("WASDRA_CLUSTER", "old")
    code, out, err = run(["config", "-o", "json"], capsys)
    assert code == 0 and json.loads(out)["settings"]["k8sVersion"]["value"] == "1.35"
    assert "warning: WASDRA_CLUSTER is deprecated: use WASDRA_CONFIG_CLUSTER=old" in err


def test_a_cluster_without_a_config_file_is_exit_2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", "deploy/", "--config-cluster", "prod"], capsys)
    assert code == 2 and "needs a config file" in err


def test_a_bad_config_file_is_exit_2_with_its_position(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / ".wasdra.yaml").write_text('k8sVersion: "1.37"\nfeatureGate:\n  GenericWorkload: true\n')
    code, out, err = run(["check", "deploy/"], capsys)
    assert code == 2 and out == ""
    assert err.strip() == (f'kubectl-wasdra: error: {repo}/.wasdra.yaml:2:1: unknown key "featureGate" — '
                           'did you mean "featureGates"?')


def test_init_without_a_cluster_leaves_the_needed_gates_to_confirm(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The manifests say what they need, not what the cluster runs: written commented out, said loudly, and check
    still reports them until someone confirms."""
    (repo / "deploy" / "sub").mkdir()
    code, _, err = run(["config", "--init"], capsys)
    assert code == 0 and ".wasdra.yaml" in err
    assert "warning: not read from a cluster: GenericWorkload, TopologyAwareWorkloadScheduling, " \
           "scheduling.k8s.io/v1beta1" in err
    text = (repo / ".wasdra.yaml").read_text()
    assert "#   GenericWorkload: true\n#   TopologyAwareWorkloadScheduling: true\n" in text
    assert "#   scheduling.k8s.io/v1beta1: true\n" in text and "were NOT read" in text
    assert run(["check", "deploy/", "--select", "API,GATE"], capsys)[0] == 1   # nothing silenced
    code, _, err = run(["config", "--init"], capsys)
    assert code == 2 and "exists" in err


HEADER = """\
apiVersion: kubectl-wasdra.io/v1
kind: WasdraSnapshotHeader
metadata: {name: snapshot}
serverVersion: v1.37.2
served: [v1, resource.k8s.io/v1, scheduling.k8s.io/v1beta1]
featureGates: {GenericWorkload: true, TopologyAwareWorkloadScheduling: false}
"""


def test_init_takes_gates_and_runtime_config_from_a_cluster(repo: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text(HEADER)
    code, _, err = run(["config", "--init", "--snapshot", str(snapshot)], capsys)
    assert code == 0 and "warning" not in err
    text = (repo / ".wasdra.yaml").read_text()
    assert "featureGates:\n  GenericWorkload: true\n  TopologyAwareWorkloadScheduling: false\n" in text
    assert "runtimeConfig:\n  scheduling.k8s.io/v1beta1: true\n" in text and f"read from snapshot {snapshot}" in text
    code, out, _ = run(["check", "deploy/", "--select", "API,GATE"], capsys)
    assert code == 1 and "TopologyAwareWorkloadScheduling" in out and "API002" not in out   # what the cluster lacks


def test_explain_reads_the_cluster_description_too(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    snapshot = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"
    (repo / ".wasdra.yaml").write_text(NEEDS + f"clusters:\n  racks:\n    snapshot: {snapshot}\n")
    code, out, err = run(["explain", "-f", "deploy/train.yaml", "--config-cluster", "racks"], capsys)
    assert code == 1, err
    assert out.startswith("PodGroup ml/train — does NOT fit")     # a gang: the gates and API came from the file
    code, out, _ = run(["explain", "-f", "deploy/train.yaml", "--snapshot", str(snapshot), "--no-config"], capsys)
    assert not out.startswith("PodGroup")                          # without them PodGroup is not served


def test_check_only_settings_do_not_reach_explain(repo: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"
    (repo / ".wasdra.yaml").write_text(NEEDS + "output: sarif\nfailOn: never\n")
    monkeypatch.setenv("WASDRA_OUTPUT", "sarif")
    code, out, err = run(["explain", "-f", "deploy/train.yaml", "--snapshot", str(snapshot)], capsys)
    assert code == 1 and out.startswith("PodGroup ml/train"), err      # text, as explain has no SARIF
    assert '"version": "2.1.0"' in run(["check", "deploy/"], capsys)[1]


def test_per_file_ignores_flag_checks_its_rules(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", "deploy/", "--per-file-ignores", "deploy/*=REF03"], capsys)
    assert code == 2 and "--per-file-ignores" in err and 'did you mean "REF003"' in err
    code, out, _ = run(["check", "deploy/", "--no-config", "--per-file-ignores", "deploy/*=API,GATE,REF", "-o", "json"], capsys)
    assert code == 0 and json.loads(out)["summary"]["suppressed"] == 3


def test_excludes_from_the_flag_and_from_the_file(repo: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "deploy" / "legacy").mkdir()
    (repo / "deploy" / "legacy" / "old.yaml").write_text("kind: Pod\n")                 # LOAD003 when checked
    (repo / "deploy" / "old.tpl.yaml").write_text("{{ .Values }}\n")                   # LOAD013 (a template) when checked
    (repo / ".wasdra.yaml").write_text(NEEDS + 'exclude: ["deploy/legacy/**"]\n')      # anchored at the file
    monkeypatch.chdir(repo / "deploy")
    code, out, _ = run(["check", "-R", ".", "--select", "LOAD", "-o", "json"], capsys)
    assert code == 0 and [(f["file"], f["rule"]) for f in json.loads(out)["findings"]] == [("./old.tpl.yaml", "LOAD013")]
    code, out, _ = run(["check", "-R", ".", "--select", "LOAD", "--exclude", "*.tpl.yaml"], capsys)
    assert code == 0 and out.splitlines()[-1].startswith("1 file, 3 documents")
    code, out, _ = run(["check", "-R", ".", "--select", "LOAD", "--no-config", "--exclude", "*.tpl.yaml"], capsys)
    assert code == 1 and "legacy/old.yaml" in out


def test_explain_reads_its_keys_from_the_file_and_typed_cluster_flags_still_need_live(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Config values reach explain/explain-pending through click's default_map: they are not flags typed without
    --live, and the keys only check honours (output, failOn) leave explain alone."""
    cluster = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"
    (repo / ".wasdra.yaml").write_text(NEEDS + f"snapshot: [{cluster}]\noutput: json\nfailOn: never\n")
    code, out, err = run(["explain", "deploy/train.yaml"], capsys)   # no --snapshot, no --live: the file names one
    assert code in (0, 1) and "needs --live" not in err and not out.lstrip().startswith("{"), err
    code, out, err = run(["explain-pending", "-n", "ml", "-o", "json"], capsys)
    assert code in (0, 1) and '"pending-8gpu"' in out, err
    code, out, err = run(["explain", "deploy/train.yaml", "--request-timeout", "5s"], capsys)
    assert code == 2 and out == "" and "--request-timeout applies to reading a cluster, so it needs --live" in err


def test_explain_simulates_the_newest_release_of_the_files_list(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A release list in .wasdra.yaml serves check's matrix; explain takes its newest release. Typed, a list is exit 2."""
    cluster = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"
    (repo / ".wasdra.yaml").write_text(NEEDS.replace('"1.37"', '["1.36", "1.37"]') + f"snapshot: [{cluster}]\n")
    code, out, err = run(["explain", "deploy/train.yaml", "-o", "json"], capsys)
    assert code in (0, 1) and json.loads(out)["k8sVersion"] == "1.37", err
    code, _, err = run(["explain", "deploy/train.yaml", "--k8s-version", "1.36,1.37"], capsys)
    assert code == 2 and "explain simulates one release at a time" in err
