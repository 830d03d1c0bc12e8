"""Per-request CPU of ``netmend ask malt`` on a topology: the safety check in full or scoped.

Each request is validated and planned as ``netmend ask malt`` does it (working copy,
execution, the safe commit, two safety verdicts and the change). The two ways of
checking safety are timed on the same requests:

* **full**: ``plan(query, topology)``, every rule over the whole graph, twice (the
  requested graph and the commit), and the change found by comparing every node;
* **scoped**: ``plan(query, topology, baseline=...)`` with the topology's full check
  done once beforehand (as ``ask malt`` does once per topology), so each request judges
  and compares only the nodes it changed and their neighbours.

A request's cost is the least CPU time (``thread_time_ns``) over ``--repeat`` runs,
which a loaded machine inflates least; the mean and the largest over requests are
printed per family, and the two ways' verdicts and changes are checked to agree.

    python benchmarks/bench_ask_malt.py [--topology FILE] [--per-type 5] [--repeat 5]

The default topology is the public MALT graph, ../shared/data/malt/malt-graph.textproto.txt
from the repository root (5,493 nodes).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

DEFAULT_TOPOLOGY = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "malt" / (
    "malt-graph.textproto.txt")


def _cost(function, repeat: int) -> int:
    best = None
    for _ in range(repeat):
        start = time.thread_time_ns()
        function()
        spent = time.thread_time_ns() - start
        best = spent if best is None else min(best, spent)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topology", default=str(DEFAULT_TOPOLOGY))
    parser.add_argument("--per-type", type=int, default=5, help="requests per family (default 5)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per request (default 5)")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    from netmend.assess.malt.tasks import generate_tasks, select_families
    from netmend.malt import safety, topology
    from netmend.malt.parser import QueryError, parse_request
    from netmend.malt.planner import plan
    from netmend.malt.validate import validate

    graph = topology.load(args.topology)
    started = time.thread_time_ns()
    baseline = safety.Baseline(graph)
    baseline_ms = (time.thread_time_ns() - started) / 1e6
    tasks = generate_tasks(graph, select_families("all"), args.per_type, seed=args.seed)
    rows: dict[str, dict[str, list[float]]] = {}
    for task in tasks:
        try:
            parsed = parse_request(task.query)
            validate(parsed, graph)
        except QueryError:
            continue
        full = plan(parsed.query, graph)
        scoped = plan(parsed.query, graph, baseline=baseline)
        if (full.requested_verdict, full.committed_verdict, full.change, full.notes) != (
                scoped.requested_verdict, scoped.committed_verdict, scoped.change, scoped.notes):
            raise SystemExit(f"the scoped plan differs from the full one for {task.query!r}")
        family = rows.setdefault(task.family, {"full": [], "scoped": []})
        family["full"].append(_cost(lambda q=parsed.query: plan(q, graph), args.repeat) / 1e6)
        family["scoped"].append(_cost(
            lambda q=parsed.query: plan(q, graph, baseline=baseline), args.repeat) / 1e6)
    print(f"{args.topology}: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges; "
          f"the full check once (the baseline): {baseline_ms:.1f} ms CPU")
    print(f"plan CPU per request, ms (least of {args.repeat} runs): full check / scoped check")
    print(f"{'family':28} {'n':>3} {'full mean':>10} {'full max':>9} {'scoped mean':>12} "
          f"{'scoped max':>11} {'speed-up':>9}")
    every = {"full": [], "scoped": []}
    for family, times in rows.items():
        every["full"] += times["full"]
        every["scoped"] += times["scoped"]
        print(f"{family:28} {len(times['full']):3d} {statistics.fmean(times['full']):10.1f} "
              f"{max(times['full']):9.1f} {statistics.fmean(times['scoped']):12.1f} "
              f"{max(times['scoped']):11.1f} "
              f"{statistics.fmean(times['full']) / statistics.fmean(times['scoped']):8.1f}x")
    full_mean, scoped_mean = statistics.fmean(every["full"]), statistics.fmean(every["scoped"])
    print(f"{'all':28} {len(every['full']):3d} {full_mean:10.1f} {max(every['full']):9.1f} "
          f"{scoped_mean:12.1f} {max(every['scoped']):11.1f} {full_mean / scoped_mean:8.1f}x")


if __name__ == "__main__":
    main()
