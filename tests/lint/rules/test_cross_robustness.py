"""REF/GANG/FIT/VALID050 never crash on malformed objects: every value of every fixture replaced by garbage."""

from __future__ import annotations

from fixture_runner import CLUSTERS, FIXTURES, replaced, snapshot_at, value_paths
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import check_documents
from kubectl_wasdra.lint.registry import all_rules
from kubectl_wasdra.load import load_paths

OWN = tuple(r for r in all_rules() if r.info.family in ("REF", "GANG", "FIT") or r.info.id == "VALID050")
DOCUMENTS = [d for prefix in ("REF", "GANG", "FIT") for d in load_paths([str(p) for p in sorted(FIXTURES.glob(
    f"{prefix}*/bad*.yaml"))]).documents]
GARBAGE = st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=3), st.booleans(), st.just([]), st.just({}),
                    st.just([1, "x", None]), st.just({"a": [None]}))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_garbage_anywhere_does_not_crash(data: st.DataObject) -> None:
    from dataclasses import replace

    document = data.draw(st.sampled_from(DOCUMENTS))
    paths = value_paths(document.data)
    path = data.draw(st.sampled_from(paths))
    broken = replace(document, data=replaced(document.data, path, data.draw(GARBAGE)))
    others = [d for d in DOCUMENTS if d.file == document.file and d is not document]
    ctx = CheckContext(release=Release(1, 37), snapshot=snapshot_at(str(CLUSTERS / "two-racks")), simulate=True)
    check_documents([broken, *others], OWN, ctx)
