"""Sorting disagreements into known classes, each with its probable cause (tests/oracle/expected_failures.json).

A class is decided from the difference and the pod's spec alone, so that re-measuring after a fix needs no oracle.
Upstream files are named in CLASSES; tools/oracle/regenerate.py --expected-failures rewrites the list.
"""

from __future__ import annotations

from typing import Any, Final

from tests.oracle.compare import Difference

CLASSES: Final = {
    "runtimeclass-overhead": "the pod names a RuntimeClass: the RuntimeClass admission plugin adds its overhead.podFixed "
                             "to spec.overhead and merges its scheduling constraints "
                             "(plugin/pkg/admission/runtimeclass/admission.go)",
    "preemption-policy-from-class": "a PriorityClass with preemptionPolicy Never: the Priority admission plugin copies it "
                                    "to the pod, which then must not preempt ('preemption: not eligible due to "
                                    "preemptionPolicy=Never.') "
                                    "(plugin/pkg/admission/priority/admission.go, "
                                    "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go)",
    "gang-message": "a gang pod's PodScheduled=False message (each pod's own FitError and PostFilter text, or the "
                    "gang's wait, as the group's last retry words them; sched/pod_conditions.py) differs "
                    "(pkg/scheduler/schedule_one_podgroup.go, backend/queue)",
    "gang-no-condition": "the stored run left a gang pod without a PodScheduled condition (an empty message) while "
                         "the simulator words one; a rerun of the oracle on the same scenario (e.g. s00141) gives "
                         "every pod a message: kube-scheduler's group retries race with the harness's end "
                         "(tools/oracle/main.go settled)",
    "gang-placement": "the node of a gang pod: the pod-group cycle's pod order and placement choice; the oracle "
                      "stores no tie set for pods of a topology-constrained group (its last scoring is that of "
                      "whichever placement it tried last) nor placement score ties "
                      "(pkg/scheduler/schedule_one_podgroup.go findBestPlacement, framework/plugins/topologyaware)",
    "spread-scoring": "the node of a pod with topologySpreadConstraints: PodTopologySpread scoring "
                      "(pkg/scheduler/framework/plugins/podtopologyspread/scoring.go)",
    "interpod-scoring": "the node of a pod with pod (anti-)affinity: InterPodAffinity scoring "
                        "(pkg/scheduler/framework/plugins/interpodaffinity/scoring.go)",
    "resource-scoring": "the node of a pod that only resources decide: NodeResourcesFit and "
                        "NodeResourcesBalancedAllocation (which since PR #135573 scores how much the pod improves the "
                        "node's balance) (pkg/scheduler/framework/plugins/noderesources/)",
    "preemption-message": "the PostFilter half of the message (which nodes preemption found not helpful or without "
                          "victims) (pkg/scheduler/framework/preemption/preemption.go)",
    "filter-message": "the filter half of an unschedulable pod's message (pkg/scheduler/schedule_one.go FitError)",
    "preemption-victims": "which pods preemption evicts, or on which node: candidate selection "
                          "(pkg/scheduler/framework/preemption/preemption.go SelectCandidate, pickOneNodeForPreemption)",
    "after-preemption": "a pod queued after one that preempted: kube-scheduler deleted the victims and reserves the "
                        "nominated node for the preemptor before the next pods are tried; the simulator leaves the "
                        "victims in place (pkg/scheduler/framework/preemption/executor.go, "
                        "pkg/scheduler/backend/queue nominator)",
    "gang-queue-order": "a pod queued beside pod groups is placed or not depending on whether the group's cycle ran "
                        "first: kube-scheduler orders a group by its pods' priority and queue time "
                        "(pkg/scheduler/backend/queue, schedule_one_podgroup.go); the simulator by manifest order",
    "nominated-not-bound": "kube-scheduler nominated the pod to a node and evicted nothing (no Preempted event) by the "
                           "time the scenario settled, its message without a PostFilter part; the simulator places "
                           "it there by preemption. Possibly the harness ending the scenario while the preemption "
                           "goroutine still runs (pkg/scheduler/framework/preemption/executor.go)",
    "interpod-filter": "placed or not where required pod (anti-)affinity decides: the InterPodAffinity filter "
                       "(pkg/scheduler/framework/plugins/interpodaffinity/filtering.go)",
    "placement": "placed or not, or claims: not yet sorted",
}


def _spec(scenario: dict[str, Any], pod: str) -> dict[str, Any]:
    namespace, name = pod.split("/", 1)
    for obj in scenario["manifests"]:
        meta = obj.get("metadata", {})
        if obj.get("kind") == "Pod" and meta.get("name") == name and meta.get("namespace", "default") == namespace:
            return obj.get("spec", {})
    return {}


def classify(scenario: dict[str, Any], oracle: dict[str, Any], diff: Difference) -> str:
    """The class (a key of CLASSES) of one difference; `oracle` is kube-scheduler's stored verdict of the scenario."""
    spec = _spec(scenario, diff.pod)
    if diff.aspect == "victims" or oracle["pods"].get(diff.pod, {}).get("victims"):
        return "preemption-victims"
    if any(v.get("victims") for v in oracle["pods"].values()):
        return "after-preemption"
    if spec.get("schedulingGroup"):
        if diff.aspect == "message":
            return "gang-no-condition" if diff.oracle == "" else "gang-message"
        return "gang-placement"
    if spec.get("runtimeClassName"):
        return "runtimeclass-overhead"
    if ("preemptionPolicy=Never" in str(diff.oracle)) != ("preemptionPolicy=Never" in str(diff.ours)):
        return "preemption-policy-from-class"
    if diff.aspect == "message":
        return _message_class(spec, str(diff.oracle), str(diff.ours))
    if diff.aspect == "node":
        return _node_class(spec)
    return _placed_class(scenario, oracle, diff)


def _placed_class(scenario: dict[str, Any], oracle: dict[str, Any], diff: Difference) -> str:
    if any(obj.get("kind") == "PodGroup" for obj in scenario["manifests"]):
        return "gang-queue-order"
    if oracle["pods"].get(diff.pod, {}).get("nominated"):
        return "nominated-not-bound"
    if "pod affinity rules" in f"{diff.oracle} {diff.ours}" or "anti-affinity" in f"{diff.oracle} {diff.ours}":
        return "interpod-filter"
    return "placement"


def _message_class(spec: dict[str, Any], theirs: str, ours: str) -> str:
    if spec.get("schedulingGroup"):
        return "gang-message"
    if theirs.split(". ", 1)[0] == ours.split(". ", 1)[0]:
        return "preemption-message"
    return "filter-message"


def _node_class(spec: dict[str, Any]) -> str:
    affinity = spec.get("affinity", {})
    if spec.get("schedulingGroup"):
        return "gang-placement"
    if spec.get("topologySpreadConstraints"):
        return "spread-scoring"
    if "podAffinity" in affinity or "podAntiAffinity" in affinity:
        return "interpod-scoring"
    return "resource-scoring"
