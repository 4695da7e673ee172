"""The Topology Manager merge against upstream's own test table (fixtures/topologymanager_merge.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_wasdra.kubelet.bitmask import is_narrower, iterate_masks, mask_of
from kubectl_wasdra.kubelet.hints import BEST_EFFORT, NONE, RESTRICTED, SINGLE_NUMA_NODE, Hint, Numa, decide

TABLE = yaml.safe_load((Path(__file__).parent / "fixtures" / "topologymanager_merge.yaml").read_text())
NUMA = Numa(tuple(TABLE["numaNodes"]))


def hint(text: str) -> Hint:
    ids, preferred = text[:-1], text[-1] == "+"
    return Hint(None if ids == "any" else mask_of(int(i) for i in ids.split(",")), preferred)


def providers(data: list[dict[str, Any]]) -> list[Any]:
    return [{res: None if hints is None else [hint(h) for h in hints] for res, hints in p.items()} for p in data]


@pytest.mark.parametrize("case", TABLE["cases"], ids=[c["name"] for c in TABLE["cases"]])
def test_best_effort_and_restricted_merge(case: dict[str, Any]) -> None:
    expected = hint(case["expected"])
    best, admit = decide(NUMA, providers(case["providers"]), BEST_EFFORT)
    assert (best, admit) == (expected, True)
    best, admit = decide(NUMA, providers(case["providers"]), RESTRICTED)
    assert (best, admit) == (expected, expected.preferred)


def test_single_numa_node_drops_wide_hints() -> None:
    # policy_single_numa_node.go filterSingleNumaHints: a resource left with only wide hints admits nothing
    best, admit = decide(NUMA, providers([{"cpu": ["0,1+"]}, {"gpu": ["0+"]}]), SINGLE_NUMA_NODE)
    assert (best, admit) == (Hint(None, False), False)
    best, admit = decide(NUMA, providers([{"cpu": ["0+", "1+", "0,1-"]}, {"gpu": ["1+"]}]), SINGLE_NUMA_NODE)
    assert (best, admit) == (hint("1+"), True)
    # the default mask comes back as "any"
    assert decide(NUMA, providers([{}]), SINGLE_NUMA_NODE) == (Hint(None, True), True)


def test_none_policy_admits_without_merge() -> None:
    assert decide(NUMA, providers([{"cpu": []}]), NONE) == (Hint(None, True), True)


def test_prefer_closest_numa_nodes_picks_lower_distance() -> None:
    distances = {0: {0: 10, 1: 21, 2: 11, 3: 21}, 1: {0: 21, 1: 10, 2: 21, 3: 11},
                 2: {0: 11, 1: 21, 2: 10, 3: 21}, 3: {0: 21, 1: 11, 2: 21, 3: 10}}
    numa = Numa((0, 1, 2, 3), distances)
    both = providers([{"cpu": ["0,1+", "0,2+"]}])
    assert decide(numa, both, BEST_EFFORT)[0] == hint("0,1+")  # narrowest: lower mask value
    assert decide(numa, both, BEST_EFFORT, closest=True)[0] == hint("0,2+")  # closest: distance 11 < 21


def test_bitmask_order() -> None:
    assert list(iterate_masks([0, 1, 2]))[:4] == [0b001, 0b010, 0b100, 0b011]
    assert is_narrower(0b001, 0b011) and is_narrower(0b011, 0b101) and not is_narrower(0b101, 0b011)


SINGLE = yaml.safe_load((Path(__file__).parent / "fixtures" / "topologymanager_single_numa_node.yaml").read_text())


@pytest.mark.parametrize("case", SINGLE["merge"], ids=[c["name"] for c in SINGLE["merge"]])
def test_single_numa_node_merge_table(case: dict[str, Any]) -> None:
    expected = hint(case["expected"])
    data = [p if p is not None else {} for p in case["providers"]]
    assert decide(Numa(tuple(SINGLE["numaNodes"])), providers(data), SINGLE_NUMA_NODE) == (expected, expected.preferred)


@pytest.mark.parametrize("case", SINGLE["filter"], ids=[c["name"] for c in SINGLE["filter"]])
def test_single_numa_node_filter_table(case: dict[str, Any]) -> None:
    from kubectl_wasdra.kubelet.hints import single_numa_only

    resources = [[hint(h) for h in hints] for hints in case["resources"]]
    assert single_numa_only(resources) == [[hint(h) for h in hints] for hints in case["expected"]]
