"""FIT020: a driver-specific NUMA attribute across drivers; the hint names the standard attribute and its publishers."""

from __future__ import annotations

from pathlib import Path

from fixture_runner import ROOT, report

from kubectl_wasdra.catalog.releases import Release


def test_hint_says_which_drivers_publish_the_standard_attribute() -> None:
    found = [f for f in report(ROOT / "fixtures/lint/FIT020/bad-snapshot.yaml", Release(1, 37)).findings
             if f.rule == "FIT020"]
    assert [f.message for f in found] == [
        'matchAttribute "rdma.example.com/numaNodeID" spans requests of different drivers (gpus: gpu.example.com, '
        "nic: rdma.example.com): a driver-specific attribute is only on that driver's devices, so the constraint can "
        "never hold"]
    assert found[0].hint == ("use matchAttribute: resource.kubernetes.io/numaNode (KEP-6072, no feature gate). In the "
                             "cluster: gpu.example.com publishes it; rdma.example.com publishes it.")


def test_without_snapshot_the_hint_has_no_cluster_part() -> None:
    (found,) = [f for f in report(ROOT / "fixtures/lint/FIT020/bad.yaml", Release(1, 37)).findings if f.rule == "FIT020"]
    assert found.hint == "use matchAttribute: resource.kubernetes.io/numaNode (KEP-6072, no feature gate)."


def test_the_class_driver_is_read_whatever_the_spacing_around_the_comparison(tmp_path: Path) -> None:
    text = (ROOT / "fixtures/lint/FIT020/bad.yaml").read_text()
    text = text.replace('device.driver == "rdma.example.com"', 'device.driver=="rdma.example.com"')
    manifest = tmp_path / "claim.yaml"
    manifest.write_text(text)
    assert [(f.rule, f.line) for f in report(manifest, Release(1, 37)).findings if f.rule == "FIT020"] == [("FIT020", 29)]
