"""A tiny Kubernetes API server for live-read tests: discovery, /version, /metrics, paginated lists with field selectors,
injected failures.

It serves the objects of a loaded snapshot, records every request (method, path, query), and can be told to answer a path
with a 429 (with Retry-After), a 403, or a slow response a number of times.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

RESOURCES = {  # (group, version) -> [(plural, kind, namespaced)]
    ("", "v1"): [("nodes", "Node", False), ("pods", "Pod", True), ("namespaces", "Namespace", False),
                 ("secrets", "Secret", True), ("configmaps", "ConfigMap", True), ("events", "Event", True)],
    ("scheduling.k8s.io", "v1"): [("priorityclasses", "PriorityClass", False)],
    ("batch", "v1"): [("jobs", "Job", True)],
    ("resource.k8s.io", "v1"): [("resourceslices", "ResourceSlice", False), ("resourceclaims", "ResourceClaim", True),
                                ("resourceclaimtemplates", "ResourceClaimTemplate", True),
                                ("deviceclasses", "DeviceClass", False), ("devicetaintrules", "DeviceTaintRule", False)],
}
# volumes: core/v1 claims and volumes, storage.k8s.io/v1 classes, CSI nodes and drivers
RESOURCES[("", "v1")] += [("persistentvolumeclaims", "PersistentVolumeClaim", True),
                          ("persistentvolumes", "PersistentVolume", False)]
RESOURCES[("storage.k8s.io", "v1")] = [("storageclasses", "StorageClass", False), ("csinodes", "CSINode", False),
                                       ("csidrivers", "CSIDriver", False)]
# preemption: policy/v1 PodDisruptionBudgets
RESOURCES[("policy", "v1")] = [("poddisruptionbudgets", "PodDisruptionBudget", True)]
# RuntimeClass admission of manifests: node.k8s.io/v1 RuntimeClasses
RESOURCES[("node.k8s.io", "v1")] = [("runtimeclasses", "RuntimeClass", False)]
SCHEDULING_V1BETA1 = {("scheduling.k8s.io", "v1beta1"): [("podgroups", "PodGroup", True), ("workloads", "Workload", True)]}
# the field selectors kube-apiserver supports for core/v1 Events (pkg/registry/core/event/strategy.go), the ones used here
EVENT_FIELDS = {"reason": ("reason",), "involvedObject.kind": ("involvedObject", "kind"),
                "involvedObject.name": ("involvedObject", "name")}


@dataclass
class Fault:
    """Answer `path` with `status` (or delay it by `delay` seconds) the next `times` times."""

    status: int | None = None
    delay: float = 0.0
    times: int = 1
    retry_after: str | None = None
    trickle: float = 0.0  # seconds between single bytes of the body (a slow body)
    reset: bool = False  # close the connection after half the body (a reset mid-body)
    redirect: str | None = None  # answer 302 with this Location
    stuck_continue: bool = False  # every page says continue=stuck (a token that never changes)
    on_continue: bool = False  # only requests that carry a continue token (410 Gone: an expired token)


@dataclass
class FakeApiServer:
    objects: Mapping[str, Sequence[dict[str, Any]]]
    faults: dict[str, Fault] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    queries: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    version: str = "v1.37.0"
    resources: dict[tuple[str, str], list[tuple[str, str, bool]]] = field(default_factory=lambda: dict(RESOURCES))
    metrics: str | None = None  # the /metrics body; None answers 403 as for a user without the nonResourceURL
    headers: list[str] = field(default_factory=list)  # names of every request header received (lower case)
    paths: dict[str, Any] = field(default_factory=dict)  # other paths answered 200 with this body (e.g. node proxy configz)
    user_agents: set[str] = field(default_factory=set)  # every User-Agent header received

    def take_fault(self, path: str, continued: bool = False) -> Fault | None:
        with self.lock:
            fault = self.faults.get(path)
            if fault is None or fault.times <= 0 or (fault.on_continue and not continued):
                return None
            fault.times -= 1
            return fault


def _status(code: int, message: str) -> dict[str, Any]:
    return {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message, "code": code}


def _selected(item: dict[str, Any], selector: str) -> bool:
    """Whether an Event matches a fieldSelector such as "reason=FailedScheduling,involvedObject.kind=Pod"."""
    for term in filter(None, selector.split(",")):
        name, _, wanted = term.partition("=")
        value: Any = item
        for key in EVENT_FIELDS[name]:
            value = (value or {}).get(key)
        if value != wanted:
            return False
    return True


def _fixed(server: FakeApiServer, path: str) -> tuple[int, Any] | None:
    """/metrics, /version and the discovery roots; None for other paths."""
    if path in server.paths:
        return 200, server.paths[path]
    if path == "/metrics":
        return (200, server.metrics) if server.metrics is not None else (403, _status(403, 'forbidden: "/metrics"'))
    if path == "/version":
        return 200, {"major": "1", "minor": "37", "gitVersion": server.version}
    if path == "/api":
        return 200, {"kind": "APIVersions", "versions": ["v1"]}
    if path == "/apis":
        groups: dict[str, list[str]] = {}
        for group, version in server.resources:
            if group:
                groups.setdefault(group, []).append(version)
        return 200, {"kind": "APIGroupList", "groups": [
            {"name": g, "versions": [{"groupVersion": f"{g}/{v}", "version": v} for v in vs]} for g, vs in groups.items()]}
    return None


def _route(server: FakeApiServer, path: str, query: dict[str, list[str]]) -> tuple[int, Any]:
    fixed = _fixed(server, path)
    if fixed is not None:
        return fixed
    parts = path.strip("/").split("/")
    group, version, rest = ("", parts[1], parts[2:]) if parts[0] == "api" else (parts[1], parts[2], parts[3:])
    resources = server.resources.get((group, version))
    if resources is None:
        return 404, _status(404, "the server could not find the requested resource")
    if not rest:
        return 200, {"kind": "APIResourceList", "groupVersion": f"{group}/{version}".lstrip("/"), "resources": [
            {"name": n, "kind": k, "namespaced": ns, "verbs": ["get", "list", "watch"]} for n, k, ns in resources]
            + [{"name": "pods/status", "kind": "Pod", "namespaced": True, "verbs": ["get"]}]}
    namespace = None
    if rest[0] == "namespaces" and len(rest) == 3:
        namespace, rest = rest[1], rest[2:]
    kind = next((k for n, k, _ in resources if n == rest[0]), None)
    if kind is None or len(rest) != 1:
        return 404, _status(404, "not found")
    items = [item for item in server.objects.get(kind, ())
             if namespace is None or item["metadata"].get("namespace") == namespace]
    if "fieldSelector" in query:
        items = [item for item in items if _selected(item, query["fieldSelector"][0])]
    limit = int(query.get("limit", ["0"])[0]) or len(items) or 1
    token = query.get("continue", ["0"])[0]
    start = int(token) if token.isdigit() else 0
    page = [{key: value for key, value in item.items() if key not in ("apiVersion", "kind")} for item in
            items[start:start + limit]]
    more = start + limit < len(items)
    return 200, {"apiVersion": f"{group}/{version}".lstrip("/"), "kind": f"{kind}List",
                 "metadata": {"resourceVersion": "42", **({"continue": str(start + limit)} if more else {})}, "items": page}


def _handler(server: FakeApiServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _answer(self) -> None:
            url = urlsplit(self.path)
            with server.lock:
                server.requests.append((self.command, url.path))
                server.queries.append((url.path, url.query))
                server.headers.extend(name.lower() for name in self.headers)
                server.user_agents.add(self.headers.get("User-Agent", ""))
            fault = server.take_fault(url.path, continued="continue=" in url.query)
            if fault is not None and fault.delay:
                time.sleep(fault.delay)
            if fault is not None and fault.redirect:
                self.send_response(302)
                self.send_header("Location", fault.redirect)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if self.command != "GET":
                code, body = 405, _status(405, "method not allowed")
            elif fault is not None and fault.status:
                code, body = fault.status, _status(fault.status, f"injected {fault.status}")
            else:
                code, body = _route(server, url.path, parse_qs(url.query))
            if fault is not None and fault.stuck_continue and isinstance(body, dict):
                body = {**body, "metadata": {**body.get("metadata", {}), "continue": "stuck"}}
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            try:
                self.send_response(code)
                self.send_header("Content-Type", "text/plain; version=0.0.4" if isinstance(body, str) else "application/json")
                self.send_header("Content-Length", str(len(data)))
                if fault is not None and fault.retry_after:
                    self.send_header("Retry-After", fault.retry_after)
                self.end_headers()
                _write(self, data, fault)
            except (BrokenPipeError, ConnectionResetError):
                pass

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

    return Handler


def _write(handler: BaseHTTPRequestHandler, data: bytes, fault: Fault | None) -> None:
    """The body as the fault wants it: whole, one byte at a time (at most 200 bytes, then the connection ends), or cut
    in half with the connection closed."""
    if fault is not None and fault.trickle:
        for index in range(min(len(data), 200)):
            handler.wfile.write(data[index:index + 1])
            handler.wfile.flush()
            time.sleep(fault.trickle)
        handler.close_connection = True
        return
    if fault is not None and fault.reset:
        handler.wfile.write(data[: len(data) // 2])
        handler.wfile.flush()
        handler.close_connection = True
        handler.connection.shutdown(2)
        return
    handler.wfile.write(data)


@contextmanager
def serve(server: FakeApiServer, tls: tuple[str, str] | None = None) -> Iterator[str]:
    """Run the fake server in a thread; yields its base URL (https:// with `tls` = (certificate file, key file))."""
    http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(server))
    http.daemon_threads = True
    if tls is not None:
        import ssl

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        http.socket = context.wrap_socket(http.socket, server_side=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"{'https' if tls else 'http'}://127.0.0.1:{http.server_address[1]}"
    finally:
        http.shutdown()
        http.server_close()


def write_kubeconfig(path: str, url: str, token: str) -> None:
    config = {
        "apiVersion": "v1", "kind": "Config", "current-context": "other",
        "clusters": [{"name": "fake", "cluster": {"server": url}}, {"name": "nowhere", "cluster": {"server": "http://127.0.0.1:9"}}],
        "users": [{"name": "tester", "user": {"token": token}}],
        "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "tester"}},
                     {"name": "other", "context": {"cluster": "nowhere", "user": "tester"}}],
    }
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(config, handle)
