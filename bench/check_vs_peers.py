#!/usr/bin/env python3
"""`kubectl-wasdra check` side by side with its peers, in CPU seconds, on corpora with and without findings.

Generates under bench/out/peers:
  clean/      2,000 valid documents in 200 files (bench/check_throughput.py's corpus)
  findings/   the same without the DeviceClass every ResourceClaim names (400 REF003 findings, 20% of the documents)
  large/      20,000 documents in 2,000 files
  ten.yaml    one 10-document file;  small.yaml  one ConfigMap
then runs, repetitions alternating between the tools so that load on the shared machine hits all of them alike:
  kubectl-wasdra check ... -o json     (also the findings corpus with --ignore REF003, and --version / --help)
  kubernetes-validate --strict -k 1.37.0 --quiet   (on the first --kv-files files only: it takes ~13 ms a document)
  kubeconform -strict -summary         when it is on PATH or given with --kubeconform (skipped with a note otherwise),
                                       offline, on kubernetes-validate's own 1.37.0 strict schemas (see kubeconform_schemas)
  the yaml_rs parse floor              (yaml_rs.loads of every file, in this process, no interpreter start-up)
and prints CPU (user+sys of the process and its workers) and wall medians, documents per CPU-second, peak RSS and the
ratio of kubectl-wasdra's CPU to each peer's, as a Markdown table.

    python bench/check_vs_peers.py --repeat 7
    python bench/check_vs_peers.py --repeat 3 --quick      # without the 20,000-document corpus and kubernetes-validate
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_throughput
from check_throughput import DOCS_PER_FILE, ENV, MAKERS, generate

OUT = Path(__file__).resolve().parent / "out" / "peers"


def other_device_class(i: int) -> dict:
    """check_throughput's DeviceClass, never the "gpu.example.com" that every ResourceClaim names (REF003)."""
    device_class = check_throughput.device_class(i)
    device_class["metadata"]["name"] = f"gpu-{i}.example.com"
    return device_class


@dataclass
class Runs:
    """The measurements of one command over the repetitions."""

    label: str
    documents: int
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    rss_mib: list[float] = field(default_factory=list)

    def row(self, reference: Runs | None) -> str:
        cpu, wall = statistics.median(self.cpu), statistics.median(self.wall)
        rate = f"{self.documents / cpu:,.0f}" if self.documents and cpu else ""
        rss = f"{max(self.rss_mib):.0f}" if self.rss_mib else ""
        ratio = f"{statistics.median(reference.cpu) / cpu:.2f}x" if reference and cpu else ""
        return f"| {self.label} | {cpu:.3f} | {wall:.3f} | {rate} | {rss} | {ratio} |"


def run_child(command: list[str], runs: Runs, ok: tuple[int, ...] = (0, 1)) -> None:
    """One run of `command`: CPU of the process and every worker it waited for (wait4), wall, peak RSS."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    runs.wall.append(time.perf_counter() - start)
    runs.cpu.append(usage.ru_utime + usage.ru_stime)
    runs.rss_mib.append(usage.ru_maxrss / 1024)
    if process.returncode not in ok:
        sys.exit(f"{' '.join(command[:4])} ... exited {process.returncode}: {errors.decode(errors='replace')[:800]}")


def run_parse_floor(paths: list[Path], runs: Runs) -> None:
    """yaml_rs.loads of every file in this process: the parse floor, without interpreter start-up."""
    import yaml_rs

    start_wall, start_cpu = time.perf_counter(), time.process_time()
    for path in paths:
        yaml_rs.loads(path.read_text(), parse_datetime=False)
    runs.cpu.append(time.process_time() - start_cpu)
    runs.wall.append(time.perf_counter() - start_wall)


@dataclass
class Plan:
    """What to run, in the order of one repetition, and the rows of the table (each with its kubeconform row)."""

    steps: list[tuple[Runs, Callable[[Runs], None]]] = field(default_factory=list)
    rows: list[tuple[Runs, Runs | None]] = field(default_factory=list)

    def child(self, label: str, documents: int, command: list[str], ok: tuple[int, ...] = (0, 1)) -> Runs:
        runs = Runs(label, documents)
        self.steps.append((runs, lambda r: run_child(command, r, ok)))
        return runs

    def median(self, label: str) -> float:
        return statistics.median(next(r for r, _ in self.rows if r.label == label).cpu)


def corpora(quick: bool) -> list[tuple[str, list[Path], Path, tuple[str, ...]]]:
    """(label, files, what to pass to check, extra flags) of every measured input, written under bench/out/peers."""
    clean = generate(OUT / "clean", 200, MAKERS)
    findings = generate(OUT / "findings", 200, tuple(other_device_class if m is check_throughput.device_class
                                                         else m for m in MAKERS))
    ten, small = OUT / "ten.yaml", OUT / "small.yaml"
    shutil.copy(clean[0], ten)
    small.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: prod\n")
    cases = [("2,000 docs, 20% findings", findings, OUT / "findings", ()),
             ("2,000 docs, 20% findings, --ignore REF003", findings, OUT / "findings", ("--ignore", "REF003")),
             ("2,000 clean docs", clean, OUT / "clean", ()),
             ("2,000 clean docs, -j 1", clean, OUT / "clean", ("-j", "1"))]
    if not quick:
        cases.append(("20,000 clean docs / 2,000 files", generate(OUT / "large", 2000, MAKERS), OUT / "large", ()))
    return [*cases, ("one 10-document file", [ten], ten, ()), ("one ConfigMap", [small], small, ())]


def console_script(name: str) -> str | None:
    """The command as pip installed it for this interpreter (bin/ beside sys.executable), else the one on PATH.
    A version manager's shim on PATH (pyenv's is a bash script) would add its own start-up to every run."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    return beside if os.access(beside, os.X_OK) else shutil.which(name)


def script_interpreter(command: str) -> str:
    """The interpreter a console script starts (its #! line), else this one: its bare start-up is the yardstick for
    how fast the machine is during the run (CPU figures of one machine class differ from day to day)."""
    try:
        with open(command, "rb") as script:
            first = script.readline().decode("utf-8", "replace").strip()
    except OSError:
        return sys.executable
    words = first[2:].split() if first.startswith("#!") else []
    return words[0] if words and os.access(words[0], os.X_OK) else sys.executable


def kubeconform_schemas() -> str | None:
    """A -schema-location for kubeconform made from the installed kubernetes-validate's v1.37.0-local-strict schemas
    (under bench/out/kubeconform-schemas), so both tools check against the same schemas without a network. Those
    files name themselves https://kubernetes.io/api/... ($id) and refer to "/api/_definitions.json", a 2 MiB file of
    every definition; kubeconform resolves references against the $id. Each copy is made standalone, as kubeconform's
    own schema sets are: without its $id, with the definitions it reaches under its own $defs."""
    try:
        import kubernetes_validate
    except ImportError:
        return None
    source = Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema" / "v1.37.0-local-strict"
    target = OUT.parent / "kubeconform-schemas" / "v1.37.0-standalone-strict"
    if not source.is_dir():
        return None
    kinds = [p for p in source.glob("*.json") if not p.name.startswith("_") and p.name != "all.json"]
    if not target.is_dir() or len(list(target.iterdir())) != len(kinds):
        definitions = json.loads((source / "_definitions.json").read_text())["$defs"]
        target.mkdir(parents=True, exist_ok=True)
        for schema in kinds:
            data = json.loads(schema.read_text().replace('"/api/_definitions.json#/$defs/', '"#/$defs/'))
            data.pop("$id", None)
            data["$defs"] = _reached(data, definitions)
            (target / schema.name).write_text(json.dumps(data))
    return str(target.parent / "{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}" /
               "{{ .ResourceKind }}{{ .KindSuffix }}.json")


def _reached(schema: dict, definitions: dict) -> dict:
    """The definitions `schema` refers to ("#/$defs/<name>"), and theirs, by name (the closure `check` takes)."""
    from kubectl_wasdra.catalog.schemas import _closure

    return {name: value for name, value in _closure({**definitions, "": schema}, "").items() if name}


def make_plan(args: argparse.Namespace) -> Plan:
    plan = Plan()
    words = args.wasdra.split()
    wasdra = [console_script(words[0]) or words[0], *words[1:]]
    kubeconform = args.kubeconform or shutil.which("kubeconform")
    schema_location = kubeconform_schemas() if kubeconform else None
    if kubeconform and schema_location is None:
        print("kubeconform: no kubernetes-validate schemas to give it (pip install kubernetes-validate), skipped")
        kubeconform = None
    args.kubeconform_used = kubeconform
    print(f"measuring: {' '.join(wasdra)}", flush=True)
    cases = corpora(args.quick)
    for label, paths, target, extra in cases:
        documents = len(paths) * DOCS_PER_FILE if label != "one ConfigMap" else 1
        ours = plan.child(f"kubectl-wasdra: {label}", documents, [*wasdra, "check", str(target), "-o", "json", *extra])
        theirs = None
        if kubeconform and not extra:
            theirs = plan.child(f"kubeconform: {label}", documents, [kubeconform, "-strict", "-summary",
                                                                      "-kubernetes-version", "1.37.0", "-schema-location",
                                                                      schema_location, *map(str, paths)])
        plan.rows.append((ours, theirs))
    clean = cases[2][1]
    floor = Runs("yaml_rs parse floor: 2,000 clean docs (in-process)", len(clean) * DOCS_PER_FILE)
    plan.steps.append((floor, lambda r: run_parse_floor(clean, r)))
    plan.rows.append((floor, None))
    for flag in ("--version", "--help"):
        plan.rows.append((plan.child(f"kubectl-wasdra {flag}", 0, [*wasdra, flag], ok=(0,)), None))
    interpreter = script_interpreter(wasdra[0])
    plan.rows.append((plan.child(f"its interpreter alone ({os.path.basename(interpreter)} -c pass): how fast the "
                                 "machine is now", 0, [interpreter, "-c", "pass"], ok=(0,)), None))
    kv = None if args.quick else console_script("kubernetes-validate")
    if kv:
        subset = clean[: args.kv_files]
        documents = len(subset) * DOCS_PER_FILE
        plan.rows.append((plan.child(f"kubernetes-validate --strict: {documents} clean docs", documents,
                                     [kv, "--strict", "-k", "1.37.0", "--quiet", *map(str, subset)]), None))
    return plan


def print_report(plan: Plan, args: argparse.Namespace) -> None:
    print(f"medians of {args.repeat} alternating runs; CPU = user+sys of the process and its workers; "
          f"ratio = peer CPU / our CPU (> 1: we are faster)\n")
    print("| run | CPU s | wall s | documents / CPU-s | peak RSS MiB | vs kubeconform |")
    print("|---|---|---|---|---|---|")
    for runs, reference in plan.rows:
        print(runs.row(reference))
    findings = next(r for r, _ in plan.rows if r.label == "kubectl-wasdra: 2,000 docs, 20% findings").cpu
    ignored = next(r for r, _ in plan.rows if r.label == "kubectl-wasdra: 2,000 docs, 20% findings, --ignore REF003").cpu
    # paired: each repetition runs both back to back, so the machine's drift cancels out of each pair's ratio
    paired = statistics.median(f / i for f, i in zip(findings, ignored, strict=True))
    of_medians = statistics.median(findings) / statistics.median(ignored)
    print(f"\nfindings cost {paired - 1:+.0%} CPU over the same corpus with REF003 ignored (median of the "
          f"{len(findings)} paired ratios; ratio of the medians {of_medians - 1:+.0%})")
    if not args.quick:
        large = plan.median("kubectl-wasdra: 20,000 clean docs / 2,000 files") / 20000
        print(f"per-document CPU at 20,000 documents: {large / (plan.median('kubectl-wasdra: 2,000 clean docs') / 2000) - 1:+.0%}"
              " against 2,000")
    kv = [runs for runs, _ in plan.rows if runs.label.startswith("kubernetes-validate")]
    if kv:
        ours = plan.median("kubectl-wasdra: 2,000 clean docs") / 2000
        print(f"kubernetes-validate: {statistics.median(kv[0].cpu) / kv[0].documents / ours:.0f}x our CPU per document")
    if not args.kubeconform_used:
        print("kubeconform: not on PATH and no --kubeconform given, skipped (it is not in Debian's packages: "
              "pass a kubeconform binary with --kubeconform PATH)")
    given = f" --kubeconform {args.kubeconform}" if args.kubeconform else ""
    print(f"\ncommand: python bench/check_vs_peers.py --repeat {args.repeat}{' --quick' if args.quick else ''}{given}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="alternating repetitions; medians are reported (default 7)")
    parser.add_argument("--kv-files", type=int, default=5, help="files given to kubernetes-validate (default 5)")
    parser.add_argument("--quick", action="store_true", help="skip the 20,000-document corpus and kubernetes-validate")
    parser.add_argument("--wasdra", default="kubectl-wasdra", help="the command to measure (default: kubectl-wasdra)")
    parser.add_argument("--kubeconform", default=None, help="the kubeconform binary (default: the one on PATH)")
    args = parser.parse_args()
    plan = make_plan(args)
    for _ in range(args.repeat):
        for runs, run in plan.steps:
            run(runs)
    print_report(plan, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
