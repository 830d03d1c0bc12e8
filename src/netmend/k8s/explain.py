"""The decision chain of one connection: every tier, every rule, and why.

:func:`explain_connection` walks both directions of one connection (the
egress of the source, the ingress of the destination) through the admin,
NetworkPolicy and baseline tiers, and reports for every rule of every
policy that selects the pod whether it matches and, when it does not, the
selector or port that failed. Rules after the deciding one are reported as
not reached. Whether a rule matches is taken from the compiled snapshot (the
same answers ``allowed`` gives); the reasons are read off the model, so the
chain always agrees with the verdict.

Pure: no I/O.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from netmend.k8s.errors import ProbeError
from netmend.k8s.model import (
    ACCEPT,
    ADMIN_TIER,
    BASELINE_TIER,
    PASS,
    AdminPeer,
    AdminRule,
    LabelSelector,
    NamespacedPods,
    Peer,
    Rule,
)
from netmend.k8s.semantics import (
    EGRESS,
    INGRESS,
    TIER_DEFAULT,
    TIER_NETWORK_POLICY,
    DirectionVerdict,
    Snapshot,
)
from netmend.k8s.tiers import CompiledAdminRule

NOT_REACHED = "not reached"


def describe_selector(selector: LabelSelector) -> str:
    """A selector in one short line: ``{app=web, tier in (a,b), !debug}``; ``{}`` selects all.

    Examples
    --------
    >>> from netmend.k8s.model import Requirement
    >>> describe_selector(LabelSelector((("app", "web"),), (Requirement("x", "NotIn", ("a", "b")),)))
    '{app=web, x notin (a,b)}'
    """
    parts = [f"{k}={v}" for k, v in selector.match_labels]
    for req in selector.match_expressions:
        if req.operator == "Exists":
            parts.append(req.key)
        elif req.operator == "DoesNotExist":
            parts.append(f"!{req.key}")
        else:
            parts.append(f"{req.key} {req.operator.lower()} ({','.join(req.values)})")
    return "{" + ", ".join(parts) + "}"


def _labels(labels) -> str:
    return "{" + ", ".join(f"{k}={v}" for k, v in labels) + "}"


@dataclass(frozen=True)
class RuleCheck:
    """One rule held against the connection.

    ``matched``: peers and ports both match. ``reached``: evaluation got
    to this rule (a first-match tier stops at its first match). ``reason``
    says which peer or port matched, or which selector or port failed.
    """

    tier: str
    policy: str
    rule: str
    action: str
    matched: bool
    reached: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "tier": self.tier,
            "policy": self.policy,
            "rule": self.rule,
            "action": self.action,
            "matched": self.matched,
            "reached": self.reached,
            "reason": self.reason,
        }

    def line(self) -> str:
        mark = "+" if self.matched else "-"
        state = "" if self.reached else f" [{NOT_REACHED}]"
        return f"{mark} {self.policy} {self.rule} {self.action}: {self.reason}{state}"


@dataclass(frozen=True)
class TierStep:
    """One tier of one direction: the policies selecting the pod, their rules, the outcome.

    ``outcome`` is ``Accept``, ``Deny``, ``Pass``, ``no match`` (admin and
    baseline), ``allowed``/``denied``/``not isolated`` (NetworkPolicy),
    ``exempt`` or ``not reached``. ``unselected`` names the policies that
    could have applied but do not select the pod, with the reason.
    """

    tier: str
    outcome: str
    checks: tuple[RuleCheck, ...] = ()
    selecting: tuple[str, ...] = ()
    unselected: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "tier": self.tier,
            "outcome": self.outcome,
            "selecting": list(self.selecting),
            "rules": [c.to_dict() for c in self.checks],
            "unselected": list(self.unselected),
        }


@dataclass(frozen=True)
class DirectionChain:
    """One direction of the connection: which pod's policies, what each tier did."""

    direction: str
    pod: str
    peer: str
    verdict: DirectionVerdict
    steps: tuple[TierStep, ...]

    @property
    def allowed(self) -> bool:
        return self.verdict.allowed

    def to_dict(self) -> dict[str, Any]:
        return {
            "direction": self.direction,
            "pod": self.pod,
            "peer": self.peer,
            "allowed": self.allowed,
            "tier": self.verdict.tier,
            "decided_by": self.verdict.decided_by,
            "tiers": [s.to_dict() for s in self.steps],
        }

    def lines(self, verbose: bool = False) -> list[str]:
        verb = "ALLOWED" if self.allowed else "DENIED"
        out = [f"{self.direction.lower()} of {self.pod} (peer {self.peer}): {verb} by {self.verdict.tier} tier: {self.verdict.decided_by}"]
        for step in self.steps:
            head = f"  {step.tier} tier: {step.outcome}"
            if step.selecting:
                head += f" (selecting: {', '.join(step.selecting)})"
            out.append(head)
            out.extend(f"    {c.line()}" for c in step.checks)
            if verbose:
                out.extend(f"    . {u}" for u in step.unselected)
            elif step.unselected:
                n = len(step.unselected)
                what = "NetworkPolic" if step.tier == TIER_NETWORK_POLICY else f"{step.tier} polic"
                verb = "ies do" if n > 1 else "y does"
                out.append(f"    . {n} other {what}{verb} not select {self.pod} (--verbose names them)")
        return out


@dataclass(frozen=True)
class ConnectionChain:
    """Both directions of one connection (a side is ``None`` when that end is outside)."""

    source: str
    destination: str
    protocol: str
    port: int
    egress: DirectionChain | None
    ingress: DirectionChain | None
    notes: tuple[str, ...] = field(default=())

    @property
    def allowed(self) -> bool:
        return all(side.allowed for side in (self.egress, self.ingress) if side is not None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "destination": self.destination,
            "protocol": self.protocol,
            "port": self.port,
            "allowed": self.allowed,
            "egress": self.egress.to_dict() if self.egress else None,
            "ingress": self.ingress.to_dict() if self.ingress else None,
            "notes": list(self.notes),
        }

    def lines(self, verbose: bool = False) -> list[str]:
        verb = "ALLOWED" if self.allowed else "DENIED"
        out = [f"{self.source} -> {self.destination} {self.protocol}/{self.port}: {verb}"]
        out.extend(f"  note: {n}" for n in self.notes)
        for side in (self.egress, self.ingress):
            if side is None:
                out.append("  (the other end is outside the cluster: only this side's policies apply)")
                continue
            out.extend(f"  {line}" for line in side.lines(verbose))
        return out


# -- reasons ------------------------------------------------------------------------


class _Subject:
    """What the reasons need to know about the two ends."""

    def __init__(self, snap: Snapshot, pod: int, peer: int | None, address, protocol: str, port: int, direction: str):
        sim = snap.sim
        self.snap, self.sim = snap, sim
        self.pod, self.peer, self.address = pod, peer, address
        self.protocol, self.port, self.direction = protocol, port, direction
        self.named = sim.named_ports[pod if direction == INGRESS else peer] if (direction == INGRESS or peer is not None) else {}
        self.dst_name = sim.pods[pod].key if direction == INGRESS else (sim.pods[peer].key if peer is not None else str(address))
        ns_labels = {ns.name: dict(ns.labels) for ns in sim.cluster.namespaces}
        self.ns_labels = ns_labels
        if peer is not None:
            p = sim.pods[peer]
            self.peer_name = p.key
            self.peer_ns = p.namespace
            self.peer_labels = dict(p.labels)
            self.peer_ip = sim.addresses[peer]
            self.peer_host = p.host_network
        else:
            self.peer_name = str(address)
            self.peer_ns = None
            self.peer_labels = {}
            self.peer_ip = address
            self.peer_host = False

    def peer_in_namespaces(self, selector: LabelSelector, what: str) -> str | None:
        """``None`` when the peer's namespace matches, else why not."""
        if self.peer_ns is None:
            return f"{what}: {self.peer_name} is outside the cluster"
        if self.peer_host:
            return f"{what}: {self.peer_name} is a hostNetwork pod (selectors never pick it)"
        if not selector.matches(self.ns_labels.get(self.peer_ns, {})):
            return f"{what} {describe_selector(selector)} does not match namespace {self.peer_ns} {_labels(sorted(self.ns_labels.get(self.peer_ns, {}).items()))}"
        return None

    def peer_pod_labels(self, selector: LabelSelector, what: str) -> str | None:
        if not selector.matches(self.peer_labels):
            return f"{what} {describe_selector(selector)} does not match {self.peer_name} {_labels(sorted(self.peer_labels.items()))}"
        return None


def _np_peer_reason(subj: _Subject, peer: Peer, policy_ns: str) -> tuple[bool, str]:
    if peer.ip_block is not None:
        block = peer.ip_block
        text = f"ipBlock {block.cidr}" + (f" except {','.join(block.excepts)}" if block.excepts else "")
        if subj.peer_ns is not None and not subj.sim.semantics.ipblock_selects_pods:
            return False, f"{text}: ipBlocks do not cover pod addresses under this profile"
        ip = subj.peer_ip
        net = ipaddress.ip_network(block.cidr, strict=False)
        inside = ip is not None and ip.version == net.version and ip in net
        hole = next((e for e in block.excepts if ip is not None and ip in ipaddress.ip_network(e, strict=False)), None)
        if inside and hole is None:
            return True, f"{text} holds {ip}"
        if inside:
            return False, f"{text}: {ip} is in the except {hole}"
        return False, f"{text} does not hold {ip}"
    if subj.peer_ns is None:
        return False, f"selector peer: {subj.peer_name} is outside the cluster"
    if subj.peer_host:
        return False, f"selector peer: {subj.peer_name} is a hostNetwork pod (selectors never pick it)"
    if peer.namespace_selector is None:
        if subj.peer_ns != policy_ns:
            return False, f"podSelector peer selects in namespace {policy_ns} only; {subj.peer_name} is in {subj.peer_ns}"
        why = subj.peer_pod_labels(peer.pod_selector or LabelSelector(), "podSelector")
        return (why is None), why or f"podSelector {describe_selector(peer.pod_selector or LabelSelector())} matches {subj.peer_name}"
    why = subj.peer_in_namespaces(peer.namespace_selector, "namespaceSelector")
    if why is None and peer.pod_selector is not None:
        why = subj.peer_pod_labels(peer.pod_selector, "podSelector")
    if why is not None:
        return False, why
    what = f"namespaceSelector {describe_selector(peer.namespace_selector)}"
    if peer.pod_selector is not None:
        what += f" and podSelector {describe_selector(peer.pod_selector)}"
    return True, f"{what} match {subj.peer_name}"


def _np_ports_reason(subj: _Subject, rule: Rule) -> tuple[bool, str]:
    want = f"{subj.protocol}/{subj.port}"
    if not rule.ports:
        return True, "any port"
    listed = []
    for port in rule.ports:
        proto = port.effective_protocol
        if port.port is None:
            if proto == subj.protocol:
                return True, f"every {proto} port"
            listed.append(f"{proto} any")
        elif isinstance(port.port, str):
            resolved = subj.named.get(port.port)
            if resolved == (subj.protocol, subj.port) and proto == subj.protocol:
                return True, f"named port {port.port!r} is {want} on {subj.dst_name}"
            where = f"{resolved[0]}/{resolved[1]}" if resolved else "undefined"
            listed.append(f"{proto} {port.port!r} ({where} on {subj.dst_name})")
        else:
            end = port.end_port or port.port
            if proto == subj.protocol and port.port <= subj.port <= end:
                return True, f"{want} is in ports {proto} {port.port}" + (f"-{end}" if end != port.port else "")
            listed.append(f"{proto} {port.port}" + (f"-{end}" if end != port.port else ""))
    return False, f"{want} is not in ports [{', '.join(listed)}]"


def _admin_peer_reason(subj: _Subject, peer: AdminPeer) -> tuple[bool, str]:
    if peer.networks is not None:
        ip = subj.peer_ip
        hit = next(
            (c for c in peer.networks if ip is not None and ip.version == ipaddress.ip_network(c, strict=False).version
             and ip in ipaddress.ip_network(c, strict=False)),
            None,
        )
        if hit:
            return True, f"networks {hit} holds {ip}"
        return False, f"networks [{', '.join(peer.networks)}] do not hold {ip}"
    if peer.nodes is not None:
        return False, "nodes peer: not modelled (matches nothing here)"
    if peer.domain_names is not None:
        return False, "domainNames peer: not modelled (matches nothing here)"
    if peer.namespaces is not None:
        why = subj.peer_in_namespaces(peer.namespaces, "namespaces")
        return (why is None), why or f"namespaces {describe_selector(peer.namespaces)} match {subj.peer_ns}"
    pods = peer.pods or NamespacedPods()
    why = subj.peer_in_namespaces(pods.namespace_selector, "pods.namespaceSelector") or subj.peer_pod_labels(
        pods.pod_selector, "pods.podSelector"
    )
    return (why is None), why or (
        f"pods {describe_selector(pods.namespace_selector)}/{describe_selector(pods.pod_selector)} match {subj.peer_name}"
    )


def _admin_ports_reason(subj: _Subject, rule: AdminRule) -> tuple[bool, str]:
    want = f"{subj.protocol}/{subj.port}"
    if rule.ports is None:
        return True, "any protocol and port"
    listed = []
    for port in rule.ports:
        if port.named:
            resolved = subj.named.get(port.named)
            if resolved == (subj.protocol, subj.port):
                return True, f"named port {port.named!r} is {want} on {subj.dst_name}"
            where = f"{resolved[0]}/{resolved[1]}" if resolved else "undefined"
            listed.append(f"{port.named!r} ({where} on {subj.dst_name})")
            continue
        span = str(port.start) if port.start == port.end else f"{port.start}-{port.end}"
        if port.protocol == subj.protocol and port.start <= subj.port <= port.end:
            return True, f"{want} is in {port.protocol} {span}"
        listed.append(f"{port.protocol} {span}")
    return False, f"{want} is not in [{', '.join(listed)}]"


def _combine(peer_result: tuple[bool, str], port_result: tuple[bool, str]) -> tuple[bool, str]:
    ok_peer, why_peer = peer_result
    ok_port, why_port = port_result
    if ok_peer and ok_port:
        return True, f"{why_peer}; {why_port}"
    if not ok_peer and not ok_port:
        return False, f"peer: {why_peer}; port: {why_port}"
    return False, f"peer: {why_peer}" if not ok_peer else f"port: {why_port}"


def _peers_reason(results: Iterable[tuple[bool, str]]) -> tuple[bool, str]:
    results = list(results)
    hit = next((why for ok, why in results if ok), None)
    if hit is not None:
        return True, hit
    return False, " | ".join(why for _, why in results)


# -- tiers ------------------------------------------------------------------------


def _rule_label(direction: str, index: int, name: str = "") -> str:
    return f"{direction.lower()}[{index}]" + (f" {name!r}" if name else "")


def _first_match_tier(
    subj: _Subject, tier: str, rules: tuple[CompiledAdminRule, ...], peer_ok, reachable: bool, unselected: tuple[str, ...]
) -> tuple[TierStep, str | None]:
    """A first-match tier; returns the step and the action that ended it (None: no match)."""
    checks = []
    ended = None
    for r in rules:
        matched = peer_ok(r) and r.admits_port(subj.protocol, subj.port, subj.named)
        peer_result = _peers_reason(_admin_peer_reason(subj, p) for p in r.rule.peers)
        _, reason = _combine(peer_result, _admin_ports_reason(subj, r.rule))
        reached = reachable and ended is None
        checks.append(RuleCheck(tier, r.match.policy, _rule_label(r.match.direction, r.match.index, r.match.name),
                                r.match.action, matched, reached, reason))
        if matched and reached:
            ended = r.match.action
    selecting = tuple(dict.fromkeys(r.match.policy for r in rules))
    if not reachable:
        outcome = NOT_REACHED
    elif not rules:
        outcome = "no policy of this tier selects the pod"
    else:
        outcome = ended or "no match"
    return TierStep(tier, outcome, tuple(checks), selecting, unselected), (ended if reachable else None)


def _unselected_admin(snap: Snapshot, tier: str, direction: str, pod: int) -> tuple[str, ...]:
    if snap.tiers is None:
        return ()
    out = []
    p = snap.sim.pods[pod]
    for cp in snap.tiers.compiled:
        if cp.policy.tier != tier or not cp.rules(direction) or pod in cp.selected:
            continue
        subject = cp.policy.subject
        if p.host_network:
            why = f"{p.key} is a hostNetwork pod"
        elif subject.namespaces is not None:
            why = f"subject namespaces {describe_selector(subject.namespaces)} does not match namespace {p.namespace}"
        else:
            pods = subject.pods or NamespacedPods()
            why = (f"subject pods {describe_selector(pods.namespace_selector)}/{describe_selector(pods.pod_selector)} "
                   f"does not match {p.key} {_labels(p.labels)}")
        out.append(f"{cp.policy.key}: {why}")
    return tuple(out)


def _np_step(snap: Snapshot, subj: _Subject, direction: str, pod: int, peer_ok, reachable: bool) -> tuple[TierStep, bool]:
    sim = snap.sim
    p = sim.pods[pod]
    isolating = snap.isolating(pod, direction)
    checks = []
    admitted = False
    unselected = []
    for cp in snap.compiled:
        pol = cp.policy
        if pol.namespace != p.namespace:
            continue
        rules = cp.ingress if direction == INGRESS else cp.egress
        if pod not in cp.selected or rules is None:
            if p.host_network:
                why = f"{p.key} is a hostNetwork pod"
            elif pod not in cp.selected:
                why = f"podSelector {describe_selector(pol.pod_selector)} does not match {p.key} {_labels(p.labels)}"
            else:
                why = f"policyTypes {list(pol.effective_types)} leave out {direction}"
            unselected.append(f"{pol.key}: {why}")
            continue
        for index, (compiled, rule) in enumerate(zip(rules, pol.rules(direction), strict=True)):
            matched = peer_ok(compiled) and compiled.admits_port(subj.protocol, subj.port, subj.named)
            if rule.peers:
                peer_result = _peers_reason(_np_peer_reason(subj, peer, pol.namespace) for peer in rule.peers)
            else:
                peer_result = (True, "any peer")
            _, reason = _combine(peer_result, _np_ports_reason(subj, rule))
            checks.append(RuleCheck(TIER_NETWORK_POLICY, pol.key, _rule_label(direction, index), "Allow",
                                    matched, reachable, reason))
            admitted = admitted or matched
        if not pol.rules(direction):
            checks.append(RuleCheck(TIER_NETWORK_POLICY, pol.key, f"{direction.lower()}: []", "Allow", False, reachable,
                                    f"no {direction.lower()} rules: isolates only"))
    if not reachable:
        outcome = NOT_REACHED
    elif not isolating:
        outcome = "not isolated"
    else:
        outcome = "allowed" if admitted else "denied (implicit deny of the isolating policies; final)"
    return TierStep(TIER_NETWORK_POLICY, outcome, tuple(checks), isolating, tuple(unselected)), bool(isolating)


def _direction(snap: Snapshot, direction: str, pod: int, peer: int | None, address, protocol: str, port: int,
               exempt: bool, verdict: DirectionVerdict) -> DirectionChain:
    subj = _Subject(snap, pod, peer, address, protocol, port, direction)
    if peer is None:
        def peer_ok(r):
            return r.admits_address(address)
    else:
        def peer_ok(r):
            return r.admits_peer(peer)
    steps = []
    tiers = snap.tiers
    reachable = True
    if tiers is not None:
        if exempt:
            steps.append(TierStep(ADMIN_TIER, "exempt (a pod reaching its own address is not subject to admin policies)"))
        else:
            step, ended = _first_match_tier(subj, ADMIN_TIER, tiers.rules(ADMIN_TIER, direction)[pod], peer_ok, True,
                                            _unselected_admin(snap, ADMIN_TIER, direction, pod))
            steps.append(step)
            if ended in (ACCEPT, "Deny"):
                reachable = False
    np_step, isolated = _np_step(snap, subj, direction, pod, peer_ok, reachable)
    steps.append(np_step)
    if tiers is not None:
        if exempt:
            steps.append(TierStep(BASELINE_TIER, "exempt"))
        else:
            step, _ = _first_match_tier(subj, BASELINE_TIER, tiers.rules(BASELINE_TIER, direction)[pod], peer_ok,
                                        reachable and not isolated, _unselected_admin(snap, BASELINE_TIER, direction, pod))
            steps.append(step)
    chain = DirectionChain(direction, snap.sim.pods[pod].key, subj.peer_name, verdict, tuple(steps))
    _check_agrees(chain)
    return chain


def _check_agrees(chain: DirectionChain) -> None:
    """The chain's own reading of its steps must give the verdict's tier (a guard, not a guess)."""
    steps = {s.tier: s for s in chain.steps}
    admin = steps.get(ADMIN_TIER)
    if admin is not None and admin.outcome in (ACCEPT, "Deny"):
        tier = ADMIN_TIER
    elif steps[TIER_NETWORK_POLICY].selecting:
        tier = TIER_NETWORK_POLICY
    elif BASELINE_TIER in steps and steps[BASELINE_TIER].outcome in (ACCEPT, "Deny"):
        tier = BASELINE_TIER
    else:
        tier = TIER_DEFAULT
    if tier != chain.verdict.tier:
        raise AssertionError(f"explain chain says tier {tier}, verdict says {chain.verdict.tier}")
    if admin is not None and admin.outcome == PASS and chain.verdict.admin is None:
        raise AssertionError("explain chain saw an admin Pass the verdict did not")


def explain_connection(
    snap: Snapshot,
    src: int | str,
    dst: int | str,
    protocol: str,
    port: int,
    *,
    via_service: bool = False,
    notes: Iterable[str] = (),
) -> ConnectionChain:
    """The decision chain of ``src`` -> ``dst`` on ``protocol``/``port``.

    ``src`` and ``dst`` are pod indices, or addresses (strings) for an end
    outside the cluster (at most one of them). ``via_service``: the
    connection was addressed to a Service and translated to ``dst`` (see
    :meth:`Snapshot.allowed`).
    """
    sim = snap.sim
    if isinstance(src, str) and isinstance(dst, str):
        raise ValueError("at least one end of a connection must be a pod of the cluster")
    if isinstance(src, str):
        verdict = snap.verdict_external(dst, src, INGRESS, protocol, port)
        ingress = _direction(snap, INGRESS, dst, None, ipaddress.ip_address(src), protocol, port, False, verdict.ingress)
        return ConnectionChain(src, sim.pods[dst].key, protocol, port, None, ingress, tuple(notes))
    if isinstance(dst, str):
        verdict = snap.verdict_external(src, dst, EGRESS, protocol, port)
        egress = _direction(snap, EGRESS, src, None, ipaddress.ip_address(dst), protocol, port, False, verdict.egress)
        return ConnectionChain(sim.pods[src].key, dst, protocol, port, egress, None, tuple(notes))
    verdict = snap.verdict(src, dst, protocol, port, via_service=via_service)
    exempt = src == dst and not via_service
    egress = _direction(snap, EGRESS, src, dst, None, protocol, port, exempt, verdict.egress)
    ingress = _direction(snap, INGRESS, dst, src, None, protocol, port, exempt, verdict.ingress)
    return ConnectionChain(sim.pods[src].key, sim.pods[dst].key, protocol, port, egress, ingress, tuple(notes))


# -- naming the two ends --------------------------------------------------------------


@dataclass(frozen=True)
class Landing:
    """Where a connection lands: a pod (index) or an outside address, on one port."""

    pod: int | None
    address: str | None
    port: int
    via: str = ""  # the Service it was addressed to, when it went through one


@dataclass(frozen=True)
class TargetExplanation:
    """Every landing of ``source -> target``, the DNS step, and the probe cell it is.

    ``allowed``: the name resolves (when DNS is modelled and a Service is
    named) and at least one landing is allowed, as a client's connection is.
    ``probe`` is ``(source, target)`` in probe-matrix names when the
    connection is one a probe makes (a workload to a Service port), else ``None``.
    """

    source: str
    target: str
    protocol: str
    connections: tuple[ConnectionChain, ...]
    dns: tuple[str, ...] = ()
    dns_ok: bool = True
    probe: tuple[str, str] | None = None
    notes: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        return self.dns_ok and any(c.allowed for c in self.connections)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "protocol": self.protocol,
            "allowed": self.allowed,
            "dns": {"ok": self.dns_ok, "steps": list(self.dns)} if self.dns else None,
            "probe": {"source": self.probe[0], "target": self.probe[1]} if self.probe else None,
            "notes": list(self.notes),
            "connections": [c.to_dict() for c in self.connections],
        }

    def lines(self, verbose: bool = False) -> list[str]:
        verb = "ALLOWED" if self.allowed else "DENIED"
        out = [f"{self.source} -> {self.target} ({self.protocol}): {verb}"]
        out.extend(f"note: {n}" for n in self.notes)
        for step in self.dns:
            out.append(f"DNS: {step}")
        if not self.dns_ok:
            out.append("DNS: the name does not resolve, so no connection is made")
        if not self.connections:
            out.append("no endpoint: nothing answers")
        for chain in self.connections:
            out.extend(chain.lines(verbose))
        return out


def _pod_by_name(sim, text: str) -> int | None:
    """A pod named ``[namespace/]name``, or the first pod of such a workload."""
    namespace, _, name = text.rpartition("/")
    namespace = namespace or "default"
    for i, p in enumerate(sim.pods):
        if p.namespace == namespace and p.name == name:
            return i
    matches = [i for i, p in enumerate(sim.pods) if p.namespace == namespace and p.workload == name]
    return min(matches, key=lambda i: sim.pods[i].name) if matches else None


def _address(text: str):
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def resolve_source(sim, text: str) -> int | str:
    """A source: ``[namespace/]pod-or-workload`` (pod index) or an address outside the cluster."""
    ip = _address(text)
    if ip is not None:
        for i, ip_i in enumerate(sim.addresses):
            if ip_i == ip and not sim.pods[i].host_network:
                return i
        return str(ip)
    found = _pod_by_name(sim, text)
    if found is None:
        raise ProbeError(f"source {text!r}: expected [namespace/]pod or workload, or an IP address; no such pod")
    return found


def _split_port(text: str) -> tuple[str, int | None]:
    if text.count(":") == 1 or (text.startswith("[") and "]:" in text):
        head, _, tail = text.rpartition(":")
        if not tail.isdigit() or not 1 <= int(tail) <= 65535:
            raise ProbeError(f"target {text!r}: port must be a number 1..65535")
        return head.strip("[]"), int(tail)
    return text, None


def resolve_target(sim, source_ns: str | None, text: str, protocol: str) -> tuple[list[Landing], str | None, list[str]]:
    """Landings of a target ``service[.namespace][:port]``, ``[namespace/]pod[:port]`` or
    ``address[:port]``; with the Service's probe name (``None`` for direct targets) and notes.

    A bare name is a Service when one of that name exists in the namespace
    (the source's, or ``default``), else a pod or workload; write
    ``namespace/name`` for a pod or workload. Without a port every port of
    the Service (or every container port of the pod) on ``protocol`` is taken.
    """
    head, port = _split_port(text)
    notes: list[str] = []
    ip = _address(head)
    if ip is not None:
        for svc in sim.cluster.services:
            if svc.cluster_ip and _address(svc.cluster_ip) == ip:
                return _service_landings(sim, svc, port, protocol, notes), None, notes
        for i, ip_i in enumerate(sim.addresses):
            if ip_i == ip and not sim.pods[i].host_network:
                return _pod_landings(sim, i, port, protocol), None, notes
        if port is None:
            raise ProbeError(f"target {text!r}: an address outside the cluster needs a port")
        return [Landing(None, str(ip), port)], None, notes
    if "/" not in head:
        name, _, ns = head.partition(".")
        namespace = ns or source_ns or "default"
        for svc in sim.cluster.services:
            if svc.name == name and svc.namespace == namespace:
                landings = _service_landings(sim, svc, port, protocol, notes)
                probe = None
                if port is not None and protocol == "TCP":
                    probe = f"{name}:{port}" if namespace == (source_ns or "default") else f"{name}.{namespace}:{port}"
                return landings, probe, notes
    pod = _pod_by_name(sim, head)
    if pod is None:
        raise ProbeError(
            f"target {text!r}: expected service[.namespace][:port], namespace/pod-or-workload[:port] "
            "or address:port; no such Service or pod"
        )
    return _pod_landings(sim, pod, port, protocol), None, notes


def _pod_landings(sim, pod: int, port: int | None, protocol: str) -> list[Landing]:
    if port is not None:
        return [Landing(pod, None, port)]
    ports = sorted({cp.port for cp in sim.pods[pod].ports if cp.protocol == protocol})
    if not ports:
        raise ProbeError(f"target {sim.pods[pod].key}: it declares no {protocol} container port; give :PORT")
    return [Landing(pod, None, p) for p in ports]


def _service_landings(sim, svc, port: int | None, protocol: str, notes: list[str]) -> list[Landing]:
    chosen = [sp for sp in svc.ports if sp.protocol == protocol and (port is None or sp.port == port)]
    if not chosen:
        raise ProbeError(f"Service {svc.key} has no {protocol} port" + (f" {port}" if port is not None else ""))
    if svc.selector is None:
        notes.append(f"Service {svc.key} has no selector: no endpoints")
        return []
    out = []
    for sp in chosen:
        pods = sorted(sim.select_pods(LabelSelector(match_labels=svc.selector), svc.namespace))
        for i in pods:
            target = sp.target_port
            if isinstance(target, str):
                named = sim.named_ports[i].get(target)
                if named is None or named[0] != protocol:
                    notes.append(f"{sim.pods[i].key} has no {protocol} port named {target!r}")
                    continue
                target = named[1]
            out.append(Landing(i, None, target, via=f"Service {svc.key} port {sp.port}"))
        if not pods:
            notes.append(f"Service {svc.key} selects no pod")
    return out


def explain_target(
    snap: Snapshot,
    source: str,
    target: str,
    *,
    protocol: str = "TCP",
    dns_endpoints: Iterable[tuple[int, int]] | None = None,
) -> TargetExplanation:
    """The decision chains of ``source -> target`` (names as :func:`resolve_source` and
    :func:`resolve_target` read them). ``dns_endpoints``: kube-dns (pod, UDP port)
    pairs when name resolution is modelled (a Service named by name needs it)."""
    sim = snap.sim
    src = resolve_source(sim, source)
    source_ns = sim.pods[src].namespace if isinstance(src, int) else None
    landings, probe_target, notes = resolve_target(sim, source_ns, target, protocol)
    via_name = any(land.via for land in landings) and _address(_split_port(target)[0]) is None
    dns_steps: list[str] = []
    dns_ok = True
    if dns_endpoints is not None and via_name and isinstance(src, int):
        dns_ok = False
        for pod, port in dns_endpoints:
            verdict = snap.verdict(src, pod, "UDP", port, via_service=True)
            dns_ok = dns_ok or verdict.allowed
            dns_steps.append(f"UDP/{port} to {sim.pods[pod].key}: {verdict.explain()}")
        if not dns_steps:
            dns_steps.append("kube-dns has no endpoint")
    chains = []
    for land in landings:
        dst: int | str = land.pod if land.pod is not None else str(land.address)
        chain_notes = (land.via,) if land.via else ()
        chains.append(explain_connection(snap, src, dst, protocol, land.port, via_service=bool(land.via), notes=chain_notes))
    probe = None
    if probe_target is not None and isinstance(src, int):
        pod = sim.pods[src]
        probe = (pod.workload if pod.namespace == "default" else f"{pod.namespace}/{pod.workload}", probe_target)
    return TargetExplanation(
        source=source if isinstance(src, str) else sim.pods[src].key,
        target=target,
        protocol=protocol,
        connections=tuple(chains),
        dns=tuple(dns_steps),
        dns_ok=dns_ok,
        probe=probe,
        notes=tuple(notes),
    )
