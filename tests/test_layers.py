"""Imports go one way (STYLE 2.1): cli on top; lint, explain, report under it; then sched -> dra -> cluster; kube,
catalog, load at the bottom; reasons and errors are leaves. Read with `ast`, so no module is imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "kubectl_wasdra"
RANK = {"cli": 5, "cli_options": 5, "__main__": 5, "lint": 4, "explain": 4, "report": 4, "sched": 3, "dra": 2, "cluster": 1,
        "kube": 0, "catalog": 0, "load": 0, "reasons": -1, "errors": -1, "__init__": -1}
RANK.update({"cli_config": 5, "config": 4})   # project configuration: the click hook, and the file reader under it
RANK.update({"cli_check": 5, "cli_explain": 5, "cli_output": 5})   # commands' steps; what the command line writes
RANK.update({"cli_progress": 5})   # the status line on stderr the command line gives long runs
RANK.update({"cli_info": 5, "cli_snapshot": 5, "cli_convert": 5, "cli_capacity": 5})   # commands beside cli.py
RANK.update({"cli_lsp": 5, "lsp": 5})   # the language server: a front end like the command line, over lint and convert
RANK.update({"entry": 5, "help_text": 5})   # the console entry point before click, and its precomputed --help
RANK.update({"convert": 4})   # round-trip conversions and the rules' fixes: beside lint, whose fixability table they read
RANK.update({"kubelet": 2})   # node admission after binding (DESIGN.md layout): sched and explain call it; it reads cluster, kube
RANK.update({"codecache": -1})   # start-up: the dataclass code cache the entry point installs, importing nothing of ours
RANK.update({"lazy_regex": -1})   # patterns compiled on first use: a leaf under every layer that matches text
# Same-rank or downward edges the style guide still forbids
FORBIDDEN = {("dra", "sched"), ("sched", "explain"), ("sched", "report"), ("sched", "cli"), ("dra", "explain"),
             ("kube", "cluster"), ("catalog", "lint"), ("cluster", "sched")}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
    return [(name, line) for name, line in found if name.startswith("kubectl_wasdra.") or name == "kubectl_wasdra"]


def _module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(relative.parts)


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path: Path) -> None:
    module = _module_name(path)
    source = _layer(module)
    bad = []
    for imported, line in _imports(path):
        target = _layer(imported)
        if target == source or imported == "kubectl_wasdra":
            continue
        if RANK.get(target, 0) > RANK.get(source, 0) or (source, target) in FORBIDDEN:
            bad.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} imports {imported}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("leaf", ["reasons.py", "errors.py"])
def test_leaves_import_nothing_from_the_package(leaf: str) -> None:
    assert _imports(PACKAGE / leaf) == []


def test_every_top_level_module_has_a_rank() -> None:
    names = {p.stem for p in PACKAGE.glob("*.py")} | {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert names <= set(RANK), names - set(RANK)
