#!/usr/bin/env python3
"""The README's set-up commands, so that tests can hold .ci/run to exactly what a new user runs.

    python3 tools/readme_setup.py                      # the commands of the "## Set up" block, one a line
    python3 tools/readme_setup.py --no-test-tooling .venv/bin/python
                                                       # exit 1 if that environment has any package of the test extra

.ci/run spells the two commands out (tests/test_readme_setup.py checks they match); it calls the second form to check
that the user install (the first command, in a fresh checkout) pulled none of the test tooling.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_FENCE = re.compile(r"^## Set up\n.*?^```[a-z]*\n(.*?)^```", re.S | re.M)


def setup_commands(readme: str | None = None) -> list[str]:
    """The lines of the first fenced block under "## Set up"."""
    text = readme if readme is not None else (ROOT / "README.md").read_text(encoding="utf-8")
    match = _FENCE.search(text)
    if match is None:
        raise SystemExit('README.md: no fenced block under "## Set up"')
    return [line for line in match.group(1).splitlines() if line.strip()]


def requirement_name(spec: str) -> str:
    """The distribution a requirement names, normalised: "PyYAML>=6.0,<7" -> "pyyaml", "a_b[x]; extra" -> "a-b"."""
    return re.split(r"[<>=!~ \[;(]", spec.strip(), maxsplit=1)[0].lower().replace("_", "-")


def requirements(extra: str | None = None) -> list[str]:
    """Distribution names of the runtime dependencies in pyproject.toml, or of one extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [requirement_name(spec) for spec in (project["dependencies"] if extra is None
                                                else project["optional-dependencies"][extra])]


def test_extra() -> list[str]:
    """Distribution names of the `test` extra."""
    return requirements("test")


def _installed(python: str, names: list[str]) -> list[str]:
    probe = ("import importlib.metadata as m, sys\n"
             "for name in sys.argv[1:]:\n"
             "    try: m.version(name)\n"
             "    except m.PackageNotFoundError: continue\n"
             "    print(name)\n")
    result = subprocess.run([python, "-c", probe, *names], capture_output=True, text=True, check=True)
    return result.stdout.split()


def installed_test_tooling(python: str) -> list[str]:
    """The test extra's distributions installed in the environment of `python`, less what a bare virtual environment
    already holds (Python 3.11's venv brings setuptools)."""
    with tempfile.TemporaryDirectory() as bare:
        venv.EnvBuilder(with_pip=True).create(bare)
        baseline = set(_installed(str(Path(bare) / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")),
                                  test_extra()))
    return [name for name in _installed(python, test_extra()) if name not in baseline]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-test-tooling", metavar="PYTHON", help="check an environment holds no test tooling")
    args = parser.parse_args(argv)
    if args.no_test_tooling:
        found = installed_test_tooling(args.no_test_tooling)
        if found:
            print(f"the user install pulled test tooling: {', '.join(found)}", file=sys.stderr)
            return 1
        print(f"user install: no test tooling ({', '.join(test_extra())}) beyond what a bare virtual environment holds")
        return 0
    print("\n".join(setup_commands()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
