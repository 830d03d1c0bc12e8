"""Probe matrices: source workload -> ``service:port``, as NetArena probes them.

A probe is ``nc -z <service> <port>`` run in the first pod of the source
workload: TCP to the service's ClusterIP, forwarded by kube-proxy to an
endpoint pod on the port's ``targetPort`` (a name resolves on each endpoint
pod). With DNS modelling on, the service name must first resolve: the
source must reach a kube-dns endpoint on UDP 53 (the resolver's transport),
which its egress and kube-dns's ingress can both forbid.

The truth table is a :class:`Matrix` (ordered sources, each with ordered
``(target, reachable)`` cells); the expected matrix and the probed one share
that type, and :func:`compare` yields :class:`Mismatch` lines in NetArena's
format.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from netmend.k8s.cluster import KUBE_DNS_NAMESPACE, KUBE_DNS_SERVICE, NODE_ADDRESS
from netmend.k8s.errors import MismatchParseError, ProbeError
from netmend.k8s.model import Cluster, LabelSelector, NetworkPolicy, Service
from netmend.k8s.semantics import DEFAULT_SEMANTICS, Semantics, Simulator, Snapshot

ARROW = "\u2192"
NO_MISMATCHES = "No mismatches found."
PROBE_PROTOCOL = "TCP"  # nc -z opens TCP connections
DNS_PROTOCOL, DNS_PORT = "UDP", 53
_TARGET = re.compile(
    r"^(?P<service>[a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.(?P<ns>[a-z0-9]([-a-z0-9]*[a-z0-9])?))?:(?P<port>[0-9]{1,5})$"
)
_MISMATCH = re.compile(
    rf"^Mismatch: (?P<source>\S+) {ARROW} (?P<target>\S+) "
    r"\(Expected: (?P<expected>True|False), Actual: (?P<actual>True|False)\)$"
)

Row = tuple[str, tuple[tuple[str, bool], ...]]


@dataclass(frozen=True)
class Matrix:
    """An ordered truth table: ``rows[i] = (source, ((target, reachable), ...))``.

    Examples
    --------
    >>> m = Matrix.from_dict({"web": {"db:5432": True, "cache:6379": False}})
    >>> m.get("web", "db:5432"), m.sources, m.to_dict()["web"]["cache:6379"]
    (True, ('web',), False)
    """

    rows: tuple[Row, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, bool]]) -> Matrix:
        """Build from ``{source: {target: bool}}``, keeping insertion order."""
        rows = []
        for source, cells in data.items():
            if not isinstance(cells, Mapping):
                raise ProbeError(
                    f"matrix row {source!r}: expected a mapping of target to true/false"
                )
            for target, value in cells.items():
                if not isinstance(value, bool):
                    raise ProbeError(
                        f"matrix cell {source} {ARROW} {target}: expected true or false, got {value!r}"
                    )
                parse_target(target)
            rows.append((str(source), tuple((str(t), v) for t, v in cells.items())))
        return cls(tuple(rows))

    def to_dict(self) -> dict[str, dict[str, bool]]:
        """``{source: {target: bool}}`` in row order."""
        return {source: dict(cells) for source, cells in self.rows}

    @property
    def sources(self) -> tuple[str, ...]:
        """Sources in row order."""
        return tuple(source for source, _ in self.rows)

    def probes(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The probe set: each source with its targets, in order."""
        return tuple((source, tuple(t for t, _ in cells)) for source, cells in self.rows)

    def get(self, source: str, target: str) -> bool:
        """The cell ``source -> target``; ``KeyError`` when not probed."""
        for src, cells in self.rows:
            if src == source:
                for tgt, value in cells:
                    if tgt == target:
                        return value
        raise KeyError(f"{source} {ARROW} {target} is not in the matrix")

    def count(self, value: bool = True) -> int:
        """How many cells hold ``value``."""
        return sum(v == value for _, cells in self.rows for _, v in cells)


@dataclass(frozen=True)
class Target:
    """A parsed probe target ``service[.namespace]:port``."""

    service: str
    namespace: str | None
    port: int


@functools.lru_cache(maxsize=65536)
def parse_target(text: str) -> Target:
    """Parse ``service:port`` or ``service.namespace:port``.

    Examples
    --------
    >>> parse_target("redis-cart:6379")
    Target(service='redis-cart', namespace=None, port=6379)
    """
    m = _TARGET.match(text)
    if not m or not 1 <= int(m["port"]) <= 65535:
        raise ProbeError(
            f"probe target {text!r}: expected service[.namespace]:port with port 1..65535"
        )
    return Target(service=m["service"], namespace=m["ns"], port=int(m["port"]))


@dataclass(frozen=True)
class Mismatch:
    """One probe whose outcome differs from the expected one."""

    source: str
    target: str
    expected: bool
    actual: bool

    def __str__(self) -> str:
        return (
            f"Mismatch: {self.source} {ARROW} {self.target} "
            f"(Expected: {self.expected}, Actual: {self.actual})"
        )


def compare(expected: Matrix, actual: Matrix) -> tuple[Mismatch, ...]:
    """Mismatches in expected order; a cell ``actual`` lacks is an error."""
    out = []
    actual_rows = {source: dict(cells) for source, cells in actual.rows}
    for source, cells in expected.rows:
        row = actual_rows.get(source, {})
        for target, want in cells:
            if target not in row:
                raise ProbeError(f"{source} {ARROW} {target} was expected but not probed")
            if row[target] != want:
                out.append(Mismatch(source, target, want, row[target]))
    return tuple(out)


def mismatch_summary(mismatches: Iterable[Mismatch]) -> str:
    """NetArena's summary: one line per mismatch, or ``No mismatches found.``."""
    lines = [str(m) for m in mismatches]
    return "\n".join(lines) if lines else NO_MISMATCHES


def parse_mismatches(text: str) -> tuple[Mismatch, ...]:
    """Read a mismatch summary back (blank lines ignored).

    Examples
    --------
    >>> s = str(Mismatch("frontend", "adservice:9555", True, False))
    >>> parse_mismatches(s)[0] == Mismatch("frontend", "adservice:9555", True, False)
    True
    >>> parse_mismatches("No mismatches found.")
    ()
    """
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line == NO_MISMATCHES:
            continue
        m = _MISMATCH.match(line)
        if not m:
            raise MismatchParseError(
                f"line {number}: expected 'Mismatch: SRC {ARROW} SERVICE:PORT "
                f"(Expected: True|False, Actual: True|False)', got {line!r}"
            )
        out.append(
            Mismatch(m["source"], m["target"], m["expected"] == "True", m["actual"] == "True")
        )
    return tuple(out)


@dataclass(frozen=True)
class ProbeExplanation:
    """Why one probe succeeds or fails, step by step."""

    source_pod: str
    reachable: bool
    steps: tuple[str, ...]

    def __str__(self) -> str:
        return "; ".join(self.steps)


class Prober:
    """Runs a fixed probe set against any policy set of one cluster.

    Sources, services, endpoints and kube-dns are resolved once; each
    :meth:`run` compiles only policies it has not seen (by value), so a
    planner can re-simulate after every edit cheaply.

    Parameters
    ----------
    cluster : Cluster
        Pods, namespaces, services (and default policies).
    probes : iterable of (source, targets)
        E.g. ``Matrix.probes()`` of the expected matrix.
    dns : bool
        Model name resolution through kube-dns (needs ``kube-system/kube-dns``).
    semantics : Semantics
        Plugin-dependent choices.
    externals : mapping, optional
        Sources outside the cluster: name -> the address their probes come
        from. They reach NodePort and LoadBalancer Services only (target port:
        the Service port of a LoadBalancer, or a nodePort), resolve no name,
        and arrive with their own address when the Service's
        externalTrafficPolicy is ``Local``, else with the node's.
    """

    def __init__(
        self,
        cluster: Cluster,
        probes: Iterable[tuple[str, Iterable[str]]],
        *,
        dns: bool = True,
        semantics: Semantics = DEFAULT_SEMANTICS,
        externals: Mapping[str, str] | None = None,
    ):
        self.sim = Simulator(cluster, semantics)
        self.dns = dns
        self.externals = dict(externals or {})
        self._probes: list[tuple[str, int, list[tuple[str, tuple[tuple[int, int], ...]]]]] = []
        # External sources: (source, [(target, arriving address, endpoints)]).
        self._external: dict[str, list[tuple[str, object, tuple[tuple[int, int], ...]]]] = {}
        self._order: list[tuple[str, bool]] = []
        self._notes: dict[tuple[str, str], str] = {}
        # Many sources probe the same targets: resolve each (target, namespace) once.
        seen: dict[tuple[str, str], tuple[tuple[tuple[int, int], ...], str]] = {}
        for source, targets in probes:
            if source in self.externals:
                self._external[source] = [self._external_target(source, t) for t in targets]
                self._order.append((source, True))
                continue
            self._order.append((source, False))
            src = self._source_pod(source)
            namespace = self.sim.pods[src].namespace
            resolved = []
            for target in targets:
                key = (target, namespace)
                if key not in seen:
                    seen[key] = self._endpoints(parse_target(target), namespace)
                endpoints, note = seen[key]
                if note:
                    self._notes[(source, target)] = note
                resolved.append((target, endpoints))
            self._probes.append((source, src, resolved))
        self._dns_endpoints: tuple[tuple[int, int], ...] = ()
        if dns:
            try:
                svc = cluster.service(KUBE_DNS_SERVICE, KUBE_DNS_NAMESPACE)
            except KeyError:
                raise ProbeError(
                    f"DNS modelling needs the Service {KUBE_DNS_NAMESPACE}/{KUBE_DNS_SERVICE}; "
                    "add it to the manifests or turn DNS modelling off"
                ) from None
            self._dns_endpoints = self._service_endpoints(svc, DNS_PORT, DNS_PROTOCOL)

    def _external_target(
        self, source: str, target: str
    ) -> tuple[str, object, tuple[tuple[int, int], ...]]:
        """Where an outside client's probe lands: (target, address seen, endpoints)."""
        parsed = parse_target(target)
        namespace = parsed.namespace or "default"
        try:
            svc = self.sim.cluster.service(parsed.service, namespace)
        except KeyError:
            raise ProbeError(
                f"probe target {target}: no Service {namespace}/{parsed.service}"
            ) from None
        address = ipaddress.ip_address(
            self.externals[source] if svc.external_traffic_policy == "Local" else NODE_ADDRESS
        )
        endpoints: tuple[tuple[int, int], ...] = ()
        if svc.is_external:
            for sp in svc.ports:
                via_lb = svc.type == "LoadBalancer" and sp.port == parsed.port
                if sp.protocol == PROBE_PROTOCOL and (via_lb or sp.node_port == parsed.port):
                    endpoints = self._service_endpoints(svc, sp.port, PROBE_PROTOCOL)
                    break
        if not endpoints:
            self._notes[(source, target)] = (
                f"Service {svc.key} ({svc.type}) takes no outside connection on port {parsed.port}"
            )
        return target, address, endpoints

    def connections(self) -> dict[tuple, list[tuple[str, str]]]:
        """Probes that are one and the same connection, grouped: the same source
        pod (or arriving address) to the same endpoints on the same pod ports.
        No policy set can tell them apart (``svc:80`` and ``svc.ns:80``, a
        LoadBalancer port and its nodePort under ``Local``, two Services in
        front of the same pods)."""
        groups: dict[tuple, list[tuple[str, str]]] = {}
        for source, src, targets in self._probes:
            for target, endpoints in targets:
                groups.setdefault(("pod", src, endpoints), []).append((source, target))
        for source, targets in self._external.items():
            for target, ip, endpoints in targets:
                groups.setdefault(("address", str(ip), endpoints), []).append((source, target))
        return groups

    @property
    def dns_endpoints(self) -> tuple[tuple[int, int], ...]:
        """(pod index, pod port) of every kube-dns endpoint on UDP 53 (empty without DNS modelling)."""
        return self._dns_endpoints

    def outside(self, source: str) -> list[tuple[str, object, tuple[tuple[int, int], ...]]]:
        """An outside source's probes: (target, address the pods see, endpoints)."""
        return list(self._external.get(source, ()))

    def _source_pod(self, source: str) -> int:
        namespace, _, workload = source.rpartition("/")
        matches = [
            i
            for i, p in enumerate(self.sim.pods)
            if p.workload == workload and (not namespace or p.namespace == namespace)
        ]
        namespaces = sorted({self.sim.pods[i].namespace for i in matches})
        if not matches:
            raise ProbeError(f"probe source {source!r}: no pod of a workload named {workload!r}")
        if len(namespaces) > 1:
            if "default" not in namespaces:
                raise ProbeError(
                    f"probe source {source!r}: workloads of that name in namespaces "
                    f"{', '.join(namespaces)}; write namespace/{workload}"
                )
            matches = [i for i in matches if self.sim.pods[i].namespace == "default"]
        return min(matches, key=lambda i: self.sim.pods[i].name)

    def _service_endpoints(
        self, svc: Service, port: int, protocol: str
    ) -> tuple[tuple[int, int], ...]:
        """(pod index, pod port) of every endpoint serving ``port``/``protocol``."""
        out = []
        semantics = self.sim.semantics
        if protocol == "SCTP" and semantics.sctp == "no-service":
            return ()  # the plugin does not carry SCTP through Services
        for sp in svc.ports:
            if sp.port != port or sp.protocol != protocol:
                continue
            if svc.selector is None:
                continue
            for i in sorted(
                self.sim.select_pods(LabelSelector(match_labels=svc.selector), svc.namespace)
            ):
                if isinstance(sp.target_port, int):
                    landed = sp.target_port
                else:
                    named = self.sim.named_ports[i].get(sp.target_port)
                    if named is None or named[0] != protocol:
                        continue
                    landed = named[1]
                # Policies see the pod's port (after translation), or the Service's under that profile.
                out.append((i, sp.port if semantics.service_port == "service" else landed))
        return tuple(out)

    def _endpoints(self, target: Target, namespace: str) -> tuple[tuple[tuple[int, int], ...], str]:
        ns = target.namespace or namespace
        try:
            svc = self.sim.cluster.service(target.service, ns)
        except KeyError:
            raise ProbeError(
                f"probe target {target.service}:{target.port}: no Service {ns}/{target.service}"
            ) from None
        endpoints = self._service_endpoints(svc, target.port, PROBE_PROTOCOL)
        if endpoints:
            return endpoints, ""
        return (), f"Service {svc.key} has no {PROBE_PROTOCOL} endpoint on port {target.port}"

    def _dns_ok(self, snap: Snapshot, src: int) -> bool:
        return any(
            snap.allowed(src, pod, DNS_PROTOCOL, port, via_service=True) for pod, port in self._dns_endpoints
        )

    def run(self, policies: Iterable[NetworkPolicy] | None = None) -> Matrix:
        """Probe under ``policies`` (default: the cluster's own policies)."""
        snap = self.sim.snapshot(None if policies is None else tuple(policies))
        allowed = snap.allowed
        rows = []
        internal = iter(self._probes)
        for name, outside in self._order:
            if outside:
                rows.append(
                    (
                        name,
                        tuple(
                            (
                                target,
                                any(
                                    snap.allowed_from_address(ip, pod, PROBE_PROTOCOL, port)
                                    for pod, port in endpoints
                                ),
                            )
                            for target, ip, endpoints in self._external[name]
                        ),
                    )
                )
                continue
            source, src, targets = next(internal)
            if self.dns and not self._dns_ok(snap, src):
                rows.append((source, tuple((target, False) for target, _ in targets)))
                continue
            cells = []
            for target, endpoints in targets:
                ok = False
                for pod, port in endpoints:
                    if allowed(src, pod, PROBE_PROTOCOL, port, via_service=True):
                        ok = True
                        break
                cells.append((target, ok))
            rows.append((source, tuple(cells)))
        return Matrix(tuple(rows))

    def explain(
        self, source: str, target: str, policies: Iterable[NetworkPolicy] | None = None
    ) -> ProbeExplanation:
        """Why ``source -> target`` succeeds or fails under ``policies``."""
        snap = self.sim.snapshot(None if policies is None else tuple(policies))
        for tgt, ip, endpoints in self._external.get(source, ()):
            if tgt == target:
                steps = [self._notes[(source, target)]] if (source, target) in self._notes else []
                reachable = False
                for pod, port in endpoints:
                    verdict = snap.verdict_external(pod, str(ip), "Ingress", PROBE_PROTOCOL, port)
                    reachable = reachable or verdict.allowed
                    steps.append(
                        f"{PROBE_PROTOCOL}/{port} from {ip} to {self.sim.pods[pod].key}: {verdict.explain()}"
                    )
                return ProbeExplanation(source, reachable, tuple(steps))
        for name, src, targets in self._probes:
            if name != source:
                continue
            for tgt, endpoints in targets:
                if tgt == target:
                    return self._explain(snap, src, tgt, endpoints, (source, target))
        raise KeyError(f"{source} {ARROW} {target} is not in the probe set")

    def _explain(self, snap: Snapshot, src: int, target: str, endpoints, key) -> ProbeExplanation:
        steps = []
        pods = self.sim.pods
        if self.dns:
            dns_ok = False
            for pod, port in self._dns_endpoints:
                verdict = snap.verdict(src, pod, DNS_PROTOCOL, port, via_service=True)
                dns_ok = dns_ok or verdict.allowed
                steps.append(f"DNS {DNS_PROTOCOL}/{port} to {pods[pod].key}: {verdict.explain()}")
            if not self._dns_endpoints:
                steps.append("DNS: kube-dns has no endpoint")
            if not dns_ok:
                return ProbeExplanation(pods[src].key, False, tuple(steps))
        if key in self._notes:
            steps.append(self._notes[key])
        reachable = False
        for pod, port in endpoints:
            verdict = snap.verdict(src, pod, PROBE_PROTOCOL, port, via_service=True)
            reachable = reachable or verdict.allowed
            steps.append(f"{PROBE_PROTOCOL}/{port} to {pods[pod].key}: {verdict.explain()}")
        return ProbeExplanation(pods[src].key, reachable, tuple(steps))


def probe_matrix(
    cluster: Cluster,
    probes: Iterable[tuple[str, Iterable[str]]],
    *,
    dns: bool = True,
    semantics: Semantics = DEFAULT_SEMANTICS,
    externals: Mapping[str, str] | None = None,
) -> Matrix:
    """One-shot :class:`Prober` run with the cluster's own policies."""
    return Prober(cluster, probes, dns=dns, semantics=semantics, externals=externals).run()


def render_grid(actual: Matrix, expected: Matrix | None = None) -> str:
    """A compact grid: a row per source, a numbered column per target.

    Cells: ``1`` reachable, ``.`` blocked, ``X`` blocked but expected
    reachable, ``!`` reachable but expected blocked, blank not probed.
    """
    targets: list[str] = []
    for _, cells in actual.rows:
        for target, _ in cells:
            if target not in targets:
                targets.append(target)
    want = {(s, t): v for s, cells in (expected.rows if expected else ()) for t, v in cells}
    width = max((len(s) for s in actual.sources), default=6)
    cols = [str(i) for i in range(len(targets))]
    cw = max((len(c) for c in cols), default=1)
    lines = [" " * width + " " + " ".join(c.rjust(cw) for c in cols)]
    for source, cells in actual.rows:
        row = dict(cells)
        marks = []
        for target in targets:
            if target not in row:
                mark = " "
            elif (source, target) in want and want[(source, target)] != row[target]:
                mark = "!" if row[target] else "X"
            else:
                mark = "1" if row[target] else "."
            marks.append(mark.rjust(cw))
        lines.append(source.ljust(width) + " " + " ".join(marks))
    lines.append("")
    lines.extend(f"{c.rjust(cw)}: {t}" for c, t in zip(cols, targets, strict=True))
    lines.append(
        "1 reachable, . blocked, X blocked but expected reachable, ! reachable but expected blocked"
    )
    return "\n".join(lines)
