"""`--schema-location` with broken inputs: a JSON schema that does not parse is exit 2 naming file:line:col; malformed
CRDs and FIFOs in the directory are skipped without a crash or a hang."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main

CR = "apiVersion: foo.example.com/v1\nkind: Frob\nmetadata: {name: a}\nspec: {size: 1}\n"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def test_broken_json_schema_names_the_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    (schemas / "frob_v1.json").write_text('{"type": "object",\n "properties": {\n')
    manifest = tmp_path / "cr.yaml"
    manifest.write_text(CR)
    code, _, err = run(["check", str(manifest), "--schema-location", str(schemas)], capsys)
    assert code == 2
    assert err.splitlines() == [f"kubectl-wasdra: error: {schemas / 'frob_v1.json'}:3:1: schema is not valid JSON: "
                                "Expecting property name enclosed in double quotes — fix the JSON syntax at this place"]


def test_malformed_crds_and_fifos_are_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schemas = tmp_path / "crds"
    schemas.mkdir()
    head = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x}\n"
    (schemas / "a.yaml").write_text(head + "spec: 5\n")
    (schemas / "b.yaml").write_text(head + "spec: {group: foo.example.com, names: [1], versions: [{name: v1, schema: 5}, 7]}\n")
    (schemas / "c.yaml").write_text(head + "spec: {group: foo.example.com, names: {kind: Frob}, versions: [{schema: {}}]}\n")
    os.mkfifo(schemas / "pipe.yaml")
    manifest = tmp_path / "cr.yaml"
    manifest.write_text(CR)
    code, out, err = run(["check", str(manifest), "--schema-location", str(schemas), "--select", "SCHEMA006"], capsys)
    assert code == 0 and err == "" and "SCHEMA006" in out  # no usable schema: skipped, as without the flag
