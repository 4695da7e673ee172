"""explain -o html in a real browser: headless Chromium (Debian's `chromium`; .ci/run installs it where missing)
opens the page from a file, and the DOM it builds is read back and compared with -o json; screenshots are saved as
CI artifacts under $WASDRA_ARTIFACTS (else the test's tmp dir; the path is printed). Skipped without Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from kubectl_wasdra.cluster.files import read_snapshot_leaving_out
from tests.explain.html_dom import assert_agrees, parse, report_numbers
from tests.explain.test_render_html import CASES, ROOT, explain_both

# Debian's chromium (what .ci/run installs), else the Chrome GitHub's Ubuntu runners bring
CHROMIUM = next(filter(None, (os.environ.get("WASDRA_CHROMIUM"), shutil.which("chromium"), shutil.which("google-chrome"))),
                None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium: apt-get install -y chromium (.ci/run "
                                                         "installs it), or set WASDRA_CHROMIUM to a Chrome binary")
# No network, no first-run work, no sandbox (CI containers run as root): the page must stand on its own
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def chromium(page: Path, profile: Path, *extra: str) -> str:
    """Chromium's stdout for the page opened from its file with `extra` flags."""
    argv = [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def artifacts(tmp_path: Path) -> Path:
    """Where screenshots go: $WASDRA_ARTIFACTS (CI uploads it) or the test's tmp dir."""
    where = Path(os.environ.get("WASDRA_ARTIFACTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where


@pytest.mark.parametrize("case", sorted(CASES))
def test_chromium_builds_the_dom_whose_numbers_are_the_json_numbers(case, capsys, tmp_path):
    manifests, snapshot, flags = CASES[case]
    doc, text = explain_both(capsys, manifests, snapshot, flags, tmp_path)
    page = tmp_path / "report.html"
    dom = chromium(page, tmp_path / "profile", "--dump-dom")
    root = parse(dom)
    assert "js" in root.find_all("html")[0].attrs.get("class", "").split()  # the optional script ran, no errors
    cluster, _ = read_snapshot_leaving_out([str(ROOT / snapshot)])
    assert assert_agrees(report_numbers(root), doc, cluster, root) >= 1
    assert report_numbers(root) == report_numbers(parse(text))  # the browser reads the page as written


def test_screenshots_in_light_and_dark(capsys, tmp_path):
    explain_both(capsys, *CASES["readme-two-racks"], tmp_path)
    where = artifacts(tmp_path)
    shutil.copyfile(tmp_path / "report.html", where / "explain-report.html")  # the page itself, beside its pictures
    shots = {"explain-html.png": [], "explain-html-dark.png": ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"]}
    for name, extra in shots.items():
        target = where / name
        chromium(tmp_path / "report.html", tmp_path / f"profile-{name}", f"--screenshot={target}",
                 "--window-size=1280,1800", *extra)
        data = target.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
        with capsys.disabled():
            print(f"\nscreenshot: {target}")


def test_chromium_opens_the_generated_cluster_page(capsys, tmp_path):
    from tests.explain.test_render_html import GATES
    from tests.explain.test_scale_causes import GEN, SCALE

    (tmp_path / "cluster.json").write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List",
                                                          "items": GEN.generate(240, 8, 8, 0.7, 24)}))
    (tmp_path / "gang.json").write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List",
                                                       "items": SCALE.gang_manifests(0.6)}))
    from tests.cli_runner import run

    argv = ["explain", str(tmp_path / "gang.json"), "--snapshot", str(tmp_path / "cluster.json"), *GATES,
            "--fail-on", "never", "--what-if-budget", "5s,2"]
    _, out, _ = run([*argv, "-o", "json", "--plugin-results"], capsys)
    run([*argv, "-o", "html", "--plugin-results", "--output-file", str(tmp_path / "gen.html")], capsys)
    root = parse(chromium(tmp_path / "gen.html", tmp_path / "profile", "--dump-dom"))
    cluster, _ = read_snapshot_leaving_out([str(tmp_path / "cluster.json")])
    assert assert_agrees(report_numbers(root), orjson.loads(out), cluster, root) == 1
