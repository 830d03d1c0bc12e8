"""``netmend k8s explain``: the chain names the failing selector or port, every tier, and the flip."""

from __future__ import annotations

import json

import pytest
import yaml
from admin_cases import cnp, ns_peer, pods_peer, rule
from click.testing import CliRunner
from k8s_cases import namespace, pod, policy

from netmend.cli.k8s import k8s
from netmend.k8s import admin_policy_to_dict, as_list, demo_policies, policy_to_dict
from netmend.k8s.cluster import build_cluster
from netmend.k8s.explain import explain_connection
from netmend.k8s.semantics import Simulator


def chain(objects, src, dst, port=80, proto="TCP"):
    cluster = build_cluster(objects)
    snap = Simulator(cluster).snapshot()
    idx = {p.name: i for i, p in enumerate(cluster.pods)}
    return explain_connection(snap, idx[src], idx[dst], proto, port)


def _checks(side, tier):
    return next(s for s in side.steps if s.tier == tier).checks


def test_names_the_pod_selector_that_failed():
    objs = [pod("a", app="a"), pod("b", app="b"),
            policy("np", {"podSelector": {}, "policyTypes": ["Ingress"],
                          "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "c"}}}]}]})]
    c = chain(objs, "a", "b")
    (check,) = _checks(c.ingress, "NetworkPolicy")
    assert not check.matched
    assert check.reason == "peer: podSelector {app=c} does not match default/a {app=a}"
    assert not c.allowed


def test_names_the_namespace_selector_and_the_port_that_failed():
    objs = [namespace("x", team="red"), pod("a", ns="x", app="a"), pod("b", app="b"),
            policy("np", {"podSelector": {}, "policyTypes": ["Ingress"],
                          "ingress": [{"from": [{"namespaceSelector": {"matchLabels": {"team": "blue"}}}],
                                       "ports": [{"port": 443}, {"protocol": "UDP", "port": 80}]}]})]
    (check,) = _checks(chain(objs, "a", "b").ingress, "NetworkPolicy")
    assert "namespaceSelector {team=blue} does not match namespace x" in check.reason
    assert "port: TCP/80 is not in ports [TCP 443, UDP 80]" in check.reason


def test_named_port_resolution_is_shown():
    objs = [pod("a", app="a"), pod("b", app="b", ports=(("web", 8080, "TCP"),)),
            cnp("p", ingress=[rule("Deny", ns_peer(), protocols=[{"destinationNamedPort": "web"}])])]
    (check,) = _checks(chain(objs, "a", "b", port=80).ingress, "Admin")
    assert check.reason.endswith("TCP/80 is not in ['web' (TCP/8080 on default/b)]")
    (check,) = _checks(chain(objs, "a", "b", port=8080).ingress, "Admin")
    assert check.matched and "named port 'web' is TCP/8080 on default/b" in check.reason


def test_rules_after_the_deciding_one_are_not_reached():
    objs = [pod("a", app="a"), pod("b", app="b"),
            policy("np", {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{}]}),
            cnp("p", ingress=[rule("Pass", pods_peer(app="zzz")), rule("Deny", pods_peer(app="a")), rule("Accept", ns_peer())])]
    c = chain(objs, "a", "b")
    checks = _checks(c.ingress, "Admin")
    assert [(k.matched, k.reached) for k in checks] == [(False, True), (True, True), (True, False)]
    steps = {s.tier: s.outcome for s in c.ingress.steps}
    assert steps == {"Admin": "Deny", "NetworkPolicy": "not reached", "Baseline": "not reached"}
    assert c.ingress.verdict.tier == "Admin" and not c.allowed


def test_networks_reason_and_outside_address():
    objs = [pod("a", app="a", ip="10.244.0.9"), pod("b", app="b"),
            cnp("p", egress=[rule("Deny", {"networks": ["192.0.2.0/24"]}, direction="to")])]
    cluster = build_cluster(objs)
    snap = Simulator(cluster).snapshot()
    c = explain_connection(snap, 0, "192.0.2.7", "TCP", 443)
    assert c.ingress is None and not c.allowed
    (check,) = _checks(c.egress, "Admin")
    assert check.reason.startswith("networks 192.0.2.0/24 holds 192.0.2.7")
    assert explain_connection(snap, 0, 1, "TCP", 443).allowed


def test_exempt_own_address():
    objs = [pod("a", app="a"), cnp("p", ingress=[rule("Deny", ns_peer())])]
    c = chain(objs, "a", "a")
    assert c.allowed and c.ingress.steps[0].outcome.startswith("exempt")


# -- the command ------------------------------------------------------------------------


@pytest.fixture()
def demo_dir(tmp_path):
    (tmp_path / "nps.json").write_text(json.dumps(as_list([policy_to_dict(p) for p in demo_policies()])))
    guard = cnp("no-redis", priority=5, subject={"pods": {"namespaceSelector": {}, "podSelector": {"matchLabels": {"app": "redis-cart"}}}},
                ingress=[rule("Deny", ns_peer(), name="block-all")])
    (tmp_path / "cnp.yaml").write_text(yaml.safe_dump(admin_policy_to_dict(guard)))
    return tmp_path


def run(*args):
    return CliRunner().invoke(k8s, ["explain", *args])


def test_cli_text_names_tier_policy_rule_and_the_admin_edit(demo_dir):
    res = run("cartservice", "redis-cart:6379", "--policies", str(demo_dir / "nps.json"), "--policies", str(demo_dir / "cnp.yaml"))
    assert res.exit_code == 0, res.output
    out = res.output
    assert out.startswith("default/cartservice-0 -> redis-cart:6379 (TCP): DENIED")
    assert "DENIED by Admin tier: ClusterNetworkPolicy/no-redis (tier Admin, priority 5) ingress[0] 'block-all' Deny" in out
    assert "no NetworkPolicy edit can change it" in out
    assert "Admin policy edit (ClusterNetworkPolicy/no-redis), verified: no other probe moves" in out
    assert "+    action: Accept" in out


def test_cli_json_and_networkpolicy_flip(demo_dir):
    res = run("frontend", "emailservice:5000", "--policies", str(demo_dir / "nps.json"), "--format", "json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["allowed"] is False and report["probe"] == {"source": "frontend", "target": "emailservice:5000"}
    (conn,) = report["connections"]
    assert conn["port"] == 8080 and conn["ingress"]["tier"] == "NetworkPolicy"
    assert conn["ingress"]["decided_by"] == "implicit deny of default/emailservice"
    flip = report["flip"]
    assert flip["found"] and flip["wanted"] is True
    assert flip["edits"] == ["default/emailservice ingress[0]: add from app=frontend"]
    assert flip["commands"][0].startswith("kubectl patch networkpolicy emailservice -n default --type=json")


def test_cli_direct_pod_target_and_bad_input(demo_dir):
    res = run("frontend", "default/redis-cart:6379", "--policies", str(demo_dir / "nps.json"), "--dns", "ignore")
    assert res.exit_code == 0, res.output
    assert "name the target as service[.namespace]:port" in res.output
    bad = run("frontend", "nosuch:80")
    assert bad.exit_code == 1 and "no such Service or pod" in bad.output
    bad = run("frontend", "redis-cart:99999")
    assert bad.exit_code == 1 and "port must be a number" in bad.output
