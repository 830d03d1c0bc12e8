"""The repair planner: the lightest verified edit set that reaches an intent.

1. Probe the current policies; every probe whose value differs from the
   intent is a *change* to make.
2. For each change, ask the engine's snapshot which side drops (or admits)
   the connection and through which rules, and derive candidate edits for
   that side only (plus grouped variants: one rule for several peers).
3. Changes whose candidates touch common policies form a component; each
   component is searched on its own: edit sets by increasing size, pruned by
   weight bound and by coverage (every change needs a candidate of its own),
   each survivor re-simulated. A set is accepted only if its changes reach
   the intent and no other probe moves.
4. The union of the component plans is re-simulated on the whole universe;
   if that fails, one joint search runs over every candidate.
5. Edits that can be dropped without losing the intent are dropped, so the
   plan is irredundant, and it is verified once more before it is returned.

The result is exact or there is no plan: :class:`NoPlan` says why.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from netmend.k8s.errors import K8sError
from netmend.k8s.manifest import parse_policy
from netmend.k8s.model import Cluster, NetworkPolicy, Peer
from netmend.k8s.policydiff import external_addresses
from netmend.k8s.portset import PortSet
from netmend.k8s.probe import PROBE_PROTOCOL, Matrix, Mismatch, Prober
from netmend.k8s.semantics import EGRESS, INGRESS, Snapshot, Verdict
from netmend.repair.edits import (
    AddPeer,
    AddPolicyType,
    AddRule,
    AllowAll,
    AllowDNS,
    Edit,
    NarrowRule,
    PeerSpec,
    PortSpec,
    RemovePeer,
    RemovePolicyType,
    RemoveRule,
    SetPodSelector,
    SetPort,
    SetProtocol,
    SetValue,
    apply_edits,
    apply_ops,
    patch_ops,
    plan_weight,
    set_value,
)
from netmend.repair.errors import EmissionError, NoPlan
from netmend.repair.intent import Intent
from netmend.repair.resolve import (
    dns_endpoints,
    dns_peer,
    peer_matches,
    source_pod,
    target_endpoints,
    workload_peer,
)
from netmend.repair.vocabulary import Proposer, selector_matches

# Where a probe starts: a pod index, or the address an outside client arrives with.
Origin = int | ipaddress.IPv4Address | ipaddress.IPv6Address

DEFAULT_MAX_EDITS = 6
DEFAULT_BUDGET = 1_000  # re-simulations per plan
MAX_VISITED = 200_000  # candidate sets enumerated per plan
MAX_NODES = 300_000  # partial sets visited per search
PLAIN_BUDGET = 150  # re-simulations of the heavier-but-plain attempt before holding collateral
KEEP_SLACK = 6  # weight the rules holding collateral may add
MAX_KEPT = 12  # collateral probes the planner tries to hold with extra rules
MAX_CHAINED = 3  # near-safe edit sets a two-step repair starts from
MAX_CHAIN_DEPTH = 1  # a repair of a repair's side effects, not of its own
MAX_STEPS = 3  # partial plans a plan continues on the objects they leave
RANK_SLACK = 1  # verified sets up to this much heavier than the lightest are compared with it
RANK_SIMS = 10  # re-simulations spent looking for them
RANK_MAX = 8  # verified sets compared at most
# Edits that append to a policy rather than repair what it says.
ADDITIVE = (AddRule, AddPeer, AllowAll, AllowDNS, NarrowRule)


class _Enough(Exception):
    """The ranking has seen enough verified sets."""


@dataclass(frozen=True)
class PolicyPatch:
    """The patch of one policy: its ops and the object before and after."""

    namespace: str
    name: str
    ops: tuple[dict, ...]
    before: dict
    after: dict


@dataclass(frozen=True)
class Plan:
    """A verified repair: edits, per-policy patches and the matrices around them."""

    edits: tuple[Edit, ...]
    patches: tuple[PolicyPatch, ...]
    before: Matrix
    after: Matrix
    changes: tuple[Mismatch, ...]
    dns: bool
    # Changes the plan leaves as they are (a partial plan), with the reason.
    unresolved: tuple[Mismatch, ...] = ()
    reason: str = ""

    @property
    def weight(self) -> int:
        """Total edit weight."""
        return plan_weight(self.edits)

    @property
    def is_empty(self) -> bool:
        """True when the intent already holds."""
        return not self.edits


def edit_sort_key(edit: Edit) -> tuple:
    """A total, deterministic order over edits of every kind."""
    return (edit.key, edit.direction, edit.kind, repr(edit))


@dataclass(frozen=True)
class _Candidate:
    edit: Edit
    covers: frozenset[int]  # indices of the requirements (change, side) it addresses

    @property
    def mask(self) -> int:
        return sum(1 << r for r in self.covers)


class _Search:
    """Shared state of one planning run."""

    def __init__(
        self,
        cluster: Cluster,
        objects: Mapping[str, dict],
        intent: Intent,
        dns: bool,
        editable: frozenset[str] | None = None,
        prober: Prober | None = None,
        externals: Mapping[str, str] | None = None,
        networks: Sequence[str] = (),
        effort: int = 1,
        port_ranges: Sequence[tuple[int, int]] = (),
        ranges: Sequence[str] = (),
    ):
        self.effort = effort
        self.port_ranges = tuple(port_ranges)
        # CIDRs of clients the model stands for by a few addresses of each class: a peer
        # admitting one of those names the CIDR, never the one address
        self.ranges = tuple(ipaddress.ip_network(r, strict=False) for r in ranges)
        self._samples: tuple[str, ...] | None = None
        self._after_objs: dict[frozenset, dict] = {}
        self._scores: dict[frozenset, tuple[int, int]] = {}
        self._dead_cache: dict[NetworkPolicy, int] = {}
        self.editable = editable
        self.externals = dict(externals or {})
        self.networks = tuple(networks)
        self.objects = dict(objects)
        self.policies: dict[str, NetworkPolicy] = {}
        for key, obj in sorted(self.objects.items()):
            pol = parse_policy(obj, source=key)
            if pol.key != key:
                raise ValueError(f"policy object {key!r} names itself {pol.key!r}")
            self.policies[key] = pol
        self.cluster = cluster.with_policies(tuple(self.policies.values()))
        self.intent = intent
        self.prober = prober or Prober(self.cluster, intent.desired.probes(), dns=dns, externals=self.externals)
        self.sim = self.prober.sim
        self.dns = dns
        self.snap: Snapshot = self.sim.snapshot(tuple(self.policies.values()))
        self.current = self.prober.run(self.policies.values())
        self.changes = intent.changes(self.current)
        self._wanted_false = {(c.source, c.target) for c in self.changes if not c.expected}
        self._denied: set[tuple[str, str]] = set()
        for c in self.changes:
            if not c.expected and c.source not in self.externals:
                pod = self.sim.pods[source_pod(self.sim, c.source)]
                self._denied.add((pod.namespace, pod.workload))
        self.budget = self.full_budget
        self.visited = 0
        self.collateral: tuple[tuple[str, str, bool], ...] = ()
        self._now = {(src, t): v for src, cells in self.current.rows for t, v in cells}
        self._cache: dict[frozenset[Edit], Matrix] = {}
        self._sub_cache: dict[frozenset[Edit], Matrix] = {}
        self._parsed: dict[frozenset[Edit], NetworkPolicy] = {}
        self._subs: dict[frozenset[tuple[str, tuple]], Prober | None] = {}
        self._rows: list | None = None
        self._landings: dict[tuple[str, str], list] = {}
        self._spares: dict[tuple[str, str], bool] = {}
        # edit sets that reach their changes but move other probes, fewest moved first
        self._near: list[tuple[int, tuple[Edit, ...], tuple[tuple[str, str, bool], ...]]] = []
        self.chain_depth = 0

    @property
    def full_budget(self) -> int:
        """Re-simulations one search may spend."""
        return DEFAULT_BUDGET * self.effort

    # -- simulation ------------------------------------------------------------

    def _policies_after(self, edits: frozenset[Edit]) -> list[NetworkPolicy]:
        policies = dict(self.policies)
        by_policy: dict[str, list[Edit]] = {}
        for edit in edits:
            by_policy.setdefault(edit.key, []).append(edit)
        for pkey, group in by_policy.items():
            # one policy's edits recur across many candidate sets: parse once
            group_key = frozenset(group)
            parsed = self._parsed.get(group_key)
            if parsed is None:
                try:
                    parsed = parse_policy(apply_edits(self.objects[pkey], group), source=pkey)
                except K8sError as exc:  # an edit set the API server would refuse
                    raise EmissionError(f"{pkey}: {exc}") from None
                self._parsed[group_key] = parsed
            policies[pkey] = parsed
        return list(policies.values())

    def _spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise NoPlan(f"search budget of {self.full_budget} re-simulations exhausted")

    def run(self, edits: Iterable[Edit]) -> Matrix:
        """The whole universe under ``edits``."""
        key = frozenset(edits)
        hit = self._cache.get(key)
        if hit is None:
            self._spend()
            hit = self._cache[key] = self.prober.run(self._policies_after(key))
        return hit

    def _affected(self, pods: frozenset[int]) -> Prober | None:
        """A prober over the only probes edits selecting ``pods`` (before or after)
        can move: from one of them (egress, DNS) or to one (ingress)."""
        if pods in self._subs:
            return self._subs[pods]
        if self._rows is None:
            self._rows = []
            resolved: dict[tuple[str, str], frozenset[int]] = {}
            for source, targets in self.intent.desired.probes():
                if source in self.externals:
                    cells = [(t, frozenset(d for d, _ in eps)) for t, _ip, eps in self.prober.outside(source)]
                    self._rows.append((source, -1, cells))
                    continue
                src = source_pod(self.sim, source)
                namespace = self.sim.pods[src].namespace
                cells = []
                for t in targets:
                    if (t, namespace) not in resolved:
                        resolved[(t, namespace)] = frozenset(d for d, _ in target_endpoints(self.sim, t, namespace))
                    cells.append((t, resolved[(t, namespace)]))
                self._rows.append((source, src, cells))
        probes = []
        for source, src, cells in self._rows:
            chosen = [t for t, endpoints in cells if src in pods or endpoints & pods]
            if chosen:
                probes.append((source, tuple(chosen)))
        sub = Prober(self.cluster, probes, dns=self.dns, externals=self.externals) if probes else None
        self._subs[pods] = sub
        return sub

    def _touched_pods(self, edits: frozenset[Edit], after: list[NetworkPolicy]) -> frozenset[int]:
        """Pods selected, before or after ``edits``, by a policy they change."""
        keys = {e.key for e in edits}
        pods: set[int] = set()
        for pol in (*(self.policies[k] for k in keys), *(p for p in after if p.key in keys)):
            pods |= self.sim.select_pods(pol.pod_selector, pol.namespace)
        return frozenset(pods)

    def reaches(self, edits: Iterable[Edit], targets: frozenset[int]) -> bool:
        """Changes in ``targets`` reach the intent and every other probe stays."""
        return not self.misses(edits, targets)

    def misses(self, edits: Iterable[Edit], targets: frozenset[int]) -> tuple[tuple[str, str, bool], ...]:
        """``(source, target, value)`` of every probe ``edits`` leave wrong."""
        key = frozenset(edits)
        result = self._sub_cache.get(key)
        if result is None:
            after = self._policies_after(key)
            sub = self._affected(self._touched_pods(key, after))
            self._spend()
            result = self._sub_cache[key] = sub.run(after) if sub else Matrix()
        wanted = {(c.source, c.target): c.expected for i, c in enumerate(self.changes) if i in targets}
        out, seen = [], set()
        for source, cells in result.rows:
            for target, value in cells:
                seen.add((source, target))
                if value != wanted.get((source, target), self._now[(source, target)]):
                    out.append((source, target, value))
        for probe, want in wanted.items():
            if probe not in seen and self._now[probe] != want:
                out.append((*probe, self._now[probe]))
        return tuple(out)

    # -- where a probe goes ------------------------------------------------------

    def _landing(self, source: str, target: str) -> list[tuple[Origin, int, int]]:
        """``(origin, endpoint pod, pod port)`` per endpoint of a probe; the origin is
        the source pod's index, or the address an outside client arrives with."""
        hit = self._landings.get((source, target))
        if hit is None:
            hit = self._landings[(source, target)] = self._land(source, target)
        return hit

    def _land(self, source: str, target: str) -> list[tuple[Origin, int, int]]:
        if source in self.externals:
            for tgt, ip, endpoints in self.prober.outside(source):
                if tgt == target:
                    return [(ip, dst, port) for dst, port in endpoints]
            return []
        src = source_pod(self.sim, source)
        return [(src, dst, port) for dst, port in target_endpoints(self.sim, target, self.sim.pods[src].namespace)]

    def _verdict(self, origin: Origin, dst: int, port: int, protocol: str = PROBE_PROTOCOL) -> Verdict:
        if isinstance(origin, int):
            return self.snap.verdict(origin, dst, protocol, port)
        return self.snap.verdict_external(dst, str(origin), INGRESS, protocol, port)

    @staticmethod
    def _admits(rule, origin: Origin) -> bool:
        return rule.admits_peer(origin) if isinstance(origin, int) else rule.admits_address(origin)

    def _peer_specs(self, origin: Origin, namespace: str) -> list[PeerSpec]:
        """Peers naming ``origin`` in a rule of ``namespace``: the workload's labels,
        or for an address each network of the task text holding it, then itself."""
        if isinstance(origin, int):
            return [workload_peer(self.sim, origin, namespace)]
        out = []
        for text in self.networks:
            net = ipaddress.ip_network(text, strict=False)
            if origin in net and net.prefixlen < net.max_prefixlen:
                holes = self._holes(net, origin)
                if holes:
                    out.append(PeerSpec(cidr=str(net), excepts=holes))
                out.append(PeerSpec(cidr=str(net)))
        holding = [r for r in self.ranges if r.version == origin.version and origin in r]
        if holding:  # the narrowest such CIDR last (where a single address would be)
            narrowest = PeerSpec(cidr=str(max(holding, key=lambda r: r.prefixlen)))
            return [*(o for o in out if o != narrowest), narrowest]
        out.append(PeerSpec(cidr=str(ipaddress.ip_network(origin))))
        return out

    def _holes(self, net, origin) -> tuple[str, ...]:
        """Networks the task names inside ``net`` that leave ``origin`` out and hold an
        outside client some intended probe denies (the widest such per client)."""
        denied = []
        for source, cells in self.intent.desired.rows:
            address = self.externals.get(source)
            if address is not None and not all(v for _, v in cells):
                denied.append(ipaddress.ip_address(address))
        holes = set()
        for ip in denied:
            if ip.version != net.version or ip not in net or ip == origin:
                continue
            inside = [
                n for n in (_network(t) for t in self.networks)
                if n is not None and n.version == net.version and ip in n and origin not in n and n.subnet_of(net) and n != net
            ]
            if inside:
                holes.add(min(inside, key=lambda n: n.prefixlen))
        return tuple(str(h) for h in sorted(holes))

    def _rule_obj(self, pol: NetworkPolicy, direction: str, index: int) -> dict:
        field = "ingress" if direction == INGRESS else "egress"
        return ((self.objects[pol.key].get("spec") or {}).get(field) or [])[index]

    def _ns_labels(self, namespace: str) -> dict[str, str]:
        for ns in self.cluster.namespaces:
            if ns.name == namespace:
                return dict(ns.labels)
        return {}

    # -- candidates ------------------------------------------------------------

    def candidates(self) -> tuple[list[_Candidate], list[str]]:
        """Candidate edits per change, grouped variants, and changes with none."""
        raw: dict[Edit, set[int]] = {}
        orphans = []
        self.reqs: list[tuple[int, str]] = []
        for index, change in enumerate(self.changes):
            for side, found in self._for_change(change):
                req = len(self.reqs)
                self.reqs.append((index, side))
                found = [e for e in found if self._may_edit(e)]
                if not found:
                    orphans.append((index, f"{change.source} -> {change.target} (want {change.expected}; {side})"))
                for edit in found:
                    raw.setdefault(edit, set()).add(req)
        raw = _merge_same_text(raw)
        for edit, covers in self._grouped(raw).items():
            raw.setdefault(edit, set()).update(covers)
        out = [_Candidate(e, frozenset(c)) for e, c in raw.items()]
        out.sort(key=lambda c: (c.edit.weight, edit_sort_key(c.edit)))
        return out, orphans

    def _for_change(self, change: Mismatch) -> list[tuple[str, list[Edit]]]:
        """Requirements of one change: each blocked (or admitting) side and its candidates."""
        landing = self._landing(change.source, change.target)
        if not landing:
            return [("service endpoint", [])]
        if not change.expected:
            out: list[Edit] = []
            for origin, dst, port in landing:
                verdict = self._verdict(origin, dst, port)
                sides = [(verdict.ingress, dst, origin, INGRESS)]
                if verdict.egress is not None:
                    sides.append((verdict.egress, origin, dst, EGRESS))
                for side, pod, peer, direction in sides:
                    if side.isolated:
                        out.extend(self._close(side.allowed_by, pod, peer, port))
                    else:
                        out.extend(self._reisolate(pod, peer, port, direction))
            return [("deny", out)]
        reqs: list[tuple[str, list[Edit]]] = []
        origin, dst, port = landing[0]
        if isinstance(origin, int) and self.dns and not self._dns_ok(origin):
            reqs.append(("dns", self._open_dns(origin)))
        verdict = self._verdict(origin, dst, port)
        if verdict.egress is not None and not verdict.egress.allowed:
            reqs.append(("egress", self._open(origin, dst, port, EGRESS)))
        if not verdict.ingress.allowed:
            reqs.append(("ingress", self._open(origin, dst, port, INGRESS)))
        return reqs

    def _may_edit(self, edit: Edit) -> bool:
        return self.editable is None or edit.namespace in self.editable

    def _reisolate(self, pod: int, peer: Origin, port: int, direction: str) -> list[Edit]:
        """Ways to isolate ``pod`` for ``direction`` again: a policy selecting it lost
        that type, or a policy of its namespace selects no pod or other pods than it
        should; with them, the withdrawals of that policy's rules that would still
        admit ``peer`` on ``port`` once it isolates."""
        target = self.sim.pods[pod]
        labels = dict(target.labels)
        out: list[Edit] = []
        workload = workload_peer(self.sim, pod, target.namespace).pod_labels
        for p in self.policies.values():
            if p.namespace != target.namespace:
                continue
            if p.pod_selector.matches(labels):
                if direction in p.effective_types:
                    continue
                out.append(AddPolicyType(p.namespace, p.name, direction))
            elif direction in p.effective_types and self._spare(p, direction):
                if not self.sim.select_pods(p.pod_selector, p.namespace):
                    out.append(SetPodSelector(p.namespace, p.name, direction, labels=workload))
                spec = self.objects[p.key].get("spec") or {}
                out.extend(Proposer(p.namespace, p.name, direction).match(("podSelector",), spec.get("podSelector"), labels))
            else:
                continue
            isolating = replace(p, policy_types=(direction, *(t for t in p.effective_types if t != direction)))
            compiled = self.sim.compile_policy(isolating)
            rules = (compiled.ingress if direction == INGRESS else compiled.egress) or ()
            named = self.sim.named_ports[pod if direction == INGRESS else peer] if isinstance(peer, int) or direction == INGRESS else {}
            refs = [r.ref for r in rules if self._admits(r, peer) and r.admits_port(PROBE_PROTOCOL, port, named)]
            out.extend(self._close(refs, pod, peer, port, policy=isolating))
        return out

    def _spare(self, pol: NetworkPolicy, direction: str) -> bool:
        """Whether ``pol`` isolates no pod on its own for ``direction`` (it selects
        none, or only pods other policies isolate too): a selector gone astray."""
        key = (pol.key, direction)
        if key not in self._spares:
            self._spares[key] = self._is_spare(pol, direction)
        return self._spares[key]

    def _is_spare(self, pol: NetworkPolicy, direction: str) -> bool:
        others = [p for p in self.policies.values() if p.key != pol.key and p.namespace == pol.namespace and direction in p.effective_types]
        for pod in self.sim.select_pods(pol.pod_selector, pol.namespace):
            labels = dict(self.sim.pods[pod].labels)
            if not any(p.pod_selector.matches(labels) for p in others):
                return False
        return True

    def _dns_ok(self, src: int) -> bool:
        endpoints = dns_endpoints(self.sim)
        return not endpoints or any(self.snap.allowed(src, d, "UDP", p) for d, p in endpoints)

    def _isolating(self, pod: int, direction: str) -> list[NetworkPolicy]:
        pod_obj = self.sim.pods[pod]
        return [
            p
            for p in self.policies.values()
            if p.namespace == pod_obj.namespace
            and direction in p.effective_types
            and p.pod_selector.matches(dict(pod_obj.labels))
        ]

    def _open_dns(self, src: int) -> list[Edit]:
        peer = dns_peer(self.sim)
        out: list[Edit] = []
        for pol in self._isolating(src, EGRESS):
            out.append(AllowDNS(pol.namespace, pol.name, EGRESS, dns_peer=peer))
            out.append(AllowAll(pol.namespace, pol.name, EGRESS))
        for dst, port in dns_endpoints(self.sim)[:1]:
            # a DNS rule of its own that one field keeps from matching
            fixes = SetValue | SetPort | SetProtocol | AddPolicyType | RemovePolicyType
            out.extend(e for e in self._open(src, dst, port, EGRESS, protocol="UDP") if isinstance(e, fixes))
        return out

    def _dormant(self, pod: int, direction: str) -> list[NetworkPolicy]:
        """Policies selecting ``pod`` that lack ``direction`` now but isolate it once an
        edit adds that type back (their rules take effect only then)."""
        pod_obj = self.sim.pods[pod]
        return [
            p
            for p in self.policies.values()
            if p.namespace == pod_obj.namespace
            and direction not in p.effective_types
            and p.pod_selector.matches(dict(pod_obj.labels))
        ]

    def _open(
        self, src: Origin, dst: int, port: int, direction: str, *, protocol: str = PROBE_PROTOCOL, dormant: bool = False
    ) -> list[Edit]:
        """Candidates admitting ``src -> dst:port`` on one side; with ``dormant``, also
        rules for policies that would isolate that side once their type is restored."""
        here, there = (dst, src) if direction == INGRESS else (src, dst)
        named = self.sim.named_ports[dst]
        field = "ingress" if direction == INGRESS else "egress"
        out: list[Edit] = []
        for pol in self._dormant(here, direction):
            peers = self._peer_specs(there, pol.namespace)
            if dormant:
                out.extend(AddRule(pol.namespace, pol.name, direction, peers=(peer,), ports=(PortSpec(port, protocol),)) for peer in peers)
            typed = replace(pol, policy_types=(direction, *pol.effective_types))
            compiled = self.sim.compile_policy(typed)
            rules = (compiled.ingress if direction == INGRESS else compiled.egress) or ()
            if any(self._admits(r, there) and r.admits_port(protocol, port, named) for r in rules):
                out.append(AddPolicyType(pol.namespace, pol.name, direction))
        here_labels = dict(self.sim.pods[here].labels)
        isolating = self._isolating(here, direction)
        if dormant:  # a policy a repair may point back at ``here`` (its selector gone astray)
            for pol in self.policies.values():
                if pol.namespace == self.sim.pods[here].namespace and pol not in isolating and direction in pol.effective_types and self._spare(pol, direction):
                    out.extend(AddRule(pol.namespace, pol.name, direction, peers=(peer,), ports=(PortSpec(port, protocol),)) for peer in self._peer_specs(there, pol.namespace))
        for pol in isolating:
            peers = self._peer_specs(there, pol.namespace)
            out.extend(AddRule(pol.namespace, pol.name, direction, peers=(peer,), ports=(PortSpec(port, protocol),)) for peer in peers)
            # its podSelector gone wide (emptied): back to one of the other workloads it selects
            others = {}
            for i in self.sim.select_pods(pol.pod_selector, pol.namespace):
                key = (self.sim.pods[i].namespace, self.sim.pods[i].workload)
                if key != (self.sim.pods[here].namespace, self.sim.pods[here].workload):
                    others.setdefault(key, i)
            if others and not pol.pod_selector.match_labels and not pol.pod_selector.match_expressions:
                for _key, i in sorted(others.items()):
                    labels = workload_peer(self.sim, i, pol.namespace).pod_labels
                    out.append(SetPodSelector(pol.namespace, pol.name, direction, labels=labels))
            if direction == EGRESS:
                out.append(AllowAll(pol.namespace, pol.name, direction))
            if len(pol.effective_types) > 1 and not pol.rules(direction):
                out.append(RemovePolicyType(pol.namespace, pol.name, direction))
            compiled = self.sim.compile_policy(pol)
            rules = compiled.ingress if direction == INGRESS else compiled.egress
            prop = Proposer(pol.namespace, pol.name, direction)
            parts = [(self._admits(c, there), c.admits_port(protocol, port, named)) for c in rules or ()]
            stuck = not any(peer_ok or port_ok for peer_ok, port_ok in parts)
            for index, (rule, (peer_ok, port_ok)) in enumerate(zip(pol.rules(direction), parts, strict=True)):
                rule_obj = self._rule_obj(pol, direction, index)
                fix_port = (peer_ok and not port_ok) or (stuck and rule.peers)
                fix_peer = (port_ok and not peer_ok and rule.peers) or (stuck and rule.peers)
                if fix_port:
                    out.extend(self._fix_ports(pol, direction, index, rule.ports or (), port, named, protocol))
                    out.extend(prop.open_port((field, index), rule_obj.get("ports") or [], protocol, port, named, self.port_ranges))
                if fix_peer:
                    out.extend(AddPeer(pol.namespace, pol.name, direction, rule=index, peers=(peer,)) for peer in peers)
                    out.extend(self._fix_peers(pol, direction, index, rule_obj, there))
        # a policy whose rule would admit, had its podSelector not lost ``here``
        for pol in self.policies.values():
            if pol.namespace != self.sim.pods[here].namespace or direction not in pol.effective_types or pol in isolating:
                continue
            if not self._spare(pol, direction):
                continue
            compiled = self.sim.compile_policy(pol)
            rules = (compiled.ingress if direction == INGRESS else compiled.egress) or ()
            if any(not r.peers_all and self._admits(r, there) and r.admits_port(protocol, port, named) for r in rules):
                spec = self.objects[pol.key].get("spec") or {}
                out.extend(Proposer(pol.namespace, pol.name, direction).match(("podSelector",), spec.get("podSelector"), here_labels))
        return out

    def _fix_peers(self, pol: NetworkPolicy, direction: str, index: int, rule_obj: dict, there: Origin) -> list[Edit]:
        """Single-field edits of a rule's peers after which one of them admits ``there``."""
        field, peers_field = ("ingress", "from") if direction == INGRESS else ("egress", "to")
        prop = Proposer(pol.namespace, pol.name, direction)
        peers = rule_obj.get(peers_field) or []
        out: list[Edit] = []
        for k, peer in enumerate(peers):
            path = (field, index, peers_field, k)
            if "ipBlock" in peer:
                if not isinstance(there, int):
                    out.extend(prop.block(path, peer["ipBlock"], there, self.networks, admit=True))
                continue
            if not isinstance(there, int):
                continue
            pod = self.sim.pods[there]
            pod_labels, ns_labels = dict(pod.labels), self._ns_labels(pod.namespace)
            ns_sel, pod_sel = peer.get("namespaceSelector"), peer.get("podSelector")
            if ns_sel is None:
                if pod.namespace == pol.namespace:
                    out.extend(prop.match((*path, "podSelector"), pod_sel, pod_labels))
                elif selector_matches(pod_sel, pod_labels):
                    # a peer that lost its namespaceSelector looks in the policy's namespace only
                    for key, value in sorted(ns_labels.items()):
                        out.append(prop.edit((*path, "namespaceSelector"), {"matchLabels": {key: value}}, 2, f"in namespaces {key}={value}"))
                continue
            ns_ok = selector_matches(ns_sel, ns_labels)
            pod_ok = pod_sel is None or selector_matches(pod_sel, pod_labels)
            if not ns_ok:
                out.extend(prop.match((*path, "namespaceSelector"), ns_sel, ns_labels))
            if not pod_ok:
                out.extend(prop.match((*path, "podSelector"), pod_sel, pod_labels))
            if pod_sel is not None and ns_ok != pod_ok:
                split = [*peers[:k], {"namespaceSelector": ns_sel}, {"podSelector": pod_sel}, *peers[k + 1 :]]
                out.append(prop.edit((field, index, peers_field), split, 2, f"split {peers_field}[{k}] into two peers (OR)"))
        return out

    @staticmethod
    def _fix_ports(pol, direction, index, ports, port, named, protocol=PROBE_PROTOCOL) -> list[Edit]:
        out: list[Edit] = []
        for entry, pp in enumerate(ports):
            if pp.end_port is not None:
                continue
            value_ok = pp.port == port or (isinstance(pp.port, str) and named.get(pp.port, (None, None))[1] == port)
            if not value_ok and not isinstance(pp.port, str):
                out.append(SetPort(pol.namespace, pol.name, direction, rule=index, entry=entry, port=port))
            if pp.effective_protocol != protocol:
                out.append(SetProtocol(pol.namespace, pol.name, direction, rule=index, entry=entry, protocol=protocol))
        return out

    def _close(self, refs, pod: int, peer: Origin, port: int, policy: NetworkPolicy | None = None) -> list[Edit]:
        """Candidates withdrawing the rules ``refs`` (of ``pod``'s side) from ``peer``.

        ``policy`` stands in for its stored self (a policy about to get a type back).
        """
        out: list[Edit] = []
        for ref in refs:
            pol = policy if policy is not None and policy.key == ref.policy else self.policies[ref.policy]
            rule = pol.rules(ref.direction)[ref.index]
            rule_obj = self._rule_obj(pol, ref.direction, ref.index)
            field, peers_field = ("ingress", "from") if ref.direction == INGRESS else ("egress", "to")
            prop = Proposer(pol.namespace, pol.name, ref.direction)
            out.append(RemoveRule(pol.namespace, pol.name, ref.direction, rule=ref.index))
            if ref.direction == EGRESS and not rule.peers and not rule.ports and isinstance(peer, int):
                out.append(self._narrow(pol, ref.index, peer))
            out.extend(prop.close_port((field, ref.index), rule_obj.get("ports") or [], PROBE_PROTOCOL, port, self.port_ranges))
            peers = rule.peers or ()
            if not peers:
                for wide in (True, False):
                    restrict = self._restrict_peers(pol, ref.direction, ref.index, peer, wide)
                    if restrict is not None and restrict not in out:
                        out.append(restrict)
            objs = rule_obj.get(peers_field) or []
            for k, peer_spec in enumerate(peers):
                if not peer_matches(self.sim, peer_spec, pol.namespace, peer) if isinstance(peer, int) else not _block_holds(peer_spec, peer):
                    continue
                if len(peers) > 1:
                    out.append(RemovePeer(pol.namespace, pol.name, ref.direction, rule=ref.index, peer=k))
                path = (field, ref.index, peers_field, k)
                obj = objs[k]
                if "ipBlock" in obj:
                    if not isinstance(peer, int):
                        out.extend(prop.block(path, obj["ipBlock"], peer, self.networks, admit=False))
                    continue
                if not isinstance(peer, int):
                    continue
                denied = self.sim.pods[peer]
                keep = [self.sim.pods[i] for i in self._kept_pods(pol, peer_spec) if (self.sim.pods[i].namespace, self.sim.pods[i].workload) != (denied.namespace, denied.workload)]
                out.extend(prop.unmatch((*path, "podSelector"), obj.get("podSelector"), dict(denied.labels), [dict(p.labels) for p in keep]))
                if obj.get("namespaceSelector") is not None:
                    kept_ns = [self._ns_labels(p.namespace) for p in keep]
                    out.extend(prop.unmatch((*path, "namespaceSelector"), obj["namespaceSelector"], self._ns_labels(denied.namespace), kept_ns))
                for other in (k - 1, k + 1):
                    if 0 <= other < len(objs) and _joinable(obj, objs[other]):
                        lo, hi = sorted((k, other))
                        joined = [*objs[:lo], {**objs[lo], **objs[hi]}, *objs[hi + 1 :]]
                        out.append(prop.edit((field, ref.index, peers_field), joined, 2, f"join {peers_field}[{lo}] and [{hi}] (AND)"))
        return out

    def _kept_pods(self, pol: NetworkPolicy, peer_spec) -> list[int]:
        """Pods a peer matches now that no change asks to deny (what a narrower peer keeps)."""
        if peer_spec.ip_block is not None:
            return []
        return sorted(
            i for i in range(len(self.sim.pods))
            if peer_matches(self.sim, peer_spec, pol.namespace, i) and (self.sim.pods[i].namespace, self.sim.pods[i].workload) not in self._denied
        )

    def _restrict_peers(self, pol: NetworkPolicy, direction: str, index: int, denied: Origin, wide: bool = False) -> Edit | None:
        """A rule admitting every peer narrowed to the peers its selected pods reach
        (or are reached by) now, in probes that stay, ``denied`` left out; outside
        clients by their own address, or (``wide``) by the widest network the task
        names for them."""
        selected = self.sim.select_pods(pol.pod_selector, pol.namespace)
        field, peers_field = ("ingress", "from") if direction == INGRESS else ("egress", "to")
        kept: dict[str, dict] = {}
        for source, cells in self.current.rows:
            for target, value in cells:
                if not value or (source, target) in self._wanted_false:
                    continue
                for origin, dst, _port in self._landing(source, target)[:1]:
                    far = origin if direction == INGRESS else dst
                    near = dst if direction == INGRESS else origin
                    if near not in selected or far == denied:
                        continue
                    specs = self._peer_specs(far, pol.namespace)
                    for spec in specs if isinstance(far, int) else specs[:1] if wide else specs[-1:]:
                        kept[str(spec)] = spec.to_dict()
        if not kept:
            return None
        value = [kept[k] for k in sorted(kept)]
        return set_value(pol.namespace, pol.name, direction, (field, index, peers_field), value, 3, f"admit only {', '.join(sorted(kept))}")

    def _narrow(self, pol: NetworkPolicy, index: int, denied: int) -> NarrowRule:
        """Allow-all egress rule ``index`` narrowed to what its pods reach now, minus ``denied``."""
        pods = self.sim.pods
        selected = self.sim.select_pods(pol.pod_selector, pol.namespace)
        denied_workload = (pods[denied].namespace, pods[denied].workload)
        keeps = set()
        for source, cells in self.current.rows:
            if source in self.externals:
                continue
            src = source_pod(self.sim, source)
            if src not in selected:
                continue
            for target, value in cells:
                endpoints = target_endpoints(self.sim, target, pods[src].namespace) if value else ()
                if endpoints and (pods[endpoints[0][0]].namespace, pods[endpoints[0][0]].workload) != denied_workload:
                    keeps.add((workload_peer(self.sim, endpoints[0][0], pol.namespace), PortSpec(endpoints[0][1])))
        dns = dns_peer(self.sim) if self.dns and dns_endpoints(self.sim) else None
        return NarrowRule(pol.namespace, pol.name, EGRESS, rule=index, keeps=tuple(sorted(keeps, key=str)), dns_peer=dns)

    @staticmethod
    def _grouped(raw: Mapping[Edit, set[int]]) -> dict[Edit, set[int]]:
        """One rule (or one peer addition) serving several changes at once."""
        groups: dict[tuple, list[Edit]] = {}
        for edit in raw:
            if isinstance(edit, AddRule):
                key = (AddRule, edit.key, edit.direction, edit.ports if edit.direction == INGRESS else ())
                groups.setdefault(key, []).append(edit)
            elif isinstance(edit, AddPeer):
                groups.setdefault((AddPeer, edit.key, edit.direction, edit.rule), []).append(edit)
        out: dict[Edit, set[int]] = {}
        for members in groups.values():
            if len(members) < 2:
                continue
            first = members[0]
            peers = tuple(sorted({p for m in members for p in m.peers}))
            covers = set().union(*(raw[m] for m in members))
            if isinstance(first, AddRule):
                ports = tuple(sorted({p for m in members for p in m.ports}, key=lambda p: (str(p.port), p.protocol)))
                edit: Edit = AddRule(first.namespace, first.policy, first.direction, peers=peers, ports=ports)
            else:
                edit = AddPeer(first.namespace, first.policy, first.direction, rule=first.rule, peers=peers)
            out[edit] = covers
        return out

    # -- search ----------------------------------------------------------------

    def search(self, cands: Sequence[_Candidate], targets: frozenset[int], max_edits: int) -> tuple[Edit, ...] | None:
        """The lightest candidate set reaching ``targets``.

        Sets are tried by increasing total weight, then by size, then in
        candidate order, so the first verified set is the answer. When sets
        that would repair ``targets`` fail only because they move other
        probes (collateral), candidates keeping those probes as they are join
        the pool and the search starts over (re-simulations are cached).
        """
        try:
            return self._search_holding(cands, targets, max_edits)
        except NoPlan:
            chained = self._chain(targets, max_edits)
            if chained is None:
                raise
            return chained

    def _search_holding(self, cands: Sequence[_Candidate], targets: frozenset[int], max_edits: int) -> tuple[Edit, ...] | None:
        pool = [c for c in cands if any(self.reqs[r][0] in targets for r in c.covers)]
        keeping = 0  # requirements "hold this collateral probe", added round by round
        limit = None
        for _ in range(3):
            try:
                best, collateral = self._search(pool, targets, max_edits, stop_at_collateral=True, extra=keeping, limit=limit)
            except NoPlan:
                if not keeping:
                    raise
                break  # holding those probes is too costly: search the widened pool plainly
            if best is not None or (not collateral and not keeping):
                return best
            if not collateral or len(collateral) > MAX_KEPT:
                self.collateral = collateral
                break  # nothing or too much to hold: search the widened pool plainly
            if not keeping:
                # a somewhat heavier set may avoid the collateral altogether (a new
                # rule instead of a dropped policy type): try those before holding
                saved, self.budget = self.budget, min(self.budget, PLAIN_BUDGET)
                try:
                    plain = self._search(pool, targets, max_edits, stop_at_collateral=False, limit=self.collateral_weight + KEEP_SLACK)[0]
                except NoPlan:
                    plain = None
                finally:
                    self.budget = saved - (min(saved, PLAIN_BUDGET) - max(self.budget, 0))
                if plain is not None:
                    return plain
                # a second fault the first repair uncovers: repair it on the policies that repair leaves
                chained = self._chain(targets, max_edits)
                if chained is not None:
                    return chained
            covers: dict[Edit, set[int]] = {c.edit: set(c.covers) for c in pool}
            fresh: dict[Edit, set[int]] = {}
            for probe in collateral:
                found = [e for e in dict.fromkeys(self._keep([probe])) if self._may_edit(e)]
                if not found:
                    continue
                req = len(self.reqs)
                self.reqs.append((-1, f"keep {probe[0]} -> {probe[1]}"))
                keeping |= 1 << req
                for edit in found:
                    fresh.setdefault(edit, set()).add(req)
            if not fresh:
                # the lightest repairs move probes no edit can hold in place;
                # only a heavier set that avoids them can still do
                self.collateral = collateral
                break
            for edit, cover in self._grouped(fresh).items():  # one rule keeping several
                fresh.setdefault(edit, set()).update(cover)
            for edit, cover in fresh.items():
                covers.setdefault(edit, set()).update(cover)
            limit = self.collateral_weight + KEEP_SLACK  # the near-safe repair plus rules holding its collateral
            pool = sorted((_Candidate(e, frozenset(c)) for e, c in covers.items()), key=lambda c: (c.edit.weight, edit_sort_key(c.edit)))
        found = self._search(pool, targets, max_edits, stop_at_collateral=False)[0]
        return found if found is not None else self._chain(targets, max_edits)

    def _note_near(self, edits: tuple[Edit, ...], missed: tuple[tuple[str, str, bool], ...]) -> None:
        entry = (len(missed), edits, missed)
        if any(e[1] == edits for e in self._near):
            return
        self._near.append(entry)
        self._near.sort(key=lambda e: (e[0], plan_weight(e[1]), [edit_sort_key(x) for x in e[1]]))
        del self._near[MAX_CHAINED:]

    def _chain(self, targets: frozenset[int], max_edits: int) -> tuple[Edit, ...] | None:
        """A repair in two steps: an edit set that reaches ``targets`` but moves other
        probes, then a repair of those probes planned on the policies it leaves.

        A second fault a first one hides (a policy that selects no pod, so its
        broken egress rule shows only once its selector is restored) is found
        so: its damage exists only in the world after the first repair. The
        union is accepted only when its edits commute (applying them together
        gives the same objects as in sequence) and it verifies on the model.
        """
        if self.chain_depth >= MAX_CHAIN_DEPTH:
            return None
        for _count, first, moved in list(self._near):
            if len(first) >= max_edits:
                continue
            objects = dict(self.objects)
            by_policy: dict[str, list[Edit]] = {}
            for edit in first:
                by_policy.setdefault(edit.key, []).append(edit)
            try:
                for key, group in by_policy.items():
                    objects[key] = apply_edits(self.objects[key], group)
                after = _Search(
                    self.cluster, objects, self.intent, self.dns, self.editable, self.prober, self.externals, self.networks,
                    self.effort, self.port_ranges, self.ranges,
                )
            except (K8sError, EmissionError):
                continue
            after.chain_depth = self.chain_depth + 1
            probes = {(s, t) for s, t, _ in moved}
            goals = frozenset(i for i, c in enumerate(after.changes) if (c.source, c.target) in probes)
            if not goals:
                continue
            try:
                cands, orphans = after.candidates()
                if any(i in goals for i, _ in orphans):
                    continue
                second = after.search(cands, goals, max_edits - len(first))
            except (NoPlan, EmissionError):
                continue
            if not second:
                continue
            union = (*first, *second)
            if not self._commute(first, second):
                continue
            try:
                if self.reaches(union, targets):
                    return union
            except EmissionError:
                continue
        return None

    def _commute(self, first: Sequence[Edit], second: Sequence[Edit]) -> bool:
        """Whether ``second`` (planned on the objects ``first`` leaves) means the same
        applied together with ``first`` to the objects as read."""
        for key in {e.key for e in second}:
            mine = [e for e in first if e.key == key]
            theirs = [e for e in second if e.key == key]
            try:
                together = apply_edits(self.objects[key], [*mine, *theirs])
                stepwise = apply_edits(apply_edits(self.objects[key], mine), theirs)
            except EmissionError:
                return False
            if together != stepwise:
                return False
        return True

    def _search(
        self, pool: list[_Candidate], targets: frozenset[int], max_edits: int, *, stop_at_collateral: bool, extra: int = 0,
        limit: int | None = None,
    ):
        wanted = {(c.source, c.target) for i, c in enumerate(self.changes) if i in targets}
        needed = sum(1 << r for r, (change, _) in enumerate(self.reqs) if change in targets) | extra
        masks = [c.mask for c in pool]
        weights = [c.edit.weight for c in pool]
        # suffix[i]: everything candidates i.. can still cover
        suffix = [0] * (len(pool) + 1)
        for i in range(len(pool) - 1, -1, -1):
            suffix[i] = suffix[i + 1] | masks[i]
        collateral: dict[tuple[str, str, bool], None] = {}
        fewest = 0
        ceiling = sum(sorted(weights, reverse=True)[:max_edits])
        if limit is not None:
            ceiling = min(ceiling, limit)

        keys = [c.edit.key for c in pool]
        nodes = 0

        def combos(start: int, size: int, weight: int, covered: int, chosen: list[int]):
            nonlocal nodes
            nodes += 1
            if nodes > MAX_NODES * self.effort:
                raise NoPlan(f"more than {MAX_NODES * self.effort} partial edit sets searched without a verified one")
            if size == 0:
                if weight == 0 and covered & needed == needed:
                    yield tuple(chosen)
                return
            if weight <= 0 or (covered | suffix[start]) & needed != needed:
                return
            for i in range(start, len(pool) - size + 1):
                if weights[i] > weight:
                    continue
                # an edit that meets no requirement yet is worth trying only next to
                # another edit of the same policy (two faults in one rule)
                if not masks[i] & needed & ~covered and all(keys[j] != keys[i] for j in chosen):
                    continue
                chosen.append(i)
                yield from combos(i + 1, size - 1, weight - weights[i], covered | masks[i], chosen)
                chosen.pop()

        # Verified sets up to RANK_SLACK heavier than the first are ranked (see _rank_key).
        found: list[tuple[Edit, ...]] = []
        stop_total, spent_at, best_irregular = ceiling, 0, None
        try:
            for total in range(1, ceiling + 1):
                if total > stop_total:
                    break
                found_collateral = False
                for size in range(1, min(max_edits, len(pool), total) + 1):
                    for picked in combos(0, size, total, 0, []):
                        self.visited += 1
                        if self.visited > MAX_VISITED * self.effort:
                            raise NoPlan(f"more than {MAX_VISITED * self.effort} candidate edit sets without a verified one")
                        combo = [pool[i] for i in picked]
                        if not _consistent(combo):
                            continue
                        edits = tuple(c.edit for c in combo)
                        if found:
                            if spent_at - self.budget >= RANK_SIMS or len(found) >= RANK_MAX:
                                raise _Enough
                            if any(set(f) < set(edits) for f in found):
                                continue  # a verified set plus more: pruning gives it back
                            try:
                                if best_irregular is not None and self._irregular(edits) > best_irregular:
                                    continue  # ranks below a verified set whatever it does
                            except EmissionError:
                                continue
                        try:
                            missed = self.misses(edits, targets)
                        except EmissionError:  # edits that clash inside one patch
                            continue
                        if not missed:
                            try:
                                self._objects_after(edits)
                            except EmissionError:  # edits whose patch depends on their order
                                continue
                            score = self._irregular(edits)
                            if not found and self._settled(edits, score):
                                return edits, ()
                            if not found:
                                stop_total, spent_at = min(ceiling, total + RANK_SLACK), self.budget
                            best_irregular = score if best_irregular is None else min(best_irregular, score)
                            found.append(edits)
                            continue
                        if not any((s, t) in wanted for s, t, _ in missed):
                            self._note_near(edits, missed)
                            # keep only the smallest collateral: the repairs nearest to safe
                            if not collateral or len(missed) < fewest:
                                collateral, fewest = {}, len(missed)
                            if len(missed) == fewest:
                                collateral.update(dict.fromkeys(missed))
                            found_collateral = True
                if found_collateral and stop_at_collateral and not found:
                    self.collateral_weight = total
                    # widen the pool before trying heavier sets
                    return None, tuple(collateral)
        except _Enough:
            pass
        except NoPlan:
            if not found:
                raise
        if found:
            return self._best(found), ()
        return None, tuple(collateral)

    # -- ranking -----------------------------------------------------------------

    def _best(self, found: list[tuple[Edit, ...]]) -> tuple[Edit, ...]:
        """The first of ``found`` by :meth:`_rank_key`, each criterion computed only
        for the sets still tied on the ones before it."""
        stages = (
            self._irregular,
            self._change,
            lambda e: (sum(isinstance(x, ADDITIVE) for x in e), plan_weight(e), len(e), sorted(edit_sort_key(x) for x in e)),
        )
        left = list(dict.fromkeys(found))
        for stage in stages:
            if len(left) == 1:
                break
            scores = [stage(e) for e in left]
            low = min(scores)
            left = [e for e, score in zip(left, scores, strict=True) if score == low]
        return left[0]

    @staticmethod
    def _settled(edits: tuple[Edit, ...], irregular: int) -> bool:
        """Whether the lightest verified set needs no comparison: it repairs in place,
        leaves nothing irregular, and writes no port or address (values whose
        extent beyond the probes the probes cannot tell)."""
        if irregular > 0:
            return False
        for edit in edits:
            if isinstance(edit, (*ADDITIVE, SetPort, SetProtocol)):
                return False
            if isinstance(edit, SetValue) and any(part in ("ports", "ipBlock", "from", "to") for part in edit.path[-3:]):
                return False
        return True

    def _irregular(self, edits: tuple[Edit, ...]) -> int:
        return self._fitted(edits) + self._dead(edits) - self._familiar(edits)

    def _rank_key(self, edits: tuple[Edit, ...]) -> tuple:
        """Among verified sets, the most plausible repair first: values fitted to the
        probes rather than taken from the task (a client's /32 where the text names
        its network, a port range cut at the probed port), then the least change of
        the whole matrix beyond the probes (every pod pair and port, outside
        addresses at ipBlock edges), then fewest appended rules, then weight.

        Port entries that reach no container port of the pods they concern count
        as fitted too (a stray protocol or number the repair left in place); an
        appended rule that another policy of the namespace has word for word
        counts against them (the policies of one application look alike)."""
        return (
            self._irregular(edits),
            self._change(edits),
            sum(isinstance(e, ADDITIVE) for e in edits),
            plan_weight(edits),
            len(edits),
            sorted(edit_sort_key(e) for e in edits),
        )

    def _groups(self, edits: Iterable[Edit]) -> list[tuple[str, frozenset[Edit]]]:
        by_policy: dict[str, list[Edit]] = {}
        for edit in edits:
            by_policy.setdefault(edit.key, []).append(edit)
        return [(key, frozenset(group)) for key, group in by_policy.items()]

    def _object_after(self, key: str, group: frozenset[Edit]) -> dict:
        hit = self._after_objs.get(group)
        if hit is None:
            hit = self._after_objs[group] = apply_edits(self.objects[key], sorted(group, key=edit_sort_key))
        return hit

    def _objects_after(self, edits: Iterable[Edit]) -> dict[str, dict]:
        return {key: self._object_after(key, group) for key, group in self._groups(edits)}

    def _fitted(self, edits: tuple[Edit, ...]) -> int:
        """How many more values the edited policies fit to the probes than before."""
        return sum(self._group_score(key, group)[0] for key, group in self._groups(edits))

    def _dead(self, edits: tuple[Edit, ...]) -> int:
        """How many more port entries of the edited policies reach no container port
        of the pods they concern (selected pods for ingress, peer pods for egress),
        and how many more selector peers match no pod."""
        return sum(self._group_score(key, group)[1] for key, group in self._groups(edits))

    def _group_score(self, key: str, group: frozenset[Edit]) -> tuple[int, int]:
        """(fitted, dead) of one policy after its edits, less the same before them."""
        hit = self._scores.get(group)
        if hit is None:
            named = {n for n in (_network(t) for t in self.networks) if n is not None}
            after = self._object_after(key, group)
            fitted = _fitted_values(after, named, self.port_ranges) - _fitted_values(self.objects[key], named, self.port_ranges)
            try:
                dead = self._dead_entries(parse_policy(after, source=key)) - self._dead_entries(self.policies[key])
            except K8sError:
                dead = 0
            hit = self._scores[group] = (fitted, dead)
        return hit

    def _familiar(self, edits: tuple[Edit, ...]) -> int:
        """Appended rules that another policy of the same namespace already has."""
        count = 0
        for edit in edits:
            if not isinstance(edit, AddRule | AllowDNS | AllowAll):
                continue
            rule = _normal_rule(edit.rule_dict())
            for key, obj in self.objects.items():
                rules = (obj.get("spec") or {}).get(edit.rules_field) or []
                if key != edit.key and key.partition("/")[0] == edit.namespace and any(_normal_rule(r) == rule for r in rules):
                    count += 1
                    break
        return count

    def _dead_entries(self, pol: NetworkPolicy) -> int:
        hit = self._dead_cache.get(pol)
        if hit is None:
            hit = self._dead_cache[pol] = self._count_dead(pol)
        return hit

    def _count_dead(self, pol: NetworkPolicy) -> int:
        compiled = self.sim.compile_policy(pol)
        selected = self.sim.select_pods(pol.pod_selector, pol.namespace)
        count = 0
        for direction in (INGRESS, EGRESS):
            for rule in pol.rules(direction):
                for peer in rule.peers or ():
                    if peer.ip_block is None and not any(peer_matches(self.sim, peer, pol.namespace, i) for i in range(len(self.sim.pods))):
                        count += 1
        for direction, rules in ((INGRESS, compiled.ingress), (EGRESS, compiled.egress)):
            for rule in rules or ():
                if rule.ports_all:
                    continue
                pods = selected if direction == INGRESS else (() if rule.peers_all else rule.peer_pods)
                ports = [cp for i in pods for cp in self.sim.pods[i].ports]
                if not ports:
                    continue
                for proto, lo, hi in rule.numeric:
                    count += not any(cp.protocol == proto and lo <= cp.port <= hi for cp in ports)
                for proto, name in rule.named:
                    count += not any(cp.protocol == proto and cp.name == name for cp in ports)
        return count

    def _sample_addresses(self) -> tuple[str, ...]:
        if self._samples is None:
            out = set(external_addresses(self.policies.values()))
            out |= set(self.externals.values())
            for text in self.networks:
                net = _network(text)
                if net is not None:
                    out.add(str(net.network_address))
                    past = int(net.broadcast_address) + 1
                    if past < 2 ** net.max_prefixlen:
                        out.add(str(ipaddress.ip_address(past)))
            self._samples = tuple(sorted(out))
        return self._samples

    def _change(self, edits: tuple[Edit, ...]) -> int:
        """(protocol, port) cells the edits move, over every pod pair through a pod
        whose policies they change and every sample outside address."""
        key = frozenset(edits)
        after = self._policies_after(key)
        snap = self.sim.snapshot(tuple(after))
        touched = sorted(self._touched_pods(key, after))
        n = len(self.sim.pods)
        pairs = {(t, o) for t in touched for o in range(n) if o != t}
        pairs |= {(o, t) for t, o in pairs}
        total = sum(_size_of(snap.connections(a, b), self.snap.connections(a, b)) for a, b in pairs)
        for address in self._sample_addresses():
            for t in touched:
                for direction in (INGRESS, EGRESS):
                    total += _size_of(
                        snap.connections_external(t, address, direction), self.snap.connections_external(t, address, direction)
                    )
        return total

    def _keep(self, probes: Iterable[tuple[str, str, bool]]) -> list[Edit]:
        """Candidates that stop a probe from moving to ``value`` (closing or opening)."""
        out: list[Edit] = []
        for source, target, value in probes:
            for origin, dst, port in self._landing(source, target):
                verdict = self._verdict(origin, dst, port)
                if value:
                    sides = [(verdict.ingress, dst, origin)]
                    if verdict.egress is not None:
                        sides.append((verdict.egress, origin, dst))
                    for side, pod, peer in sides:
                        if side.isolated:
                            out.extend(self._close(side.allowed_by, pod, peer, port))
                else:
                    # a repair may restore a lost policy type: keep the probe open across it
                    if isinstance(origin, int):
                        out.extend(self._open(origin, dst, port, EGRESS, dormant=True))
                    out.extend(self._open(origin, dst, port, INGRESS, dormant=True))
        return out

    def prune(self, edits: tuple[Edit, ...], targets: frozenset[int]) -> tuple[Edit, ...]:
        """Drop edits the intent does not need (heaviest first), until none can go."""
        changed = True
        while changed:
            changed = False
            for edit in sorted(edits, key=lambda e: (-e.weight, edit_sort_key(e))):
                rest = tuple(e for e in edits if e != edit)
                if rest and self.reaches(rest, targets):
                    edits, changed = rest, True
                    break
        return edits


def _network(text: str):
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


def _normal_rule(rule: Mapping) -> str:
    """A rule's text with defaults written out and lists in a canonical order."""
    out = {}
    for field, value in sorted(rule.items()):
        if field == "ports":
            value = sorted(({"protocol": "TCP", **p} for p in value or []), key=lambda p: json.dumps(p, sort_keys=True))
        elif isinstance(value, list):
            value = sorted(value, key=lambda p: json.dumps(p, sort_keys=True))
        if value:
            out[field] = value
    return json.dumps(out, sort_keys=True)


def _size_of(a: PortSet, b: PortSet) -> int:
    """Ports in one of ``a`` and ``b`` only."""
    moved = (a - b) | (b - a)
    return sum(hi - lo + 1 for _proto, intervals in moved.parts for lo, hi in intervals)


def _fitted_values(obj: Mapping, named, ranges: Sequence[tuple[int, int]]) -> int:
    """Values of a policy fitted to probes rather than taken from the task: ipBlock
    values that are one address inside a wider network the task names, or (when
    the task names networks) none of them; port entries inside (not equal to) a
    port range it names, minus entries equal to one."""
    count = 0
    spec = obj.get("spec") or {}
    wide = [n for n in named if n.prefixlen < n.max_prefixlen]
    for field, peers_field in (("ingress", "from"), ("egress", "to")):
        for rule in spec.get(field) or []:
            for peer in rule.get(peers_field) or []:
                block = peer.get("ipBlock") or {}
                for text in (block.get("cidr"), *(block.get("except") or [])):
                    net = _network(text) if text else None
                    if net is None:
                        continue
                    if named and net not in named:
                        count += 1
                    if net.prefixlen == net.max_prefixlen and any(net.network_address in w for w in wide):
                        count += 1
            for entry in rule.get("ports") or []:
                first = entry.get("port")
                if not isinstance(first, int):
                    continue
                last = entry.get("endPort") or first
                for lo, hi in ranges:
                    if (first, last) == (lo, hi):
                        count -= 1
                    elif lo <= first <= last <= hi:
                        count += 1
    return count


def _text_identity(edit: Edit) -> tuple:
    """What an edit writes into the policy text, whatever direction proposed it."""
    if isinstance(edit, SetValue):
        return ("value", edit.key, edit.path, edit.value)
    if isinstance(edit, SetPodSelector):
        return ("selector", edit.key, edit.labels)
    return ("edit", edit)


def _merge_same_text(raw: Mapping[Edit, set[int]]) -> dict[Edit, set[int]]:
    """One candidate per text change: a podSelector restored for an ingress and for an
    egress requirement is one edit covering both (two would clash on one field)."""
    groups: dict[tuple, list[Edit]] = {}
    for edit in raw:
        groups.setdefault(_text_identity(edit), []).append(edit)
    out: dict[Edit, set[int]] = {}
    for members in groups.values():
        members.sort(key=lambda e: (e.weight, edit_sort_key(e)))
        out[members[0]] = set().union(*(raw[m] for m in members))
    return out


def _block_holds(peer: Peer, ip) -> bool:
    """Whether an ipBlock peer holds the outside address ``ip``."""
    if peer.ip_block is None:
        return False
    net = ipaddress.ip_network(peer.ip_block.cidr, strict=False)
    return ip.version == net.version and ip in net and not any(
        ip in ipaddress.ip_network(e, strict=False) for e in peer.ip_block.excepts
    )


def _joinable(a: dict, b: dict) -> bool:
    """Two selector peers that one AND peer could replace (one namespaces, one pods)."""
    keys = {frozenset(a), frozenset(b)}
    return keys == {frozenset({"namespaceSelector"}), frozenset({"podSelector"})}


def _consistent(combo: Sequence[_Candidate]) -> bool:
    """Reject sets that edit a rule they also remove."""
    removed = {(c.edit.key, c.edit.direction, c.edit.rule) for c in combo if isinstance(c.edit, RemoveRule)}
    for c in combo:
        edit = c.edit
        if (
            not isinstance(edit, RemoveRule)
            and edit.rule_index is not None
            and (edit.key, edit.direction, edit.rule_index) in removed
        ):
            return False
    paths = sorted((c.edit.key, c.edit.path) for c in combo if isinstance(c.edit, SetValue))
    for (key_a, a), (key_b, b) in zip(paths, paths[1:], strict=False):
        if key_a == key_b and b[: len(a)] == a:  # the same field twice, or a field inside another
            return False
    return True


def _components(cands: Sequence[_Candidate], reqs: Sequence[tuple[int, str]], count: int) -> list[frozenset[int]]:
    """Changes linked by candidates on a common policy, as sorted groups."""
    parent = list(range(count))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_policy: dict[str, list[int]] = {}
    for c in cands:
        by_policy.setdefault(c.edit.key, []).extend(reqs[r][0] for r in c.covers)
    for members in by_policy.values():
        for a in members[1:]:
            parent[find(a)] = find(members[0])
    groups: dict[int, set[int]] = {}
    for i in range(count):
        groups.setdefault(find(i), set()).add(i)
    return sorted((frozenset(g) for g in groups.values()), key=min)


def _split(changes: Sequence[Mismatch], component: frozenset[int]) -> list[frozenset[int]]:
    """A component whose joint search failed, cut into the changes of one target
    (one source when they share their target), largest first; none when it cannot be cut."""
    for part in (lambda c: c.target, lambda c: c.source):
        groups: dict[str, set[int]] = {}
        for i in sorted(component):
            groups.setdefault(part(changes[i]), set()).add(i)
        if len(groups) > 1:
            return sorted((frozenset(g) for g in groups.values()), key=lambda g: (-len(g), min(g)))
    return []


def _merge(first: Plan, second: Plan) -> Plan:
    """``second`` (planned on the objects ``first`` leaves) after ``first``, as one plan:
    a policy both touch gets both op lists in turn (the second's guards test the first's result).

    Each merged patch is verified as one patch: applied to the object before ``first``
    it must give exactly the object after ``second``.

    Raises
    ------
    EmissionError
        When ``second`` repeats an edit of ``first`` (the same edit twice), or a merged
        patch does not apply as one patch or gives another object than the steps in turn.
    """
    repeated = sorted({e.describe() for e in second.edits if e in first.edits})
    if repeated:
        raise EmissionError(f"the next step repeats an edit of the plan: {', '.join(repeated)}")
    patches = {f"{p.namespace}/{p.name}": p for p in first.patches}
    for p in second.patches:
        key = f"{p.namespace}/{p.name}"
        if key in patches:
            p = replace(p, ops=(*patches[key].ops, *p.ops), before=patches[key].before)
        patches[key] = p
    for key, p in patches.items():
        if apply_ops(p.before, list(p.ops)) != p.after:
            raise EmissionError(f"{key}: the merged patch does not give the object the steps give in turn")
    return Plan(
        (*first.edits, *second.edits), tuple(patches[k] for k in sorted(patches)), first.before, second.after,
        first.changes, first.dns, second.unresolved, second.reason,
    )


def plan_repair(
    cluster: Cluster,
    objects: Mapping[str, dict],
    intent: Intent,
    *,
    dns: bool = True,
    max_edits: int = DEFAULT_MAX_EDITS,
    editable_namespaces: Iterable[str] | None = None,
    prober: Prober | None = None,
    externals: Mapping[str, str] | None = None,
    networks: Sequence[str] = (),
    partial: bool = False,
    effort: int = 1,
    port_ranges: Sequence[tuple[int, int]] = (),
    ranges: Sequence[str] = (),
    steps: int = MAX_STEPS,
) -> Plan:
    """The lightest verified edit set turning the current matrix into ``intent``.

    Parameters
    ----------
    cluster : Cluster
        Pods, services and namespaces (its own policies are replaced).
    objects : mapping
        ``namespace/name`` -> the policy object as observed (patch guards
        are built from these exact objects).
    intent : Intent
        The desired matrix; its probes are the ones verified.
    dns : bool
        Model name resolution through kube-dns.
    max_edits : int
        Largest edit set searched per component.
    editable_namespaces : iterable of str, optional
        Only policies in these namespaces may be edited (default: any).
    prober : Prober, optional
        A prober of this cluster over the intent's probes with the same DNS
        setting and outside clients, to reuse instead of building one.
    externals : mapping, optional
        Probe sources outside the cluster: name -> address.
    networks : sequence of str
        CIDRs and addresses the task names (values a repaired ipBlock may take).
    partial : bool
        When some changes cannot be reached, return the verified plan of
        the others (``Plan.unresolved`` lists the rest; every other probe
        still keeps its value) instead of raising. A component whose joint
        search fails is then cut by target (or source) and each part searched
        alone, and a partial plan is continued, up to ``steps - 1`` times, by
        a plan made on the objects it leaves (each step verified on the
        model, so the whole moves only reported probes, towards the intent).
    effort : int
        Multiplies the search limits (re-simulations, sets enumerated) and
        allows ``effort - 1`` more edits: a deeper search after a shallow
        one found nothing.
    port_ranges : sequence of (int, int)
        Port ranges the task names (values a repaired port range may take).
    ranges : sequence of str
        CIDRs of outside clients whose addresses ``externals`` stand for
        by a few per class: an edit admitting one names the CIDR.
    steps : int
        Planning passes a partial plan may take (see ``partial``); 1 plans once.

    Raises
    ------
    NoPlan
        When no edit set within the IR reaches the intent exactly (with
        ``partial``: when not even one change can be reached).
    """
    editable = None if editable_namespaces is None else frozenset(editable_namespaces)
    if effort < 1:
        raise ValueError(f"effort: expected a positive integer, got {effort!r}")
    limit = max_edits + effort - 1
    search = _Search(cluster, objects, intent, dns, editable, prober, externals, networks, effort, port_ranges, ranges)
    if not search.changes:
        return Plan((), (), search.current, search.current, (), dns)
    cands, orphans = search.candidates()
    if orphans and not partial:
        raise NoPlan(
            "no edit in the repair IR can change "
            + "; ".join(text for _, text in orphans)
            + " (nothing isolates either side for a removal, or the service has no endpoint)"
        )
    stuck = {index for index, _ in orphans}
    failed: list[frozenset[int]] = []
    solved: set[int] = set()
    reasons: list[str] = [f"no candidate edit changes {text}" for _, text in orphans]
    edits: list[Edit] = []
    for component in _components(cands, search.reqs, len(search.changes)):
        names = ", ".join(f"{search.changes[i].source} -> {search.changes[i].target}" for i in sorted(component))
        if component & stuck:
            continue
        try:
            found = search.search(cands, component, limit)
        except NoPlan as exc:
            if not partial:
                raise
            reasons.append(f"{names}: {exc}")
            search.budget = search.full_budget  # the next component gets its own search
            failed.append(component)
            continue
        if found is None:
            moved = ", ".join(f"{s} -> {t}" for s, t, _ in search.collateral[:6])
            hint = f" (the lightest repairs also change {moved}; state those probes in the intent)" if moved else ""
            reason = f"no set of at most {limit} candidate edits repairs {names} without moving another probe{hint}"
            if not partial:
                raise NoPlan(reason)
            reasons.append(reason)
            failed.append(component)
            continue
        edits.extend(e for e in found if e not in edits)
        solved |= component
    for component in failed:  # partial only: the parts of a component that can be reached alone
        for part in _split(search.changes, component):
            search.budget = search.full_budget
            try:
                found = search.search(cands, part, limit)
                if found is None or not search.reaches((*edits, *found), frozenset(solved | part)):
                    continue
            except (NoPlan, EmissionError):
                continue
            edits.extend(e for e in found if e not in edits)
            solved |= part
    if not solved:
        raise NoPlan("; ".join(reasons) or "no change can be reached")
    targets = frozenset(solved)
    if not search.reaches(edits, targets):
        joint = search.search(cands, targets, limit)
        if joint is None:
            raise NoPlan("the per-component repairs interfere and no joint edit set reaches the intent")
        edits = list(joint)
    # One copy of each edit: two components may need the same edit, and a
    # policy's patch must not carry it twice.
    final = tuple(sorted(search.prune(tuple(dict.fromkeys(edits)), targets), key=edit_sort_key))
    after = search.run(final)
    unresolved = tuple(c for i, c in enumerate(search.changes) if i not in targets)
    wanted = {(c.source, c.target): c.actual for c in unresolved}
    expected = Matrix(tuple(
        (src, tuple((t, wanted.get((src, t), v)) for t, v in cells)) for src, cells in intent.desired.rows
    ))
    if after != expected:
        raise NoPlan("internal check failed: the plan does not reproduce the intent")
    plan = Plan(final, _patches(search.objects, final), search.current, after, search.changes, dns, unresolved, "; ".join(reasons))
    for _ in range(steps - 1):
        if not (partial and plan.unresolved and plan.patches):
            break
        left = dict(objects) | {f"{p.namespace}/{p.name}": p.after for p in plan.patches}
        try:
            step = plan_repair(
                cluster, left, intent, dns=dns, max_edits=max_edits, editable_namespaces=editable_namespaces,
                prober=prober, externals=externals, networks=networks, partial=partial, effort=effort,
                port_ranges=port_ranges, ranges=ranges, steps=1,
            )
        except NoPlan:
            break
        if not step.edits or len(step.unresolved) >= len(plan.unresolved):
            break
        try:
            plan = _merge(plan, step)
        except EmissionError:
            break
    return plan


def _patches(objects: Mapping[str, dict], edits: Sequence[Edit]) -> tuple[PolicyPatch, ...]:
    by_policy: dict[str, list[Edit]] = {}
    for edit in edits:
        by_policy.setdefault(edit.key, []).append(edit)
    out = []
    for key, group in sorted(by_policy.items()):
        before = objects[key]
        ops = patch_ops(before, group)
        namespace, _, name = key.partition("/")
        out.append(PolicyPatch(namespace, name, tuple(ops), before, apply_edits(before, group)))
    return tuple(out)
