"""Malformed fields in groups, pods, Jobs and claim templates are data problems: never an exception out of
`sched.simulate` or `explain.run_explain` (a manifest the simulator cannot read may stop `explain` with a LoadError
naming file:line:col, as any bad input does)."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import fixture_cluster
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.errors import WasdraError
from kubectl_wasdra.sched.admission import all_on
from kubectl_wasdra.sched.simulation import simulate

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml"
COMPOSITE = [
    {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup", "metadata": {"name": "tree", "namespace": "ml"},
     "spec": {"schedulingPolicy": {"gang": {"minGroupCount": 1}}}},
    {"apiVersion": "scheduling.k8s.io/v1alpha1", "kind": "Workload", "metadata": {"name": "w", "namespace": "ml"},
     "spec": {"podGroups": [{"name": "pg", "policy": {"gang": {"minCount": 1}}}]}},
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "old-style", "namespace": "ml"},
     "spec": {"workloadRef": {"name": "w", "podGroup": "pg"}, "containers": [{"name": "c", "image": "x"}]}},
]
GARBAGE = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["", "x", "-1", "1Gi", "a/b"]),
                    st.just([]), st.just({}), st.just([{"x": 1}]), st.just({"key": ["v"]}), st.just([["nested"]]))


def _documents() -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(MANIFEST.read_text()) if doc] + copy.deepcopy(COMPOSITE)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


DOCUMENTS = _documents()
PATHS = [(index, path) for index, doc in enumerate(DOCUMENTS) for path in _paths(doc) if path[0] != "kind"]


def _mutated(choice: tuple[int, tuple[Any, ...]], garbage: Any) -> list[dict[str, Any]]:
    docs = copy.deepcopy(DOCUMENTS)
    index, path = choice
    target = docs[index]
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = copy.deepcopy(garbage)
    return docs


@functools.cache
def _cluster() -> Any:
    return fixture_cluster("two-racks")


@settings(max_examples=80, deadline=None)
@given(choice=st.sampled_from(PATHS), garbage=GARBAGE)
def test_simulate_never_raises_on_garbage(choice, garbage):
    """Objects the snapshot can index (shape_problem None) reach the simulator, whatever their other fields hold."""
    from kubectl_wasdra.cluster.shape import shape_problem
    from kubectl_wasdra.explain.overlay import build_overlay

    overlay = build_overlay(_mutated(choice, garbage))
    indexable = [obj for obj in overlay.objects if shape_problem(obj) is None]
    results = simulate(_cluster().overlay(indexable), gates=all_on(NEWEST))
    assert isinstance(results, list)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choice=st.sampled_from(PATHS), garbage=GARBAGE)
def test_run_explain_never_raises_on_garbage(tmp_path_factory, choice, garbage):
    from kubectl_wasdra.explain.run import ExplainOptions, run_explain

    path = tmp_path_factory.mktemp("garbage") / "manifest.yaml"
    path.write_text(yaml.safe_dump_all(_mutated(choice, garbage)))
    options = ExplainOptions(files=[str(path)], snapshot=[str(ROOT / "fixtures" / "clusters" / "two-racks")],
                             feature_gates={"GenericWorkload": True, "TopologyAwareWorkloadScheduling": True},
                             runtime_config={"scheduling.k8s.io/v1beta1": True}, suggestions=False)
    try:
        report = run_explain(options)
    except WasdraError as exc:  # the designed path for a manifest that cannot be read: one line with file:line:col
        assert str(exc)
        return
    assert report.groups is not None


@pytest.mark.parametrize("kind", [["PodGroup"], {"a": 1}, 7, None], ids=["list", "map", "int", "none"])
def test_shape_problem_names_a_kind_of_the_wrong_type(kind):
    from kubectl_wasdra.cluster.shape import shape_problem

    obj = {"apiVersion": "v1", "kind": kind, "metadata": {"name": "x"}}
    assert shape_problem(obj) is None or isinstance(shape_problem(obj), tuple)
