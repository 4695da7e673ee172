"""FitError: the "0/N nodes are available" line is assembled like kube-scheduler's (string-sorted histogram)."""

from __future__ import annotations

from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.status import Status


def test_histogram_sorted_as_strings_and_each_reason_counted_once_per_node():
    taint = Status.unresolvable(Reason.UNTOLERATED_TAINT, "node(s) had untolerated taint(s)")
    cpu = Status.unschedulable(Reason.INSUFFICIENT_RESOURCE, "Insufficient cpu")
    both = cpu.with_more((Status.unschedulable(Reason.INSUFFICIENT_RESOURCE, "Insufficient memory"),))
    statuses = {f"t{i}": taint for i in range(2)} | {f"c{i}": cpu for i in range(10)} | {"m": both}
    error = FitError("ns/p", 14, statuses)
    assert error.message() == ("0/14 nodes are available: 1 Insufficient memory, 11 Insufficient cpu, "
                               "2 node(s) had untolerated taint(s).")


def test_prefilter_message_replaces_the_histogram():
    status = Status.unresolvable(Reason.CLAIM_TEMPLATE_NOT_FOUND, 'pod "ns/p": ResourceClaim not created yet')
    assert FitError("ns/p", 3, {"a": status}, status.message).message() == \
        '0/3 nodes are available: pod "ns/p": ResourceClaim not created yet.'


def test_no_nodes():
    assert FitError("ns/p", 0, {}).message() == "no nodes available to schedule pods"
