"""`kubectl wasdra lsp` without the optional pygls: one line naming the extra to install, exit 2."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
for name in [m for m in sys.modules if m == "pygls" or m.startswith("pygls.")] + ["pygls"]:
    sys.modules[name] = None   # as if kubectl-wasdra[lsp] were not installed
from kubectl_wasdra.cli import main
main(["lsp"])
"""


def test_lsp_without_pygls_says_what_to_install() -> None:
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "kubectl-wasdra: error: lsp: the language server needs pygls, which is not installed — "
        "pip install 'kubectl-wasdra[lsp]'"]


def test_lsp_help_has_examples() -> None:
    result = subprocess.run([sys.executable, "-m", "kubectl_wasdra", "lsp", "--help"], capture_output=True, text=True,
                            check=False, timeout=60)
    assert result.returncode == 0 and "Examples:" in result.stdout and "kubectl wasdra lsp" in result.stdout
