#!/usr/bin/env python3
"""Build the sdist and the wheel, check them as PyPI would, and run every command from the wheel alone.

    python3 -m pip install build twine && python3 tools/check_dist.py [--dist dist/]

Steps: `python -m build` (sdist, then the wheel built from that sdist, so a file missing from the sdist shows), `twine
check` on both, then a clean virtual environment outside the checkout with only the wheel (and its dependencies)
installed, where each command of COMMANDS runs from a directory that holds copies of the fixtures it reads and nothing
of the source tree. The release workflow and CI run it; tests/test_wheel.py runs the same COMMANDS from a wheel
installed with --target, without build or twine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GATES = ("--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
         "--runtime-config", "scheduling.k8s.io/v1beta1=true")
TWO_RACKS = "fixtures/clusters/two-racks"
# (arguments, exit code, text the output holds): every command of `kubectl-wasdra --help` at least once
COMMANDS: tuple[tuple[tuple[str, ...], int, str], ...] = (
    (("--version",), 0, "kubectl-wasdra "),
    (("version", "-o", "json"), 0, '"supported"'),
    (("check", "fixtures/manifests/check"), 0, "0 errors"),
    (("check", "fixtures/manifests/check-broken"), 1, "SCHEMA002"),
    (("explain", "fixtures/manifests/explain", "--snapshot", TWO_RACKS, *GATES, "--fail-on", "never"), 0,
     "PodGroup ml/finetune — fits"),
    (("explain-pending", "--snapshot", TWO_RACKS), 0, "pending-8gpu"),
    (("snapshot", "--snapshot", TWO_RACKS, "-o", "json"), 0, '"kind": "List"'),
    (("gates", "--k8s-version", "1.37", "--area", "dra"), 0, "DRA"),
    (("rules", "SCHEMA002"), 0, "SCHEMA002"),
    (("convert", "fixtures/manifests/convert/legacy.yaml", "--to", "1.37"), 0, "kind: ResourceClaimTemplate"),
    (("config",), 0, "k8sVersion"),
    (("completion", "bash"), 0, "_kubectl_wasdra_completion"),
)
FIXTURES = ("fixtures/manifests/check", "fixtures/manifests/check-broken", "fixtures/manifests/explain", TWO_RACKS,
            "fixtures/manifests/convert")


def copy_fixtures(target: Path) -> None:
    """The fixtures COMMANDS read, copied under `target` at their repository paths (and nothing else)."""
    for name in FIXTURES:
        shutil.copytree(ROOT / name, target / name)


def run_commands(program: list[str], cwd: Path, env: dict[str, str]) -> list[str]:
    """Run COMMANDS with `program` (argv prefix); the failures, one line each (empty: all as expected)."""
    failures = []
    for args, code, needle in COMMANDS:
        result = subprocess.run([*program, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                                check=False)
        if result.returncode != code or needle not in result.stdout or "Traceback" in result.stderr:
            failures.append(f"{' '.join(args)}: exit {result.returncode} (want {code}), "
                            f"{needle!r} {'missing' if needle not in result.stdout else 'found'}; "
                            f"stderr: {result.stderr.strip()[:300]}")
    return failures


def _build(dist: Path) -> tuple[Path, Path]:
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], check=True)
    version = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                              "from kubectl_wasdra import __version__; print(__version__)", str(ROOT)],
                             capture_output=True, text=True, check=True).stdout.strip()
    (sdist,) = dist.glob(f"kubectl_wasdra-{version}.tar.gz")
    (wheel,) = dist.glob(f"kubectl_wasdra-{version}-py3-none-any.whl")
    subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(sdist), str(wheel)], check=True)
    return sdist, wheel


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the sdist and the wheel go")
    args = parser.parse_args(argv)
    _, wheel = _build(args.dist.resolve())
    with tempfile.TemporaryDirectory(prefix="wasdra-dist-") as scratch:
        env_dir, work = Path(scratch) / "venv", Path(scratch) / "work"
        venv.EnvBuilder(with_pip=True).create(env_dir)
        bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
        subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True)
        copy_fixtures(work)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")} | {"NO_COLOR": "1"}
        failures = run_commands([str(bin_dir / "kubectl-wasdra")], work, env)
    for line in failures:
        print(f"check_dist: {line}", file=sys.stderr)
    print(f"check_dist: {wheel.name}: built, twine check passed, {len(COMMANDS) - len(failures)}/{len(COMMANDS)} "
          "commands ran as expected from a clean virtual environment")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
