"""Properties of ``check`` and ``diff`` on random clusters, against brute force:
every pod pair and port asked of the engine one by one (no classes, no port sets)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from k8s_strategies import NAMESPACES, POD_LABELS, PORT_NUMBERS, PROTOCOLS, clusters, policies

from netmend.k8s.check import check
from netmend.k8s.intent_code import parse_intent_code
from netmend.k8s.policydiff import diff_policy_sets
from netmend.k8s.semantics import Simulator

GRID = [(proto, port) for proto in PROTOCOLS for port in PORT_NUMBERS]

namespace_patterns = st.sampled_from([*NAMESPACES, "ns-*", "*", "n?-a"])
label_globs = st.dictionaries(st.sampled_from(sorted(POD_LABELS)), st.sampled_from(["web", "db", "front", "*", "b*"]),
                              max_size=2)
port_lists = st.lists(st.sampled_from(GRID), min_size=1, max_size=3, unique=True)


def _selection(namespace, labels) -> dict:
    out: dict = {"namespace": namespace}
    if labels:
        out["labels"] = labels
    return out



def _assert_rows_are_the_changes(sim, rows, before, after) -> None:
    """Each pod pair's diff row holds exactly the grid ports it gained and lost."""
    for i, src in enumerate(sim.pods):
        for j, dst in enumerate(sim.pods):
            if i == j:
                continue
            row = rows.get((f"{src.namespace}/{src.workload}", f"{dst.namespace}/{dst.workload}")) or rows.get(
                (src.key, dst.key))
            for proto, port in GRID:
                was, now = before.allowed(i, j, proto, port), after.allowed(i, j, proto, port)
                assert (row is not None and row.gained.contains(proto, port)) == (now and not was)
                assert (row is not None and row.lost.contains(proto, port)) == (was and not now)


@settings(max_examples=60, deadline=None)
@given(clusters(), st.sampled_from(["allow", "deny"]), namespace_patterns, label_globs, namespace_patterns,
       label_globs, port_lists)
def test_check_counts_what_brute_force_counts(cluster, expect, src_ns, src_labels, dst_ns, dst_labels, ports):
    doc = parse_intent_code({"assertions": [{expect: {
        "from": _selection(src_ns, src_labels), "to": _selection(dst_ns, dst_labels),
        "ports": [f"{port}/{proto}" for proto, port in ports]}}]})
    assertion = doc.assertions[0]
    sim = Simulator(cluster)
    snap = sim.snapshot()
    ns_labels = {n.name: dict(n.labels) for n in cluster.namespaces}

    def chosen(selection):
        return [i for i, p in enumerate(sim.pods)
                if selection.matches(p.namespace, ns_labels[p.namespace], dict(p.labels), p.workload)]

    pairs = [(i, j) for i in chosen(assertion.source) for j in chosen(assertion.target) if i != j]
    if not pairs:
        return  # check refuses an empty selection (tested elsewhere)
    failing = 0
    for i, j in pairs:
        allowed = [snap.allowed(i, j, proto, port) for proto, port in ports]
        failing += not all(allowed) if expect == "allow" else any(allowed)
    (result,) = check(cluster, doc.assertions, dns=False)
    assert (result.checked, result.failing) == (len(pairs), failing)
    assert result.holds == (failing == 0)


@settings(max_examples=40, deadline=None)
@given(clusters(max_policies=3), st.lists(policies("new0"), max_size=2), st.lists(policies("new1"), max_size=1))
def test_diff_rows_are_exactly_the_ports_gained_and_lost(cluster, extra, more):
    old = list(cluster.policies)
    new = [*old[1:], *extra, *more]  # drop one, add some
    result = diff_policy_sets(cluster, old, new)
    sim = Simulator(cluster)
    before, after = sim.snapshot(tuple(old)), sim.snapshot(tuple(new))
    rows = {(r.source, r.target): r for r in result.rows if not r.source.startswith("address")
            and not r.target.startswith("address")}
    _assert_rows_are_the_changes(sim, rows, before, after)
    back = diff_policy_sets(cluster, new, old)
    assert {(r.source, r.target, r.lost) for r in back.rows} == {(r.source, r.target, r.gained) for r in result.rows}
    assert diff_policy_sets(cluster, old, old).rows == ()


@settings(max_examples=40, deadline=None)
@given(clusters(max_policies=3), st.lists(policies("new0"), max_size=2))
def test_diff_towards_outside_addresses_matches_verdicts_port_by_port(cluster, extra):
    from netmend.k8s.policydiff import external_addresses
    from netmend.k8s.semantics import EGRESS, INGRESS

    old = list(cluster.policies)
    new = [*old[1:], *extra]
    result = diff_policy_sets(cluster, old, new)
    sim = Simulator(cluster)
    before, after = sim.snapshot(tuple(old)), sim.snapshot(tuple(new))
    rows = {(r.source, r.target): r for r in result.rows}
    for address in external_addresses((*old, *new)):
        for i, pod in enumerate(sim.pods):
            for direction in (EGRESS, INGRESS):
                ends = (pod.key, f"address {address}")
                row = rows.get(ends if direction == EGRESS else ends[::-1])
                for proto, port in GRID:
                    was = before.verdict_external(i, address, direction, proto, port).allowed
                    now = after.verdict_external(i, address, direction, proto, port).allowed
                    assert (row is not None and row.gained.contains(proto, port)) == (now and not was)
                    assert (row is not None and row.lost.contains(proto, port)) == (was and not now)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_check_and_diff_agree_with_brute_force_under_admin_tiers(data):
    from admin_strategies import admin_policies, tiered_clusters

    cluster = data.draw(tiered_clusters())
    doc = parse_intent_code({"assertions": [{data.draw(st.sampled_from(["allow", "deny"])): {
        "from": {"namespace": "*"}, "to": {"namespace": data.draw(namespace_patterns)},
        "ports": [f"{port}/{proto}" for proto, port in data.draw(port_lists)]}}]})
    (assertion,) = doc.assertions
    sim = Simulator(cluster)
    snap = sim.snapshot()
    ns_labels = {n.name: dict(n.labels) for n in cluster.namespaces}
    chosen = [[i for i, p in enumerate(sim.pods)
               if sel.matches(p.namespace, ns_labels[p.namespace], dict(p.labels), p.workload)]
              for sel in (assertion.source, assertion.target)]
    pairs = [(i, j) for i in chosen[0] for j in chosen[1] if i != j]
    ports = [(r.protocol, r.start) for r in assertion.ports.ranges()]
    if pairs:
        failing = sum(
            (not all(snap.allowed(i, j, p, q) for p, q in ports)) if assertion.allow
            else any(snap.allowed(i, j, p, q) for p, q in ports)
            for i, j in pairs
        )
        (result,) = check(cluster, doc.assertions, dns=False)
        assert (result.checked, result.failing) == (len(pairs), failing)
    old_admin = cluster.admin_policies
    new_admin = (*old_admin[1:], *data.draw(st.lists(admin_policies(9), max_size=1)))
    result = diff_policy_sets(cluster, cluster.policies, cluster.policies, old_admin, new_admin)
    before = sim.snapshot(cluster.policies, admin_policies=old_admin)
    after = sim.snapshot(cluster.policies, admin_policies=new_admin)
    rows = {(r.source, r.target): r for r in result.rows}
    _assert_rows_are_the_changes(sim, rows, before, after)
