"""Random scheduling scenarios for differential testing against kube-scheduler (tools/oracle).

A scenario is what `kubectl wasdra explain` takes: a snapshot (nodes, bound pods, classes, slices, ...) and manifests
(the pending pods and what they refer to), in API shape. `generate(seed)` is deterministic: the stored corpus keeps
only the seed and the oracle's verdict, and this module rebuilds the scenario (tests/oracle/corpus.jsonl carries a
digest of every scenario, so a change here that alters one is caught). Only `random.Random` with an integer seed and
its `random`/`randrange`/`choice`/`sample`/`shuffle` are used: their output is stable across Python versions.

Objects are valid for Kubernetes 1.36 (the oracle's release): PodGroups are scheduling.k8s.io/v1alpha2, DRA objects
resource.k8s.io/v1, DeviceTaintRules resource.k8s.io/v1beta2.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any, Final

from kubectl_wasdra.kube.quantity import parse_quantity

RELEASE: Final = "1.36"
FEATURE_GATES: Final = {"GangScheduling": True, "GenericWorkload": True, "TopologyAwareWorkloadScheduling": True}
RUNTIME_CONFIG: Final = {"scheduling.k8s.io/v1alpha2": True}
DRIVER: Final = "gpu.example.com"
NIC_DRIVER: Final = "nic.example.com"
ZONE, RACK, HOST = "topology.kubernetes.io/zone", "example.com/rack", "kubernetes.io/hostname"
NUMA: Final = "resource.kubernetes.io/numaNode"
GPU_RESOURCE: Final = "example.com/gpu"
FAMILIES: Final = ("basic", "taints", "affinity", "interpod", "spread", "ports", "priority", "preempt", "dra",
                   "dra-advanced", "gang", "gang-topology", "mixed")
MODELS: Final = ("a100", "h100")


def family_of(seed: int) -> str:
    """The scenario family: seeds cycle through them so that every family is equally represented."""
    return FAMILIES[seed % len(FAMILIES)]


def digest(scenario: dict[str, Any]) -> str:
    """A short digest of the scenario's objects: the stored verdict belongs to exactly these objects."""
    text = json.dumps([scenario["snapshot"], scenario["manifests"]], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def generate(seed: int) -> dict[str, Any]:
    """The scenario of `seed`: {"id", "family", "featureGates", "snapshot": [...], "manifests": [...]}."""
    rng = random.Random(seed)
    family = family_of(seed)
    features = _features(rng, family)
    gen = _Gen(rng, features, dense=family == "preempt")
    gen.build()
    return {"id": f"s{seed:05d}", "seed": seed, "family": family, "featureGates": dict(FEATURE_GATES),
            "snapshot": gen.snapshot, "manifests": gen.manifests}


ALL_FEATURES: Final = ("taints", "affinity", "interpod", "spread", "ports", "priority", "preempt", "dra",
                       "dra-advanced", "gang", "gang-topology", "extended", "runtime", "unschedulable")


def _features(rng: random.Random, family: str) -> frozenset[str]:
    if family == "basic":
        return frozenset(f for f in ("extended", "runtime", "unschedulable") if rng.random() < 0.4)
    if family == "mixed":
        return frozenset(f for f in ALL_FEATURES if rng.random() < 0.3)
    extra = {"preempt": {"priority"}, "dra-advanced": {"dra"}, "gang-topology": {"gang"}}.get(family, set())
    return frozenset({family, *extra} | {f for f in ("taints", "extended") if rng.random() < 0.2})


def _meta(name: str, namespace: str | None = None, labels: dict[str, str] | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if namespace is not None:
        meta["namespace"] = namespace
    if labels:
        meta["labels"] = labels
    return meta


class _Gen:
    """Builds one scenario; `has(feature)` says what the scenario exercises."""

    def __init__(self, rng: random.Random, features: frozenset[str], dense: bool = False) -> None:
        """`dense`: nodes filled with lower-priority pods and pending pods of higher priority (preemption)."""
        self.rng, self.features, self.dense = rng, features, dense
        self.snapshot: list[dict[str, Any]] = []
        self.manifests: list[dict[str, Any]] = []
        self.nodes: list[dict[str, Any]] = []
        self.classes: list[tuple[str, int, str]] = []  # name, value, preemptionPolicy
        self.used: dict[str, dict[str, float]] = {}
        self.gpu_nodes: list[str] = []
        self.pod_count = 0
        self.templates: list[str] = []

    def has(self, feature: str) -> bool:
        return feature in self.features

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # ---- cluster ----------------------------------------------------------------------------------------------
    def build(self) -> None:
        self.snapshot.append({"apiVersion": "v1", "kind": "Namespace", "metadata": _meta("default")})
        admin = {"resource.kubernetes.io/admin-access": "true"}
        self.snapshot.append({"apiVersion": "v1", "kind": "Namespace", "metadata": _meta("ops", labels=admin)})
        self._nodes()
        if self.has("priority") or self.has("preempt") or self.chance(0.15):
            self._priority_classes()
        if self.has("runtime"):
            self.snapshot.append({"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": _meta("kata"),
                                  "handler": "kata", "overhead": {"podFixed": {"cpu": "250m", "memory": "128Mi"}}})
        if self.has("dra"):
            self._dra_cluster()
        self._bound_pods()
        if self.has("preempt"):
            self._pdbs()
        self._pending()

    def _nodes(self) -> None:
        rng = self.rng
        size = rng.choice((1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 30, 50))
        if self.chance(0.04):
            size = rng.choice((80, 100, 150, 200, 300))
        zones = rng.choice((1, 2, 3))
        racks = rng.choice((2, 3, 4))
        shapes = [(rng.choice(("2", "4", "8", "16", "32")), rng.choice(("4Gi", "8Gi", "16Gi", "32Gi", "64Gi")))
                  for _ in range(rng.choice((1, 2, 3)))]
        for i in range(size):
            name = f"n{i:03d}"
            cpu, memory = rng.choice(shapes)
            alloc = {"cpu": cpu, "memory": memory, "pods": str(rng.choice((110, 110, 110, 4)))}
            if self.has("extended") and self.chance(0.6):
                alloc[GPU_RESOURCE] = str(rng.choice((1, 2, 4, 8)))
            labels = {HOST: name, ZONE: f"z{i % zones}", RACK: f"r{(i // 2) % racks}",
                      "example.com/tier": rng.choice(("gold", "silver", "bronze"))}
            spec: dict[str, Any] = {}
            if self.has("taints") and self.chance(0.4):
                spec["taints"] = [self._taint() for _ in range(rng.choice((1, 1, 2)))]
            if self.has("unschedulable") and self.chance(0.2):
                spec["unschedulable"] = True
            node = {"apiVersion": "v1", "kind": "Node", "metadata": _meta(name, labels=labels), "spec": spec,
                    "status": {"capacity": dict(alloc), "allocatable": alloc}}
            self.nodes.append(node)
            self.snapshot.append(node)

    def _taint(self) -> dict[str, str]:
        rng = self.rng
        key = rng.choice(("dedicated", "example.com/maintenance", "gpu"))
        effect = rng.choice(("NoSchedule", "NoSchedule", "PreferNoSchedule", "NoExecute"))
        taint = {"key": key, "effect": effect}
        if key != "gpu":
            taint["value"] = rng.choice(("a", "b"))
        return taint

    def _priority_classes(self) -> None:
        rng = self.rng
        for name, value in (("low", 100), ("mid", 1000), ("high", 10000)):
            pc: dict[str, Any] = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": _meta(name),
                                  "value": value}
            if name == "low" and self.chance(0.3):
                pc["globalDefault"] = True
            policy = "Never" if name != "low" and self.chance(0.3) else "PreemptLowerPriority"
            if policy == "Never":
                pc["preemptionPolicy"] = policy
            self.classes.append((name, value, policy))
            self.snapshot.append(pc)
        rng.shuffle(self.classes)

    # ---- DRA ----------------------------------------------------------------------------------------------------
    def _dra_cluster(self) -> None:
        rng = self.rng
        self.snapshot.append({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": _meta(DRIVER),
                              "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{DRIVER}"'}}]}})
        advanced = self.has("dra-advanced")
        partition = advanced and self.chance(0.35)
        consumable = advanced and not partition and self.chance(0.4)
        if consumable:
            self.snapshot.append({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": _meta(NIC_DRIVER),
                                  "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{NIC_DRIVER}"'}}]}})
        self.partition, self.consumable = partition, consumable
        for node in self.nodes:
            if not self.chance(0.75):
                continue
            name = node["metadata"]["name"]
            if partition:
                self._partitioned_pool(name)
            else:
                self._gpu_slice(name, advanced)
                self.gpu_nodes.append(name)
            if consumable:
                self._nic_slice(name)
        if advanced and self.chance(0.2):
            self.snapshot.append({"apiVersion": "resource.k8s.io/v1beta2", "kind": "DeviceTaintRule",
                                  "metadata": _meta("drain-one"),
                                  "spec": {"deviceSelector": {"driver": DRIVER,
                                                              "pool": self.rng.choice(self.nodes)["metadata"]["name"]},
                                           "taint": {"key": "example.com/drain", "value": "yes",
                                                     "effect": "NoSchedule"}}})
        for i in range(rng.choice((1, 2, 3))):
            self._template(f"t{i}", advanced)
        if advanced and self.chance(0.3):  # a monitoring pod in an admin namespace may use devices already in use
            self.snapshot.append({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                                  "metadata": _meta("admin", "ops"), "spec": {"spec": {"devices": {"requests": [
                                      {"name": "gpu", "exactly": {"deviceClassName": DRIVER, "adminAccess": True}}]}}}})
            self.admin_template = True

    def _gpu_slice(self, node: str, advanced: bool) -> None:
        rng = self.rng
        count = rng.choice((1, 2, 4, 8))
        model = rng.choice(MODELS)
        numa_split = rng.choice((1, 2)) if count > 1 else 1
        devices = []
        for i in range(count):
            dev: dict[str, Any] = {"name": f"gpu-{i}", "attributes": {
                "model": {"string": model}, "index": {"int": i}, NUMA: {"int": i * numa_split // count}},
                "capacity": {"memory": {"value": "80Gi" if model == "h100" else "40Gi"}}}
            if advanced and self.chance(0.1):
                dev["taints"] = [{"key": "example.com/unhealthy", "value": "ecc",
                                  "effect": rng.choice(("NoSchedule", "NoExecute"))}]
            devices.append(dev)
        self.snapshot.append({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
                              "metadata": _meta(f"{node}-gpu"),
                              "spec": {"driver": DRIVER, "nodeName": node,
                                       "pool": {"name": node, "generation": 1, "resourceSliceCount": 1},
                                       "devices": devices}})

    def _partitioned_pool(self, node: str) -> None:
        """Partitionable devices: one slice holds the counters, the other the whole GPU and its halves."""
        pool = {"name": node, "generation": 1, "resourceSliceCount": 2}
        self.snapshot.append({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
                              "metadata": _meta(f"{node}-counters"),
                              "spec": {"driver": DRIVER, "nodeName": node, "pool": pool,
                                       "sharedCounters": [{"name": "gpu-0-mem", "counters": {"memory": {"value": "80Gi"}}}]}})
        devices = []
        for name, mem, part in (("gpu-0", "80Gi", "whole"), ("gpu-0-a", "40Gi", "half"), ("gpu-0-b", "40Gi", "half")):
            devices.append({"name": name, "attributes": {"model": {"string": "h100"}, "partition": {"string": part},
                                                         NUMA: {"int": 0}},
                            "capacity": {"memory": {"value": mem}},
                            "consumesCounters": [{"counterSet": "gpu-0-mem", "counters": {"memory": {"value": mem}}}]})
        self.snapshot.append({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
                              "metadata": _meta(f"{node}-gpu"),
                              "spec": {"driver": DRIVER, "nodeName": node, "pool": dict(pool), "devices": devices}})

    def _nic_slice(self, node: str) -> None:
        """A device shared by several claims (consumable capacity)."""
        self.snapshot.append({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
                              "metadata": _meta(f"{node}-nic"),
                              "spec": {"driver": NIC_DRIVER, "nodeName": node,
                                       "pool": {"name": f"{node}-nic", "generation": 1, "resourceSliceCount": 1},
                                       "devices": [{"name": "nic-0", "allowMultipleAllocations": True,
                                                    "capacity": {"bandwidth": {
                                                        "value": self.rng.choice(("10G", "40G", "100G")),
                                                        "requestPolicy": {"default": "1G",
                                                                          "validRange": {"min": "1G"}}}}}]}})

    def _template(self, name: str, advanced: bool) -> None:
        rng = self.rng
        count = rng.choice((1, 1, 2, 4))
        exactly: dict[str, Any] = {"deviceClassName": DRIVER}
        if advanced and self.chance(0.15):
            exactly["allocationMode"] = "All"
        else:
            exactly["count"] = count
        if self.chance(0.3):
            model = rng.choice(MODELS)
            exactly["selectors"] = [{"cel": {"expression": f'device.attributes["{DRIVER}"].model == "{model}"'}}]
        elif advanced and self.chance(0.3):
            exactly["selectors"] = [{"cel": {"expression":
                                             f'device.capacity["{DRIVER}"].memory.compareTo(quantity("50Gi")) >= 0'}}]
        if advanced and self.chance(0.25):
            exactly["tolerations"] = [{"key": "example.com/unhealthy", "operator": "Exists"}]
        request: dict[str, Any] = {"name": "gpu"}
        if advanced and self.chance(0.3):
            request["firstAvailable"] = [
                {"name": "big", "deviceClassName": DRIVER, "count": max(2, count),
                 "selectors": [{"cel": {"expression": f'device.attributes["{DRIVER}"].model == "h100"'}}]},
                {"name": "small", "deviceClassName": DRIVER, "count": 1}]
        else:
            request["exactly"] = exactly
        requests = [request]
        constraints = []
        if self.chance(0.4) and "exactly" in request and exactly.get("count", 1) > 1:
            constraints.append({"requests": ["gpu"], "matchAttribute": rng.choice((f"{DRIVER}/model", NUMA))})
        if getattr(self, "consumable", False) and self.chance(0.6):
            requests.append({"name": "nic", "exactly": {"deviceClassName": NIC_DRIVER, "capacity": {"requests": {
                "bandwidth": rng.choice(("5G", "10G", "30G"))}}}})
        devices: dict[str, Any] = {"requests": requests}
        if constraints:
            devices["constraints"] = constraints
        self.templates.append(name)
        self.snapshot.append({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                              "metadata": _meta(name, "default"), "spec": {"spec": {"devices": devices}}})

    # ---- pods ---------------------------------------------------------------------------------------------------
    def _pod(self, name: str, *, namespace: str = "default", app: str | None = None) -> dict[str, Any]:
        rng = self.rng
        requests: dict[str, str] = {}
        if self.chance(0.9):
            requests["cpu"] = rng.choice(("100m", "250m", "500m", "1", "2", "3", "4", "6"))
        if self.chance(0.8):
            requests["memory"] = rng.choice(("128Mi", "512Mi", "1Gi", "2Gi", "4Gi", "8Gi", "12Gi"))
        if self.has("extended") and self.chance(0.4):
            requests[GPU_RESOURCE] = rng.choice(("1", "1", "2", "4"))
        container: dict[str, Any] = {"name": "main", "image": "registry.example.com/app:1", "resources": {}}
        if requests:
            container["resources"]["requests"] = requests
            if GPU_RESOURCE in requests:
                container["resources"]["limits"] = {GPU_RESOURCE: requests[GPU_RESOURCE]}
        labels = {"app": app or rng.choice(("web", "db", "cache"))}
        spec: dict[str, Any] = {"containers": [container]}
        return {"apiVersion": "v1", "kind": "Pod", "metadata": _meta(name, namespace, labels), "spec": spec}

    def _bound_pods(self) -> None:
        if self.dense:
            self._filled_nodes()
            return
        rng = self.rng
        for node in self.nodes:
            for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
                self.pod_count += 1
                pod = self._pod(f"b{self.pod_count}")
                pod["spec"]["nodeName"] = node["metadata"]["name"]
                if self.classes and self.chance(0.7):
                    pod["spec"]["priorityClassName"] = rng.choice(self.classes)[0]
                if self.has("ports") and self.chance(0.3):
                    pod["spec"]["containers"][0]["ports"] = [{"containerPort": 80, "hostPort": rng.choice((80, 8080))}]
                pod["status"] = {"phase": "Running"}
                if not self._fits_bound(pod, node):
                    continue
                pod["metadata"]["uid"] = f"uid-{pod['metadata']['name']}"
                if node["metadata"]["name"] in self.gpu_nodes and self.chance(0.4):
                    self._bound_claim(pod, node["metadata"]["name"])
                self.snapshot.append(pod)

    def _fits_bound(self, pod: dict[str, Any], node: dict[str, Any]) -> bool:
        """Bound pods stay within what the node has (a kubelet would not have admitted more)."""
        used = self.used.setdefault(node["metadata"]["name"], {})
        want = {k: parse_quantity(v) for k, v in pod["spec"]["containers"][0]["resources"].get("requests", {}).items()}
        want["pods"] = 1
        have = {k: parse_quantity(v) for k, v in node["status"]["allocatable"].items()}
        if any(used.get(k, 0) + v > have.get(k, 0) for k, v in want.items()):
            return False
        for k, v in want.items():
            used[k] = used.get(k, 0) + v
        return True

    def _filled_nodes(self) -> None:
        """Each node holds 2-4 equal pods that take most of its CPU and memory, of the lower classes."""
        rng = self.rng
        lower = [c for c in self.classes if c[0] != "high"]
        for node in self.nodes:
            alloc = node["status"]["allocatable"]
            count = rng.choice((2, 3, 4))
            cpu_m = int(alloc["cpu"]) * 1000 * rng.choice((80, 90, 100)) // 100 // count
            mem_mi = int(alloc["memory"][:-2]) * 1024 * rng.choice((70, 90)) // 100 // count
            for _ in range(count):
                self.pod_count += 1
                pod = self._pod(f"b{self.pod_count}", app=rng.choice(("web", "db", "cache")))
                pod["spec"]["containers"][0]["resources"] = {"requests": {"cpu": f"{cpu_m}m", "memory": f"{mem_mi}Mi"}}
                pod["spec"]["nodeName"] = node["metadata"]["name"]
                if lower and self.chance(0.85):
                    pod["spec"]["priorityClassName"] = rng.choice(lower)[0]
                pod["metadata"]["uid"] = f"uid-{pod['metadata']['name']}"
                pod["status"] = {"phase": "Running"}
                self.snapshot.append(pod)

    def _bound_claim(self, pod: dict[str, Any], node: str) -> None:
        """A running pod holding the node's first free GPU through an allocated claim."""
        taken = self.used.setdefault(node, {})
        index = int(taken.get("gpus", 0))
        slice_ = next(o for o in self.snapshot if o["kind"] == "ResourceSlice" and o["metadata"]["name"] == f"{node}-gpu")
        if index >= len(slice_["spec"]["devices"]):
            return
        taken["gpus"] = index + 1
        name = f"{pod['metadata']['name']}-gpu"
        self.snapshot.append({
            "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": _meta(name, "default"),
            "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": DRIVER}}]}},
            "status": {"allocation": {
                "devices": {"results": [{"request": "gpu", "driver": DRIVER, "pool": node, "device": f"gpu-{index}"}]},
                "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": [node]}]}]}},
                "reservedFor": [{"resource": "pods", "name": pod["metadata"]["name"], "uid": pod["metadata"]["uid"]}]}})
        pod["spec"]["resourceClaims"] = [{"name": "gpu", "resourceClaimName": name}]
        pod["spec"]["containers"][0]["resources"]["claims"] = [{"name": "gpu"}]

    def _pdbs(self) -> None:
        for app in ("web", "db"):
            if self.chance(0.5):
                allowed = self.rng.choice((0, 0, 1))
                self.snapshot.append({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                                      "metadata": _meta(f"pdb-{app}", "default"),
                                      "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": app}}},
                                      "status": {"disruptionsAllowed": allowed, "currentHealthy": 1 + allowed,
                                                 "desiredHealthy": 1, "expectedPods": 1 + allowed,
                                                 "observedGeneration": 0}})

    def _pending(self) -> None:
        rng = self.rng
        groups = 0
        if self.has("gang"):
            groups = rng.choice((1, 1, 2, 3))
        for g in range(groups):
            self._gang(f"g{g}")
        singles = rng.choice((1, 2, 3, 4, 6, 8)) if groups == 0 else rng.choice((0, 0, 1, 2))
        for _ in range(singles):
            self.pod_count += 1
            pod = self._pod(f"p{self.pod_count}")
            if self.dense:  # asks for about half a node
                alloc = rng.choice(self.nodes)["status"]["allocatable"]
                pod["spec"]["containers"][0]["resources"] = {"requests": {
                    "cpu": f"{int(alloc['cpu']) * 1000 * rng.choice((30, 50, 70)) // 100}m",
                    "memory": f"{int(alloc['memory'][:-2]) * 1024 * rng.choice((20, 40)) // 100}Mi"}}
            self._decorate(pod)
            self.manifests.append(pod)
        if getattr(self, "admin_template", False):
            self.pod_count += 1
            pod = self._pod(f"p{self.pod_count}", namespace="ops")
            pod["spec"]["resourceClaims"] = [{"name": "dev", "resourceClaimTemplateName": "admin"}]
            pod["spec"]["containers"][0]["resources"]["claims"] = [{"name": "dev"}]
            self.manifests.append(pod)
        rng.shuffle(self.manifests)
        self.manifests.sort(key=lambda o: o["kind"] == "Pod")  # groups before pods, as `kubectl apply -f` would

    def _gang(self, name: str) -> None:
        rng = self.rng
        size = rng.choice((2, 2, 3, 4, 6, 8))
        spec: dict[str, Any] = {"schedulingPolicy": {"gang": {"minCount": rng.choice((size, size, max(1, size - 1)))}}}
        if self.has("gang-topology"):
            spec["schedulingConstraints"] = {"topology": [{"key": rng.choice((RACK, ZONE))}]}
        self.manifests.append({"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "PodGroup",
                               "metadata": _meta(name, "default"), "spec": spec})
        template = self._pod("x", app=name)
        self._decorate(template, gang=True)
        for i in range(size):
            pod = json.loads(json.dumps(template))
            pod["metadata"]["name"] = f"{name}-{i}"
            pod["spec"]["schedulingGroup"] = {"podGroupName": name}
            self.manifests.append(pod)

    def _decorate(self, pod: dict[str, Any], gang: bool = False) -> None:
        """Adds what the scenario's features call for to a pending pod."""
        steps: tuple[tuple[str, Callable[[dict[str, Any]], None]], ...] = (
            ("taints", self._tolerations), ("affinity", self._node_affinity), ("interpod", self._pod_affinity),
            ("spread", self._spread), ("ports", self._ports), ("priority", self._priority), ("dra", self._claims),
            ("runtime", self._runtime))
        for feature, step in steps:
            if self.has(feature) and (self.chance(0.7) or feature == "dra"):
                step(pod)

    def _tolerations(self, pod: dict[str, Any]) -> None:
        rng = self.rng
        tol: list[dict[str, Any]] = []
        for _ in range(rng.choice((1, 2))):
            key = rng.choice(("dedicated", "example.com/maintenance", "gpu"))
            if self.chance(0.5):
                tol.append({"key": key, "operator": "Exists"})
            else:
                tol.append({"key": key, "operator": "Equal", "value": rng.choice(("a", "b")),
                            "effect": rng.choice(("NoSchedule", "NoExecute"))})
        pod["spec"]["tolerations"] = tol

    def _node_affinity(self, pod: dict[str, Any]) -> None:
        rng = self.rng
        spec = pod["spec"]
        if self.chance(0.4):
            spec["nodeSelector"] = {"example.com/tier": rng.choice(("gold", "silver"))}
        affinity: dict[str, Any] = {}
        if self.chance(0.5):
            expr = rng.choice(({"key": ZONE, "operator": "In", "values": ["z0", "z1"]},
                               {"key": "example.com/tier", "operator": "NotIn", "values": ["bronze"]},
                               {"key": RACK, "operator": "Exists"},
                               {"key": "example.com/missing", "operator": "DoesNotExist"}))
            affinity["requiredDuringSchedulingIgnoredDuringExecution"] = {"nodeSelectorTerms": [{"matchExpressions": [expr]}]}
        if self.chance(0.6):
            affinity["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": rng.choice((1, 10, 50, 100)), "preference": {"matchExpressions": [
                    {"key": "example.com/tier", "operator": "In", "values": [rng.choice(("gold", "silver", "bronze"))]}]}}]
        if affinity:
            spec["affinity"] = {"nodeAffinity": affinity}

    def _pod_affinity(self, pod: dict[str, Any]) -> None:
        rng = self.rng
        term = {"labelSelector": {"matchLabels": {"app": rng.choice(("web", "db", "cache"))}},
                "topologyKey": rng.choice((HOST, ZONE, RACK))}
        kind = rng.choice(("podAffinity", "podAntiAffinity"))
        affinity: dict[str, Any] = {}
        if self.chance(0.5):
            affinity["requiredDuringSchedulingIgnoredDuringExecution"] = [term]
        else:
            affinity["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": rng.choice((1, 50, 100)), "podAffinityTerm": term}]
        pod["spec"].setdefault("affinity", {})[kind] = affinity

    def _spread(self, pod: dict[str, Any]) -> None:
        rng = self.rng
        pod["spec"]["topologySpreadConstraints"] = [{
            "maxSkew": rng.choice((1, 1, 2)), "topologyKey": rng.choice((HOST, ZONE, RACK)),
            "whenUnsatisfiable": rng.choice(("DoNotSchedule", "ScheduleAnyway")),
            "labelSelector": {"matchLabels": {"app": pod["metadata"]["labels"]["app"]}}}]

    def _ports(self, pod: dict[str, Any]) -> None:
        pod["spec"]["containers"][0]["ports"] = [{"containerPort": 80, "hostPort": self.rng.choice((80, 8080, 9090))}]

    def _priority(self, pod: dict[str, Any]) -> None:
        if not self.classes:
            return
        name, _, policy = self.rng.choice(self.classes)
        if self.dense and self.chance(0.7):
            name, _, policy = next(c for c in self.classes if c[0] == "high")
        pod["spec"]["priorityClassName"] = name
        if policy == "Never" and self.chance(0.3):  # the Priority admission plugin rejects a policy the class contradicts
            pod["spec"]["preemptionPolicy"] = policy

    def _claims(self, pod: dict[str, Any]) -> None:
        if not self.templates or not self.chance(0.8):
            return
        template = self.rng.choice(self.templates)
        pod["spec"]["resourceClaims"] = [{"name": "dev", "resourceClaimTemplateName": template}]
        pod["spec"]["containers"][0]["resources"]["claims"] = [{"name": "dev"}]

    def _runtime(self, pod: dict[str, Any]) -> None:
        pod["spec"]["runtimeClassName"] = "kata"
