"""A live read against a server that pages through an endless node list (every page 500 nodes and a fresh `continue`
token), and one that answers 429 with `Retry-After: 100000` on every list: the object cap (--max-objects) and the retry
budget end both, and the kinds become gaps. The server runs in this process on 127.0.0.1; the read runs as
`kubectl wasdra snapshot --live` in a child process, whose CPU time (user+sys) and peak RSS are printed.

Run: python bench/live_endless_list.py [--scenario endless|throttled] [--max-objects 250000]
The machine is shared, so wall time is noisy: CPU time is the number to compare. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
CORE = {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
    {"name": "nodes", "kind": "Node", "namespaced": False, "verbs": ["list"]},
    {"name": "pods", "kind": "Pod", "namespaced": True, "verbs": ["list"]},
    {"name": "namespaces", "kind": "Namespace", "namespaced": False, "verbs": ["list"]}]}


def _node(index: int) -> dict[str, object]:
    return {"metadata": {"name": f"node-{index:07d}", "labels": {"kubernetes.io/hostname": f"node-{index:07d}",
                                                                   "topology.kubernetes.io/zone": f"z{index % 3}"}},
            "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "110"}}}


_FIXED = {"/version": {"gitVersion": "v1.37.0"}, "/api": {"kind": "APIVersions", "versions": ["v1"]},
          "/apis": {"kind": "APIGroupList", "groups": []}, "/api/v1": CORE,
          "/api/v1/pods": {"kind": "PodList", "metadata": {}, "items": []},
          "/api/v1/namespaces": {"kind": "NamespaceList", "metadata": {}, "items": []}}


def _answer(scenario: str, path: str, query: dict[str, list[str]]) -> tuple[int, object, dict[str, str]]:
    """(status, body, headers) of one GET."""
    if scenario == "throttled" and path.startswith("/api/v1/"):
        return 429, {"kind": "Status", "code": 429}, {"Retry-After": "100000"}
    if path == "/api/v1/nodes":
        start, limit = int(query.get("continue", ["0"])[0]), int(query.get("limit", ["500"])[0])
        return 200, {"kind": "NodeList", "apiVersion": "v1", "metadata": {"continue": str(start + limit)},
                     "items": [_node(i) for i in range(start, start + limit)]}, {}
    if path in _FIXED:
        return 200, _FIXED[path], {}
    return 404, {"kind": "Status", "code": 404}, {}


def _handler(scenario: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            status, body, headers = _answer(scenario, url.path, parse_qs(url.query))
            data = json.dumps(body).encode()
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", "Content-Length": str(len(data)), **headers}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=["endless", "throttled"], default="endless")
    parser.add_argument("--max-objects", type=int, default=250_000)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(args.scenario))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    with tempfile.TemporaryDirectory() as folder:
        kubeconfig = Path(folder) / "kubeconfig"
        kubeconfig.write_text(json.dumps({
            "apiVersion": "v1", "kind": "Config", "current-context": "c",
            "clusters": [{"name": "k", "cluster": {"server": url}}], "users": [{"name": "u", "user": {}}],
            "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}]}))
        argv = [sys.executable, "-m", "kubectl_wasdra", "snapshot", "--live", "--kubeconfig", str(kubeconfig),
                "--max-objects", str(args.max_objects), "--output-file", str(Path(folder) / "snap.json")]
        began = time.monotonic()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)})
        _pid, status, usage = os.wait4(process.pid, 0)
        errors = process.stderr.read().decode() if process.stderr else ""
    server.shutdown()
    print(f"{args.scenario}: exit {os.waitstatus_to_exitcode(status)}, cpu {usage.ru_utime + usage.ru_stime:.1f} s, "
          f"wall {time.monotonic() - began:.1f} s, peak RSS {usage.ru_maxrss / 1024:.0f} MiB")
    print("\n".join(line for line in errors.splitlines() if "not read" in line and "not served" not in line))
    print(f"rerun: python bench/live_endless_list.py --scenario {args.scenario} --max-objects {args.max_objects}")


if __name__ == "__main__":
    main()
