"""kubectl's other -o forms of an explain report: yaml (the JSON document as YAML) and name (one line per group that
does not fit, spelled as kubectl's -o name spells objects)."""

from __future__ import annotations

import json
from typing import Final

import yaml

from kubectl_wasdra.explain.model import ExplainReport
from kubectl_wasdra.explain.render_json import render_json

# kubectl -o name prints <resource>.<group>/<name>, and <resource>/<name> for the core group
# (k8s.io/cli-runtime pkg/printers/name.go)
_RESOURCE: Final = {"Pod": "pod", "PodGroup": "podgroup.scheduling.k8s.io", "Workload": "workload.scheduling.k8s.io",
                    "CompositePodGroup": "compositepodgroup.scheduling.k8s.io", "Job": "job.batch"}


def render_yaml(report: ExplainReport) -> str:
    """The document -o json prints, as YAML (keys in the same order)."""
    return yaml.safe_dump(json.loads(render_json(report)), sort_keys=False, allow_unicode=True, width=120)


def render_name(report: ExplainReport) -> str:
    """`<resource>/<name>` of each group that does not fit (or whose verdict is unknown), one a line, in the report's
    order: what to `kubectl describe` next. Empty when every group fits."""
    lines = []
    for group in report.groups:
        if group.fits and group.unknown is None:
            continue
        resource = _RESOURCE.get(group.kind, group.kind.lower())
        lines.append(f"{resource}/{group.name}\n")
    return "".join(lines)
