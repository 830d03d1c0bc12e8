"""Route reply latency: ``netmend serve`` over A2A beside the same answer computed in process.

Prompts are first turns of NetArena Route tasks (the pingall of a router that
stopped forwarding) on 2x1, 4x2 and 8x4 in all four envelopes: the reply is
the router program, the largest text netmend sends. Each prompt is answered
by ``netmend.agent.respond`` in this process and by ``netmend serve`` through
the NetArena evaluator's client (a2a-sdk 0.3.22, ``streaming=True``), one call
after another, alternating. The difference is what A2A adds. Goal: the A2A
mean at most 1.25x the in-process mean.

Usage: ``python benchmarks/bench_route_serve.py [--rounds N]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_serve import EvaluatorClient, _start  # noqa: E402

GOAL_RATIO = 1.25
SIZES = ((2, 1), (4, 2), (8, 4))


def prompts() -> dict[str, list[str]]:
    from netmend.assess.route.envelopes import PROMPT_TYPES, wrap
    from netmend.route.pingall import Pingall
    from netmend.route.topology import Topology

    out: dict[str, list[str]] = {}
    for switches, hosts in SIZES:
        t = Topology("p42_", switches, hosts)
        subnet = {h.name: h.subnet for h in t.hosts}
        reached = {(a, b): not (a in subnet and b in subnet and subnet[a] != subnet[b]) for a in t.nodes for b in t.nodes if a != b}
        block = f"Pingall result:\n{Pingall(t.nodes, reached).render()}\n"
        out[f"{switches}x{hosts}"] = [wrap(block, kind) for kind in PROMPT_TYPES]
    return out


async def measure(url: str, groups: dict[str, list[str]], rounds: int) -> dict[str, dict[str, list[float]]]:
    from netmend.agent import respond

    client = await EvaluatorClient(url).start()
    try:
        samples = {label: {"in process": [], "A2A": []} for label in groups}
        for label, texts in groups.items():
            for text in texts:  # warm-up, and the same answer both ways
                if respond(text) != await client.ask(text):
                    raise SystemExit(f"{label}: the A2A answer differs from the in-process one")
        for round_index in range(rounds):
            for label, texts in groups.items():
                for text in texts:
                    for way in ("in process", "A2A") if round_index % 2 == 0 else ("A2A", "in process"):
                        started = time.perf_counter()
                        if way == "A2A":
                            await client.ask(text)
                        else:
                            respond(text)
                        samples[label][way].append(time.perf_counter() - started)
        return samples
    finally:
        await client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="passes over all prompts (default 10)")
    args = parser.parse_args()
    groups = prompts()
    ours, url = _start([sys.executable, "-m", "netmend", "serve", "--host", "127.0.0.1", "--port", "0"], "stderr")
    try:
        samples = asyncio.run(measure(url, groups, args.rounds))
    finally:
        ours.terminate()
        ours.wait(timeout=10)
    print(f"{'topology':8} {'in process ms':>14} {'A2A ms':>8} {'A2A - in process':>17} {'ratio':>6}")
    ratios = []
    for label, ways in samples.items():
        local, remote = statistics.fmean(ways["in process"]), statistics.fmean(ways["A2A"])
        ratios.append(remote / local)
        print(f"{label:8} {local * 1e3:14.2f} {remote * 1e3:8.2f} {(remote - local) * 1e3:17.2f} {remote / local:6.2f}")
    worst = max(ratios)
    print(f"worst ratio A2A/in process: {worst:.2f}x (goal <= {GOAL_RATIO}x, {'met' if worst <= GOAL_RATIO else 'NOT met'})")


if __name__ == "__main__":
    main()
