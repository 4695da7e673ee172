"""Writes never leave the tree: convert --write and check --fix replace only regular files inside the paths given,
through a temporary file made exclusively beside the target (a planted link is never followed); snapshots are 0600."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main
from kubectl_wasdra.load.safe_write import WriteRefused, rewrite_in_place, write_output

V1BETA1_CLASS = ("apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata:\n  name: gpu\nspec:\n  selectors:\n"
                 "  - cel:\n      expression: device.driver == \"x\"\n")
# a typo SCHEMA002 fixes safely (`tolerations` misspelt)
FIXABLE_POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  toleration: []\n"
               "  containers:\n  - name: c\n    image: i\n")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    repo, victim = tmp_path / "repo", tmp_path / "victim"
    repo.mkdir()
    victim.mkdir()
    return repo, victim


@pytest.mark.parametrize("planted", ["c.yaml.wasdra-tmp", ".c.yaml.wasdra-tmp"])
def test_convert_write_ignores_a_planted_temporary_link(planted: str, tree: tuple[Path, Path],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    repo, victim = tree
    target = victim / "bashrc"
    target.write_text("secret\n")
    target.chmod(0o600)
    (repo / planted).symlink_to(target)
    manifest = repo / "c.yaml"
    manifest.write_text(V1BETA1_CLASS)
    manifest.chmod(0o640)
    code, _, _ = run(["convert", str(manifest), "--to", "1.37", "--write"], capsys)
    assert code == 0
    assert target.read_text() == "secret\n" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert not manifest.is_symlink() and stat.S_IMODE(manifest.stat().st_mode) == 0o640
    assert manifest.read_text().startswith("apiVersion: resource.k8s.io/v1\n")
    assert sorted(p.name for p in repo.iterdir()) == sorted(["c.yaml", planted])  # no temporary file left


def test_convert_write_refuses_a_symlink_to_a_file_outside(tree: tuple[Path, Path],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    repo, victim = tree
    (victim / "target.yaml").write_text(V1BETA1_CLASS)
    (repo / "evil.yaml").symlink_to(victim / "target.yaml")
    code, _, err = run(["convert", str(repo), "--to", "1.37", "--write"], capsys)
    assert code == 2 and f"{repo / 'evil.yaml'}:1:1: error: cannot write" in err and "symbolic link" in err
    assert (victim / "target.yaml").read_text() == V1BETA1_CLASS


@pytest.mark.parametrize("how", ["file-link", "directory-link"])
def test_check_fix_writes_nothing_outside_the_checked_tree(how: str, tree: tuple[Path, Path],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    repo, victim = tree
    (victim / "target.yaml").write_text(FIXABLE_POD)
    if how == "file-link":
        (repo / "evil.yaml").symlink_to(victim / "target.yaml")
        argv = [str(repo)]
    else:
        (repo / "sub").symlink_to(victim, target_is_directory=True)
        argv = [f"{repo}/**/*.yaml"]
    (repo / "own.yaml").write_text(FIXABLE_POD)
    code, _, err = run(["check", *argv, "--fix", "--unsafe-fixes"], capsys)
    assert code == 2 and "not fixed" in err and "Traceback" not in err
    assert (victim / "target.yaml").read_text() == FIXABLE_POD
    assert "tolerations: []" in (repo / "own.yaml").read_text()  # the file inside the tree is fixed


def test_snapshot_output_is_0600_whatever_the_umask(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cluster = Path(__file__).resolve().parent.parent / "fixtures" / "clusters" / "two-racks"
    target = tmp_path / "snap.yaml"
    old = os.umask(0o022)
    try:
        code, _, _ = run(["snapshot", "--snapshot", str(cluster), "--output-file", str(target)], capsys)
    finally:
        os.umask(old)
    assert code == 0 and stat.S_IMODE(target.stat().st_mode) == 0o600


def test_rewrite_in_place_keeps_mode_and_refuses_what_it_must(tmp_path: Path) -> None:
    inside = tmp_path / "in"
    inside.mkdir()
    plain = inside / "a.yaml"
    plain.write_text("a")
    plain.chmod(0o751)
    rewrite_in_place(str(plain), b"b", [str(inside)])
    assert plain.read_text() == "b" and stat.S_IMODE(plain.stat().st_mode) == 0o751
    outside = tmp_path / "out.yaml"
    outside.write_text("x")
    with pytest.raises(WriteRefused, match="outside the paths given"):
        rewrite_in_place(str(outside), b"y", [str(inside)])
    os.mkfifo(inside / "pipe.yaml")
    with pytest.raises(WriteRefused, match="not a regular file"):
        rewrite_in_place(str(inside / "pipe.yaml"), b"y", [str(inside)])
    assert outside.read_text() == "x"


def test_write_output_replaces_atomically_and_writes_devices_in_place(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")
    hard = tmp_path / "hard.json"
    os.link(target, hard)  # a hard link elsewhere keeps the old content: the name is replaced, not the inode written
    write_output(str(target), b"new", mode=0o600)
    assert target.read_text() == "new" and hard.read_text() == "old"
    write_output("/dev/null", b"discarded")  # a device is written, never replaced
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
