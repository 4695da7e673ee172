"""The dataclass code cache (kubectl_wasdra/codecache.py) changes nothing but start-up time: the same output with it
cold, warm and off; a corrupt or unwritable cache is ignored; cached classes behave as compiled ones."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml"
CLASSES = """
import dataclasses, sys
sys.argv = ["x"]
from kubectl_wasdra.codecache import install
install()
@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: tuple = ()
    z: list = dataclasses.field(default_factory=list, hash=False, compare=False)
p = Point(1, (2,))
try:
    p.x = 3
except dataclasses.FrozenInstanceError:
    print("frozen")
print(p, p == Point(1, (2,)), hash(p) == hash(Point(1, (2,))), Point.__init__.__annotations__)
"""


def _run(args: list[str], cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if key != "WASDRA_NO_CODE_CACHE"}
    environ.update(XDG_CACHE_HOME=str(cache), PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=environ, cwd=ROOT, check=False)


def _cache_file(cache: Path) -> Path:
    return cache / "kubectl-wasdra" / f"dataclass-code.{sys.implementation.cache_tag}.marshal"


def test_check_output_is_the_same_cold_warm_and_off(tmp_path: Path) -> None:
    check = ["-m", "kubectl_wasdra", "check", str(MANIFEST), "-o", "json", "--no-config"]
    cold = _run(check, tmp_path)
    assert _cache_file(tmp_path).stat().st_size > 0          # the first run wrote the cache
    warm = _run(check, tmp_path)
    off = _run(check, tmp_path / "unused", WASDRA_NO_CODE_CACHE="1")
    assert not (tmp_path / "unused").exists()
    assert cold.returncode == warm.returncode == off.returncode
    assert cold.stdout == warm.stdout == off.stdout and cold.stdout


def test_cached_classes_behave_as_compiled_ones(tmp_path: Path) -> None:
    off = _run(["-c", CLASSES], tmp_path, WASDRA_NO_CODE_CACHE="1")
    cold = _run(["-c", CLASSES], tmp_path)
    warm = _run(["-c", CLASSES], tmp_path)
    assert off.stdout.startswith("frozen\nPoint(x=1, y=(2,), z=[]) True True")
    assert off.stdout == cold.stdout == warm.stdout, (off.stderr, cold.stderr, warm.stderr)


@pytest.mark.parametrize("content", [b"", b"\x00garbage", b"\xe3" * 100])
def test_a_corrupt_cache_is_ignored_and_rewritten(tmp_path: Path, content: bytes) -> None:
    path = _cache_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    result = _run(["-c", CLASSES], tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("frozen"), result.stderr
    assert path.read_bytes() != content


def test_an_unwritable_cache_directory_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = _run(["-c", CLASSES], blocker)     # XDG_CACHE_HOME is a file: the cache cannot be created
    assert result.returncode == 0 and result.stdout.startswith("frozen") and not result.stderr
