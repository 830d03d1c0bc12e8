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
at most 1.15x null's over the steady rounds. Reply sizes (the text the evaluator
extracts) are printed.

The first pass over the prompts (each server's first sight of each prompt, after
the warm-up it does before serving) is timed and reported on its own as the cold
ratio; the steady ratio is over the ``--rounds`` passes after it.

To explain the figure, the in-process cost of one request is printed per stage
(JSON-RPC body, prompt routing, envelope, MALT parse, code emission, reply
framing), for netmend and for null, measured in this process: back to back
("hot"), and each request right after a fixed burst of other Python work
("disturbed"), which is what a server sees between the evaluator's calls on a
shared machine (the client runs in between, and the caches are cold).

Usage: ``python benchmarks/bench_serve.py [--rounds N] [--per-family N] [--stage-repeat N]``
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
                  ) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, list[int]]]:
    """Per server: the first pass's latencies (cold), the later rounds' (steady), and
    the reply sizes."""
    clients = {name: await EvaluatorClient(url).start() for name, url in urls.items()}
    try:
        sizes: dict[str, list[int]] = {name: [] for name in clients}
        cold: dict[str, list[float]] = {name: [] for name in clients}
        order = list(clients)
        for index, text in enumerate(texts):  # the first pass: cold, and the reply sizes
            replies = {}
            for name in order if index % 2 == 0 else reversed(order):
                started = time.perf_counter()
                replies[name] = await clients[name].ask(text)
                cold[name].append(time.perf_counter() - started)
            if "def process_graph" not in replies["netmend"]:
                raise SystemExit(f"unexpected reply to {text[-120:]!r}: {replies['netmend'][:200]!r}")
            for name, reply in replies.items():
                sizes[name].append(len(reply.encode()))
        samples: dict[str, list[float]] = {name: [] for name in clients}
        for round_index in range(rounds):
            for text in texts:
                for name in order if round_index % 2 == 0 else reversed(order):
                    started = time.perf_counter()
                    await clients[name].ask(text)
                    samples[name].append(time.perf_counter() - started)
        return cold, samples, sizes
    finally:
        for client in clients.values():
            await client.close()


# ---------------------------------------------------------------- in-process stages

_DISTURBANCE = tuple(f"other-{i}" for i in range(1500))
_SCRATCH, _FILL = bytearray(4 << 20), bytes(range(256)) * (4 << 12)


def disturb() -> None:
    """A fixed burst of other work (a millisecond or two: 4 MB copied, then dicts, strings
    and JSON), standing in for what runs between two calls on the server's cores: it
    leaves the caches holding other data and code, as the client's turn does."""
    import json

    _SCRATCH[:] = _FILL
    table = {text: text.upper() for text in _DISTURBANCE}
    json.loads(json.dumps(list(table.items())))


def _body(text: str) -> bytes:
    """The JSON-RPC body the evaluator's client sends for ``text``."""
    import json

    return json.dumps({
        "id": str(uuid.uuid4()), "jsonrpc": "2.0", "method": "message/stream",
        "params": {"configuration": {"acceptedOutputModes": [], "blocking": True},
                   "message": {"kind": "message", "messageId": uuid.uuid4().hex,
                               "parts": [{"kind": "text", "text": text}], "role": "user"}},
    }, separators=(",", ":")).encode()


STAGES = ("body", "route", "envelope", "parse", "emit", "reply")
AGENT_STAGES = STAGES[1:-1]  # what ``netmend.agent.respond`` does for a MALT prompt


def answer_in_stages(text: str, clock=time.perf_counter_ns) -> tuple[str, list[int]]:
    """``netmend.agent.respond(text)`` for a MALT prompt, step by step: the reply and the
    nanoseconds of each of :data:`AGENT_STAGES`."""
    from netmend.agent.k8s import is_k8s_prompt
    from netmend.agent.malt import extract_request
    from netmend.agent.route import is_netarena_route_prompt
    from netmend.malt import codegen
    from netmend.malt.parser import parse

    marks = [clock()]
    if is_k8s_prompt(text) or is_netarena_route_prompt(text):
        raise SystemExit("a MALT prompt was routed elsewhere")
    marks.append(clock())
    question = extract_request(text)
    marks.append(clock())
    query = parse(question)
    marks.append(clock())
    reply = codegen.fenced(codegen.emit(query))
    marks.append(clock())
    return reply, [b - a for a, b in zip(marks, marks[1:], strict=False)]


def _stage_times(body: bytes, netmend: bool) -> dict[str, int]:
    """Nanoseconds per stage of one request, as the server runs it (``respond`` for
    netmend split into its steps; null answers its fixed text)."""
    from netmend.serve.app import _new_uuid
    from netmend.serve.protocol import parse_request, render_reply

    clock = time.perf_counter_ns
    start = clock()
    request = parse_request(body, version_header=None, wants_stream=True)
    parsed = clock()
    if netmend:
        reply, agent = answer_in_stages(request.text)
    else:
        reply, agent = FIXED_REPLY, [0] * len(AGENT_STAGES)
    answered = clock()
    render_reply(request, reply, new_id=_new_uuid)
    return dict(zip(STAGES, [parsed - start, *agent, clock() - answered], strict=True))


def run_timed_server(skip: int) -> None:
    """Child mode: serve netmend's replies, made by :func:`answer_in_stages`, timing each
    stage inside the server; on SIGTERM print the mean of each (microseconds, after the
    first ``skip`` requests) as one JSON line."""
    import json
    import os
    import signal

    from netmend.agent import warm
    from netmend.serve import bind, make_app, serve

    warm()
    times: list[list[int]] = []

    def responder(text: str) -> str:
        reply, spent = answer_in_stages(text)
        times.append(spent)
        return reply

    def report(*_args) -> None:
        kept = times[skip:] or times
        means = {stage: statistics.fmean(t[i] for t in kept) / 1e3
                 for i, stage in enumerate(AGENT_STAGES)}
        print(json.dumps(means), flush=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, report)
    sock = bind("127.0.0.1", 0)
    print(f"port {sock.getsockname()[1]}", flush=True)
    serve(make_app(responder), sock)


def stage_costs(texts: list[str], repeat: int) -> dict[tuple[str, str], dict[str, float]]:
    """Per (condition, server): each stage's mean over requests of its least time over
    ``repeat`` passes, in microseconds."""
    import gc

    from netmend.agent import warm

    warm()
    bodies = [_body(text) for text in texts]
    gc.collect()
    found: dict[tuple[str, str], dict[str, float]] = {}
    for condition in ("hot", "disturbed"):
        for server in ("netmend", "null"):
            least: list[dict[str, int]] = []
            for _ in range(repeat):
                for index, body in enumerate(bodies):
                    if condition == "disturbed":
                        disturb()
                    times = _stage_times(body, server == "netmend")
                    if len(least) <= index:
                        least.append(times)
                    else:
                        least[index] = {k: min(v, times[k]) for k, v in least[index].items()}
            found[condition, server] = {
                stage: statistics.fmean(t[stage] for t in least) / 1e3 for stage in STAGES}
    return found


def print_stage_costs(costs: dict[tuple[str, str], dict[str, float]], served_delta_us: float,
                      in_server: dict[str, float] | None) -> None:
    print("cost of one request, microseconds (in process: mean over requests of the least "
          "of the passes; in server: mean):")
    print(f"{'':20}" + "".join(f"{stage:>9}" for stage in STAGES) + f"{'total':>9}")
    for (condition, server), row in costs.items():
        print(f"{condition + ' ' + server:20}" + "".join(f"{row[s]:9.1f}" for s in STAGES)
              + f"{sum(row.values()):9.1f}")
    if in_server:
        print(f"{'in server netmend':20}" + "".join(
            f"{in_server[s]:9.1f}" if s in in_server else f"{'-':>9}" for s in STAGES)
            + f"{sum(in_server.values()):9.1f}  (agent stages, timed inside a served process)")
    for condition in ("hot", "disturbed"):
        delta = sum(costs[condition, "netmend"].values()) - sum(costs[condition, "null"].values())
        print(f"netmend - null in process ({condition}): {delta:.1f} us")
    if in_server:
        print(f"netmend's agent stages inside a served process: {sum(in_server.values()):.1f} us")
    print(f"netmend - null as served (steady means): {served_delta_us:.1f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="passes over all prompts (default 10)")
    parser.add_argument("--per-family", type=int, default=3,
                        help="requests per enabled family (default 3; x4 envelopes)")
    parser.add_argument("--stage-repeat", type=int, default=5,
                        help="passes for the in-process stage costs (default 5; 0 skips them)")
    parser.add_argument("--null-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--timed-server", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.null_server:
        run_null_server()
        return
    if args.timed_server is not None:
        run_timed_server(args.timed_server)
        return

    texts = prompts(args.per_family)
    ours, our_url = _start(
        [sys.executable, "-m", "netmend", "serve", "--host", "127.0.0.1", "--port", "0"], "stderr"
    )
    null, null_url = _start([sys.executable, str(Path(__file__).resolve()), "--null-server"], "stdout")
    try:
        cold, samples, sizes = asyncio.run(
            measure({"netmend": our_url, "null": null_url}, texts, args.rounds))
    finally:
        for process in (ours, null):
            process.terminate()
            process.wait(timeout=10)

    stats = {name: _summary(values) for name, values in samples.items()}
    cold_stats = {name: _summary(values) for name, values in cold.items()}
    calls = len(samples["netmend"])
    print(f"{calls} steady calls per server: {len(texts) // 4} MALT requests x 4 envelopes x "
          f"{args.rounds} rounds, after a cold first pass of {len(texts)}")
    print(f"{'server':8} {'cold mean':>9} {'mean ms':>8} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'reply B p50':>12} {'reply B max':>12}")
    for name, row in stats.items():
        print(f"{name:8} {cold_stats[name]['mean'] * 1e3:9.3f} {row['mean'] * 1e3:8.3f} "
              f"{row['p50'] * 1e3:8.3f} {row['p95'] * 1e3:8.3f} "
              f"{statistics.median(sizes[name]):12.0f} {max(sizes[name]):12d}")
    cold_ratio = cold_stats["netmend"]["mean"] / cold_stats["null"]["mean"]
    ratio = stats["netmend"]["mean"] / stats["null"]["mean"]
    p50_ratio = stats["netmend"]["p50"] / stats["null"]["p50"]
    verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
    print(f"cold ratio netmend/null (first pass): mean {cold_ratio:.3f}x")
    print(f"steady ratio netmend/null: mean {ratio:.3f}x, p50 {p50_ratio:.3f}x "
          f"(goal: mean <= {GOAL_RATIO}x, {verdict})")
    if args.stage_repeat > 0:
        served = (stats["netmend"]["mean"] - stats["null"]["mean"]) * 1e6
        print_stage_costs(stage_costs(texts, args.stage_repeat), served,
                          in_server_costs(texts, args.stage_repeat))


def in_server_costs(texts: list[str], rounds: int) -> dict[str, float]:
    """The agent stages' mean cost inside a served process (the timed child), called as
    in the measurement, alternating with the null server, for ``rounds`` passes after a
    first untimed one."""
    import json

    this = str(Path(__file__).resolve())
    timed, timed_url = _start([sys.executable, this, "--timed-server", str(len(texts))], "stdout")
    null, null_url = _start([sys.executable, this, "--null-server"], "stdout")
    try:
        asyncio.run(measure({"netmend": timed_url, "null": null_url}, texts, rounds))
    finally:
        null.terminate()
        null.wait(timeout=10)
        timed.terminate()
        out, _ = timed.communicate(timeout=10)
    return json.loads(out.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
