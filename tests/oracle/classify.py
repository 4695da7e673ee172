"""Sorting disagreements into known classes, each with its probable cause (tests/oracle/expected_failures.json).

A class is decided from the difference and the pod's spec alone, so that re-measuring after a fix needs no oracle.
Upstream files are named in CLASSES; tools/oracle/regenerate.py --expected-failures rewrites the list.
"""

from __future__ import annotations

from typing import Any, Final

from kubectl_wasdra.sched.scoring import num_feasible_nodes_to_find
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
    "gang-no-condition": "the stored run left a gang pod without a PodScheduled condition (an empty message): the "
                         "harness ended the scenario inside a pod-group cycle, which writes its pods' conditions only "
                         "at its end (schedule_one_podgroup.go submitPodGroupAlgorithmResult); tools/oracle/main.go "
                         "collects between cycles since, so a new occurrence is a harness bug",
    "gang-placement": "the node of a gang pod: the pod-group cycle's pod order and placement choice; the oracle "
                      "stores no tie set for pods of a topology-constrained group (its last scoring is that of "
                      "whichever placement it tried last) nor placement score ties "
                      "(pkg/scheduler/schedule_one_podgroup.go findBestPlacement, framework/plugins/topologyaware)",
    "spread-scoring": "the node of a pod with topologySpreadConstraints: PodTopologySpread scoring "
                      "(pkg/scheduler/framework/plugins/podtopologyspread/scoring.go)",
    "interpod-scoring": "the node of a pod with pod (anti-)affinity: InterPodAffinity scoring "
                        "(pkg/scheduler/framework/plugins/interpodaffinity/scoring.go)",
    "node-sampling": "the node of a pod in a cluster larger than numFeasibleNodesToFind (100 nodes and more: 200 "
                     "nodes -> 100, 300 -> 144): kube-scheduler filters from nextStartNodeIndex in parallel and "
                     "scores only the first numFeasibleNodesToFind nodes that pass, in the order the goroutines "
                     "finish, so which nodes are scored, and the winner, changes from run to run; the simulator "
                     "scores the first ones by name (pkg/scheduler/schedule_one.go findNodesThatPassFilters, "
                     "numFeasibleNodesToFind)",
    "resource-scoring": "the node of a pod that only resources decide: NodeResourcesFit and "
                        "NodeResourcesBalancedAllocation (which since PR #135573 scores how much the pod improves the "
                        "node's balance) (pkg/scheduler/framework/plugins/noderesources/)). Left: s00074 p4, stored on n001 "
                        "while 24 reruns (with the harness that made the corpus and with the current one) all put "
                        "it on n000, as the simulator does, where it scores 24 points more (NodeResourcesFit): in "
                        "the stored run n000 was not feasible for p4 during its cycle, although p5 (same claim "
                        "template, queued after it) then fitted there with the same nic device as p9; a transient "
                        "state of the DRA allocation of p9's claim, not reproduced and not identified",
    "preemption-message": "the PostFilter half of the message (which nodes preemption found not helpful or without "
                          "victims) (pkg/scheduler/framework/preemption/preemption.go)",
    "filter-message": "the filter half of an unschedulable pod's message (pkg/scheduler/schedule_one.go FitError): "
                      "a pod rejected by InterPodAffinity is retried when a pod matching its terms is bound after its "
                      "cycle began, and its last message then counts the pods placed since; whether that binding "
                      "(runBindingCycle, a goroutine) lands before the cycle is a race. "
                      "s00783 p8 (reruns: 1 run in 6 gives the stored text, 5 the simulator's): p8 fails "
                      "InterPodAffinity at its first attempt; when the binding of the 'app: web' pod queued before "
                      "it (runBindingCycle runs in a goroutine) lands during or after p8's cycle, the pod-add event "
                      "matches p8's affinity term and requeues it (interpodaffinity/plugin.go "
                      "isSchedulableAfterPodChange), and its retry, after p9 is placed, counts that node under "
                      "'Insufficient cpu'; when the binding lands first there is no retry",
    "preemption-victims": "which pods preemption evicts, or on which node, where several preemptors run close "
                          "together: kube-scheduler deletes the victims in a goroutine of its own "
                          "(pkg/scheduler/framework/preemption/executor.go prepareCandidateAsync) while the next pods "
                          "are scheduled, so (1) the next preemptor's dry run sees an earlier preemptor's victims "
                          "still on the node or already gone, depending on when the deletion reached the informer, "
                          "and picks other candidates and victims (SelectVictimsOnNode, pickOneNodeForPreemption); "
                          "(2) a victim chosen by two preemptors is recorded for whichever goroutine's delete lands "
                          "first, the other gets NotFound and emits no Preempted event (executor.go PreemptPod); "
                          "(3) a preemptor whose freed room was taken before its retry ends unschedulable ('No "
                          "preemption victims found') with its victims recorded. Reruns of the oracle on the same "
                          "scenario differ: s00683 (one node, three pending pods) gave four different victim "
                          "attributions in five runs",
    "after-preemption": "a pod queued after one that preempted: whether the victims are still on their node when "
                        "it is scheduled, and whether their deletion events send it back to the queue, depends on "
                        "when the preemption goroutine's deletes reach the informer (pkg/scheduler/framework/"
                        "preemption/executor.go prepareCandidateAsync, pkg/scheduler/backend/queue); the simulator "
                        "deletes them after one more queue entry and retries the pods that failed until then, in "
                        "queue order. A preemptor whose victim an earlier one already deleted can stay nominated and "
                        "parked (PreEnqueue while its goroutine runs, the delete then NotFound, no event left to "
                        "move it; defaultpreemption/default_preemption.go PreEnqueue): s01476 p11. "
                        "Reruns of the same scenario differ (s00007: p67 preempted on n001, n011 and "
                        "n007 in three runs, p71 placed in one run and unschedulable in three)",
    "gang-queue-order": "a pod queued beside pod groups is placed or not depending on whether the group's cycle ran "
                        "first: kube-scheduler orders a group by its pods' priority and queue time "
                        "(pkg/scheduler/backend/queue, schedule_one_podgroup.go); the simulator by manifest order",
    "nominated-not-bound": "kube-scheduler nominated the pod to a node and evicted nothing (no Preempted event), its "
                           "message without a PostFilter part: the harness ended the scenario while the preemption "
                           "goroutine ran (pkg/scheduler/framework/preemption/executor.go prepareCandidateAsync); "
                           "tools/oracle/main.go waits for those goroutines since, so a new occurrence is a harness "
                           "bug",
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
    if diff.aspect == "node" and _sampled(scenario):
        return "node-sampling"
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


def _sampled(scenario: dict[str, Any]) -> bool:
    """kube-scheduler stops filtering after numFeasibleNodesToFind feasible nodes (the default profile's adaptive
    percentage), so which nodes it scores is a race between its filter goroutines."""
    nodes = sum(1 for obj in scenario["snapshot"] if obj.get("kind") == "Node")
    return num_feasible_nodes_to_find(nodes) < nodes


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
