"""Exclude patterns: names at any depth, anchored paths, `**`, directories; the defaults; how check applies them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kubectl_wasdra.load import load_paths
from kubectl_wasdra.load.default_excludes import DEFAULT_EXCLUDES
from kubectl_wasdra.load.excludes import Excludes, anchor


@pytest.mark.parametrize(("pattern", "path", "excluded"), [
    ("values*.yaml", "chart/values-prod.yaml", True),
    ("values*.yaml", "chart/templates/values.txt", False),
    ("Chart.yaml", "a/b/Chart.yaml", True),
    ("legacy", "deploy/legacy/old.yaml", True),
    ("legacy/", "deploy/legacy", False),             # a trailing / matches directories only
    ("legacy/", "deploy/legacy/old.yaml", True),
    ("deploy/legacy/**", "deploy/legacy/x/y.yaml", True),
    ("deploy/legacy/**", "other/deploy/legacy/y.yaml", False),   # anchored at the base
    ("**/generated/*.yaml", "a/b/generated/x.yaml", True),
    ("**/generated/*.yaml", "generated/x.yaml", True),
    ("*.yaml", "a/b.json", False),
    ("?.yaml", "a/b.yaml", True),
    ("[ab].yaml", "c.yaml", False),
    ("-", "-", False),
], ids=lambda v: str(v))
def test_matching(pattern: str, path: str, excluded: bool, tmp_path: Path) -> None:
    assert Excludes((pattern,), base=str(tmp_path)).matches(str(tmp_path / path) if path != "-" else path) is excluded


def test_anchor_makes_path_patterns_absolute_and_leaves_names(tmp_path: Path) -> None:
    assert anchor("values*.yaml", str(tmp_path)) == "values*.yaml"
    assert anchor("legacy/", str(tmp_path)) == "legacy/"
    assert anchor("deploy/**", str(tmp_path)) == os.path.join(str(tmp_path), "deploy/**")
    assert Excludes((anchor("deploy/**", str(tmp_path)),)).matches(str(tmp_path / "deploy" / "x.yaml"))


def test_default_excludes_are_what_the_help_says(tmp_path: Path) -> None:
    """check --help: the default excludes leave out Chart.yaml, values*.yaml, kustomization.yaml and .github/ (and
    this tool's and pre-commit's own files); a manifest beside them is read."""
    from kubectl_wasdra.cli import cli

    help_text = cli.commands["check"].get_help(cli.make_context("check", ["check"], resilient_parsing=True))
    promised = help_text.split("--default-excludes")[1].split("--per-file")[0]
    for name in ("Chart.yaml", "values*.yaml", "kustomization.yaml", ".github/"):
        assert name in " ".join(promised.split()), name
    names = ("Chart.yaml", "values.yaml", "values-prod.yaml", "kustomization.yaml", ".wasdra.yaml",
             ".pre-commit-config.yaml", ".github/workflows/ci.yaml", "pod.yaml", "chart-values.yaml")
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    excludes = Excludes(DEFAULT_EXCLUDES, base=str(tmp_path))
    named = [str(tmp_path / name) for name in names]
    loaded = load_paths(named, exclude=excludes.matches)
    assert sorted(Path(f).name for f in loaded.files) == ["chart-values.yaml", "pod.yaml"]
    assert loaded.problems == ()        # every named file excluded is not "matches nothing"
