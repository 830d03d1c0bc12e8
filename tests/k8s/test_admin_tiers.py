"""Truth tables of the admin tiers, one small case per rule of the API reference.

Every case is checked three ways that share no code path: ``allowed`` (the
fast oracle), ``verdict`` (the evidence) and ``connections`` (port sets).
"""

from __future__ import annotations

import ipaddress

import pytest
from admin_cases import anp, banp, cnp, ns_peer, pods_peer, rule, tcp
from k8s_cases import namespace, pod, policy

from netmend.k8s.cluster import build_cluster
from netmend.k8s.model import Pod, labels_of
from netmend.k8s.semantics import Simulator

DENY_ALL_NP = {"podSelector": {}, "policyTypes": ["Ingress"]}
ALLOW_ALL_NP = {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{}]}


def decide(objects, src, dst, port=80, proto="TCP", via_service=False):
    """The allowed answer, after checking the three evaluation paths agree."""
    cluster = build_cluster(objects)
    snap = Simulator(cluster).snapshot()
    idx = {p.name: i for i, p in enumerate(cluster.pods)}
    s, d = idx[src], idx[dst]
    fast = snap.allowed(s, d, proto, port, via_service=via_service)
    verdict = snap.verdict(s, d, proto, port, via_service=via_service)
    ports = snap.connections(s, d, via_service=via_service)
    assert verdict.allowed == fast, verdict.explain()
    assert ports.contains(proto, port) == fast, str(ports)
    return fast


def sides(objects, src, dst, port=80, proto="TCP"):
    cluster = build_cluster(objects)
    snap = Simulator(cluster).snapshot()
    idx = {p.name: i for i, p in enumerate(cluster.pods)}
    return snap.verdict(idx[src], idx[dst], proto, port)


BASE = [pod("a", app="a"), pod("b", app="b")]


def test_no_admin_policy_default_allow():
    assert decide(BASE + [cnp("noop", ingress=[rule("Deny", pods_peer(app="nobody"))])], "a", "b")


def test_admin_deny_beats_a_networkpolicy_allow():
    objs = BASE + [policy("allow", ALLOW_ALL_NP), cnp("deny", ingress=[rule("Deny", pods_peer(app="a"))])]
    assert not decide(objs, "a", "b")
    v = sides(objs, "a", "b").ingress
    assert (v.tier, v.admin.policy, v.admin.index) == ("Admin", "ClusterNetworkPolicy/deny", 0)


def test_admin_accept_beats_a_networkpolicy_deny():
    objs = BASE + [policy("deny", DENY_ALL_NP), cnp("accept", ingress=[rule("Accept", pods_peer(app="a"))])]
    assert decide(objs, "a", "b")
    assert sides(objs, "a", "b").ingress.tier == "Admin"


def test_admin_pass_hands_over_to_the_networkpolicy_tier():
    passing = cnp("pass", priority=1, ingress=[rule("Pass", pods_peer(app="a"))])
    denying = cnp("deny", priority=2, ingress=[rule("Deny", pods_peer(app="a"))])
    # Pass skips the lower-precedence admin Deny; no NetworkPolicy: default allow.
    assert decide(BASE + [passing, denying], "a", "b")
    # Pass, then the NetworkPolicy's implicit deny decides.
    assert not decide(BASE + [passing, denying, policy("np", DENY_ALL_NP)], "a", "b")
    v = sides(BASE + [passing, denying, policy("np", DENY_ALL_NP)], "a", "b").ingress
    assert v.tier == "NetworkPolicy" and v.admin.action == "Pass"


def test_admin_pass_then_baseline_decides_for_unselected_pods():
    objs = BASE + [
        cnp("pass", ingress=[rule("Pass", pods_peer(app="a"))]),
        cnp("base", tier="Baseline", ingress=[rule("Deny", pods_peer(app="a"))]),
    ]
    assert not decide(objs, "a", "b")
    assert sides(objs, "a", "b").ingress.tier == "Baseline"


@pytest.mark.parametrize(("accept_priority", "deny_priority", "want"), [(10, 20, True), (20, 10, False)])
def test_lower_priority_value_goes_first(accept_priority, deny_priority, want):
    objs = BASE + [
        cnp("acc", priority=accept_priority, ingress=[rule("Accept", pods_peer(app="a"))]),
        cnp("den", priority=deny_priority, ingress=[rule("Deny", pods_peer(app="a"))]),
    ]
    assert decide(objs, "a", "b") is want


@pytest.mark.parametrize(("first", "want"), [("Accept", True), ("Deny", False)])
def test_first_matching_rule_wins_within_a_policy(first, want):
    second = "Deny" if first == "Accept" else "Accept"
    objs = BASE + [cnp("p", ingress=[rule(first, pods_peer(app="a")), rule(second, pods_peer(app="a"))])]
    assert decide(objs, "a", "b") is want


def test_non_matching_rule_is_skipped_for_the_next():
    objs = BASE + [
        cnp("p", ingress=[rule("Accept", pods_peer(app="nobody")), rule("Deny", pods_peer(app="a"))])
    ]
    assert not decide(objs, "a", "b")
    assert sides(objs, "a", "b").ingress.admin.index == 1


def test_networkpolicy_implicit_deny_is_final_over_baseline_accept():
    objs = BASE + [
        policy("np", DENY_ALL_NP),
        cnp("base", tier="Baseline", ingress=[rule("Accept", pods_peer(app="a"))]),
    ]
    assert not decide(objs, "a", "b")


def test_networkpolicy_allow_overrides_baseline_deny():
    np = {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "a"}}}]}]}
    objs = BASE + [policy("np", np), banp(ingress=[{"action": "Deny", "from": [ns_peer()]}])]
    assert decide(objs, "a", "b")


def test_baseline_deny_applies_to_pods_no_networkpolicy_selects():
    objs = BASE + [banp(ingress=[{"action": "Deny", "from": [pods_peer(app="a")]}])]
    assert not decide(objs, "a", "b")
    assert decide(objs, "b", "a")  # a's ingress is not in the subject's rules for b as source


def test_baseline_pass_goes_to_default_allow():
    objs = BASE + [
        cnp("pass", tier="Baseline", priority=1, ingress=[rule("Pass", pods_peer(app="a"))]),
        cnp("deny", tier="Baseline", priority=2, ingress=[rule("Deny", ns_peer())]),
    ]
    assert decide(objs, "a", "b")
    v = sides(objs, "a", "b").ingress
    assert v.tier == "Default" and v.baseline.action == "Pass"


def test_v1alpha1_admin_allow_is_accept_and_ranks_like_a_cnp():
    objs = BASE + [policy("np", DENY_ALL_NP), anp("allow", ingress=[{"action": "Allow", "from": [pods_peer(app="a")]}])]
    assert decide(objs, "a", "b")


def test_egress_accept_does_not_override_ingress_at_the_destination():
    objs = BASE + [
        cnp("out", subject={"pods": {"podSelector": {"matchLabels": {"app": "a"}}}},
            egress=[rule("Accept", pods_peer(app="b"), direction="to")]),
        cnp("in", priority=20, subject={"pods": {"podSelector": {"matchLabels": {"app": "b"}}}},
            ingress=[rule("Deny", pods_peer(app="a"))]),
    ]
    assert not decide(objs, "a", "b")
    v = sides(objs, "a", "b")
    assert v.egress.allowed and not v.ingress.allowed


def test_egress_deny_at_the_source():
    objs = BASE + [cnp("out", egress=[rule("Deny", pods_peer(app="b"), direction="to")])]
    assert not decide(objs, "a", "b")
    assert decide(objs, "b", "a")


@pytest.mark.parametrize(
    ("protocols", "port", "proto", "want"),
    [
        (None, 12345, "UDP", False),  # no protocols: every protocol and port
        ([tcp(80)], 80, "TCP", False),
        ([tcp(80)], 81, "TCP", True),
        ([tcp(80)], 80, "UDP", True),
        ([tcp(8000, 8080)], 8000, "TCP", False),  # range start inclusive
        ([tcp(8000, 8080)], 8080, "TCP", False),  # range end inclusive
        ([tcp(8000, 8080)], 8081, "TCP", True),
        ([{"udp": {"destinationPort": {"number": 53}}}], 53, "UDP", False),
        ([{"sctp": {"destinationPort": {"number": 9}}}], 9, "SCTP", False),
        ([{"sctp": {"destinationPort": {"number": 9}}}], 9, "TCP", True),
        ([tcp(22), tcp(80)], 80, "TCP", False),  # entries are OR-ed
    ],
)
def test_protocols_match_the_destination_port(protocols, port, proto, want):
    objs = BASE + [cnp("p", ingress=[rule("Deny", pods_peer(app="a"), protocols=protocols)])]
    assert decide(objs, "a", "b", port=port, proto=proto) is want


def test_named_port_resolves_on_the_destination_pod():
    objs = [
        pod("a", app="a"),
        pod("b", app="b", ports=(("web", 8080, "TCP"),)),
        pod("c", app="c", ports=(("web", 9090, "TCP"),)),
        cnp("p", egress=[rule("Deny", ns_peer(), protocols=[{"destinationNamedPort": "web"}], direction="to")]),
    ]
    assert not decide(objs, "a", "b", port=8080)
    assert decide(objs, "a", "b", port=9090)
    assert not decide(objs, "a", "c", port=9090)
    assert decide(objs, "a", "c", port=8080)


def test_named_port_takes_the_container_ports_protocol():
    objs = [
        pod("a", app="a"),
        pod("b", app="b", ports=(("dns", 53, "UDP"),)),
        cnp("p", ingress=[rule("Deny", ns_peer(), protocols=[{"destinationNamedPort": "dns"}])]),
    ]
    assert not decide(objs, "a", "b", port=53, proto="UDP")
    assert decide(objs, "a", "b", port=53, proto="TCP")


def test_networks_match_pod_addresses_too():
    objs = [
        pod("a", ip="10.244.0.5", app="a"),
        pod("b", ip="10.244.0.6", app="b"),
        pod("c", ip="10.245.0.7", app="c"),
        cnp("p", egress=[rule("Deny", {"networks": ["10.244.0.0/24"]}, direction="to")]),
    ]
    assert not decide(objs, "c", "b")
    assert decide(objs, "b", "c")
    cluster = build_cluster(objs)
    snap = Simulator(cluster).snapshot()
    assert not snap.verdict_external(0, "10.244.0.200", "Egress", "TCP", 80).allowed
    assert snap.verdict_external(0, "192.0.2.1", "Egress", "TCP", 80).allowed
    assert not snap.connections_external(0, "10.244.0.200", "Egress")


def test_pods_subject_is_namespace_and_pod_selector():
    objs = [
        namespace("prod", env="prod"),
        namespace("dev", env="dev"),
        pod("src", ns="dev", app="x"),
        pod("web-prod", ns="prod", app="web"),
        pod("web-dev", ns="dev", app="web"),
        pod("db-prod", ns="prod", app="db"),
        cnp("p", subject={"pods": {"namespaceSelector": {"matchLabels": {"env": "prod"}},
                                    "podSelector": {"matchLabels": {"app": "web"}}}},
            ingress=[rule("Deny", ns_peer())]),
    ]
    assert not decide(objs, "src", "web-prod")
    assert decide(objs, "src", "web-dev")
    assert decide(objs, "src", "db-prod")


def test_namespaces_peer_and_pods_peer():
    objs = [
        namespace("prod", env="prod"),
        namespace("dev", env="dev"),
        pod("p1", ns="prod", app="x"),
        pod("p2", ns="prod", app="y"),
        pod("d1", ns="dev", app="x"),
        pod("dst", ns="prod", app="dst"),
        cnp("p", ingress=[rule("Deny", pods_peer(ns={"env": "prod"}, app="x")), rule("Deny", ns_peer(env="dev"))]),
    ]
    assert not decide(objs, "p1", "dst")
    assert decide(objs, "p2", "dst")
    assert not decide(objs, "d1", "dst")


def _host(name, **labels):
    return Pod(name=name, labels=labels_of(labels), workload=name, host_network=True)


def test_host_network_pods_are_never_subjects():
    objs = BASE + [_host("h", app="h"), cnp("p", ingress=[rule("Deny", ns_peer())])]
    assert not decide(objs, "a", "b")
    assert decide(objs, "a", "h")


def test_host_network_pods_are_never_selector_peers_but_networks_see_their_address():
    objs = BASE + [_host("h", app="h"), cnp("p", ingress=[rule("Deny", ns_peer())])]
    assert decide(objs, "h", "b")
    by_address = BASE + [_host("h"), cnp("p", ingress=[rule("Deny", ns_peer())]),
                         cnp("q", priority=5, egress=[rule("Deny", {"networks": ["172.18.0.0/16"]}, direction="to")])]
    assert not decide(by_address, "a", "h")


def test_host_network_pods_are_not_selected_by_networkpolicies_either():
    objs = BASE + [_host("h", app="b"), policy("np", {"podSelector": {"matchLabels": {"app": "b"}}, "policyTypes": ["Ingress"]})]
    assert not decide(objs, "a", "b")
    assert decide(objs, "a", "h")


def test_own_address_is_not_subject_to_admin_tiers_but_a_service_hairpin_is():
    objs = BASE + [cnp("p", ingress=[rule("Deny", ns_peer())], egress=[rule("Deny", ns_peer(), direction="to")])]
    assert decide(objs, "a", "a")
    assert not decide(objs, "a", "a", via_service=True)
    v = sides(objs, "a", "a")
    assert "own address" in v.explain()


def test_own_address_still_meets_the_networkpolicy_tier():
    objs = BASE + [policy("np", DENY_ALL_NP), cnp("p", ingress=[rule("Accept", ns_peer())])]
    assert not decide(objs, "a", "a")
    assert decide(objs, "a", "b")


def test_verdict_explains_the_deciding_tier_policy_and_rule():
    objs = BASE + [cnp("guard", priority=7, ingress=[rule("Deny", pods_peer(app="a"), name="no-a")])]
    text = sides(objs, "a", "b").explain()
    assert "denied by admin tier ClusterNetworkPolicy/guard (tier Admin, priority 7) ingress[0] 'no-a' Deny" in text


def test_connections_split_ports_across_tiers():
    objs = BASE + [
        policy("np", {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{"ports": [{"port": 443}]}]}),
        cnp("acc", priority=1, ingress=[rule("Accept", ns_peer(), protocols=[tcp(80)])]),
        cnp("pas", priority=2, ingress=[rule("Pass", ns_peer(), protocols=[tcp(443)])]),
        cnp("den", priority=3, ingress=[rule("Deny", ns_peer())]),
    ]
    cluster = build_cluster(objs)
    snap = Simulator(cluster).snapshot()
    assert str(snap.connections(0, 1)) == "TCP 80,TCP 443"
    for port in (79, 80, 81, 442, 443, 444):
        assert decide(objs, "a", "b", port=port) is (port in (80, 443))


def test_connectivity_uses_classes_without_pairing_a_pod_with_itself():
    objs = [pod("a1", app="a"), pod("a2", app="a"),
            cnp("p", ingress=[rule("Deny", ns_peer())], egress=[rule("Deny", ns_peer(), direction="to")])]
    cluster = build_cluster(objs)
    snap = Simulator(cluster).snapshot()
    assert snap.connectivity() == {}


def test_snapshot_takes_another_admin_set():
    objs = BASE + [cnp("p", ingress=[rule("Deny", ns_peer())])]
    cluster = build_cluster(objs)
    sim = Simulator(cluster)
    assert not sim.snapshot().allowed(0, 1, "TCP", 80)
    assert sim.snapshot(admin_policies=()).allowed(0, 1, "TCP", 80)
    assert ipaddress.ip_address(cluster.pods[0].ip)
