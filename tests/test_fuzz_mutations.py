"""Fuzzing over mutated inputs: one field of a snapshot object, a manifest, a kubeconfig, a project config or a
baseline replaced with a hostile value (a huge or non-finite number, a quantity at the edge of the grammar, a wrong
type, control and bidi characters), and whole files replaced with hostile texts (100,000-deep nesting, tags, integers
of 5,000 digits, long words). Loading, simulating, explaining with suggestions and checking may report the input, but
never crash: a WasdraError (exit 2 with one line) is the only exception allowed. Bounded: a few dozen examples per
test, a couple of minutes in all."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import resource
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.dra.inventory import with_device_selectors
from kubectl_wasdra.errors import WasdraError
from kubectl_wasdra.explain.overlay import build_overlay
from kubectl_wasdra.explain.run import explain_results
from kubectl_wasdra.sched.admission import all_on

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_QUANTITIES = ("-1", "1e", "1m1", " 1 ", "1e400", "1e1000000", "-1e400", "9" * 5000)
HOSTILE = (*HOSTILE_QUANTITIES, None, "", 0, -1, 2**63, -(2**63) - 1, 10**400, 1e309, float("-inf"), float("nan"),
           1e-309, 0.5, True, "1e309", "-1e309", "1e2147483647", "1e-400", ".inf", "Gi", "-", ".", "16Ei",
           "1e9223372036854775808", "NaN", [], {}, [None], {"": None}, {"a": {"b": None}},
           "x\n::error::pwned\u202e\u2028", "\x00\x1b[31m")
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(autouse=True, scope="module")
def _bounded_memory() -> Iterator[None]:
    """A mutation that makes the simulator materialise without bound ends in MemoryError (a failure), not in a machine
    out of memory: the address space is capped at 3 GiB above what the test process holds while these tests run."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as handle:
        held = int(handle.read().split()[0]) * resource.getpagesize()
    cap = held + (3 << 30)
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@functools.cache
def _objects(fixture: str) -> tuple[dict[str, Any], ...]:
    snapshot, problems = load_snapshot([str(ROOT / fixture)])
    assert problems == ()
    return tuple(obj for objs in snapshot.objects.values() for obj in objs)


@functools.cache
def _manifest() -> tuple[dict[str, Any], ...]:
    text = (ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml").read_text()
    return tuple(doc for doc in yaml.safe_load_all(text) if isinstance(doc, dict))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a JSON-like value (keys and list indices), the value's own path included."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = _set(value[path[0]], path[1:], new)
    return out


@st.composite
def _mutated(draw: st.DrawFn, objects: tuple[dict[str, Any], ...]) -> tuple[dict[str, Any], ...]:
    index = draw(st.integers(0, len(objects) - 1))
    target = objects[index]
    paths = [p for p in _paths(target) if p and p[0] not in ("apiVersion", "kind")]
    path = draw(st.sampled_from(paths))
    value = draw(st.sampled_from(HOSTILE))
    return (*objects[:index], _set(target, path, value), *objects[index + 1:])


def _simulate(objects: tuple[dict[str, Any], ...], overlay_objects: tuple[dict[str, Any], ...] = ()) -> None:
    builder = SnapshotBuilder()
    for obj in objects:
        builder.add(copy.deepcopy(obj))
    snapshot = with_device_selectors(builder.build())
    overlay = build_overlay(overlay_objects)
    with contextlib.suppress(WasdraError):  # a clear error is fine; anything else is a crash
        explain_results(snapshot.overlay(list(overlay.objects)), all_on(NEWEST), overlay, with_suggestions=True)


@SETTINGS
@given(_mutated(_objects("fixtures/clusters/dra-basic")))
def test_mutated_snapshot_never_crashes(objects: tuple[dict[str, Any], ...]) -> None:
    _simulate(objects)


@SETTINGS
@given(_mutated(_objects("fixtures/sched/GangPartialFit")))
def test_mutated_gang_snapshot_never_crashes(objects: tuple[dict[str, Any], ...]) -> None:
    _simulate(objects)


@SETTINGS
@given(_mutated(_manifest()))
def test_mutated_manifest_against_a_snapshot_never_crashes(manifest: tuple[dict[str, Any], ...]) -> None:
    import tempfile

    from kubectl_wasdra.explain.run import load_manifests_leaving_out

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "manifest.yaml"
        path.write_text(yaml.safe_dump_all(manifest))
        overlay, _left_out = load_manifests_leaving_out([str(path)])
    _simulate(_objects("fixtures/clusters/dra-basic"), tuple(overlay.objects))


@SETTINGS
@given(_mutated(tuple(obj for obj in _objects("fixtures/clusters/two-racks")
                      if obj.get("kind") in ("ResourceClaim", "ResourceSlice", "Node", "DeviceTaintRule"))))
def test_mutated_allocations_and_slices_with_suggestions_never_crash(objects: tuple[dict[str, Any], ...]) -> None:
    rest = tuple(obj for obj in _objects("fixtures/clusters/two-racks")
                 if obj.get("kind") not in ("ResourceClaim", "ResourceSlice", "Node", "DeviceTaintRule"))
    _simulate((*objects, *rest), _manifest())



# whole-file hostile texts: every reader must refuse them with a clear error (the round-2 reproducers)
HOSTILE_TEXTS = (
    "[" * 100_000 + "]" * 100_000,
    "a: " + "{a: " * 50_000 + "x" + "}" * 50_000 + "\n",
    "a:\n  " + "- " * 20_000 + "x\n",
    "a: !!float abc\n", "a: !!python/object/apply:os.system ['true']\n", "a: !!binary AAAA\n",
    '{"a": ' + "9" * 5000 + "}", "a: " + "x" * (1 << 20) + "\n", "root:x:0:0:root:/root:/bin/bash\n",
    "- a\n- b\n", "\x00\x01\x02", "a: &a [*a]\n", "a: 1\n---\n" * 2000,
)


def _mutated_text(base: Any, fmt: str) -> st.SearchStrategy[str]:
    """A text of one file: the base object with one hostile field (dumped as YAML or JSON), or a hostile text."""
    dumped = _mutated((base,)).map(lambda objects: json.dumps(objects[0], default=str) if fmt == "json"
                                   else yaml.safe_dump(objects[0], allow_unicode=True))
    return st.one_of(dumped, st.sampled_from(HOSTILE_TEXTS))


@contextlib.contextmanager
def _written(name: str, text: str) -> Iterator[str]:
    """The path of a file `name` holding `text` (lone surrogates kept), in a temporary directory removed afterwards:
    hypothesis runs a test many times within one function-scoped tmp_path."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        yield str(path)


KUBECONFIG = {"apiVersion": "v1", "kind": "Config", "current-context": "fake", "preferences": {},
              "clusters": [{"name": "fake", "cluster": {"server": "https://127.0.0.1:9", "insecure-skip-tls-verify": True}}],
              "users": [{"name": "tester", "user": {"token": "t"}}],
              "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "tester", "namespace": "team"}}]}


@SETTINGS
@given(_mutated_text(KUBECONFIG, "yaml"))
def test_mutated_kubeconfig_is_a_clear_error_or_a_client(text: str) -> None:
    from kubectl_wasdra.cluster.kubeconfig import context_namespace
    from kubectl_wasdra.cluster.live import LiveOptions, _client

    with _written("kubeconfig", text) as path:
        with contextlib.suppress(WasdraError):
            context_namespace(path, None)
        with contextlib.suppress(WasdraError):
            _client(LiveOptions(kubeconfig=path, context="fake"))


PROJECT_CONFIG = {"k8sVersion": "1.37", "featureGates": {"DRAPrioritizedList": True},
                  "runtimeConfig": {"scheduling.k8s.io/v1beta1": True}, "profile": "production", "select": ["ALL"],
                  "ignore": ["GATE001"], "failOn": "warning", "schemaLocations": ["schemas"], "output": "json",
                  "exclude": ["vendor/"], "perFileIgnores": {"legacy/*.yaml": ["API001"]},
                  "clusters": {"prod": {"k8sVersion": "1.36", "featureGates": {"GenericWorkload": True}}}}


@SETTINGS
@given(_mutated_text(PROJECT_CONFIG, "yaml"))
def test_mutated_project_config_is_a_clear_error_or_settings(text: str) -> None:
    from kubectl_wasdra.config.file import read_config

    with _written(".wasdra.yaml", text) as path, contextlib.suppress(WasdraError):
        config = read_config(path)
        config.resolved("prod")


BASELINE = {"version": 1, "tool": "kubectl-wasdra", "findings": [
    {"fingerprint": "0f" * 8, "rule": "GATE001", "file": "a.yaml", "object": "Pod/p", "path": "spec", "message": "m"}]}


@SETTINGS
@given(_mutated_text(BASELINE, "json"))
def test_mutated_baseline_is_a_clear_error_or_fingerprints(text: str) -> None:
    from kubectl_wasdra.lint.baseline import read_baseline

    with _written("baseline.json", text) as path, contextlib.suppress(WasdraError):
        read_baseline(path)


@SETTINGS
@given(st.sampled_from(HOSTILE_TEXTS), st.sampled_from(["yaml", "json"]))
def test_hostile_snapshot_file_is_reported_with_its_position(text: str, suffix: str) -> None:
    with _written(f"snapshot.{suffix}", text) as path:
        _snapshot, problems = load_snapshot([path])
    assert all(p.line >= 1 and p.column >= 1 and p.message for p in problems)


@SETTINGS
@given(st.sampled_from(HOSTILE_TEXTS), st.sampled_from(["yaml", "json"]))
def test_hostile_manifest_text_is_a_finding_for_check_and_convert(text: str, suffix: str) -> None:
    from kubectl_wasdra.convert.run import load_errors
    from kubectl_wasdra.load import load_paths

    with _written(f"manifest.{suffix}", text) as path:
        loaded = load_paths([path])
        load_errors(path, Path(path).read_bytes())
    assert all(p.line >= 1 and p.column >= 1 and p.message for p in loaded.problems)
