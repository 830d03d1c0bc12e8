"""Planner properties on random damage, random intents and random applications.

For every returned plan: its simulated result is the intent exactly, no
probe outside the intent's statements moves, and it is irredundant
(removing any one edit breaks the intent). Where no plan exists the answer
is a NoPlan with a reason.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repair_helpers import broken, repair_towards_expected

from netmend.assess.k8s.inject import KINDS, WRONG_PROTOCOLS, Injection, eligible_policies
from netmend.assess.k8s.synthetic import synthetic_setup
from netmend.k8s import Matrix, Prober, parse_policy
from netmend.repair.edits import apply_edits
from netmend.repair.errors import NoPlan
from netmend.repair.intent import intent_from_stated, probe_universe
from netmend.repair.observe import Observation
from netmend.repair.planner import plan_repair

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def injections(draw, setup):
    out = []
    for kind in draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=2, unique=True)):
        policy = draw(st.sampled_from(eligible_policies(kind, setup.manifests, setup.facts)))
        fact = setup.facts[policy]
        if kind == "add_ingress":
            apps = tuple(draw(st.lists(st.sampled_from(sorted(fact.denied_sources)), min_size=2, max_size=2, unique=True)))
            out.append(Injection(kind, policy, apps=apps))
        elif kind == "add_egress":
            others = sorted({f.workload for f in setup.facts.values()} - {fact.workload})
            out.append(Injection(kind, policy, apps=tuple(draw(st.lists(st.sampled_from(others), min_size=2, max_size=2, unique=True)))))
        elif kind == "change_port":
            out.append(Injection(kind, policy, port=draw(st.integers(1, 65535))))
        elif kind == "change_protocol":
            out.append(Injection(kind, policy, protocol=draw(st.sampled_from(WRONG_PROTOCOLS))))
        else:
            out.append(Injection(kind, policy))
    return out


def check_plan(obs: Observation, plan, intent, dns: bool):
    probes = intent.desired.probes()
    prober = Prober(obs.cluster, probes, dns=dns)
    before = prober.run()
    by_key = {f"{p.namespace}/{p.name}": p.after for p in plan.patches}

    def simulate(objects):
        return prober.run(parse_policy(o) for o in {**obs.policies, **objects}.values())

    after = simulate(by_key)
    assert after == intent.desired
    for (source, cells), (_, old) in zip(after.rows, before.rows, strict=True):
        for (target, value), (_, was) in zip(cells, old, strict=True):
            if (source, target) not in intent.stated:
                assert value == was, f"{source} -> {target} moved"
    for dropped in plan.edits:
        rest = [e for e in plan.edits if e != dropped]
        groups: dict[str, list] = {}
        for e in rest:
            groups.setdefault(e.key, []).append(e)
        objects = {k: apply_edits(obs.policies[k], g) for k, g in groups.items()}
        assert simulate(objects) != intent.desired, f"{dropped.describe()} is redundant"


@SETTINGS
@given(data=st.data(), dns=st.booleans())
def test_repairs_of_injected_damage_are_exact_and_irredundant(setup, data, dns):
    found = data.draw(injections(setup))
    _, obs = broken(setup, *found)
    try:
        plan, intent = repair_towards_expected(setup, obs, dns=dns)
    except NoPlan as exc:  # only the empty-damage case may lack a plan
        raise AssertionError(f"{found}: {exc}") from None
    check_plan(obs, plan, intent, dns)


@SETTINGS
@given(data=st.data())
def test_random_intents_get_an_exact_plan_or_a_reasoned_refusal(setup, data):
    _, obs = broken(setup)
    universe = probe_universe(obs.cluster)
    current = Prober(obs.cluster, universe).run()
    cells = [(s, t, v) for s, row in current.rows for t, v in row]
    flips = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3, unique=True))
    stated = Matrix.from_dict({s: {t: not v for ss, t, v in flips if ss == s} for s, _, _ in flips})
    intent = intent_from_stated(current, stated)
    try:
        plan = plan_repair(obs.cluster, obs.policies, intent)
    except NoPlan as exc:
        assert exc.reason
        return
    check_plan(obs, plan, intent, True)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(4, 9), seed=st.integers(0, 10_000), data=st.data())
def test_random_applications_with_random_damage(n, seed, data):
    app = synthetic_setup(n, seed)
    found = data.draw(injections(app))
    _, obs = broken(app, *found)
    if Prober(obs.cluster, app.expected.probes()).run() == app.expected:
        return  # invisible damage: nothing to repair
    plan, intent = repair_towards_expected(app, obs)
    check_plan(obs, plan, intent, True)
