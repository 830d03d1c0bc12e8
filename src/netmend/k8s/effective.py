"""A normalized per-pod view of the policies, for compiling to packet filters.

For each pod and direction: whether it is isolated and its allow rules, each
an explicit peer set (pod IPs, CIDRs with excepts, or any) and port set.
Named ports are resolved here: on the pod itself for ingress, and on each
peer pod for egress (so one egress rule with named ports may become several
entries, one per distinct resolution).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from netmend.k8s.model import Cluster
from netmend.k8s.portset import PortSet
from netmend.k8s.semantics import (
    DEFAULT_SEMANTICS,
    INGRESS,
    CompiledRule,
    RuleRef,
    Semantics,
    Simulator,
    Snapshot,
)
from netmend.k8s.tiers import ADMIN_TIER, BASELINE_TIER, CompiledAdminRule, TierMatch


@dataclass(frozen=True)
class Cidr:
    """A CIDR minus its excepts."""

    cidr: str
    excepts: tuple[str, ...] = ()


@dataclass(frozen=True)
class PeerSet:
    """Who a rule admits: ``any`` peer, or these pod IPs and CIDRs."""

    any: bool = False
    pod_ips: tuple[str, ...] = ()
    cidrs: tuple[Cidr, ...] = ()


@dataclass(frozen=True)
class AllowRule:
    """One allow entry: peers and ports (``PortSet.all()`` for any port)."""

    rule: RuleRef
    peers: PeerSet
    ports: PortSet


@dataclass(frozen=True)
class TierRule:
    """One admin or baseline rule entry, in evaluation order: first match wins.

    ``action`` is ``Accept``, ``Deny`` or ``Pass``; ``rule`` names the
    policy, direction and index it comes from.
    """

    rule: TierMatch
    action: str
    peers: PeerSet
    ports: PortSet


@dataclass(frozen=True)
class DirectionView:
    """One direction of one pod: isolated or not, and what is allowed.

    ``admin`` and ``baseline`` are the tier rules around the NetworkPolicy
    tier (empty without admin policies): admin first; the NetworkPolicy
    tier decides for good when ``isolated``; else the baseline; else allow.
    """

    isolated: bool
    policies: tuple[str, ...] = ()
    rules: tuple[AllowRule, ...] = ()
    admin: tuple[TierRule, ...] = ()
    baseline: tuple[TierRule, ...] = ()

    @property
    def filtered(self) -> bool:
        """Whether anything filters this direction (isolated, or tier rules)."""
        return self.isolated or bool(self.admin) or bool(self.baseline)


@dataclass(frozen=True)
class PodView:
    """The effective policy of one pod."""

    pod: str
    ip: str
    ingress: DirectionView
    egress: DirectionView


def effective_view(
    cluster: Cluster, semantics: Semantics = DEFAULT_SEMANTICS
) -> tuple[PodView, ...]:
    """The per-pod effective policy of ``cluster``, pods in key order.

    Pod IPs in a :class:`PeerSet` come from pod and namespace selectors; an
    ipBlock stays a CIDR (a filter matching addresses covers pods inside it
    by itself, which is :attr:`Semantics.ipblock_selects_pods`).
    """
    sim = Simulator(cluster, semantics)
    snap = sim.snapshot()
    return tuple(
        PodView(
            pod=pod.key,
            ip=pod.ip,
            ingress=_direction(sim, snap, i, INGRESS),
            egress=_direction(sim, snap, i, "Egress"),
        )
        for i, pod in enumerate(sim.pods)
    )


def _direction(sim: Simulator, snap: Snapshot, pod: int, direction: str) -> DirectionView:
    rules = snap.ingress[pod] if direction == INGRESS else snap.egress[pod]
    admin: tuple[TierRule, ...] = ()
    baseline: tuple[TierRule, ...] = ()
    if snap.tiers is not None:
        admin = tuple(
            t for r in snap.tiers.rules(ADMIN_TIER, direction)[pod] for t in _tier_rules(sim, r, pod, direction)
        )
        baseline = tuple(
            t for r in snap.tiers.rules(BASELINE_TIER, direction)[pod] for t in _tier_rules(sim, r, pod, direction)
        )
    if rules is None:
        return DirectionView(isolated=False, admin=admin, baseline=baseline)
    policies = snap.isolating(pod, direction)
    out: list[AllowRule] = []
    for rule in rules:
        out.extend(_allow_rules(sim, rule, pod, direction))
    return DirectionView(isolated=True, policies=policies, rules=tuple(out), admin=admin, baseline=baseline)


def _tier_rules(sim: Simulator, rule: CompiledAdminRule, pod: int, direction: str) -> list[TierRule]:
    """An admin rule as entries with explicit addresses and ports (names resolved on the
    destination: the pod itself for ingress, each peer for egress)."""
    cidrs = tuple(Cidr(str(net)) for net in rule.networks)
    ips = _by_address(sim, rule.peer_pods)
    if direction == INGRESS or not rule.named:
        ports = rule.port_set(sim.named_ports[pod] if direction == INGRESS else None)
        peers = PeerSet(pod_ips=ips, cidrs=cidrs)
        return [TierRule(rule.match, rule.action, peers, ports)] if ports and (ips or cidrs) else []
    out = []
    numeric = rule.port_set(None)
    if numeric and (ips or cidrs):
        out.append(TierRule(rule.match, rule.action, PeerSet(pod_ips=ips, cidrs=cidrs), numeric))
    groups: dict[PortSet, list[int]] = {}
    for j in sorted(rule.peer_pods):
        resolved = rule.port_set(sim.named_ports[j])
        if resolved:
            groups.setdefault(resolved, []).append(j)
    for ports, members in sorted(groups.items(), key=lambda kv: str(kv[0])):
        out.append(TierRule(rule.match, rule.action, PeerSet(pod_ips=_by_address(sim, members)), ports))
    return out


def _allow_rules(sim: Simulator, rule: CompiledRule, pod: int, direction: str) -> list[AllowRule]:
    ips = _by_address(sim, rule.selector_pods)
    cidrs = tuple(Cidr(b.cidr, b.excepts) for b in rule.blocks)
    if direction == INGRESS or not rule.named or rule.ports_all:
        # Names resolve on the pod itself (ingress), or there are none to resolve.
        ports = rule.port_set(sim.named_ports[pod] if direction == INGRESS else None)
        peers = PeerSet(any=rule.peers_all, pod_ips=() if rule.peers_all else ips, cidrs=cidrs)
        return [AllowRule(rule.ref, peers, ports)] if ports else []
    # Egress with named ports: numeric ports apply to every peer; names
    # resolve per peer pod, so group peers by what the names resolve to.
    out = []
    numeric = rule.port_set(None)
    if numeric:
        peers = PeerSet(any=rule.peers_all, pod_ips=() if rule.peers_all else ips, cidrs=cidrs)
        out.append(AllowRule(rule.ref, peers, numeric))
    candidates = range(len(sim.pods)) if rule.peers_all else sorted(rule.peer_pods)
    groups: dict[PortSet, list[int]] = {}
    for j in candidates:
        named_only = rule.named_port_set(sim.named_ports[j])
        if named_only:
            groups.setdefault(named_only, []).append(j)
    for ports, members in sorted(groups.items(), key=lambda kv: str(kv[0])):
        out.append(AllowRule(rule.ref, PeerSet(pod_ips=_by_address(sim, members)), ports))
    return out


def _by_address(sim: Simulator, pods) -> tuple[str, ...]:
    """IPs of ``pods`` (indices) in address order."""
    return tuple(sorted((sim.pods[j].ip for j in pods), key=ipaddress.ip_address))
