"""`check` on a small file stays light: no kubernetes client, no CEL library, no simulator or allocator imported; no
other command's module, nothing jsonschema-rs would pull in only for its build date, no module only some runs need;
`--version` imports neither click nor typing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("kubernetes", "cel_expr_python", "celpy", "kubectl_wasdra.sched", "kubectl_wasdra.dra", "kubectl_wasdra.explain",
         "kubectl_wasdra.cluster.live")
# what the start-up work keeps out of a one-file check (--output, not -o: click itself imports difflib for a short option)
NOT_FOR_ONE_FILE = ("kubectl_wasdra.cli_info", "kubectl_wasdra.cli_explain", "kubectl_wasdra.cli_snapshot",
                    "kubectl_wasdra.cli_convert", "email.utils", "socket", "pickle", "difflib", "unicodedata", "ruamel",
                    "kubectl_wasdra.cli_lsp", "kubectl_wasdra.lsp", "pygls", "lsprotocol")
SCRIPT = """
import json, sys
from kubectl_wasdra.entry import main
try:
    main(sys.argv[1:])
except SystemExit as exit_info:
    code = exit_info.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def test_check_on_a_small_file_does_not_import_heavy_modules(tmp_path: Path) -> None:
    manifest = tmp_path / "small.yaml"
    manifest.write_text((ROOT / "fixtures" / "manifests" / "check" / "train-job.yaml").read_text())
    result = subprocess.run([sys.executable, "-c", SCRIPT, "check", str(manifest), "-o", "json"], capture_output=True,
                            text=True, check=False, cwd=tmp_path)
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, result.stdout
    loaded = [m for m in report["modules"] if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert loaded == []
    assert "rich" not in report["modules"]  # only the coloured text renderer needs rich


def test_check_of_one_configmap_leaves_out_what_only_other_runs_need(tmp_path: Path) -> None:
    manifest = tmp_path / "settings.yaml"
    manifest.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: prod\n")
    result = subprocess.run([sys.executable, "-c", SCRIPT, "check", str(manifest), "--output", "json"],
                            capture_output=True, text=True, check=False, cwd=tmp_path)
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] == 0 and json.loads(result.stdout)["findings"] == []
    loaded = [m for m in report["modules"] if any(m == n or m.startswith(n + ".") for n in NOT_FOR_ONE_FILE)]
    assert loaded == []
    assert "jsonschema_rs" in report["modules"]  # the schema was checked


def test_version_imports_neither_click_nor_typing(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", SCRIPT, "--version"], capture_output=True, text=True, check=False,
                            cwd=tmp_path)
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] == 0 and result.stdout.startswith("kubectl-wasdra ")
    bare = subprocess.run([sys.executable, "-c", "import json, sys; print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, check=True, cwd=tmp_path)
    added = set(report["modules"]) - set(json.loads(bare.stdout))  # a site .pth may import typing before us
    assert {"click", "typing"}.isdisjoint(added) and "kubectl_wasdra.cli_output" in added


def test_check_on_a_cel_selector_loads_cel_but_not_the_allocator(tmp_path: Path) -> None:
    manifest = tmp_path / "gpu-class.yaml"
    manifest.write_text((ROOT / "fixtures" / "manifests" / "check" / "gpu-class.yaml").read_text())
    result = subprocess.run([sys.executable, "-c", SCRIPT, "check", str(manifest), "-o", "json"], capture_output=True,
                            text=True, check=False, cwd=tmp_path)
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] in (0, 1), result.stdout
    assert "kubectl_wasdra.dra.cel" in report["modules"]
    allocator = {"kubectl_wasdra.dra.allocation", "kubectl_wasdra.dra.allocator", "kubectl_wasdra.dra.search",
                 "kubectl_wasdra.dra.candidates", "kubectl_wasdra.dra.inventory", "kubectl_wasdra.sched"}
    assert allocator.isdisjoint(report["modules"])


def test_sched_simulate_stays_the_function_after_the_simulation_module_loads() -> None:
    import kubectl_wasdra.sched.simulation  # noqa: F401
    from kubectl_wasdra.sched import simulate

    assert callable(simulate) and not isinstance(simulate, type(sys))
