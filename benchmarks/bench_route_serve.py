"""Route reply latency: ``netmend serve`` over A2A beside the same answer computed in process.

Prompts are first turns of NetArena Route tasks (the pingall of a router that
stopped forwarding) on 2x1, 4x2 and 8x4 in all four envelopes: the reply is
the router program, the largest text netmend sends. Each prompt is answered
by ``netmend.agent.respond`` in this process, by ``netmend serve``, and by a
null server on the same stack that returns one fixed router program at once,
the last two through the NetArena evaluator's client (a2a-sdk 0.3.22,
``streaming=True``), one call after another, alternating. What A2A adds to
netmend's answer (A2A minus in process) is set beside the null server's whole
round trip, which any participant pays. Goal: at most 1.15x.

On a shared machine the means swing with the load (a difference of two
round trips of 20-60 ms), so the medians are printed beside them; and a
second pass replaces ``netmend serve`` by a child that answers with the same
``respond`` and times it inside the server, so what the served path adds
(A2A minus the answer's cost where it is made) is set beside null's too.

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

GOAL_RATIO = 1.15
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


def run_null_server() -> None:
    """Child mode: serve one fixed router program on a free loopback port."""
    from netmend.agent import respond
    from netmend.serve import bind, make_app, serve

    reply = respond(prompts()["2x1"][0])
    sock = bind("127.0.0.1", 0)
    print(f"port {sock.getsockname()[1]}", flush=True)
    serve(make_app(lambda text: reply), sock)


def _label(text: str) -> str:
    """The topology of a benchmark prompt, from its newest pingall's row count."""
    nodes = text.rsplit("Pingall result:", 1)[-1].count(" -> ")
    return next(f"{s}x{h}" for s, h in SIZES if s * h + 1 == nodes)


def run_timed_server() -> None:
    """Child mode: answer with ``respond``, timing it inside the server; on SIGTERM print
    the mean seconds per topology (after each prompt's first answer) as one JSON line."""
    import json
    import os
    import signal

    from netmend.agent import respond, warm
    from netmend.serve import bind, make_app, serve

    warm()
    seen: set[str] = set()
    times: dict[str, list[float]] = {}

    def responder(text: str) -> str:
        started = time.perf_counter()
        reply = respond(text)
        spent = time.perf_counter() - started
        if text in seen:
            times.setdefault(_label(text), []).append(spent)
        seen.add(text)
        return reply

    def report(*_args) -> None:
        print(json.dumps({label: statistics.fmean(values) for label, values in times.items()}), flush=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, report)
    sock = bind("127.0.0.1", 0)
    print(f"port {sock.getsockname()[1]}", flush=True)
    serve(make_app(responder), sock)


WAYS = ("in process", "A2A", "null A2A")


async def measure(urls: dict[str, str], groups: dict[str, list[str]], rounds: int) -> dict[str, dict[str, list[float]]]:
    from netmend.agent import respond

    ours, null = await EvaluatorClient(urls["netmend"]).start(), await EvaluatorClient(urls["null"]).start()
    calls = {"in process": lambda text: respond(text), "A2A": ours.ask, "null A2A": null.ask}
    try:
        samples = {label: {way: [] for way in WAYS} for label in groups}
        for label, texts in groups.items():
            for text in texts:  # warm-up, and the same answer both ways
                await null.ask(text)
                if respond(text) != await ours.ask(text):
                    raise SystemExit(f"{label}: the A2A answer differs from the in-process one")
        for round_index in range(rounds):
            for label, texts in groups.items():
                for text in texts:
                    for way in WAYS if round_index % 2 == 0 else reversed(WAYS):
                        started = time.perf_counter()
                        done = calls[way](text)
                        if way != "in process":
                            await done
                        samples[label][way].append(time.perf_counter() - started)
        return samples
    finally:
        await ours.close()
        await null.close()


def _pass(ours_command: list[str], stream: str, groups: dict[str, list[str]], rounds: int):
    this = str(Path(__file__).resolve())
    ours, our_url = _start(ours_command, stream)
    null, null_url = _start([sys.executable, this, "--null-server"], "stdout")
    try:
        samples = asyncio.run(measure({"netmend": our_url, "null": null_url}, groups, rounds))
    finally:
        null.terminate()
        null.wait(timeout=10)
        ours.terminate()
        out, _ = ours.communicate(timeout=10)
    return samples, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="passes over all prompts (default 10)")
    parser.add_argument("--null-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--timed-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.null_server:
        run_null_server()
        return
    if args.timed_server:
        run_timed_server()
        return
    import json

    groups = prompts()
    samples, _ = _pass([sys.executable, "-m", "netmend", "serve", "--host", "127.0.0.1", "--port", "0"],
                       "stderr", groups, args.rounds)
    timed, out = _pass([sys.executable, str(Path(__file__).resolve()), "--timed-server"],
                       "stdout", groups, args.rounds)
    in_server = json.loads(out.strip().splitlines()[-1])
    print(f"{'topology':8} {'in process ms':>14} {'A2A ms':>8} {'added ms':>9} {'null A2A ms':>12} {'added/null':>11}"
          f" {'p50 ratio':>10} {'in server ms':>13} {'served/null':>12}")
    ratios = []
    for label, ways in samples.items():
        local, remote, bare = (statistics.fmean(ways[w]) for w in WAYS)
        middle = (statistics.median(ways["A2A"]) - statistics.median(ways["in process"])) / statistics.median(ways["null A2A"])
        ratios.append((remote - local) / bare)
        inside = in_server[label]
        served = (statistics.fmean(timed[label]["A2A"]) - inside) / statistics.fmean(timed[label]["null A2A"])
        print(f"{label:8} {local * 1e3:14.2f} {remote * 1e3:8.2f} {(remote - local) * 1e3:9.2f} {bare * 1e3:12.2f}"
              f" {ratios[-1]:11.2f} {middle:10.2f} {inside * 1e3:13.2f} {served:12.2f}")
    worst = max(ratios)
    print(f"worst (A2A - in process) / null round trip: {worst:.2f}x (goal <= {GOAL_RATIO}x, {'met' if worst <= GOAL_RATIO else 'NOT met'})")
    print("p50 ratio: the same with medians; served/null: (A2A - the answer's cost timed inside the server) / null")


if __name__ == "__main__":
    main()
