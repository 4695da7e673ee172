"""Read-only live snapshot through the official `kubernetes` client (the only module that imports it).

Kubeconfig and context resolve as kubectl does: `--kubeconfig`, else `KUBECONFIG` (several files merged by kubectl's
rules, cluster/kubeconfig.py), else ~/.kube/config; `--context` picks the context. Requests say
`User-Agent: kubectl-wasdra/<version>`. The server version (/version) and the served group/versions (discovery)
are read first; then each kind the simulator needs is listed on its own, from the newest served version that has it, in
pages (`limit`/`continue`; a continue token that expired, 410 Gone, falls back to one unpaged list as client-go's
pager does), so one unserved or forbidden type never sinks the rest: it becomes a gap in the header.
The API server's feature-gate states come from GET /metrics (cluster/metrics.py); a 403 there is a gap, not an error.
429 and 5xx are retried honouring Retry-After (seconds or an HTTP date), with capped exponential backoff; timeouts and
connections lost mid-body are retried the same way. Time is bounded (cluster/timeouts.py): each request by
--request-timeout, the whole read by --read-deadline, a body by the same request timeout however slowly it trickles,
and its size by cluster/body.py's cap; what runs out becomes a gap. A server that refuses the connection or cannot be
connected to within 3 s is reported at once, in kubectl's words, never retried. Credentials: cluster/live_auth.py.
Only GET requests are made, never for Secrets or ConfigMaps; credentials never appear in messages.
Namespaced kinds are read in all namespaces unless a namespace is given (free node resources need every pod).
Events are read only as far as explain-pending compares with them: core/v1 Events (what `kubectl get events` lists) with
fieldSelector reason=FailedScheduling about Pods and PodGroups, in the namespace of `-n` when one is given.
Upstream: kubectl's list/discovery behaviour (k8s.io/client-go rest, discovery; k8s.io/kubectl get), release-1.37.
"""

from __future__ import annotations

import contextlib
import datetime
import email.utils
import logging
import os
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final
from urllib.parse import quote

import kubernetes
import orjson
import urllib3

from kubectl_wasdra.cluster.body import BodyLimit, read_body
from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.cluster.gaps import FEATURE_GATES_GAP, NOT_SERVED
from kubectl_wasdra.cluster.kubeconfig import trim_token, user_agent
from kubectl_wasdra.cluster.live_auth import bounded_credentials, withhold_over_http
from kubectl_wasdra.cluster.live_limits import (
    DEFAULT_MAX_OBJECTS,
    RETRY_BUDGET,
    RETRY_WAIT_CAP,
    ListProblem,
    ObjectCap,
    RetryBudget,
    page_items,
    page_token,
)
from kubectl_wasdra.cluster.numa_kinds import CONFIGZ_KIND
from kubectl_wasdra.cluster.snapshot import CLUSTER_SCOPED_KINDS, SNAPSHOT_KINDS, ClusterSnapshot, SnapshotHeader
from kubectl_wasdra.cluster.timeouts import DEFAULT_READ_DEADLINE, DEFAULT_REQUEST_TIMEOUT, Deadline
from kubectl_wasdra.errors import ClusterReadError, UsageError

LOG = logging.getLogger(__name__)

# kind -> (group, versions newest first). Versions per release: shared/reference/api-versions.yaml.
KIND_SOURCES: Final[Mapping[str, tuple[str, tuple[str, ...]]]] = MappingProxyType({
    "Node": ("", ("v1",)),
    "Pod": ("", ("v1",)),
    "Namespace": ("", ("v1",)),
    "PriorityClass": ("scheduling.k8s.io", ("v1",)),
    "Job": ("batch", ("v1",)),
    "ResourceSlice": ("resource.k8s.io", ("v1", "v1beta2", "v1beta1", "v1alpha3")),
    "ResourceClaim": ("resource.k8s.io", ("v1", "v1beta2", "v1beta1", "v1alpha3")),
    "ResourceClaimTemplate": ("resource.k8s.io", ("v1", "v1beta2", "v1beta1", "v1alpha3")),
    "DeviceClass": ("resource.k8s.io", ("v1", "v1beta2", "v1beta1", "v1alpha3")),
    "DeviceTaintRule": ("resource.k8s.io", ("v1", "v1beta2", "v1alpha3")),
    "Workload": ("scheduling.k8s.io", ("v1beta1", "v1alpha3", "v1alpha2", "v1alpha1")),
    "PodGroup": ("scheduling.k8s.io", ("v1beta1", "v1alpha3", "v1alpha2")),
    "CompositePodGroup": ("scheduling.k8s.io", ("v1alpha3",)),
    "Event": ("", ("v1",)),
    # volumes (read GET-only like the rest; PersistentVolumeClaims are namespaced, the others cluster-scoped)
    "PersistentVolumeClaim": ("", ("v1",)),
    "PersistentVolume": ("", ("v1",)),
    "StorageClass": ("storage.k8s.io", ("v1",)),
    "CSINode": ("storage.k8s.io", ("v1",)),
    "CSIDriver": ("storage.k8s.io", ("v1",)),
    # preemption: PodDisruptionBudgets (namespaced, read GET-only like the rest)
    "PodDisruptionBudget": ("policy", ("v1",)),
    # RuntimeClass admission of manifests (sched/runtime_class.py): cluster-scoped
    "RuntimeClass": ("node.k8s.io", ("v1",)),
    # NUMA facts (kubelet/facts.py): the NodeResourceTopology CRD when its group is served; KubeletConfigz is no API
    # kind but each node's GET .../proxy/configz (cluster/live_numa.py), read in read_live after the topologies
    "NodeResourceTopology": ("topology.node.k8s.io", ("v1alpha2",)),
})
# Server-side filters per kind. Event field selectors: kubernetes/kubernetes pkg/registry/core/event/strategy.go
# (ToSelectableFields: reason, involvedObject.kind, ...); a selector cannot OR two kinds, so kinds are kept client-side.
FIELD_SELECTORS: Final[Mapping[str, str]] = MappingProxyType({"Event": "reason=FailedScheduling"})
EVENT_OBJECT_KINDS: Final = frozenset({"Pod", "PodGroup"})
NEVER_READ: Final = frozenset({"secrets", "configmaps"})
RETRY_STATUSES: Final = frozenset({429, 500, 502, 503, 504})
CREDENTIALS_GAP: Final = "credentials"  # header.gaps key when credentials were withheld over plain http://


@dataclass(frozen=True)
class LiveOptions:
    """How to reach the cluster and how patiently to read it."""

    kubeconfig: str | None = None
    context: str | None = None
    cluster: str | None = None  # kubectl's --cluster: the kubeconfig cluster to use instead of the context's
    # KUBECONFIG, read where the options are made (the edge), never deep down
    kubeconfig_env: str | None = field(default_factory=lambda: os.environ.get("KUBECONFIG"))
    namespace: str | None = None  # None: all namespaces (-A)
    event_namespace: str | None = None  # Events only: the namespace explain-pending looks at (None: as `namespace`)
    kinds: tuple[str, ...] = SNAPSHOT_KINDS
    page_size: int = 500
    request_timeout: float | None = DEFAULT_REQUEST_TIMEOUT  # seconds per request (None: no limit)
    read_deadline: float | None = DEFAULT_READ_DEADLINE  # seconds for the whole read (None: no limit)
    max_attempts: int = 6
    backoff_base: float = 0.5
    backoff_cap: float = RETRY_WAIT_CAP  # the longest single wait, Retry-After included
    max_objects: int = DEFAULT_MAX_OBJECTS  # per kind (cluster/live_limits.py)
    retry_budget: float = RETRY_BUDGET  # seconds of waiting between retries over the whole read
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False, compare=False)
    clock: Callable[[], float] = field(default=time.time, repr=False, compare=False)

    @classmethod
    def from_flags(cls, flags: Any) -> LiveOptions:
        """From anything carrying --kubeconfig/--context (the CLI's CommonOptions). All namespaces are read: free
        node resources need every pod, so -n there filters what is explained, not what is read; Events are only
        needed for what is explained, so they are read in that namespace."""
        events = None if getattr(flags, "all_namespaces", False) else getattr(flags, "namespace", None)
        return cls(kubeconfig=getattr(flags, "kubeconfig", None), context=getattr(flags, "context", None),
                   cluster=getattr(flags, "cluster", None), event_namespace=events,
                   request_timeout=getattr(flags, "request_timeout", DEFAULT_REQUEST_TIMEOUT),
                   read_deadline=getattr(flags, "read_deadline", DEFAULT_READ_DEADLINE),
                   max_objects=getattr(flags, "max_objects", DEFAULT_MAX_OBJECTS))


@dataclass(frozen=True)
class Progress:
    """One step of a live read, for the CLI's progress display: `kind` listed so far `count` objects (`done` at the end)."""

    kind: str
    count: int
    done: bool = False
    gap: str | None = None


class _Gap(Exception):
    """A kind could not be read; the message says why (never containing credentials)."""


class _Retry(Exception):
    """One attempt failed in a way worth another (429, 5xx, a timeout, a connection lost mid-body)."""

    def __init__(self, message: str, *, retry_after: str | None = None, final: bool = False) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.final = final


class _Unreachable(_Gap):
    """No connection could be opened at all (refused, no route, name unknown, connect timeout): never retried."""


@dataclass(frozen=True)
class _Resource:
    group: str
    version: str
    name: str
    kind: str
    namespaced: bool

    @property
    def group_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def path(self, namespace: str | None) -> str:
        base = f"/apis/{self.group}/{self.version}" if self.group else f"/api/{self.version}"
        if namespace and self.namespaced:
            return f"{base}/namespaces/{quote(namespace, safe='')}/{self.name}"
        return f"{base}/{self.name}"


class _Reader:
    """GET requests with retries on one ApiClient, each within the read's Deadline."""

    def __init__(self, api: Any, options: LiveOptions) -> None:
        self.api = api
        self.options = options
        self.deadline = Deadline(options.read_deadline, options.request_timeout)
        self.budget = RetryBudget(options.retry_budget)
        self.server = _host_port(str(api.configuration.host or ""))

    def get(self, path: str, query: Sequence[tuple[str, str | int]] = ()) -> Any:
        """The decoded JSON body of GET path?query; raises _Gap (status-specific message) when it cannot be read."""
        body = self.fetch(path, query)
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError as exc:
            raise _Gap(f"the server sent invalid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise _Gap(f"the server sent JSON that is not an object ({type(data).__name__})")
        return data

    def fetch(self, path: str, query: Sequence[tuple[str, str | int]] = (), accept: str = "application/json") -> bytes:
        """The raw body of GET path?query; raises _Gap (status-specific message) when it cannot be read."""
        if path.rstrip("/").rsplit("/", 1)[-1] in NEVER_READ:  # defence in depth: the kind table never lists them
            raise _Gap("not read: Secrets and ConfigMaps are never read")
        last, attempt = "no attempt made", 0
        for attempt in range(self.options.max_attempts):
            self._check_deadline(attempt, last)
            try:
                return self._attempt(path, query, accept)
            except _Retry as retry:
                last = str(retry)
                if retry.final:
                    break
                if not self._wait(attempt, retry.retry_after):
                    raise _Gap(f"gave up after {attempt + 1} attempt(s): {last}; {self.budget.exhausted()}") from None
        raise _Gap(f"gave up after {attempt + 1} attempts: {last}")

    def _attempt(self, path: str, query: Sequence[tuple[str, str | int]], accept: str) -> bytes:
        """One GET: the body, or _Retry (worth another attempt), _Unreachable or _Gap."""
        timeout = self.deadline.timeout()
        try:
            response = self._request(path, query, accept, timeout)
            if 200 <= response.status < 300:
                return read_body(response.response, timeout)
        except urllib3.exceptions.NewConnectionError as exc:
            raise _Unreachable(_connect_failure(self.server, exc)) from None
        except urllib3.exceptions.ConnectTimeoutError:
            raise _Unreachable(f"Unable to connect to the server {self.server}: no answer within "
                               f"{self.deadline.connect_timeout():g}s") from None
        except BodyLimit as exc:
            raise _Gap(f"{exc} (--request-timeout)" if "within" in str(exc) else str(exc)) from None
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            # the first request: a server that does not answer /version will not answer the lists either
            final = path == "/version" and isinstance(exc, urllib3.exceptions.TimeoutError)
            raise _Retry(f"timed out or connection lost ({type(exc).__name__})", final=final) from None
        except kubernetes.client.exceptions.ApiException as exc:  # the client's wrapper for TLS failures
            raise _Gap(f"TLS error: {_one_line(exc.reason)}") from None
        message = _status_message(response)
        if response.status in RETRY_STATUSES:
            raise _Retry(f"{response.status} {message}", retry_after=response.headers.get("Retry-After"))
        raise _Gap(_failure(response.status, message))

    def _check_deadline(self, attempts: int = 0, last: str = "") -> None:
        """_Gap when the read's deadline has passed; after failed attempts (429s ...) it says what they met."""
        if not self.deadline.passed:
            return
        if attempts:
            raise _Gap(f"gave up after {attempts} attempt{'s' if attempts > 1 else ''}: {last}; the whole read may "
                       f"take {self.options.read_deadline:g}s (--read-deadline), and that time was up")
        raise _Gap(f"not read: the whole read may take {self.options.read_deadline:g}s (--read-deadline), "
                   "and that time was up")

    def _request(self, path: str, query: Sequence[tuple[str, str | int]], accept: str, timeout: float | None) -> Any:
        method, url, headers, _body, _post = self.api.param_serialize(
            "GET", path, query_params=list(query), header_params={"Accept": accept},
            auth_settings=["BearerToken"])
        limits = (self.deadline.connect_timeout(), timeout)
        return self.api.call_api(method, url, header_params=headers, _request_timeout=limits)

    def _wait(self, attempt: int, retry_after: str | None) -> bool:
        """Sleep before the next attempt: Retry-After when the server sent one, else 0.5 s doubling; capped, never
        past the read's deadline, and within the read's retry budget (False when that is spent: give up)."""
        if attempt + 1 >= self.options.max_attempts:
            return True
        delay = self.options.backoff_base * 2**attempt
        after = _retry_after(retry_after, self.options.clock())
        left = self.deadline.left()
        pause = self.budget.wait(min(delay if after is None else after, self.options.backoff_cap))
        if pause is None:
            return False
        self.options.sleep(pause if left is None else min(pause, left))
        return True


def _one_line(text: object) -> str:
    """The client's multi-line error text ("SSLError\\n[SSL: ...] ...") as one line, its lines joined with ": "."""
    return ": ".join(" ".join(line.split()) for line in str(text).splitlines() if line.strip())


def _host_port(url: str) -> str:
    """HOST:PORT of a server URL, as kubectl names it in connection errors (default ports filled in)."""
    parsed = urllib3.util.parse_url(url)
    port = parsed.port or (80 if parsed.scheme == "http" else 443)
    host = f"[{parsed.host}]" if parsed.host and ":" in parsed.host and not parsed.host.startswith("[") else parsed.host
    return f"{host}:{port}"


def _connect_failure(server: str, exc: Exception) -> str:
    """kubectl's words for a connection that could not be opened (k8s.io/kubectl/pkg/cmd/util/helpers.go)."""
    text = str(exc)
    if "refused" in text.lower():
        return f"The connection to the server {server} was refused - did you specify the right host or port?"
    reason = text.rpartition(": ")[2] or type(exc).__name__
    return f"Unable to connect to the server {server}: {reason}"


def _retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header: delay-seconds, or an HTTP-date (RFC 7231 7.1.3; a date in the past
    means now); None when absent or unreadable. kube-apiserver sends seconds, proxies in front of it may send dates."""
    if value is None:
        return None
    text = value.strip()
    if text.replace(".", "", 1).isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 850 / asctime forms carry no zone: they are GMT
        when = when.replace(tzinfo=datetime.UTC)
    return max(when.timestamp() - now, 0.0)


def _status_message(response: Any) -> str:
    """The message of a metav1.Status body, else the HTTP reason."""
    try:
        body = orjson.loads(read_body(response.response, 10.0, cap=1 << 20))
    except (orjson.JSONDecodeError, TypeError, BodyLimit, urllib3.exceptions.HTTPError, OSError):
        body = None
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return body["message"]
    return str(response.reason or "")


def _failure(status: int, message: str) -> str:
    if status == 403:
        return f"403 Forbidden: {message}"
    if status == 404:
        return "not served by the server (404)"
    return f"{status}: {message}"


def _client(options: LiveOptions) -> tuple[Any, bool]:
    """An ApiClient for the kubeconfig/context with the client's own retries off (retries are ours), and whether
    credentials were withheld because the server is plain http://."""
    configuration = kubernetes.client.Configuration()
    context = options.context
    try:
        merged = _kubeconfig(options)
        if options.cluster:
            from kubectl_wasdra.cluster.kubeconfig import with_cluster

            merged, context = with_cluster(merged, options.context, options.cluster)
    except UsageError as exc:  # name the kubeconfig the user chose (or defaulted to), not a flag never given
        raise UsageError(f"cannot use the kubeconfig: {exc.message}", where=kubeconfig_source(options),
                         hint=exc.hint) from None
    try:
        kubernetes.config.load_kube_config_from_dict(merged, context=context,
                                                     client_configuration=configuration, persist_config=False)
    except kubernetes.config.ConfigException as exc:
        raise _kubeconfig_error(exc, options) from None
    except (TypeError, AttributeError, KeyError, ValueError) as exc:  # the library reads some fields unchecked
        raise _kubeconfig_error(f"not a kubeconfig the client library can read ({type(exc).__name__})", options) from None
    configuration.retries = False
    trim_token(configuration)
    withheld = withhold_over_http(configuration)
    api = kubernetes.client.ApiClient(configuration)
    api.user_agent = user_agent()
    return api, withheld


def _kubeconfig(options: LiveOptions) -> dict[str, Any]:
    """The kubeconfig kubectl would use: --kubeconfig, else KUBECONFIG's files merged by kubectl's rules
    (cluster/kubeconfig.py), else ~/.kube/config."""
    from kubectl_wasdra.cluster.kubeconfig import kubeconfig_files, merged_kubeconfig

    return merged_kubeconfig(kubeconfig_files(options.kubeconfig, options.kubeconfig_env))


def _kubeconfig_error(exc: Exception | str, options: Any) -> UsageError:
    return UsageError(f"cannot use the kubeconfig: {exc}", where=kubeconfig_source(options),
                      hint="check KUBECONFIG, --kubeconfig, --context and --cluster (kubectl config get-contexts)")


def kubeconfig_source(options: Any) -> str:
    """Which kubeconfig (and context) was used, as the user chose it: "--kubeconfig F", "KUBECONFIG=F" or the
    default file, never a flag that was not given. The client reads KUBECONFIG itself; this only names it."""
    kubeconfig = getattr(options, "kubeconfig", None)
    if kubeconfig:
        where = f"--kubeconfig {kubeconfig}"
    elif os.environ.get("KUBECONFIG"):
        where = f"KUBECONFIG={os.environ['KUBECONFIG']}"
    else:
        where = "~/.kube/config (the default kubeconfig; no KUBECONFIG or --kubeconfig)"
    chosen = [f"--{flag} {value}" for flag in ("context", "cluster") if (value := getattr(options, flag, None))]
    return ", ".join([where, *chosen])


def _discover(reader: _Reader) -> tuple[list[str], dict[tuple[str, str], list[_Resource]]]:
    """Served group/versions, and the resources of the group/versions the snapshot may read."""
    try:
        core, groups = reader.get("/api"), reader.get("/apis")
    except _Gap as gap:
        raise ClusterReadError(f"cannot read which APIs the server serves (discovery): {gap}",
                               hint="check the credentials and the cluster address (kubectl api-versions)") from None
    served = [version for version in _list_of(core.get("versions")) if isinstance(version, str)]
    wanted = {(group, version) for group, versions in KIND_SOURCES.values() for version in versions}
    resources: dict[tuple[str, str], list[_Resource]] = {}
    for group in _list_of(groups.get("groups")):
        for entry in _list_of(group.get("versions") if isinstance(group, dict) else None):
            if isinstance(entry, dict) and isinstance(entry.get("groupVersion"), str):
                served.append(entry["groupVersion"])
    for group_version in served:
        group, _, version = group_version.rpartition("/")
        if (group, version) not in wanted:
            continue
        path = f"/apis/{group_version}" if group else f"/api/{version}"
        try:
            listing = reader.get(path)
        except _Gap as gap:
            LOG.debug("discovery of %s failed: %s", group_version, gap)
            continue
        resources[(group, version)] = [
            _Resource(group, version, item["name"], item.get("kind", ""), bool(item.get("namespaced")))
            for item in _list_of(listing.get("resources"))
            if isinstance(item, dict) and isinstance(item.get("name"), str) and "/" not in item["name"]]
    return sorted(set(served)), resources


def _list_of(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _resource_for(kind: str, resources: Mapping[tuple[str, str], list[_Resource]]) -> _Resource | None:
    group, versions = KIND_SOURCES[kind]
    for version in versions:
        for resource in resources.get((group, version), ()):
            if resource.kind == kind:
                return resource
    return None


def _list(reader: _Reader, resource: _Resource, namespace: str | None,
          report: Callable[[int], None]) -> list[dict[str, Any]]:
    """Every object of one resource, page by page; when a continue token expires (410 Gone: the server compacted past
    it), one list without paging, as client-go's pager does (k8s.io/client-go/tools/pager FullListIfExpired)."""
    items: list[dict[str, Any]] = []
    token: str | None = None
    seen: set[str] = set()
    cap = ObjectCap(reader.options.max_objects, reader.options.page_size)
    while True:
        query: list[tuple[str, str | int]] = [("limit", reader.options.page_size), *_selector(resource)]
        if token:
            query.append(("continue", token))
        try:
            page = reader.get(resource.path(namespace), query)
        except _Gap as gap:
            if token and str(gap).startswith("410"):
                return _unpaged(reader, resource, namespace, report)
            raise
        page_objects, token = _checked_page(page, resource.kind, cap, seen, len(items))
        items.extend(_items(page_objects, resource))
        report(len(items))
        if token is None:
            return items


def _selector(resource: _Resource) -> list[tuple[str, str | int]]:
    return [("fieldSelector", FIELD_SELECTORS[resource.kind])] if resource.kind in FIELD_SELECTORS else []


def _items(page_objects: list[Any], resource: _Resource) -> list[dict[str, Any]]:
    return [{"apiVersion": resource.group_version, "kind": resource.kind, **item}
            for item in page_objects if isinstance(item, dict)]


def _unpaged(reader: _Reader, resource: _Resource, namespace: str | None,
             report: Callable[[int], None]) -> list[dict[str, Any]]:
    """The whole list in one response (no limit, no continue): the pager's fallback after 410 Gone."""
    cap = ObjectCap(reader.options.max_objects, reader.options.page_size)
    page_objects, _token = _checked_page(reader.get(resource.path(namespace), _selector(resource)), resource.kind, cap,
                                         set(), 0)
    items = _items(page_objects, resource)
    report(len(items))
    return items


def _checked_page(page: Mapping[str, Any], kind: str, cap: ObjectCap, seen: set[str],
                  count: int) -> tuple[list[Any], str | None]:
    """The items and continue token of one page (cluster/live_limits.py); _Gap for a body that is no well-formed
    list, a kind past its object cap, or a token sent before."""
    try:
        items = page_items(page, kind)
        cap.add(len(items))
        token = page_token(page)
    except ListProblem as problem:
        raise _Gap(str(problem)) from None
    return items, _next_token(token, seen, count + len(items))


def _next_token(token: str | None, seen: set[str], count: int) -> str | None:
    """The page's continue token (None at the end); _Gap for a token sent before, which would page forever."""
    if not token:
        return None
    if token in seen:
        raise _Gap(f"incomplete: the server sent the same continue token twice (after {count} objects)")
    seen.add(token)
    return token


def _server_version(reader: _Reader) -> str:
    try:
        return str(reader.get("/version").get("gitVersion") or "")
    except _Unreachable as gap:
        raise ClusterReadError(str(gap), hint="check the cluster address in the kubeconfig (kubectl config view)") from None
    except _Gap as gap:
        raise ClusterReadError(f"cannot read the server version: {gap}", hint=_version_hint(str(gap))) from None


def _version_hint(gap: str) -> str:
    """What to do when /version could not be read, by what went wrong (throttling is no address problem)."""
    if " 429 " in f" {gap}" or ": 429" in gap:
        return ("the API server is throttling this client (API priority and fairness): try again later, or allow more "
                "time with --read-deadline")
    if gap.startswith("TLS error"):
        return "check the cluster's certificate-authority and server name in the kubeconfig (kubectl config view)"
    return "check the cluster address and credentials"


def _feature_gates(reader: _Reader) -> tuple[dict[str, bool], str | None]:
    """The API server's gate states from GET /metrics, or ({}, why) when it cannot be read (403 for most users)."""
    from kubectl_wasdra.cluster.metrics import parse_feature_gates

    try:
        body = reader.fetch("/metrics", accept="text/plain")
    except _Gap as gap:
        return {}, str(gap)
    gates = parse_feature_gates(body.decode("utf-8", errors="replace"))
    return gates, None if gates else "/metrics has no kubernetes_feature_enabled samples"


@contextlib.contextmanager
def _session(options: LiveOptions | Any) -> Iterator[tuple[_Reader, bool]]:
    """A reader for LiveOptions or the CLI's flags (LiveOptions.from_flags), with exec plugins bounded by the request
    timeout and temporary credential files removed at the end; yields (reader, credentials withheld)."""
    if not isinstance(options, LiveOptions):
        options = LiveOptions.from_flags(options)
    with bounded_credentials(options.request_timeout) as failures, warnings.catch_warnings():
        # insecure-skip-tls-verify: urllib3 warns on every request; once says it (kubectl says nothing at all)
        warnings.filterwarnings("once", category=urllib3.exceptions.InsecureRequestWarning)
        api, withheld = _client(options)
        withheld = withheld or failures.withheld
        if failures:
            raise ClusterReadError(f"cannot get credentials: {failures[0]}", where=kubeconfig_source(options),
                                   hint="check the exec plugin of the kubeconfig user (kubectl config view)")
        yield _Reader(api, options), withheld


def read_live(options: LiveOptions | Any, progress: Callable[[Progress], None] | None = None) -> ClusterSnapshot:
    """A read-only snapshot of the cluster; kinds that cannot be read are listed in `header.gaps` with the reason.
    `options` is LiveOptions or the CLI's flags (LiveOptions.from_flags). Raises UsageError for a bad kubeconfig or
    context and ClusterReadError when the cluster cannot be reached at all."""
    notify = progress or (lambda _event: None)
    with _session(options) as (reader, withheld):
        version = _server_version(reader)
        served, resources = _discover(reader)
        builder = SnapshotBuilder()
        gaps: dict[str, str] = {}
        if withheld:
            gaps[CREDENTIALS_GAP] = "not sent: the server URL is plain http:// (use https:// in the kubeconfig)"
        gates, why = _feature_gates(reader)
        if why:
            gaps[FEATURE_GATES_GAP] = why
        for kind in reader.options.kinds:
            gap = _read_configz(reader, builder) if kind == CONFIGZ_KIND else _read_kind(reader, kind, resources, builder,
                                                                                          notify)
            if gap:
                gaps[kind] = gap
    builder.add_header(SnapshotHeader(
        server_version=version, taken_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), served=tuple(served),
        gaps=MappingProxyType(gaps), feature_gates=MappingProxyType(gates)))
    return builder.build()


def _read_configz(reader: _Reader, builder: SnapshotBuilder) -> str | None:
    """Each NUMA-described node's kubelet config (cluster/live_numa.py); the gap, or None."""
    from kubectl_wasdra.cluster.live_numa import read_configz

    return read_configz(reader.get, _Gap, builder)


def _read_kind(reader: _Reader, kind: str, resources: Mapping[tuple[str, str], list[_Resource]], builder: SnapshotBuilder,
               notify: Callable[[Progress], None]) -> str | None:
    """List one kind into the builder; the reason it could not be read, or None."""
    resource = _resource_for(kind, resources)
    if resource is None:
        group, versions = KIND_SOURCES[kind]
        gap = f"{NOT_SERVED} by the server (looked for {', '.join(f'{group}/{v}' if group else v for v in versions)})"
        notify(Progress(kind, 0, done=True, gap=gap))
        return gap
    namespace = None if kind in CLUSTER_SCOPED_KINDS else reader.options.namespace
    if kind == "Event" and namespace is None:
        namespace = reader.options.event_namespace  # a filter explain-pending asked for, not a gap
    try:
        items = _list(reader, resource, namespace, lambda count: notify(Progress(kind, count)))
    except _Gap as gap:
        notify(Progress(kind, 0, done=True, gap=str(gap)))
        return str(gap)
    skipped = 0
    for item in items:
        if kind == "Event" and not _is_wanted_event(item):
            continue
        if builder.add(item) is not None:
            skipped += 1
    notify(Progress(kind, len(items), done=True))
    if skipped:
        return f"{skipped} malformed object(s) skipped"
    if not reader.options.namespace or not resource.namespaced:
        return None
    return f"only namespace {namespace!r} was read"


def _is_wanted_event(event: Mapping[str, Any]) -> bool:
    """A FailedScheduling event about a Pod or PodGroup (the server filtered on reason; kinds are checked here)."""
    involved = event.get("involvedObject") or event.get("regarding")
    return (isinstance(involved, dict) and involved.get("kind") in EVENT_OBJECT_KINDS
            and event.get("reason") == FIELD_SELECTORS["Event"].partition("=")[2])
