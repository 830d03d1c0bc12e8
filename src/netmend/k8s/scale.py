"""The full connectivity matrix by pod classes, and its incremental re-check.

A :class:`ClassMatrix` holds, for every ordered pair of pod classes (see
:mod:`.classes`), the exact set of (protocol, port) the source class may
open to the destination class, as a bit mask over port atoms. It is the
same answer :meth:`Snapshot.connections` gives pod by pod, computed once
per class pair with array operations:

- per direction, every class is a *subject* with a row over peer classes:
  ``E[s, d]`` what the egress of ``s`` admits towards ``d`` (named ports
  resolved on ``d``), ``I[d, s]`` what the ingress of ``d`` admits from
  ``s`` (names resolved on ``d``); a class no policy isolates has the full
  mask. Classes with the same isolating policies share one row (a profile);
- ``R = E & I.T``, computed in blocks of rows.

:meth:`ClassMatrix.update` applies one policy edit: only the classes the old
or new policy selects change, so only their rows (egress) and columns
(ingress) are recomputed, and the cells that changed are reported. An edit
that needs finer classes or port atoms than the matrix has (a label key, port
name or ipBlock no policy used before, a port boundary inside an atom) makes
a full recomputation, and the update says why.

An admin or baseline policy edit patches rows instead: a subject's row can
change only towards the peers of the old or new rules, where the edited
tier's verdict changed and the tiers before it leave the atoms open; classes
sharing a profile key and membership move together, a row that comes out
equal keeps its slot under the new key, and ``R`` is recomputed only on the
(source, destination) pairs whose egress or ingress row moved.

With ``edges`` (addresses outside the cluster, :func:`edge_points` gives one
per region the CIDRs cut), ``outside[c, k]`` is what class ``c`` may open to
``edges[k]``: egress only, the far end has no policies.

Direction rows are composed from tiers (:class:`TierRows`): a tier decides
some atoms towards some peers (allowing a part of them) and leaves the rest
to the next tier; what no tier decides is allowed. The NetworkPolicy tier
decides everything for the pods it isolates. Admin tiers slot in before it
(and a baseline tier after it) without changing the matrix code.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from netmend.k8s.classes import ClassIndex, NotRepresentable, PortAtoms, Vocabulary
from netmend.k8s.errors import K8sError
from netmend.k8s.model import (
    ACCEPT,
    ADMIN_TIER,
    BASELINE_TIER,
    DENY,
    AdminPolicy,
    Cluster,
    NetworkPolicy,
)
from netmend.k8s.portset import MAX_PORT, MIN_PORT, PortRange, PortSet
from netmend.k8s.semantics import DEFAULT_SEMANTICS, EGRESS, INGRESS, Semantics

# Rows of R computed per step: small enough that the transposed ingress block
# stays in cache (256 measured fastest at 8k classes, against 64 and 1024).
_BLOCK_ROWS = 256
_TIER_CACHE_LIMIT = 1024  # admin-tier rows kept per matrix (each is one row of C cells)


class ScaleError(K8sError, ValueError):
    """An update that does not fit the matrix (unknown policy, key clash)."""


@dataclass(frozen=True)
class TierRows:
    """One tier's say on one subject's direction, per peer class (arrays ``(C, W)``).

    ``decided`` are the atoms the tier settles, ``allow`` those of them it
    allows (a subset); the rest goes to the next tier.
    """

    allow: np.ndarray
    decided: np.ndarray


def _fold(action, hit: np.ndarray, allow: np.ndarray, decided: np.ndarray, undecided: np.ndarray) -> None:
    """Fold one admin rule's ``hit`` cells into a tier's arrays, in place: Accept allows and
    decides them, Deny decides them, Pass leaves them to the tiers below; none of them is
    matched by a later rule of the tier."""
    if action == ACCEPT:
        allow |= hit
        decided |= hit
    elif action == DENY:
        decided |= hit
    undecided &= ~hit


def compose_tiers(tiers: Iterable[TierRows | None], full: np.ndarray) -> np.ndarray:
    """Fold tiers in evaluation order; what none decides is allowed (``full`` row)."""
    out = np.zeros_like(full)
    undecided = full.copy()
    for tier in tiers:
        if tier is None:
            continue
        out |= undecided & tier.allow
        undecided &= ~tier.decided
    return out | undecided


class _Codec:
    """Masks over ``atoms`` atoms as ``W`` unsigned words of the smallest dtype that fits."""

    def __init__(self, atoms: int):
        if atoms <= 8:
            self.dtype, self.bits = np.uint8, 8
        elif atoms <= 16:
            self.dtype, self.bits = np.uint16, 16
        elif atoms <= 32:
            self.dtype, self.bits = np.uint32, 32
        else:
            self.dtype, self.bits = np.uint64, 64
        self.words = max(1, -(-atoms // self.bits))
        self._cache: dict[int, np.ndarray] = {}

    def encode(self, mask: int) -> np.ndarray:
        hit = self._cache.get(mask)
        if hit is None:
            word = (1 << self.bits) - 1
            hit = np.array(
                [(mask >> (self.bits * k)) & word for k in range(self.words)], dtype=self.dtype
            )
            hit.flags.writeable = False
            self._cache[mask] = hit
        return hit

    def decode(self, words: np.ndarray) -> int:
        return sum(int(w) << (self.bits * k) for k, w in enumerate(words.tolist()))


_NO_EDGES = np.zeros(0, dtype=bool)


@dataclass(frozen=True)
class _Rule:
    peers: np.ndarray | None  # None: every peer
    numeric: int  # atoms of the numbered ports (every atom when ports are absent)
    named: tuple[tuple[str, str], ...]  # (protocol, name)
    edges: np.ndarray | None = None  # outside points the peers hold (None: every one)


@dataclass(frozen=True)
class _Policy:
    serial: int
    policy: NetworkPolicy
    selected: np.ndarray
    ingress: tuple[_Rule, ...] | None
    egress: tuple[_Rule, ...] | None

    def rules(self, direction: str) -> tuple[_Rule, ...] | None:
        return self.ingress if direction == INGRESS else self.egress


@dataclass(frozen=True)
class _AdminRule:
    action: str
    peers: np.ndarray
    numeric: int  # atoms of the numbered ports (every atom when ports are absent)
    named: tuple[str, ...]  # container port names (any protocol)
    edges: np.ndarray = field(default_factory=lambda: _NO_EDGES)  # outside points its networks hold


@dataclass(frozen=True)
class _Admin:
    serial: int
    policy: AdminPolicy
    selected: np.ndarray
    ingress: tuple[_AdminRule, ...]
    egress: tuple[_AdminRule, ...]

    def rules(self, direction: str) -> tuple[_AdminRule, ...] | None:
        rules = self.ingress if direction == INGRESS else self.egress
        return rules or None  # a policy without rules of a direction does not touch it


def _admin_range(port) -> PortRange | None:
    if port.named:
        return None
    start = port.start or MIN_PORT
    end = port.end if port.end is not None else (port.start or MAX_PORT)
    return PortRange(port.protocol or "TCP", start, end)


def _admin_port_ranges(policies: Iterable[AdminPolicy]) -> list[PortRange]:
    out = []
    for policy in policies:
        for direction in (INGRESS, EGRESS):
            for rule in policy.rules(direction):
                for port in rule.ports or ():
                    r = _admin_range(port)
                    if r is not None:
                        out.append(r)
    return out


def _port_ranges(policies: Iterable[NetworkPolicy]) -> list[PortRange]:
    out = []
    for policy in policies:
        for direction in policy.effective_types:
            for rule in policy.rules(direction):
                for port in rule.ports or ():
                    r = _numeric_range(port)
                    if r is not None:
                        out.append(r)
    return out


def _numeric_range(port) -> PortRange | None:
    proto = port.effective_protocol
    if port.port is None:
        return PortRange(proto, MIN_PORT, MAX_PORT)
    if isinstance(port.port, str):
        return None
    end = port.end_port or port.port
    return PortRange(proto, port.port, end) if end >= port.port else None


@dataclass(frozen=True)
class Summary:
    """Headline figures of a matrix (pod pairs are ordered pairs of distinct pods)."""

    pods: int
    classes: int
    atoms: int
    policies: int
    connected_pod_pairs: int
    open_pod_pairs: int  # every port of every protocol allowed


_NO_CELLS = np.zeros((0, 2), dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Update:
    """What one policy edit changed.

    ``full_recompute`` says the matrix was rebuilt (``reason`` why) instead of
    patched; otherwise ``rows`` (egress subjects) and ``columns`` (ingress
    subjects) were recomputed, ``cells`` holds the (source class, destination
    class) pairs whose connections changed and :meth:`changes` decodes them;
    ``pod_pairs_gaining``/``losing`` count the ordered pod pairs in those cells
    that gained or lost some connection.
    """

    full_recompute: bool
    reason: str = ""
    rows: tuple[int, ...] = ()
    columns: tuple[int, ...] = ()
    cells: np.ndarray = field(default_factory=lambda: _NO_CELLS)
    before: np.ndarray | None = None
    after: np.ndarray | None = None
    pod_pairs_gaining: int = 0
    pod_pairs_losing: int = 0
    _decode: object = None

    @property
    def changed_cells(self) -> int:
        """How many class pairs changed."""
        return len(self.cells)

    def changes(self, limit: int | None = None) -> list[tuple[int, int, PortSet, PortSet]]:
        """``(source class, destination class, before, after)`` in class order."""
        out = []
        for k in range(len(self.cells) if limit is None else min(limit, len(self.cells))):
            s, d = self.cells[k].tolist()
            out.append((s, d, self._decode(self.before[k]), self._decode(self.after[k])))
        return out


@dataclass
class _Rows:
    """Direction rows, one per profile, stacked; row 0 admits everything.

    Edits leave rows of profiles no class uses any more; when the table is
    full they are reclaimed before it grows.
    """

    table: np.ndarray
    count: int = 1
    ids: dict[tuple, int] = field(default_factory=dict)
    free: list[int] = field(default_factory=list)

    def add(self, key: tuple, row: np.ndarray, in_use: np.ndarray) -> int:
        if not self.free and self.count == len(self.table):
            used = np.bincount(in_use, minlength=self.count)[: self.count] > 0
            self.free = (np.flatnonzero(~used[1:]) + 1).tolist()[::-1]  # popped lowest first
            if self.free:
                dropped = set(self.free)
                self.ids = {k: i for k, i in self.ids.items() if i not in dropped}
            else:
                grown = np.empty((2 * len(self.table), *self.table.shape[1:]), self.table.dtype)
                grown[: self.count] = self.table
                self.table = grown
        if self.free:
            slot = self.free.pop()
        else:
            slot = self.count
            self.count += 1
        self.table[slot] = row
        self.ids[key] = slot
        return slot


class ClassMatrix:
    """Exact class-to-class connectivity of one cluster and policy set.

    Build it with :func:`analyze`. Query with :meth:`connections` (pods),
    :meth:`class_connections` (classes), :meth:`summary`; apply an edit with
    :meth:`update` (in place: the matrix is large, copies would defeat the
    purpose; :meth:`copy` when you need one).

    Examples
    --------
    >>> from netmend.k8s.model import Pod, NetworkPolicy, LabelSelector
    >>> from netmend.k8s.cluster import build_cluster
    >>> deny = NetworkPolicy(name="deny-a", pod_selector=LabelSelector((("app", "a"),)),
    ...                      policy_types=("Ingress",))
    >>> c = build_cluster([Pod(name="a", labels=(("app", "a"),)), Pod(name="b"), deny])
    >>> m = analyze(c)
    >>> str(m.connections(1, 0)), str(m.connections(0, 1))
    ('No connections', 'All connections')
    >>> u = m.update(deny, None)
    >>> str(m.connections(1, 0)), u.pod_pairs_gaining
    ('All connections', 1)
    """

    def __init__(
        self,
        cluster: Cluster,
        index: ClassIndex,
        atoms: PortAtoms,
        semantics: Semantics,
        edges: Sequence[str] = (),
    ):
        self.cluster = cluster
        self.index = index
        self.atoms = atoms
        self.semantics = semantics
        # Addresses outside the cluster: ``outside[c, k]`` is what class ``c`` may open to
        # ``edges[k]`` (egress only: the far end has no policies).
        self.edges: tuple[str, ...] = tuple(edges)
        self._edge_ips = [ipaddress.ip_address(e) for e in self.edges]
        self.codec = _Codec(len(atoms.atoms))
        n, w = index.size, self.codec.words
        self._full = self.codec.encode(atoms.full)
        self.full_row = np.broadcast_to(self._full, (n, w)).copy()
        self._serial = 0
        self.policies: dict[str, _Policy] = {}
        self._named: dict[tuple[str, str], np.ndarray] = {}
        # Per direction: class -> keys of the policies isolating it (isolated classes only).
        self._subject: dict[str, dict[int, set[str]]] = {INGRESS: {}, EGRESS: {}}
        self.admin: dict[str, _Admin] = {}
        self._tier_cache: dict[tuple, TierRows] = {}
        # Per (tier, direction): class -> keys of the admin policies selecting it.
        self._admin_subject: dict[tuple[str, str], dict[int, set[str]]] = {
            (t, d): {} for t in (ADMIN_TIER, BASELINE_TIER) for d in (INGRESS, EGRESS)
        }
        self._rows = {d: _Rows(np.empty((1, n, w), self.codec.dtype)) for d in (INGRESS, EGRESS)}
        for rows in self._rows.values():
            rows.table[0] = self.full_row
        self.profile = {d: np.zeros(n, dtype=np.int64) for d in (INGRESS, EGRESS)}
        # Per direction: the profile key of every class, as an index into ``_keys``
        # (several keys may share one row when an admin edit left the row as it was).
        self._kid = {d: np.zeros(n, dtype=np.int64) for d in (INGRESS, EGRESS)}
        self._keys: dict[str, list[tuple]] = {d: [()] for d in (INGRESS, EGRESS)}
        self._kid_of: dict[str, dict[tuple, int]] = {d: {(): 0} for d in (INGRESS, EGRESS)}
        self._by_serial: dict[int, _Policy | _Admin] = {}
        self.reach = np.empty((n, n, w), self.codec.dtype)
        self.outside = np.empty((n, len(self.edges), w), self.codec.dtype)

    # -- compilation -----------------------------------------------------------

    def _compile(self, policy: NetworkPolicy, checked: bool = False) -> _Policy:
        """Compile ``policy``; ``checked``: its vocabulary is known to be covered."""
        if not checked and not self.index.vocabulary.covers(
            Vocabulary.of((policy,), self.semantics)
        ):
            raise NotRepresentable(
                f"{policy.key} reads labels, port names or ipBlocks the classes do not separate"
            )
        types = policy.effective_types
        sides: dict[str, tuple[_Rule, ...]] = {}
        for direction in (INGRESS, EGRESS):
            if direction not in types:
                continue
            rules = []
            for rule in policy.rules(direction):
                peers = edges = None
                if rule.peers:
                    peers = np.zeros(self.index.size, dtype=bool)
                    edges = np.zeros(len(self.edges), dtype=bool)
                    for peer in rule.peers:
                        peers |= self.index.peer(
                            peer, policy.namespace, self.semantics.ipblock_selects_pods
                        )
                        if peer.ip_block is not None and self.edges:
                            edges |= self._edges_in(peer.ip_block.cidr, peer.ip_block.excepts)
                if not rule.ports:
                    rules.append(_Rule(peers, self.atoms.full, (), edges))
                    continue
                numeric, named = 0, []
                for port in rule.ports:
                    if isinstance(port.port, str):
                        named.append((port.effective_protocol, port.port))
                        continue
                    r = _numeric_range(port)
                    if r is not None:
                        numeric |= self.atoms.mask(r)
                rules.append(_Rule(peers, numeric, tuple(named), edges))
            sides[direction] = tuple(rules)
        self._serial += 1
        return _Policy(
            serial=self._serial,
            policy=policy,
            selected=self.index.select(policy.pod_selector, policy.namespace),
            ingress=sides.get(INGRESS),
            egress=sides.get(EGRESS),
        )

    def _compile_admin(self, policy: AdminPolicy, checked: bool = False) -> _Admin:
        """Compile an admin policy; ``checked``: its vocabulary is known to be covered."""
        if not checked and not self.index.vocabulary.covers(
            Vocabulary.of((), self.semantics, (policy,))
        ):
            raise NotRepresentable(
                f"{policy.key} reads labels, port names or networks the classes do not separate"
            )
        sides = {}
        for direction in (INGRESS, EGRESS):
            rules = []
            for rule in policy.rules(direction):
                peers = np.zeros(self.index.size, dtype=bool)
                edges = np.zeros(len(self.edges), dtype=bool)
                for peer in rule.peers:
                    peers |= self.index.admin_peer(peer)
                    for cidr in peer.networks or () if self.edges else ():
                        edges |= self._edges_in(cidr, ())
                if rule.ports is None:
                    rules.append(_AdminRule(rule.action, peers, self.atoms.full, (), edges))
                    continue
                numeric = 0
                for port in rule.ports:
                    r = _admin_range(port)
                    if r is not None:
                        numeric |= self.atoms.mask(r)
                named = tuple(port.named for port in rule.ports if port.named)
                rules.append(_AdminRule(rule.action, peers, numeric, named, edges))
            sides[direction] = tuple(rules)
        self._serial += 1
        return _Admin(
            serial=self._serial,
            policy=policy,
            selected=self.index.admin_subject(policy.subject),
            ingress=sides[INGRESS],
            egress=sides[EGRESS],
        )

    def _edges_in(self, cidr: str, excepts: Sequence[str]) -> np.ndarray:
        """Which outside points a CIDR (minus ``excepts``) holds (read-only, cached)."""
        key = ("edges", cidr, tuple(excepts))
        hit = self._named.get(key)  # type: ignore[call-overload]
        if hit is None:
            hit = self._named[key] = self._edges_of(cidr, excepts)  # type: ignore[index]
            hit.flags.writeable = False
        return hit

    def _edges_of(self, cidr: str, excepts: Sequence[str]) -> np.ndarray:
        net = ipaddress.ip_network(cidr, strict=False)
        holes = [ipaddress.ip_network(e, strict=False) for e in excepts]
        return np.array(
            [
                ip.version == net.version
                and ip in net
                and not any(ip.version == h.version and ip in h for h in holes)
                for ip in self._edge_ips
            ],
            dtype=bool,
        )

    def _outside_tier(self, rules_of: list[_Admin]) -> TierRows | None:
        """An admin or baseline tier's egress verdict towards the outside points."""
        if not rules_of:
            return None
        shape = (len(self.edges), self.codec.words)
        undecided = np.broadcast_to(self._full, shape).copy()
        allow = np.zeros(shape, self.codec.dtype)
        decided = np.zeros(shape, self.codec.dtype)
        for policy in rules_of:
            for rule in policy.egress:
                # Outside points have no container ports: named ports match none of them.
                hit = undecided & self.codec.encode(rule.numeric)
                hit[~rule.edges] = 0
                _fold(rule.action, hit, allow, decided, undecided)
        return TierRows(allow, decided)

    def _outside_row(self, key: tuple) -> np.ndarray:
        """What a class with egress profile ``key`` may open to each outside point."""
        shape = (len(self.edges), self.codec.words)
        full = np.broadcast_to(self._full, shape)
        if not key:
            return full.copy()
        serials, admins, baselines, _ = key
        np_tier = None
        if serials:
            row = np.zeros(shape, self.codec.dtype)
            for serial in serials:
                for rule in self._by_serial[serial].egress or ():
                    ports = self.codec.encode(rule.numeric)
                    if rule.edges is None:
                        row |= ports
                    else:
                        np.bitwise_or(row, ports, out=row, where=rule.edges[:, None])
            np_tier = TierRows(row, full)
        tiers = (
            self._outside_tier([self._by_serial[s] for s in admins]),
            np_tier,
            self._outside_tier([self._by_serial[s] for s in baselines]),
        )
        return compose_tiers(tiers, full.copy())

    def _recompute_outside(self, classes: np.ndarray) -> None:
        """``outside`` rows of ``classes``, one computation per egress profile key."""
        if not self.edges or not len(classes):
            return
        kids = self._kid[EGRESS][classes]
        for kid in np.unique(kids).tolist():
            row = self._outside_row(self._keys[EGRESS][kid])
            self.outside[classes[kids == kid]] = row

    def outside_connections(self, src: int, edge: int) -> PortSet:
        """What pod ``src`` may open to the outside point ``edges[edge]``."""
        cls = int(self.index.class_of[src])
        return self.atoms.portset(self.codec.decode(self.outside[cls, edge]))

    def _ingress_ports(self, cls: int, rule) -> int:
        """The atoms an admin ingress rule's ports name on class ``cls``'s pods."""
        mask = rule.numeric
        for name in rule.named:
            for pname, proto, port in self.index.classes[cls].named_ports:
                if pname == name:
                    mask |= self.atoms.point(proto, port)
        return mask

    def _named_any_row(self, name: str) -> np.ndarray:
        """Per class, the atom ``name`` resolves to on its pods, whatever the protocol."""
        key = ("*", name)
        hit = self._named.get(key)
        if hit is None:
            hit = np.zeros_like(self.full_row)
            for c, cl in enumerate(self.index.classes):
                for pname, proto, port in cl.named_ports:
                    if pname == name:
                        hit[c] = self.codec.encode(self.atoms.point(proto, port))
            hit.flags.writeable = False
            self._named[key] = hit
        return hit

    def _admin_tier(self, direction: str, cls: int, policies: list[_Admin]) -> TierRows | None:
        """First match over the rules in order: Accept admits, Deny drops, Pass hands
        the atoms on (to the NetworkPolicy tier; from the baseline tier, to the
        default, which allows)."""
        if not policies:
            return None
        # Many profiles share one admin policy set: evaluate each set once.
        named = ()
        if direction == INGRESS and any(r.named for a in policies for r in a.ingress):
            named = self.index.classes[cls].named_ports
        key = (direction, tuple(a.serial for a in policies), named)
        hit_rows = self._tier_cache.get(key)
        if hit_rows is not None:
            return hit_rows
        undecided = self.full_row.copy()
        allow = np.zeros_like(self.full_row)
        decided = np.zeros_like(self.full_row)
        for policy in policies:
            for rule in policy.rules(direction) or ():
                if direction == EGRESS:
                    ports = np.broadcast_to(self.codec.encode(rule.numeric), allow.shape)
                    for name in rule.named:
                        ports = ports | self._named_any_row(name)
                else:
                    mask = self._ingress_ports(cls, rule)
                    ports = np.broadcast_to(self.codec.encode(mask), allow.shape)
                hit = undecided & ports
                hit[~rule.peers] = 0
                _fold(rule.action, hit, allow, decided, undecided)
        rows = TierRows(allow=allow, decided=decided)
        if len(self._tier_cache) >= _TIER_CACHE_LIMIT:
            self._tier_cache.clear()
        self._tier_cache[key] = rows
        return rows

    def _selecting_admin(self, tier: str, direction: str, cls: int) -> list[_Admin]:
        keys = self._admin_subject[(tier, direction)].get(cls, ())
        return sorted(
            (self.admin[k] for k in keys), key=lambda a: (a.policy.priority, a.policy.key)
        )

    def _named_row(self, protocol: str, name: str) -> np.ndarray:
        """Per class, the atoms ``protocol``/``name`` resolves to on its pods."""
        key = (protocol, name)
        hit = self._named.get(key)
        if hit is None:
            hit = np.zeros_like(self.full_row)
            for c, cl in enumerate(self.index.classes):
                for pname, proto, port in cl.named_ports:
                    if pname == name and proto == protocol:
                        hit[c] = self.codec.encode(self.atoms.point(proto, port))
            hit.flags.writeable = False
            self._named[key] = hit
        return hit

    def _resolved(self, cls: int, rule: _Rule) -> int:
        """The rule's port atoms with names resolved on class ``cls``."""
        mask = rule.numeric
        for protocol, name in rule.named:
            for pname, proto, port in self.index.classes[cls].named_ports:
                if pname == name and proto == protocol:
                    mask |= self.atoms.point(proto, port)
        return mask

    # -- rows ------------------------------------------------------------------

    def _network_policy_tier(
        self, direction: str, cls: int, serials: tuple[int, ...]
    ) -> TierRows | None:
        """The NetworkPolicy tier: final for isolated subjects, silent otherwise."""
        if not serials:
            return None
        by_serial = {p.serial: p for p in self._isolating(direction, cls)}
        row = np.zeros_like(self.full_row)
        for serial in serials:
            for rule in by_serial[serial].rules(direction) or ():
                if direction == EGRESS:
                    ports = np.broadcast_to(self.codec.encode(rule.numeric), row.shape)
                    for protocol, name in rule.named:
                        ports = ports | self._named_row(protocol, name)
                else:
                    ports = self.codec.encode(self._resolved(cls, rule))
                if rule.peers is None:
                    row |= ports
                else:
                    np.bitwise_or(row, ports, out=row, where=rule.peers[:, None])
        if self.semantics.node_local == "allow":
            # Traffic to and from the node (hostNetwork pods) passes the NetworkPolicy tier.
            row[~self.index.selectable] = self.full_row[~self.index.selectable]
        return TierRows(allow=row, decided=self.full_row)

    def _isolating(self, direction: str, cls: int) -> list[_Policy]:
        keys = self._subject[direction].get(cls, ())
        return [self.policies[k] for k in sorted(keys)]

    def _profile_key(self, direction: str, cls: int) -> tuple:
        policies = self._isolating(direction, cls)
        serials = tuple(p.serial for p in policies)
        admins = self._selecting_admin(ADMIN_TIER, direction, cls)
        baselines = self._selecting_admin(BASELINE_TIER, direction, cls)
        if not serials and not admins and not baselines:
            return ()
        named = ()
        if direction == INGRESS and (
            any(r.named for p in policies for r in p.ingress or ())
            or any(r.named for a in (*admins, *baselines) for r in a.ingress)
        ):
            named = self.index.classes[cls].named_ports
        return (
            serials,
            tuple(a.serial for a in admins),
            tuple(a.serial for a in baselines),
            named,
        )

    def _assign_profile(self, direction: str, cls: int, key: tuple | None = None) -> None:
        if key is None:
            key = self._profile_key(direction, cls)
        rows = self._rows[direction]
        self._kid[direction][cls] = self._key_id(direction, key)
        if not key:
            self.profile[direction][cls] = 0
            return
        pid = rows.ids.get(key)
        if pid is None:
            # Evaluation order: admin tier, NetworkPolicy tier, baseline tier, default allow.
            admins = self._selecting_admin(ADMIN_TIER, direction, cls)
            baselines = self._selecting_admin(BASELINE_TIER, direction, cls)
            tiers = (
                self._admin_tier(direction, cls, admins),
                self._network_policy_tier(direction, cls, key[0]),
                self._admin_tier(direction, cls, baselines),
            )
            pid = rows.add(key, compose_tiers(tiers, self.full_row), self.profile[direction])
        self.profile[direction][cls] = pid

    def _key_id(self, direction: str, key: tuple) -> int:
        kid = self._kid_of[direction].get(key)
        if kid is None:
            kid = self._kid_of[direction][key] = len(self._keys[direction])
            self._keys[direction].append(key)
        return kid

    # -- matrix ----------------------------------------------------------------

    def _recompute_rows(self, sources: np.ndarray) -> None:
        egress, ingress = self._rows[EGRESS].table, self._rows[INGRESS].table
        e_of, q_of = self.profile[EGRESS], self.profile[INGRESS]
        self.reach[sources] = egress[e_of[sources]] & ingress[
            q_of[:, None], sources[None, :]
        ].transpose(1, 0, 2)

    def _recompute_columns(self, targets: np.ndarray) -> None:
        egress, ingress = self._rows[EGRESS].table, self._rows[INGRESS].table
        e_of, q_of = self.profile[EGRESS], self.profile[INGRESS]
        self.reach[:, targets] = egress[e_of[:, None], targets[None, :]] & ingress[
            q_of[targets]
        ].transpose(1, 0, 2)

    def _compute_all(self) -> None:
        n = self.index.size
        for direction in (INGRESS, EGRESS):
            keys = [self._profile_key(direction, cls) for cls in range(n)]
            distinct = len({k for k in keys if k})
            rows = self._rows[direction]
            # Room for the profiles plus some edits, allocated once.
            table = np.empty(
                (1 + distinct + max(16, distinct // 8), *rows.table.shape[1:]), rows.table.dtype
            )
            table[: rows.count] = rows.table[: rows.count]
            rows.table = table
            for cls in range(n):
                self._assign_profile(direction, cls, keys[cls])
        step = _BLOCK_ROWS
        egress, ingress = self._rows[EGRESS].table, self._rows[INGRESS].table
        e_of, q_of = self.profile[EGRESS], self.profile[INGRESS]
        for start in range(0, n, step):
            stop = min(n, start + step)
            # Contiguous sources: slice the ingress rows, then gather whole row pieces.
            columns = np.take(ingress[:, start:stop], q_of, axis=0)  # (dst, src, W)
            np.bitwise_and(
                np.take(egress, e_of[start:stop], axis=0),
                columns.transpose(1, 0, 2),
                out=self.reach[start:stop],
            )
        self._recompute_outside(np.arange(n))

    def _load(self, policies: Iterable[NetworkPolicy]) -> None:
        for policy in policies:
            if policy.key in self.policies:
                raise ScaleError(f"two NetworkPolicies named {policy.key}")
            self._add(self._compile(policy, checked=True))

    def _add(self, compiled: _Policy) -> None:
        self.policies[compiled.policy.key] = compiled
        self._by_serial[compiled.serial] = compiled
        for direction in (INGRESS, EGRESS):
            if compiled.rules(direction) is not None:
                subjects = self._subject[direction]
                for cls in np.flatnonzero(compiled.selected).tolist():
                    keys = subjects.get(cls)
                    if keys is None:
                        subjects[cls] = {compiled.policy.key}
                    else:
                        keys.add(compiled.policy.key)

    def _add_admin(self, compiled: _Admin) -> None:
        self.admin[compiled.policy.key] = compiled
        self._by_serial[compiled.serial] = compiled
        for direction in (INGRESS, EGRESS):
            if compiled.rules(direction) is not None:
                subjects = self._admin_subject[(compiled.policy.tier, direction)]
                for cls in np.flatnonzero(compiled.selected).tolist():
                    subjects.setdefault(cls, set()).add(compiled.policy.key)

    def _remove_admin(self, key: str) -> _Admin:
        compiled = self.admin.pop(key)
        del self._by_serial[compiled.serial]
        for direction in (INGRESS, EGRESS):
            if compiled.rules(direction) is not None:
                subjects = self._admin_subject[(compiled.policy.tier, direction)]
                for cls in np.flatnonzero(compiled.selected).tolist():
                    subjects[cls].discard(key)
                    if not subjects[cls]:
                        del subjects[cls]
        return compiled

    def _remove(self, key: str) -> _Policy:
        compiled = self.policies.pop(key)
        del self._by_serial[compiled.serial]
        for direction in (INGRESS, EGRESS):
            if compiled.rules(direction) is not None:
                subjects = self._subject[direction]
                for cls in np.flatnonzero(compiled.selected).tolist():
                    subjects[cls].discard(key)
                    if not subjects[cls]:
                        del subjects[cls]
        return compiled

    # -- queries ---------------------------------------------------------------

    def class_connections(self, src: int, dst: int) -> PortSet:
        """What pods of class ``src`` may open to pods of class ``dst``."""
        return self.atoms.portset(self.codec.decode(self.reach[src, dst]))

    def connections(self, src: int, dst: int) -> PortSet:
        """What pod ``src`` may open to pod ``dst`` (indices into ``cluster.pods``)."""
        c = self.index.class_of
        return self.class_connections(int(c[src]), int(c[dst]))

    def current_admin_policies(self) -> tuple[AdminPolicy, ...]:
        """The admin policy set the matrix answers for, in key order."""
        return tuple(self.admin[k].policy for k in sorted(self.admin))

    def current_policies(self) -> tuple[NetworkPolicy, ...]:
        """The policy set the matrix answers for, in key order."""
        return tuple(self.policies[k].policy for k in sorted(self.policies))

    def summary(self) -> Summary:
        """Exact headline figures over every ordered pair of distinct pods."""
        w = self.index.weights.astype(np.float64)
        n = self.index.size
        connected = opened = 0.0
        step = max(1, (4 << 20) // max(1, n))
        for start in range(0, n, step):
            block = self.reach[start : start + step]
            rows = slice(start, start + len(block))
            anyone = block.any(axis=-1)
            full = (block == self._full).all(axis=-1)
            for mat, acc in ((anyone, "c"), (full, "o")):
                total = float(w[rows] @ (mat.astype(np.float64) @ w))
                diag = np.diagonal(mat[:, rows]) if len(block) else np.zeros(0, bool)
                total -= float((w[rows] * diag).sum())  # a pod and itself
                if acc == "c":
                    connected += total
                else:
                    opened += total
        return Summary(
            pods=len(self.cluster.pods),
            classes=n,
            atoms=len(self.atoms.atoms),
            policies=len(self.policies),
            connected_pod_pairs=round(connected),
            open_pod_pairs=round(opened),
        )

    def disagreements(self, other: ClassMatrix) -> int:
        """How many pairs of pod groups get different answers here and in ``other``.

        ``other`` may have other classes and port atoms (a matrix built from
        scratch for the same pods): pods are grouped by (our class, its
        class) and both answers are translated into a common refinement of
        the two atom sets before comparing. 0 means the same connectivity for
        every ordered pair of pods.
        """
        if len(self.index.class_of) != len(other.index.class_of):
            raise ScaleError("the matrices are not over the same pods")
        pairs = np.unique(
            np.stack([self.index.class_of, other.index.class_of], axis=1).astype(np.int64), axis=0
        )
        mine, theirs = pairs[:, 0], pairs[:, 1]
        common = PortAtoms(
            [r for atom in (*self.atoms.atoms, *other.atoms.atoms) for r in atom.ranges()]
        )
        return int(
            (self._translated(mine, common) != other._translated(theirs, common)).any(axis=-1).sum()
        )

    def _translated(self, classes: np.ndarray, common: PortAtoms) -> np.ndarray:
        """The cells among ``classes`` as masks over ``common`` atoms (object-free, uint64 words)."""
        words = -(-len(common.atoms) // 64)
        cells = self.reach[classes][:, classes]
        out = np.zeros((*cells.shape[:2], words), dtype=np.uint64)
        for atom, ps in enumerate(self.atoms.atoms):
            target = 0
            for r in ps.ranges():
                target |= common.mask(r)
            word, bit = divmod(atom, self.codec.bits)
            has = ((cells[..., word] >> self.codec.dtype(bit)) & 1).astype(bool)
            for k in range(words):
                part = np.uint64((target >> (64 * k)) & ((1 << 64) - 1))
                if part:
                    out[..., k] |= np.where(has, part, np.uint64(0))
        return out

    def copy(self) -> ClassMatrix:
        """An independent copy (arrays included)."""
        other = ClassMatrix.__new__(ClassMatrix)
        other.__dict__.update(self.__dict__)
        other.policies = dict(self.policies)
        other.admin = dict(self.admin)
        other._admin_subject = {
            k: {c: set(keys) for c, keys in subs.items()} for k, subs in self._admin_subject.items()
        }
        other._subject = {
            d: {c: set(keys) for c, keys in subs.items()} for d, subs in self._subject.items()
        }
        other._rows = {
            d: _Rows(r.table.copy(), r.count, dict(r.ids), list(r.free))
            for d, r in self._rows.items()
        }
        other.profile = {d: p.copy() for d, p in self.profile.items()}
        other._kid = {d: k.copy() for d, k in self._kid.items()}
        other._keys = {d: list(k) for d, k in self._keys.items()}
        other._kid_of = {d: dict(k) for d, k in self._kid_of.items()}
        other._by_serial = dict(self._by_serial)
        other.reach = self.reach.copy()
        other.outside = self.outside.copy()
        return other

    # -- incremental -----------------------------------------------------------

    def update(self, old: NetworkPolicy | None, new: NetworkPolicy | None) -> Update:
        """Replace ``old`` by ``new`` (``None``: add or remove), in place.

        Raises :class:`ScaleError`, changing nothing, when ``old`` is not the
        current policy of its key, ``new`` would clash with another, or both
        are ``None``.
        """
        if old is None and new is None:
            raise ScaleError("an update needs an old or a new policy")
        if old is not None and new is not None and type(old) is not type(new):
            raise ScaleError("an edit keeps the kind of policy: NetworkPolicy or admin policy")
        if old is not None and new is not None and old.key != new.key:
            raise ScaleError(f"an edit keeps the policy's key: {old.key} became {new.key}")
        admin = isinstance(old if old is not None else new, AdminPolicy)
        current = self.admin if admin else self.policies
        if old is not None and (old.key not in current or current[old.key].policy != old):
            raise ScaleError(f"{old.key} is not a current policy in this form")
        if old is None and new.key in current:  # type: ignore[union-attr]
            raise ScaleError(f"{new.key} exists already; pass it as old")  # type: ignore[union-attr]
        compile_, add, remove = (
            (self._compile_admin, self._add_admin, self._remove_admin)
            if admin
            else (self._compile, self._add, self._remove)
        )
        try:
            compiled = compile_(new) if new is not None else None
        except NotRepresentable as exc:
            return self._rebuild(old, new, str(exc))
        previous = remove(old.key) if old is not None else None
        if compiled is not None:
            add(compiled)
        if admin:
            return self._update_admin(previous, compiled)
        touched = {}
        for direction in (INGRESS, EGRESS):
            mask = np.zeros(self.index.size, dtype=bool)
            for p in (previous, compiled):
                if p is not None and p.rules(direction) is not None:
                    mask |= p.selected
            touched[direction] = np.flatnonzero(mask)
            for cls in touched[direction].tolist():
                self._assign_profile(direction, cls)
        rows, cols = touched[EGRESS], touched[INGRESS]
        before_rows = self.reach[rows].copy()
        before_cols = self.reach[:, cols].copy()
        if len(rows):
            self._recompute_rows(rows)
        if len(cols):
            self._recompute_columns(cols)
        self._recompute_outside(rows)
        return self._delta(rows, cols, before_rows, before_cols)

    # -- incremental, admin tiers ----------------------------------------------

    def _update_admin(self, previous: _Admin | None, compiled: _Admin | None) -> Update:
        """Patch the rows an admin policy edit can change, then only the cells they change.

        An admin or baseline policy decides for its subjects only towards the
        peers of its rules, so a subject's row can change only where the
        edited tier's verdict changed (:meth:`_patch_tier`); rows that come
        out equal keep their slot. ``R`` is then recomputed on exactly the
        (source, destination) pairs whose egress or ingress row changed.
        """
        steps = (
            [(previous, compiled)]
            if previous is None or compiled is None or previous.policy.tier == compiled.policy.tier
            else [(previous, None), (None, compiled)]  # a tier change: out of one, into the other
        )
        n = self.index.size
        pairs: list[np.ndarray] = []
        changed_rows: dict[str, set[int]] = {INGRESS: set(), EGRESS: set()}
        for before, after in steps:
            for direction in (INGRESS, EGRESS):
                for classes, cols in self._patch_tier(direction, before, after):
                    changed_rows[direction].update(classes.tolist())
                    subj = np.repeat(classes.astype(np.int64), len(cols))
                    peer = np.tile(cols.astype(np.int64), len(classes))
                    # Egress rows are sources; ingress rows are destinations.
                    pairs.append(subj * n + peer if direction == EGRESS else peer * n + subj)
        # Outside rows move only if an old or new egress rule holds some outside point.
        sides = [p for p in (previous, compiled) if p is not None and p.rules(EGRESS)]
        if self.edges and any(r.edges.any() for p in sides for r in p.egress):
            egress_subjects = np.zeros(n, dtype=bool)
            for p in sides:
                egress_subjects |= p.selected
            self._recompute_outside(np.flatnonzero(egress_subjects))
        flat = np.unique(np.concatenate(pairs)) if pairs else np.zeros(0, dtype=np.int64)
        src, dst = flat // n, flat % n
        before_cells = self.reach[src, dst]  # fancy indexing: a copy
        egress, ingress = self._rows[EGRESS].table, self._rows[INGRESS].table
        after_cells = (
            egress[self.profile[EGRESS][src], dst] & ingress[self.profile[INGRESS][dst], src]
        )
        self.reach[src, dst] = after_cells
        moved = (before_cells != after_cells).any(axis=-1)
        src, dst = src[moved], dst[moved]
        before_cells, after_cells = before_cells[moved], after_cells[moved]
        w = self.index.weights
        pod_pairs = w[src] * (w[dst] - (src == dst))
        gained = (after_cells & ~before_cells).any(axis=-1)
        lost = (before_cells & ~after_cells).any(axis=-1)
        return Update(
            full_recompute=False,
            rows=tuple(sorted(changed_rows[EGRESS])),
            columns=tuple(sorted(changed_rows[INGRESS])),
            cells=np.stack([src, dst], axis=1) if len(src) else _NO_CELLS,
            before=before_cells,
            after=after_cells,
            pod_pairs_gaining=int(pod_pairs[gained].sum()),
            pod_pairs_losing=int(pod_pairs[lost].sum()),
            _decode=self._decode,
        )

    def _patch_tier(
        self, direction: str, previous: _Admin | None, compiled: _Admin | None
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Move the subjects of ``previous``/``compiled`` (one tier) to their new
        profiles; returns ``(classes, peer columns)`` whose rows changed there.

        Classes sharing a profile key and membership share the new key, which
        is derived from the old one by replacing the policy's serial. The new
        row equals the old one except where the edited tier's rows differ
        (and the tiers before it leave the atoms undecided); there it is
        recomposed: an admin-tier atom the new tier leaves undecided takes the
        NetworkPolicy and baseline tiers' verdict, a baseline atom takes the
        default allow.
        """
        sides = [p for p in (previous, compiled) if p is not None and p.rules(direction)]
        if not sides:
            return []
        tier = sides[0].policy.tier
        position = 1 if tier == ADMIN_TIER else 2
        selected = np.zeros(self.index.size, dtype=bool)
        for p in sides:
            selected |= p.selected
        classes = np.flatnonzero(selected)
        if not len(classes):
            return []
        in_old = (
            previous.selected[classes]
            if previous is not None and previous.rules(direction)
            else np.zeros(len(classes), dtype=bool)
        )
        in_new = (
            compiled.selected[classes]
            if compiled is not None and compiled.rules(direction)
            else np.zeros(len(classes), dtype=bool)
        )
        kids, pids = self._kid[direction], self.profile[direction]
        codes = kids[classes] * 4 + in_old * 2 + in_new
        uniq, inverse = np.unique(codes, return_inverse=True)
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(len(uniq) + 1))
        rows = self._rows[direction]
        # Outside the peers of the edited rules the tier answers as before.
        reach = np.zeros(self.index.size, dtype=bool)
        for p in sides:
            for rule in p.rules(direction) or ():
                reach |= rule.peers
        peer_cols = np.flatnonzero(reach)

        def policy_of(serial: int) -> _Policy | _Admin:
            if previous is not None and serial == previous.serial:
                return previous
            return self._by_serial[serial]

        def named_rules(serials) -> bool:
            return direction == INGRESS and any(
                r.named for s in serials for r in policy_of(s).ingress
            )

        resorted: dict[tuple, tuple[int, ...]] = {}
        named_memo: dict[tuple, bool] = {}
        verdicts: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

        def tier_at(cls: int, serials: tuple[int, ...], named) -> tuple[np.ndarray, np.ndarray]:
            key = (serials, named)
            hit = verdicts.get(key)
            if hit is None:
                hit = verdicts[key] = self._admin_tier_at(
                    direction, cls, [policy_of(s) for s in serials], peer_cols
                )
            return hit

        # Per group: what the edit does, grouped by the tier rows involved.
        by_signature: dict[tuple | None, list[tuple[int, tuple, np.ndarray]]] = {}
        out: list[tuple[np.ndarray, np.ndarray]] = []
        for g, code in enumerate(uniq.tolist()):
            members = classes[order[bounds[g] : bounds[g + 1]]]
            old_key = self._keys[direction][code >> 2]
            parts = list(old_key) if old_key else [(), (), (), ()]
            old_tier = tuple(parts[position])
            new_tier = resorted.get((old_tier, code & 3))
            if new_tier is None:
                serials = [s for s in old_tier if not (code & 2 and s == previous.serial)]
                if code & 1:
                    serials.append(compiled.serial)
                new_tier = resorted[(old_tier, code & 3)] = tuple(
                    sorted(
                        serials,
                        key=lambda s: (policy_of(s).policy.priority, policy_of(s).policy.key),
                    )
                )
            parts[position] = new_tier
            subgroups = [(members, parts[3])]
            if direction == INGRESS:
                needs = named_memo.get((parts[0], parts[1], parts[2]))
                if needs is None:
                    needs = named_memo[(parts[0], parts[1], parts[2])] = any(
                        r.named for s in parts[0] for r in self._by_serial[s].ingress or ()
                    ) or named_rules((*parts[1], *parts[2]))
                if not needs:
                    subgroups = [(members, ())]
                elif not parts[3]:
                    # The edit makes the classes' port names matter: split them by those.
                    split: dict[tuple, list[int]] = {}
                    for cls in members.tolist():
                        split.setdefault(self.index.classes[cls].named_ports, []).append(cls)
                    subgroups = [(np.array(m, dtype=np.int64), nm) for nm, m in split.items()]
            isolated = tier == BASELINE_TIER and parts[0] != ()
            above = parts[1] if tier == BASELINE_TIER else ()
            for subset, named in subgroups:
                key_parts = (*parts[:3], named)
                new_key = key_parts if any(parts[:3]) else ()
                if isolated or old_tier == new_tier or not len(peer_cols):
                    signature = None  # nothing this tier says can reach the row
                else:
                    rep = int(subset[0])
                    tier_named = (
                        self.index.classes[rep].named_ports
                        if named_rules((*old_tier, *new_tier, *above))
                        else None
                    )
                    signature = (old_tier, new_tier, tier_named, above)
                by_signature.setdefault(signature, []).append((int(subset[0]), new_key, subset))

        for signature, groups in by_signature.items():
            old_pids = np.array([pids[int(m[0])] for _, _, m in groups], dtype=np.int64)
            cols = np.zeros(0, np.int64)
            if signature is not None:
                old_tier, new_tier, tier_named, above = signature
                rep = groups[0][0]
                a_allow, a_dec = tier_at(rep, old_tier, tier_named)
                b_allow, b_dec = tier_at(rep, new_tier, tier_named)
                eff = (a_allow ^ b_allow) | (a_dec ^ b_dec)  # (peers, W)
                if above:
                    eff &= ~tier_at(rep, above, tier_named)[1]
                hit = eff.any(axis=-1)
                cols, eff = peer_cols[hit], eff[hit]
                allow, decided = b_allow[hit], b_dec[hit]
            if len(cols):
                old_vals = rows.table[old_pids[:, None], cols[None, :]]  # (groups, cols, W)
                # Baseline atoms left undecided fall to the default allow.
                new_vals = (old_vals & ~eff) | (eff & (allow | ~decided))
                if tier == ADMIN_TIER and (eff & ~decided).any():
                    # Atoms the admin tier no longer decides: the tiers below answer.
                    for k, (grp_rep, key, _) in enumerate(groups):
                        lower = self._below_admin(direction, grp_rep, key, policy_of)[cols]
                        new_vals[k] = (old_vals[k] & ~eff) | (eff & (allow | (~decided & lower)))
                moved = (new_vals != old_vals).any(axis=-1)  # (groups, cols)
            else:
                moved = np.zeros((len(groups), 0), dtype=bool)
            any_moved = moved.any(axis=1).tolist()  # one reduction for every group
            for k, (_, key, members) in enumerate(groups):
                old_pid = int(old_pids[k])
                kid = self._key_id(direction, key)
                changed = any_moved[k]
                if not key:
                    pid = 0
                elif not changed:
                    pid = rows.ids.setdefault(key, old_pid)
                else:
                    pid = rows.ids.get(key)
                    if pid is None:
                        row = rows.table[old_pid].copy()
                        row[cols] = new_vals[k]
                        pid = rows.add(key, row, pids)
                if pid != old_pid:
                    pids[members] = pid  # now, so a later reclaim sees the slot in use
                if len(members) == 1:
                    kids[members[0]] = kid
                else:
                    kids[members] = kid
                if changed:
                    out.append((members, cols[moved[k]]))
        return out

    def _admin_tier_at(
        self, direction: str, cls: int, policies: list[_Admin], cols: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_admin_tier` on the peer classes ``cols`` only: ``(allow, decided)``."""
        shape = (len(cols), self.codec.words)
        undecided = np.broadcast_to(self._full, shape).copy()
        allow = np.zeros(shape, self.codec.dtype)
        decided = np.zeros(shape, self.codec.dtype)
        for policy in policies:
            for rule in policy.rules(direction) or ():
                if direction == EGRESS:
                    ports = np.broadcast_to(self.codec.encode(rule.numeric), shape)
                    for name in rule.named:
                        ports = ports | self._named_any_row(name)[cols]
                else:
                    mask = self._ingress_ports(cls, rule)
                    ports = np.broadcast_to(self.codec.encode(mask), shape)
                hit = undecided & ports
                hit[~rule.peers[cols]] = 0
                _fold(rule.action, hit, allow, decided, undecided)
        return allow, decided

    def _below_admin(self, direction, cls, key, policy_of) -> np.ndarray:
        """What the NetworkPolicy and baseline tiers (then the default) give ``key``'s row."""
        serials, _, baselines, _ = key if key else ((), (), (), ())
        tiers = (
            self._network_policy_tier(direction, cls, serials),
            self._admin_tier(direction, cls, [policy_of(s) for s in baselines]),
        )
        return compose_tiers(tiers, self.full_row)

    def _delta(self, rows, cols, before_rows, before_cols) -> Update:
        n = self.index.size
        diff_rows = (before_rows != self.reach[rows]).any(axis=-1)
        after_cols = self.reach[:, cols]
        diff_cols = (before_cols != after_cols).any(axis=-1)
        diff_cols[rows] = False  # those cells are in the rows already
        ri, rj = np.nonzero(diff_rows)
        ci, cj = np.nonzero(diff_cols)
        src = np.concatenate([rows[ri], ci]).astype(np.int64)
        dst = np.concatenate([rj, cols[cj]]).astype(np.int64)
        before = np.concatenate([before_rows[ri, rj], before_cols[ci, cj]])
        after = self.reach[src, dst] if len(src) else before
        w = self.index.weights
        pairs = w[src] * (w[dst] - (src == dst))
        gained = (after & ~before).any(axis=-1)
        lost = (before & ~after).any(axis=-1)
        order = np.lexsort((dst, src))
        del n
        return Update(
            full_recompute=False,
            rows=tuple(rows.tolist()),
            columns=tuple(cols.tolist()),
            cells=np.stack([src[order], dst[order]], axis=1),
            before=before[order],
            after=after[order],
            pod_pairs_gaining=int(pairs[gained].sum()),
            pod_pairs_losing=int(pairs[lost].sum()),
            _decode=self._decode,
        )

    def _decode(self, words: np.ndarray) -> PortSet:
        return self.atoms.portset(self.codec.decode(words))

    def _rebuild(self, old, new, reason: str) -> Update:
        policies = {k: p.policy for k, p in self.policies.items()}
        admins = {k: p.policy for k, p in self.admin.items()}
        chosen = admins if isinstance(old if old is not None else new, AdminPolicy) else policies
        if old is not None:
            del chosen[old.key]
        if new is not None:
            chosen[new.key] = new
        cluster = self.cluster.with_policies(tuple(policies.values())).with_admin_policies(
            tuple(admins.values())
        )
        fresh = analyze(cluster, self.semantics, self.edges)
        self.__dict__.update(fresh.__dict__)
        return Update(full_recompute=True, reason=reason)


def analyze(
    cluster: Cluster, semantics: Semantics = DEFAULT_SEMANTICS, edges: Sequence[str] = ()
) -> ClassMatrix:
    """The class matrix of ``cluster``, its NetworkPolicies and its admin policies;
    with ``edges`` (addresses outside the cluster, e.g. :func:`edge_points`) also
    what every class may open to each of them."""
    vocabulary = Vocabulary.of(cluster.policies, semantics, cluster.admin_policies)
    index = ClassIndex(cluster, vocabulary)
    generators = _port_ranges(cluster.policies) + _admin_port_ranges(cluster.admin_policies)
    for cl in index.classes:
        generators.extend(PortRange(proto, port, port) for _, proto, port in cl.named_ports)
    matrix = ClassMatrix(cluster, index, PortAtoms(generators), semantics, edges)
    matrix._load(cluster.policies)
    for admin in cluster.admin_policies:
        matrix._add_admin(matrix._compile_admin(admin, checked=True))
    matrix._compute_all()
    return matrix


def edge_points(cluster: Cluster) -> tuple[str, ...]:
    """One address per region of outside address space the policies tell apart.

    The CIDRs of every ipBlock (with its excepts) and every admin ``networks``
    cut each IP version's space into intervals no policy splits; an interval's
    first address that is no pod's stands for all of it (intervals holding
    only pod addresses are left out). Egress to these points is egress to
    every outside address, region by region.
    """
    cuts: dict[int, set[int]] = {}
    for policy in cluster.policies:
        for direction in policy.effective_types:
            for rule in policy.rules(direction):
                for peer in rule.peers or ():
                    if peer.ip_block is not None:
                        for cidr in (peer.ip_block.cidr, *peer.ip_block.excepts):
                            _cut(cuts, cidr)
    for admin in cluster.admin_policies:
        for rule in admin.egress:
            for peer in rule.peers:
                for cidr in peer.networks or ():
                    _cut(cuts, cidr)
    cuts.setdefault(4, set())
    pods = {ipaddress.ip_address(p.ip) for p in cluster.pods if p.ip}
    out: list[str] = []
    for version, points in sorted(cuts.items()):
        top = 1 << (32 if version == 4 else 128)
        bounds = sorted({0, *points, top})
        make = ipaddress.IPv4Address if version == 4 else ipaddress.IPv6Address
        for lo, hi in zip(bounds, bounds[1:], strict=False):
            for candidate in range(lo, min(hi, lo + 64)):
                if make(candidate) not in pods:
                    out.append(str(make(candidate)))
                    break
    return tuple(out)


def _cut(cuts: dict[int, set[int]], cidr: str) -> None:
    net = ipaddress.ip_network(cidr, strict=False)
    cuts.setdefault(net.version, set()).update((int(net[0]), int(net[-1]) + 1))
