"""Wall time of the full MALT assessment at the published record's scale (goal <= 60 s).

Runs ``netmend assess malt --per-type 250 --seed S --topology <real> --json``
as a user would (a fresh process, 2,500 tasks, ten families) and prints its
wall time next to the goal and next to the published record's validation of
the same scale (2,262 s with six workers). Side by side, on one graph copy,
the two exact shortcuts the scorer relies on: the structural copy against
``copy.deepcopy`` and the by-name isomorphism against ``nx.is_isomorphic``.

    .venv/bin/python benchmarks/bench_assess_malt.py [--seed 1] [--per-type 250] [--workers 0]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx

from netmend.assess.malt.graphs import CopySource, isomorphic_with_node_attrs, node_attributes_equal
from netmend.malt import topology

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / ".." / "shared" / "data" / "malt" / "malt-graph.textproto.txt"
GOAL_S = 60.0
PUBLISHED_S = 2262.0


def _best_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def full_run(seed: int, per_type: int, workers: int) -> None:
    netmend = Path(sys.executable).with_name("netmend")
    with tempfile.TemporaryDirectory() as out:
        command = [str(netmend), "assess", "malt", "--per-type", str(per_type), "--seed", str(seed),
                   "--topology", str(REAL), "--json", "--out", out, "--workers", str(workers)]
        cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    summary = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
    print(f"netmend assess malt --per-type {per_type} --seed {seed} --workers {workers or 'auto'}")
    print(f"  exit {done.returncode}; n={summary.get('n')} correctness={summary.get('correctness')}"
          f" safety={summary.get('safety')} mean latency={summary.get('avg_latency_s', 0) * 1000:.2f} ms")
    print(f"  wall {wall:.1f} s = {wall / GOAL_S:.2f} x the {GOAL_S:.0f} s goal"
          f" = 1/{PUBLISHED_S / wall:.0f} of the published {PUBLISHED_S:.0f} s")
    # CPU time is what the run itself costs; wall time also carries other load on the machine.
    print(f"  cpu {cpu:.1f} s over all processes; load average at the end "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if done.returncode != 0:
        print(done.stderr[-2000:])


def shortcuts(graph: nx.DiGraph, repeat: int) -> None:
    source = CopySource(graph)
    fast = _best_ms(source.copy, repeat)
    deep = _best_ms(lambda: copy.deepcopy(source.pristine), repeat)
    print(f"copy of the topology: structural {fast:.1f} ms, copy.deepcopy {deep:.1f} ms "
          f"(x{deep / fast:.1f})")
    first = source.copy()
    by_name = _best_ms(lambda: isomorphic_with_node_attrs(first, first.copy()), repeat)
    general = _best_ms(lambda: nx.is_isomorphic(nx.Graph(first), nx.Graph(first.copy()),
                                                node_match=node_attributes_equal), 1)
    print(f"graph comparison of two copies: by name {by_name:.1f} ms, "
          f"nx.is_isomorphic {general / 1000:.1f} s (x{general / by_name:.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-type", type=int, default=250)
    parser.add_argument("--workers", type=int, default=0, help="0: the command's default")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not REAL.exists():
        sys.exit(f"the real topology is not at {REAL} (../shared is absent)")
    shortcuts(topology.load(REAL), args.repeat)
    full_run(args.seed, args.per_type, args.workers)


if __name__ == "__main__":
    main()
