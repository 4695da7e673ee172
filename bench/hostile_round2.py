"""The hostile inputs of the second hardening round, each run as the command line runs it, in a child process: CPU time
(user+sys) and peak RSS per case. Each case must end well within 10 s and 1 GiB with its documented exit code.

Run: python bench/hostile_round2.py [--case NAME ...] [--tree CHECKOUT]   (--tree: measure another checkout, e.g. main)
Prints one line per case: exit code, CPU seconds, peak RSS, and the command to rerun it. The machine is shared, so
wall time is noisy: CPU time is the number to compare. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from builders import write_failing_selector_case  # noqa: E402  (the input the hostile-input test uses, bench-sized)

CLUSTER = ROOT / "fixtures" / "clusters" / "two-racks"
POD = ("apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  containers:\n  - name: c\n"
       "    image: i\n    resources:\n      requests: {{cpu: '{cpu}'}}\n")


def _many_documents(folder: Path) -> list[str]:
    (folder / "many.yaml").write_text("a: 1\n---\n" * 100_000)
    return ["check", str(folder / "many.yaml"), "-o", "json"]


def _deep_flow(folder: Path) -> list[str]:
    (folder / "deep.yaml").write_text("spec: " + "[" * 100_000 + "]" * 100_000 + "\n")
    return ["check", str(folder / "deep.yaml")]


def _long_name(folder: Path) -> list[str]:
    (folder / "name.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + "a" * (10 << 20)
                                      + "\nspec:\n  containers: [{name: c, image: i}]\n")
    return ["check", str(folder / "name.yaml")]


def _huge_quantity(folder: Path) -> list[str]:
    (folder / "pod.yaml").write_text(POD.format(cpu="1e1000000"))
    return ["explain", "-f", str(folder / "pod.yaml"), "--snapshot", str(CLUSTER)]


def _failing_selector(folder: Path) -> list[str]:
    snapshot, manifest = write_failing_selector_case(folder, devices=100_000)
    return ["explain", "-f", str(manifest), "--snapshot", str(snapshot), "-o", "json"]


def _dev_zero_baseline(folder: Path) -> list[str]:
    (folder / "ns.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n")
    return ["check", str(folder / "ns.yaml"), "--baseline", "/dev/zero"]


CASES: dict[str, Callable[[Path], list[str]]] = {
    "100k-documents": _many_documents, "100k-deep-brackets": _deep_flow, "10MiB-name": _long_name,
    "quantity-1e1000000": _huge_quantity, "failing-selector-100k-devices": _failing_selector,
    "baseline-dev-zero": _dev_zero_baseline,
}


def run(argv: list[str], tree: Path) -> tuple[int, float, int]:
    """Exit code, CPU seconds (user+sys) and peak RSS in bytes of one child run (ru_maxrss is KiB on Linux); a run
    past 300 s of CPU is stopped (exit -24)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (300, 300))

    venv = tree / ".venv" / "bin" / "python"  # an editable install wins over PYTHONPATH: use the checkout's own
    python = str(venv) if venv.exists() else sys.executable
    process = subprocess.Popen([python, "-m", "kubectl_wasdra", *argv], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(tree)}, preexec_fn=limit,
                               cwd=tree)  # `-m` puts the working directory first on sys.path
    _pid, status, usage = os.wait4(process.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name in args.case or CASES:
            argv = CASES[name](Path(folder))
            code, cpu, rss = run(argv, args.tree)
            print(f"{name:32} exit {code}  cpu {cpu:6.2f} s  peak RSS {rss / 2**20:7.1f} MiB")
    cases = "".join(f" --case {c}" for c in args.case or ())
    tree = f" --tree {args.tree}" if args.tree != ROOT else ""
    print(f"rerun: python bench/hostile_round2.py{cases}{tree}")


if __name__ == "__main__":
    main()
