"""Benchmark: `kubectl wasdra explain` at the scale of real clusters (the rows of the scale issue's table).

Each row generates its snapshot (bench/gen_cluster.py, cached under bench/out/) and manifests, runs the CLI in a fresh
process and prints CPU seconds (user+sys of that process), peak RSS, output size, exit code and the command to rerun
it. CPU time rather than wall time: the machine is shared, and wall time moves with the load.

    python bench/explain_scale.py                       # every row (takes minutes)
    python bench/explain_scale.py --rows gang,load      # some rows
    python bench/explain_scale.py --quick               # the same shapes, about a tenth of the size
    python bench/explain_scale.py --rows gang --oracle /path/to/wasdra-oracle   # kube-scheduler's time beside ours

With `--oracle PATH` (or WASDRA_ORACLE=PATH) each row's scenario is also given to kube-scheduler in the differential
harness of tools/oracle (its own 1.36 release: PodGroups as scheduling.k8s.io/v1alpha2, a Job as the pods its
controller would create), and the CPU seconds and peak RSS of that process are printed beside ours: decoding the
scenario, the informers' lists, the scheduling cycles until every pod is bound or parked. Rows marked "load part"
also run the one-tiny-pod case on their snapshot, which is what loading it costs.

Rows:
  gang        2,000 nodes, 40 racks, 70% of GPUs held; a 40-pod gang with a rack constraint, 4 GPUs per pod on one
              NUMA node (matchAttribute resource.kubernetes.io/numaNode), with suggestions
  load        the same snapshot, one tiny pod to place (what loading the snapshot costs)
  standalone  2,000 standalone 100m-CPU pods against a 10-node cluster (half of them fit), default flags, text
  job10k      a Job of parallelism 10,000 (40 CPUs and one GPU a pod, half fit) on a 5,000-node snapshot, default flags
  pods100k    a Job of parallelism 100,000 (4 CPUs a pod) on the 5,000-node snapshot, -o json --no-suggestions
  fit1k       a 1,000-pod gang, 4 GPUs a pod on one NUMA node, on the 5,000-node snapshot: fits
  gang-json   the gang row with -o json (the baseline of the next row)
  gang-plugins  the gang row with -o json --plugin-results (every Filter and Score plugin per node, 20 closest nodes)
  fit1k-json  the fit1k row with -o json --no-suggestions (the baseline of the next row)
  fit1k-plugins  the fit1k row with -o json --no-suggestions --plugin-results
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
GATES = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true",
         "--runtime-config", "scheduling.k8s.io/v1beta1=true"]
GPU = "gpu.example.com"
NUMA = "resource.kubernetes.io/numaNode"


@dataclass(frozen=True)
class Row:
    """One case: the cluster generator's arguments, the manifests, extra flags and the issue's target."""

    name: str
    cluster: tuple[int, int, int, float, int]  # nodes, devices per node, pods per node, fill, racks
    manifests: Any  # (scale) -> list of objects
    flags: tuple[str, ...]
    target: str
    env: tuple[tuple[str, str], ...] = ()
    load_part: bool = False  # also measure loading the snapshot alone (one tiny pod to place)


def _template(name: str, count: int, numa: bool) -> dict[str, Any]:
    devices: dict[str, Any] = {"requests": [{"name": "gpus", "exactly": {"deviceClassName": GPU, "count": count}}]}
    if numa:
        devices["constraints"] = [{"requests": ["gpus"], "matchAttribute": NUMA}]
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
            "metadata": {"name": name, "namespace": "ml"}, "spec": {"spec": {"devices": devices}}}


def _pod_group(name: str, min_count: int, topology: str | None) -> dict[str, Any]:
    spec: dict[str, Any] = {"schedulingPolicy": {"gang": {"minCount": min_count}}}
    if topology:
        spec["schedulingConstraints"] = {"topology": [{"key": topology}]}
    return {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": name, "namespace": "ml"},
            "spec": spec}


def _job(name: str, parallelism: int, cpu: str, template: str | None, group: str | None) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "worker", "image": "registry.example.com/trainer:1.0",
                                 "resources": {"requests": {"cpu": cpu, "memory": "1Gi"}}}
    spec: dict[str, Any] = {"restartPolicy": "Never", "containers": [container]}
    if template:
        container["resources"]["claims"] = [{"name": "gpus"}]
        spec["resourceClaims"] = [{"name": "gpus", "resourceClaimTemplateName": template}]
    if group:
        spec["schedulingGroup"] = {"podGroupName": group}
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name, "namespace": "ml"},
            "spec": {"completionMode": "Indexed", "completions": parallelism, "parallelism": parallelism,
                     "template": {"spec": spec}}}


def _pods(count: int, cpu: str) -> list[dict[str, Any]]:
    return [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"web-{i:05d}", "namespace": "ml"},
             "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": cpu}}}]}}
            for i in range(count)]


def gang_manifests(scale: float) -> list[dict[str, Any]]:
    """The 40-pod NUMA gang with a rack constraint."""
    pods = max(int(40 * scale), 4)
    return [_template("gpu-4-numa", 4, True), _pod_group("train", pods, "example.com/rack"),
            _job("train", pods, "8", "gpu-4-numa", "train")]


def load_manifests(scale: float) -> list[dict[str, Any]]:
    """One tiny pod."""
    return _pods(1, "10m")


def standalone_manifests(scale: float) -> list[dict[str, Any]]:
    """Many small standalone pods, half of which find no pod slot."""
    return _pods(int(2000 * scale), "100m")


def job10k_manifests(scale: float) -> list[dict[str, Any]]:
    """A Job of 10,000 pods, each 40 CPUs and one GPU: one such pod fits a node."""
    return [_template("gpu-1", 1, False), _job("sweep", int(10_000 * scale), "40", "gpu-1", None)]


def pods100k_manifests(scale: float) -> list[dict[str, Any]]:
    """A Job of 100,000 pods of 4 CPUs."""
    return [_job("batch", int(100_000 * scale), "4", None, None)]


def fit1k_manifests(scale: float) -> list[dict[str, Any]]:
    """A 1,000-pod gang of NUMA-aligned 4-GPU pods with room for it."""
    pods = int(1000 * scale)
    return [_template("gpu-4-numa", 4, True), _pod_group("train", pods, None), _job("train", pods, "8", "gpu-4-numa", "train")]


ROWS = {
    "gang": Row("gang", (2000, 8, 8, 0.7, 40), gang_manifests, (), "<= 2.5 s, <= 500 MB"),
    "load": Row("load", (2000, 8, 8, 0.7, 40), load_manifests, (), "<= 1 s, <= 300 MB"),
    "standalone": Row("standalone", (10, 8, 10, 0.5, 2), standalone_manifests, (), "<= 3 s, output <= 1 MB"),
    "job10k": Row("job10k", (5000, 8, 10, 0.5, 50), job10k_manifests, (), "<= 20 s, <= 2 GiB"),
    "pods100k": Row("pods100k", (5000, 8, 10, 0.5, 50), pods100k_manifests, ("-o", "json", "--no-suggestions"),
                    "<= 60 s, <= 3 GiB", (("WASDRA_MAX_JOB_PODS", "100000"),)),
    "fit1k": Row("fit1k", (5000, 8, 10, 0.5, 50), fit1k_manifests, (), "<= 8 s (load <= 2.5 s)", load_part=True),
    "gang-json": Row("gang-json", (2000, 8, 8, 0.7, 40), gang_manifests, ("-o", "json"), "as gang"),
    "gang-plugins": Row("gang-plugins", (2000, 8, 8, 0.7, 40), gang_manifests, ("-o", "json", "--plugin-results"),
                        "measured against gang-json"),
    "fit1k-json": Row("fit1k-json", (5000, 8, 10, 0.5, 50), fit1k_manifests, ("-o", "json", "--no-suggestions"),
                      "as fit1k"),
    "fit1k-plugins": Row("fit1k-plugins", (5000, 8, 10, 0.5, 50), fit1k_manifests,
                         ("-o", "json", "--no-suggestions", "--plugin-results"), "measured against fit1k-json"),
}


def bytecode_env() -> dict[str, str]:
    """The environment for a measured process: the package runs from compiled bytecode, as an installed one does (pip
    compiles it at install), kept under bench/out/pycache so that no source tree is written to. Without this, an
    environment with PYTHONDONTWRITEBYTECODE=1 (this machine's) compiles some 300 modules in every run (~0.3 CPU s)."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(OUT / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_package(checkout: str | None) -> None:
    """Compile the measured package once, before the timed runs (what `pip install` does for an installed one)."""
    code = "import compileall, os, kubectl_wasdra; compileall.compile_dir(os.path.dirname(kubectl_wasdra.__file__), quiet=1)"
    env = {**bytecode_env(), **({"PYTHONPATH": checkout} if checkout else {})}
    subprocess.run([sys.executable, "-c", code], env=env, cwd=checkout or None, check=True)


def cluster_file(args: tuple[int, int, int, float, int], scale: float) -> Path:
    """The generated snapshot for these generator arguments (written once, then reused)."""
    nodes, devices, pods, fill, racks = args
    nodes = max(int(nodes * scale), racks) if scale != 1 else nodes
    path = OUT / f"cluster-{nodes}n-{devices}d-{pods}p-{fill}f-{racks}r.json"
    if not path.exists():
        OUT.mkdir(exist_ok=True)
        subprocess.run([sys.executable, str(HERE / "gen_cluster.py"), "--nodes", str(nodes), "--devices-per-node",
                        str(devices), "--pods-per-node", str(pods), "--fill", str(fill), "--racks", str(racks),
                        "-o", str(path)], check=True)
    return path


ORACLE_GATES = {"GangScheduling": True, "GenericWorkload": True, "TopologyAwareWorkloadScheduling": True}
ORACLE_GROUP_VERSION = "scheduling.k8s.io/v1alpha2"  # the oracle's release (1.36) serves PodGroups there


def oracle_scenario(row: Row, scale: float) -> Path:
    """The row as one line of the oracle's input ({"id", "featureGates", "snapshot", "manifests"}, tools/oracle):
    the snapshot's items, and the manifests as the API server and controllers would turn them into objects (a Job's
    pods, as explain materialises them; PodGroups in the oracle's version). Written once per row and scale."""
    path = OUT / f"{row.name}{'' if scale == 1 else f'-x{scale}'}-oracle.jsonl"
    if path.exists():
        return path
    # written by a forked child, so that this process stays small: a child's peak RSS (wait4) starts from the size of
    # the process that forked it, and the snapshot decoded here made the rows after it read ~20-240 MiB too high
    import multiprocessing

    child = multiprocessing.get_context("fork").Process(target=_write_scenario, args=(row, scale, path))
    child.start()
    child.join()
    if child.exitcode:
        raise SystemExit(f"writing the oracle scenario {path} failed (exit {child.exitcode})")
    return path


def _write_scenario(row: Row, scale: float, path: Path) -> None:
    """The body of oracle_scenario, run in a child process."""
    from kubectl_wasdra.explain.overlay import MAX_JOB_PODS, build_overlay

    snapshot = orjson.loads(cluster_file(row.cluster, scale).read_bytes())
    overlay = build_overlay(row.manifests(scale), job_pod_cap=int(dict(row.env).get("WASDRA_MAX_JOB_PODS", MAX_JOB_PODS)))
    manifests = [({**obj, "apiVersion": ORACLE_GROUP_VERSION} if obj.get("kind") == "PodGroup" else obj)
                 for obj in overlay.objects]
    scenario = {"id": row.name, "featureGates": ORACLE_GATES, "snapshot": snapshot.get("items", []),
                "manifests": manifests}
    path.write_bytes(orjson.dumps(scenario) + b"\n")


def run_oracle(row: Row, scale: float, oracle: str, timeout: float) -> dict[str, Any]:
    """kube-scheduler (the oracle harness) on the row's scenario in a fresh process: CPU seconds, peak RSS (MiB),
    pods bound of pods pending, and the harness's own verdict on the run (error, timed out)."""
    scenario = oracle_scenario(row, scale)
    gates = ",".join(f"{k}={str(v).lower()}" for k, v in sorted(ORACLE_GATES.items()))
    command = [oracle, f"--feature-gates={gates}", f"--timeout={int(timeout)}s"]
    output = OUT / f"{row.name}-oracle.out"
    with open(scenario, "rb") as source, open(output, "wb") as sink, open(os.devnull, "wb") as errors:
        proc = subprocess.Popen(command, stdin=source, stdout=sink, stderr=errors)
        code, usage = _wait(proc.pid, timeout)
    try:
        answer = orjson.loads(output.read_bytes().splitlines()[0])
    except (IndexError, orjson.JSONDecodeError):
        answer = {"error": f"no answer (exit {code})", "pods": {}}
    pods = answer.get("pods") or {}
    return {"cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024, "exit": code,
            "bound": sum(1 for p in pods.values() if p.get("node")), "pods": len(pods),
            "error": answer.get("error") or ("timed out" if answer.get("timedOut") else ""),
            "command": f"{Path(oracle).name} {' '.join(command[1:])} < {scenario}"}


def run_row(row: Row, scale: float, timeout: float, checkout: str | None = None) -> dict[str, Any]:
    """Run one row in a fresh process: CPU seconds, peak RSS (MiB), output bytes, exit code, the command. With
    `checkout`, the kubectl_wasdra package of that directory runs instead of the installed one (before/after)."""
    cluster = cluster_file(row.cluster, scale)
    manifests = OUT / f"{row.name}{'' if scale == 1 else f'-x{scale}'}.json"
    manifests.write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List", "items": row.manifests(scale)}))
    exe = shutil.which("kubectl-wasdra") or str(Path(sys.executable).parent / "kubectl-wasdra")
    if checkout:
        exe = f"{sys.executable} -m kubectl_wasdra"
    command = [*exe.split(" "), "explain", "-f", str(manifests), "--snapshot", str(cluster), *GATES, *row.flags]
    env = {**bytecode_env(), **dict(row.env), **({"PYTHONPATH": checkout} if checkout else {})}
    env.pop("CI", None)
    started = time.perf_counter()
    output = OUT / f"{row.name}{'-before' if checkout else ''}.out"
    with open(output, "wb") as sink, open(os.devnull, "wb") as errors:
        # -m puts the working directory first on sys.path: run from the checkout, so that its package is the one run
        proc = subprocess.Popen(command, stdout=sink, stderr=errors, env=env, cwd=checkout or None)
        usage = _wait(proc.pid, timeout)
    wall = time.perf_counter() - started
    shown = " ".join(f"{k}={v}" for k, v in row.env) + (" " if row.env else "") + " ".join(
        [Path(command[0]).name, *command[1:]])
    return {"row": row.name, "cpu": usage[1].ru_utime + usage[1].ru_stime, "rss": usage[1].ru_maxrss / 1024,
            "wall": wall, "output": output.stat().st_size, "exit": usage[0], "target": row.target, "command": shown}


def _cpu(pid: int) -> float:
    """CPU seconds (user+sys) a running process has used so far, from /proc (0 where /proc is missing)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait(pid: int, timeout: float) -> tuple[int, Any]:
    """(exit code, rusage) of the child; it is killed once it has used `timeout` CPU seconds (exit -9): on a shared
    machine wall time says little."""
    while True:
        found, status, usage = os.wait4(pid, os.WNOHANG)
        if found:
            return os.waitstatus_to_exitcode(status), usage
        if _cpu(pid) > timeout:
            os.kill(pid, 9)
            _, status, usage = os.wait4(pid, 0)
            return os.waitstatus_to_exitcode(status), usage
        time.sleep(0.05)


def chosen_rows(parser: argparse.ArgumentParser, text: str, rows: dict[str, Any]) -> list[str]:
    """The names of the comma-separated --rows value; a usage error names the unknown ones and the known ones."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in rows]
    if unknown:
        parser.error(f"unknown rows {unknown}; known: {', '.join(rows)}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated, of: {', '.join(ROWS)}")
    parser.add_argument("--quick", action="store_true", help="about a tenth of each size (the same shapes)")
    parser.add_argument("--timeout", type=float, default=300, help="CPU seconds before a row is killed")
    parser.add_argument("--checkout", help="run the kubectl_wasdra package of this directory (e.g. a main worktree)")
    parser.add_argument("--oracle", default=os.environ.get("WASDRA_ORACLE"),
                        help="the built kube-scheduler harness of tools/oracle (default: $WASDRA_ORACLE): its time on "
                             "each row's scenario is printed beside ours")
    args = parser.parse_args(argv)
    scale = 0.1 if args.quick else 1.0
    OUT.mkdir(exist_ok=True)
    compile_package(args.checkout)
    names = chosen_rows(parser, args.rows, ROWS)
    print(f"{'row':<11} {'CPU s':>7} {'peak MiB':>9} {'output':>10} {'exit':>4}  target")
    for name in names:
        result = run_row(ROWS[name], scale, args.timeout, args.checkout)
        killed = f" (killed after {args.timeout:g} CPU s)" if result["exit"] == -9 else ""
        print(f"{result['row']:<11} {result['cpu']:>7.2f} {result['rss']:>9.0f} {_size(result['output']):>10} "
              f"{result['exit']:>4}  {result['target']}{killed}")
        print(f"    rerun: {result['command']}", flush=True)
        row = ROWS[name]
        if row.load_part:
            load = run_row(replace(row, name=f"{name}-load", manifests=load_manifests), scale, args.timeout, args.checkout)
            print(f"    of which loading the snapshot (one tiny pod to place): {load['cpu']:.2f} CPU s, "
                  f"{load['rss']:.0f} MiB peak", flush=True)
        _print_oracle(row, scale, args)
    print(f"(CPU = user+sys of the explain process, run from compiled bytecode; peak RSS from wait4; rerun all: "
          f"python bench/explain_scale.py"
          f"{' --quick' if args.quick else ''} --rows {','.join(names)})")
    return 0


def _print_oracle(row: Row, scale: float, args: argparse.Namespace) -> None:
    """kube-scheduler's figures for the row, or why there are none."""
    if not args.oracle:
        print("    kube-scheduler: not measured (give --oracle PATH or WASDRA_ORACLE)", flush=True)
        return
    found = run_oracle(row, scale, args.oracle, args.timeout)
    verdict = found["error"] or f"{found['bound']:,} of {found['pods']:,} pending pods bound"
    killed = f" (killed after {args.timeout:g} CPU s)" if found["exit"] == -9 else ""
    print(f"    kube-scheduler: {found['cpu']:.2f} CPU s, {found['rss']:.0f} MiB peak; {verdict}{killed}", flush=True)
    print(f"      rerun: {found['command']}", flush=True)


def _size(count: int) -> str:
    return f"{count / 2**20:.1f} MiB" if count >= 2**20 else f"{count / 1024:.0f} KiB"


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.exit(main())
