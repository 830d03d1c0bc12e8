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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from netmend.k8s.manifest import parse_policy
from netmend.k8s.model import Cluster, LabelSelector, NetworkPolicy
from netmend.k8s.probe import PROBE_PROTOCOL, Matrix, Mismatch, Prober
from netmend.k8s.semantics import EGRESS, INGRESS, Snapshot
from netmend.repair.edits import (
    AddPeer,
    AddPolicyType,
    AddRule,
    AllowAll,
    AllowDNS,
    Edit,
    NarrowRule,
    PortSpec,
    RemovePeer,
    RemoveRule,
    SetPodSelector,
    SetPort,
    SetProtocol,
    apply_edits,
    patch_ops,
    plan_weight,
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

DEFAULT_MAX_EDITS = 6
DEFAULT_BUDGET = 1_000  # re-simulations per plan
MAX_VISITED = 200_000  # candidate sets enumerated per plan


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
    ):
        self.editable = editable
        self.objects = dict(objects)
        self.policies: dict[str, NetworkPolicy] = {}
        for key, obj in sorted(self.objects.items()):
            pol = parse_policy(obj, source=key)
            if pol.key != key:
                raise ValueError(f"policy object {key!r} names itself {pol.key!r}")
            self.policies[key] = pol
        self.cluster = cluster.with_policies(tuple(self.policies.values()))
        self.intent = intent
        self.prober = prober or Prober(self.cluster, intent.desired.probes(), dns=dns)
        self.sim = self.prober.sim
        self.dns = dns
        self.snap: Snapshot = self.sim.snapshot(tuple(self.policies.values()))
        self.current = self.prober.run(self.policies.values())
        self.changes = intent.changes(self.current)
        self.budget = DEFAULT_BUDGET
        self.visited = 0
        self.collateral: tuple[tuple[str, str, bool], ...] = ()
        self._now = {(src, t): v for src, cells in self.current.rows for t, v in cells}
        self._cache: dict[frozenset[Edit], Matrix] = {}
        self._sub_cache: dict[frozenset[Edit], Matrix] = {}
        self._parsed: dict[frozenset[Edit], NetworkPolicy] = {}
        self._subs: dict[frozenset[tuple[str, tuple]], Prober | None] = {}
        self._rows: list | None = None

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
                parsed = parse_policy(apply_edits(self.objects[pkey], group), source=pkey)
                self._parsed[group_key] = parsed
            policies[pkey] = parsed
        return list(policies.values())

    def _spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise NoPlan(f"search budget of {DEFAULT_BUDGET} re-simulations exhausted")

    def run(self, edits: Iterable[Edit]) -> Matrix:
        """The whole universe under ``edits``."""
        key = frozenset(edits)
        hit = self._cache.get(key)
        if hit is None:
            self._spend()
            hit = self._cache[key] = self.prober.run(self._policies_after(key))
        return hit

    def _affected(self, keys: frozenset[tuple[str, tuple]]) -> Prober | None:
        """A prober over the only probes edits to the policies ``keys`` can move.

        ``keys`` are (policy, new selector labels or ``()``). Only probes from
        a pod those policies select, before or after the edit (egress, DNS),
        or to one (ingress) can change; every other probe keeps its value.
        """
        if keys in self._subs:
            return self._subs[keys]
        if self._rows is None:
            self._rows = []
            resolved: dict[tuple[str, str], frozenset[int]] = {}
            for source, targets in self.intent.desired.probes():
                src = source_pod(self.sim, source)
                namespace = self.sim.pods[src].namespace
                cells = []
                for t in targets:
                    if (t, namespace) not in resolved:
                        resolved[(t, namespace)] = frozenset(d for d, _ in target_endpoints(self.sim, t, namespace))
                    cells.append((t, resolved[(t, namespace)]))
                self._rows.append((source, src, cells))
        pods: set[int] = set()
        for key, labels in keys:
            pol = self.policies[key]
            pods |= self.sim.select_pods(pol.pod_selector, pol.namespace)
            if labels:
                pods |= self.sim.select_pods(LabelSelector(match_labels=labels), pol.namespace)
        probes = []
        for source, src, cells in self._rows:
            chosen = [t for t, endpoints in cells if src in pods or endpoints & pods]
            if chosen:
                probes.append((source, tuple(chosen)))
        sub = Prober(self.cluster, probes, dns=self.dns) if probes else None
        self._subs[keys] = sub
        return sub

    def reaches(self, edits: Iterable[Edit], targets: frozenset[int]) -> bool:
        """Changes in ``targets`` reach the intent and every other probe stays."""
        return not self.misses(edits, targets)

    def misses(self, edits: Iterable[Edit], targets: frozenset[int]) -> tuple[tuple[str, str, bool], ...]:
        """``(source, target, value)`` of every probe ``edits`` leave wrong."""
        key = frozenset(edits)
        result = self._sub_cache.get(key)
        if result is None:
            sub = self._affected(frozenset((e.key, getattr(e, "labels", ())) for e in key))
            self._spend()
            result = self._sub_cache[key] = sub.run(self._policies_after(key)) if sub else Matrix()
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
                    orphans.append(f"{change.source} -> {change.target} (want {change.expected}; {side})")
                for edit in found:
                    raw.setdefault(edit, set()).add(req)
        for edit, covers in self._grouped(raw).items():
            raw.setdefault(edit, set()).update(covers)
        out = [_Candidate(e, frozenset(c)) for e, c in raw.items()]
        out.sort(key=lambda c: (c.edit.weight, edit_sort_key(c.edit)))
        return out, orphans

    def _for_change(self, change: Mismatch) -> list[tuple[str, list[Edit]]]:
        """Requirements of one change: each blocked (or admitting) side and its candidates."""
        src = source_pod(self.sim, change.source)
        namespace = self.sim.pods[src].namespace
        endpoints = target_endpoints(self.sim, change.target, namespace)
        if not endpoints:
            return [("service endpoint", [])]
        if not change.expected:
            out: list[Edit] = []
            for dst, port in endpoints:
                verdict = self.snap.verdict(src, dst, PROBE_PROTOCOL, port)
                for side, pod, peer in ((verdict.ingress, dst, src), (verdict.egress, src, dst)):
                    if side.isolated:
                        out.extend(self._close(side.allowed_by, pod, peer))
                if not verdict.ingress.isolated:
                    out.extend(self._reisolate(dst, src, port))
            return [("deny", out)]
        reqs: list[tuple[str, list[Edit]]] = []
        if self.dns and not self._dns_ok(src):
            reqs.append(("dns", self._open_dns(src)))
        dst, port = endpoints[0]
        verdict = self.snap.verdict(src, dst, PROBE_PROTOCOL, port)
        if not verdict.egress.allowed:
            reqs.append(("egress", self._open(src, dst, port, EGRESS)))
        if not verdict.ingress.allowed:
            reqs.append(("ingress", self._open(src, dst, port, INGRESS)))
        return reqs

    def _may_edit(self, edit: Edit) -> bool:
        return self.editable is None or edit.namespace in self.editable

    def _reisolate(self, pod: int, src: int, port: int) -> list[Edit]:
        """Ways to isolate ``pod`` again: a policy selecting it lost its Ingress
        type, or an Ingress policy of its namespace selects no pod at all;
        with them, the withdrawals of that policy's rules that would still
        admit ``src`` on ``port`` once it isolates."""
        target = self.sim.pods[pod]
        out: list[Edit] = []
        labels = workload_peer(self.sim, pod, target.namespace).pod_labels
        for p in self.policies.values():
            if p.namespace != target.namespace:
                continue
            if p.pod_selector.matches(dict(target.labels)):
                if INGRESS in p.effective_types:
                    continue
                out.append(AddPolicyType(p.namespace, p.name, INGRESS))
            elif INGRESS in p.effective_types and not self.sim.select_pods(p.pod_selector, p.namespace):
                out.append(SetPodSelector(p.namespace, p.name, INGRESS, labels=labels))
            else:
                continue
            isolating = replace(p, policy_types=(INGRESS, *(t for t in p.effective_types if t != INGRESS)))
            rules = self.sim.compile_policy(isolating).ingress or ()
            named = self.sim.named_ports[pod]
            refs = [r.ref for r in rules if r.admits_peer(src) and r.admits_port(PROBE_PROTOCOL, port, named)]
            out.extend(self._close(refs, pod, src))
        return out

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

    def _open(self, src: int, dst: int, port: int, direction: str, *, dormant: bool = False) -> list[Edit]:
        """Candidates admitting ``src -> dst:port`` on one side; with ``dormant``, also
        rules for policies that would isolate that side once their type is restored."""
        here, there = (dst, src) if direction == INGRESS else (src, dst)
        named = self.sim.named_ports[dst]
        out: list[Edit] = []
        if dormant:
            for pol in self._dormant(here, direction):
                peer = workload_peer(self.sim, there, pol.namespace)
                out.append(AddRule(pol.namespace, pol.name, direction, peers=(peer,), ports=(PortSpec(port),)))
        for pol in self._isolating(here, direction):
            peer = workload_peer(self.sim, there, pol.namespace)
            out.append(AddRule(pol.namespace, pol.name, direction, peers=(peer,), ports=(PortSpec(port),)))
            if direction == EGRESS:
                out.append(AllowAll(pol.namespace, pol.name, direction))
            compiled = self.sim.compile_policy(pol)
            rules = compiled.ingress if direction == INGRESS else compiled.egress
            for index, (rule, crule) in enumerate(zip(pol.rules(direction), rules or (), strict=True)):
                admits_peer = crule.admits_peer(there)
                admits_port = crule.admits_port(PROBE_PROTOCOL, port, named)
                if admits_peer and not admits_port:
                    out.extend(self._fix_ports(pol, direction, index, rule.ports or (), port, named))
                elif admits_port and not admits_peer and rule.peers:
                    out.append(AddPeer(pol.namespace, pol.name, direction, rule=index, peers=(peer,)))
        return out

    @staticmethod
    def _fix_ports(pol, direction, index, ports, port, named) -> list[Edit]:
        out: list[Edit] = []
        for entry, pp in enumerate(ports):
            if pp.end_port is not None:
                continue
            value_ok = pp.port == port or (isinstance(pp.port, str) and named.get(pp.port, (None, None))[1] == port)
            if not value_ok:
                out.append(SetPort(pol.namespace, pol.name, direction, rule=index, entry=entry, port=port))
            if pp.effective_protocol != PROBE_PROTOCOL:
                out.append(SetProtocol(pol.namespace, pol.name, direction, rule=index, entry=entry, protocol=PROBE_PROTOCOL))
        return out

    def _close(self, refs, pod: int, peer_pod: int) -> list[Edit]:
        """Candidates withdrawing the rules ``refs`` (of ``pod``'s side) from ``peer_pod``."""
        out: list[Edit] = []
        for ref in refs:
            pol = self.policies[ref.policy]
            rule = pol.rules(ref.direction)[ref.index]
            out.append(RemoveRule(pol.namespace, pol.name, ref.direction, rule=ref.index))
            if ref.direction == EGRESS and not rule.peers and not rule.ports:
                out.append(self._narrow(pol, ref.index, peer_pod))
            peers = rule.peers or ()
            if len(peers) > 1:
                for k, peer in enumerate(peers):
                    if peer_matches(self.sim, peer, pol.namespace, peer_pod):
                        out.append(RemovePeer(pol.namespace, pol.name, ref.direction, rule=ref.index, peer=k))
        return out

    def _narrow(self, pol: NetworkPolicy, index: int, denied: int) -> NarrowRule:
        """Allow-all egress rule ``index`` narrowed to what its pods reach now, minus ``denied``."""
        pods = self.sim.pods
        selected = self.sim.select_pods(pol.pod_selector, pol.namespace)
        denied_workload = (pods[denied].namespace, pods[denied].workload)
        keeps = set()
        for source, cells in self.current.rows:
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
        pool = [c for c in cands if any(self.reqs[r][0] in targets for r in c.covers)]
        for _ in range(3):
            best, collateral = self._search(pool, targets, max_edits, stop_at_collateral=True)
            if best is not None or not collateral:
                return best
            known = {c.edit for c in pool}
            extra = [e for e in dict.fromkeys(self._keep(collateral)) if e not in known and self._may_edit(e)]
            if not extra:
                # the lightest repairs move probes no edit can hold in place;
                # only a heavier set that avoids them can still do
                self.collateral = collateral
                break
            pool = sorted(pool + [_Candidate(e, frozenset()) for e in extra], key=lambda c: (c.edit.weight, edit_sort_key(c.edit)))
        return self._search(pool, targets, max_edits, stop_at_collateral=False)[0]

    def _search(self, pool: list[_Candidate], targets: frozenset[int], max_edits: int, *, stop_at_collateral: bool):
        wanted = {(c.source, c.target) for i, c in enumerate(self.changes) if i in targets}
        needed = sum(1 << r for r, (change, _) in enumerate(self.reqs) if change in targets)
        masks = [c.mask for c in pool]
        weights = [c.edit.weight for c in pool]
        # suffix[i]: everything candidates i.. can still cover
        suffix = [0] * (len(pool) + 1)
        for i in range(len(pool) - 1, -1, -1):
            suffix[i] = suffix[i + 1] | masks[i]
        collateral: dict[tuple[str, str, bool], None] = {}
        ceiling = sum(sorted(weights, reverse=True)[:max_edits])

        def combos(start: int, size: int, weight: int, covered: int, chosen: list[int]):
            if size == 0:
                if weight == 0 and covered & needed == needed:
                    yield tuple(chosen)
                return
            if weight <= 0 or (covered | suffix[start]) & needed != needed:
                return
            for i in range(start, len(pool) - size + 1):
                if weights[i] > weight:
                    continue
                chosen.append(i)
                yield from combos(i + 1, size - 1, weight - weights[i], covered | masks[i], chosen)
                chosen.pop()

        for total in range(1, ceiling + 1):
            found_collateral = False
            for size in range(1, min(max_edits, len(pool), total) + 1):
                for picked in combos(0, size, total, 0, []):
                    self.visited += 1
                    if self.visited > MAX_VISITED:
                        raise NoPlan(f"more than {MAX_VISITED} candidate edit sets without a verified one")
                    combo = [pool[i] for i in picked]
                    if not _consistent(combo):
                        continue
                    edits = tuple(c.edit for c in combo)
                    try:
                        missed = self.misses(edits, targets)
                    except EmissionError:  # edits that clash inside one patch
                        continue
                    if not missed:
                        return edits, ()
                    if not any((s, t) in wanted for s, t, _ in missed):
                        collateral.update(dict.fromkeys(missed))
                        found_collateral = True
            if found_collateral and stop_at_collateral:
                # widen the pool before trying heavier sets
                return None, tuple(collateral)
        return None, tuple(collateral)

    def _keep(self, probes: Iterable[tuple[str, str, bool]]) -> list[Edit]:
        """Candidates that stop a probe from moving to ``value`` (closing or opening)."""
        out: list[Edit] = []
        for source, target, value in probes:
            src = source_pod(self.sim, source)
            endpoints = target_endpoints(self.sim, target, self.sim.pods[src].namespace)
            for dst, port in endpoints:
                verdict = self.snap.verdict(src, dst, PROBE_PROTOCOL, port)
                if value:
                    for side, pod, peer in ((verdict.ingress, dst, src), (verdict.egress, src, dst)):
                        if side.isolated:
                            out.extend(self._close(side.allowed_by, pod, peer))
                else:
                    # a repair may restore a lost policy type: keep the probe open across it
                    out.extend(self._open(src, dst, port, EGRESS, dormant=True)
                               + self._open(src, dst, port, INGRESS, dormant=True))
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


def plan_repair(
    cluster: Cluster,
    objects: Mapping[str, dict],
    intent: Intent,
    *,
    dns: bool = True,
    max_edits: int = DEFAULT_MAX_EDITS,
    editable_namespaces: Iterable[str] | None = None,
    prober: Prober | None = None,
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
        setting, to reuse instead of building one.

    Raises
    ------
    NoPlan
        When no edit set within the IR reaches the intent exactly.
    """
    editable = None if editable_namespaces is None else frozenset(editable_namespaces)
    search = _Search(cluster, objects, intent, dns, editable, prober)
    if not search.changes:
        return Plan((), (), search.current, search.current, (), dns)
    cands, orphans = search.candidates()
    if orphans:
        raise NoPlan(
            "no edit in the repair IR can change "
            + "; ".join(orphans)
            + " (nothing isolates either side for a removal, or the service has no endpoint)"
        )
    everything = frozenset(range(len(search.changes)))
    edits: list[Edit] = []
    for component in _components(cands, search.reqs, len(search.changes)):
        found = search.search(cands, component, max_edits)
        if found is None:
            names = ", ".join(f"{search.changes[i].source} -> {search.changes[i].target}" for i in sorted(component))
            moved = ", ".join(f"{s} -> {t}" for s, t, _ in search.collateral[:6])
            hint = f" (the lightest repairs also change {moved}; state those probes in the intent)" if moved else ""
            raise NoPlan(f"no set of at most {max_edits} candidate edits repairs {names} without moving another probe{hint}")
        edits.extend(found)
    if not search.reaches(edits, everything):
        joint = search.search(cands, everything, max_edits)
        if joint is None:
            raise NoPlan("the per-component repairs interfere and no joint edit set reaches the intent")
        edits = list(joint)
    final = tuple(sorted(search.prune(tuple(edits), everything), key=edit_sort_key))
    after = search.run(final)
    if after != intent.desired:
        raise NoPlan("internal check failed: the plan does not reproduce the intent")
    return Plan(final, _patches(search.objects, final), search.current, after, search.changes, dns)


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
