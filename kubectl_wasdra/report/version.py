"""`kubectl wasdra version`: the tool's version, the Kubernetes releases it models and which data it models them with.

The data versions are what a bug report needs to reproduce a verdict: each schema file's source and release, and a
short content digest of every data file (schemas/, rules/), so two installations can be compared at a glance.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from typing import Any

from kubectl_wasdra import __version__
from kubectl_wasdra.catalog.data import data_path, read_data
from kubectl_wasdra.catalog.releases import NEWEST, SUPPORTED

RULE_FILES = ("feature-gates.yaml", "field-gates.yaml", "api-versions.yaml")


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def version_info() -> dict[str, Any]:
    """Everything `version -o json` prints, keys in a stable order."""
    schemas = {}
    for release in SUPPORTED:
        data = read_data(f"schemas/k8s-{release}.json")
        meta = json.loads(data)
        schemas[str(release)] = {"source": meta.get("source", ""), "digest": _digest(data)}
    rules = {name: _digest(read_data(f"rules/{name}")) for name in RULE_FILES if (data_path("rules") / name).exists()}
    return {
        "version": __version__,
        "kubernetes": {"supported": [str(r) for r in SUPPORTED], "default": str(NEWEST), "scheduler": str(NEWEST)},
        "data": {"schemas": schemas, "rules": rules},
        "python": platform.python_version(),
        "platform": f"{sys.platform}/{platform.machine().lower()}",
    }


def render_version(output: str) -> str:
    """`text` (one fact a line) or `json`."""
    info = version_info()
    if output == "json":
        return json.dumps(info, indent=2) + "\n"
    kube = info["kubernetes"]
    lines = [f"kubectl-wasdra {info['version']}",
             f"Kubernetes releases: {', '.join(kube['supported'])} (default {kube['default']}; "
             f"scheduling simulated as kube-scheduler {kube['scheduler']})"]
    lines += [f"schemas {release}: {entry['source']} ({entry['digest']})" for release, entry in info["data"]["schemas"].items()]
    lines += [f"rules/{name}: {digest}" for name, digest in info["data"]["rules"].items()]
    lines.append(f"Python {info['python']} on {info['platform']}")
    return "\n".join(lines) + "\n"
