"""Unpacking the release archive in tests works on Python 3.11.2 too: tarfile's filter="data" exists from 3.11.4
only, so tests/test_executable.py checks each member itself there. Both paths: a plain archive unpacks, and nothing
of an archive lands outside the target."""

from __future__ import annotations

import io
import sys
import tarfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_executable import extract


def _archive(path: Path, names: list[str], link: tuple[str, str] | None = None) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name in names:
            info = tarfile.TarInfo(name)
            info.size = 2
            tf.addfile(info, io.BytesIO(b"ok"))
        if link:
            info = tarfile.TarInfo(link[0])
            info.type, info.linkname = tarfile.SYMTYPE, link[1]
            tf.addfile(info)
    return path


@pytest.fixture(params=["native-filter", "python-3.11.2"])
def python_3112(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.param == "python-3.11.2":
        monkeypatch.delattr(tarfile, "data_filter", raising=False)  # what 3.11.2's tarfile lacks


@pytest.mark.usefixtures("python_3112")
def test_a_plain_archive_unpacks(tmp_path: Path) -> None:
    archive = _archive(tmp_path / "a.tar.gz", ["kubectl-wasdra", "_internal/lib.so"], link=("here", "_internal/lib.so"))
    extract(archive, tmp_path / "out")
    assert (tmp_path / "out" / "_internal" / "lib.so").read_bytes() == b"ok" and (tmp_path / "out" / "here").is_symlink()


@pytest.mark.usefixtures("python_3112")
@pytest.mark.parametrize(("names", "link"), [(["../escape"], None), (["/abs/file"], None), ([], ("out", "../../etc"))],
                         ids=["dot-dot", "absolute", "link-outside"])
def test_nothing_lands_outside_the_target(tmp_path: Path, names: list[str], link: tuple[str, str] | None) -> None:
    """Refused (the member check, or the data filter's error), or, for an absolute name, put under the target as the
    data filter does (it strips the leading slash)."""
    archive = _archive(tmp_path / "bad.tar.gz", names, link)
    out = tmp_path / "out"
    try:
        extract(archive, out)
    except (AssertionError, tarfile.TarError):
        return
    assert names == ["/abs/file"] and (out / "abs" / "file").read_bytes() == b"ok"
    assert not Path("/abs/file").exists()
