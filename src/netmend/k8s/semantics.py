"""NetworkPolicy semantics: compiled per-pod matchers and named verdicts.

A :class:`Simulator` indexes the pods, namespaces and services of a cluster
once; :meth:`Simulator.snapshot` compiles a policy set against that index
(each distinct policy is compiled once and cached), and the resulting
:class:`Snapshot` answers "is this connection allowed?" with plain set
look-ups, or with a :class:`Verdict` naming the policies and rules behind it.

The rules implemented (Kubernetes ``networking.k8s.io/v1``):

- A pod is isolated for a direction only when some policy in its namespace
  selects it and has that direction among its (defaulted) policy types.
- An isolated pod admits the union of the rules of all selecting policies;
  a policy type without rules admits nothing.
- A connection needs the source's egress AND the destination's ingress.
- ``from``/``to`` absent or empty admits every peer; ``ports`` absent or
  empty admits every port of every protocol.
- Peers: podSelector (policy namespace), namespaceSelector (all pods of the
  matching namespaces), both (AND), ipBlock (CIDR minus excepts).
- Ports: number, number..endPort, or a name resolved on the destination
  pod's container ports (for egress: on each peer); protocol defaults to TCP.
- hostNetwork pods are never selected, as subjects or as selector peers
  (an ipBlock still covers their address, the node's).

With admin policies in the cluster (ClusterNetworkPolicy, AdminNetworkPolicy,
BaselineAdminNetworkPolicy) each direction walks the tiers of
:mod:`netmend.k8s.tiers`: admin, NetworkPolicy (final for isolated pods),
baseline, default allow; verdicts name the deciding tier, policy and rule.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from netmend.k8s.model import (
    ACCEPT,
    DENY,
    PASS,
    AdminPolicy,
    Cluster,
    LabelSelector,
    NetworkPolicy,
    Peer,
    Pod,
    Rule,
)
from netmend.k8s.portset import MAX_PORT, MIN_PORT, PortRange, PortSet
from netmend.k8s.tiers import (
    ADMIN_TIER,
    BASELINE_TIER,
    CompiledAdminPolicy,
    TierIndex,
    TierMatch,
    compile_admin_policy,
)

INGRESS, EGRESS = "Ingress", "Egress"
_COMPILE_CACHE_LIMIT = 4096


@dataclass(frozen=True)
class Semantics:
    """Choices Kubernetes leaves to the network plugin.

    Attributes
    ----------
    ipblock_selects_pods : bool
        Whether an ipBlock peer also covers pods whose IP falls in it (as
        Calico and nftables-based plugins do). The API says ipBlocks are
        meant for cluster-external addresses and some analyzers treat them
        so; turn this off to compare with such a tool.
    """

    ipblock_selects_pods: bool = True


DEFAULT_SEMANTICS = Semantics()


@dataclass(frozen=True)
class RuleRef:
    """One rule of one policy: ``default/web ingress[0]``."""

    policy: str
    direction: str
    index: int

    def __str__(self) -> str:
        return f"{self.policy} {self.direction.lower()}[{self.index}]"


TIER_NETWORK_POLICY, TIER_DEFAULT = "NetworkPolicy", "Default"


@dataclass(frozen=True)
class DirectionVerdict:
    """The egress side (at the source) or ingress side (at the destination).

    ``policies`` are the NetworkPolicies isolating the pod for this direction
    and ``allowed_by`` the rules among theirs that admit the connection.
    ``admin`` is the first admin-tier rule that matched (Accept, Deny or
    Pass), ``baseline`` the first baseline rule, when that tier was reached;
    ``exempt`` says why the admin tiers do not apply (own address), and
    ``tiered`` whether any admin policy exists at all.
    """

    direction: str
    pod: str
    isolated: bool
    policies: tuple[str, ...] = ()
    allowed_by: tuple[RuleRef, ...] = ()
    admin: TierMatch | None = None
    baseline: TierMatch | None = None
    exempt: str = ""
    tiered: bool = False

    @property
    def tier(self) -> str:
        """The tier that decided: ``Admin``, ``NetworkPolicy``, ``Baseline`` or ``Default``."""
        if self.admin is not None and self.admin.action != PASS:
            return ADMIN_TIER
        if self.isolated:
            return TIER_NETWORK_POLICY
        if self.baseline is not None and self.baseline.action != PASS:
            return BASELINE_TIER
        return TIER_DEFAULT

    @property
    def allowed(self) -> bool:
        """The deciding tier's answer (the NetworkPolicy tier: admitted by a rule)."""
        tier = self.tier
        if tier == ADMIN_TIER:
            return self.admin.action == ACCEPT
        if tier == TIER_NETWORK_POLICY:
            return bool(self.allowed_by)
        if tier == BASELINE_TIER:
            return self.baseline.action == ACCEPT
        return True

    @property
    def decided_by(self) -> str:
        """The policy and rule that decided, or what the default was."""
        tier = self.tier
        if tier == ADMIN_TIER:
            return str(self.admin)
        if tier == BASELINE_TIER:
            return str(self.baseline)
        if tier == TIER_NETWORK_POLICY:
            if self.allowed_by:
                return ", ".join(str(r) for r in self.allowed_by)
            return "implicit deny of " + ", ".join(self.policies)
        if self.baseline is not None:
            return f"{self.baseline} (to the default: allow)"
        return "default allow"

    def explain(self) -> str:
        """One line saying why this side admits or drops the connection."""
        side = f"{self.direction.lower()} of {self.pod}"
        tier = self.tier
        if tier == ADMIN_TIER:
            verb = "allowed" if self.allowed else "denied"
            return f"{side}: {verb} by admin tier {self.admin}"
        lead = ""
        if self.exempt:
            lead = f"{self.exempt}; "
        elif self.admin is not None:
            lead = f"admin tier passes ({self.admin}); "
        if tier == BASELINE_TIER:
            verb = "allowed" if self.allowed else "denied"
            return f"{side}: {lead}not isolated by a NetworkPolicy; {verb} by baseline tier {self.baseline}"
        if not self.isolated:
            text = f"{side}: {lead}not isolated (no policy selects it for {self.direction})"
            if self.baseline is not None:
                text += f"; baseline tier passes ({self.baseline}): default allow"
            elif self.tiered and not self.exempt:
                text += "; no admin or baseline rule matches: default allow"
            return text
        if self.allowed_by:
            return f"{side}: {lead}allowed by " + ", ".join(str(r) for r in self.allowed_by)
        return f"{side}: {lead}isolated by {', '.join(self.policies)}; no rule admits it"


@dataclass(frozen=True)
class Verdict:
    """Whether one connection is allowed, with both sides' evidence.

    A side is ``None`` when that end is outside the cluster.
    """

    egress: DirectionVerdict | None
    ingress: DirectionVerdict | None

    @property
    def allowed(self) -> bool:
        """Allowed by the source's egress AND the destination's ingress."""
        return all(side.allowed for side in (self.egress, self.ingress) if side is not None)

    @property
    def deciding(self) -> DirectionVerdict | None:
        """The side that drops the connection (egress first), or ``None`` when allowed."""
        for side in (self.egress, self.ingress):
            if side is not None and not side.allowed:
                return side
        return None

    def explain(self) -> str:
        """The sides' explanations, egress first, joined by ``; ``."""
        return "; ".join(s.explain() for s in (self.egress, self.ingress) if s is not None)


class _Block:
    """An ipBlock as integer ranges, for quick membership tests."""

    __slots__ = ("cidr", "excepts", "_net", "_holes")

    def __init__(self, cidr: str, excepts: tuple[str, ...]):
        self.cidr, self.excepts = cidr, excepts
        self._net = ipaddress.ip_network(cidr, strict=False)
        self._holes = tuple(ipaddress.ip_network(e, strict=False) for e in excepts)

    def __contains__(self, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        return (
            ip.version == self._net.version
            and ip in self._net
            and not any(ip in hole for hole in self._holes)
        )


class CompiledRule:
    """A rule resolved against the pod index.

    ``peers_all`` admits every peer; otherwise ``peer_pods`` (indices of pods
    matched by selectors, plus by ipBlocks when they select pods) and
    ``blocks`` (for external addresses) do. ``ports_all`` admits every port;
    otherwise ``numeric`` (protocol, low, high) and ``named`` (protocol, name).
    """

    __slots__ = (
        "ref",
        "peers_all",
        "selector_pods",
        "block_pods",
        "peer_pods",
        "blocks",
        "ports_all",
        "numeric",
        "named",
    )

    def __init__(
        self,
        ref,
        peers_all,
        selector_pods,
        block_pods,
        peer_pods,
        blocks,
        ports_all,
        numeric,
        named,
    ):
        self.ref: RuleRef = ref
        self.peers_all: bool = peers_all
        self.selector_pods: frozenset[int] = selector_pods
        self.block_pods: frozenset[int] = block_pods  # pods inside an ipBlock, when they count
        self.peer_pods: frozenset[int] = peer_pods
        self.blocks: tuple[_Block, ...] = blocks
        self.ports_all: bool = ports_all
        self.numeric: tuple[tuple[str, int, int], ...] = numeric
        self.named: tuple[tuple[str, str], ...] = named

    def admits_peer(self, peer: int) -> bool:
        """Whether pod index ``peer`` is among this rule's peers."""
        return self.peers_all or peer in self.peer_pods

    def admits_address(self, ip) -> bool:
        """Whether an external address is among this rule's peers."""
        return self.peers_all or any(ip in b for b in self.blocks)

    def admits_port(
        self, protocol: str, port: int, named_ports: dict[str, tuple[str, int]]
    ) -> bool:
        """Whether ``(protocol, port)`` is admitted; names resolve in ``named_ports``."""
        if self.ports_all:
            return True
        for proto, lo, hi in self.numeric:
            if proto == protocol and lo <= port <= hi:
                return True
        for proto, name in self.named:
            if named_ports.get(name) == (protocol, port) and proto == protocol:
                return True
        return False

    def named_port_set(self, named_ports: dict[str, tuple[str, int]] | None) -> PortSet:
        """The ports the rule's names resolve to in ``named_ports`` (``None``: unresolvable)."""
        ranges = []
        for proto, name in self.named:
            resolved = (named_ports or {}).get(name)
            if resolved is not None and resolved[0] == proto:
                ranges.append(PortRange(proto, resolved[1], resolved[1]))
        return PortSet.of(ranges)

    def port_set(self, named_ports: dict[str, tuple[str, int]] | None) -> PortSet:
        """The admitted ports, names resolved in ``named_ports`` (``None``: unresolvable)."""
        if self.ports_all:
            return PortSet.all()
        numeric = PortSet.of(PortRange(p, lo, hi) for p, lo, hi in self.numeric)
        return numeric | self.named_port_set(named_ports) if self.named else numeric


@dataclass(frozen=True)
class CompiledPolicy:
    """A policy resolved against the pod index."""

    policy: NetworkPolicy
    selected: frozenset[int]
    ingress: tuple[CompiledRule, ...] | None  # None: not an Ingress policy
    egress: tuple[CompiledRule, ...] | None


class Simulator:
    """Pods, namespaces and services of a cluster, indexed once for fast probing.

    Parameters
    ----------
    cluster : Cluster
        Its policies are the default policy set of :meth:`snapshot`.
    semantics : Semantics
        Plugin-dependent choices.

    Examples
    --------
    >>> from netmend.k8s.model import Pod, NetworkPolicy, LabelSelector
    >>> from netmend.k8s.cluster import build_cluster
    >>> c = build_cluster([Pod(name="a", labels=(("app", "a"),)), Pod(name="b")])
    >>> deny = NetworkPolicy(name="deny-a", pod_selector=LabelSelector((("app", "a"),)),
    ...                      policy_types=("Ingress",))
    >>> snap = Simulator(c).snapshot((deny,))
    >>> snap.allowed(1, 0, "TCP", 80), snap.allowed(0, 1, "TCP", 80)
    (False, True)
    >>> print(snap.verdict(1, 0, "TCP", 80).explain())
    egress of default/b: not isolated (no policy selects it for Egress); ingress of default/a: isolated by default/deny-a; no rule admits it
    """

    def __init__(self, cluster: Cluster, semantics: Semantics = DEFAULT_SEMANTICS):
        self.cluster = cluster
        self.semantics = semantics
        self.pods: tuple[Pod, ...] = cluster.pods
        self.pod_index: dict[str, int] = {p.key: i for i, p in enumerate(self.pods)}
        self._labels = [dict(p.labels) for p in self.pods]
        self._ips = [ipaddress.ip_address(p.ip) if p.ip else None for p in self.pods]
        self.addresses = self._ips
        # hostNetwork pods: never selected by any policy selector.
        self.host_pods: frozenset[int] = frozenset(
            i for i, p in enumerate(self.pods) if p.host_network
        )
        # Container port names are unique within a pod.
        self.named_ports: list[dict[str, tuple[str, int]]] = [
            {cp.name: (cp.protocol, cp.port) for cp in p.ports if cp.name} for p in self.pods
        ]
        ns_labels = {ns.name: dict(ns.labels) for ns in cluster.namespaces}
        self._ns_labels = ns_labels
        self._pods_in_ns: dict[str, list[int]] = {}
        for i, pod in enumerate(self.pods):
            self._pods_in_ns.setdefault(pod.namespace, []).append(i)
        self._selector_cache: dict[tuple[LabelSelector, str | None], frozenset[int]] = {}
        self._ns_cache: dict[LabelSelector, tuple[str, ...]] = {}
        self._compiled: dict[NetworkPolicy, CompiledPolicy] = {}
        self._admin_compiled: dict[AdminPolicy, CompiledAdminPolicy] = {}
        self._tier_cache: dict[tuple[AdminPolicy, ...], TierIndex | None] = {}
        self._default: Snapshot | None = None

    # -- selection -------------------------------------------------------------

    def select_pods(self, selector: LabelSelector, namespace: str | None) -> frozenset[int]:
        """Indices of pods matching ``selector`` in ``namespace`` (``None``: all)."""
        key = (selector, namespace)
        hit = self._selector_cache.get(key)
        if hit is None:
            candidates = (
                range(len(self.pods)) if namespace is None else self._pods_in_ns.get(namespace, ())
            )
            hit = frozenset(i for i in candidates if selector.matches(self._labels[i]))
            self._selector_cache[key] = hit
        return hit

    def select_namespaces(self, selector: LabelSelector) -> tuple[str, ...]:
        """Names of namespaces matching ``selector``."""
        hit = self._ns_cache.get(selector)
        if hit is None:
            hit = tuple(
                n for n, labels in sorted(self._ns_labels.items()) if selector.matches(labels)
            )
            self._ns_cache[selector] = hit
        return hit

    def _selected_peers(self, peer: Peer, namespace: str) -> frozenset[int]:
        """Pods a selector peer (not an ipBlock) of a policy in ``namespace`` matches."""
        pod_selector = peer.pod_selector or LabelSelector()
        if peer.namespace_selector is None:
            return self._policy_selectable(self.select_pods(pod_selector, namespace))
        pods: set[int] = set()
        for ns in self.select_namespaces(peer.namespace_selector):
            pods |= self.select_pods(pod_selector, ns)
        return self._policy_selectable(frozenset(pods))

    def _policy_selectable(self, pods: frozenset[int]) -> frozenset[int]:
        """``pods`` without hostNetwork pods (policy selectors never pick them)."""
        return pods - self.host_pods if self.host_pods else pods

    # -- compilation -----------------------------------------------------------

    def _compile_rule(
        self, policy: NetworkPolicy, direction: str, index: int, rule: Rule
    ) -> CompiledRule:
        peers_all = not rule.peers
        selector_pods: set[int] = set()
        block_pods: set[int] = set()
        blocks = []
        for peer in rule.peers or ():
            if peer.ip_block is None:
                selector_pods |= self._selected_peers(peer, policy.namespace)
                continue
            block = _Block(peer.ip_block.cidr, peer.ip_block.excepts)
            blocks.append(block)
            if self.semantics.ipblock_selects_pods:
                block_pods.update(
                    i for i, ip in enumerate(self._ips) if ip is not None and ip in block
                )
        numeric, named = [], []
        for port in rule.ports or ():
            proto = port.effective_protocol
            if port.port is None:
                numeric.append((proto, MIN_PORT, MAX_PORT))
            elif isinstance(port.port, str):
                named.append((proto, port.port))
            else:
                numeric.append((proto, port.port, port.end_port or port.port))
        return CompiledRule(
            ref=RuleRef(policy.key, direction, index),
            peers_all=peers_all,
            selector_pods=frozenset(selector_pods),
            block_pods=frozenset(block_pods),
            peer_pods=frozenset(selector_pods | block_pods),
            blocks=tuple(blocks),
            ports_all=not rule.ports,
            numeric=tuple(numeric),
            named=tuple(named),
        )

    def compile_policy(self, policy: NetworkPolicy) -> CompiledPolicy:
        """Resolve ``policy`` against the index (cached by value)."""
        hit = self._compiled.get(policy)
        if hit is not None:
            return hit
        types = policy.effective_types
        sides = {}
        for direction in (INGRESS, EGRESS):
            if direction in types:
                sides[direction] = tuple(
                    self._compile_rule(policy, direction, i, r)
                    for i, r in enumerate(policy.rules(direction))
                )
        hit = CompiledPolicy(
            policy=policy,
            selected=self._policy_selectable(self.select_pods(policy.pod_selector, policy.namespace)),
            ingress=sides.get(INGRESS),
            egress=sides.get(EGRESS),
        )
        if len(self._compiled) >= _COMPILE_CACHE_LIMIT:
            self._compiled.clear()
        self._compiled[policy] = hit
        return hit

    def compile_admin_policy(self, policy: AdminPolicy) -> CompiledAdminPolicy:
        """Resolve an admin policy against the index (cached by value)."""
        hit = self._admin_compiled.get(policy)
        if hit is None:
            if len(self._admin_compiled) >= _COMPILE_CACHE_LIMIT:
                self._admin_compiled.clear()
            hit = self._admin_compiled[policy] = compile_admin_policy(self, policy)
        return hit

    def tier_index(self, admin_policies: Iterable[AdminPolicy] | None = None) -> TierIndex | None:
        """The admin and baseline rules per pod (``None`` when there are no admin policies)."""
        key = self.cluster.admin_policies if admin_policies is None else tuple(admin_policies)
        if key not in self._tier_cache:
            if len(self._tier_cache) >= 64:
                self._tier_cache.clear()
            self._tier_cache[key] = (
                TierIndex(len(self.pods), [self.compile_admin_policy(p) for p in key]) if key else None
            )
        return self._tier_cache[key]

    def snapshot(
        self,
        policies: Iterable[NetworkPolicy] | None = None,
        admin_policies: Iterable[AdminPolicy] | None = None,
    ) -> Snapshot:
        """The policy set ``policies`` (default: the cluster's) compiled per pod,
        under ``admin_policies`` (default: the cluster's admin policies)."""
        tiers = self.tier_index(admin_policies)
        if policies is None and admin_policies is None:
            if self._default is None:
                self._default = Snapshot(
                    self, [self.compile_policy(p) for p in self.cluster.policies], tiers
                )
            return self._default
        chosen = self.cluster.policies if policies is None else policies
        return Snapshot(self, [self.compile_policy(p) for p in chosen], tiers)

    def pod(self, key: str) -> int:
        """Index of the pod ``namespace/name``; ``KeyError`` when absent."""
        return self.pod_index[key]


def _gate(rules: list[CompiledRule] | None) -> list[CompiledRule] | None:
    if rules is None or any(r.peers_all and r.ports_all for r in rules):
        return None
    return rules


class Snapshot:
    """One policy set compiled per pod: the allowed-connection oracle.

    ``ingress[i]`` / ``egress[i]`` is ``None`` when pod ``i`` is not isolated
    for that direction, else the rules of every policy isolating it.
    ``tiers`` holds the admin and baseline rules per pod (``None``: no admin
    policy, and the NetworkPolicy answer is the whole answer).
    """

    __slots__ = (
        "sim",
        "compiled",
        "tiers",
        "ingress",
        "egress",
        "_isolating",
        "_ingress_gate",
        "_egress_gate",
    )

    def __init__(self, sim: Simulator, compiled: list[CompiledPolicy], tiers: TierIndex | None = None):
        self.sim = sim
        self.compiled = tuple(compiled)
        self.tiers = tiers
        n = len(sim.pods)
        ingress: list[list[CompiledRule] | None] = [None] * n
        egress: list[list[CompiledRule] | None] = [None] * n
        isolating: dict[tuple[int, str], list[str]] = {}
        for cp in compiled:
            for direction, rules, table in (
                (INGRESS, cp.ingress, ingress),
                (EGRESS, cp.egress, egress),
            ):
                if rules is None:
                    continue
                for i in cp.selected:
                    if table[i] is None:
                        table[i] = []
                    table[i].extend(rules)
                    isolating.setdefault((i, direction), []).append(cp.policy.key)
        self.ingress = ingress
        self.egress = egress
        self._isolating = isolating
        # What allowed() must check: nothing (None) when the pod is not
        # isolated or one of its rules admits everything (``- {}``).
        self._ingress_gate = [_gate(rules) for rules in ingress]
        self._egress_gate = [_gate(rules) for rules in egress]

    # -- one direction through the tiers ------------------------------------------

    def _side_allows(
        self, direction: str, subject: int, peer: int | None, ip, protocol: str, port: int,
        named: dict[str, tuple[str, int]], exempt: bool,
    ) -> bool:
        """Whether ``direction`` of pod ``subject`` admits the peer (pod ``peer``, or
        address ``ip`` when ``peer`` is None), walking admin, NetworkPolicy, baseline."""
        if peer is None:
            def peer_ok(r):
                return r.admits_address(ip)
        else:
            def peer_ok(r):
                return r.admits_peer(peer)
        tiers = self.tiers
        if tiers is not None and not exempt:
            for r in tiers.rules(ADMIN_TIER, direction)[subject]:
                if peer_ok(r) and r.admits_port(protocol, port, named):
                    if r.match.action == PASS:
                        break
                    return r.match.action == ACCEPT
        rules = self.ingress[subject] if direction == INGRESS else self.egress[subject]
        if rules is not None:
            gate = self._ingress_gate[subject] if direction == INGRESS else self._egress_gate[subject]
            if gate is None:
                return True
            return any(peer_ok(r) and r.admits_port(protocol, port, named) for r in gate)
        if tiers is not None and not exempt:
            for r in tiers.rules(BASELINE_TIER, direction)[subject]:
                if peer_ok(r) and r.admits_port(protocol, port, named):
                    return r.match.action != DENY  # Accept, or Pass to the default (allow)
        return True

    def allowed(self, src: int, dst: int, protocol: str, port: int, *, via_service: bool = False) -> bool:
        """Whether pod ``src`` may open ``protocol``/``port`` to pod ``dst``.

        ``via_service``: the connection went to a Service address and was
        translated to ``dst`` (a pod reaching itself that way is subject to
        the admin tiers; reaching its own address directly, it is not).
        """
        named = self.sim.named_ports[dst]
        if self.tiers is not None:
            exempt = src == dst and not via_service
            return self._side_allows(EGRESS, src, dst, None, protocol, port, named, exempt) and (
                self._side_allows(INGRESS, dst, src, None, protocol, port, named, exempt)
            )
        rules = self._egress_gate[src]
        if rules is not None:
            for r in rules:
                if (r.peers_all or dst in r.peer_pods) and r.admits_port(protocol, port, named):
                    break
            else:
                return False
        rules = self._ingress_gate[dst]
        if rules is not None:
            for r in rules:
                if (r.peers_all or src in r.peer_pods) and r.admits_port(protocol, port, named):
                    return True
            return False
        return True

    def allowed_from_address(self, ip, dst: int, protocol: str, port: int) -> bool:
        """Whether an address outside the cluster (``ipaddress`` object) may open
        ``protocol``/``port`` to pod ``dst`` (only the destination's ingress decides)."""
        named = self.sim.named_ports[dst]
        if self.tiers is not None:
            return self._side_allows(INGRESS, dst, None, ip, protocol, port, named, False)
        rules = self._ingress_gate[dst]
        if rules is None:
            return True
        return any(r.admits_address(ip) and r.admits_port(protocol, port, named) for r in rules)

    def isolating(self, pod: int, direction: str) -> tuple[str, ...]:
        """Keys of the policies isolating pod ``pod`` for ``direction``, sorted."""
        return tuple(sorted(self._isolating.get((pod, direction), ())))

    def _side(
        self, pod: int, direction: str, peer_ok, protocol: str, port: int,
        named: dict[str, tuple[str, int]], exempt: bool = False,
    ) -> DirectionVerdict:
        rules = self.ingress[pod] if direction == INGRESS else self.egress[pod]
        admin = baseline = None
        tiers = self.tiers
        if tiers is not None and not exempt:
            for r in tiers.rules(ADMIN_TIER, direction)[pod]:
                if peer_ok(r) and r.admits_port(protocol, port, named):
                    admin = r.match
                    break
            if rules is None and (admin is None or admin.action == PASS):
                for r in tiers.rules(BASELINE_TIER, direction)[pod]:
                    if peer_ok(r) and r.admits_port(protocol, port, named):
                        baseline = r.match
                        break
        return DirectionVerdict(
            direction=direction,
            pod=self.sim.pods[pod].key,
            isolated=rules is not None,
            policies=self.isolating(pod, direction),
            allowed_by=tuple(
                r.ref for r in rules or () if peer_ok(r) and r.admits_port(protocol, port, named)
            ),
            admin=admin,
            baseline=baseline,
            exempt="own address: not subject to admin policies" if exempt and tiers is not None else "",
            tiered=tiers is not None,
        )

    def verdict(self, src: int, dst: int, protocol: str, port: int, *, via_service: bool = False) -> Verdict:
        """Like :meth:`allowed`, with the tiers, policies and rules behind the answer."""
        named = self.sim.named_ports[dst]
        exempt = src == dst and not via_service
        return Verdict(
            egress=self._side(src, EGRESS, lambda r: r.admits_peer(dst), protocol, port, named, exempt),
            ingress=self._side(dst, INGRESS, lambda r: r.admits_peer(src), protocol, port, named, exempt),
        )

    def verdict_external(
        self, pod: int, address: str, direction: str, protocol: str, port: int
    ) -> Verdict:
        """A connection between pod ``pod`` and an address outside the cluster.

        ``direction`` is ``Egress`` (pod to address) or ``Ingress`` (address to pod).
        """
        ip = ipaddress.ip_address(address)
        if direction == EGRESS:
            # A name cannot be resolved on an address outside the cluster.
            side = self._side(pod, EGRESS, lambda r: r.admits_address(ip), protocol, port, {})
            return Verdict(egress=side, ingress=None)
        named = self.sim.named_ports[pod]
        side = self._side(pod, INGRESS, lambda r: r.admits_address(ip), protocol, port, named)
        return Verdict(egress=None, ingress=side)

    def _side_ports(
        self, direction: str, subject: int, peer_ok, named: dict[str, tuple[str, int]] | None, exempt: bool
    ) -> PortSet:
        """Every (protocol, port) ``direction`` of pod ``subject`` admits for one peer."""
        rules = self.ingress[subject] if direction == INGRESS else self.egress[subject]
        tiers = self.tiers
        if tiers is None or exempt:
            if rules is None:
                return PortSet.all()
            side = PortSet()
            for r in rules:
                if peer_ok(r):
                    side = side | r.port_set(named)
            return side
        allowed, remaining, passed = PortSet(), PortSet.all(), PortSet()
        for r in tiers.rules(ADMIN_TIER, direction)[subject]:
            if not remaining:
                break
            if not peer_ok(r):
                continue
            hit = remaining & r.port_set(named)
            if not hit:
                continue
            remaining = remaining - hit
            if r.match.action == ACCEPT:
                allowed = allowed | hit
            elif r.match.action == PASS:
                passed = passed | hit
        undecided = remaining | passed
        if rules is not None:
            side = PortSet()
            for r in rules:
                if peer_ok(r):
                    side = side | r.port_set(named)
            return allowed | (undecided & side)
        for r in tiers.rules(BASELINE_TIER, direction)[subject]:
            if not undecided:
                break
            if not peer_ok(r):
                continue
            hit = undecided & r.port_set(named)
            if not hit:
                continue
            undecided = undecided - hit
            if r.match.action != DENY:
                allowed = allowed | hit
        return allowed | undecided

    def connections(self, src: int, dst: int, *, via_service: bool = False) -> PortSet:
        """Every (protocol, port) pod ``src`` may open to pod ``dst``."""
        named = self.sim.named_ports[dst]
        exempt = src == dst and not via_service
        return self._side_ports(EGRESS, src, lambda r: r.admits_peer(dst), named, exempt) & (
            self._side_ports(INGRESS, dst, lambda r: r.admits_peer(src), named, exempt)
        )

    def pod_classes(self) -> list[list[int]]:
        """Pods this policy set cannot tell apart, grouped (in index order).

        Selectors see a pod's namespace and labels (and whether it is on the
        host network), named ports resolve on its container ports, and
        ipBlocks and admin ``networks`` see its IP only through which blocks
        hold it; pods equal in all of these get equal answers.
        """
        block_rules = [
            r
            for cp in self.compiled
            for rs in (cp.ingress, cp.egress)
            for r in rs or ()
            if r.block_pods
        ]
        network_rules = [
            r
            for cp in (self.tiers.compiled if self.tiers is not None else ())
            for r in (*cp.ingress, *cp.egress)
            if r.networks
        ]
        groups: dict[tuple, list[int]] = {}
        for i, pod in enumerate(self.sim.pods):
            key = (
                pod.namespace,
                pod.labels,
                pod.ports,
                pod.host_network,
                tuple(i in r.block_pods for r in block_rules),
                tuple(i in r.peer_pods for r in network_rules),
            )
            groups.setdefault(key, []).append(i)
        return list(groups.values())

    def connectivity(self) -> dict[tuple[int, int], PortSet]:
        """Allowed connections of every ordered pair of distinct pods; empty sets left out.

        Computed once per pair of :meth:`pod_classes`, so a thousand
        replicas of a hundred workloads cost what a hundred pods cost.
        """
        classes = self.pod_classes()
        out: dict[tuple[int, int], PortSet] = {}
        for src_class in classes:
            for dst_class in classes:
                if src_class[0] == dst_class[0]:
                    if len(src_class) == 1:
                        continue  # a pod and itself only: not a pair
                    # A representative must not stand for pairs with itself.
                    conns = self.connections(src_class[0], src_class[1])
                else:
                    conns = self.connections(src_class[0], dst_class[0])
                if not conns:
                    continue
                for i in src_class:
                    for j in dst_class:
                        if i != j:
                            out[(i, j)] = conns
        return out

    def connections_external(self, pod: int, address: str, direction: str) -> PortSet:
        """Every (protocol, port) allowed between pod ``pod`` and an outside address."""
        ip = ipaddress.ip_address(address)
        named = None if direction == EGRESS else self.sim.named_ports[pod]
        return self._side_ports(direction, pod, lambda r: r.admits_address(ip), named, False)
