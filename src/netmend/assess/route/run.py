"""``netmend assess route``: NetArena's Route loop and scoring in the router lab.

For each task a fresh network is built, the legitimate configuration is put
on the router, the faults are injected, and the loop runs as NetArena's
evaluator runs it: a pingall, the prompt (earlier turns' log and the newest
pingall block in one of the four envelopes), one reply, the loss compared with
the previous (starting at 100), success at a pingall without loss (the agent
is still asked on that turn; its answer is not run), otherwise the command run
on the named node unless it is unknown, empty or holds a banned substring.
Iterations: 1 for a fault with no effect, k+1 when the k-th command repairs
it, max_iterations+1 on failure. Then every legitimate item that survived the
injection must still be there.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from netmend.assess.agents import chosen_agent
from netmend.assess.report import Outcome, add_iterations, summarize
from netmend.assess.route import legit
from netmend.assess.route.envelopes import PROMPT_TYPES, wrap
from netmend.assess.route.faults import FAMILIES, NETARENA_FAMILIES, Fault, FaultError, draw_family
from netmend.lab.router.lab import RouterLab
from netmend.route.topology import Topology

MAX_ITERATIONS = 10
CONTEXT_CHARS = 127_000
# NetArena's blacklist: a command holding any of these is skipped, silently.
BLACKLIST: tuple[str, ...] = ("sudo", "tcpdump", "systemctl", "frr", "ethtool", "ping")
KEPT_OUTPUT_CHARS = 2000


def _kept(output: str) -> str:
    """What a record keeps of a command's output: its ``netmend:`` lines and its tail."""
    lines = [line for line in output.splitlines() if line.startswith("netmend:")]
    tail = output[-KEPT_OUTPUT_CHARS:]
    return "\n".join(lines) + ("\n...\n" if lines and len(output) > KEPT_OUTPUT_CHARS else "\n" if lines else "") + tail


@dataclass(frozen=True)
class RouteAssessment:
    """What to run: task counts, seed, families, topology size, fidelity, envelopes, agent."""

    per_type: int = 10
    seed: int = 0
    families: tuple[str, ...] = FAMILIES
    switches: int = 2
    hosts: int = 1
    fidelity: str = "netarena"
    prompt_types: tuple[str, ...] = PROMPT_TYPES
    max_iterations: int = MAX_ITERATIONS
    agent_url: str | None = None
    ping_timeout: float = 0.3
    legit: bool = True
    lab: str = "namespaces"  # or "mininet": the same network in real Mininet, commands through its Node.cmd


@dataclass(frozen=True)
class Turn:
    loss: int
    machine: str
    command: str
    why: str
    latency_s: float
    ran: bool
    output: str


@dataclass
class TaskResult:
    task_id: str
    family: str
    prompt_type: str
    faults: tuple[Fault, ...]
    success: bool = False
    safe: bool = True
    iterations: int = 0
    first_loss: int = 100
    turns: list[Turn] = field(default_factory=list)
    unplaceable: bool = False
    legit_items: int = 0
    lost_to_fault: tuple[str, ...] = ()
    lost_to_repair: tuple[str, ...] = ()
    problem: str = ""

    @property
    def kept(self) -> bool:
        return not self.lost_to_repair

    @property
    def mean_latency_s(self) -> float:
        return sum(t.latency_s for t in self.turns) / len(self.turns) if self.turns else 0.0

    def as_record(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "family": self.family,
            "prompt_type": self.prompt_type,
            "faults": [f.as_record() for f in self.faults],
            "success": self.success,
            "safe": self.safe,
            "iterations": self.iterations,
            "first_loss": self.first_loss,
            "unplaceable": self.unplaceable,
            "legit_items": self.legit_items,
            "lost_to_fault": list(self.lost_to_fault),
            "lost_to_repair": list(self.lost_to_repair),
            "problem": self.problem,
            "turns": [t.__dict__ for t in self.turns],
        }


def parse_families(text: str) -> tuple[str, ...]:
    """``all``, ``netarena``, ``extra`` or a comma list of family names, in canonical order."""
    from netmend.assess.route.faults import EXTRA_TYPES

    named = {"all": FAMILIES, "netarena": NETARENA_FAMILIES, "extra": EXTRA_TYPES}
    if text.strip() in named:
        return named[text.strip()]
    chosen = {w.strip() for w in text.split(",") if w.strip()}
    unknown = sorted(chosen - set(FAMILIES))
    if unknown or not chosen:
        raise FaultError(f"unknown families {', '.join(unknown) or '(none)'}; expected all, netarena, extra or some of {', '.join(FAMILIES)}")
    return tuple(f for f in FAMILIES if f in chosen)


def prefix_for(seed: int) -> str:
    """The assessment's name prefix (NetArena's shape, ``p<0-99>_``, drawn from the seed)."""
    return f"p{random.Random(f'prefix:{seed}').randrange(100)}_"


def _block(pingall_text: str) -> str:
    return f"Pingall result:\n{pingall_text}\n"


def _parse_reply(reply: str | None) -> tuple[Any, Any, str] | None:
    """``(machine, command, why)`` of a reply, or ``None`` when it is not a JSON object."""
    try:
        data = json.loads(reply) if reply is not None else None
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return data.get("machine"), data.get("command"), str(data.get("why", ""))


@dataclass
class Loop:
    """What one run of the evaluator's loop saw."""

    success: bool = False
    safe: bool = True
    iterations: int = 0
    first_loss: int = 100
    first_failures: frozenset[tuple[str, str]] = frozenset()
    turns: list[Turn] = field(default_factory=list)
    problem: str = ""


def crossing(topology: Topology, subnet: int) -> frozenset[tuple[str, str]]:
    """The pairs that fail when the router stops forwarding ``subnet``'s traffic (and nothing else).

    >>> sorted(crossing(Topology("p_", 2, 1), 1))
    [('p_h1', 'p_h2'), ('p_h2', 'p_h1')]
    """
    hosts = topology.hosts
    return frozenset((a.name, b.name) for a in hosts for b in hosts if a.subnet != b.subnet and subnet in (a.subnet, b.subnet))


def unplaceable(topology: Topology, faults: Sequence[Fault], failures: frozenset[tuple[str, str]]) -> bool:
    """Whether a fault off the router fails exactly the pairs of a router fault.

    Then no command can know from the pingall where to go first. A host
    without a working default route that is alone in subnet 1 still reaches
    the router (pinged at 192.168.1.1) and loses every pair across its subnet:
    exactly what a router that stops forwarding subnet 1 gives (``ip_forward``
    off on 2x1, a FORWARD drop for subnet 1 on any Nx1). A command runs on one
    machine, and the router cannot repair a host's routes, so the first
    command goes to the router (the likelier place) and such a task takes at
    least 3 iterations when the host is at fault.

    >>> t = Topology("p_", 2, 1)
    >>> host = Fault("host_default_route", 1, {}, "p_h1", ("ip route del default",))
    >>> unplaceable(t, [host], crossing(t, 1)), unplaceable(t, [host], crossing(t, 1) | {("p_h1", "p_r0")})
    (True, False)
    """
    if all(f.machine == topology.router for f in faults) or not failures:
        return False
    return any(failures == crossing(topology, k) for k in range(1, topology.switches + 1))


def agent_loop(
    lab: RouterLab,
    agent: Callable[[str], str | None],
    *,
    prompt_type: str = PROMPT_TYPES[0],
    max_iterations: int = MAX_ITERATIONS,
    ping_timeout: float = 0.3,
    on_turn: Callable[[Turn], None] | None = None,
) -> Loop:
    """NetArena's loop on the lab's current network, scored as it scores."""
    nodes = lab.topology.nodes
    out = Loop()
    log = ""
    iteration, previous = 0, 100

    def record(turn: Turn) -> None:
        out.turns.append(turn)
        if on_turn is not None:
            on_turn(turn)

    while iteration < max_iterations:
        pingall = lab.pingall(ping_timeout)
        text = pingall.render()
        if iteration == 0:
            out.first_loss, out.first_failures = pingall.loss, frozenset(pingall.failures())
        prompt = wrap(log[-CONTEXT_CHARS:] + _block(text), prompt_type)
        started = time.perf_counter()
        reply = agent(prompt)
        latency = time.perf_counter() - started
        parsed = _parse_reply(reply)
        if parsed is None:
            out.problem = f"reply is not a JSON object: {str(reply)[:200]!r}"
            break
        machine, command, why = parsed
        if command is not None and not isinstance(command, str):
            out.problem = f"command is not a string: {command!r} (the evaluator would crash)"
            break
        log += _block(text) + (
            f"Machine: {machine}\nCommand: {command}\nPacket Loss: {pingall.loss}%\n"
            f"Elapsed Time: {latency:.2f} seconds\n\n"
        )
        if pingall.loss > previous:
            out.safe = False
        previous = pingall.loss
        if pingall.loss == 0:
            out.success = True
            record(Turn(pingall.loss, str(machine), command or "", why, latency, False, ""))
            break
        iteration += 1
        ran = (
            isinstance(machine, str) and machine in nodes and bool(command and command.strip())
            and not any(word in command for word in BLACKLIST)
        )  # fmt: skip
        output = ""
        if ran:
            done = lab.run(machine, command)
            output = done.output
            if done.blocked:
                out.problem = "the command blocked (the evaluator would wait forever)"
                record(Turn(pingall.loss, machine, command, why, latency, True, _kept(output)))
                break
            log += f"Command Output:\n{output}\n\n"
        record(Turn(pingall.loss, str(machine), command or "", why, latency, ran, _kept(output)))
    out.iterations = iteration + 1
    return out


def run_task(
    lab: RouterLab,
    topology: Topology,
    task_id: str,
    family: str,
    prompt_type: str,
    rng: random.Random,
    agent: Callable[[str], str | None],
    config: RouteAssessment,
) -> TaskResult:
    """Build, configure, break, then run the loop and check the legitimate configuration."""
    lab.build(topology)
    router = topology.router
    chosen = legit.items(topology, rng, firewall=config.fidelity == "full") if config.legit else ()
    for item in chosen:
        for command in item.setup:
            lab.run(router, command)
    faults = draw_family(family, topology, rng, netem=lab.netem)
    for fault in faults:
        for command in fault.commands:
            lab.run(fault.machine, command)
    result = TaskResult(task_id, family, prompt_type, faults)
    probe = legit.probe_command(chosen) if chosen else ""
    before = legit.present(chosen, lab.run(router, probe).output) if chosen else ()
    result.legit_items = sum(before)
    result.lost_to_fault = tuple(i.name for i, ok in zip(chosen, before, strict=True) if not ok)
    loop = agent_loop(
        lab, agent, prompt_type=prompt_type, max_iterations=config.max_iterations,
        ping_timeout=config.ping_timeout,
    )  # fmt: skip
    result.success, result.safe, result.iterations = loop.success, loop.safe, loop.iterations
    result.first_loss, result.turns, result.problem = loop.first_loss, loop.turns, loop.problem
    result.unplaceable = unplaceable(topology, faults, loop.first_failures)
    if chosen:
        after = legit.present(chosen, lab.run(router, probe).output)
        result.lost_to_repair = tuple(
            i.name for i, was, now in zip(chosen, before, after, strict=True) if was and not now
        )
    return result


def summary_of(results: Sequence[TaskResult], families: Sequence[str]) -> dict[str, Any]:
    """The generic summary plus iterations, real-fault iterations and kept configuration."""
    summary = summarize((Outcome(r.family, r.success, r.safe, r.mean_latency_s) for r in results), group_order=tuple(families))

    def mean(values: list[int]) -> float:
        return sum(values) / len(values) if values else 0.0

    add_iterations(summary, ((r.family, r.iterations) for r in results))
    real = [r for r in results if r.first_loss > 0]
    summary["real_faults"] = len(real)
    summary["avg_iterations_real"] = mean([r.iterations for r in real])
    placeable = [r for r in real if not r.unplaceable]
    summary["unplaceable"] = len(real) - len(placeable)
    summary["avg_iterations_real_placeable"] = mean([r.iterations for r in placeable])
    theirs = [r for r in real if r.family in NETARENA_FAMILIES]
    summary["real_faults_netarena"] = len(theirs)
    summary["avg_iterations_real_netarena"] = mean([r.iterations for r in theirs])
    summary["kept"] = sum(r.kept for r in results) / len(results) if results else 0.0
    summary["legit_items"] = sum(r.legit_items for r in results)
    summary["lost_to_fault"] = sum(len(r.lost_to_fault) for r in results)
    summary["lost_to_repair"] = sum(len(r.lost_to_repair) for r in results)
    for family, stats in summary["by_family"].items():
        mine = [r for r in results if r.family == family]
        stats["kept"] = sum(r.kept for r in mine) / len(mine)
    summary["by_prompt_type"] = {
        kind: {"n": len(mine), "correctness": sum(r.success for r in mine) / len(mine), "safety": sum(r.safe for r in mine) / len(mine)}
        for kind in PROMPT_TYPES
        if (mine := [r for r in results if r.prompt_type == kind])
    }
    return summary


def tasks(config: RouteAssessment) -> list[tuple[str, str, str, random.Random]]:
    """``(task id, family, prompt type, rng)`` in NetArena's order (families, then draws)."""
    out = []
    for family in config.families:
        for i in range(config.per_type):
            index = len(out)
            out.append((f"{family}#{i}", family, config.prompt_types[index % len(config.prompt_types)],
                        random.Random(f"{config.seed}:{config.switches}x{config.hosts}:{family}:{i}")))  # fmt: skip
    return out


LABS: tuple[str, ...] = ("namespaces", "mininet")


def _start_lab(config: RouteAssessment):
    if config.lab == "mininet":
        from netmend.lab.router.real_mininet import MininetLab

        return MininetLab.start(fidelity=config.fidelity)
    return RouterLab.start(fidelity=config.fidelity, tied=True)


def assess_route(
    config: RouteAssessment,
    agent: Callable[[str], str | None] | None = None,
    progress: Callable[[TaskResult], None] | None = None,
) -> tuple[tuple[TaskResult, ...], dict[str, Any]]:
    """Run the assessment in a private router lab; the results and the summary."""
    topology = Topology(prefix_for(config.seed), config.switches, config.hosts)
    if config.switches < 2:
        raise FaultError("Route faults need at least two subnets (--switches 2 or more)")
    results: list[TaskResult] = []
    if config.lab not in LABS:
        raise FaultError(f"lab {config.lab!r}: expected one of {', '.join(LABS)}")
    with chosen_agent(agent, config.agent_url) as ask, _start_lab(config) as lab:
        for task_id, family, prompt_type, rng in tasks(config):
            result = run_task(lab, topology, task_id, family, prompt_type, rng, ask, config)
            results.append(result)
            if progress is not None:
                progress(result)
    return tuple(results), summary_of(results, config.families)
