"""Probe matrices, mismatch lines and the grid, on the built-in demo."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from k8s_families import FAMILIES, add_egress, inject

from netmend.k8s import (
    Matrix,
    Mismatch,
    MismatchParseError,
    ProbeError,
    Prober,
    compare,
    demo_cluster,
    demo_deny_all,
    demo_expected,
    demo_policies,
    demo_workloads,
    mismatch_summary,
    parse_mismatches,
    probe_matrix,
    render_grid,
)
from netmend.k8s.probe import parse_target


def test_correct_policies_reproduce_the_expected_matrix():
    expected = demo_expected()
    for dns in (True, False):
        actual = probe_matrix(demo_cluster(), expected.probes(), dns=dns)
        assert actual == expected
        assert mismatch_summary(compare(expected, actual)) == "No mismatches found."


def test_expected_matrix_shape():
    expected = demo_expected()
    assert expected.sources == (
        "frontend", "adservice", "cartservice", "checkoutservice", "productcatalogservice",
        "recommendationservice", "shippingservice", "emailservice", "redis-cart", "loadgenerator",
    )  # fmt: skip
    assert (
        expected.count(True) == 15
    )  # frontend 7, cartservice 1, checkoutservice 6, recommendation 1
    assert all(not t.startswith(f"{s}:") for s, targets in expected.probes() for t in targets)


def test_without_policies_everything_is_reachable():
    expected = demo_expected()
    actual = Prober(demo_workloads(), expected.probes()).run(())
    assert actual.count(False) == 0
    mismatches = compare(expected, actual)
    assert len(mismatches) == expected.count(False)
    assert all(m.expected is False and m.actual is True for m in mismatches)


def test_deny_all_alone_blocks_everything_and_adds_to_the_allow_lists():
    prober = Prober(demo_workloads(), demo_expected().probes())
    assert prober.run((demo_deny_all(),)).count(True) == 0
    # Allowed sets are unions: the allow-lists still open what they open.
    assert prober.run((*demo_policies(), demo_deny_all())) == demo_expected()
    assert "no rule admits it" in str(
        prober.explain("frontend", "adservice:9555", (demo_deny_all(),))
    )


def test_mismatch_line_format_is_netarena_s():
    line = str(Mismatch("frontend", "adservice:9555", True, False))
    assert line == "Mismatch: frontend \u2192 adservice:9555 (Expected: True, Actual: False)"


def test_removed_ingress_rule_yields_ordered_mismatch_lines():
    policies = tuple(
        replace(p, ingress=()) if p.name == "cartservice" else p for p in demo_policies()
    )
    actual = Prober(demo_workloads(), demo_expected().probes()).run(policies)
    assert mismatch_summary(compare(demo_expected(), actual)) == (
        "Mismatch: frontend \u2192 cartservice:7070 (Expected: True, Actual: False)\n"
        "Mismatch: checkoutservice \u2192 cartservice:7070 (Expected: True, Actual: False)"
    )


def test_dns_cut_by_an_egress_allow_list_fails_every_probe_of_the_source():
    (frontend,) = [p for p in demo_policies() if p.name == "frontend"]
    broken = add_egress(frontend, random.Random(0))
    policies = tuple(broken if p.name == "frontend" else p for p in demo_policies())
    prober = Prober(demo_workloads(), demo_expected().probes())
    row = dict(prober.run(policies).rows)["frontend"]
    assert not any(reachable for _, reachable in row)
    without_dns = Prober(demo_workloads(), demo_expected().probes(), dns=False).run(policies)
    reached = {t for t, ok in dict(without_dns.rows)["frontend"] if ok}
    assert reached  # the two allowed apps stay reachable by address
    assert "DNS UDP/53" in str(prober.explain("frontend", "adservice:9555", policies))


@pytest.mark.parametrize("family", FAMILIES, ids="+".join)
def test_every_error_family_is_seen_or_masked_consistently(family):
    # Mismatches appear exactly where the broken policy set differs from the correct one.
    prober = Prober(demo_workloads(), demo_expected().probes())
    policies = inject(demo_policies(), family, random.Random(sum(map(ord, "".join(family)))))
    actual = prober.run(policies)
    lines = parse_mismatches(mismatch_summary(compare(demo_expected(), actual)))
    differing = {
        (s, t) for s, cells in actual.rows for t, v in cells if v != demo_expected().get(s, t)
    }
    assert {(m.source, m.target) for m in lines} == differing


def test_parse_mismatches_round_trip_and_errors():
    mismatches = (Mismatch("a", "b:1", True, False), Mismatch("c", "d.ns:2", False, True))
    assert parse_mismatches(mismatch_summary(mismatches)) == mismatches
    assert parse_mismatches("No mismatches found.") == ()
    with pytest.raises(MismatchParseError, match="line 1"):
        parse_mismatches("Mismatch: a -> b:1 (Expected: True, Actual: False)")


def test_grid_marks_mismatches():
    actual = Matrix.from_dict({"web": {"db:1": True, "api:2": False}, "api": {"db:1": False}})
    expected = Matrix.from_dict({"web": {"db:1": False, "api:2": False}, "api": {"db:1": True}})
    assert render_grid(actual, expected).splitlines()[:3] == [
        "    0 1",
        "web ! .",
        "api X  ",
    ]


def test_probe_errors_are_typed():
    with pytest.raises(ProbeError, match="no pod of a workload named 'nosuch'"):
        Prober(demo_workloads(), [("nosuch", ["adservice:9555"])])
    with pytest.raises(ProbeError, match="no Service default/nosuch"):
        Prober(demo_workloads(), [("frontend", ["nosuch:1"])])
    with pytest.raises(ProbeError, match="service"):
        parse_target("adservice")
    with pytest.raises(ProbeError, match="expected true or false"):
        Matrix.from_dict({"a": {"b:1": "yes"}})


def test_unserved_port_is_unreachable_with_a_reason():
    prober = Prober(demo_workloads(), [("frontend", ["adservice:1"])])
    assert prober.run() == Matrix.from_dict({"frontend": {"adservice:1": False}})
    assert "no TCP endpoint on port 1" in str(prober.explain("frontend", "adservice:1"))


def test_dns_modelling_needs_kube_dns():

    cluster = demo_cluster()
    without = replace(cluster, services=tuple(s for s in cluster.services if s.name != "kube-dns"))
    with pytest.raises(ProbeError, match="kube-system/kube-dns"):
        Prober(without, demo_expected().probes())
    assert Prober(without, demo_expected().probes(), dns=False).run() == demo_expected()


def _shop():
    from k8s_cases import namespace, pod, policy

    from netmend.k8s import Service, ServicePort, build_cluster, kube_dns_objects

    return build_cluster(
        [
            *kube_dns_objects(),
            namespace("default"),
            namespace("shop"),
            pod("client"),
            pod("client", ns="shop"),
            pod("web-a", ns="shop", app="web", ports=[("http", 8080, "TCP")]),
            pod("web-b", ns="shop", app="web", ports=[("http", 9090, "TCP")]),
            pod("web-c", ns="shop", app="web"),
            Service("web", "shop", (("app", "web"),), (ServicePort(80, "http"),)),
            policy(
                "only-9090",
                {
                    "podSelector": {"matchLabels": {"app": "web"}},
                    "ingress": [{"ports": [{"port": 9090}]}],
                },
                ns="shop",
            ),
        ]
    )


def test_named_target_port_resolves_on_each_endpoint():
    prober = Prober(_shop(), [("shop/client", ["web:80"])])
    assert prober.run() == Matrix.from_dict({"shop/client": {"web:80": True}})
    steps = prober.explain("shop/client", "web:80").steps
    # web-a serves http on 8080 (blocked), web-b on 9090 (allowed), web-c has no such port.
    assert [step.split(":")[0] for step in steps] == [
        "DNS UDP/53 to kube-system/coredns-0",
        "TCP/8080 to shop/web-a",
        "TCP/9090 to shop/web-b",
    ]
    assert steps[1].endswith("isolated by shop/only-9090; no rule admits it")
    assert steps[2].endswith("allowed by shop/only-9090 ingress[0]")


def test_sources_resolve_in_default_first_and_may_name_their_namespace():
    cluster = _shop()
    cross = Prober(cluster, [("client", ["web.shop:80"]), ("shop/client", ["web:80"])]).run()
    assert cross.get("client", "web.shop:80") and cross.get("shop/client", "web:80")
    with pytest.raises(ProbeError, match="no Service default/web"):
        Prober(cluster, [("client", ["web:80"])])
