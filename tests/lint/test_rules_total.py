"""No rule raises on any input: every registered rule, fed documents with an arbitrary JSON-like value (YAML's
scalars included: NaN, infinities; keys are strings, as the loader makes them) at any path of any fixture document,
for every release, with and without a cluster snapshot. A rule that raised would show as an internal-error finding (exit 2)."""

from __future__ import annotations

import math
from dataclasses import replace

from fixture_runner import CLUSTERS, FIXTURES, replaced, snapshot_at, value_paths
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.catalog.releases import SUPPORTED
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import INTERNAL_ERROR_HINT, check_documents
from kubectl_wasdra.lint.registry import all_rules
from kubectl_wasdra.load import load_paths

RULES = tuple(r for r in all_rules() if r.scope in ("document", "set"))
DOCUMENTS = load_paths([str(p) for p in sorted(FIXTURES.glob("*/*.yaml"))]).documents
SCALARS = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.sampled_from([0.5, -1e309, 1e309, math.nan])
           | st.text(max_size=6) | st.sampled_from(["", "1", "-1", "1Gi", "0.5", "gpu", "v1", "x" * 300, "a/b", "*"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) |
                    st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


def _check(documents: list, with_snapshot: bool, release) -> list:
    snapshot = snapshot_at(str(CLUSTERS / "two-racks")) if with_snapshot else None
    ctx = CheckContext(release=release, snapshot=snapshot, simulate=with_snapshot)
    return [f for f in check_documents(documents, RULES, ctx) if f.hint == INTERNAL_ERROR_HINT]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_no_rule_raises_on_any_value_at_any_path(data: st.DataObject) -> None:
    document = data.draw(st.sampled_from(DOCUMENTS))
    path = data.draw(st.sampled_from(value_paths(document.data)))
    broken = replace(document, data=replaced(document.data, path, data.draw(JSON)))
    others = [d for d in DOCUMENTS if d.file == document.file and d is not document]
    release = data.draw(st.sampled_from(SUPPORTED))
    crashed = _check([broken, *others], data.draw(st.booleans()), release)
    assert not crashed, [f.message for f in crashed]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_no_rule_raises_on_arbitrary_top_level_fields(data: st.DataObject) -> None:
    document = data.draw(st.sampled_from(DOCUMENTS))
    fields = data.draw(st.dictionaries(st.sampled_from(["metadata", "spec", "status", "items", "template", "data"]),
                                       JSON, min_size=1, max_size=3))
    broken = replace(document, data={"apiVersion": document.api_version, "kind": document.kind, **fields})
    crashed = _check([broken, broken], data.draw(st.booleans()), data.draw(st.sampled_from(SUPPORTED)))
    assert not crashed, [f.message for f in crashed]
