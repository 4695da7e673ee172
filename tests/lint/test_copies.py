"""Objects defined in several places: every copy checked, references resolved to the nearest copy, findings
independent of the order of the input paths (the pre-commit path passes staged files in any order)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_wasdra.lint.copies import collide, copies, distance, nearest
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.lint.rules._objects import ObjectIndex
from kubectl_wasdra.load import load_paths

JOB = """apiVersion: batch/v1
kind: Job
metadata: {{name: train, namespace: ml}}
spec:
  parallelism: {count}
  template:
    spec:
      restartPolicy: Never
      schedulingGroup: {{podGroupName: train}}
      resourceClaims: [{{name: gpu, resourceClaimTemplateName: {template}}}]
      containers: [{{name: c, image: x, resources: {{claims: [{{name: {claim}}}]}}}}]
"""
GROUP = """apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {{name: train, namespace: ml}}
spec:
  schedulingPolicy: {{gang: {{minCount: {count}}}}}
"""
TEMPLATE = """apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: gpu, namespace: ml}}
spec:
  spec:
    devices:
      requests: [{{name: gpu, exactly: {{deviceClassName: {device_class}}}}}]
"""


def _tree(root: Path) -> list[str]:
    """dev/ and prod/ overlays of one Job and PodGroup with different sizes, each with its own findings, plus a
    shared claim template in base/ and a second copy of it in prod/."""
    files = {
        "dev/job.yaml": JOB.format(count=2, template="gpu", claim="gpu"),
        "dev/group.yaml": GROUP.format(count=2),
        "prod/job.yaml": JOB.format(count=8, template="gpu-big", claim="gpu2"),
        "prod/group.yaml": GROUP.format(count=8),
        "prod/template.yaml": TEMPLATE.format(device_class="gpu.example.com"),
        "base/template.yaml": TEMPLATE.format(device_class="gpu.example.com"),
        "prod/extra/job.yaml": JOB.format(count=1, template="gpu", claim="gpu").replace("train", "other"),
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return sorted(str(root / name) for name in files)


def _findings(paths: list[str]) -> set[tuple[str, int, int, str, str]]:
    report = run_check(CheckOptions(paths=tuple(paths), jobs=1))
    return {(f.file, f.line, f.column, f.rule, f.message) for f in report.findings}


def test_every_copy_keeps_its_findings(tmp_path: Path) -> None:
    paths = _tree(tmp_path)
    found = {(Path(f).relative_to(tmp_path).as_posix(), rule) for f, _, _, rule, _ in _findings(paths)}
    # prod's template name is wrong and its container names an unknown claim; dev's copy is fine; no GANG001 because
    # each PodGroup counts the pods of its own folder's Job
    assert ("prod/job.yaml", "REF001") in found and ("prod/job.yaml", "VALID006") in found
    assert not any(file == "dev/job.yaml" and rule in ("REF001", "VALID006") for file, rule in found)
    assert not any(rule == "GANG001" for _, rule in found)
    assert ("dev/group.yaml", "REF012") in found and ("dev/job.yaml", "REF012") in found
    assert ("base/template.yaml", "REF012") in found


def test_findings_do_not_depend_on_argument_order(tmp_path: Path) -> None:
    paths = _tree(tmp_path)
    assert _findings(paths) == _findings(paths[::-1])
    folders = [str(tmp_path / "prod"), str(tmp_path / "dev"), str(tmp_path / "base")]
    assert _findings(folders) == _findings(folders[::-1]) == _findings(paths)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], set]:
    paths = _tree(tmp_path_factory.mktemp("copies"))
    return paths, _findings(paths)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_permutation_of_input_paths_gives_the_same_findings(tree: tuple[list[str], set], data: st.DataObject) -> None:
    paths, expected = tree
    assert _findings(data.draw(st.permutations(paths))) == expected


def _documents(tmp_path: Path) -> DocumentSet:
    return DocumentSet(load_paths([str(tmp_path)]).documents)


def test_reference_resolves_to_the_nearest_copy(tmp_path: Path) -> None:
    _tree(tmp_path)
    docs = _documents(tmp_path)
    index = ObjectIndex(docs)
    by_file = {Path(d.file).relative_to(tmp_path).as_posix(): d for d in docs}
    prod_job, dev_job, nested = by_file["prod/job.yaml"], by_file["dev/job.yaml"], by_file["prod/extra/job.yaml"]
    assert index.in_manifests("ResourceClaimTemplate", "gpu", "ml", near=prod_job).file.endswith("prod/template.yaml")
    assert index.in_manifests("ResourceClaimTemplate", "gpu", "ml", near=dev_job).file.endswith("base/template.yaml")
    assert index.in_manifests("ResourceClaimTemplate", "gpu", "ml", near=nested).file.endswith("prod/template.yaml")
    assert index.in_manifests("PodGroup", "train", "ml", near=dev_job).file.endswith("dev/group.yaml")


def test_distance_and_nearest_copy() -> None:
    assert distance("a/x.yaml", "a/x.yaml") == 0
    assert distance("a/x.yaml", "a/y.yaml") == 1
    assert distance("a/x.yaml", "a/b/y.yaml") == 2
    assert distance("a/x.yaml", "c/y.yaml") == 3
    assert distance("-", "a/y.yaml") > distance("a/x.yaml", "z/q/r/y.yaml")
    assert nearest([], None) is None


def test_copies_and_collisions(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
    (tmp_path / "a" / "one.yaml").write_text(text + "---\n" + text + "data: {k: v}\n")
    (tmp_path / "b.yaml").write_text(text.replace("name: c", "name: c, namespace: x"))
    (found,) = copies(_documents(tmp_path).documents)
    assert len(found) == 2 and collide(found)
    report = run_check(CheckOptions(paths=(str(tmp_path),), jobs=1, select=("REF012", "REF013")))
    assert [(f.rule, f.line) for f in report.findings] == [("REF013", 3)]
    assert "defined 2 times in one folder: also at" in report.findings[0].message


def test_identical_copies_in_one_folder_lose_nothing(tmp_path: Path) -> None:
    """Demos that each carry the same DeviceClass: applied together nothing is overwritten, so a warning, not REF013."""
    text = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
    (tmp_path / "demo-1.yaml").write_text(text)
    (tmp_path / "demo-2.yaml").write_text(text)
    (found,) = copies(_documents(tmp_path).documents)
    assert not collide(found)
    report = run_check(CheckOptions(paths=(str(tmp_path),), jobs=1, select=("REF012", "REF013")))
    assert [(f.rule, f.severity.value) for f in report.findings] == [("REF012", "warning")]
    assert "defined 2 times, identical copies" in report.findings[0].message


def test_a_collision_in_one_folder_names_only_that_folder(tmp_path: Path) -> None:
    """Two differing copies in docs/ and one in config/ (LWS's samples): one REF013, at docs/'s first copy, counting
    docs/'s copies and naming config/'s apart; never "defined 3 times in one folder" at the copy in config/."""
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: %s}\n"
    for name, value in (("config/a.yaml", "1"), ("docs/b.yaml", "2"), ("docs/c.yaml", "3")):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text % value)
    report = run_check(CheckOptions(paths=(str(tmp_path),), jobs=1, select=("REF012", "REF013")))
    found = {(Path(f.file).relative_to(tmp_path).as_posix(), f.rule): f.message for f in report.findings}
    assert set(found) == {("docs/b.yaml", "REF013")}
    same_folder, _, elsewhere = found["docs/b.yaml", "REF013"].partition("; also in other folders at ")
    assert "defined 2 times in one folder: also at" in same_folder and "docs" in same_folder
    assert "/config/" not in same_folder and elsewhere.endswith("/config/a.yaml:3:18")


def test_unnamed_and_cluster_scoped_objects(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    generated = "apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: run-}\n"
    (tmp_path / "a" / "j.yaml").write_text(generated + "---\n" + generated)
    cls = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu, namespace: %s}\n"
    (tmp_path / "a" / "c.yaml").write_text(cls % "one")
    (tmp_path / "b" / "c.yaml").write_text(cls % "two")  # the namespace of a cluster-scoped kind does not count
    assert [[d.kind for d in found] for found in copies(_documents(tmp_path).documents)] == [["DeviceClass", "DeviceClass"]]


def test_cluster_scoped_custom_resources_are_one_object_whatever_the_namespace(tmp_path: Path) -> None:
    topology = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: default%s}\n"
    queue = "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Queue\nmetadata: {name: main%s}\n"   # namespaced
    (tmp_path / "t.yaml").write_text(topology % ", namespace: team-a" + "---\n" + queue % ", namespace: team-a")
    (tmp_path / "u.yaml").write_text(topology % "" + "---\n" + queue % "")
    assert [[d.kind for d in found] for found in copies(_documents(tmp_path).documents)] == [["Topology", "Topology"]]


def test_cluster_scoped_copies_are_named_without_the_namespace_the_server_clears(tmp_path: Path) -> None:
    """The website's DRA driver all.yaml gives its ClusterRole `namespace: default`; clusterrole.yaml does not."""
    role = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: driver%s}\nrules: []\n"
    (tmp_path / "all.yaml").write_text(role % ", namespace: default")
    (tmp_path / "clusterrole.yaml").write_text(role % "")
    report = run_check(CheckOptions(paths=(str(tmp_path),), jobs=1, select=("REF013",)))
    assert [f.message.split(" is defined")[0] for f in report.findings] == ['ClusterRole "driver"']
