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
from netmend.k8s.model import Cluster, NetworkPolicy
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


def _keys(policies: Iterable[NetworkPolicy]) -> dict[str, NetworkPolicy]:
    return {p.key: p for p in policies}


def external_addresses(policies: Iterable[NetworkPolicy]) -> tuple[str, ...]:
    """One address per region the ipBlocks of ``policies`` cut: each block's first
    address and the one just past it (sorted, deduplicated)."""
    out = set()
    for pol in policies:
        for direction in (INGRESS, EGRESS):
            for rule in pol.rules(direction):
                for peer in rule.peers or ():
                    if peer.ip_block is None:
                        continue
                    for cidr in (peer.ip_block.cidr, *peer.ip_block.excepts):
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


def _why(new: Snapshot, src: int, dst: int, gained: PortSet, lost: PortSet) -> tuple[str, tuple[str, ...]]:
    first = (gained or lost).ranges()[0]
    verdict = connection_verdict(new, src, dst, first.protocol, first.start)
    return f"{first.protocol}/{first.start} now: {verdict.explain()}", deciding_policies(verdict, not gained)


def diff_policy_sets(
    cluster: Cluster, old: Sequence[NetworkPolicy], new: Sequence[NetworkPolicy]
) -> PolicySetDiff:
    """What changes when ``cluster`` runs ``new`` instead of ``old``."""
    sim = Simulator(cluster)
    snap_old, snap_new = sim.snapshot(tuple(old)), sim.snapshot(tuple(new))
    pods = sim.pods
    by_old, by_new = _keys(old), _keys(new)
    changes: dict[tuple[int, int], tuple[PortSet, PortSet]] = {}
    classes = _joint_classes(snap_old, snap_new)
    for src_class in classes:
        for dst_class in classes:
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
    rows += _external_rows(sim, snap_old, snap_new, (*old, *new))
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


def _external_rows(sim: Simulator, old: Snapshot, new: Snapshot, policies) -> list[DiffRow]:
    """Changes towards and from outside addresses, by workload when all its pods changed alike."""
    pods = sim.pods
    changes: dict[tuple[str, str], dict[int, tuple[PortSet, PortSet]]] = {}
    for address in external_addresses(policies):
        for direction in (EGRESS, INGRESS):
            for pod_index in range(len(pods)):
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
