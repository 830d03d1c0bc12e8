"""The semantic difference of two policy sets on one cluster: connections gained and lost.

Two policy sets are compared by what they allow, not by how they are
written: for every ordered pair of distinct pods, the ports the new set
allows beyond the old one are *gained* (the policies widened) and the ports
it no longer allows are *lost* (they narrowed). Addresses outside the cluster
are compared at one representative address per ipBlock boundary named in
either set. Pods that neither set can tell apart are computed once.

Rows are by workload (``namespace/workload``) when every pod pair of the two
workloads changed alike, else by pod (``namespace/pod``). Each row names the
policies of the new set that decide its first changed port.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from netmend.k8s.check import deciding_policies, minus
from netmend.k8s.decide import (
    allowed_ports,
    allowed_ports_external,
    connection_verdict,
    external_verdict,
    pod_classes,
)
from netmend.k8s.model import AdminPolicy, Cluster, NetworkPolicy
from netmend.k8s.portset import PortSet
from netmend.k8s.semantics import EGRESS, INGRESS, Simulator, Snapshot


@dataclass(frozen=True)
class DiffRow:
    """One source -> target whose allowed ports changed."""

    source: str
    target: str
    gained: PortSet
    lost: PortSet
    why: str = ""
    policies: tuple[str, ...] = ()


@dataclass(frozen=True)
class PolicySetDiff:
    """Rows of changed connections, and which policies were added, removed or changed."""

    rows: tuple[DiffRow, ...]
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    @property
    def widened(self) -> bool:
        """Whether the new set allows some connection the old one did not."""
        return any(r.gained for r in self.rows)

    @property
    def narrowed(self) -> bool:
        """Whether the new set denies some connection the old one allowed."""
        return any(r.lost for r in self.rows)

    def fails(self, fail_on: str | None) -> bool:
        """Whether ``--fail-on`` (``widen``, ``narrow``, ``any`` or ``None``) is triggered."""
        if fail_on == "widen":
            return self.widened
        if fail_on == "narrow":
            return self.narrowed
        if fail_on == "any":
            return self.widened or self.narrowed
        return False


def _keys(policies: Iterable[NetworkPolicy | AdminPolicy]) -> dict[str, NetworkPolicy | AdminPolicy]:
    return {p.key: p for p in policies}


def _cidrs(policy: NetworkPolicy | AdminPolicy) -> Iterable[str]:
    """Every CIDR an ipBlock (or an admin ``networks`` peer) of ``policy`` names."""
    if isinstance(policy, AdminPolicy):
        for rule in (*policy.ingress, *policy.egress):
            for peer in rule.peers:
                yield from peer.networks or ()
        return
    for direction in (INGRESS, EGRESS):
        for rule in policy.rules(direction):
            for peer in rule.peers or ():
                if peer.ip_block is not None:
                    yield from (peer.ip_block.cidr, *peer.ip_block.excepts)


def external_addresses(policies: Iterable[NetworkPolicy | AdminPolicy]) -> tuple[str, ...]:
    """One address per region the ipBlocks (and admin networks) of ``policies`` cut:
    each block's first address and the one just past it (sorted, deduplicated)."""
    out = set()
    for pol in policies:
        for cidr in _cidrs(pol):
            net = ipaddress.ip_network(cidr, strict=False)
            out.add(net.network_address)
            past = int(net.broadcast_address) + 1
            if past < 2 ** net.max_prefixlen:
                out.add(ipaddress.ip_address(past) if net.version == 4 else ipaddress.IPv6Address(past))
    return tuple(str(a) for a in sorted(out, key=lambda a: (a.version, int(a))))


def _joint_classes(old: Snapshot, new: Snapshot) -> list[list[int]]:
    """Pods neither snapshot can tell apart."""
    class_old = {pod: n for n, members in enumerate(pod_classes(old)) for pod in members}
    groups: dict[tuple[int, int], list[int]] = {}
    for n, members in enumerate(pod_classes(new)):
        for pod in members:
            groups.setdefault((class_old[pod], n), []).append(pod)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])


def _moved(old: Snapshot, new: Snapshot) -> tuple[list[bool] | None, list[bool]]:
    """Per pod, whether its egress (first) or ingress rules differ between the snapshots.

    Compiled rules are cached by policy value, so an unchanged policy yields
    the very same rule objects in both. ``(None, ...)`` when something else
    could differ (other admin tiers), so every pair is compared.
    """
    n = len(old.sim.pods)
    if getattr(old, "tiers", None) is not getattr(new, "tiers", None):
        return None, [True] * n

    def signature(rules) -> tuple | None:
        return None if rules is None else tuple(id(r) for r in rules)

    egress = [signature(old.egress[i]) != signature(new.egress[i]) for i in range(n)]
    ingress = [signature(old.ingress[i]) != signature(new.ingress[i]) for i in range(n)]
    return egress, ingress


def _why(new: Snapshot, src: int, dst: int, gained: PortSet, lost: PortSet) -> tuple[str, tuple[str, ...]]:
    first = (gained or lost).ranges()[0]
    verdict = connection_verdict(new, src, dst, first.protocol, first.start)
    return f"{first.protocol}/{first.start} now: {verdict.explain()}", deciding_policies(verdict, not gained)


def diff_policy_sets(
    cluster: Cluster,
    old: Sequence[NetworkPolicy],
    new: Sequence[NetworkPolicy],
    old_admin: Sequence[AdminPolicy] | None = None,
    new_admin: Sequence[AdminPolicy] | None = None,
) -> PolicySetDiff:
    """What changes when ``cluster`` runs ``new`` instead of ``old``.

    ``old_admin``/``new_admin`` are the admin-tier policies of each side
    (``None``: the cluster's own).
    """
    sim = Simulator(cluster)
    old_admin = tuple(cluster.admin_policies if old_admin is None else old_admin)
    new_admin = tuple(cluster.admin_policies if new_admin is None else new_admin)
    snap_old = sim.snapshot(tuple(old), admin_policies=old_admin)
    snap_new = sim.snapshot(tuple(new), admin_policies=new_admin)
    pods = sim.pods
    by_old, by_new = _keys((*old, *old_admin)), _keys((*new, *new_admin))
    changes: dict[tuple[int, int], tuple[PortSet, PortSet]] = {}
    classes = _joint_classes(snap_old, snap_new)
    egress_moved, ingress_moved = _moved(snap_old, snap_new)
    for src_class in classes:
        # Members of a joint class are selected alike, so the first stands for all.
        source_still = egress_moved is not None and not egress_moved[src_class[0]]
        for dst_class in classes:
            if source_still and not ingress_moved[dst_class[0]]:
                continue  # neither end's rules changed: the connection cannot have
            a, b = src_class[0], dst_class[0]
            if a == b and len(src_class) == 1:
                continue
            if a == b:
                b = dst_class[1]
            before, after = allowed_ports(snap_old, a, b), allowed_ports(snap_new, a, b)
            if before == after:
                continue
            delta = (minus(after, before), minus(before, after))
            for i in src_class:
                for j in dst_class:
                    if i != j:
                        changes[(i, j)] = delta
    rows = _group(pods, changes, snap_new)
    rows += _external_rows(sim, snap_old, snap_new, (*old, *new, *old_admin, *new_admin), (egress_moved, ingress_moved))
    return PolicySetDiff(
        rows=tuple(rows),
        added=tuple(sorted(set(by_new) - set(by_old))),
        removed=tuple(sorted(set(by_old) - set(by_new))),
        changed=tuple(sorted(k for k in set(by_old) & set(by_new) if by_old[k] != by_new[k])),
    )


def _group(pods, changes: dict[tuple[int, int], tuple[PortSet, PortSet]], new: Snapshot) -> list[DiffRow]:
    members: dict[tuple[str, str], list[int]] = {}
    for i, pod in enumerate(pods):
        members.setdefault((pod.namespace, pod.workload), []).append(i)
    workload_of = {i: (p.namespace, p.workload) for i, p in enumerate(pods)}
    per_pair: dict[tuple[tuple[str, str], tuple[str, str]], dict[tuple[int, int], tuple[PortSet, PortSet]]] = {}
    for (i, j), delta in changes.items():
        per_pair.setdefault((workload_of[i], workload_of[j]), {})[(i, j)] = delta
    rows = []
    for (ws, wt), pairs in sorted(per_pair.items()):
        possible = sum(1 for i in members[ws] for j in members[wt] if i != j)
        deltas = set(pairs.values())
        if len(deltas) == 1 and len(pairs) == possible:
            (gained, lost), (i, j) = deltas.pop(), min(pairs)
            why, policies = _why(new, i, j, gained, lost)
            rows.append(DiffRow(f"{ws[0]}/{ws[1]}", f"{wt[0]}/{wt[1]}", gained, lost, why, policies))
            continue
        for (i, j), (gained, lost) in sorted(pairs.items(), key=lambda kv: (pods[kv[0][0]].key, pods[kv[0][1]].key)):
            why, policies = _why(new, i, j, gained, lost)
            rows.append(DiffRow(pods[i].key, pods[j].key, gained, lost, why, policies))
    return rows


def _external_rows(sim: Simulator, old: Snapshot, new: Snapshot, policies, moved) -> list[DiffRow]:
    """Changes towards and from outside addresses, by workload when all its pods changed alike."""
    pods = sim.pods
    egress_moved, ingress_moved = moved
    changes: dict[tuple[str, str], dict[int, tuple[PortSet, PortSet]]] = {}
    for address in external_addresses(policies):
        for direction in (EGRESS, INGRESS):
            side = egress_moved if direction == EGRESS else ingress_moved
            for pod_index in range(len(pods)):
                if side is not None and not side[pod_index]:
                    continue
                before = allowed_ports_external(old, pod_index, address, direction)
                after = allowed_ports_external(new, pod_index, address, direction)
                if before != after:
                    delta = (minus(after, before), minus(before, after))
                    changes.setdefault((address, direction), {})[pod_index] = delta
    members: dict[tuple[str, str], list[int]] = {}
    for i, pod in enumerate(pods):
        members.setdefault((pod.namespace, pod.workload), []).append(i)
    rows = []
    for (address, direction), by_pod in changes.items():
        groups: dict[tuple[str, str], list[int]] = {}
        for i in sorted(by_pod):
            groups.setdefault((pods[i].namespace, pods[i].workload), []).append(i)
        for (namespace, workload), changed in sorted(groups.items()):
            alike = len({by_pod[i] for i in changed}) == 1 and len(changed) == len(members[(namespace, workload)])
            for i in changed[:1] if alike else changed:
                gained, lost = by_pod[i]
                first = (gained or lost).ranges()[0]
                verdict = external_verdict(new, i, address, direction, first.protocol, first.start)
                name = f"{namespace}/{workload}" if alike else pods[i].key
                ends = (name, f"address {address}")
                source, target = ends if direction == EGRESS else ends[::-1]
                rows.append(DiffRow(source, target, gained, lost, f"{first.protocol}/{first.start} now: {verdict.explain()}",
                                    deciding_policies(verdict, not gained)))
    return rows
