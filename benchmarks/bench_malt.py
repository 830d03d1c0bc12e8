"""MALT compile latency per family, in process: request text in a NetArena envelope ->
reply with verified ``process_graph`` code (envelope extraction, parse, emit, verify).

Parses are cached by sentence shape (the same words around other names), so
the first request of a shape costs more than the next ones. A cold pass (every
cache emptied, then warmed as the server warms before its first request)
includes every first-seen shape; a steady pass shows the state a server
reaches. Each is run ``--repeat`` times. The goal (p99 <= 0.5 ms per family)
is judged on both.

A shared 2-core machine preempts the benchmark at random, which inflates wall
times (and, less, CPU times: caches are cold after a switch). So each request
is timed ``--repeat`` times in the steady state, by wall clock
(``perf_counter_ns``) and by this thread's CPU clock (``thread_time_ns``); a
request's cost is its least disturbed time (the minimum over repetitions), and
the per-family p99 is taken over those. The minimum over repetitions of each
repetition's median is printed beside it. A fixed pure-Python baseline workload
is timed right after each request the same way, so its numbers say how loaded
the machine was: if the baseline's p99 sits near its median, the family
numbers are clean.

Also times the in-process planner (execute + safe commit + six-rule
verification) on the same requests, for reference, and prints reply sizes.

    python benchmarks/bench_malt.py [--topology FILE] [--per-type 200] [--repeat 7] [--seed 7]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from types import ModuleType

from netmend.agent import respond, warm
from netmend.assess.malt.envelopes import build_prompt
from netmend.assess.malt.tasks import generate_tasks, select_families
from netmend.malt import codegen, runtime, topology
from netmend.malt import parser as malt_parser
from netmend.malt.parser import parse
from netmend.malt.planner import plan

GOAL_P99_MS = 0.5
BASELINE_ITEMS = tuple(f"item-{i}" for i in range(200))


def baseline() -> int:
    """A fixed pure-Python workload (~tens of microseconds): dict building, string work."""
    table = {text: len(text) for text in BASELINE_ITEMS}
    return sum(table[text] for text in BASELINE_ITEMS if text.endswith("7"))


def forget(modules: tuple[ModuleType, ...] = (malt_parser, codegen, runtime)) -> None:
    """Empty every memo of the compiler, then warm it as the server does before serving."""
    for module in modules:
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    codegen.clear_caches()
    warm()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def timed_pass(prompts: list[tuple[str, str]]) -> tuple[list[int], list[int], list[int],
                                                         list[int], list[int]]:
    """Per request, in order: wall ns, CPU ns, reply bytes, baseline wall ns, baseline CPU ns."""
    wall, cpu, size, base_wall, base_cpu = [], [], [], [], []
    clock, thread = time.perf_counter_ns, time.thread_time_ns
    for _family, prompt in prompts:
        start, cpu_start = clock(), thread()
        reply = respond(prompt)
        wall.append(clock() - start)
        cpu.append(thread() - cpu_start)
        start, cpu_start = clock(), thread()
        baseline()
        base_wall.append(clock() - start)
        base_cpu.append(thread() - cpu_start)
        size.append(len(reply.encode()))
        assert "def process_graph" in reply, (prompt[-200:], reply)
    return wall, cpu, size, base_wall, base_cpu


def _by_family(prompts, values) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {}
    for (family, _), value in zip(prompts, values, strict=True):
        found.setdefault(family, []).append(value / 1e6)  # ms
    return found


def robust(prompts, passes: list[list[int]]) -> tuple[dict, dict]:
    """Per family: each request's minimum over passes, and each pass's median (ms)."""
    least = [min(values) for values in zip(*passes, strict=True)]
    medians: dict[str, list[float]] = {}
    for one in passes:
        for family, values in _by_family(prompts, one).items():
            medians.setdefault(family, []).append(statistics.median(values))
    return _by_family(prompts, least), {f: min(m) for f, m in medians.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topology", help="MALT textproto or node-link JSON (default: built-in)")
    parser.add_argument("--per-type", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7, help="steady-state passes (default 7)")
    parser.add_argument("--plan-per-type", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    start = time.perf_counter()
    graph = topology.load(args.topology) if args.topology else topology.default()
    load_s = time.perf_counter() - start
    tasks = generate_tasks(graph, select_families("all"), args.per_type, args.seed)
    prompts = [(task.family, build_prompt(task.query)) for task in tasks]
    warm()  # what the server does before its first request
    gc.collect()
    gc.freeze()  # the topology and tasks are long-lived: keep them out of collections
    repeat = max(1, args.repeat)
    cold = []
    for _ in range(repeat):
        forget()
        cold.append(timed_pass(prompts))
    steady = [timed_pass(prompts) for _ in range(repeat)]
    plan_ms: dict[str, list[float]] = {}
    for task in tasks:
        if len(plan_ms.get(task.family, [])) < args.plan_per_type:
            query = parse(task.query)
            start = time.perf_counter()
            plan(query, graph)
            plan_ms.setdefault(task.family, []).append((time.perf_counter() - start) * 1e3)

    first_wall = robust(prompts, [p[0] for p in cold])[0]
    first_cpu = robust(prompts, [p[1] for p in cold])[0]
    wall, wall_med = robust(prompts, [p[0] for p in steady])
    cpu, cpu_med = robust(prompts, [p[1] for p in steady])
    base_wall, base_wall_med = robust(prompts, [p[3] for p in steady])
    base_cpu, base_cpu_med = robust(prompts, [p[4] for p in steady])
    sizes = _by_family(prompts, [s * 1e6 for s in steady[0][2]])

    print(f"topology: {graph.number_of_nodes()} nodes, loaded in {load_s * 1e3:.0f} ms; "
          f"{len(tasks)} requests: {repeat} cold passes, {repeat} steady passes")
    print("each request's least time over the passes, then p50/p99 over requests; "
          "med = least per-pass median; all ms")
    print(f"{'':<27} {'cold':^18} | {'steady':^35} |")
    print(f"{'family':<22}{'n':>5} {'wall p99':>9} {'cpu p99':>8} | {'wall p50':>8} "
          f"{'wall p99':>8} {'cpu med':>8} {'cpu p99':>8} | {'plan':>5} {'bytes':>6} {'max':>6}")
    worst = {"cold wall": 0.0, "cold cpu": 0.0, "steady wall": 0.0, "steady cpu": 0.0}
    for family, values in wall.items():
        row = {
            "cold wall": percentile(first_wall[family], 0.99),
            "cold cpu": percentile(first_cpu[family], 0.99),
            "steady wall": percentile(values, 0.99),
            "steady cpu": percentile(cpu[family], 0.99),
        }
        for key, value in row.items():
            worst[key] = max(worst[key], value)
        print(f"{family:<22}{len(values):>5} {row['cold wall']:>9.3f} {row['cold cpu']:>8.3f} | "
              f"{statistics.median(values):>8.3f} {row['steady wall']:>8.3f} "
              f"{cpu_med[family]:>8.3f} {row['steady cpu']:>8.3f} | "
              f"{statistics.median(plan_ms[family]):>5.2f} "
              f"{statistics.median(sizes[family]):>6.0f} {max(sizes[family]):>6.0f}")
    every_wall = [v for values in base_wall.values() for v in values]
    every_cpu = [v for values in base_cpu.values() for v in values]
    print(f"{'baseline (fixed work)':<22}{len(every_wall):>5} {'':>9} {'':>8} | "
          f"{statistics.median(every_wall):>8.3f} {percentile(every_wall, 0.99):>8.3f} "
          f"{min(base_cpu_med.values()):>8.3f} {percentile(every_cpu, 0.99):>8.3f} |")
    spread = percentile(every_cpu, 0.99) / statistics.median(every_cpu)
    print(f"baseline p99/median (CPU) = {spread:.2f}: "
          f"{'a quiet run' if spread < 1.5 else 'a loaded run, read the CPU minimum columns'}; "
          f"least per-pass wall median of the baseline {min(base_wall_med.values()):.3f} ms")
    every = [s for values in sizes.values() for s in values]
    print(f"reply bytes over all {len(every)} requests: median {statistics.median(every):.0f}, "
          f"max {max(every):.0f}")
    for key, value in worst.items():
        print(f"{key}: worst family p99 {value:.3f} ms; goal {GOAL_P99_MS} ms; "
              f"ratio worst/goal = {value / GOAL_P99_MS:.2f} "
              f"({'met' if value <= GOAL_P99_MS else 'missed'})")


if __name__ == "__main__":
    main()
