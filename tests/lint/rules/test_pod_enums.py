"""VALID013 on the enumerated pod spec fields: every pod and pod template, every container kind, each value outside
its set is one finding at the value with the supported values (and the right case when only the case is wrong)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.catalog.releases import SUPPORTED
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

POD = """\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: busybox
"""
JOB = """\
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox
"""


def _findings(text: str, tmp_path: Path, release=SUPPORTED[-1]) -> list[tuple[str, str, str]]:
    path = tmp_path / "x.yaml"
    path.write_text(text)
    report = run_check(CheckOptions(paths=(str(path),), releases=(release,), select=("VALID013",)))
    return [(f.path, f.message, f.hint or "") for f in report.findings]


@pytest.mark.parametrize(("insert", "path", "hint"), [
    ("    imagePullPolicy: always\n", "spec.containers[0].imagePullPolicy", 'use "Always"'),
    ("    terminationMessagePolicy: Files\n", "spec.containers[0].terminationMessagePolicy", "File, FallbackToLogsOnError"),
    ("    ports: [{containerPort: 80, protocol: HTTP}]\n", "spec.containers[0].ports[0].protocol", "TCP, UDP, SCTP"),
    ("    readinessProbe: {httpGet: {port: 80, scheme: https}}\n", "spec.containers[0].readinessProbe.httpGet.scheme",
     'use "HTTPS"'),
    ("    volumeMounts: [{name: v, mountPath: /v, mountPropagation: Shared}]\n",
     "spec.containers[0].volumeMounts[0].mountPropagation", "HostToContainer"),
    ("  dnsPolicy: ClusterFirstWithHostnet\n", "spec.dnsPolicy", 'use "ClusterFirstWithHostNet"'),
    ("  os: {name: Linux}\n", "spec.os.name", 'use "linux"'),
    ("  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedul}]\n",
     "spec.topologySpreadConstraints[0].whenUnsatisfiable", "DoNotSchedule, ScheduleAnyway"),
    ("  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
     "[{matchExpressions: [{key: a, operator: in, values: [b]}]}]}}}\n",
     "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
     ".matchExpressions[0].operator", 'use "In"'),
    ("  initContainers: [{name: s, image: busybox, restartPolicy: OnFailure}]\n", "spec.initContainers[0].restartPolicy",
     "Always"),
], ids=["pull", "termination", "protocol", "scheme", "propagation", "dns", "os", "spread", "operator", "sidecar"])
def test_unsupported_values(insert: str, path: str, hint: str, tmp_path: Path) -> None:
    where = POD.index("    image: busybox\n") + len("    image: busybox\n") if insert.startswith("    ") \
        else POD.index("  containers:")
    for release in SUPPORTED:   # the same sets in every supported release
        (finding,) = _findings(POD[:where] + insert + POD[where:], tmp_path, release)
        assert finding[0] == path and "supported values" in finding[1] and hint in finding[1] + finding[2]


def test_valid_values_and_templates(tmp_path: Path) -> None:
    good = POD.replace("    image: busybox\n", "    image: busybox\n    imagePullPolicy: IfNotPresent\n"
                       "    ports: [{containerPort: 53, protocol: UDP}]\n")
    assert _findings(good, tmp_path) == []
    bad_template = JOB.replace("        image: busybox\n", "        image: busybox\n        imagePullPolicy: Sometimes\n")
    assert [f[0] for f in _findings(bad_template, tmp_path)] == ["spec.template.spec.containers[0].imagePullPolicy"]
