"""Error kinds NetArena does not generate: the participant still repairs them.

Each mutation damages one policy's spec in a way outside the five injected
kinds; every visible case must end solved, safely, in two turns (one read,
one repair). Random combinations of several mutations must end solved and
safe (a later fault may hide behind an earlier one, so more turns may pass).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import netmend.assess.k8s.harness as harness
from netmend.agent.k8s import respond_k8s
from netmend.assess.k8s.inject import Task
from netmend.assess.k8s.kubectl import SimCluster


def _rules(spec, field="ingress"):
    return spec.get(field) or []


def rename_peers(spec):
    for rule in _rules(spec):
        for peer in rule.get("from", []):
            peer["podSelector"]["matchLabels"]["app"] += "-old"


def named_port(spec):
    for rule in _rules(spec):
        for port in rule.get("ports", []):
            port["port"] = "http"
            port.pop("endPort", None)  # the API refuses an endPort beside a named port


def port_range(spec):
    for rule in _rules(spec):
        for port in rule.get("ports", []):
            port.update(port=1, endPort=100)


def other_namespace(spec):
    for rule in _rules(spec):
        for peer in rule.get("from", []):
            peer["namespaceSelector"] = {"matchLabels": {"kubernetes.io/metadata.name": "staging"}}


MUTATIONS = {
    "peers renamed": rename_peers,
    "named port": named_port,
    "port range": port_range,
    "peers in another namespace": other_namespace,
    "egress emptied": lambda spec: spec.__setitem__("egress", []),
    "ingress emptied": lambda spec: spec.__setitem__("ingress", []),
    "allow-all ingress added": lambda spec: spec.setdefault("ingress", []).append({}),
    "selector matches nothing": lambda spec: spec.__setitem__(
        "podSelector", {"matchExpressions": [{"key": "app", "operator": "In", "values": ["nothing"]}]}
    ),
    "ingress type dropped": lambda spec: spec.__setitem__("policyTypes", ["Egress"]),
}


def _run(setup, monkeypatch, damage):
    def deployed(s, task):
        manifests = copy.deepcopy(s.manifests)
        for name, mutate in damage:
            mutate(manifests[name]["spec"])
        return SimCluster.deploy(s.base, manifests.values())

    monkeypatch.setattr(harness, "deployed", deployed)
    if not deployed(setup, None).probe(setup.expected):
        return None
    return harness.run_task(setup, Task("unseen", 0, ()), respond_k8s)


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_each_unseen_kind_on_every_policy(setup, monkeypatch, kind):
    visible = 0
    for name in sorted(setup.manifests):
        result = _run(setup, monkeypatch, [(name, MUTATIONS[kind])])
        if result is None:
            continue
        visible += 1
        assert (result.success, result.safe, result.iterations) == (True, True, 2), f"{kind} on {name}"
    assert visible


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_combinations_end_solved_and_safe(setup, monkeypatch, data):
    picks = data.draw(
        st.lists(st.tuples(st.sampled_from(sorted(setup.manifests)), st.sampled_from(sorted(MUTATIONS))), min_size=2, max_size=3)
    )
    result = _run(setup, monkeypatch, [(name, MUTATIONS[kind]) for name, kind in picks])
    if result is not None:
        assert result.success and result.safe, picks


def test_restoring_a_lost_policy_type_keeps_what_its_new_rule_must_admit(setup, monkeypatch):
    # Found by the random test above: adservice lost both its Ingress type and its
    # rules, cartservice its rules. Restoring the type would also cut frontend ->
    # adservice, so the repair needs a rule on the policy that is not isolating yet.
    picks = [("default/adservice", "ingress type dropped"), ("default/adservice", "ingress emptied"),
             ("default/cartservice", "ingress emptied")]
    result = _run(setup, monkeypatch, [(name, MUTATIONS[kind]) for name, kind in picks])
    assert (result.success, result.safe, result.iterations) == (True, True, 2)


def test_three_faults_whose_repairs_share_policies_are_repaired_in_one_patch(setup, monkeypatch):
    # checkoutservice's selector matches nothing and adservice's and redis-cart's ingress
    # is emptied: candidate edits on the sources' own policies link all the changes into
    # one component too large to search jointly; its parts, searched alone, compose.
    picks = [("default/checkoutservice", "selector matches nothing"), ("default/adservice", "ingress emptied"),
             ("default/redis-cart", "ingress emptied")]
    result = _run(setup, monkeypatch, [(name, MUTATIONS[kind]) for name, kind in picks])
    assert (result.success, result.safe, result.iterations) == (True, True, 2)
    counts = [t.mismatches for t in result.turns]
    assert counts[-1] == 0 and counts[0] > 0
