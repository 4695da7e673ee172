"""A real kube-apiserver with etcd on 127.0.0.1 for the live-path e2e suite (tests/e2e/).

Nothing here builds Kubernetes: the kube-apiserver binary is taken from WASDRA_E2E_APISERVER, else
~/.cache/kubectl-wasdra-e2e/bin/kube-apiserver; etcd from WASDRA_E2E_ETCD, else `etcd` on PATH (Debian's etcd-server).
`missing_binaries()` says what is missing, so the tests skip with that reason.

The server runs with certificates made by openssl (a CA, a serving certificate for 127.0.0.1, a client certificate),
a static token file, RBAC, an audit log at Metadata level, a small in-flight limit so that priority and fairness can
be made to reject requests (429), and the 1.36 workload API (scheduling.k8s.io/v1alpha2 with GenericWorkload).
Every process is started here and stopped here, by its own pid.

    python tools/e2e/apiserver.py DIR     # start one in DIR, print its kubeconfig path, stop on Ctrl-C
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

CACHE_BINARY: Final = Path.home() / ".cache" / "kubectl-wasdra-e2e" / "bin" / "kube-apiserver"
# user -> (token, groups); the reader reads everything (and /metrics), no-nodes everything but nodes, throttled is
# put in a priority level of one seat that rejects what does not fit (see PRIORITY_LEVEL)
TOKENS: Final = {
    "admin": ("e2e-admin-token", ("system:masters",)),
    "reader": ("e2e-reader-token", ("wasdra-readers",)),
    "no-nodes": ("e2e-no-nodes-token", ()),
    "no-metrics": ("e2e-no-metrics-token", ()),
    "throttled": ("e2e-throttled-token", ("wasdra-readers",)),
}
CLIENT_CERT_USER: Final = ("cert-reader", "wasdra-readers")  # CN, O of the client certificate
RUNTIME_CONFIG: Final = "scheduling.k8s.io/v1alpha2=true"
FEATURE_GATES: Final = "GenericWorkload=true"
AUDIT_POLICY: Final = {"apiVersion": "audit.k8s.io/v1", "kind": "Policy", "rules": [{"level": "Metadata"}]}
READ_KINDS: Final = {  # what no-nodes may list: every kind the tool reads except nodes
    "": ["pods", "namespaces", "events", "persistentvolumeclaims", "persistentvolumes"],
    "scheduling.k8s.io": ["priorityclasses", "podgroups", "workloads"], "batch": ["jobs"],
    "resource.k8s.io": ["resourceslices", "resourceclaims", "resourceclaimtemplates", "deviceclasses",
                        "devicetaintrules"],
    "storage.k8s.io": ["storageclasses", "csinodes", "csidrivers"], "policy": ["poddisruptionbudgets"],
}


def apiserver_binary() -> Path:
    return Path(os.environ.get("WASDRA_E2E_APISERVER") or CACHE_BINARY)


def etcd_binary() -> str | None:
    return os.environ.get("WASDRA_E2E_ETCD") or shutil.which("etcd")


def missing_binaries() -> str | None:
    """Why the suite cannot run (a binary or openssl missing), or None."""
    if not os.access(apiserver_binary(), os.X_OK):
        return (f"no kube-apiserver at {apiserver_binary()} (build one and set WASDRA_E2E_APISERVER, or put it in "
                f"{CACHE_BINARY})")
    if etcd_binary() is None:
        return "no etcd on PATH (apt-get install etcd-server, or set WASDRA_E2E_ETCD)"
    if shutil.which("openssl") is None:
        return "no openssl on PATH"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _openssl(folder: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)


def make_certificates(folder: Path) -> None:
    """ca.{crt,key}; apiserver.{crt,key} for 127.0.0.1 and localhost; client.{crt,key} (CLIENT_CERT_USER);
    sa.{key,pub} for service account tokens."""
    _openssl(folder, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
             "-days", "3", "-subj", "/CN=wasdra-e2e-ca")
    (folder / "server.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    (folder / "client.ext").write_text("extendedKeyUsage=clientAuth\n")
    for name, subject, ext in (("apiserver", "/CN=kube-apiserver", "server.ext"),
                               ("client", f"/CN={CLIENT_CERT_USER[0]}/O={CLIENT_CERT_USER[1]}", "client.ext")):
        _openssl(folder, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
                 "-subj", subject)
        _openssl(folder, "x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", f"{name}.crt", "-days", "3", "-extfile", ext)
    _openssl(folder, "genrsa", "-out", "sa.key", "2048")
    _openssl(folder, "rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub")


@dataclass
class ApiServer:
    """One etcd and one kube-apiserver in `folder`; `url` once started."""

    folder: Path
    url: str = ""
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def audit_log(self) -> Path:
        return self.folder / "audit.log"

    @property
    def ca(self) -> Path:
        return self.folder / "ca.crt"

    def start(self, timeout: float = 120.0) -> None:
        """Certificates, files, etcd, kube-apiserver; returns once /readyz answers ok and RBAC is in place."""
        self.folder.mkdir(parents=True, exist_ok=True)
        make_certificates(self.folder)
        (self.folder / "tokens.csv").write_text("".join(
            f'{token},{user},{user}-uid,"{",".join(groups)}"\n' for user, (token, groups) in TOKENS.items()))
        (self.folder / "audit-policy.json").write_text(json.dumps(AUDIT_POLICY))
        etcd_client, etcd_peer, port = _free_port(), _free_port(), _free_port()
        self._spawn("etcd", [etcd_binary() or "etcd", "--name", "e2e", "--data-dir", str(self.folder / "etcd"),
                             "--listen-client-urls", f"http://127.0.0.1:{etcd_client}",
                             "--advertise-client-urls", f"http://127.0.0.1:{etcd_client}",
                             "--listen-peer-urls", f"http://127.0.0.1:{etcd_peer}",
                             "--initial-advertise-peer-urls", f"http://127.0.0.1:{etcd_peer}",
                             "--initial-cluster", f"e2e=http://127.0.0.1:{etcd_peer}"])
        self._spawn("kube-apiserver", [str(apiserver_binary()), *self._flags(etcd_client, port)])
        self.url = f"https://127.0.0.1:{port}"
        self._wait_ready(timeout)
        self._rbac()

    def _flags(self, etcd_port: int, port: int) -> list[str]:
        f = self.folder
        return [f"--etcd-servers=http://127.0.0.1:{etcd_port}", "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1", f"--secure-port={port}",
                f"--tls-cert-file={f / 'apiserver.crt'}", f"--tls-private-key-file={f / 'apiserver.key'}",
                f"--client-ca-file={f / 'ca.crt'}", f"--token-auth-file={f / 'tokens.csv'}",
                "--authorization-mode=RBAC", f"--service-account-key-file={f / 'sa.pub'}",
                f"--service-account-signing-key-file={f / 'sa.key'}",
                "--service-account-issuer=https://kubernetes.default.svc", "--service-cluster-ip-range=10.96.0.0/16",
                f"--audit-policy-file={f / 'audit-policy.json'}", f"--audit-log-path={self.audit_log}",
                f"--runtime-config={RUNTIME_CONFIG}", f"--feature-gates={FEATURE_GATES}",
                # no controller creates default service accounts here
                "--disable-admission-plugins=ServiceAccount",
                # a small server: priority and fairness shares 15 seats, so a priority level of one seat is easy to fill
                "--max-requests-inflight=10", "--max-mutating-requests-inflight=5"]

    def _spawn(self, name: str, argv: list[str]) -> None:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 - the process writes it until stop()
        self.processes.append(subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder,
                                               start_new_session=True))

    def _wait_ready(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        last = ""
        while time.monotonic() < end:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"{process.args[0]} exited with {process.returncode}: see {self.folder}")
            try:
                if self.request("GET", "/readyz", raw=True) == b"ok":
                    return
            except (urllib.error.URLError, OSError) as exc:
                last = str(exc)
            time.sleep(0.5)
        raise RuntimeError(f"kube-apiserver not ready within {timeout:g}s ({last}): see {self.folder}")

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca))

    def request(self, method: str, path: str, body: Any = None, *, token: str = TOKENS["admin"][0],
                raw: bool = False) -> Any:
        """One request as `token` (the admin's by default); the decoded JSON answer. HTTPError on failure."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": f"Bearer {token}", "Content-Type": "application/json", "Accept": "application/json"})
        with urllib.request.urlopen(request, context=self.context(), timeout=30) as response:
            payload = response.read()
        return payload if raw else json.loads(payload or b"null")

    def _rbac(self) -> None:
        every = [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["get", "list", "watch"]}]
        metrics = [{"nonResourceURLs": ["/metrics"], "verbs": ["get"]}]
        listed = [{"apiGroups": [group], "resources": names, "verbs": ["get", "list", "watch"]}
                  for group, names in READ_KINDS.items()]
        roles = {"wasdra-reader": every + metrics, "wasdra-no-nodes": listed + metrics, "wasdra-no-metrics": every}
        subjects = {"wasdra-reader": [{"kind": "Group", "name": "wasdra-readers"}],
                    "wasdra-no-nodes": [{"kind": "User", "name": "no-nodes"}],
                    "wasdra-no-metrics": [{"kind": "User", "name": "no-metrics"}]}
        for name, rules in roles.items():
            self.request("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", {
                "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": name},
                "rules": rules})
            self.request("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
                "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": name},
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": name},
                "subjects": [{**s, "apiGroup": "rbac.authorization.k8s.io"} for s in subjects[name]]})
        self._throttle()

    def _throttle(self) -> None:
        """A priority level of one seat that rejects what does not fit, and a flow schema sending the throttled user
        there: concurrent requests of that user get 429 from priority and fairness itself."""
        base = "/apis/flowcontrol.apiserver.k8s.io/v1"
        self.request("POST", f"{base}/prioritylevelconfigurations", {
            "apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration",
            "metadata": {"name": "wasdra-one-seat"},
            "spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": 1, "lendablePercent": 0,
                                                     "borrowingLimitPercent": 0, "limitResponse": {"type": "Reject"}}}})
        self.request("POST", f"{base}/flowschemas", {
            "apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema", "metadata": {"name": "wasdra-throttled"},
            "spec": {"priorityLevelConfiguration": {"name": "wasdra-one-seat"}, "matchingPrecedence": 100,
                     "distinguisherMethod": {"type": "ByUser"},
                     "rules": [{"subjects": [{"kind": "User", "user": {"name": "throttled"}}],
                                "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"],
                                                   "namespaces": ["*"], "clusterScope": True}],
                                "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]}})

    def stop(self) -> None:
        """Stop the processes this object started (SIGTERM, then SIGKILL after 10 s), newest first."""
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)
        self.processes.clear()

    def kubeconfig(self, path: Path, user: dict[str, Any], *, namespace: str = "default", context: str = "e2e",
                   server: str | None = None) -> Path:
        """A kubeconfig for this server (its CA as a file next to it) with `user` (a kubeconfig `user` entry)."""
        config = {"apiVersion": "v1", "kind": "Config", "current-context": context,
                  "clusters": [{"name": context, "cluster": {"server": server or self.url,
                                                            "certificate-authority": str(self.ca)}}],
                  "users": [{"name": context, "user": user}],
                  "contexts": [{"name": context, "context": {"cluster": context, "user": context,
                                                             "namespace": namespace}}]}
        path.write_text(json.dumps(config, indent=1))
        return path


def audit_events(path: Path) -> list[dict[str, Any]]:
    """The audit log's events (one JSON object a line)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    reason = missing_binaries()
    if reason:
        print(reason, file=sys.stderr)
        return 2
    server = ApiServer(Path(argv[1]).resolve())
    try:
        server.start()
        path = server.kubeconfig(server.folder / "admin.kubeconfig", {"token": TOKENS["admin"][0]})
        print(f"kube-apiserver at {server.url}; KUBECONFIG={path}; Ctrl-C stops it")
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
