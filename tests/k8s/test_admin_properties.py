"""Random clusters with admin policies: the compiled engine against a literal reading of the
API reference, the three evaluation paths against each other, explain chains against verdicts."""

from __future__ import annotations

from admin_strategies import reference_direction, tiered_clusters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from netmend.k8s.admin import admin_policy_to_dict, parse_admin_policy
from netmend.k8s.explain import explain_connection
from netmend.k8s.semantics import Simulator

PROBES = [("TCP", 80), ("TCP", 443), ("UDP", 53), ("SCTP", 9090), ("TCP", 8080), ("TCP", 5000)]
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _np_side(side, peer):
    """The NetworkPolicy tier's answer: None when not isolated; traffic with the node
    (a hostNetwork peer) is always allowed, else some rule must admit it."""
    if not side.isolated:
        return None
    return peer.host_network or bool(side.allowed_by)


@SETTINGS
@given(tiered_clusters(), st.data())
def test_engine_agrees_with_the_reference_reading(cluster, data):
    sim = Simulator(cluster)
    snap = sim.snapshot()
    np_only = sim.snapshot(admin_policies=())
    n = len(sim.pods)
    for _ in range(8):
        src = data.draw(st.integers(0, n - 1))
        dst = data.draw(st.integers(0, n - 1))
        protocol, port = data.draw(st.sampled_from(PROBES))
        via = data.draw(st.booleans())
        exempt = src == dst and not via
        np_verdict = np_only.verdict(src, dst, protocol, port, via_service=via)
        s, d = sim.pods[src], sim.pods[dst]
        want = reference_direction(cluster, _np_side(np_verdict.egress, d), "Egress", s, d, d, protocol, port, exempt) and (
            reference_direction(cluster, _np_side(np_verdict.ingress, s), "Ingress", d, s, d, protocol, port, exempt)
        )
        fast = snap.allowed(src, dst, protocol, port, via_service=via)
        verdict = snap.verdict(src, dst, protocol, port, via_service=via)
        ports = snap.connections(src, dst, via_service=via)
        assert fast == want, verdict.explain()
        assert verdict.allowed == want
        assert ports.contains(protocol, port) == want, str(ports)
        chain = explain_connection(snap, src, dst, protocol, port, via_service=via)
        assert chain.allowed == want


@SETTINGS
@given(tiered_clusters())
def test_connectivity_matches_pairwise_connections(cluster):
    snap = Simulator(cluster).snapshot()
    matrix = snap.connectivity()
    n = len(snap.sim.pods)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            conns = snap.connections(i, j)
            assert matrix.get((i, j), None) == (conns or None)


@SETTINGS
@given(tiered_clusters(max_pods=2, max_policies=0))
def test_generated_admin_policies_round_trip_through_the_validating_loader(cluster):
    for pol in cluster.admin_policies:
        assert parse_admin_policy(admin_policy_to_dict(pol)) == pol


# The actions each kind takes, as the model holds them (v1alpha1 writes Accept as Allow).
KIND_ACTIONS = {"ClusterNetworkPolicy": ("Accept", "Deny", "Pass"), "AdminNetworkPolicy": ("Accept", "Deny", "Pass"),
                "BaselineAdminNetworkPolicy": ("Accept", "Deny")}


@SETTINGS
@given(tiered_clusters(max_pods=2, max_policies=0), st.data())
def test_a_rule_given_another_action_is_written_with_that_action(cluster, data):
    """``replace(rule, action=...)`` (how edits flip a rule) never keeps the old spelling: the
    manifest says the new action in the kind's own words and reads back as the new action."""
    from dataclasses import replace

    from netmend.k8s.admin import action_spelling

    for pol in cluster.admin_policies:
        for direction in ("ingress", "egress"):
            rules = list(getattr(pol, direction))
            for i, rule in enumerate(rules):
                action = data.draw(st.sampled_from(KIND_ACTIONS[pol.kind]))
                rules[i] = replace(rule, action=action)
                assert rules[i].written_action in ("", action_spelling(pol.kind, action))
            edited = replace(pol, **{direction: tuple(rules)})
            written = admin_policy_to_dict(edited)["spec"].get(direction, [])
            assert [r["action"] for r in written] == [action_spelling(pol.kind, r.action) for r in rules]
            back = parse_admin_policy(admin_policy_to_dict(edited))
            assert [r.action for r in back.rules(direction.capitalize())] == [r.action for r in rules]
            pol = edited
