"""Verdicts of the real-world corpus's DRA driver and scheduler_perf files checked by hand against the Kubernetes
sources (the record itself is tests/corpus/realworld-verdicts.json, compared whole by test_realworld_corpus.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

VERDICTS = Path(__file__).resolve().parent / "corpus" / "realworld-verdicts.json"
K8S = "kubernetes__kubernetes/test"
RELEASES = ("1.33", "1.34", "1.35", "1.36", "1.37")


@pytest.fixture(scope="module")
def verdicts() -> dict[str, dict[str, list[str]]]:
    return json.loads(VERDICTS.read_text())


@pytest.mark.parametrize("key", [
    f"{K8S}/integration/scheduler_perf/dra/templates/deviceclass-implicit-extended-resource.yaml::(file)",  # {{.Index}}
    f"{K8S}/integration/scheduler_perf/cpg/templates/cpg-gang.yaml::(file)",
    f"{K8S}/e2e/dra/kind.yaml::(file)",                                  # a kind cluster config, never applied
    "intel__intel-resource-drivers-for-kubernetes/deployments/gaudi/base/kustomization.yaml::(file)",
    "kubernetes-sigs__dra-example-driver/deployments/helm/dra-example-driver/values.yaml::(file)",
])
def test_files_that_are_not_manifests_are_skipped_with_a_note(verdicts: dict, key: str) -> None:
    assert all(verdicts[key][release] == ["LOAD013"] for release in RELEASES)


def test_dra_verdicts_follow_the_upstream_sources(verdicts: dict) -> None:
    # DeviceToleration with an empty key and the default Equal: validateDeviceToleration accepts it, and
    # resourceclaim.ToleratesTaint then matches every key with an empty value: a warning, not a rejection
    monitor = "intel__intel-resource-drivers-for-kubernetes/deployments/gaudi/examples/monitor-pod-inline.yaml::" \
              "ResourceClaimTemplate monitor-claim"
    assert "VALID018" in verdicts[monitor]["1.37"] and "GATE001" in verdicts[monitor]["1.35"]  # DRADeviceTaints alpha
    # v1alpha3 DeviceTaintRule's selector field is spec.deviceSelector; the same folder defines "example" twice
    taint = f"{K8S}/e2e/dra/test-driver/deploy/example/devicetaintpolicy.yaml::DeviceTaintRule example"
    assert {"SCHEMA002", "REF013"} <= set(verdicts[taint]["1.36"])
    # ResourceClaimSpec has no `controller` since DRAControlPlaneController was removed (1.32)
    perf = f"{K8S}/integration/scheduler_perf/dra/templates/another-resourceclaimtemplate.yaml::" \
           "ResourceClaimTemplate another-test-claim-template"
    assert "SCHEMA002" in verdicts[perf]["1.37"]
    # resource.k8s.io/v1alpha2 was served 1.27-1.30; ResourcePoolStatusRequest was introduced in 1.36 (alpha)
    assert verdicts[f"{K8S}/e2e/dra/test-driver/deploy/example/resourceclass.yaml::ResourceClass example"]["1.33"] \
        == ["API001"]
    pool = "kubernetes-sigs__dra-example-driver/demo/resource-pool-status.yaml::ResourcePoolStatusRequest gpu-pool-status"
    assert verdicts[pool]["1.35"] == ["API001"] and verdicts[pool]["1.36"] == ["API002"]
