"""schemas/wasdra-config.json describes exactly the keys the reader knows, and the starter file and docs/configuration.md's
example validate against it (so editors that use the schema agree with the tool)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema_rs
import pytest
import yaml

from kubectl_wasdra.config.file import read_config
from kubectl_wasdra.config.keys import KEYS
from kubectl_wasdra.config.starter import Needs, starter_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "wasdra-config.json").read_text())


def _readme_example() -> str:
    section = (ROOT / "docs" / "configuration.md").read_text()
    return re.search(r"```yaml\n# \.wasdra\.yaml\n(.*?)```", section, re.DOTALL).group(1)


def test_schema_and_reader_know_the_same_keys() -> None:
    assert set(SCHEMA["properties"]) == {key.name for key in KEYS} | {"clusters"}
    cluster_keys = SCHEMA["properties"]["clusters"]["additionalProperties"]["properties"]
    assert set(cluster_keys) == {key.name for key in KEYS if key.cluster}


@pytest.mark.parametrize(("cluster", "gates"), [("snapshot x.yaml", {"GenericWorkload": True}), (None, {})],
                         ids=["read-from-a-cluster", "manifests-only"])
def test_starter_file_validates_and_reads(tmp_path: Path, cluster: str | None, gates: dict) -> None:
    """From a cluster the gates are settings; from the manifests alone they stay commented out (config --init)."""
    text = starter_text(Needs(feature_gates={"GenericWorkload": True}, runtime_config={"scheduling.k8s.io/v1beta1": True},
                              cluster=cluster))
    jsonschema_rs.validate(SCHEMA, yaml.safe_load(text))
    (tmp_path / ".wasdra.yaml").write_text(text)
    assert read_config(str(tmp_path / ".wasdra.yaml")).settings["featureGates"].value == gates


def test_readme_example_validates_and_reads(tmp_path: Path) -> None:
    text = _readme_example()
    jsonschema_rs.validate(SCHEMA, yaml.safe_load(text))
    for directory in ("crds", "legacy"):
        (tmp_path / directory).mkdir()
    (tmp_path / "snapshots").mkdir()
    (tmp_path / "snapshots" / "prod.json").write_text("{}")
    (tmp_path / ".wasdra.yaml").write_text(text)
    config = read_config(str(tmp_path / ".wasdra.yaml"))
    assert set(config.clusters) == {"prod", "staging"}


def test_schema_rejects_an_unknown_key() -> None:
    assert not jsonschema_rs.is_valid(SCHEMA, {"k8sversion": "1.37"})
