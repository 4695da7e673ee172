"""`.wasdra.yaml`: discovery upward to the repository root, every key checked with its position, clusters."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.config.discover import find_config
from kubectl_wasdra.config.file import read_config
from kubectl_wasdra.errors import UsageError


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / ".wasdra.yaml"
    path.write_text(text)
    return str(path)


def test_found_upward_and_not_beyond_the_repository_root(tmp_path: Path) -> None:
    outer = tmp_path / ".wasdra.yaml"
    outer.write_text("profile: production\n")
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "deploy" / "ml").mkdir(parents=True)
    assert find_config(str(repo / "deploy" / "ml")) is None          # stops at the repository root
    (repo / ".wasdra.yaml").write_text("profile: default\n")
    assert find_config(str(repo / "deploy" / "ml")) == str(repo / ".wasdra.yaml")


def test_every_kind_of_value_is_read(tmp_path: Path) -> None:
    (tmp_path / "crds").mkdir()
    config = read_config(_write(tmp_path, """\
k8sVersion: 1.33..1.37
featureGates: {GenericWorkload: true, DRAConsumableCapacity: false}
runtimeConfig: {scheduling.k8s.io/v1beta1: true}
profile: production
select: [API, SCHEMA002]
ignore: REF003,GANG
failOn: warning
schemaLocations: crds
output: sarif
exclude: ["legacy/**", "*.tpl.yaml"]
perFileIgnores: {"examples/**": [REF003]}
"""))
    values = {name: setting.value for name, setting in config.settings.items()}
    assert values["k8sVersion"] == "1.33..1.37"
    assert values["featureGates"] == {"GenericWorkload": True, "DRAConsumableCapacity": False}
    assert values["ignore"] == ["REF003", "GANG"] and values["schemaLocations"] == [str(tmp_path / "crds")]
    assert values["perFileIgnores"] == {"examples/**": ["REF003"]}
    assert config.settings["profile"].where == f"{tmp_path}/.wasdra.yaml:4:10"


def test_a_version_written_as_a_number_stays_text(tmp_path: Path) -> None:
    assert read_config(_write(tmp_path, "k8sVersion: 1.35\n")).settings["k8sVersion"].value == "1.35"


@pytest.mark.parametrize(("text", "where", "words"), [
    ("k8sversion: '1.37'\n", "1:1", ['unknown key "k8sversion"', 'did you mean "k8sVersion"']),
    ("profile: prod\n", "1:10", ['"prod" is not one of', 'did you mean "production"']),
    ("featureGates:\n  GenericWorkload: yes-please\n", "2:20", ["must be true or false"]),
    ("featureGates:\n  GenericWorkloads: true\n", "2:3",
     ['unknown feature gate "GenericWorkloads"', 'did you mean "GenericWorkload"']),
    ("ignore: [SCHEMA02]\n", "1:10", ['unknown rule or family "SCHEMA02"', 'did you mean "SCHEMA002"']),
    ("k8sVersion: '1.29'\n", "1:13", ["1.29 is not supported"]),
    ("runtimeConfig: {scheduling/v1: true}\n", "1:17", ["is not a runtime-config key"]),
    ("snapshot: missing/\n", "1:11", ['"missing/" does not exist']),
    ("clusters:\n  prod:\n    failOn: warning\n", "3:5", ['unknown key "failOn" in cluster "prod"']),
    ("profile: [a]\n", "1:10", ["must be a single value"]),
    ("profile: default\nprofile: production\n", "2:1", ['duplicate key "profile"']),
    ("profile: default\n  bad: indent\n", "2:6", ["not valid YAML"]),
    ("? {a: b}\n: c\n", "1:3", ["is a mapping, not a name"]),
    ("- profile\n", "1:1", ["must be a mapping"]),
    ("clusters: {prod: null}\n", "1:18", ["cluster 'prod' must be a mapping"]),
], ids=["unknown-key", "bad-choice", "gate-not-bool", "unknown-gate", "unknown-rule", "old-release", "runtime-key",
        "missing-path", "cluster-key", "list-for-scalar", "duplicate", "syntax", "complex-key", "not-a-mapping",
        "null-cluster"])
def test_mistakes_name_the_place_and_suggest(tmp_path: Path, text: str, where: str, words: list[str]) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(UsageError) as error:
        read_config(path)
    assert str(error.value).startswith(f"{path}:{where}: "), str(error.value)
    assert all(word in str(error.value) for word in words), str(error.value)


def test_a_cluster_lays_its_settings_over_the_top_level(tmp_path: Path) -> None:
    config = read_config(_write(tmp_path, """\
k8sVersion: "1.37"
featureGates: {GenericWorkload: true}
clusters:
  staging:
    k8sVersion: "1.36"
    featureGates: {DRAConsumableCapacity: true}
"""))
    staging = config.resolved("staging")
    assert staging["k8sVersion"].value == "1.36"
    assert staging["featureGates"].value == {"GenericWorkload": True, "DRAConsumableCapacity": True}
    assert config.resolved(None)["k8sVersion"].value == "1.37"
    with pytest.raises(UsageError, match='did you mean "staging"'):
        config.resolved("stagin")


def test_starter_detects_an_older_release_when_the_manifests_need_one() -> None:
    from kubectl_wasdra.config.starter import detect_needs
    from kubectl_wasdra.load import load_text

    documents, _ = load_text("w.yaml", "apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: w}\n")
    needs = detect_needs(documents)
    assert str(needs.release) == "1.35"                      # v1alpha1 Workload is served by 1.35 only
    assert needs.runtime_config == {"scheduling.k8s.io/v1alpha1": True}
