"""The pieces under the server: ranges over check's positions, the YAML path at a cursor, generated data kept fresh."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from kubectl_wasdra.lsp.ranges import finding_range
from kubectl_wasdra.lsp.yaml_path import key_at

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(("line", "column", "end"), [  # end: 0-based, exclusive
    ("  cuont: 2", 3, 7),                                  # a key: up to its colon
    ("  name: gpu-tempalte  # typo", 9, 20),               # a plain value: up to the comment
    ('  name: "a: b"', 9, 14),                             # a quoted value: to its closing quote
    ("  - {name: gpu, count: 2}", 12, 14),                 # a flow value: up to the comma
    ("  name:", 8, 7),                                     # past the content: empty, at check's own column
], ids=["key", "plain-value", "quoted", "flow", "past-end"])
def test_range_starts_at_checks_position_and_covers_the_token(line: str, column: int, end: int) -> None:
    (row, start), (end_row, stop) = finding_range([line + "\n"], 1, column)
    assert (row, start, end_row) == (0, column - 1, 0)
    assert stop == max(end, column - 1)


CLAIM = """\
spec:
  devices:
    requests:
    - name: a
      exactly:
        count: 1
    - name: b
      exactly:
        count: 2
    constraints:
      - requests: [a]
        matchAttribute: x
""".splitlines(keepends=True)


@pytest.mark.parametrize(("row", "path"), [
    (1, ("spec", "devices")),
    (3, ("spec", "devices", "requests", 0, "name")),
    (5, ("spec", "devices", "requests", 0, "exactly", "count")),
    (8, ("spec", "devices", "requests", 1, "exactly", "count")),
    (11, ("spec", "devices", "constraints", 0, "matchAttribute")),
], ids=["nested", "first-item", "under-item", "second-item", "indented-list"])
def test_path_at_cursor(row: int, path: tuple) -> None:
    column = len(CLAIM[row]) - len(CLAIM[row].lstrip(" -")) + 1
    found = key_at(CLAIM, row, column)
    assert found is not None and found[0] == path


@pytest.mark.parametrize("tool", ["gen_rules_doc", "gen_field_docs"])
def test_generated_files_are_fresh(tool: str) -> None:
    """Fails after a rule or schema change: rerun `python tools/<tool>.py`."""
    spec = importlib.util.spec_from_file_location(tool, ROOT / "tools" / f"{tool}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT))
    spec.loader.exec_module(module)
    assert module.TARGET.read_text() == module.render()


POD_GROUP = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: train
spec:
  resourceClaims:
  - name: fabric
""".splitlines(keepends=True)


def test_hover_names_the_gate_and_its_state_in_the_configured_release() -> None:
    from kubectl_wasdra.lint.pipeline import CheckOptions
    from kubectl_wasdra.lsp.fields import describe_field

    text = describe_field(POD_GROUP, 5, 3, CheckOptions(paths=()))
    assert text is not None and text.startswith("**resourceClaims**: `array of")
    assert "- In Kubernetes 1.37 (added in 1.37)" in text   # scheduling.k8s.io/v1beta1 PodGroup is new in 1.37
    assert "Feature gate `DRAWorkloadResourceClaims` (1.36 alpha, 1.37 beta, off by default in 1.37): off" in text
    gates = {"DRAWorkloadResourceClaims": True, "GenericWorkload": True}
    on = describe_field(POD_GROUP, 5, 3, CheckOptions(paths=(), feature_gates=gates))
    assert on is not None and "off by default in 1.37): on with these settings" in on
