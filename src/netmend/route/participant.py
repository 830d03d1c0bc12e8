"""The NetArena Route participant: one prompt in, one ``{machine, command, why}`` out.

Stateless: the prompt is the only state. The first command on the router is
the router program (:func:`netmend.route.program.router_program`): it reads
the state, decides on the router and fixes only what deviates, for every
topology the pingall's node list allows (the router's interfaces pick one).
When the loss remains, a later turn diagnoses the state that program printed
(:func:`netmend.route.diagnose.diagnose`) and sends the exact fixes. A host
goes first only when its own broken default route explains the pingall exactly
and no router fault can (:func:`host_suspect`); when the router conforms and
one host is the odd one out, that host's default route is checked. A pingall without loss is answered with a read-only command (the
evaluator asks once more on the winning turn and never runs it).
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass

from netmend.route.diagnose import diagnose
from netmend.route.evidence import Evidence, host_route_failures
from netmend.route.intent import RouterIntent, from_topology
from netmend.route.pingall import Pingall
from netmend.route.program import (
    FIX_MARK,
    STATE_MARK,
    Candidate,
    fix_program,
    host_program,
    router_program,
)
from netmend.route.prompt import PromptError, RoutePrompt, parse_prompt
from netmend.route.state import StateError, parse_state
from netmend.route.topology import Topology, TopologyError, candidates

READ_ONLY = "ip -o -4 addr show"
TOUCHING = ("link-down", "arp-off", "mtu", "address", "address-conflict")


@dataclass(frozen=True)
class Reply:
    machine: str
    command: str
    why: str

    def text(self) -> str:
        """The bare JSON object the evaluator parses (``why`` is for people)."""
        return json.dumps({"machine": self.machine, "command": self.command, "why": self.why})


def _label(t: Topology) -> str:
    return f"{t.switches}x{t.hosts_per_switch}"


def _pattern(p: Pingall) -> str:
    return f"{p.loss}% lost, {len(p.failures())} of {p.sent} pairs fail"


def host_suspect(p: Pingall, topologies: tuple[Topology, ...]) -> str | None:
    """The host whose own broken default route explains the pingall exactly, if no router fault can.

    For each topology the pingall's nodes allow, the failures are compared
    with those of one host without a working default route
    (:func:`~netmend.route.evidence.host_route_failures`). A router fault acts
    on a subnet, an interface or everything it forwards, and one aimed at a
    single host also cuts the router's own pings to that host, which a host
    fault never does. So a matching host is the one suspect unless, in a
    topology where it matches, it is alone in its subnet and still reaches the
    router: then forwarding for that subnet broken on the router fails the same
    pairs, and the router goes first.
    """
    failures = frozenset(p.failures())
    if not failures:
        return None
    # A host's failures all hold the host: only a node in every failing pair can match.
    common = set(next(iter(failures)))
    for pair in failures:
        common.intersection_update(pair)
        if not common:
            return None
    found: set[str] = set()
    for t in topologies:
        for h in t.hosts:
            if h.name not in common or host_route_failures(t, h.name) != failures:
                continue
            alone = all(o.subnet != h.subnet for o in t.hosts if o.name != h.name)
            if alone and p.reached[(h.name, t.router)]:
                return None
            found.add(h.name)
    return found.pop() if len(found) == 1 else None


def _host_reply(host: str, topologies: tuple[Topology, ...], p: Pingall, why: str) -> Reply:
    rows = []
    for t in topologies:
        h = t.host(host)
        rows.append((_label(t), h.interface, h.address, h.gateway))
    return Reply(host, host_program(rows), f"pingall: {_pattern(p)}; {why}")


def _match(state, topologies: tuple[Topology, ...]) -> tuple[Topology, RouterIntent] | None:
    names = {link.name for link in state.links}
    for t in topologies:
        intent = from_topology(t)
        own = {n for n in names if n.startswith(t.router + "-eth") and n[len(t.router) + 4 :].isdigit()}
        wanted = {i.name for i in intent.interfaces}
        if wanted <= names and own <= wanted:
            return t, intent
    return None


def decide_prompt(prompt: RoutePrompt) -> Reply:
    p = prompt.pingall
    topologies = candidates(p.nodes)
    router = topologies[0].router
    if p.loss == 0:
        return Reply(router, READ_ONLY, "pingall: every pair succeeds; nothing to repair (a read-only look)")
    tried = {turn.machine for turn in prompt.turns}
    runs = [t for t in prompt.turns if t.machine == router and t.output and STATE_MARK in t.output]
    if not runs:
        suspect = host_suspect(p, topologies)
        if suspect is not None and suspect not in tried:
            return _host_reply(
                suspect, topologies, p,
                f"every failing pair involves {suspect} and the router still reaches it: "
                f"its own default route is checked and fixed only if it deviates",
            )  # fmt: skip
        cands = [Candidate(_label(t), from_topology(t), Evidence.from_pingall(p, t)) for t in topologies]
        return Reply(
            router,
            router_program(cands),
            f"pingall: {_pattern(p)}; one command reads {router}'s links, addresses, rules, routes, "
            f"neighbours, qdiscs, sysctls and firewall, compares them with the intended state "
            f"(NetArena's conventions, topology {' or '.join(c.label for c in cands)}, chosen by the "
            f"router's interfaces) and fixes only what deviates; it prints each fix and the state after",
        )
    last = runs[-1]
    try:
        state = parse_state(last.output)
    except StateError as exc:
        return Reply(router, READ_ONLY, f"the router's printed state does not parse ({exc}); a read-only look")
    matched = _match(state, topologies)
    if matched is None:
        return Reply(router, READ_ONLY, "the router's interfaces match no topology of this pingall; nothing is changed")
    topology, intent = matched
    found = diagnose(state, intent, Evidence.from_pingall(p, topology))
    commands = [d.command for d in found if d.command]
    done = [line for line in last.output.splitlines() if line.startswith(FIX_MARK)]
    planned = [f"{FIX_MARK} {' '.join(c)}" for c in commands]
    if commands and planned != done:
        return Reply(
            router,
            fix_program(commands, _nudges(found, intent, Evidence.from_pingall(p, topology))),
            f"pingall: {_pattern(p)}; deviations left on {router}: "
            + "; ".join(d.evidence for d in found if d.command),
        )
    for host in _by_failures(p, router):
        if host not in tried:
            return _host_reply(
                host, (topology,), p,
                f"{router} conforms to its intent; {host} is in the most failing pairs, "
                f"so its default route is checked",
            )  # fmt: skip
    unfixable = "; ".join(d.evidence for d in found if not d.command)
    return Reply(
        router,
        READ_ONLY,
        f"pingall: {_pattern(p)}; no deviation from the intent is left that a command can fix"
        + (f" ({unfixable})" if unfixable else "")
        + "; nothing is changed",
    )


def _nudges(found, intent: RouterIntent, evidence: Evidence) -> list[list[str]]:
    """``[device, host...]`` per lab interface a fix repairs or the pingall implicates."""
    touched = {d.command[d.command.index("dev") + 1] for d in found if d.kind in TOUCHING and "dev" in d.command}
    touched |= set(evidence.interfaces)
    out = []
    for want in intent.interfaces:
        if want.name in touched:
            out.append([want.name, *(h for h in intent.hosts if ipaddress.IPv4Address(h) in want.network)])
    return out


def _by_failures(p: Pingall, router: str) -> list[str]:
    counts: dict[str, int] = {}
    for pair in p.failures():
        for node in pair:
            if node != router:
                counts[node] = counts.get(node, 0) + 1
    return sorted(counts, key=lambda n: (-counts[n], p.nodes.index(n)))


def decide(text: str) -> Reply:
    """The reply to one prompt; :class:`PromptError` when it is not a Route turn."""
    return decide_parsed(parse_prompt(text))


def decide_parsed(prompt: RoutePrompt) -> Reply:
    """The reply to a parsed prompt; :class:`PromptError` when its nodes are no router network."""
    try:
        return decide_prompt(prompt)
    except TopologyError as exc:
        raise PromptError(f"the pingall's nodes are not a NetArena router network: {exc}") from None
