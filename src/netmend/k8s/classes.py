"""Pod equivalence classes, selectors evaluated per class, and port atoms.

At scale, pods that no policy can tell apart get one answer: this module
groups them and gives the matrix engine (:mod:`.scale`) its vocabulary.

- :class:`Vocabulary`: what a policy set looks at — pod label keys, port
  names, ipBlocks (when they cover pods).
- :class:`ClassIndex`: pods grouped by (namespace, labels on referenced keys,
  referenced named ports, ipBlocks holding the pod); namespace membership
  and selector matches as boolean arrays over classes, cached by value.
- :class:`PortAtoms`: the coarsest partition of (protocol, port) space in
  which every port set of the policies (and every named-port resolution) is
  a union of atoms, so a port set is a bit mask.

Everything here is pure: built from the model, no I/O.
"""

from __future__ import annotations

import bisect
import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from netmend.k8s.errors import K8sError
from netmend.k8s.model import (
    PROTOCOLS,
    AdminPeer,
    AdminPolicy,
    AdminSubject,
    Cluster,
    IPBlock,
    Labels,
    LabelSelector,
    NamespacedPods,
    NetworkPolicy,
    Peer,
)
from netmend.k8s.portset import MAX_PORT, MIN_PORT, PortRange, PortSet
from netmend.k8s.semantics import Semantics


class NotRepresentable(K8sError, ValueError):
    """A port set or selector the current classes or atoms cannot express exactly."""


@dataclass(frozen=True)
class Vocabulary:
    """What a policy set can see of a pod (beyond its namespace)."""

    label_keys: frozenset[str] = frozenset()
    port_names: frozenset[str] = frozenset()
    blocks: frozenset[IPBlock] = frozenset()

    @classmethod
    def of(
        cls,
        policies: Iterable[NetworkPolicy],
        semantics: Semantics,
        admin_policies: Iterable[AdminPolicy] = (),
    ) -> Vocabulary:
        """The vocabulary of ``policies`` (ipBlocks only when they cover pods)
        and ``admin_policies`` (their ``networks`` always cover pods)."""
        keys: set[str] = set()
        names: set[str] = set()
        blocks: set[IPBlock] = set()
        for admin in admin_policies:
            if admin.subject.pods is not None:
                keys.update(_selector_keys(admin.subject.pods.pod_selector))
            for direction in ("Ingress", "Egress"):
                for rule in admin.rules(direction):
                    for peer in rule.peers:
                        if peer.pods is not None:
                            keys.update(_selector_keys(peer.pods.pod_selector))
                        for cidr in peer.networks or ():
                            blocks.add(IPBlock(cidr))
                    names.update(port.named for port in rule.ports or () if port.named)
        for policy in policies:
            keys.update(_selector_keys(policy.pod_selector))
            for direction in policy.effective_types:  # a property: computed once per policy
                for rule in policy.rules(direction):
                    for peer in rule.peers or ():
                        if peer.ip_block is not None:
                            if semantics.ipblock_selects_pods:
                                blocks.add(peer.ip_block)
                        elif peer.pod_selector is not None:
                            keys.update(_selector_keys(peer.pod_selector))
                    for port in rule.ports or ():
                        if isinstance(port.port, str):
                            names.add(port.port)
        return cls(frozenset(keys), frozenset(names), frozenset(blocks))

    def covers(self, other: Vocabulary) -> bool:
        """Whether every reference of ``other`` is one of ours."""
        return (
            other.label_keys <= self.label_keys
            and other.port_names <= self.port_names
            and other.blocks <= self.blocks
        )


def _selector_keys(selector: LabelSelector) -> set[str]:
    return {k for k, _ in selector.match_labels} | {r.key for r in selector.match_expressions}


@dataclass(frozen=True)
class PodClass:
    """Pods no policy of the vocabulary can tell apart.

    ``labels`` and ``named_ports`` keep only referenced keys and names;
    ``pods`` are indices into ``Cluster.pods``.
    """

    namespace: str
    labels: Labels
    named_ports: tuple[tuple[str, str, int], ...]  # (name, protocol, port)
    blocks: tuple[bool, ...]
    pods: tuple[int, ...]
    host_network: bool = False


class _Blocks:
    """ipBlock membership of many addresses at once (IPv4 vectorised)."""

    def __init__(self, ips: list[str]):
        self.v4 = np.full(len(ips), -1, dtype=np.int64)
        self.v6: list[tuple[int, ipaddress.IPv6Address]] = []
        for i, ip in enumerate(ips):
            if not ip:
                continue
            parts = ip.split(".")
            # Plain dotted quads are the common case: parsed by hand, much faster
            # than ipaddress (bytes() refuses octets over 255; leading zeros and
            # anything else go to ipaddress, which decides).
            if (
                len(parts) == 4
                and "".join(parts).isdigit()
                and not any(len(x) > 1 and x[0] == "0" for x in parts)
            ):
                try:
                    self.v4[i] = int.from_bytes(bytes(map(int, parts)), "big")
                    continue
                except ValueError:
                    pass
            a = ipaddress.ip_address(ip)
            if a.version == 6:
                self.v6.append((i, a))
            else:
                self.v4[i] = int(a)

    def members(self, block: IPBlock) -> np.ndarray:
        """Boolean array: which addresses ``block`` holds (CIDR minus excepts)."""
        net = ipaddress.ip_network(block.cidr, strict=False)
        holes = [ipaddress.ip_network(e, strict=False) for e in block.excepts]
        if net.version == 4:
            inside = (self.v4 >= int(net[0])) & (self.v4 <= int(net[-1]))
            for hole in holes:
                if hole.version == 4:
                    inside &= ~((self.v4 >= int(hole[0])) & (self.v4 <= int(hole[-1])))
            return inside
        inside = np.zeros(len(self.v4), dtype=bool)
        for i, a in self.v6:
            inside[i] = a in net and not any(a in h for h in holes if h.version == 6)
        return inside


class ClassIndex:
    """The pods of a cluster grouped into classes, with selectors over classes.

    Parameters
    ----------
    cluster : Cluster
        Pods and namespaces (policies are not read).
    vocabulary : Vocabulary
        What the policies look at; classes are exact for any policy set whose
        vocabulary this one covers.

    Examples
    --------
    >>> from netmend.k8s.model import Pod
    >>> from netmend.k8s.cluster import build_cluster
    >>> c = build_cluster([Pod("a1", labels=(("app", "a"), ("v", "1"))),
    ...                    Pod("a2", labels=(("app", "a"), ("v", "2"))), Pod("b")])
    >>> idx = ClassIndex(c, Vocabulary(label_keys=frozenset({"app"})))
    >>> [cl.pods for cl in idx.classes]
    [(0, 1), (2,)]
    >>> idx.select(LabelSelector((("app", "a"),)), "default").tolist()
    [True, False]
    """

    def __init__(self, cluster: Cluster, vocabulary: Vocabulary):
        self.cluster = cluster
        self.vocabulary = vocabulary
        self.namespaces: tuple[str, ...] = tuple(ns.name for ns in cluster.namespaces)
        ns_pos = {n: i for i, n in enumerate(self.namespaces)}
        for pod in cluster.pods:
            if pod.namespace not in ns_pos:
                raise K8sError(f"pod {pod.key}: namespace {pod.namespace!r} is not in the cluster")
        blocks = sorted(vocabulary.blocks, key=lambda b: (b.cidr, b.excepts))
        self.blocks: tuple[IPBlock, ...] = tuple(blocks)
        addresses = _Blocks([p.ip for p in cluster.pods]) if blocks else None
        membership = [addresses.members(b) for b in blocks] if addresses else []
        keys, names = vocabulary.label_keys, vocabulary.port_names
        groups: dict[tuple, list[int]] = {}
        # Replicas repeat label and port tuples: project each distinct one once.
        seen_labels: dict[Labels, Labels] = {}
        seen_ports: dict[tuple, tuple[tuple[str, str, int], ...]] = {}
        held_rows = (
            list(zip(*(m.tolist() for m in membership), strict=True)) if membership else None
        )
        for i, pod in enumerate(cluster.pods):
            labels = seen_labels.get(pod.labels)
            if labels is None:
                labels = seen_labels[pod.labels] = tuple(kv for kv in pod.labels if kv[0] in keys)
            named = seen_ports.get(pod.ports)
            if named is None:
                named = seen_ports[pod.ports] = tuple(
                    sorted((cp.name, cp.protocol, cp.port) for cp in pod.ports if cp.name in names)
                )
            held = held_rows[i] if held_rows is not None else ()
            key = (pod.namespace, labels, named, held, pod.host_network)
            group = groups.get(key)
            if group is None:
                groups[key] = [i]
            else:
                group.append(i)
        self.classes: tuple[PodClass, ...] = tuple(
            PodClass(ns, labels, named, held, tuple(members), host)
            for (ns, labels, named, held, host), members in groups.items()
        )
        n = len(self.classes)
        self.size = n
        self.class_of = np.empty(len(cluster.pods), dtype=np.int32)
        for c, members in enumerate(groups.values()):
            self.class_of[members] = c
        self.weights = np.array([len(cl.pods) for cl in self.classes], dtype=np.int64)
        self.class_ns = np.array([ns_pos[cl.namespace] for cl in self.classes], dtype=np.int32)
        self._kv: dict[tuple[str, str], np.ndarray] = {}
        self._keys: dict[str, np.ndarray] = {}
        for c, cl in enumerate(self.classes):
            for key, value in cl.labels:
                if (key, value) not in self._kv:
                    self._kv[(key, value)] = np.zeros(n, dtype=bool)
                if key not in self._keys:
                    self._keys[key] = np.zeros(n, dtype=bool)
                self._kv[(key, value)][c] = True
                self._keys[key][c] = True
        self._ns_kv: dict[tuple[str, str], np.ndarray] = {}
        self._ns_keys: dict[str, np.ndarray] = {}
        m = len(self.namespaces)
        for j, ns in enumerate(cluster.namespaces):
            for key, value in ns.labels:
                if (key, value) not in self._ns_kv:
                    self._ns_kv[(key, value)] = np.zeros(m, dtype=bool)
                if key not in self._ns_keys:
                    self._ns_keys[key] = np.zeros(m, dtype=bool)
                self._ns_kv[(key, value)][j] = True
                self._ns_keys[key][j] = True
        # hostNetwork pods: no selector ever picks them (addresses still match blocks).
        self.selectable = ~np.array([cl.host_network for cl in self.classes], dtype=bool)
        self._in_ns: dict[str, np.ndarray] = {}
        self._block_pos = {b: k for k, b in enumerate(self.blocks)}
        self._cache: dict[tuple, np.ndarray] = {}
        self._none = np.zeros(n, dtype=bool)
        self._all = np.ones(n, dtype=bool)
        for arr in (self._none, self._all):
            arr.flags.writeable = False

    # -- selection -------------------------------------------------------------

    def in_namespace(self, namespace: str) -> np.ndarray:
        """Classes of ``namespace``."""
        hit = self._in_ns.get(namespace)
        if hit is None:
            pos = self.namespaces.index(namespace) if namespace in self.namespaces else -1
            hit = self.class_ns == pos
            hit.flags.writeable = False
            self._in_ns[namespace] = hit
        return hit

    @staticmethod
    def _evaluate(selector: LabelSelector, kv, keys, n: int) -> np.ndarray:
        none = np.zeros(n, dtype=bool)
        out = np.ones(n, dtype=bool)
        for key, value in selector.match_labels:
            out &= kv.get((key, value), none)
        for req in selector.match_expressions:
            if req.operator in ("In", "NotIn"):
                hit = np.zeros(n, dtype=bool)
                for value in req.values:
                    hit |= kv.get((req.key, value), none)
                out &= hit if req.operator == "In" else ~hit
            elif req.operator == "Exists":
                out &= keys.get(req.key, none)
            else:
                out &= ~keys.get(req.key, none)
        return out

    def select(self, selector: LabelSelector, namespace: str | None) -> np.ndarray:
        """Classes whose pods match ``selector`` (in ``namespace``; ``None``: anywhere)."""
        key = ("pods", selector, namespace)
        hit = self._cache.get(key)
        if hit is None:
            if not _selector_keys(selector) <= self.vocabulary.label_keys:
                raise NotRepresentable(f"selector {selector} reads labels the classes dropped")
            hit = self._evaluate(selector, self._kv, self._keys, self.size) & self.selectable
            if namespace is not None:
                hit &= self.in_namespace(namespace)
            hit.flags.writeable = False
            self._cache[key] = hit
        return hit

    def select_namespaces(self, selector: LabelSelector) -> np.ndarray:
        """Classes whose namespace matches ``selector``."""
        key = ("namespaces", selector)
        hit = self._cache.get(key)
        if hit is None:
            chosen = self._evaluate(selector, self._ns_kv, self._ns_keys, len(self.namespaces))
            hit = chosen[self.class_ns] if self.size else self._none.copy()
            hit.flags.writeable = False
            self._cache[key] = hit
        return hit

    def block(self, block: IPBlock) -> np.ndarray:
        """Classes whose pods an ipBlock holds."""
        key = ("block", block)
        hit = self._cache.get(key)
        if hit is None:
            pos = self._block_pos.get(block)
            if pos is None:
                raise NotRepresentable(f"ipBlock {block.cidr} is not part of the classes")
            hit = np.array([cl.blocks[pos] for cl in self.classes], dtype=bool)
            hit.flags.writeable = False
            self._cache[key] = hit
        return hit

    def peer(self, peer: Peer, namespace: str, blocks_select_pods: bool) -> np.ndarray:
        """Classes a ``from``/``to`` entry of a policy in ``namespace`` admits."""
        if peer.ip_block is not None:
            return self.block(peer.ip_block) if blocks_select_pods else self._none
        key = ("peer", peer, namespace if peer.namespace_selector is None else None)
        hit = self._cache.get(key)
        if hit is None:
            pods = self.select(peer.pod_selector or LabelSelector(), None)
            if peer.namespace_selector is None:
                hit = pods & self.in_namespace(namespace)
            else:
                hit = pods & self.select_namespaces(peer.namespace_selector)
            hit.flags.writeable = False
            self._cache[key] = hit
        return hit

    def namespaced(self, pods: NamespacedPods) -> np.ndarray:
        """Classes an admin ``pods`` selector matches (namespace AND pod selector)."""
        return self.select(pods.pod_selector, None) & self.select_namespaces(
            pods.namespace_selector
        )

    def admin_subject(self, subject: AdminSubject) -> np.ndarray:
        """Classes an admin policy applies to (never hostNetwork pods)."""
        if subject.namespaces is not None:
            return self.select_namespaces(subject.namespaces) & self.selectable
        return self.namespaced(subject.pods or NamespacedPods())

    def admin_peer(self, peer: AdminPeer) -> np.ndarray:
        """Classes one admin peer matches (``networks`` by address; nodes and
        domainNames match no pod)."""
        if peer.namespaces is not None:
            return self.select_namespaces(peer.namespaces) & self.selectable
        if peer.pods is not None:
            return self.namespaced(peer.pods)
        out = np.zeros(self.size, dtype=bool)
        for cidr in peer.networks or ():
            out |= self.block(IPBlock(cidr))
        return out

    @property
    def everything(self) -> np.ndarray:
        """Every class (read-only)."""
        return self._all

    @property
    def nothing(self) -> np.ndarray:
        """No class (read-only)."""
        return self._none


class PortAtoms:
    """A partition of (protocol, port) space; port sets built from its
    generators are bit masks over atoms.

    Examples
    --------
    >>> atoms = PortAtoms([PortRange("TCP", 80, 80), PortRange("TCP", 80, 90)])
    >>> len(atoms.atoms), [str(a) for a in atoms.atoms]
    (3, ['TCP 1-79,TCP 91-65535,UDP 1-65535,SCTP 1-65535', 'TCP 80', 'TCP 81-90'])
    >>> str(atoms.portset(atoms.mask(PortRange("TCP", 80, 90))))
    'TCP 80-90'
    """

    def __init__(self, generators: Iterable[PortRange]):
        gens = sorted(set(generators), key=lambda r: (PROTOCOLS.index(r.protocol), r.start, r.end))
        starts: dict[str, list[int]] = {}
        for proto in PROTOCOLS:
            points = {MIN_PORT}
            for g in gens:
                if g.protocol == proto:
                    points.add(g.start)
                    if g.end < MAX_PORT:
                        points.add(g.end + 1)
            starts[proto] = sorted(points)
        self._starts = starts
        self._offset: dict[str, int] = {}
        total = 0
        for proto in PROTOCOLS:
            self._offset[proto] = total
            total += len(starts[proto])
        # Elementary intervals, then their signature (which generators hold them).
        elementary: list[tuple[str, int, int]] = []
        for proto in PROTOCOLS:
            s = starts[proto]
            for k, lo in enumerate(s):
                hi = s[k + 1] - 1 if k + 1 < len(s) else MAX_PORT
                elementary.append((proto, lo, hi))
        signature = [0] * len(elementary)
        for g_id, g in enumerate(gens):
            for k in self._span(g):
                signature[k] |= 1 << g_id
        atom_of_sig: dict[int, int] = {}
        self.atom_of_elem: list[int] = []
        members: list[list[PortRange]] = []
        for k, (proto, lo, hi) in enumerate(elementary):
            atom = atom_of_sig.setdefault(signature[k], len(atom_of_sig))
            if atom == len(members):
                members.append([])
            members[atom].append(PortRange(proto, lo, hi))
            self.atom_of_elem.append(atom)
        self.atoms: tuple[PortSet, ...] = tuple(PortSet.of(m) for m in members)
        self.elementary = tuple(elementary)
        self._elem_count = [0] * len(self.atoms)
        for atom in self.atom_of_elem:
            self._elem_count[atom] += 1
        self.full = (1 << len(self.atoms)) - 1
        self._mask_cache: dict[PortRange, int] = {}
        self._set_cache: dict[int, PortSet] = {0: PortSet(), self.full: PortSet.all()}

    def _span(self, r: PortRange) -> range:
        """Indices of the elementary intervals making up ``r`` (it must align with them)."""
        s = self._starts[r.protocol]
        first = bisect.bisect_left(s, r.start)
        if first == len(s) or s[first] != r.start:
            raise NotRepresentable(f"{r} does not start on a port atom boundary")
        last = len(s)
        if r.end < MAX_PORT:
            last = bisect.bisect_left(s, r.end + 1)
            if last == len(s) or s[last] != r.end + 1:
                raise NotRepresentable(f"{r} does not end on a port atom boundary")
        offset = self._offset[r.protocol]
        return range(offset + first, offset + last)

    def mask(self, r: PortRange) -> int:
        """The atoms making up ``r``; :class:`NotRepresentable` when ``r`` splits one."""
        hit = self._mask_cache.get(r)
        if hit is None:
            counts: dict[int, int] = {}
            for k in self._span(r):
                atom = self.atom_of_elem[k]
                counts[atom] = counts.get(atom, 0) + 1
            for atom, count in counts.items():
                if count != self._elem_count[atom]:
                    raise NotRepresentable(f"{r} covers part of the port atom {self.atoms[atom]}")
            hit = sum(1 << a for a in counts)
            self._mask_cache[r] = hit
        return hit

    def point(self, protocol: str, port: int) -> int:
        """The mask of the single port ``protocol``/``port`` (must be an atom of its own)."""
        return self.mask(PortRange(protocol, port, port))

    def portset(self, mask: int) -> PortSet:
        """The port set of a mask."""
        hit = self._set_cache.get(mask)
        if hit is None:
            ranges = []
            for atom, ps in enumerate(self.atoms):
                if mask >> atom & 1:
                    ranges.extend(ps.ranges())
            hit = PortSet.of(ranges)
            self._set_cache[mask] = hit
        return hit
