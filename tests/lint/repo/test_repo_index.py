"""The repository index (lint/repo/index.py): what each file defines and references, kept on disk and re-read only
for files whose size, mtime or ctime changed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from layouts import GIT, GROUPS, job, repository, write

from kubectl_wasdra.lint.repo.index import cache_file, load_index

pytestmark = pytest.mark.skipif(GIT is None, reason="git not installed")


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    return repository(tmp_path / "repo", {"deploy/groups.yaml": GROUPS, "deploy/job.yaml": job(8),
                                          "README.md": "# not indexed\n"})


def test_definers_and_referrers(layout: Path, tmp_path: Path) -> None:
    index = load_index(str(layout), cache_dir=str(tmp_path / "cache"))
    groups, job_file = str(layout / "deploy" / "groups.yaml"), str(layout / "deploy" / "job.yaml")
    assert index.definers("PodGroup/ml/train-workers") == (groups,)
    assert index.referrers("PodGroup/ml/train-workers") == (job_file,)
    assert index.referrers("ResourceClaimTemplate/ml/gpu") == (job_file,)
    assert index.referrers("Workload/ml/train") == (groups,)   # the PodGroup's workloadRef
    assert index.referrers("DeviceClass//gpu.example.com") == (groups,)
    assert index.definers("Job/ml/train") == (job_file,) and index.definers("Job/ml/nope") == ()
    assert sorted(index.entries) == [groups, job_file]
    assert index.definers("PodGroup//train-workers") == (groups,)   # no namespace: any namespace
    assert index.definers("PodGroup/other/train-workers") == ()


def test_the_cache_is_reused_until_a_file_changes(layout: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    assert load_index(str(layout), cache_dir=cache).read == 2
    assert load_index(str(layout), cache_dir=cache).read == 0   # warm: nothing parsed
    write(layout, {"deploy/job.yaml": job(8).replace("train-workers", "renamed") + "# longer\n"})
    index = load_index(str(layout), cache_dir=cache)
    assert index.read == 1 and index.referrers("PodGroup/ml/renamed") == (str(layout / "deploy" / "job.yaml"),)
    os.remove(layout / "deploy" / "job.yaml")
    index = load_index(str(layout), cache_dir=cache)
    assert index.read == 0 and index.referrers("PodGroup/ml/renamed") == ()


def test_a_cache_of_another_version_or_a_broken_one_is_not_used(layout: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    load_index(str(layout), cache_dir=cache)
    path = cache_file(str(layout), cache)
    data = json.loads(Path(path).read_text())
    data["version"] = "0:old"
    Path(path).write_text(json.dumps(data))
    assert load_index(str(layout), cache_dir=cache).read == 2
    Path(path).write_text("{not json")
    assert load_index(str(layout), cache_dir=cache).read == 2
    unwritable = tmp_path / "file"
    unwritable.write_text("")
    assert load_index(str(layout), cache_dir=str(unwritable)).read == 2   # cannot write: costs time, nothing else


def test_git_ignored_files_are_not_indexed_unless_asked(layout: Path, tmp_path: Path) -> None:
    write(layout, {".gitignore": "vendor/\n", "vendor/groups.yaml": GROUPS, "extra/job.yaml": job(4)})
    (layout / ".git" / "info").mkdir(exist_ok=True)
    (layout / ".git" / "info" / "exclude").write_text("extra/\n")
    index = load_index(str(layout))
    assert index.definers("PodGroup/ml/train-workers") == (str(layout / "deploy" / "groups.yaml"),)
    assert index.referrers("PodGroup/ml/train-workers") == (str(layout / "deploy" / "job.yaml"),)   # untracked + excluded
    everything = load_index(str(layout), gitignore=False)
    assert len(everything.definers("PodGroup/ml/train-workers")) == 2


def test_an_untracked_file_counts_and_a_root_outside_git_is_walked(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    write(plain, {"a/groups.yaml": GROUPS, "b/job.yaml": job(8), ".hidden/job.yaml": job(1)})
    index = load_index(str(plain))
    assert index.referrers("PodGroup/ml/train-workers") == (str(plain / "b" / "job.yaml"),)


def test_an_overlay_changes_the_index_returned_not_the_cache(layout: Path, tmp_path: Path) -> None:
    """What a language server passes for unsaved buffers: used for the answer, never stored."""
    from kubectl_wasdra.load import load_text

    cache, job_file = str(tmp_path / "cache"), str(layout / "deploy" / "job.yaml")
    buffer, _ = load_text(job_file, job(8).replace("train-workers", "edited"))
    index = load_index(str(layout), cache_dir=cache, overlay={job_file: buffer})
    assert index.referrers("PodGroup/ml/edited") == (job_file,) and index.referrers("PodGroup/ml/train-workers") == ()
    again = load_index(str(layout), cache_dir=cache)
    assert again.read == 0 and again.referrers("PodGroup/ml/train-workers") == (job_file,)


def test_a_fifo_named_like_a_manifest_is_not_read(layout: Path) -> None:
    os.mkfifo(layout / "deploy" / "pipe.yaml")
    index = load_index(str(layout))   # would block forever if it were read
    assert str(layout / "deploy" / "pipe.yaml") not in index.entries
