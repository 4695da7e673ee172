"""A realistic cluster loaded into the e2e kube-apiserver (tools/e2e/apiserver.py) through the API, as an admin.

From fixtures/clusters/two-racks: namespaces, PriorityClasses, DeviceClasses, nodes (the not-ready taint that
admission puts on a new Node removed, as the node lifecycle controller does once the node reports Ready), ResourceSlices,
claim templates, pods (bound ones with their status), and ResourceClaims with their allocations written through the
status subresource, reserved for the pods' real UIDs. Added: a gang (a 1.36 scheduling.k8s.io/v1alpha2 PodGroup with
pods that do not fit), FailedScheduling events about a pod and about the PodGroup, and PAGING_PODS small bound pods in
their own namespace so that every pod list takes several pages.
DeviceTaintRules are left out: 1.36 serves them only in an alpha version that is off by default.
"""

from __future__ import annotations

import copy
import urllib.error
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

import yaml

from kubectl_wasdra.kube.quantity import ceil_value, parse_quantity

ROOT: Final = Path(__file__).resolve().parents[2]
TWO_RACKS: Final = ROOT / "fixtures" / "clusters" / "two-racks"
PAGING_NAMESPACE: Final = "paging"
PAGING_PODS: Final = 600
GANG_PODS: Final = 4
NOT_READY_TAINT: Final = "node.kubernetes.io/not-ready"
# kind -> (API path prefix, plural, namespaced)
PATHS: Final = {
    "Namespace": ("/api/v1", "namespaces", False), "Node": ("/api/v1", "nodes", False),
    "Pod": ("/api/v1", "pods", True), "Event": ("/api/v1", "events", True),
    "PriorityClass": ("/apis/scheduling.k8s.io/v1", "priorityclasses", False),
    "PodGroup": ("/apis/scheduling.k8s.io/v1alpha2", "podgroups", True),
    "DeviceClass": ("/apis/resource.k8s.io/v1", "deviceclasses", False),
    "ResourceSlice": ("/apis/resource.k8s.io/v1", "resourceslices", False),
    "ResourceClaim": ("/apis/resource.k8s.io/v1", "resourceclaims", True),
    "ResourceClaimTemplate": ("/apis/resource.k8s.io/v1", "resourceclaimtemplates", True),
}
ORDER: Final = ("Namespace", "PriorityClass", "DeviceClass", "Node", "ResourceSlice", "ResourceClaimTemplate", "Pod",
                "ResourceClaim", "PodGroup", "Event")


def fixture_objects() -> dict[str, list[dict[str, Any]]]:
    """The two-racks objects by kind (DeviceTaintRules left out), metadata cut to what a client may set."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(TWO_RACKS.glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text()):
            for item in (document or {}).get("items") or [document]:
                if item and item.get("kind") in PATHS:
                    found.setdefault(item["kind"], []).append(_clean(item))
    return found


def _clean(obj: dict[str, Any]) -> dict[str, Any]:
    obj = copy.deepcopy(obj)
    meta = obj.get("metadata") or {}
    for key in ("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"):
        meta.pop(key, None)
    return obj


def collection(kind: str, namespace: str | None) -> str:
    prefix, plural, namespaced = PATHS[kind]
    return f"{prefix}/namespaces/{namespace}/{plural}" if namespaced and namespace else f"{prefix}/{plural}"


def path_of(obj: dict[str, Any]) -> str:
    meta = obj["metadata"]
    return f"{collection(obj['kind'], meta.get('namespace'))}/{meta['name']}"


def create(server: Any, obj: dict[str, Any]) -> dict[str, Any]:
    """POST the object (its status, if any, written through /status afterwards; a Node keeps its status on create,
    as a kubelet registers it); an existing one is read back."""
    body = obj if obj["kind"] == "Node" else {key: value for key, value in obj.items() if key != "status"}
    try:
        made = server.request("POST", collection(obj["kind"], obj["metadata"].get("namespace")), body)
    except urllib.error.HTTPError as exc:
        if exc.code != 409:
            raise RuntimeError(f"{obj['kind']} {obj['metadata']['name']}: {exc.code} {exc.read()[:300]!r}") from None
        made = server.request("GET", path_of(obj))
    if obj.get("status") and obj["kind"] not in ("Namespace", "Node"):
        made = server.request("PUT", path_of(obj) + "/status", {**made, "status": obj["status"]})
    return made


def untaint_node(server: Any, name: str) -> None:
    """Remove the not-ready taint admission put on the new node, as the node lifecycle controller would."""
    node = server.request("GET", f"/api/v1/nodes/{name}")
    taints = [t for t in node["spec"].get("taints") or () if t.get("key") != NOT_READY_TAINT]
    node["spec"]["taints"] = taints
    server.request("PUT", f"/api/v1/nodes/{name}", node)


def _gang(nodes: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A PodGroup of GANG_PODS pods that each ask for more CPU than any node has (so it stays pending)."""
    most = max(ceil_value(parse_quantity(n["status"]["allocatable"]["cpu"])) for n in nodes)
    group = {"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "PodGroup",
             "metadata": {"name": "gang", "namespace": "ml"},
             "spec": {"schedulingPolicy": {"gang": {"minCount": GANG_PODS}}}}
    pods = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"gang-{i}", "namespace": "ml",
                                                             "labels": {"app": "gang"}},
             "spec": {"schedulingGroup": {"podGroupName": "gang"},
                      "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10",
                                      "resources": {"requests": {"cpu": str(most + 1)}}}]}}
            for i in range(GANG_PODS)]
    return [group, *pods]


def _events() -> list[dict[str, Any]]:
    about = (("Pod", "gang-0", "v1"), ("PodGroup", "gang", "scheduling.k8s.io/v1alpha2"))
    return [{"apiVersion": "v1", "kind": "Event", "metadata": {"name": f"{name}.failed", "namespace": "ml"},
             "involvedObject": {"kind": kind, "name": name, "namespace": "ml", "apiVersion": version},
             "reason": "FailedScheduling", "type": "Warning", "source": {"component": "default-scheduler"},
             "firstTimestamp": "2026-12-01T00:00:00Z", "lastTimestamp": "2026-12-01T00:00:00Z", "count": 1,
             "message": "0/10 nodes are available: 10 Insufficient cpu."} for kind, name, version in about]


def _paging_pods(nodes: list[str]) -> list[dict[str, Any]]:
    return [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"filler-{i:04d}", "namespace": PAGING_NAMESPACE},
             "spec": {"nodeName": nodes[i % len(nodes)],
                      "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10",
                                      "resources": {"requests": {"cpu": "1m", "memory": "1Mi"}}}]}}
            for i in range(PAGING_PODS)]


def load_cluster(server: Any, *, workers: int = 6) -> dict[str, int]:
    """Load everything; returns how many objects of each kind now exist from this load."""
    objects = fixture_objects()
    objects["Namespace"].append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": PAGING_NAMESPACE}})
    gang = _gang(objects["Node"])
    objects.setdefault("PodGroup", []).extend(o for o in gang if o["kind"] == "PodGroup")
    objects["Pod"].extend(o for o in gang if o["kind"] == "Pod")
    objects["Pod"].extend(_paging_pods([n["metadata"]["name"] for n in objects["Node"]]))
    objects["Event"] = _events()
    uids: dict[tuple[str, str], str] = {}
    with ThreadPoolExecutor(workers) as pool:
        for kind in ORDER:
            if kind == "ResourceClaim":
                for claim in objects[kind]:
                    _reserve_for_real_pods(claim, uids)
            made = list(pool.map(lambda obj: create(server, obj), objects.get(kind, ())))
            if kind == "Pod":
                uids.update({(m["metadata"]["namespace"], m["metadata"]["name"]): m["metadata"]["uid"] for m in made})
            if kind == "Node":
                list(pool.map(lambda node: untaint_node(server, node["metadata"]["name"]), objects["Node"]))
    return {kind: len(items) for kind, items in objects.items()}


def _reserve_for_real_pods(claim: dict[str, Any], uids: dict[tuple[str, str], str]) -> None:
    namespace = claim["metadata"].get("namespace", "default")
    for entry in (claim.get("status") or {}).get("reservedFor") or ():
        real = uids.get((namespace, entry.get("name")))
        if real:
            entry["uid"] = real
