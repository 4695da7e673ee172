"""Live read of each NUMA-described node's kubelet configuration: GET /api/v1/nodes/{name}/proxy/configz (read-only;
RBAC `get` on `nodes/proxy`). Only nodes with a NodeResourceTopology are asked: without NUMA zones the kubelet config
changes no verdict, and a cluster of thousands of nodes should not cost thousands of requests for nothing.
A 403 or 404 (or any failure) for a node is counted into one gap, never an error.
Upstream: kubernetes/kubernetes cmd/kubelet/app/server.go (initConfigz/setConfigz: `{"kubeletconfig": {...}}`, the
effective config in kubelet.config.k8s.io/v1beta1 with defaults filled in).
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import quote

from kubectl_wasdra.cluster.numa_kinds import CONFIGZ_API_VERSION, CONFIGZ_FIELDS, CONFIGZ_KIND, NRT_KIND

MAX_FAILURES_LISTED: Final = 3


def configz_object(node: str, body: Any) -> dict[str, Any] | None:
    """The snapshot object for one node's configz answer (only CONFIGZ_FIELDS), or None when the body is not a configz
    document."""
    if not isinstance(body, dict) or not isinstance(body.get("kubeletconfig"), dict):
        return None
    config = {key: body["kubeletconfig"][key] for key in CONFIGZ_FIELDS if key in body["kubeletconfig"]}
    return {"apiVersion": CONFIGZ_API_VERSION, "kind": CONFIGZ_KIND, "metadata": {"name": node}, "kubeletconfig": config}


def read_configz(get: Any, gap_type: type[Exception], builder: Any) -> str | None:
    """Add a KubeletConfigz object per node that has a NodeResourceTopology; the gap text, or None when all were read.
    `get(path)` is the live reader's GET; `gap_type` the exception it raises for an unreadable path."""
    nodes = sorted(name for _namespace, name in builder.objects.get(NRT_KIND, {}))
    failures: list[str] = []
    for node in nodes:
        try:
            obj = configz_object(node, get(f"/api/v1/nodes/{quote(node, safe='')}/proxy/configz"))
        except gap_type as gap:
            failures.append(f"{node}: {gap}")
            continue
        if obj is None:
            failures.append(f"{node}: the answer is not a configz document")
        elif builder.add(obj) is not None:
            failures.append(f"{node}: malformed")
    if not failures:
        return None
    shown = "; ".join(failures[:MAX_FAILURES_LISTED])
    more = f" (and {len(failures) - MAX_FAILURES_LISTED} more)" if len(failures) > MAX_FAILURES_LISTED else ""
    return f"kubelet config of {len(failures)} of {len(nodes)} node(s) not read: {shown}{more}"
