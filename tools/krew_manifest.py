#!/usr/bin/env python3
"""Write the krew plugin manifest (`kubectl krew install wasdra`) for release archives built by build_executable.py.

Each archive `kubectl-wasdra_<os>_<arch>.tar.gz` (`.zip` for Windows) becomes one platform entry with its sha256 and
its download URL under --base-url (where the archives are published). krew checks the sha256 on download, so the
manifest is generated from the very files that are published:

    python3 tools/krew_manifest.py --homepage https://github.com/OWNER/kubectl-wasdra \
        --base-url https://github.com/OWNER/kubectl-wasdra/releases/download/v0.1.0 dist/*.tar.gz dist/*.zip > wasdra.yaml
    kubectl krew install --manifest=wasdra.yaml --archive=dist/kubectl-wasdra_linux_amd64.tar.gz   # local test

The manifest carries every field krew-index asks for (homepage, shortDescription, description, caveats, and per
platform a selector, uri, sha256, files and bin); see https://krew.sigs.k8s.io/docs/developer-guide/plugin-manifest/.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from kubectl_wasdra import __version__  # noqa: E402

PLUGIN = "wasdra"
BINARY = "kubectl-wasdra"
_ARCHIVE = re.compile(rf"^{BINARY}_(?P<os>linux|darwin|windows)_(?P<arch>amd64|arm64)\.(?P<ext>tar\.gz|zip)$")
SHORT = "Lint and dry-run gang scheduling and DRA manifests"
DESCRIPTION = (
    "Lints Kubernetes manifests for workload-aware scheduling (Workload, PodGroup, gang and topology scheduling) and "
    "Dynamic Resource Allocation (DeviceClass, ResourceClaim, ResourceSlice) on Kubernetes 1.33-1.37, and dry-runs "
    "groups of pods against a cluster snapshot or the live cluster (read-only): will this gang fit, and if not, why?"
)
CAVEATS = """\
kubectl wasdra reads clusters only with --live, --context or --kubeconfig (list/get, never a write).

kubectl (1.26+) completes `kubectl wasdra <TAB>` through kubectl_complete-wasdra on PATH, which krew does not link;
on Linux and macOS link it once (again after an upgrade):
  ln -sf "$(dirname "$(readlink -f ~/.krew/bin/kubectl-wasdra)")/kubectl_complete-wasdra" ~/.krew/bin/
"""
# the one-folder build (tools/build_executable.py): the program, its _internal/ folder and the side files
FILES = ("_internal", "docs", "README.md", "LICENSE", "NOTICE")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def platform_entry(archive: Path, base_url: str) -> dict[str, Any]:
    """One `spec.platforms` item: selector, uri, sha256, the files to keep and the binary."""
    match = _ARCHIVE.match(archive.name)
    if match is None:
        raise SystemExit(f"krew_manifest: {archive.name}: not named {BINARY}_<os>_<arch>.tar.gz (or .zip)")
    windows = match["os"] == "windows"
    binary = BINARY + (".exe" if windows else "")
    names = (binary, *FILES, *(() if windows else ("kubectl_complete-wasdra",)))
    return {
        "selector": {"matchLabels": {"os": match["os"], "arch": match["arch"]}},
        "uri": f"{base_url.rstrip('/')}/{archive.name}",
        "sha256": sha256(archive),
        "files": [{"from": name, "to": "."} for name in names],
        "bin": binary,
    }


def manifest(archives: list[Path], base_url: str, homepage: str, version: str = __version__) -> dict[str, Any]:
    """The Plugin object (krew.googlecontainertools.github.com/v1alpha2)."""
    spec: dict[str, Any] = {"version": f"v{version}", "homepage": homepage, "shortDescription": SHORT,
                            "description": DESCRIPTION, "caveats": CAVEATS,
                            "platforms": [platform_entry(a, base_url) for a in sorted(archives)]}
    return {"apiVersion": "krew.googlecontainertools.github.com/v1alpha2", "kind": "Plugin",
            "metadata": {"name": PLUGIN}, "spec": spec}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archives", nargs="+", type=Path, help="release archives from tools/build_executable.py")
    parser.add_argument("--base-url", required=True, help="URL the archives are published under")
    parser.add_argument("--homepage", required=True, help="the project's home page (krew-index requires one)")
    args = parser.parse_args(argv)
    sys.stdout.write(yaml.safe_dump(manifest(args.archives, args.base_url, args.homepage), sort_keys=False, width=120))
    return 0


if __name__ == "__main__":
    sys.exit(main())
