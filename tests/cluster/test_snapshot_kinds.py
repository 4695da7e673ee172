"""The per-kind tables of the cluster package agree with SNAPSHOT_KINDS: a kind added to snapshots is read live and
given a naming decision by --anonymize, or this fails and names the table that was missed."""

from __future__ import annotations

from kubectl_wasdra.cluster.anonymize import _NAMES
from kubectl_wasdra.cluster.live import KIND_SOURCES
from kubectl_wasdra.cluster.numa_kinds import CONFIGZ_KIND, NRT_KIND
from kubectl_wasdra.cluster.snapshot import CLUSTER_SCOPED_KINDS, SNAPSHOT_KINDS

# kinds whose names --anonymize keeps: they name storage, drivers and budgets, and nothing derived from them is renamed
ANONYMIZE_KEEPS_NAMES = {"PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSIDriver", "PodDisruptionBudget",
                         "RuntimeClass"}


def test_every_snapshot_kind_but_configz_is_listed_from_the_api() -> None:
    assert set(KIND_SOURCES) == set(SNAPSHOT_KINDS) - {CONFIGZ_KIND}  # configz: one GET per node (cluster/live_numa.py)


def test_cluster_scoped_kinds_are_snapshot_kinds() -> None:
    assert CLUSTER_SCOPED_KINDS - set(SNAPSHOT_KINDS) == set()
    assert {NRT_KIND, CONFIGZ_KIND} <= CLUSTER_SCOPED_KINDS


def test_anonymize_decides_how_every_snapshot_kind_is_named() -> None:
    assert set(SNAPSHOT_KINDS) - set(_NAMES) == ANONYMIZE_KEEPS_NAMES
    assert set(_NAMES) <= set(SNAPSHOT_KINDS)
