"""One small truth-table case per NetworkPolicy rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from k8s_cases import namespace, pod, policy, snapshot
from k8s_strategies import clusters

from netmend.k8s.semantics import DEFAULT_SEMANTICS, Semantics, Simulator

WEB = {"matchLabels": {"app": "web"}}
DB = {"matchLabels": {"app": "db"}}


def allowed(objects, src, dst, proto="TCP", port=80, semantics=DEFAULT_SEMANTICS):
    snap, idx = snapshot(objects, semantics)
    return snap.allowed(idx[src], idx[dst], proto, port)


def test_no_policy_allows_everything():
    assert allowed([pod("a"), pod("b")], "a", "b")


def test_policy_isolates_only_the_pods_it_selects():
    objs = [
        pod("w", app="web"),
        pod("d", app="db"),
        pod("x"),
        policy("p", {"podSelector": WEB, "policyTypes": ["Ingress"]}),
    ]
    assert not allowed(objs, "d", "w")
    assert allowed(objs, "w", "d")
    assert allowed(objs, "w", "x")


def test_empty_pod_selector_selects_all_pods_of_its_namespace_only():
    objs = [
        pod("a"),
        pod("b"),
        pod("c", ns="other"),
        policy("deny", {"podSelector": {}, "policyTypes": ["Ingress"]}),
    ]
    assert not allowed(objs, "a", "b")
    assert not allowed(objs, "c", "b")
    assert allowed(objs, "a", "c")


@pytest.mark.parametrize(
    ("spec", "ingress_isolated", "egress_isolated"),
    [
        ({"podSelector": {}}, True, False),  # no policyTypes, no egress: Ingress only
        ({"podSelector": {}, "egress": [{}]}, True, True),  # egress rules: both
        ({"podSelector": {}, "egress": []}, True, False),  # empty egress list: Ingress only
        ({"podSelector": {}, "policyTypes": []}, True, False),  # empty list defaults too
        ({"podSelector": {}, "policyTypes": ["Egress"], "ingress": []}, False, True),
    ],
)
def test_policy_types_default(spec, ingress_isolated, egress_isolated):
    objs = [pod("a"), pod("b"), policy("p", spec)]
    snap, idx = snapshot(objs)
    assert (snap.ingress[idx["a"]] is not None) is ingress_isolated
    assert (snap.egress[idx["a"]] is not None) is egress_isolated


def test_policy_type_without_rules_denies_that_direction():
    objs = [
        pod("a", app="web"),
        pod("b"),
        policy("p", {"podSelector": WEB, "policyTypes": ["Egress"]}),
    ]
    assert not allowed(objs, "a", "b")
    assert allowed(objs, "b", "a")


def test_connection_needs_egress_and_ingress():
    egress_ok = policy(
        "e",
        {"podSelector": WEB, "policyTypes": ["Egress"], "egress": [{"to": [{"podSelector": DB}]}]},
    )
    ingress_closed = policy("i", {"podSelector": DB, "policyTypes": ["Ingress"]})
    assert allowed([pod("w", app="web"), pod("d", app="db"), egress_ok], "w", "d")
    assert not allowed(
        [pod("w", app="web"), pod("d", app="db"), egress_ok, ingress_closed], "w", "d"
    )


def test_allowed_sets_are_unions_across_policies():
    p1 = policy(
        "p1",
        {"podSelector": DB, "ingress": [{"from": [{"podSelector": WEB}], "ports": [{"port": 80}]}]},
    )
    p2 = policy("p2", {"podSelector": DB, "ingress": [{"ports": [{"port": 443}]}]})
    objs = [pod("w", app="web"), pod("x"), pod("d", app="db"), p1, p2]
    assert allowed(objs, "w", "d", port=80)
    assert not allowed(objs, "x", "d", port=80)
    assert allowed(objs, "x", "d", port=443)


@pytest.mark.parametrize("from_field", [None, []])
def test_missing_or_empty_from_admits_every_peer(from_field):
    rule = (
        {"ports": [{"port": 80}]}
        if from_field is None
        else {"from": from_field, "ports": [{"port": 80}]}
    )
    objs = [
        pod("a"),
        pod("b", ns="far"),
        pod("d", app="db"),
        policy("p", {"podSelector": DB, "ingress": [rule]}),
    ]
    assert allowed(objs, "a", "d") and allowed(objs, "b", "d")
    assert not allowed(objs, "a", "d", port=81)


@pytest.mark.parametrize("ports_field", [None, []])
def test_missing_or_empty_ports_admit_every_port_and_protocol(ports_field):
    rule = {"from": [{"podSelector": WEB}]}
    if ports_field is not None:
        rule["ports"] = ports_field
    objs = [
        pod("w", app="web"),
        pod("d", app="db"),
        policy("p", {"podSelector": DB, "ingress": [rule]}),
    ]
    assert allowed(objs, "w", "d", "UDP", 5353) and allowed(objs, "w", "d", "SCTP", 1)


def test_pod_selector_peer_is_limited_to_the_policy_namespace():
    objs = [pod("w", app="web"), pod("w2", ns="other", app="web"), pod("d", app="db")]
    objs.append(policy("p", {"podSelector": DB, "ingress": [{"from": [{"podSelector": WEB}]}]}))
    assert allowed(objs, "w", "d")
    assert not allowed(objs, "w2", "d")


def test_namespace_selector_peer_admits_all_pods_of_matching_namespaces():
    objs = [
        namespace("default"),
        namespace("ops", team="ops"),
        pod("o", ns="ops"),
        pod("x"),
        pod("d", app="db"),
    ]
    objs.append(
        policy(
            "p",
            {
                "podSelector": DB,
                "ingress": [{"from": [{"namespaceSelector": {"matchLabels": {"team": "ops"}}}]}],
            },
        )
    )
    assert allowed(objs, "o", "d")
    assert not allowed(objs, "x", "d")


def test_namespace_name_label_is_implicit():
    objs = [pod("o", ns="ops"), pod("d", app="db")]
    sel = {"matchLabels": {"kubernetes.io/metadata.name": "ops"}}
    objs.append(
        policy("p", {"podSelector": DB, "ingress": [{"from": [{"namespaceSelector": sel}]}]})
    )
    assert allowed(objs, "o", "d")


def test_both_selectors_in_one_peer_mean_and():
    objs = [
        namespace("ops", team="ops"),
        pod("ow", ns="ops", app="web"),
        pod("ox", ns="ops"),
        pod("w", app="web"),
        pod("d", app="db"),
    ]
    peer = {"namespaceSelector": {"matchLabels": {"team": "ops"}}, "podSelector": WEB}
    objs.append(policy("p", {"podSelector": DB, "ingress": [{"from": [peer]}]}))
    assert allowed(objs, "ow", "d")
    assert not allowed(objs, "ox", "d")
    assert not allowed(objs, "w", "d")


def test_two_peers_mean_or():
    objs = [
        namespace("ops", team="ops"),
        pod("ox", ns="ops"),
        pod("w", app="web"),
        pod("y"),
        pod("d", app="db"),
    ]
    peers = [{"namespaceSelector": {"matchLabels": {"team": "ops"}}}, {"podSelector": WEB}]
    objs.append(policy("p", {"podSelector": DB, "ingress": [{"from": peers}]}))
    assert allowed(objs, "ox", "d") and allowed(objs, "w", "d")
    assert not allowed(objs, "y", "d")


@pytest.mark.parametrize(
    ("expression", "admitted"),
    [
        ({"key": "app", "operator": "In", "values": ["web", "api"]}, {"w", "api"}),
        ({"key": "app", "operator": "NotIn", "values": ["web"]}, {"api", "bare", "d"}),
        ({"key": "app", "operator": "Exists"}, {"w", "api", "d"}),
        ({"key": "app", "operator": "DoesNotExist"}, {"bare"}),
    ],
)
def test_match_expressions(expression, admitted):
    objs = [pod("w", app="web"), pod("api", app="api"), pod("bare"), pod("d", app="db")]
    objs.append(
        policy(
            "p",
            {
                "podSelector": DB,
                "ingress": [{"from": [{"podSelector": {"matchExpressions": [expression]}}]}],
            },
        )
    )
    snap, idx = snapshot(objs)
    got = {
        name for name in ("w", "api", "bare", "d") if snap.allowed(idx[name], idx["d"], "TCP", 80)
    }
    assert got == admitted


def test_ip_block_with_except_for_external_addresses():
    block = {"ipBlock": {"cidr": "192.168.0.0/16", "except": ["192.168.1.0/24"]}}
    objs = [pod("d", app="db"), policy("p", {"podSelector": DB, "ingress": [{"from": [block]}]})]
    snap, idx = snapshot(objs)
    d = idx["d"]
    assert snap.verdict_external(d, "192.168.2.7", "Ingress", "TCP", 80).allowed
    assert not snap.verdict_external(d, "192.168.1.7", "Ingress", "TCP", 80).allowed
    assert not snap.verdict_external(d, "10.0.0.1", "Ingress", "TCP", 80).allowed


def test_ip_block_covers_pod_ips_unless_turned_off():
    block = {"ipBlock": {"cidr": "10.244.0.0/24"}}
    objs = [
        pod("a", ip="10.244.0.5"),
        pod("b", ip="10.250.0.5"),
        pod("d", app="db", ip="10.244.0.9"),
    ]
    objs.append(policy("p", {"podSelector": DB, "ingress": [{"from": [block]}]}))
    assert allowed(objs, "a", "d") and not allowed(objs, "b", "d")
    assert not allowed(objs, "a", "d", semantics=Semantics(ipblock_selects_pods=False))


def test_protocol_defaults_to_tcp():
    objs = [
        pod("a"),
        pod("d", app="db"),
        policy("p", {"podSelector": DB, "ingress": [{"ports": [{"port": 53}]}]}),
    ]
    assert allowed(objs, "a", "d", "TCP", 53)
    assert not allowed(objs, "a", "d", "UDP", 53)


@pytest.mark.parametrize("proto", ["UDP", "SCTP"])
def test_explicit_protocols(proto):
    objs = [
        pod("a"),
        pod("d", app="db"),
        policy("p", {"podSelector": DB, "ingress": [{"ports": [{"port": 53, "protocol": proto}]}]}),
    ]
    assert allowed(objs, "a", "d", proto, 53)
    assert not allowed(objs, "a", "d", "TCP", 53)


def test_port_without_number_admits_every_port_of_its_protocol():
    objs = [
        pod("a"),
        pod("d", app="db"),
        policy("p", {"podSelector": DB, "ingress": [{"ports": [{"protocol": "UDP"}]}]}),
    ]
    assert allowed(objs, "a", "d", "UDP", 1) and allowed(objs, "a", "d", "UDP", 65535)
    assert not allowed(objs, "a", "d", "TCP", 80)


def test_end_port_range_is_inclusive():
    objs = [
        pod("a"),
        pod("d", app="db"),
        policy("p", {"podSelector": DB, "ingress": [{"ports": [{"port": 8000, "endPort": 8010}]}]}),
    ]
    assert [allowed(objs, "a", "d", port=p) for p in (7999, 8000, 8010, 8011)] == [
        False,
        True,
        True,
        False,
    ]


def test_named_port_resolves_on_the_destination_for_ingress():
    rule = {"ports": [{"port": "http"}]}
    d = pod("d", app="db", ports=[("http", 8080, "TCP")])
    objs = [
        pod("a"),
        d,
        pod("e", app="db", ports=[("http", 9090, "TCP")]),
        policy("p", {"podSelector": DB, "ingress": [rule]}),
    ]
    assert allowed(objs, "a", "d", port=8080) and not allowed(objs, "a", "d", port=9090)
    assert allowed(objs, "a", "e", port=9090) and not allowed(objs, "a", "e", port=8080)


def test_named_port_resolves_on_each_peer_for_egress():
    rule = {"to": [{"podSelector": {}}], "ports": [{"port": "http"}]}
    objs = [
        pod("w", app="web"),
        pod("d", ports=[("http", 8080, "TCP")]),
        pod("e", ports=[("http", 9090, "TCP")]),
        pod("n"),
    ]
    objs.append(policy("p", {"podSelector": WEB, "policyTypes": ["Egress"], "egress": [rule]}))
    assert allowed(objs, "w", "d", port=8080) and not allowed(objs, "w", "d", port=9090)
    assert allowed(objs, "w", "e", port=9090)
    assert not allowed(objs, "w", "n", port=8080)
    snap, idx = snapshot(objs)
    # A name cannot resolve on an address outside the cluster.
    assert not snap.verdict_external(idx["w"], "8.8.8.8", "Egress", "TCP", 8080).allowed


def test_named_port_must_match_the_protocol():
    rule = {"ports": [{"port": "dns", "protocol": "TCP"}]}
    objs = [
        pod("a"),
        pod("d", app="db", ports=[("dns", 53, "UDP")]),
        policy("p", {"podSelector": DB, "ingress": [rule]}),
    ]
    assert not allowed(objs, "a", "d", "UDP", 53)
    assert not allowed(objs, "a", "d", "TCP", 53)


def test_verdict_names_policies_and_rules():
    p1 = policy(
        "p1",
        {"podSelector": DB, "ingress": [{"from": [{"podSelector": WEB}], "ports": [{"port": 80}]}]},
    )
    p2 = policy(
        "p2",
        {"podSelector": DB, "ingress": [{"ports": [{"port": 443}]}, {"ports": [{"port": 80}]}]},
    )
    snap, idx = snapshot([pod("w", app="web"), pod("d", app="db"), p1, p2])
    verdict = snap.verdict(idx["w"], idx["d"], "TCP", 80)
    assert verdict.allowed
    assert verdict.ingress.policies == ("default/p1", "default/p2")
    assert [str(r) for r in verdict.ingress.allowed_by] == [
        "default/p1 ingress[0]",
        "default/p2 ingress[1]",
    ]
    assert not verdict.egress.isolated
    denied = snap.verdict(idx["w"], idx["d"], "TCP", 22)
    assert not denied.allowed and denied.ingress.allowed_by == ()
    assert "isolated by default/p1, default/p2; no rule admits it" in denied.explain()


def test_connections_are_the_intersection_of_both_sides():
    egress = policy(
        "e",
        {
            "podSelector": WEB,
            "policyTypes": ["Egress"],
            "egress": [{"ports": [{"port": 80, "endPort": 90}]}],
        },
    )
    ingress = policy(
        "i",
        {
            "podSelector": DB,
            "ingress": [{"ports": [{"port": 85, "endPort": 100}, {"port": 53, "protocol": "UDP"}]}],
        },
    )
    snap, idx = snapshot([pod("w", app="web"), pod("d", app="db"), egress, ingress])
    assert str(snap.connections(idx["w"], idx["d"])) == "TCP 85-90"
    assert str(snap.connections(idx["d"], idx["w"])) == "All connections"


def test_snapshot_reuses_compiled_policies_by_value():
    from netmend.k8s.cluster import build_cluster
    from netmend.k8s.semantics import Simulator

    p = policy("p", {"podSelector": DB, "policyTypes": ["Ingress"]})
    sim = Simulator(build_cluster([pod("d", app="db"), pod("a")]))
    first = sim.snapshot((p,)).compiled[0]
    again = sim.snapshot((policy("p", {"podSelector": DB, "policyTypes": ["Ingress"]}),)).compiled[
        0
    ]
    assert first is again


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(cluster=clusters(max_pods=8), ipblocks_select_pods=st.booleans())
def test_connectivity_by_classes_equals_pair_by_pair(cluster, ipblocks_select_pods):
    snap = Simulator(cluster, Semantics(ipblock_selects_pods=ipblocks_select_pods)).snapshot()
    n = len(cluster.pods)
    brute = {(i, j): snap.connections(i, j) for i in range(n) for j in range(n) if i != j}
    assert snap.connectivity() == {k: v for k, v in brute.items() if v}


@settings(max_examples=100, derandomize=True, database=None, deadline=None)
@given(cluster=clusters(max_pods=5))
def test_allowed_verdict_and_connections_agree(cluster):
    snap = Simulator(cluster).snapshot()
    samples = [
        (proto, port)
        for proto in ("TCP", "UDP", "SCTP")
        for port in (1, 53, 80, 443, 8080, 9090, 65535)
    ]
    n = len(cluster.pods)
    for i in range(n):
        for j in range(n):
            conns = snap.connections(i, j)
            for proto, port in samples:
                fast = snap.allowed(i, j, proto, port)
                assert (
                    fast == snap.verdict(i, j, proto, port).allowed == conns.contains(proto, port)
                )
