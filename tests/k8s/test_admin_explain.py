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
    # one verified edit on the deciding policy that admits frontend (which of the equally light
    # forms, a peer added to ingress[0] or a rule of its own, is the planner's ranking)
    (edit,) = flip["edits"]
    assert edit.startswith("default/emailservice ingress") and "app=frontend" in edit
    assert flip["commands"][0].startswith("kubectl patch networkpolicy emailservice -n default --type=json")


def test_cli_direct_pod_target_and_bad_input(demo_dir):
    res = run("frontend", "default/redis-cart:6379", "--policies", str(demo_dir / "nps.json"), "--dns", "ignore")
    assert res.exit_code == 0, res.output
    assert "name the target as service[.namespace]:port" in res.output
    bad = run("frontend", "nosuch:80")
    assert bad.exit_code == 1 and "no such Service or pod" in bad.output
    bad = run("frontend", "redis-cart:99999")
    assert bad.exit_code == 1 and "port must be a number" in bad.output


def test_tier_blockers_name_the_admin_rule_and_its_verified_exception():
    from netmend.k8s import demo_workloads
    from netmend.k8s.probe import Matrix
    from netmend.repair.admin import tier_blockers

    guard = cnp("no-redis", priority=5, subject={"pods": {"namespaceSelector": {}, "podSelector": {"matchLabels": {"app": "redis-cart"}}}},
                ingress=[rule("Deny", ns_peer(), name="block-all")])
    cluster = demo_workloads().with_policies(demo_policies()).with_admin_policies((guard,))
    stated = Matrix.from_dict({"cartservice": {"redis-cart:6379": True}, "frontend": {"adservice:9555": True}})
    (blocker,) = tier_blockers(cluster, stated)
    assert blocker["probe"] == ("cartservice", "redis-cart:6379")
    assert "ClusterNetworkPolicy/no-redis (tier Admin, priority 5) ingress[0] 'block-all' Deny" in blocker["reason"]
    assert blocker["admin"]["found"] and blocker["admin"]["rule"]["action"] == "Accept"
    assert tier_blockers(cluster.with_admin_policies(()), stated) == ()


def test_findings_reach_probe_and_explain(tmp_path):
    one = cnp("one", priority=5, subject={"pods": {"namespaceSelector": {}, "podSelector": {"matchLabels": {"app": "redis-cart"}}}},
              ingress=[rule("Deny", ns_peer())])
    two = cnp("two", priority=5, ingress=[rule("Accept", ns_peer())])
    path = tmp_path / "admin.yaml"
    path.write_text(yaml.safe_dump_all([admin_policy_to_dict(one), admin_policy_to_dict(two)]))
    nps = tmp_path / "nps.json"
    nps.write_text(json.dumps(as_list([policy_to_dict(p) for p in demo_policies()])))
    from netmend.cli.k8s import k8s as group

    res = CliRunner().invoke(group, ["probe", "--policies", str(nps), "--policies", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    (finding,) = json.loads(res.output)["findings"]
    assert finding["kind"] == "same-priority-overlap"
    assert finding["policies"] == ["ClusterNetworkPolicy/one", "ClusterNetworkPolicy/two"]
    res = run("cartservice", "redis-cart:6379", "--policies", str(nps), "--policies", str(path), "--no-repair")
    assert "finding: same-priority-overlap: ClusterNetworkPolicy/one and ClusterNetworkPolicy/two" in res.output


GOLDEN = __import__("pathlib").Path(__file__).parent / "data" / "golden"


@pytest.mark.parametrize(
    ("output", "args"),
    [
        ("tiers.netarena.txt", ["probe"]),
        ("tiers.explain-frontend-payment.txt", ["explain", "frontend", "paymentservice:50051"]),
        ("tiers.explain-checkout-payment.json", ["explain", "checkoutservice", "paymentservice:50051", "--format", "json", "--no-repair"]),
    ],
)
def test_golden_tier_outputs(output, args):
    from netmend.cli.k8s import k8s as group

    res = CliRunner().invoke(group, [*args, "--policies", str(GOLDEN / "tiers.policies.yaml")])
    assert res.exit_code == 0, res.output
    assert res.output == (GOLDEN / output).read_text(encoding="utf-8")


def test_service_without_port_and_outside_source(demo_dir):
    nps = str(demo_dir / "nps.json")
    res = run("frontend", "emailservice", "--policies", nps, "--format", "json", "--no-repair")
    report = json.loads(res.output)
    assert report["probe"] == {"source": "frontend", "target": "emailservice:5000"}
    res = run("192.0.2.1", "frontend:80", "--policies", nps, "--format", "json", "--no-repair")
    report = json.loads(res.output)
    assert report["probe"] is None and report["connections"][0]["egress"] is None
    assert any("takes no connection from outside the cluster" in n for n in report["notes"])
