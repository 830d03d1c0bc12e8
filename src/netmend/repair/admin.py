"""Repair across tiers: when an admin or baseline rule decides, edit that policy.

A connection an admin-tier rule denies (or accepts) cannot be changed by any
NetworkPolicy edit: the admin tier decides before NetworkPolicies are read.
The one-rule change that does is an exception placed just before the
deciding rule, in the same policy: the opposite action, for exactly the two
workloads and the port of the connection. It is verified like every plan:
re-simulated over the cluster's whole probe universe, it must flip this
probe and move no other. Pure: no I/O.
"""

from __future__ import annotations

import difflib
import re

import yaml

from netmend.k8s.admin import action_spelling, admin_policy_to_dict, parse_admin_policy
from netmend.k8s.errors import K8sError
from netmend.k8s.explain import TargetExplanation
from netmend.k8s.model import (
    ACCEPT,
    ADMIN_TIER,
    BASELINE_TIER,
    CLUSTER_NETWORK_POLICY,
    DENY,
    NAMESPACE_NAME_LABEL,
    Cluster,
)
from netmend.k8s.probe import Prober
from netmend.k8s.semantics import Simulator
from netmend.repair.intent import probe_universe, with_probes
from netmend.repair.resolve import workload_peer

_NAME_CHARS = re.compile(r"[^a-z0-9-]+")


def _deciding(explanation: TargetExplanation, want: bool):
    """The admin/baseline rule every landing's deciding side shares, with its side."""
    found = None
    for chain in explanation.connections:
        sides = [s for s in (chain.egress, chain.ingress) if s is not None]
        if want:  # it is denied: every denying side must be tier-decided by one rule
            deciders = [s for s in sides if not s.allowed]
        else:  # it is allowed: the ingress side (else egress) must be decided by an admin Accept
            deciders = [s for s in reversed(sides) if s.verdict.tier in (ADMIN_TIER, BASELINE_TIER)][:1]
        if len(deciders) != 1:
            return None
        side = deciders[0]
        tier = side.verdict.tier
        match = side.verdict.admin if tier == ADMIN_TIER else side.verdict.baseline if tier == BASELINE_TIER else None
        if match is None:
            return None
        key = (match.policy, match.direction, match.index)
        if found is not None and found[0] != key:
            return None
        found = (key, match, side.direction)
    return found


def admin_flip(cluster: Cluster, explanation: TargetExplanation, *, dns: bool) -> dict | None:
    """The verified admin-policy edit that flips ``explanation``'s probe, or why there is none.

    ``None`` when no admin or baseline rule decides the connection (the
    NetworkPolicy planner's answer stands alone).
    """
    want = not explanation.allowed
    if explanation.probe is None or not explanation.connections or not explanation.dns_ok:
        return None
    found = _deciding(explanation, want)
    if found is None:
        return None
    (policy_key, direction, index), match, _ = found
    reason = (
        f"{match} decides this connection before any NetworkPolicy is read"
        if match.tier == ADMIN_TIER
        else f"{match} decides this connection (no NetworkPolicy selects the pod)"
    )
    sim = Simulator(cluster)
    try:
        policy = cluster.admin_policy(policy_key)
    except KeyError:
        return {"found": False, "tier": match.tier, "reason": reason}
    by_key = {p.key: i for i, p in enumerate(sim.pods)}
    src = by_key[explanation.connections[0].source]
    dsts = sorted({by_key[c.destination] for c in explanation.connections})
    ports = sorted({c.port for c in explanation.connections})
    ends = [src] if direction == "Ingress" else dsts
    peers = list(dict.fromkeys((sim.pods[i].namespace, workload_peer(sim, i, "").pod_labels) for i in ends))
    obj = admin_policy_to_dict(policy)
    field = direction.lower()
    peer_field = "from" if direction == "Ingress" else "to"
    kind = policy.kind
    action = action_spelling(kind, DENY if not want else ACCEPT)
    protocol = explanation.protocol
    if kind == CLUSTER_NETWORK_POLICY:
        port_entries = [{protocol.lower(): {"destinationPort": {"number": p}}} for p in ports]
    else:
        port_entries = [{"portNumber": {"protocol": protocol, "port": p}} for p in ports]
    source, target = explanation.probe
    name = _NAME_CHARS.sub("-", f"{'allow' if want else 'deny'}-{source}-to-{target}".lower())[:100]
    new_rule = {
        "name": name,
        "action": action,
        peer_field: [
            {"pods": {
                "namespaceSelector": {"matchLabels": {NAMESPACE_NAME_LABEL: namespace}},
                "podSelector": {"matchLabels": dict(labels)},
            }}
            for namespace, labels in peers
        ],
        ("protocols" if kind == CLUSTER_NETWORK_POLICY else "ports"): port_entries,
    }
    after = dict(obj, spec=dict(obj["spec"]))
    rules = list(after["spec"].get(field) or [])
    rules.insert(index, new_rule)
    after["spec"][field] = rules
    try:
        edited = parse_admin_policy(after, policy_key)
    except K8sError as exc:
        return {"found": False, "tier": match.tier, "reason": f"{reason}; the exception rule does not fit the policy: {exc}"}
    universe = with_probes(probe_universe(cluster), [explanation.probe])
    others = tuple(p for p in cluster.admin_policies if p.key != policy_key)
    before_matrix = Prober(cluster, universe, dns=dns).run()
    after_matrix = Prober(cluster.with_admin_policies((*others, edited)), universe, dns=dns).run()
    moved = [
        f"{s} -> {t}"
        for (s, cells), (_, new_cells) in zip(before_matrix.rows, after_matrix.rows, strict=True)
        for (t, v), (_, nv) in zip(cells, new_cells, strict=True)
        if v != nv and (s, t) != explanation.probe
    ]
    flipped = after_matrix.get(*explanation.probe) == want
    diff = "".join(
        difflib.unified_diff(
            yaml.safe_dump(obj, sort_keys=False).splitlines(keepends=True),
            yaml.safe_dump(after, sort_keys=False).splitlines(keepends=True),
            fromfile=f"{policy_key} (before)",
            tofile=f"{policy_key} (after)",
        )
    )
    if not flipped or moved:
        why = "it does not flip the probe" if not flipped else f"it also moves {', '.join(moved[:5])}"
        return {"found": False, "tier": match.tier, "policy": policy_key,
                "reason": f"{reason}; an exception rule before it was tried: {why}"}
    return {"found": True, "tier": match.tier, "policy": policy_key, "reason": reason, "diff": diff, "after": after,
            "rule": new_rule, "field": field, "index": index}



def tier_blockers(cluster: Cluster, stated, *, dns: bool = True) -> tuple[dict, ...]:
    """The stated probes an admin-tier rule decides against the intent: no NetworkPolicy
    edit can reach them. Each entry: ``probe`` (source, target), ``reason`` and ``admin``
    (:func:`admin_flip`'s verified exception rule, or why there is none).

    Call it before planning: a non-empty answer is the honest "no plan", and
    says which admin policy to change instead.
    """
    from netmend.k8s.explain import explain_target
    from netmend.repair.resolve import dns_endpoints

    sim = Simulator(cluster)
    snap = sim.snapshot()
    endpoints = dns_endpoints(sim) if dns else None
    out = []
    for source, cells in stated.rows:
        for target, want in cells:
            explanation = explain_target(snap, source, target, dns_endpoints=endpoints)
            if explanation.allowed == want:
                continue
            flip = admin_flip(cluster, explanation, dns=dns)
            if flip is None or flip["tier"] != ADMIN_TIER:
                continue
            out.append({"probe": (source, target), "reason": f"{source} -> {target}: {flip['reason']}", "admin": flip})
    return tuple(out)


def admin_no_plan(cluster: Cluster, stated, *, dns: bool = True) -> str | None:
    """Why no NetworkPolicy plan can reach ``stated`` because an admin-tier rule
    decides some of its probes first (``None`` when none does), naming the rule
    and, where one was verified, the exception the admin policy would need."""
    if not cluster.admin_policies:
        return None
    blockers = tier_blockers(cluster, stated, dns=dns)
    if not blockers:
        return None
    parts = []
    for blocker in blockers:
        flip = blocker["admin"]
        fix = (
            f"; an exception rule {flip['rule']['name']!r} ({flip['rule']['action']}) before it in "
            f"{flip['policy']} is verified to flip it and move no other probe"
            if flip.get("found")
            else ""
        )
        parts.append(blocker["reason"] + fix)
    return (
        "an admin-tier rule decides first, so no NetworkPolicy edit can change it: " + "; ".join(parts)
    )
