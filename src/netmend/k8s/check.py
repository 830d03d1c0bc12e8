"""Checking intent assertions against a cluster: which hold, which fail, and why.

Each :class:`~netmend.k8s.intent_code.Assertion` expands to the connections it
selects. Pod-to-pod connections are decided by :mod:`netmend.k8s.decide`
(per pair of indistinguishable pod classes, so wide wildcards stay cheap);
connections to Services are probed as ``k8s probe`` does. A failing assertion
carries witnesses (the first failing connections, each with the decision
chain and the policies behind it) and the failing connections restated as
probe cells ``(source, service:port, wanted)``, the form the repair planner
takes. The result is data; rendering lives in :mod:`netmend.k8s.reports`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from netmend.k8s.decide import (
    allowed,
    allowed_ports,
    allowed_ports_external,
    connection_verdict,
    decision_chain,
    external_verdict,
    pod_classes,
)
from netmend.k8s.errors import K8sError
from netmend.k8s.intent_code import (
    AddressSelection,
    Assertion,
    IntentContradiction,
    PodSelection,
    ServiceSelection,
    shared_ports,
)
from netmend.k8s.model import ADMIN_TIER, BASELINE_TIER, Cluster, LabelSelector, Service
from netmend.k8s.portset import MAX_PORT, MIN_PORT, PortRange, PortSet
from netmend.k8s.probe import DNS_PROTOCOL, PROBE_PROTOCOL, Prober
from netmend.k8s.semantics import EGRESS, INGRESS, TIER_NETWORK_POLICY, Simulator, Snapshot, Verdict

MAX_WITNESSES = 3
# Port lists this short are decided port by port (a yes/no per port), longer ones as port sets.
MAX_POINTS = 16


class SelectionError(K8sError, ValueError):
    """An assertion selects no connection in this cluster (a typo, never a vacuous pass)."""

    def __init__(self, assertion: Assertion, expected: str):
        self.assertion, self.line = assertion, assertion.line
        where = f"line {assertion.line}: " if assertion.line else ""
        super().__init__(
            f"{where}assertion {assertion.name!r} ({assertion.describe()}): expected {expected}, found none"
        )


@dataclass(frozen=True)
class Witness:
    """One failing connection: where, on which ports, and what decides it.

    ``explanation`` is the verdict in one line; ``chain`` the whole decision
    chain (every tier of both directions, each rule and why it matched or not).
    """

    source: str
    target: str
    ports: str
    explanation: str
    policies: tuple[str, ...] = ()
    chain: tuple[str, ...] = ()


@dataclass(frozen=True)
class Suggestion:
    """A repair proposed for a failing assertion, or why there is none.

    ``breaks`` names the assertions that hold now and would fail after it
    (the intent contradicts itself, or the repair is wider than the probes).
    """

    edits: tuple[str, ...] = ()
    diff: str = ""
    commands: tuple[str, ...] = ()
    reason: str = ""
    breaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class AssertionResult:
    """The outcome of one assertion.

    ``probes`` are the failing connections as probe cells with the wanted
    value; ``unprobed`` counts failing (source workload, target pod) pairs
    whose failing ports no Service port stands for (the planner repairs probe
    cells only).
    """

    assertion: Assertion
    checked: int
    failing: int
    witnesses: tuple[Witness, ...] = ()
    probes: tuple[tuple[str, str, bool], ...] = ()
    unprobed: int = 0

    @property
    def holds(self) -> bool:
        """True when no selected connection contradicts the assertion."""
        return self.failing == 0


def complement(ports: PortSet) -> PortSet:
    """Every (protocol, port) not in ``ports``.

    Examples
    --------
    >>> from netmend.k8s.portset import PortRange
    >>> str(complement(PortSet.of([PortRange("TCP", 1, 79)])) & PortSet.of([PortRange("TCP", 1, 100)]))
    'TCP 80-100'
    """
    out: dict[str, list[tuple[int, int]]] = {}
    for proto, full in PortSet.all().parts:
        gaps, start = [], full[0][0]
        for lo, hi in ports.intervals(proto):
            if lo > start:
                gaps.append((start, lo - 1))
            start = hi + 1
        if start <= MAX_PORT:
            gaps.append((start, MAX_PORT))
        out[proto] = [g for g in gaps if g[0] >= MIN_PORT]
    return PortSet._build(out)


def minus(a: PortSet, b: PortSet) -> PortSet:
    """``a`` without ``b``."""
    return a & complement(b)


def probe_source_name(namespace: str, workload: str) -> str:
    """How probes name a source: the workload in ``default``, else ``namespace/workload``."""
    return workload if namespace == "default" else f"{namespace}/{workload}"


def probe_target_name(service: Service, port: int, source_namespace: str) -> str:
    """How probes name a target: ``svc:port`` in the source's namespace, else ``svc.ns:port``."""
    name = service.name if service.namespace == source_namespace else f"{service.name}.{service.namespace}"
    return f"{name}:{port}"


def deciding_policies(verdict: Verdict, want_allowed: bool) -> tuple[str, ...]:
    """The policies that make a verdict contradict the wanted value.

    On each side that decides against the wish: the admin or baseline policy
    whose rule decided, or in the NetworkPolicy tier the policies isolating
    the pod (a connection wanted but denied) or those whose rules admit it
    (wanted denied but allowed). A side left to the default decides by no
    policy.
    """
    out: set[str] = set()
    for side in (verdict.egress, verdict.ingress):
        if side is None or side.allowed != (not want_allowed):
            continue
        tier = side.tier
        if tier == ADMIN_TIER and side.admin is not None:
            out.add(side.admin.policy)
        elif tier == BASELINE_TIER and side.baseline is not None:
            out.add(side.baseline.policy)
        elif tier == TIER_NETWORK_POLICY:
            out.update(side.policies if not side.allowed else (ref.policy for ref in side.allowed_by))
    return tuple(sorted(out))


class _Context:
    """The cluster indexed once for every assertion of one check."""

    def __init__(self, cluster: Cluster, dns: bool):
        self.cluster, self.dns = cluster, dns
        self.verbose = False  # decision chains name the policies that do not select the pod too
        self.sim = Simulator(cluster)
        self.snap: Snapshot = self.sim.snapshot()
        self.ns_labels = {n.name: dict(n.labels) for n in cluster.namespaces}
        self.class_of: dict[int, int] = {}
        for number, members in enumerate(pod_classes(self.snap)):
            for pod in members:
                self.class_of[pod] = number
        self._conns: dict[tuple[int, int], PortSet] = {}
        self._first: dict[tuple[str, str], int] = {}
        for i, pod in enumerate(self.sim.pods):
            key = (pod.namespace, pod.workload)
            if key not in self._first or pod.name < self.sim.pods[self._first[key]].name:
                self._first[key] = i
        self._selected = {
            s.key: self.sim.select_pods(LabelSelector(match_labels=s.selector), s.namespace)
            for s in cluster.services if s.selector is not None
        }

    def conns(self, src: int, dst: int) -> PortSet:
        key = (self.class_of[src], self.class_of[dst])
        hit = self._conns.get(key)
        if hit is None:
            hit = self._conns[key] = allowed_ports(self.snap, src, dst)
        return hit

    def pods(self, selection) -> list[int]:
        return [
            i for i, p in enumerate(self.sim.pods)
            if selection.matches(p.namespace, self.ns_labels.get(p.namespace, {}), dict(p.labels), p.workload)
        ]

    def outside_cells(self, assertion: Assertion, services: list[Service]) -> list[tuple[str, str]]:
        """Probes from an outside address: to LoadBalancer ports and nodePorts."""
        assert isinstance(assertion.source, AddressSelection)
        cells = []
        for svc in services:
            if not svc.is_external:
                continue
            for sp in svc.ports:
                if sp.protocol != PROBE_PROTOCOL:
                    continue
                ports = ([sp.port] if svc.type == "LoadBalancer" else []) + ([sp.node_port] if sp.node_port else [])
                for port in ports:
                    if not assertion.ports or assertion.ports.contains(PROBE_PROTOCOL, port):
                        cells.append((assertion.source.address, f"{svc.name}.{svc.namespace}:{port}"))
        return cells

    def service_cells(self, assertion: Assertion) -> list[tuple[str, str]]:
        target = assertion.target
        assert isinstance(target, ServiceSelection)
        services = [
            s for s in self.cluster.services if s.selector is not None and target.matches(s.name, s.namespace)
        ]
        if isinstance(assertion.source, AddressSelection):
            return self.outside_cells(assertion, services)
        sources = sorted({(self.sim.pods[i].namespace, self.sim.pods[i].workload) for i in self.pods(assertion.source)})
        cells = []
        for namespace, workload in sources:
            first = self._first[(namespace, workload)]
            for svc in services:
                if first in self._selected[svc.key]:
                    continue  # a workload's own Service
                for sp in svc.ports:
                    if sp.protocol != PROBE_PROTOCOL:
                        continue
                    if assertion.ports and not assertion.ports.contains(PROBE_PROTOCOL, sp.port):
                        continue
                    cells.append((probe_source_name(namespace, workload), probe_target_name(svc, sp.port, namespace)))
        return cells

    def probes_for(self, src: int, dst: int, failing: PortSet, want: bool) -> tuple[list[tuple[str, str, bool]], bool]:
        """Probe cells standing for the failing ports of ``src -> dst``, and whether they cover them all."""
        source = self.sim.pods[src]
        covered = PortSet()
        cells = []
        for svc in self.cluster.services:
            if svc.selector is None or dst not in self._selected[svc.key] or src in self._selected[svc.key]:
                continue
            for sp in svc.ports:
                if sp.protocol != PROBE_PROTOCOL:
                    continue
                if isinstance(sp.target_port, int):
                    pod_port = sp.target_port
                else:
                    named = self.sim.named_ports[dst].get(sp.target_port)
                    if named is None or named[0] != PROBE_PROTOCOL:
                        continue
                    pod_port = named[1]
                if failing.contains(PROBE_PROTOCOL, pod_port):
                    cells.append((probe_source_name(source.namespace, source.workload),
                                  probe_target_name(svc, sp.port, source.namespace), want))
                    covered = covered | PortSet.of([PortRange(PROBE_PROTOCOL, pod_port, pod_port)])
        return cells, not minus(failing, covered)


def _dedupe(items: Iterable) -> list:
    return list(dict.fromkeys(items))


def check(
    cluster: Cluster,
    assertions: Sequence[Assertion],
    *,
    dns: bool = True,
    max_witnesses: int = MAX_WITNESSES,
    verbose: bool = False,
) -> tuple[AssertionResult, ...]:
    """Evaluate ``assertions`` on ``cluster`` under its own policies.

    ``verbose``: the witnesses' decision chains also name every policy that
    does not select the pod.

    Raises
    ------
    SelectionError
        When an assertion selects no connection.
    IntentContradiction
        When an allow and a deny assertion select a common connection, also once
        Service targets are resolved to their endpoint pods and ports.
    ProbeError
        When a probe cell names an unknown source, Service or port.
    """
    ctx = _Context(cluster, dns)
    ctx.verbose = verbose
    expanded: list[list[tuple[str, str]] | None] = []
    for a in assertions:
        if a.cells:
            expanded.append(list(a.cells))
        elif isinstance(a.target, ServiceSelection):
            cells = ctx.service_cells(a)
            if not cells:
                if isinstance(a.source, AddressSelection):
                    raise SelectionError(a, "a LoadBalancer port or nodePort of a selected Service")
                raise SelectionError(a, "a source workload and a TCP port of a selected Service (not its own)")
            expanded.append(cells)
        else:
            expanded.append(None)
    all_cells = _dedupe(c for cells in expanded if cells for c in cells)
    prober = actual = None
    landing: dict[tuple[str, str], tuple] = {}
    if all_cells:
        grouped: dict[str, list[str]] = {}
        for source, target in all_cells:
            grouped.setdefault(source, []).append(target)
        outside = {a.source.address: a.source.address for a in assertions if isinstance(a.source, AddressSelection)}
        prober = Prober(cluster, grouped.items(), dns=dns, externals=outside)
        for (kind, src, endpoints), members in prober.connections().items():
            for member in members:
                landing[member] = (kind, src, endpoints)
    contradiction = _contradiction(ctx, assertions, expanded)
    if contradiction is None and prober is not None:
        contradiction = _service_contradiction(ctx, assertions, expanded, landing, prober.dns_endpoints)
    if contradiction is not None:
        raise contradiction
    if prober is not None:
        actual = {(s, t): v for s, row in prober.run().rows for t, v in row}
    out = []
    for a, cells in zip(assertions, expanded, strict=True):
        if cells is None:
            if isinstance(a.source, AddressSelection) or isinstance(a.target, AddressSelection):
                out.append(_check_address(ctx, a, max_witnesses))
            else:
                out.append(_check_pods(ctx, a, max_witnesses))
            continue
        assert prober is not None and actual is not None
        failing = [(s, t) for s, t in cells if actual[(s, t)] != a.allow]
        witnesses = []
        for s, t in failing[:max_witnesses]:
            policies: set[str] = set()
            chain: tuple[str, ...] = ()
            if (s, t) in landing:
                kind, src, endpoints = landing[(s, t)]
                for pod, port in endpoints:
                    if kind == "address":
                        verdict = external_verdict(ctx.snap, pod, src, INGRESS, PROBE_PROTOCOL, port)
                    else:
                        verdict = connection_verdict(ctx.snap, src, pod, PROBE_PROTOCOL, port, via_service=True)
                    if verdict.allowed != a.allow:
                        policies.update(deciding_policies(verdict, a.allow))
                        if not chain:
                            chain = tuple(decision_chain(ctx.snap, src, pod, PROBE_PROTOCOL, port,
                                                         via_service=kind != "address").lines(ctx.verbose))
            witnesses.append(Witness(s, t, f"{PROBE_PROTOCOL} {t.rpartition(':')[2]}",
                                     str(prober.explain(s, t)), tuple(sorted(policies)), chain))
        out.append(AssertionResult(
            assertion=a, checked=len(cells), failing=len(failing), witnesses=tuple(witnesses),
            probes=tuple((s, t, a.allow) for s, t in failing),
        ))
    return tuple(out)


_NONE = PortSet()


def _contradiction(ctx: _Context, assertions, expanded) -> IntentContradiction | None:
    """An allow and a deny assertion that select a common connection on this cluster:
    a common probe cell, or (pod selections) a common pair of distinct pods with ports in
    common. Service cells against pod selections and each other, once resolved to the
    endpoints they land on: :func:`_service_contradiction`."""
    allowed: dict[tuple[str, str], Assertion] = {}
    for a, cells in zip(assertions, expanded, strict=True):
        if cells and a.allow:
            for cell in cells:
                allowed.setdefault(cell, a)
    for d, cells in zip(assertions, expanded, strict=True):
        if cells and not d.allow:
            for cell in cells:
                if cell in allowed:
                    return IntentContradiction(allowed[cell], d, f"{cell[0]} -> {cell[1]}")
    selections = [
        (a, set(ctx.pods(a.source)), set(ctx.pods(a.target)))
        for a, cells in zip(assertions, expanded, strict=True)
        if cells is None and isinstance(a.source, PodSelection) and isinstance(a.target, PodSelection)
    ]
    for a, a_src, a_dst in selections:
        if not a.allow:
            continue
        for d, d_src, d_dst in selections:
            shared = shared_ports(a.ports, d.ports) if not d.allow else None
            if shared is None:
                continue
            srcs, dsts = sorted(a_src & d_src), sorted(a_dst & d_dst)
            pair = next(((i, j) for i in srcs for j in dsts if i != j), None)
            if pair is not None:
                pods = ctx.sim.pods
                return IntentContradiction(a, d, f"{pods[pair[0]].key} -> {pods[pair[1]].key} on {shared}")
    return None


@dataclass(frozen=True)
class _PodRule:
    """What a pod-target assertion fixes: every connection from ``sources`` (pods, or one
    outside address) to ``targets`` on ``ports`` (empty: every port) is allowed, or none is."""

    assertion: Assertion
    sources: frozenset[int] | str
    targets: frozenset[int]
    ports: PortSet

    def covers(self, source: int | str, pod: int, protocol: str, port: int) -> bool:
        if isinstance(self.sources, str):
            if self.sources != source:
                return False
        elif source not in self.sources or source == pod:  # a pod's traffic to itself is never counted
            return False
        return pod in self.targets and (not self.ports or self.ports.contains(protocol, port))


def _first(rules: Sequence[_PodRule], source: int | str, pod: int, protocol: str, port: int) -> Assertion | None:
    return next((r.assertion for r in rules if r.covers(source, pod, protocol, port)), None)


def _service_contradiction(ctx: _Context, assertions, expanded, landing, dns_endpoints) -> IntentContradiction | None:
    """Service assertions against pod assertions and each other, with every Service target
    resolved to the endpoint pods and ports it lands on (what policies see, after DNAT).

    A probe to a Service holds when the source resolves the name (a kube-dns endpoint on
    UDP 53, when DNS is modelled) and reaches at least one endpoint. So, per source pod
    (or arriving address):

    * an allowed probe contradicts deny assertions that cover every kube-dns endpoint,
      or every endpoint of its Service (a denied probe of the same source covers its
      endpoints, since the allowed one makes DNS work);
    * a denied probe contradicts an allow assertion on one of its endpoints once DNS
      must work (DNS not modelled, an allowed probe of the same source, or an allow
      assertion on a kube-dns endpoint): it can then fail in no other way.

    A Service without endpoints decides nothing here (its probe fails on any policies).
    """
    pods = ctx.sim.pods
    rules: dict[bool, list[_PodRule]] = {True: [], False: []}
    for a, cells in zip(assertions, expanded, strict=True):
        if cells is not None or not isinstance(a.target, PodSelection):
            continue
        if isinstance(a.source, AddressSelection):
            sources: frozenset[int] | str = a.source.address
        else:
            sources = frozenset(ctx.pods(a.source))
        rules[a.allow].append(_PodRule(a, sources, frozenset(ctx.pods(a.target)), a.ports))
    # Probes by where they come from: (kind, source) -> allow/deny -> [(assertion, cell, endpoints)].
    probes: dict[tuple[str, int | str], dict[bool, list]] = {}
    for a, cells in zip(assertions, expanded, strict=True):
        for cell in cells or ():
            kind, src, endpoints = landing.get(cell, ("pod", None, ()))
            if src is not None:
                probes.setdefault((kind, src), {True: [], False: []})[a.allow].append((a, cell, endpoints))

    def lands(endpoints) -> str:
        return " or ".join(f"{pods[pod].key} {PROBE_PROTOCOL} {port}" for pod, port in endpoints)

    for (kind, src), by in probes.items():
        allowed_probes, denied_probes = by[True], by[False]
        dns_allower = None
        if kind == "pod" and dns_endpoints:
            deniers = [_first(rules[False], src, pod, DNS_PROTOCOL, port) for pod, port in dns_endpoints]
            if allowed_probes and all(deniers):
                a, cell, _ = allowed_probes[0]
                where = (f"{cell[0]} -> {cell[1]}, which needs DNS from {pods[src].key}: "
                         + " or ".join(f"{pods[pod].key} {DNS_PROTOCOL} {port}" for pod, port in dns_endpoints))
                return IntentContradiction(a, deniers[0], where, others=tuple(deniers[1:]))
            dns_allower = next((x for pod, port in dns_endpoints
                                if (x := _first(rules[True], src, pod, DNS_PROTOCOL, port)) is not None), None)
        if kind != "pod" or not ctx.dns:
            dns_works = True
        else:  # without a kube-dns endpoint no name resolves: a denied probe holds on any policies
            dns_works = bool(dns_endpoints) and (bool(allowed_probes) or dns_allower is not None)
        if dns_works:
            for d, cell, endpoints in denied_probes:
                for pod, port in endpoints:
                    a = _first(rules[True], src, pod, PROBE_PROTOCOL, port)
                    if a is not None:
                        why = (allowed_probes[0][0],) if allowed_probes else (dns_allower,) if dns_allower else ()
                        where = f"{cell[0]} -> {cell[1]}, which lands on {pods[pod].key} {PROBE_PROTOCOL} {port}"
                        return IntentContradiction(a, d, where, others=why)
        for a, cell, endpoints in allowed_probes:
            if not endpoints:
                continue
            deniers = []
            for pod, port in endpoints:
                d = _first(rules[False], src, pod, PROBE_PROTOCOL, port) or next(
                    (y for y, _, theirs in denied_probes if (pod, port) in theirs), None)
                if d is None:
                    break
                deniers.append(d)
            else:
                where = f"{cell[0]} -> {cell[1]}, which lands on {lands(endpoints)}"
                return IntentContradiction(a, deniers[0], where, others=tuple(deniers[1:]))
    return None


def _points(ports: PortSet) -> list[tuple[str, int]] | None:
    """Every (protocol, port) of a short port list, or ``None`` when it is long."""
    if sum(r.end - r.start + 1 for r in ports.ranges()) > MAX_POINTS:
        return None
    return [(r.protocol, port) for r in ports.ranges() for port in range(r.start, r.end + 1)]


def _check_pods(ctx: _Context, a: Assertion, max_witnesses: int) -> AssertionResult:
    pods = ctx.sim.pods
    want = a.ports or PortSet.all()
    points = _points(want)
    by_class_src: dict[int, list[int]] = {}
    by_class_dst: dict[int, list[int]] = {}
    for i in ctx.pods(a.source):
        by_class_src.setdefault(ctx.class_of[i], []).append(i)
    for j in ctx.pods(a.target):
        by_class_dst.setdefault(ctx.class_of[j], []).append(j)
    checked = failing = 0
    # Pods of one class get one answer, so each pair of classes is decided once.
    bad_pairs: list[tuple[list[int], list[int], PortSet]] = []
    for cs, srcs in sorted(by_class_src.items()):
        for ct, dsts in sorted(by_class_dst.items()):
            same = len(set(srcs) & set(dsts)) if cs == ct else 0
            count = len(srcs) * len(dsts) - same
            if count == 0:
                continue
            checked += count
            src = srcs[0]
            dst = next(j for j in dsts if j != src)
            if points is not None:
                wrong = [(proto, port) for proto, port in points if allowed(ctx.snap, src, dst, proto, port) != a.allow]
                bad = PortSet.of(PortRange(proto, port, port) for proto, port in wrong) if wrong else _NONE
            else:
                conns = ctx.conns(src, dst)
                bad = minus(want, conns) if a.allow else want & conns
            if bad:
                failing += count
                bad_pairs.append((srcs, dsts, bad))
    if not checked:
        raise SelectionError(a, "a pair of distinct pods matching 'from' and 'to'")
    candidates = []
    for srcs, dsts, bad in bad_pairs:  # the first failing pairs of each class pair, then overall
        firsts = []
        for i in sorted(srcs, key=lambda k: pods[k].key):
            for j in sorted(dsts, key=lambda k: pods[k].key):
                if i != j:
                    firsts.append((pods[i].key, pods[j].key, i, j, bad))
                    if len(firsts) >= max_witnesses:
                        break
            if len(firsts) >= max_witnesses:
                break
        candidates.extend(firsts)
    witnesses = []
    for src_key, dst_key, src, dst, bad in sorted(candidates, key=lambda c: (c[0], c[1]))[:max_witnesses]:
        first = bad.ranges()[0]
        verdict = connection_verdict(ctx.snap, src, dst, first.protocol, first.start)
        witnesses.append(Witness(
            src_key, dst_key, str(bad), f"{first.protocol}/{first.start}: {verdict.explain()}",
            deciding_policies(verdict, a.allow),
            tuple(decision_chain(ctx.snap, src, dst, first.protocol, first.start).lines(ctx.verbose)),
        ))
    probes: list[tuple[str, str, bool]] = []
    unprobed = 0
    for srcs, dsts, bad in bad_pairs:
        # A probe runs from a workload's first pod: one source pod per workload stands for it.
        workloads: dict[tuple[str, str], int] = {}
        for i in srcs:
            workloads.setdefault((pods[i].namespace, pods[i].workload), i)
        for src in workloads.values():
            for dst in dsts:
                if dst == src:
                    continue
                cells, complete = ctx.probes_for(src, dst, bad, a.allow)
                probes.extend(cells)
                unprobed += not complete
    return AssertionResult(
        assertion=a, checked=checked, failing=failing, witnesses=tuple(witnesses),
        probes=tuple(_dedupe(probes)), unprobed=unprobed,
    )


def _check_address(ctx: _Context, a: Assertion, max_witnesses: int) -> AssertionResult:
    """Pods and one address outside the cluster: only the pods' side decides."""
    pods = ctx.sim.pods
    want = a.ports or PortSet.all()
    if isinstance(a.source, AddressSelection):
        address, direction, chosen = a.source.address, INGRESS, ctx.pods(a.target)
    else:
        assert isinstance(a.target, AddressSelection)
        address, direction, chosen = a.target.address, EGRESS, ctx.pods(a.source)
    if not chosen:
        raise SelectionError(a, "a pod matching the selection")
    failures = []
    decided: dict[int, PortSet] = {}
    for pod in sorted(chosen, key=lambda i: pods[i].key):
        key = ctx.class_of[pod]
        if key not in decided:
            conns = allowed_ports_external(ctx.snap, pod, address, direction)
            decided[key] = minus(want, conns) if a.allow else want & conns
        if decided[key]:
            failures.append((pod, decided[key]))
    witnesses = []
    for pod, bad in failures[:max_witnesses]:
        first = bad.ranges()[0]
        verdict = external_verdict(ctx.snap, pod, address, direction, first.protocol, first.start)
        ends = (pods[pod].key, f"address {address}")
        source, target = ends if direction == EGRESS else ends[::-1]
        chain_ends = (pod, address) if direction == EGRESS else (address, pod)
        chain = decision_chain(ctx.snap, *chain_ends, first.protocol, first.start).lines(ctx.verbose)
        witnesses.append(Witness(source, target, str(bad), f"{first.protocol}/{first.start}: {verdict.explain()}",
                                 deciding_policies(verdict, a.allow), tuple(chain)))
    return AssertionResult(assertion=a, checked=len(chosen), failing=len(failures), witnesses=tuple(witnesses),
                           unprobed=len(failures))
