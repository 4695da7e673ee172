"""CEL evaluation speed for DRA device selectors: the embedded runtime vs. the alternatives that are installed.

Run: python bench/cel_eval.py [--devices 10000]
Prints evaluations per second over N distinct device maps for a typical class+request selector pair:
- kubectl_wasdra.dra.cel (cel-expr-python, Google's C++ runtime; per-device activation built once, results uncached);
- the same through the allocator-facing path with the per-device result cache (what repeated nodes/pods see);
- common-expression-language (Rust, `cel` module; input converted on every call), if installed.
Timings are CPU time of this process (time.process_time), so other load on the machine does not skew them.
"""

from __future__ import annotations

import argparse
import time

from kubectl_wasdra.dra.cel import compile_selector
from kubectl_wasdra.dra.views import DeviceView

DRIVER = "gpu.example.com"
EXPRESSION = (f'device.driver == "{DRIVER}" && device.attributes["{DRIVER}"].model.startsWith("A100") && '
              f'device.capacity["{DRIVER}"].memory.compareTo(quantity("40Gi")) >= 0')
PLAIN = (f'device.driver == "{DRIVER}" && device.attributes["{DRIVER}"].model.startsWith("A100") && '
         f'device.attributes["{DRIVER}"].memoryGiB >= 40')


def devices(n: int) -> list[dict]:
    return [{"name": f"gpu-{i}", "attributes": {"model": {"string": "A100-80GB" if i % 3 else "H100"},
                                                "memoryGiB": {"int": 80 if i % 2 else 40}, "index": {"int": i % 8},
                                                "resource.kubernetes.io/numaNode": {"int": i % 2}},
             "capacity": {"memory": {"value": "80Gi" if i % 2 else "40Gi"}}} for i in range(n)]


def bench_embedded(raw: list[dict], expression: str) -> tuple[float, int]:
    selector = compile_selector(expression)
    views = [DeviceView(DRIVER, d) for d in raw]
    for view in views:  # build activations once, as the allocator does per device
        view.activation(selector.env, selector.domains)
    start = time.process_time()
    matched = 0
    for view in views:
        view.results.clear()
        matched += selector.matches(view)
    return len(views) / (time.process_time() - start), matched


def bench_cached(raw: list[dict], expression: str, rounds: int = 10) -> float:
    selector = compile_selector(expression)
    views = [DeviceView(DRIVER, d) for d in raw]
    for view in views:
        selector.matches(view)
    start = time.process_time()
    for _ in range(rounds):
        for view in views:
            selector.matches(view)
    return rounds * len(views) / (time.process_time() - start)


def bench_rust(raw: list[dict], expression: str) -> float | None:
    try:
        import cel  # common-expression-language
    except ImportError:
        return None
    program = cel.compile(expression)
    inputs = [DeviceView(DRIVER, d).data() for d in raw]  # the same device map the embedded runtime gets
    start = time.process_time()
    for data in inputs:
        program.execute(data)
    return len(inputs) / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=10_000)
    args = parser.parse_args()
    raw = devices(args.devices)
    rate, matched = bench_embedded(raw, EXPRESSION)
    print(f"cel-expr-python, quantity selector, uncached: {rate:,.0f} evals/s ({matched} of {len(raw)} match)")
    rate, _ = bench_embedded(raw, PLAIN)
    print(f"cel-expr-python, plain selector, uncached:    {rate:,.0f} evals/s")
    print(f"cel-expr-python, per-device result cache:     {bench_cached(raw, EXPRESSION):,.0f} lookups/s")
    rust = bench_rust(raw, PLAIN)
    print("common-expression-language, plain selector:  " + (f"{rust:,.0f} evals/s" if rust else "not installed"))
    print("rerun: python bench/cel_eval.py --devices", args.devices)


if __name__ == "__main__":
    main()
