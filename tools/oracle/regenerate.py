"""Regenerate the differential corpus (tests/oracle/corpus.jsonl) with a built oracle binary, or measure agreement on
scenarios that are not stored.

    python tools/oracle/regenerate.py --oracle PATH            # or WASDRA_ORACLE=PATH; writes tests/oracle/corpus.jsonl
    python tools/oracle/regenerate.py --first 100000 --count 300 --out /tmp/independent.jsonl   # independent seeds

The scenarios come from tests/oracle/scenarios.py (seeded, deterministic); only each seed, a digest of its objects and
kube-scheduler's verdict are stored. After writing, the simulator is run on every scenario and the agreement printed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.oracle.scenarios import FEATURE_GATES, digest, generate  # noqa: E402

GATES = ",".join(f"{k}={str(v).lower()}" for k, v in sorted(FEATURE_GATES.items()))


def compact(scenario: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The stored form of one oracle answer: per pod the node and its top-score tie set, or the message; victims and
    claim allocations when there are any."""
    pods = {key: _pod_verdict(pod) for key, pod in sorted(result.get("pods", {}).items())}
    out = {"id": scenario["id"], "seed": scenario["seed"], "digest": digest(scenario), "pods": pods}
    for field in ("error", "timedOut"):
        if result.get(field):
            out[field] = result[field]
    return out


def _pod_verdict(pod: dict[str, Any]) -> dict[str, Any]:
    verdict: dict[str, Any] = {}
    if pod.get("rejected"):
        verdict["rejected"] = pod["rejected"]
    elif pod.get("node"):
        verdict["node"] = pod["node"]
        scores = pod.get("scores") or {}
        top = scores.get(pod["node"])
        ties = sorted(n for n, s in scores.items() if s == top) if top is not None else []
        if len(ties) > 1:
            verdict["ties"] = ties
    else:
        verdict["node"] = None
        verdict["message"] = pod.get("message", "")
        if pod.get("reason") == "Deleted":  # bound, then preempted by a pod queued after it
            verdict["deleted"] = True
        if pod.get("nominated"):
            verdict["nominated"] = pod["nominated"]
    if pod.get("victims"):
        verdict["victims"] = sorted(pod["victims"])
    if pod.get("claims"):
        verdict["claims"] = {name: [[d["request"], d["driver"], d["pool"], d["device"]] for d in devices]
                             for name, devices in sorted(pod["claims"].items())}
    return verdict


def run_oracle(oracle: str, seeds: list[int], jobs: int) -> dict[int, dict[str, Any]]:
    """kube-scheduler's answers for the seeds' scenarios, `jobs` oracle processes at a time."""
    answers: dict[int, dict[str, Any]] = {}
    lock = threading.Lock()
    chunks = [seeds[i::jobs] for i in range(jobs)]

    def worker(chunk: list[int]) -> None:
        proc = subprocess.Popen([oracle, f"--feature-gates={GATES}"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        assert proc.stdin is not None and proc.stdout is not None
        for seed in chunk:
            scenario = generate(seed)
            proc.stdin.write(json.dumps(scenario, separators=(",", ":")) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
            result = json.loads(line) if line else {"error": "oracle exited", "pods": {}}
            with lock:
                answers[seed] = compact(scenario, result)
                if len(answers) % 100 == 0:
                    print(f"  {len(answers)}/{len(seeds)} scenarios", file=sys.stderr, flush=True)
        proc.stdin.close()
        proc.wait()

    threads = [threading.Thread(target=worker, args=(chunk,)) for chunk in chunks if chunk]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def agreement(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Scenarios, pods and disagreements (by aspect and by class) when the simulator runs the entries' scenarios, and
    the classes of each disagreeing scenario's differences."""
    from collections import Counter

    from tests.oracle.classify import classify
    from tests.oracle.compare import chosen_nodes, compare, interchangeable
    from tests.oracle.simulate import simulate

    pods = 0
    by_aspect: Counter[str] = Counter()
    by_class: Counter[str] = Counter()
    pods_by_class: Counter[str] = Counter()
    scenario_class: dict[str, list[str]] = {}
    judged = [e for e in entries if not e.get("error") and not e.get("timedOut")]
    for entry in judged:
        pods += len(entry["pods"])
        scenario = generate(entry["seed"])
        diffs = compare(entry, simulate(scenario, chosen_nodes(entry)), interchangeable(scenario))
        if not diffs:
            continue
        classes = Counter(classify(scenario, entry, d) for d in diffs)
        scenario_class[entry["id"]] = sorted(classes)
        by_aspect.update(d.aspect for d in diffs)
        by_class.update(classes)
        pods_by_class.update(classify(scenario, entry, d) for d in {d.pod: d for d in diffs}.values())
    return {"scenarios": len(judged), "pods": pods, "disagreeing_scenarios": len(scenario_class),
            "agreeing_scenarios_percent": round(100 * (len(judged) - len(scenario_class)) / max(1, len(judged)), 1),
            "differences_by_aspect": dict(by_aspect.most_common()), "differences_by_class": dict(by_class.most_common()),
            "disagreeing_pods": sum(pods_by_class.values()), "disagreeing_pods_by_class": dict(pods_by_class.most_common()),
            "scenario_class": scenario_class}


def write_expected_failures(report: dict[str, Any], path: Path) -> None:
    """tests/oracle/expected_failures.json: each open class with its cause and counts, and the classes of each
    disagreeing scenario's differences."""
    from tests.oracle.classify import CLASSES

    pods = report["disagreeing_pods_by_class"]
    scenarios = {name: sum(name in found for found in report["scenario_class"].values()) for name in pods}
    data = {"classes": {name: {"reason": CLASSES[name], "scenarios": scenarios[name], "pods": pods[name]}
                        for name in sorted(pods)},
            "scenarios": dict(sorted(report["scenario_class"].items()))}
    path.write_text(json.dumps(data, indent=1) + "\n")


def write_scenario(seed: int, folder: Path) -> None:
    """The scenario of `seed` as the files `explain` reads: a snapshot List and a manifests List."""
    from tests.oracle.scenarios import FEATURE_GATES, RELEASE, RUNTIME_CONFIG

    scenario = generate(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("snapshot", "manifests"):
        (folder / f"{name}.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": scenario[name]},
                                                        indent=1))
    gates = ",".join(f"{k}={str(v).lower()}" for k, v in {**FEATURE_GATES, "DRADeviceTaintRules": True}.items())
    runtime = ",".join(f"{k}={str(v).lower()}" for k, v in {**RUNTIME_CONFIG, "resource.k8s.io/v1beta2": True}.items())
    print(f"kubectl-wasdra explain -f {folder}/manifests.json --snapshot {folder}/snapshot.json "
          f"--k8s-version {RELEASE} --feature-gates {gates} --runtime-config {runtime}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oracle", default=os.environ.get("WASDRA_ORACLE"), help="the built oracle (or WASDRA_ORACLE)")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--count", type=int, default=2600, help="number of scenarios")
    parser.add_argument("--jobs", type=int, default=2, help="oracle processes at once")
    parser.add_argument("--out", default=str(ROOT / "tests" / "oracle" / "corpus.jsonl"))
    parser.add_argument("--no-compare", action="store_true", help="do not run the simulator afterwards")
    parser.add_argument("--changed", action="store_true",
                        help="re-run the oracle only on scenarios whose objects differ from those stored in --out")
    parser.add_argument("--only", metavar="IDS",
                        help="re-run the oracle only on these scenarios (comma-separated ids such as s00141 or seeds), "
                             "keeping every other stored verdict of --out")
    parser.add_argument("--write", nargs=2, metavar=("SEED", "DIR"),
                        help="write one scenario as DIR/snapshot.json and DIR/manifests.json for kubectl wasdra explain")
    parser.add_argument("--compare-only", metavar="CORPUS", help="only compare the simulator with a stored corpus")
    parser.add_argument("--expected-failures", action="store_true",
                        help="rewrite tests/oracle/expected_failures.json from the disagreements found")
    args = parser.parse_args()
    if args.write:
        write_scenario(int(args.write[0]), Path(args.write[1]))
        return 0
    if args.compare_only:
        from tests.oracle.compare import load_corpus

        _report(agreement(load_corpus(Path(args.compare_only))), args.expected_failures)
        return 0
    if not args.oracle or not os.access(args.oracle, os.X_OK):
        print("regenerate: pass --oracle PATH (or set WASDRA_ORACLE) to a built oracle binary (tools/oracle/README.md)",
              file=sys.stderr)
        return 2
    start = time.process_time(), time.time()
    seeds = list(range(args.first, args.first + args.count))
    stored: dict[int, dict[str, Any]] = {}
    if (args.changed or args.only) and Path(args.out).exists():
        from tests.oracle.compare import load_corpus

        only = {int(x.strip().lstrip("s")) for x in (args.only or "").split(",") if x.strip()}
        stored = {e["seed"]: e for e in load_corpus(Path(args.out))
                  if e["seed"] in seeds and e["seed"] not in only and e["digest"] == digest(generate(e["seed"]))}
    answers = {**stored, **run_oracle(args.oracle, [s for s in seeds if s not in stored], args.jobs)}
    print(f"kept {len(stored)} stored verdicts, ran the oracle on {len(seeds) - len(stored)} scenarios", file=sys.stderr)
    entries = [answers[s] for s in seeds]
    Path(args.out).write_text("".join(json.dumps(e, separators=(",", ":"), sort_keys=True) + "\n" for e in entries))
    failed = sum(1 for e in entries if e.get("error") or e.get("timedOut"))
    print(f"wrote {len(entries)} scenarios to {args.out} ({failed} without an oracle verdict) in "
          f"{time.time() - start[1]:.0f} s wall", file=sys.stderr)
    if not args.no_compare:
        _report(agreement(entries), args.expected_failures)
    return 0


def _report(report: dict[str, Any], write: bool) -> None:
    if write:
        write_expected_failures(report, ROOT / "tests" / "oracle" / "expected_failures.json")
    print(json.dumps({k: v for k, v in report.items() if k != "scenario_class"}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
