"""Admin policy tiers: admin policies compiled per pod, in evaluation order.

The order, for each direction of a connection separately (egress at the
source, ingress at the destination; a connection needs both):

1. **Admin tier** (ClusterNetworkPolicy ``tier: Admin``, AdminNetworkPolicy):
   the policies selecting the pod by ascending ``priority``, each one's rules
   in written order; the first rule whose peers and ports match decides.
   Accept (v1alpha1: Allow) admits and Deny drops, for this direction; Pass
   skips every remaining admin rule and goes to the NetworkPolicy tier.
2. **NetworkPolicy tier**: when a NetworkPolicy isolates the pod for this
   direction, it is final: admitted by some rule or dropped (the implicit
   deny does not fall through to the baseline).
3. **Baseline tier** (ClusterNetworkPolicy ``tier: Baseline``, the
   BaselineAdminNetworkPolicy ``default``): the same first-match walk; Pass
   goes to the default.
4. **Default**: allowed.

Selection: a subject is ``namespaces`` (every pod of the matching
namespaces) or ``pods`` (namespace AND pod selector); peers are
``namespaces``, ``pods`` and, for egress, ``networks`` (CIDRs, which match pod
addresses too), ``nodes`` and ``domainNames``. hostNetwork pods are never
subjects and never ``namespaces``/``pods`` peers. A pod connecting to its
own address is not subject to the admin tiers (through a Service it is).
Named ports resolve on the destination pod, whatever the protocol.

Not modelled: ``nodes`` peers (the model has no Node objects) and
``domainNames`` peers (no name resolution outside the cluster) match no
pod and no address; :func:`findings` reports each one. Neither can match
pod-to-pod traffic, which is what the engine decides.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from netmend.k8s.model import (
    ACCEPT,
    ADMIN_TIER,
    BASELINE_TIER,
    DENY,
    PASS,
    AdminPeer,
    AdminPolicy,
    AdminRule,
    AdminSubject,
    LabelSelector,
    NamespacedPods,
)
from netmend.k8s.portset import PortRange, PortSet

if TYPE_CHECKING:  # the simulator owns the pod index these compile against
    from netmend.k8s.semantics import Simulator

INGRESS, EGRESS = "Ingress", "Egress"
NOT_MODELLED_PEERS: tuple[str, ...] = ("nodes", "domainNames")


@dataclass(frozen=True)
class TierMatch:
    """The admin or baseline rule that matched one direction first."""

    tier: str
    policy: str  # Kind/name
    priority: int
    direction: str
    index: int
    name: str
    action: str

    def __str__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (
            f"{self.policy} (tier {self.tier}, priority {self.priority}) "
            f"{self.direction.lower()}[{self.index}]{label} {self.action}"
        )


class CompiledAdminRule:
    """An admin rule resolved against the pod index.

    ``peer_pods``: pod indices the peers match (selectors, minus hostNetwork
    pods, plus every pod whose address is in a ``networks`` CIDR);
    ``networks``: the CIDRs, for addresses outside the cluster. ``ports_all``
    matches every port; otherwise ``numeric`` (protocol, low, high) and
    ``named`` (container port names).
    """

    __slots__ = ("match", "rule", "peer_pods", "networks", "ports_all", "numeric", "named", "unmodelled")

    def __init__(self, match, rule, peer_pods, networks, ports_all, numeric, named, unmodelled):
        self.match: TierMatch = match
        self.rule: AdminRule = rule
        self.peer_pods: frozenset[int] = peer_pods
        self.networks: tuple = networks
        self.ports_all: bool = ports_all
        self.numeric: tuple[tuple[str, int, int], ...] = numeric
        self.named: tuple[str, ...] = named
        self.unmodelled: tuple[str, ...] = unmodelled

    @property
    def action(self) -> str:
        return self.match.action

    def admits_peer(self, peer: int) -> bool:
        """Whether pod index ``peer`` is among this rule's peers."""
        return peer in self.peer_pods

    def admits_address(self, ip) -> bool:
        """Whether an address outside the cluster is in this rule's ``networks``."""
        return any(ip.version == net.version and ip in net for net in self.networks)

    def admits_port(self, protocol: str, port: int, named_ports: dict[str, tuple[str, int]]) -> bool:
        """Whether ``(protocol, port)`` matches; names resolve in ``named_ports`` (any protocol)."""
        if self.ports_all:
            return True
        for proto, lo, hi in self.numeric:
            if proto == protocol and lo <= port <= hi:
                return True
        return any(named_ports.get(name) == (protocol, port) for name in self.named)

    def port_set(self, named_ports: dict[str, tuple[str, int]] | None) -> PortSet:
        """The matched ports, names resolved in ``named_ports`` (``None``: none resolve)."""
        if self.ports_all:
            return PortSet.all()
        ranges = [PortRange(p, lo, hi) for p, lo, hi in self.numeric]
        for name in self.named:
            resolved = (named_ports or {}).get(name)
            if resolved is not None:
                ranges.append(PortRange(resolved[0], resolved[1], resolved[1]))
        return PortSet.of(ranges)


@dataclass(frozen=True)
class CompiledAdminPolicy:
    """An admin policy resolved against the pod index."""

    policy: AdminPolicy
    selected: frozenset[int]
    ingress: tuple[CompiledAdminRule, ...]
    egress: tuple[CompiledAdminRule, ...]

    def rules(self, direction: str) -> tuple[CompiledAdminRule, ...]:
        return self.ingress if direction == INGRESS else self.egress


def _pods_of(sim: Simulator, pods: NamespacedPods) -> frozenset[int]:
    out: set[int] = set()
    for ns in sim.select_namespaces(pods.namespace_selector):
        out |= sim.select_pods(pods.pod_selector, ns)
    return frozenset(out - sim.host_pods)


def _namespaces_of(sim: Simulator, selector: LabelSelector) -> frozenset[int]:
    return _pods_of(sim, NamespacedPods(namespace_selector=selector))


def subject_pods(sim: Simulator, subject: AdminSubject) -> frozenset[int]:
    """Pod indices an admin subject selects (never a hostNetwork pod)."""
    if subject.namespaces is not None:
        return _namespaces_of(sim, subject.namespaces)
    return _pods_of(sim, subject.pods or NamespacedPods())


def peer_pods(sim: Simulator, peer: AdminPeer) -> frozenset[int]:
    """Pod indices one admin peer matches (networks by address, hostNetwork pods included)."""
    if peer.namespaces is not None:
        return _namespaces_of(sim, peer.namespaces)
    if peer.pods is not None:
        return _pods_of(sim, peer.pods)
    if peer.networks is not None:
        nets = [ipaddress.ip_network(c, strict=False) for c in peer.networks]
        return frozenset(
            i
            for i, ip in enumerate(sim.addresses)
            if ip is not None and any(ip.version == n.version and ip in n for n in nets)
        )
    return frozenset()  # nodes, domainNames: not modelled


def compile_admin_policy(sim: Simulator, policy: AdminPolicy) -> CompiledAdminPolicy:
    """Resolve ``policy`` against the simulator's pod index."""
    sides = {}
    for direction in (INGRESS, EGRESS):
        compiled = []
        for index, rule in enumerate(policy.rules(direction)):
            pods: set[int] = set()
            networks = []
            for peer in rule.peers:
                pods |= peer_pods(sim, peer)
                if peer.networks is not None:
                    networks.extend(ipaddress.ip_network(c, strict=False) for c in peer.networks)
            numeric, named = [], []
            for port in rule.ports or ():
                if port.named:
                    named.append(port.named)
                else:
                    numeric.append((port.protocol or "TCP", port.start, port.end))
            compiled.append(
                CompiledAdminRule(
                    match=TierMatch(
                        tier=policy.tier,
                        policy=policy.key,
                        priority=policy.priority,
                        direction=direction,
                        index=index,
                        name=rule.name,
                        action=rule.action,
                    ),
                    rule=rule,
                    peer_pods=frozenset(pods),
                    networks=tuple(networks),
                    ports_all=rule.ports is None,
                    numeric=tuple(numeric),
                    named=tuple(named),
                    unmodelled=tuple(p.kind for p in rule.peers if p.kind in NOT_MODELLED_PEERS),
                )
            )
        sides[direction] = tuple(compiled)
    return CompiledAdminPolicy(
        policy=policy,
        selected=subject_pods(sim, policy.subject),
        ingress=sides[INGRESS],
        egress=sides[EGRESS],
    )


def precedence(policy: AdminPolicy) -> tuple[int, str]:
    """Order within a tier: priority, then key (a stable pick among equal priorities)."""
    return (policy.priority, policy.key)


class TierIndex:
    """Per pod and direction, the admin and baseline rules in evaluation order.

    ``rules(tier, direction)[i]`` is the tuple of compiled rules that apply
    to pod ``i`` (empty when no policy of that tier selects it).
    """

    __slots__ = ("compiled", "_rules")

    def __init__(self, n_pods: int, compiled: Sequence[CompiledAdminPolicy]):
        self.compiled = tuple(sorted(compiled, key=lambda c: (c.policy.tier != ADMIN_TIER, precedence(c.policy))))
        table: dict[tuple[str, str], list[list[CompiledAdminRule]]] = {
            (tier, d): [[] for _ in range(n_pods)] for tier in (ADMIN_TIER, BASELINE_TIER) for d in (INGRESS, EGRESS)
        }
        for cp in self.compiled:
            for direction in (INGRESS, EGRESS):
                rules = cp.rules(direction)
                if not rules:
                    continue
                column = table[(cp.policy.tier, direction)]
                for i in cp.selected:
                    column[i].extend(rules)
        self._rules = {key: [tuple(r) for r in column] for key, column in table.items()}

    def rules(self, tier: str, direction: str) -> list[tuple[CompiledAdminRule, ...]]:
        return self._rules[(tier, direction)]


def first_match(rules: Iterable[CompiledAdminRule], peer_ok, protocol: str, port: int, named) -> CompiledAdminRule | None:
    """The first rule whose peer test ``peer_ok(rule)`` and ports match."""
    for rule in rules:
        if peer_ok(rule) and rule.admits_port(protocol, port, named):
            return rule
    return None


def decided(match: TierMatch | None) -> bool | None:
    """True (Accept), False (Deny) or None (no match, or Pass: the next tier decides)."""
    if match is None or match.action == PASS:
        return None
    return match.action != DENY


# -- findings -----------------------------------------------------------------------


@dataclass(frozen=True)
class TierFinding:
    """Something an admin needs to know about the policy set.

    ``kind`` is ``same-priority-overlap`` (two policies of one tier and
    priority may match the same connection: which applies is undefined) or
    ``not-modelled`` (a peer the engine cannot evaluate).
    """

    kind: str
    policies: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def _overlaps(a: CompiledAdminRule, b: CompiledAdminRule) -> bool:
    """Whether two rules may match a common connection (named ports: assumed to)."""
    peers = bool(a.peer_pods & b.peer_pods) or any(
        x.version == y.version and x.overlaps(y) for x in a.networks for y in b.networks
    )
    if not peers:
        return False
    if a.ports_all or b.ports_all or a.named or b.named:
        return True
    return bool(a.port_set(None) & b.port_set(None))


def findings(sim: Simulator, admin_policies: Iterable[AdminPolicy] | None = None) -> tuple[TierFinding, ...]:
    """Same-priority overlaps and peers that are not modelled, in a stable order."""
    policies = sorted(
        sim.cluster.admin_policies if admin_policies is None else admin_policies,
        key=lambda p: (p.tier != ADMIN_TIER, precedence(p)),
    )
    compiled = [sim.compile_admin_policy(p) for p in policies]
    out: list[TierFinding] = []
    for i, a in enumerate(compiled):
        for b in compiled[i + 1 :]:
            pa, pb = a.policy, b.policy
            if (pa.tier, pa.priority) != (pb.tier, pb.priority):
                continue
            common = a.selected & b.selected
            for direction in (INGRESS, EGRESS):
                pairs = [
                    (ra, rb)
                    for ra in a.rules(direction)
                    for rb in b.rules(direction)
                    if common and _overlaps(ra, rb)
                ]
                if not pairs:
                    continue
                differ = [(ra, rb) for ra, rb in pairs if ra.action != rb.action]
                ra, rb = (differ or pairs)[0]
                effect = "with different actions" if differ else "with the same action"
                out.append(
                    TierFinding(
                        kind="same-priority-overlap",
                        policies=(pa.key, pb.key),
                        message=(
                            f"{pa.key} and {pb.key} share tier {pa.tier} priority {pa.priority}, "
                            f"select {len(common)} common pod(s) and may both match {direction.lower()} "
                            f"traffic {effect} ({ra.match.direction.lower()}[{ra.match.index}] "
                            f"{ra.action} vs [{rb.match.index}] {rb.action}); which one applies is "
                            "undefined: give them distinct priorities"
                        ),
                    )
                )
    for cp in compiled:
        for direction in (INGRESS, EGRESS):
            for rule in cp.rules(direction):
                for kind in rule.unmodelled:
                    out.append(
                        TierFinding(
                            kind="not-modelled",
                            policies=(cp.policy.key,),
                            message=(
                                f"{rule.match} has a {kind} peer, which netmend does not model "
                                f"(it matches no pod and no address here); verdicts for traffic "
                                f"to {'node addresses' if kind == 'nodes' else 'outside names'} are incomplete"
                            ),
                        )
                    )
    return tuple(out)


__all__ = [
    "ACCEPT", "DENY", "PASS", "CompiledAdminPolicy", "CompiledAdminRule", "TierFinding", "TierIndex",
    "TierMatch", "compile_admin_policy", "decided", "findings", "first_match", "peer_pods",
    "precedence", "subject_pods",
]  # fmt: skip
