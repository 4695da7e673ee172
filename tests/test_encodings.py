"""Every command and output format works when stdout is ASCII or cp1252 (PYTHONIOENCODING, LANG=C): no
UnicodeEncodeError, text falls back to ASCII glyphs, JSON and XML stay the same value."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kubectl_wasdra.report.encoding import GLYPHS, ascii_stand_in, encodable

ROOT = Path(__file__).resolve().parent.parent
EXPLAIN = str(ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml")
CLUSTER = str(ROOT / "fixtures" / "clusters" / "two-racks")
GATED = ["--feature-gates", "GenericWorkload=true", "--runtime-config", "scheduling.k8s.io/v1beta1=true"]
# a manifest whose findings quote non-ASCII text (an invalid name, a label value) next to our em dashes
MANIFEST = """apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: Café-gpu, namespace: ml, labels: {team: "\u00e9quipe\u2192\u03b1"}}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, count: 2, cuont: 1}}]
"""


def _commands(manifest: str) -> list[tuple[list[str], tuple[int, ...]]]:
    check = [(["check", manifest, "-o", fmt], (1,)) for fmt in ("text", "json", "sarif", "junit", "github")]
    explain = [(["explain", "-f", EXPLAIN, "--snapshot", CLUSTER, *GATED, "-o", fmt], (0, 1)) for fmt in ("text", "json")]
    return [*check, *explain,
            (["explain", "-f", EXPLAIN, "--snapshot", CLUSTER], (0, 1)),
            (["explain-pending", "--snapshot", CLUSTER, "-A"], (0, 1)),
            (["explain-pending", "--snapshot", CLUSTER, "-A", "-o", "json"], (0, 1)),
            (["gates", "--k8s-version", "1.37"], (0,)), (["gates", "-o", "json"], (0,)),
            (["gates", "--diff", "1.35", "1.37"], (0,)),
            (["rules"], (0,)), (["rules", "REF012"], (0,)), (["rules", "-o", "json"], (0,)),
            (["config"], (0,)), (["config", "-o", "json"], (0,)),
            (["--version"], (0,)), (["nosuchcommand"], (2,)), (["completion", "bash"], (0,)),
            (["snapshot", "--snapshot", CLUSTER], (0,)), (["check", "--help"], (0,)),
            (["check", manifest, "--k8s-version", "9.99"], (2,))]   # a one-line error with an em dash on stderr


def _run(argv: list[str], encoding: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONIOENCODING=encoding, LANG="C", LC_ALL="C", NO_COLOR="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "kubectl_wasdra", *argv], capture_output=True, env=env, cwd=cwd,
                          timeout=120, check=False)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A folder with the manifest, and a cache of each command's output on a UTF-8 stdout (the reference)."""
    path = tmp_path_factory.mktemp("encodings")
    (path / "claim.yaml").write_text(MANIFEST, encoding="utf-8")
    return path, {}


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_every_command_and_format_on_a_narrow_terminal(encoding: str, workdir: tuple[Path, dict]) -> None:
    folder, reference = workdir
    for argv, codes in _commands(str(folder / "claim.yaml")):
        narrow = _run(argv, encoding, folder)
        if tuple(argv) not in reference:
            reference[tuple(argv)] = _run(argv, "utf-8", folder)
        wide = reference[tuple(argv)]
        label = f"{' '.join(argv)} [{encoding}]"
        for stream in (narrow.stdout, narrow.stderr):
            assert stream.decode(encoding, "replace") == stream.decode("utf-8", "replace") or encoding != "ascii", label
            text = stream.decode(encoding, "replace")
            assert "Traceback" not in text and "internal error" not in text and "UnicodeEncodeError" not in text, label
        assert narrow.returncode in codes and narrow.returncode == wide.returncode, (label, narrow.stderr)
        _same_meaning(argv, narrow.stdout.decode(encoding), wide.stdout.decode("utf-8"), label)


def _same_meaning(argv: list[str], narrow: str, wide: str, label: str) -> None:
    fmt = argv[argv.index("-o") + 1] if "-o" in argv else "text"
    if fmt in ("json", "sarif"):
        assert json.loads(narrow) == json.loads(wide), label
    elif fmt == "junit":
        assert ET.tostring(ET.fromstring(narrow.encode())) == ET.tostring(ET.fromstring(wide.encode())), label
    elif wide.isascii():
        assert narrow == wide, label
    else:
        assert narrow.count("\n") == wide.count("\n"), label


def test_ascii_stand_ins() -> None:
    assert encodable("a \u2014 b \u2192 c", "ascii") == "a -- b -> c"
    assert encodable("a \u2014 b", "cp1252") == "a \u2014 b"        # cp1252 has the em dash: kept
    assert encodable("\u25a3\u25a0\u25a1\u2717", "ascii") == "@#.x"    # the placement map's cells stay distinct
    assert ascii_stand_in("é") == "e" and ascii_stand_in("\u03b1") == "\\u03b1"
    assert encodable('{"m": "caf\u00e9 \U0001f600"}', "ascii", "json") == '{"m": "caf\\u00e9 \\ud83d\\ude00"}'
    assert json.loads(encodable('{"m": "caf\u00e9 \U0001f600"}', "ascii", "sarif")) == {"m": "caf\u00e9 \U0001f600"}
    assert encodable('<?xml version="1.0"?><a>\u2014</a>', "ascii", "junit") == '<?xml version="1.0"?><a>&#8212;</a>'
    assert encodable("x\u2014", "no-such-codec") == "x--" and encodable("x\u2014", None) == "x\u2014"
    assert len({GLYPHS[c] for c in "\u25a3\u25a0\u25a1\u2717"}) == 4


def test_text_is_encoded_as_text_whatever_its_first_character(tmp_path: Path) -> None:
    """The format is the one asked for with -o, not guessed from the text: a text report that starts with a file named
    "[café].yaml" gets ASCII stand-ins, not JSON escapes."""
    (tmp_path / "[caf\u00e9].yaml").write_text(MANIFEST, encoding="utf-8")
    done = _run(["check", "[caf\u00e9].yaml"], "ascii", tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.decode("ascii").splitlines()[0] == "[cafe].yaml"
