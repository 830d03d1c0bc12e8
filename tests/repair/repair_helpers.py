"""Shared helpers of the repair tests: break the demo, plan its repair."""

from __future__ import annotations

from netmend.assess.k8s.harness import Setup, deployed
from netmend.assess.k8s.inject import Injection, Task
from netmend.k8s import Prober, compare
from netmend.repair.intent import intent_from_feedback, probe_universe, with_probes
from netmend.repair.observe import Observation
from netmend.repair.planner import Plan, plan_repair


def broken(setup: Setup, *injections: Injection):
    """The simulated cluster with ``injections`` deployed, and its model observation."""
    sim = deployed(setup, Task("test", 0, tuple(injections)))
    return sim, Observation(cluster=sim.model(), policies=dict(sim.policies))


def repair_towards_expected(setup: Setup, obs: Observation, dns: bool = True) -> tuple[Plan, object]:
    """Plan the repair the harness's mismatch lines ask for; returns (plan, intent)."""
    mismatches = compare(setup.expected, Prober(obs.cluster, setup.expected.probes(), dns=dns).run())
    universe = with_probes(probe_universe(obs.cluster), [(m.source, m.target) for m in mismatches])
    intent = intent_from_feedback(Prober(obs.cluster, universe, dns=dns).run(), mismatches)
    return plan_repair(obs.cluster, obs.policies, intent, dns=dns), intent
