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
    return cache / "kubectl-wasdra" / f"dataclass-code.{sys.implementation.cache_tag}.v2"


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


OTHER_CLASS = """
import dataclasses, sys
sys.argv = ["x"]
from kubectl_wasdra.codecache import install
install()
@dataclasses.dataclass(order=True)
class Interval:
    low: int
    high: int = 0
print(sorted([Interval(2, 3), Interval(1)]), Interval(1) < Interval(1, 1))
"""
STATS = """
import sys
from kubectl_wasdra import codecache
codecache._load(codecache.cache_file())
print(len(codecache._stored))
"""


def _stored_entries(cache: Path) -> int:
    return int(_run(["-c", STATS], cache).stdout)


def test_entries_of_other_runs_are_kept_and_each_run_finds_its_own(tmp_path: Path) -> None:
    first = _run(["-c", CLASSES], tmp_path)
    one_class = _stored_entries(tmp_path)
    second = _run(["-c", OTHER_CLASS], tmp_path)
    both = _stored_entries(tmp_path)
    assert 0 < one_class < both                          # the second run added its methods to the first run's
    modified = _cache_file(tmp_path).stat().st_mtime_ns
    assert _run(["-c", CLASSES], tmp_path).stdout == first.stdout
    assert _run(["-c", OTHER_CLASS], tmp_path).stdout == second.stdout
    assert second.stdout == "[Interval(low=1, high=0), Interval(low=2, high=3)] True\n"
    assert _cache_file(tmp_path).stat().st_mtime_ns == modified    # everything was found: nothing rewritten


def test_an_entry_holding_another_text_is_a_miss(tmp_path: Path) -> None:
    """Keys are a length and a CRC-32; the entry's own text decides. Every entry is swapped for its neighbour's."""
    assert _run(["-c", CLASSES], tmp_path).returncode == 0
    swap = """
import marshal, sys
from kubectl_wasdra import codecache
path = codecache.cache_file()
data = path.read_bytes()
size = int.from_bytes(data[:8], "little")
version, index = marshal.loads(data[8:8 + size])
keys = list(index)
index = {key: index[keys[(i + 1) % len(keys)]] for i, key in enumerate(keys)}
head = marshal.dumps((version, index))
path.write_bytes(len(head).to_bytes(8, "little") + head + data[8 + size:])
"""
    assert _run(["-c", swap], tmp_path).returncode == 0
    off = _run(["-c", CLASSES], tmp_path, WASDRA_NO_CODE_CACHE="1")
    assert _run(["-c", CLASSES], tmp_path).stdout == off.stdout and off.stdout.startswith("frozen")


def test_a_cache_of_the_earlier_format_is_replaced(tmp_path: Path) -> None:
    old = _cache_file(tmp_path).with_suffix(".marshal")
    old.parent.mkdir(parents=True)
    old.write_bytes(b"\xfb\x00")
    assert _run(["-c", CLASSES], tmp_path).stdout.startswith("frozen")
    assert not old.exists() and _cache_file(tmp_path).exists()


def test_the_mapped_file_is_closed_before_it_is_replaced(tmp_path: Path) -> None:
    """Windows refuses to replace a file that is mapped: save() copies what it keeps and closes the mapping first."""
    assert _run(["-c", CLASSES], tmp_path).returncode == 0
    probe = OTHER_CLASS + """
from kubectl_wasdra import codecache
assert codecache._mapping and not codecache._mapping[0].closed
mapping = codecache._mapping[0]
codecache.save()
print(mapping.closed, codecache._mapping, codecache._blob)
"""
    result = _run(["-c", probe], tmp_path)
    assert result.stdout.splitlines()[-1] == "True [] []", result.stderr
    assert _stored_entries(tmp_path) > 0 and _run(["-c", OTHER_CLASS], tmp_path).returncode == 0
