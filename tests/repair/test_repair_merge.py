"""Merging the steps of a partial plan: one verified patch per policy, no edit twice.

The oracle is the real ``kubectl patch --local``: the merged patch of random
multi-step plans on a fixture app's policies must apply and give the object the
steps give one by one.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from netmend.k8s import Matrix
from netmend.repair.edits import AddPolicyType, Edit, RemovePeer, RemoveRule, SetPort, apply_ops
from netmend.repair.errors import EmissionError
from netmend.repair.planner import Plan, _merge, _patches

APP = Path(__file__).resolve().parents[1] / "k8s" / "apps" / "tiny-shop" / "policies.yaml"
POLICIES = {
    f"{d['metadata']['namespace']}/{d['metadata']['name']}": d
    for d in yaml.safe_load_all(APP.read_text()) if d and d.get("kind") == "NetworkPolicy"
}
EMPTY = Matrix(())


def _edits_for(key: str, obj: dict) -> list[Edit]:
    """Every simple edit the object admits (indices valid on ``obj``)."""
    namespace, _, name = key.partition("/")
    spec = obj.get("spec") or {}
    out: list[Edit] = []
    for direction, field, peers in (("Ingress", "ingress", "from"), ("Egress", "egress", "to")):
        if direction not in (spec.get("policyTypes") or []):
            out.append(AddPolicyType(namespace, name, direction))
        for r, rule in enumerate(spec.get(field) or []):
            out.append(RemoveRule(namespace, name, direction, rule=r))
            for e, _ in enumerate(rule.get("ports") or []):
                out.append(SetPort(namespace, name, direction, rule=r, entry=e, port=1000 + 10 * r + e))
            for p, _ in enumerate(rule.get(peers) or []):
                out.append(RemovePeer(namespace, name, direction, rule=r, peer=p))
    return out


def _step(objects: dict[str, dict], edits: list[Edit]) -> Plan:
    return Plan(tuple(edits), _patches(objects, edits), EMPTY, EMPTY, (), True)


@st.composite
def multi_step(draw):
    """Up to three steps, each planned on the objects the steps before leave."""
    objects = dict(POLICIES)
    steps: list[Plan] = []
    for _ in range(draw(st.integers(2, 3))):
        key = draw(st.sampled_from(sorted(objects)))
        choices = _edits_for(key, objects[key])
        if not choices:
            break
        picked = draw(st.lists(st.sampled_from(choices), min_size=1, max_size=2, unique=True))
        # Several removals in one policy shift indices: keep one per rule list.
        if sum(isinstance(e, RemoveRule) for e in picked) > 1:
            picked = picked[:1]
        try:
            plan = _step(objects, picked)
        except EmissionError:
            continue
        steps.append(plan)
        objects = objects | {f"{p.namespace}/{p.name}": p.after for p in plan.patches}
    return steps, objects


def _kubectl_patch(kubectl: str, tmp: Path, obj: dict, ops: list[dict]) -> dict:
    path = tmp / "policy.json"
    path.write_text(json.dumps(obj))
    done = subprocess.run(
        [kubectl, "patch", "--local", "-f", str(path), "--type=json", "-p", json.dumps(ops), "-o", "json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=multi_step())
def test_merged_patch_equals_the_steps_in_turn_with_kubectl(kubectl, tmp_path_factory, case):
    steps, objects = case
    if not steps:
        return
    plan = steps[0]
    for step in steps[1:]:
        try:
            plan = _merge(plan, step)
        except EmissionError as exc:
            assert "repeats an edit" in str(exc)
            return
    assert len(set(plan.edits)) == len(plan.edits)
    tmp = tmp_path_factory.mktemp("merge")
    for p in plan.patches:
        key = f"{p.namespace}/{p.name}"
        assert apply_ops(POLICIES[key], list(p.ops)) == objects[key] == p.after
        got = _kubectl_patch(kubectl, tmp, POLICIES[key], list(p.ops))
        assert got["spec"] == objects[key]["spec"]


def test_a_step_repeating_an_edit_is_not_merged():
    # Setting the same port twice on one rule: the second step repeats the first's edit.
    edit = SetPort("shop", "web", "Egress", rule=0, entry=0, port=9001)
    first = _step(dict(POLICIES), [edit])
    left = dict(POLICIES) | {"shop/web": first.patches[0].after}
    second = _step(left, [edit])
    with pytest.raises(EmissionError, match="repeats an edit"):
        _merge(first, second)


def test_a_merged_patch_is_verified_as_one_patch():
    first = _step(dict(POLICIES), [SetPort("shop", "web", "Egress", rule=0, entry=0, port=9001)])
    left = dict(POLICIES) | {"shop/web": first.patches[0].after}
    second = _step(left, [RemovePeer("shop", "web", "Ingress", rule=0, peer=0)])
    # A second step whose claimed result is not what its ops give is refused.
    forged = replace(second, patches=(replace(second.patches[0], after=POLICIES["shop/web"]),))
    with pytest.raises(EmissionError, match="merged patch"):
        _merge(first, forged)
    merged = _merge(first, second)
    assert apply_ops(POLICIES["shop/web"], list(merged.patches[0].ops)) == second.patches[0].after


def test_components_needing_the_same_edit_get_it_once(setup, monkeypatch):
    # Two components whose searches both return an edit: the final set and the
    # policy's patch carry it once (the plan is not refused for a repeated edit).
    from repair_helpers import broken, repair_towards_expected

    from netmend.assess.k8s.inject import Injection
    from netmend.repair import planner

    _, obs = broken(
        setup,
        Injection("change_port", "redis-cart", port=45677),
        Injection("change_protocol", "shippingservice", protocol="UDP"),
    )
    search = planner._Search.search
    seen: list = []

    def overlapping(self, cands, targets, max_edits):
        found = search(self, cands, targets, max_edits)
        if found is None:
            return None
        seen.extend(e for e in found if e not in seen)
        return tuple(seen)  # every earlier component's edits again, then this one's

    monkeypatch.setattr(planner._Search, "search", overlapping)
    plan, _ = repair_towards_expected(setup, obs)
    assert len(seen) >= 2
    assert len(set(plan.edits)) == len(plan.edits) == len(seen)
    assert plan.unresolved == ()
