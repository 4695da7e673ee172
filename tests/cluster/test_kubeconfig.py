"""KUBECONFIG merged by kubectl's rules (client-go clientcmd/loader.go): one test per rule, each on what the client
would then use (the server, the token, the CA file, the namespace), not only on the merged dict."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fake_apiserver import FakeApiServer, serve

from kubectl_wasdra.cluster.kubeconfig import context_namespace, kubeconfig_files, merged_kubeconfig
from kubectl_wasdra.cluster.live import LiveOptions, _client, read_live
from kubectl_wasdra.errors import UsageError


def _write(path: Path, *, current: str | None = None, clusters: dict | None = None, users: dict | None = None,
           contexts: dict | None = None) -> str:
    config: dict = {"apiVersion": "v1", "kind": "Config",
                    "clusters": [{"name": n, "cluster": c} for n, c in (clusters or {}).items()],
                    "users": [{"name": n, "user": u} for n, u in (users or {}).items()],
                    "contexts": [{"name": n, "context": c} for n, c in (contexts or {}).items()]}
    if current is not None:
        config["current-context"] = current
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config))
    return str(path)


def _configuration(files: list[str], context: str | None = None):
    api, _withheld = _client(LiveOptions(kubeconfig_env=os.pathsep.join(files), context=context))
    return api.configuration


def test_the_first_file_with_a_current_context_wins(tmp_path: Path) -> None:
    """kubectl reads the first file's current-context; the client library alone would take the last one's."""
    server = FakeApiServer(objects={})
    with serve(server) as url:
        first = _write(tmp_path / "a.yaml", current="a", clusters={"a": {"server": url}}, users={"u": {}},
                       contexts={"a": {"cluster": "a", "user": "u", "namespace": "from-a"}})
        second = _write(tmp_path / "b.yaml", current="b", clusters={"b": {"server": "http://127.0.0.1:9"}},
                        contexts={"b": {"cluster": "b", "user": "u", "namespace": "from-b"}})
        snapshot = read_live(LiveOptions(kubeconfig_env=os.pathsep.join([first, second]), kinds=("Node",)))
    assert snapshot.header.server_version == "v1.37.0", "read the first file's cluster"
    assert server.requests, "the first file's server was asked"
    assert context_namespace(None, None, os.pathsep.join([first, second])) == "from-a"


def test_a_file_without_current_context_gives_way_to_the_next(tmp_path: Path) -> None:
    first = _write(tmp_path / "a.yaml", clusters={"a": {"server": "https://a.example:6443"}}, users={"u": {"token": "t"}},
                   contexts={"a": {"cluster": "a", "user": "u"}})
    second = _write(tmp_path / "b.yaml", current="a")
    assert _configuration([first, second]).host == "https://a.example:6443"


def test_each_named_entry_comes_whole_from_the_first_file(tmp_path: Path) -> None:
    """A cluster, user or context named in two files is the first file's, field for field (not a merge of both)."""
    first = _write(tmp_path / "a.yaml", current="c", clusters={"k": {"server": "https://first:6443"}},
                   users={"u": {"token": "first-token"}}, contexts={"c": {"cluster": "k", "user": "u"}})
    second = _write(tmp_path / "b.yaml", current="c",
                    clusters={"k": {"server": "https://second:6443", "insecure-skip-tls-verify": True}},
                    users={"u": {"token": "second-token", "username": "x"}},
                    contexts={"c": {"cluster": "k", "user": "u", "namespace": "second"}})
    configuration = _configuration([first, second])
    assert configuration.host == "https://first:6443" and configuration.verify_ssl is True
    assert configuration.api_key["BearerToken"] == "Bearer first-token"
    assert context_namespace(None, None, os.pathsep.join([first, second])) == "default"


def test_relative_paths_resolve_against_the_file_that_holds_them(tmp_path: Path) -> None:
    """The cluster's CA next to a.yaml, the user's token file next to b/b.yaml (the library would use a.yaml's
    directory for both)."""
    (tmp_path / "ca.crt").write_text("not really a CA")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "token").write_text("token-from-b\n")
    first = _write(tmp_path / "a.yaml", current="c", clusters={"k": {"server": "https://k:6443",
                                                                      "certificate-authority": "ca.crt"}},
                   contexts={"c": {"cluster": "k", "user": "u"}})
    second = _write(tmp_path / "b" / "b.yaml", users={"u": {"tokenFile": "token"}})
    merged = merged_kubeconfig([first, second])
    assert merged["clusters"][0]["cluster"]["certificate-authority"] == str(tmp_path / "ca.crt")
    assert merged["users"][0]["user"]["tokenFile"] == str(tmp_path / "b" / "token")
    configuration = _configuration([first, second])
    assert configuration.api_key["BearerToken"] == "Bearer token-from-b"
    assert Path(configuration.ssl_ca_cert).read_text() == "not really a CA"


def test_an_exec_command_with_a_slash_is_relative_to_its_file_a_bare_name_is_looked_up_on_path(tmp_path: Path) -> None:
    path = _write(tmp_path / "d" / "a.yaml", users={
        "rel": {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": "./bin/login"}},
        "bare": {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": "login"}}})
    users = {u["name"]: u["user"]["exec"]["command"] for u in merged_kubeconfig([path])["users"]}
    assert users == {"rel": str(tmp_path / "d" / "bin" / "login"), "bare": "login"}


def test_missing_files_are_skipped_and_a_file_listed_twice_is_read_once(tmp_path: Path) -> None:
    real = _write(tmp_path / "a.yaml", current="c")
    missing = str(tmp_path / "missing.yaml")
    assert kubeconfig_files(None, os.pathsep.join([missing, real, real, ""])) == [real]


def test_kubeconfig_flag_names_one_file_and_ignores_kubeconfig_env(tmp_path: Path) -> None:
    first = _write(tmp_path / "a.yaml", current="a", clusters={"a": {"server": "https://a:6443"}}, users={"u": {}},
                   contexts={"a": {"cluster": "a", "user": "u"}})
    flag = _write(tmp_path / "f.yaml", current="f", clusters={"f": {"server": "https://f:6443"}}, users={"u": {}},
                  contexts={"f": {"cluster": "f", "user": "u"}})
    assert kubeconfig_files(flag, first) == [flag]
    api, _ = _client(LiveOptions(kubeconfig=flag, kubeconfig_env=first))
    assert api.configuration.host == "https://f:6443"
    with pytest.raises(UsageError, match="cannot read the kubeconfig"):
        merged_kubeconfig(kubeconfig_files(str(tmp_path / "nope.yaml"), None))


def test_an_empty_file_in_the_list_is_an_empty_config(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    real = _write(tmp_path / "a.yaml", current="a", clusters={"a": {"server": "https://a:6443"}}, users={"u": {}},
                  contexts={"a": {"cluster": "a", "user": "u"}})
    assert _configuration([str(empty), real]).host == "https://a:6443"
