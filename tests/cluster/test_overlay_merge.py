"""ClusterSnapshot.overlay merges a few objects into sorted kinds and copies the key index: the result must be the
snapshot a full rebuild gives (objects sorted by namespace/name, later objects replacing, get() seeing them)."""

from __future__ import annotations

import random
from typing import Any

from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.cluster.snapshot import object_key


def _pod(namespace: str, name: str, tag: int) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
            "spec": {"containers": [], "priority": tag}}


def _rebuilt(objects: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    by_key: dict[tuple[str, str], dict[str, Any]] = {}
    for obj in objects:
        by_key[object_key(obj)] = obj
    return [(*key, by_key[key]["spec"]["priority"]) for key in sorted(by_key)]


def test_overlay_matches_a_full_rebuild() -> None:
    rng = random.Random(3)
    for round_ in range(40):
        builder = SnapshotBuilder()
        base = [_pod(f"ns-{rng.randint(0, 3)}", f"p-{rng.randint(0, 60)}", 0) for _ in range(rng.randint(0, 50))]
        for obj in base:
            builder.add(obj)
        snapshot = builder.build()
        if round_ % 2:
            snapshot.get("Pod", "p-0", "ns-0")  # the index built before the overlay: copied, not rebuilt
        seen = list(base)
        expected_order = {object_key(obj): snapshot.creation_order("Pod", *object_key(obj)) for obj in base}
        counter = max(expected_order.values(), default=0)
        for step in range(6):  # past the depth at which the layered indexes are flattened
            extra = [_pod(f"ns-{rng.randint(0, 4)}", f"p-{rng.randint(0, 80)}", step + 1)
                     for _ in range(rng.choice([1, 3, 70]))]
            snapshot = snapshot.overlay(extra)
            seen += extra
            got = [(*object_key(o), o["spec"]["priority"]) for o in snapshot.of_kind("Pod")]
            assert got == _rebuilt(seen)
            for namespace, name, tag in got:
                assert snapshot.get("Pod", name, namespace)["spec"]["priority"] == tag
            for obj in extra:  # each overlay reads its objects after everything before it, in order
                counter += 1
                expected_order[object_key(obj)] = counter
            assert {key: snapshot.creation_order("Pod", *key) for key in expected_order} == expected_order
