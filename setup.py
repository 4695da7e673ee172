"""Build hook: the wheel carries the data directories schemas/ and rules/ as kubectl_wasdra/_data/ (where
kubectl_wasdra/catalog/data.py looks first). Everything else is declared in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DATA_DIRECTORIES = ("schemas", "rules")


class BuildPyWithData(build_py):
    """build_py that also copies the data directories into the built package."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "kubectl_wasdra" / "_data"
        for name in DATA_DIRECTORIES:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, target / name, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildPyWithData})
