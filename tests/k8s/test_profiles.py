"""Implementation profiles: each knob changes exactly the verdicts it should, and says so."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from admin_cases import cnp, ns_peer, rule
from click.testing import CliRunner
from k8s_cases import pod, policy

from netmend.cli.k8s import k8s
from netmend.k8s import demo_expected, demo_policies, demo_workloads
from netmend.k8s.cluster import build_cluster
from netmend.k8s.explain import explain_target
from netmend.k8s.model import Pod, Service, ServicePort, labels_of
from netmend.k8s.profiles import KNOBS, ProfileError, parse_profile, probe_differences
from netmend.k8s.semantics import Semantics, Simulator


def allowed(objects, src, dst, port, proto="TCP", profile=()):
    cluster = build_cluster(objects)
    snap = Simulator(cluster, parse_profile(profile)).snapshot()
    idx = {p.name: i for i, p in enumerate(cluster.pods)}
    fast = snap.allowed(idx[src], idx[dst], proto, port)
    assert snap.verdict(idx[src], idx[dst], proto, port).allowed == fast
    assert snap.connections(idx[src], idx[dst]).contains(proto, port) == fast
    return fast


def test_every_semantics_field_has_a_knob():
    assert {f.name for f in fields(Semantics)} == {attr for attr, _ in KNOBS.values()}


@pytest.mark.parametrize("item", ["ipblock", "ipblock=maybe", "colour=red", "calico"])
def test_bad_profile_items_are_refused(item):
    with pytest.raises(ProfileError):
        parse_profile([item])


def test_ipblock_knob():
    objs = [pod("a", ip="10.244.0.5"), pod("b", ip="10.244.0.6"),
            policy("np", {"podSelector": {}, "policyTypes": ["Ingress"],
                          "ingress": [{"from": [{"ipBlock": {"cidr": "10.244.0.0/24"}}]}]})]
    assert allowed(objs, "a", "b", 80)
    assert not allowed(objs, "a", "b", 80, profile=["ipblock=external-only"])


NAMED = [
    pod("a"), pod("b", app="x", ports=(("web", 8080, "TCP"),)), pod("c", app="y", ports=(("web", 9090, "TCP"),)),
    policy("np", {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{"ports": [{"port": "web"}]}]}),
]


@pytest.mark.parametrize(
    ("profile", "b8080", "b9090"),
    [((), True, False), (["named-ports=union"], True, True), (["named-ports=unsupported"], False, False)],
)
def test_named_port_knob(profile, b8080, b9090):
    assert allowed(NAMED, "a", "b", 8080, profile=profile) is b8080
    assert allowed(NAMED, "a", "b", 9090, profile=profile) is b9090


def test_named_port_knob_reaches_admin_policies():
    objs = NAMED[:3] + [cnp("p", ingress=[rule("Deny", ns_peer(), protocols=[{"destinationNamedPort": "web"}])])]
    assert allowed(objs, "a", "b", 9090)
    assert not allowed(objs, "a", "b", 9090, profile=["named-ports=union"])
    assert allowed(objs, "a", "b", 8080, profile=["named-ports=unsupported"])


def test_node_local_knob():
    host = Pod(name="h", labels=labels_of({"app": "h"}), workload="h", host_network=True)
    objs = [pod("b", app="b"), host, policy("np", {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]})]
    assert allowed(objs, "h", "b", 80)
    assert allowed(objs, "b", "h", 80)
    assert not allowed(objs, "h", "b", 80, profile=["node-local=filter"])
    # Admin tiers still see node traffic through networks.
    guard = cnp("g", ingress=[rule("Deny", ns_peer())])
    assert allowed(objs + [guard], "h", "b", 80)  # a namespaces peer never picks a hostNetwork pod


def test_sctp_knobs():
    objs = [pod("a"), pod("b", app="b"),
            policy("np", {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{"ports": [{"protocol": "SCTP", "port": 9}]}]})]
    assert allowed(objs, "a", "b", 9, "SCTP")
    assert not allowed(objs, "a", "b", 9, "SCTP", profile=["sctp=unsupported"])
    svc = Service(name="b", selector=(("app", "b"),), ports=(ServicePort(port=9, target_port=9, protocol="SCTP"),))
    cluster = build_cluster(objs[:2] + [svc])
    for profile, want in (((), True), (["sctp=no-service"], False)):
        snap = Simulator(cluster, parse_profile(profile)).snapshot()
        assert explain_target(snap, "a", "b:9", protocol="SCTP").allowed is want


def test_service_port_knob_and_its_report_on_the_demo():
    cluster = demo_workloads().with_policies(demo_policies())
    probes = demo_expected().probes()
    found = probe_differences(cluster, probes, parse_profile(["service-port=service"]))
    # Of the two translated ports (emailservice 5000 -> 8080, frontend 80 -> 8080) only the
    # first moves: frontend admits every port.
    assert {d.target for d in found} == {"emailservice:5000"}
    assert all(d.upstream and not d.profile and d.knobs == ("service-port",) for d in found)
    assert probe_differences(cluster, probes, parse_profile(["upstream"])) == ()


def test_probe_cli_reports_the_differences():
    res = CliRunner().invoke(k8s, ["probe", "--profile", "service-port=service", "--format", "json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["profile"]["settings"] == "service-port=service"
    assert [d["target"] for d in report["profile"]["differences"]] == ["emailservice:5000"]
    assert report["mismatches"] == ["Mismatch: checkoutservice \u2192 emailservice:5000 (Expected: True, Actual: False)"]
    res = CliRunner().invoke(k8s, ["probe", "--profile", "nonsense"])
    assert res.exit_code == 1 and "expected a preset" in res.output


def test_explain_cli_says_when_the_profile_changes_the_verdict():
    res = CliRunner().invoke(k8s, ["explain", "checkoutservice", "emailservice:5000", "--profile", "service-port=service", "--no-repair"])
    assert res.exit_code == 0, res.output
    assert "DENIED" in res.output.splitlines()[0]
    assert "Profile service-port=service: DIFFERS from the upstream reading (ALLOWED there)" in res.output
