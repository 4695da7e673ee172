"""A hub (an object more than HUB_REFERRERS files name) edited in the editor: the files that name it are checked apart,
after the hub's own diagnostics, and only when the hub changed in a way they can read.

The workspace: a DeviceClass pinning driver gpu.example.com (the hub), a NIC class pinning nic.example.com, and many
claims that constrain a GPU and a NIC request to one `gpu.example.com/numa` value: FIT020, since the two drivers differ
(lint/rules/numa.py). Closed claims report it on the hub (the hub causes it: without the hub no driver is known);
the open claim reports it on itself. Pinning the hub to the NIC driver clears both; a label is nothing they read.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from kubectl_wasdra.lsp.dependents import HUB_REFERRERS
from kubectl_wasdra.lsp.projects import Project
from tests.lsp.conftest import change_file, codes, diagnostics_for, open_file

CLAIMS = HUB_REFERRERS + 2
HUB = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel: {expression: 'device.driver == "DRIVER"'}
"""
NIC = HUB.replace("gpu.example.com", "nic.example.com").replace("DRIVER", "nic.example.com")
CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: pair-NUMBER, namespace: ml}
spec:
  devices:
    requests:
    - {name: gpu, exactly: {deviceClassName: gpu.example.com}}
    - {name: nic, exactly: {deviceClassName: nic.example.com}}
    constraints:
    - {requests: [gpu, nic], matchAttribute: gpu.example.com/numa}
"""


@pytest.fixture
def hub_project(project: Path) -> Path:
    """The conftest project plus the hub, the NIC class and CLAIMS claims naming both."""
    (project / "deploy" / "class.yaml").write_text(HUB.replace("DRIVER", "gpu.example.com"))
    (project / "deploy" / "nic.yaml").write_text(NIC)
    (project / "claims").mkdir()
    for number in range(CLAIMS):
        (project / "claims" / f"pair-{number:02d}.yaml").write_text(CLAIM.replace("NUMBER", str(number)))
    return project


def hub(driver: str, labels: str = "") -> str:
    text = HUB.replace("DRIVER", driver)
    return text.replace("  name: gpu.example.com\n", f"  name: gpu.example.com\n{labels}") if labels else text


def fit020(diagnostics: list) -> int:
    return codes(diagnostics).count("FIT020")


@pytest.mark.asyncio
async def test_a_hub_edit_reaches_its_dependents_and_a_label_edit_does_not(hub_project: Path,
                                                                           client: LanguageClient) -> None:
    hub_uri = open_file(client, hub_project / "deploy" / "class.yaml")
    claim_uri = open_file(client, hub_project / "claims" / "pair-00.yaml")
    closed = CLAIMS - 1
    await diagnostics_for(client, hub_uri, lambda d: fit020(d) == closed)   # the closed claims', on the hub
    assert fit020(await diagnostics_for(client, claim_uri)) == 1

    change_file(client, hub_uri, hub("nic.example.com"), 2)   # one driver for both requests: FIT020 holds nowhere
    await diagnostics_for(client, claim_uri, lambda d: fit020(d) == 0)
    await diagnostics_for(client, hub_uri, lambda d: fit020(d) == 0)

    change_file(client, hub_uri, hub("gpu.example.com"), 3)   # back: every dependent reports it again
    await diagnostics_for(client, claim_uri, lambda d: fit020(d) == 1)
    before = await diagnostics_for(client, hub_uri, lambda d: fit020(d) == closed)
    lines = sorted(d.range.start.line for d in before if d.code == "FIT020")

    published = client.diagnostics[claim_uri]
    # a label and a selector that pins no driver: nothing the dependents read (the broken CEL shows the edit arrived)
    edited = hub("gpu.example.com", "  labels: {tier: gpu}\n") + "  - cel: {expression: 'device.attributes ==='}\n"
    change_file(client, hub_uri, edited, 4)
    after = await diagnostics_for(client, hub_uri, lambda d: len(d) > len(before))
    assert fit020(after) == closed   # the dependents' findings stay, where their object now is
    assert sorted(d.range.start.line for d in after if d.code == "FIT020") == lines   # (the name did not move)
    await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(hub_uri),
                                                             types.Position(0, 0)))   # what was sent before it is in
    assert client.diagnostics[claim_uri] is published   # nothing new for the open dependent


def test_only_an_edit_the_dependents_read_checks_them_again(hub_project: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("WASDRA_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    server = Project(str(hub_project), {})
    server.workspace.scan()
    path = str(hub_project / "deploy" / "class.yaml")
    server.workspace.open(path, hub("gpu.example.com"))
    assert server.run().get(path, []) == []   # the edited file first: its dependents are not checked yet
    assert server.analysis.pending and server.analysis.dependents_checked == 0
    found = server.analysis.settle()
    assert [f.rule for f in found[path]] == ["FIT020"] * CLAIMS
    dependents = server.workspace.dependents   # the claims and the conftest project's claim template
    assert {str(hub_project / "claims" / f"pair-{n:02d}.yaml") for n in range(CLAIMS)} <= set(dependents)
    checked = server.analysis.dependents_checked
    assert checked == len(dependents)

    for text in (hub("gpu.example.com", "  labels: {tier: gpu}\n"), "# a comment\n" + hub("gpu.example.com"),
                 hub("gpu.example.com").replace("'device", "'true && device")):   # the same driver pinned
        server.workspace.open(path, text)
        assert [f.rule for f in server.run()[path]] == ["FIT020"] * CLAIMS
        assert not server.analysis.pending and server.analysis.dependents_checked == checked

    server.workspace.open(path, hub("nic.example.com"))
    server.run()
    assert server.analysis.pending   # the driver they read changed: they are checked again
    assert server.analysis.settle().get(path, []) == []
    assert server.analysis.dependents_checked == checked + len(dependents)


@pytest.mark.parametrize("driver", ["gpu.example.com", "nic.example.com"])
def test_dependents_checked_apart_find_what_the_whole_context_finds(hub_project: Path, driver: str,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("WASDRA_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    (hub_project / "claims" / "pair-05.yaml").write_text(CLAIM.replace("NUMBER", "5").replace("gpu, nic", "gpu, nick"))

    def findings() -> list[tuple[object, ...]]:
        server = Project(str(hub_project), {})
        server.workspace.scan()
        for path, text in ((hub_project / "deploy" / "class.yaml", hub(driver)),
                           (hub_project / "claims" / "pair-00.yaml", None), (hub_project / "deploy" / "infer.yaml", None)):
            server.workspace.open(str(path), path.read_text() if text is None else text)
        found = server.analysis.settle()
        return sorted((f.file, f.line, f.column, f.rule, f.message) for fs in found.values() for f in fs)

    apart = findings()
    monkeypatch.setattr("kubectl_wasdra.lsp.dependents.HUB_REFERRERS", 10 ** 9)   # no hub: the whole context at once
    assert apart == findings()
    assert apart   # (something to compare: FIT020 and the conftest project's misspelt template, at least)


def test_dependents_that_name_a_common_object_share_a_chunk() -> None:
    from kubectl_wasdra.lint.repo.index import FileEntry, RepoIndex
    from kubectl_wasdra.lsp.dependents import chunks

    hub_key = "DeviceClass//gpu.example.com"
    entries = {f"/r/job-{n:02d}.yaml": FileEntry(0, 0, 0, (f"Job/ml/job-{n}",), (hub_key, "PodGroup/ml/a" if n % 2 else
                                                                                  f"PodGroup/ml/own-{n}"))
               for n in range(10)}
    made = chunks(RepoIndex("/r", entries), sorted(entries), [hub_key], size=2)
    assert sorted(p for chunk in made for p in chunk) == sorted(entries)   # each once
    together = next(chunk for chunk in made if "/r/job-01.yaml" in chunk)
    assert {f"/r/job-{n:02d}.yaml" for n in range(1, 10, 2)} <= set(together)   # PodGroup a's members: one chunk
    assert len(made) > 1   # the hub itself binds nothing


def test_a_finding_path_is_read_back_with_the_data_deciding_where_keys_end() -> None:
    from kubectl_wasdra.lsp.dependents import _path_of

    data = {"metadata": {"labels": {"app.kubernetes.io/name": "x", "app": "y"}},
            "spec": {"devices": {"requests": [{"name": "a"}, {"name": "b", "exactly": {"count": 2}}]}}}
    assert _path_of(data, "metadata.labels.app.kubernetes.io/name") == ("metadata", "labels", "app.kubernetes.io/name")
    assert _path_of(data, "spec.devices.requests[1].exactly.count") == ("spec", "devices", "requests", 1, "exactly",
                                                                          "count")
    assert _path_of(data, "spec.devices.requests[2]") is None
    assert _path_of(data, "") == ()


def test_a_change_to_one_hub_checks_its_dependents_only(hub_project: Path, monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("WASDRA_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    (hub_project / "pods").mkdir()
    pods = HUB_REFERRERS + 1
    for number in range(pods):
        (hub_project / "pods" / f"p-{number:02d}.yaml").write_text(POD.replace("NUMBER", str(number)))
    server = Project(str(hub_project), {})
    server.workspace.scan()
    path = str(hub_project / "deploy" / "class.yaml")
    server.workspace.open(path, hub("gpu.example.com") + PRIORITY.replace("VALUE", "1000"))
    server.analysis.settle()
    checked = server.analysis.dependents_checked
    assert checked == len(server.workspace.dependents) > pods   # the claims and the pods

    server.workspace.open(path, hub("gpu.example.com") + PRIORITY.replace("VALUE", "2000"))   # the pods read it
    server.analysis.settle()
    assert server.analysis.dependents_checked - checked == pods
    checked = server.analysis.dependents_checked
    server.workspace.open(path, hub("nic.example.com") + PRIORITY.replace("VALUE", "2000"))   # the claims read it
    server.analysis.settle()
    assert server.analysis.dependents_checked - checked == len(server.workspace.dependents) - pods


POD = """\
apiVersion: v1
kind: Pod
metadata: {name: p-NUMBER, namespace: ml}
spec:
  priorityClassName: high
  containers: [{name: c, image: registry.example.com/c:1}]
"""
PRIORITY = """\
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: VALUE
"""
