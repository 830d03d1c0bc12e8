"""The edit IR: patch order, guards, bad input; narrowing and refusals in the planner."""

from __future__ import annotations

import pytest
from repair_helpers import broken

from netmend.k8s import Matrix, Prober, parse_policy
from netmend.repair.edits import (
    AddPeer,
    AddRule,
    AllowDNS,
    NarrowRule,
    PeerSpec,
    PortSpec,
    RemovePeer,
    RemoveRule,
    SetPort,
    SetProtocol,
    apply_edits,
    patch_ops,
)
from netmend.repair.errors import EmissionError, NoPlan
from netmend.repair.intent import intent_from_stated, probe_universe
from netmend.repair.observe import Observation
from netmend.repair.planner import plan_repair

WEB = {
    "apiVersion": "networking.k8s.io/v1",
    "kind": "NetworkPolicy",
    "metadata": {"name": "web", "namespace": "shop"},
    "spec": {
        "podSelector": {"matchLabels": {"app": "web"}},
        "policyTypes": ["Ingress"],
        "ingress": [
            {"from": [{"podSelector": {"matchLabels": {"app": "a"}}}, {"podSelector": {"matchLabels": {"app": "b"}}}], "ports": [{"port": 1, "protocol": "UDP"}]},
            {"from": [{"podSelector": {"matchLabels": {"app": "c"}}}]},
            {"from": [{"podSelector": {"matchLabels": {"app": "d"}}}]},
        ],
    },
}


def edit(cls, **kw):
    return cls("shop", "web", "Ingress", **kw)


def test_ops_keep_observed_indices_valid_and_guard_every_touched_rule():
    edits = [
        edit(RemoveRule, rule=1),
        edit(RemoveRule, rule=2),
        edit(SetPort, rule=0, entry=0, port=80),
        edit(SetProtocol, rule=0, entry=0, protocol="TCP"),
        edit(RemovePeer, rule=0, peer=0),
        edit(AddPeer, rule=0, peers=(PeerSpec((("app", "e"),)),)),
        edit(AddRule, peers=(PeerSpec((("app", "f"),), (("kubernetes.io/metadata.name", "other"),)),), ports=(PortSpec(8080),)),
    ]
    ops = patch_ops(WEB, edits)
    assert [op["op"] for op in ops[:3]] == ["test", "test", "test"]
    assert [op["path"] for op in ops if op["op"] == "remove"] == ["/spec/ingress/0/from/0", "/spec/ingress/2", "/spec/ingress/1"]
    after = apply_edits(WEB, edits)
    assert after["spec"]["ingress"] == [
        {"from": [{"podSelector": {"matchLabels": {"app": "b"}}}, {"podSelector": {"matchLabels": {"app": "e"}}}], "ports": [{"port": 80, "protocol": "TCP"}]},
        {"from": [{"podSelector": {"matchLabels": {"app": "f"}}, "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "other"}}}], "ports": [{"port": 8080, "protocol": "TCP"}]},
    ]
    assert WEB["spec"]["ingress"][1]["from"][0]["podSelector"]["matchLabels"]["app"] == "c"  # input untouched


@pytest.mark.parametrize(
    "bad",
    [
        RemoveRule("shop", "web", "Ingress", rule=3),
        SetPort("shop", "web", "Ingress", rule=1, entry=0, port=5),
        RemovePeer("shop", "web", "Ingress", rule=0, peer=7),
        RemoveRule("shop", "api", "Ingress", rule=0),
        AllowDNS("shop", "web", "Egress"),
    ],
)
def test_bad_edits_are_refused_before_anything_applies(bad):
    if isinstance(bad, AllowDNS):
        ops = patch_ops(WEB, [bad])  # appending creates the list
        assert ops == [{"op": "add", "path": "/spec/egress", "value": [bad.rule_dict()]}]
        return
    with pytest.raises(EmissionError):
        patch_ops(WEB, [bad])


def test_the_same_edit_twice_is_refused():
    with pytest.raises(EmissionError):
        patch_ops(WEB, [edit(RemoveRule, rule=1), edit(NarrowRule, rule=1)])


def _without(obs: Observation, key: str) -> Observation:
    policies = {k: v for k, v in obs.policies.items() if k != key}
    return Observation(obs.cluster.with_policies(tuple(parse_policy(o) for o in policies.values())), policies)


def test_a_deny_at_an_open_egress_narrows_it(setup):
    _, obs = broken(setup)
    obs = _without(obs, "default/adservice")  # nothing isolates adservice's ingress now
    current = Prober(obs.cluster, probe_universe(obs.cluster)).run()
    intent = intent_from_stated(current, Matrix.from_dict({"frontend": {"adservice:9555": False}}))
    plan = plan_repair(obs.cluster, obs.policies, intent)
    (narrow,) = plan.edits
    assert isinstance(narrow, NarrowRule) and narrow.dns_peer is not None
    assert {str(peer) for peer, _ in narrow.keeps} == {
        "app=cartservice", "app=checkoutservice", "app=currencyservice",
        "app=productcatalogservice", "app=recommendationservice", "app=shippingservice",
    }
    assert plan.after == intent.desired


def test_no_plan_when_nothing_isolates_either_side(setup):
    _, obs = broken(setup)
    obs = _without(_without(obs, "default/adservice"), "default/loadgenerator")
    current = Prober(obs.cluster, probe_universe(obs.cluster)).run()
    intent = intent_from_stated(current, Matrix.from_dict({"loadgenerator": {"adservice:9555": False}}))
    with pytest.raises(NoPlan, match="nothing isolates"):
        plan_repair(obs.cluster, obs.policies, intent)


def test_policy_types_are_added_explicitly_or_after_defaulting():
    from netmend.repair.edits import AddPolicyType

    assert apply_edits(WEB, [AddPolicyType("shop", "web", "Egress")])["spec"]["policyTypes"] == ["Ingress", "Egress"]
    defaulted = {**WEB, "spec": {k: v for k, v in WEB["spec"].items() if k != "policyTypes"}}
    ops = patch_ops(defaulted, [AddPolicyType("shop", "web", "Egress")])
    assert ops == [{"op": "add", "path": "/spec/policyTypes", "value": ["Ingress", "Egress"]}]
    with pytest.raises(EmissionError):
        patch_ops(WEB, [AddPolicyType("shop", "web", "Ingress")])
