"""Latency of ``netmend serve`` against an instant-reply null server, side by side.

Both servers run the same stack (``netmend.serve`` on uvicorn) in their own
processes:

* **netmend**: ``netmend serve`` itself, answering with ``netmend.agent.respond``;
* **null**: the same app whose responder returns one fixed short text (a few
  hundred bytes of code) at once, whatever it is asked: no agent work and a
  small reply, which is what an instant participant costs.

The client is the NetArena evaluator's: a2a-sdk 0.3.22 ``ClientFactory`` with
``streaming=True``, card from ``A2ACardResolver``, per-request timeout 60,
calls made one after another. Prompts are generated MALT requests of NetArena's
ten enabled families in all four envelopes (``netmend.assess.malt``). Calls
alternate between the two servers so drift hits both alike. Goal: mean latency
at most 1.15x null's. Reply sizes (the text the evaluator extracts) are printed.

Usage: ``python benchmarks/bench_serve.py [--rounds N] [--per-family N]``
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

GOAL_RATIO = 1.15
# What the null server answers: a short, valid reply, the same every time.
FIXED_REPLY = (
    "```python\n"
    "def process_graph(graph):\n"
    "    # a fixed answer: no parsing, no planning\n"
    "    count = sum(1 for _, attrs in graph.nodes(data=True) if 'EK_PORT' in attrs['type'])\n"
    "    return {'type': 'text', 'data': count, 'updated_graph': graph}\n"
    "```\n"
)


def prompts(per_family: int) -> list[str]:
    from netmend.assess.malt.envelopes import PROMPT_TYPES, build_prompt
    from netmend.assess.malt.tasks import generate_tasks, select_families
    from netmend.malt import topology

    tasks = generate_tasks(topology.default(), select_families("enabled"), per_family, seed=3)
    return [build_prompt(task.query, kind) for task in tasks for kind in PROMPT_TYPES]


def run_null_server() -> None:
    """Child mode: serve the fixed reply on a free loopback port."""
    from netmend.serve import bind, make_app, serve

    sock = bind("127.0.0.1", 0)
    print(f"port {sock.getsockname()[1]}", flush=True)
    serve(make_app(lambda text: FIXED_REPLY), sock)


def _start(command: list[str], stream: str) -> tuple[subprocess.Popen, str]:
    """Start a server process; read its port from the first line it prints
    (``port N`` from the null server, ``listening on HOST:N;`` from netmend serve)."""
    process = subprocess.Popen(command, text=True, **{stream: subprocess.PIPE})
    line = getattr(process, stream).readline()
    found = re.search(r"(?:^port |listening on [^:]+:)(\d+)", line)
    if found is None:
        process.kill()
        raise SystemExit(f"could not read the port of {command!r} from {line!r}")
    return process, f"http://127.0.0.1:{found.group(1)}/"


class EvaluatorClient:
    """The NetArena evaluator's way of calling an A2A agent (a2a-sdk 0.3.22)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    async def start(self) -> EvaluatorClient:
        import httpx
        from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
        from a2a.client.middleware import ClientCallContext

        self.http = httpx.AsyncClient()
        card = await A2ACardResolver(httpx_client=self.http, base_url=self.base_url).get_agent_card()
        self.client = ClientFactory(ClientConfig(httpx_client=self.http, streaming=True)).create(card)
        self.context = ClientCallContext(state={"http_kwargs": {"timeout": 60}})
        return self

    async def ask(self, text: str) -> str:
        from a2a.types import Message, Part, Role, TextPart

        message = Message(
            kind="message", role=Role.user, message_id=uuid.uuid4().hex,
            parts=[Part(TextPart(kind="text", text=text))],
        )
        last = None
        async for event in self.client.send_message(message, context=self.context):
            last = event
        task, _update = last
        return "\n".join(p.root.text for p in task.artifacts[-1].parts if isinstance(p.root, TextPart))

    async def close(self) -> None:
        await self.http.aclose()


def _summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "mean": statistics.fmean(ordered),
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
    }


async def measure(urls: dict[str, str], texts: list[str], rounds: int
                  ) -> tuple[dict[str, list[float]], dict[str, list[int]]]:
    clients = {name: await EvaluatorClient(url).start() for name, url in urls.items()}
    try:
        sizes: dict[str, list[int]] = {name: [] for name in clients}
        for text in texts:  # warm-up, and the reply sizes
            replies = {name: await client.ask(text) for name, client in clients.items()}
            if "def process_graph" not in replies["netmend"]:
                raise SystemExit(f"unexpected reply to {text[-120:]!r}: {replies['netmend'][:200]!r}")
            for name, reply in replies.items():
                sizes[name].append(len(reply.encode()))
        samples: dict[str, list[float]] = {name: [] for name in clients}
        order = list(clients)
        for round_index in range(rounds):
            for text in texts:
                for name in order if round_index % 2 == 0 else reversed(order):
                    started = time.perf_counter()
                    await clients[name].ask(text)
                    samples[name].append(time.perf_counter() - started)
        return samples, sizes
    finally:
        for client in clients.values():
            await client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="passes over all prompts (default 10)")
    parser.add_argument("--per-family", type=int, default=3,
                        help="requests per enabled family (default 3; x4 envelopes)")
    parser.add_argument("--null-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.null_server:
        run_null_server()
        return

    texts = prompts(args.per_family)
    ours, our_url = _start(
        [sys.executable, "-m", "netmend", "serve", "--host", "127.0.0.1", "--port", "0"], "stderr"
    )
    null, null_url = _start([sys.executable, str(Path(__file__).resolve()), "--null-server"], "stdout")
    try:
        samples, sizes = asyncio.run(
            measure({"netmend": our_url, "null": null_url}, texts, args.rounds))
    finally:
        for process in (ours, null):
            process.terminate()
            process.wait(timeout=10)

    stats = {name: _summary(values) for name, values in samples.items()}
    calls = len(samples["netmend"])
    print(f"{calls} calls per server: {len(texts) // 4} MALT requests x 4 envelopes x "
          f"{args.rounds} rounds")
    print(f"{'server':8} {'mean ms':>8} {'p50 ms':>8} {'p95 ms':>8} {'reply B p50':>12} "
          f"{'reply B max':>12}")
    for name, row in stats.items():
        print(f"{name:8} {row['mean'] * 1e3:8.3f} {row['p50'] * 1e3:8.3f} {row['p95'] * 1e3:8.3f} "
              f"{statistics.median(sizes[name]):12.0f} {max(sizes[name]):12d}")
    ratio = stats["netmend"]["mean"] / stats["null"]["mean"]
    p50_ratio = stats["netmend"]["p50"] / stats["null"]["p50"]
    verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
    print(f"ratio netmend/null: mean {ratio:.3f}x, p50 {p50_ratio:.3f}x "
          f"(goal: mean <= {GOAL_RATIO}x, {verdict})")


if __name__ == "__main__":
    main()
