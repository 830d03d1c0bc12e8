"""The NetArena conversation and the participant's turns."""

from __future__ import annotations

import pytest
from repair_helpers import broken

from netmend.agent import respond
from netmend.agent.k8s import is_k8s_prompt, respond_k8s
from netmend.assess.k8s.inject import Injection
from netmend.k8s import mismatch_summary
from netmend.repair.netarena import (
    LOG_WINDOW,
    NO_PREVIOUS_OUTPUT,
    PREAMBLE,
    STATUS_MARKER,
    LogEntry,
    banned_in,
    build_prompt,
    extract_command,
    log_of_prompt,
    parse_log,
    render_log,
)
from netmend.repair.observe import READ_COMMAND, parse_observation, workload_of
from netmend.repair.participant import decide, fresh_read, is_read_only

ENTRIES = (
    LogEntry("kubectl get pods", "NAME READY\nweb-1 1/1", "Mismatch: a \u2192 b:80 (Expected: True, Actual: False)"),
    LogEntry("kubectl patch networkpolicy b --type=json -p '[]'", "patched", "No mismatches found."),
)


def test_log_round_trip_and_window():
    log = render_log(ENTRIES)
    assert parse_log(log) == ENTRIES
    prompt = build_prompt(log)
    assert prompt.startswith(PREAMBLE) and log_of_prompt(prompt) == log
    assert log_of_prompt(build_prompt("")) == ""
    assert build_prompt("").endswith(STATUS_MARKER + "\n" + NO_PREVIOUS_OUTPUT)
    long_log = render_log(ENTRIES * 2000)
    shown = log_of_prompt(build_prompt(long_log))
    assert len(shown) == LOG_WINDOW and long_log.endswith(shown)
    assert parse_log(shown)[-1] == ENTRIES[-1]  # a cut first entry is skipped, the rest parse


def test_command_extraction_and_vetting_follow_the_harness():
    assert extract_command("x ```kubectl get pods``` y ```other```") == "kubectl get pods"
    assert extract_command("```bash\nkubectl get pods\n```") == "bash\nkubectl get pods"
    assert extract_command("no fence") == ""
    assert banned_in("bash\nkubectl get pods") == ("bash",)
    assert banned_in("kubectl get pods -n <namespace>") == ("<namespace>",)
    assert banned_in(READ_COMMAND) == ()


def test_prompt_recognition():
    assert is_k8s_prompt(build_prompt(""))
    other_preamble = "You are fixing Kubernetes network policies with kubectl patch.\n"
    assert is_k8s_prompt(build_prompt(render_log(ENTRIES), other_preamble))
    assert not is_k8s_prompt("Update the MALT graph: add a port to ju1.a1.m1.")
    assert not is_k8s_prompt(STATUS_MARKER + " but about something else")


def test_read_only_detection():
    assert is_read_only("kubectl get pods && kubectl get svc -o wide")
    assert not is_read_only("kubectl get pods; kubectl patch networkpolicy x -p '{}'")
    assert not is_read_only("kubectl get pods > out.txt")
    assert fresh_read((LogEntry(READ_COMMAND, "x", "s"), LogEntry("kubectl get pods", "y", "s"))).command == READ_COMMAND
    assert fresh_read((LogEntry(READ_COMMAND, "x", "s"), LogEntry("kubectl patch x", "y", "s"))) is None


def test_workload_names_of_live_pods():
    assert workload_of("redis-cart-5b8f7c6d9-abcde", {"pod-template-hash": "5b8f7c6d9"}, ["ReplicaSet"]) == "redis-cart"
    assert workload_of("web-2", {}, ["StatefulSet"]) == "web"
    assert workload_of("node-agent-x7k2p", {}, ["DaemonSet"]) == "node-agent"


def test_the_read_reproduces_the_model(setup):
    sim, obs = broken(setup, Injection("change_port", "emailservice", port=99))
    seen = parse_observation(sim.run(READ_COMMAND).stdout)
    assert {k: o["spec"] for k, o in seen.policies.items()} == {k: o["spec"] for k, o in sim.policies.items()}
    def stable(labels):
        return tuple(kv for kv in labels if kv[0] != "pod-template-hash")

    assert {(p.namespace, p.workload, stable(p.labels), p.ports) for p in seen.cluster.pods} == {
        (p.namespace, p.workload, p.labels, p.ports) for p in obs.cluster.pods
    }
    assert [(s.key, s.selector, s.ports) for s in seen.cluster.services] == [(s.key, s.selector, s.ports) for s in obs.cluster.services]


@pytest.mark.parametrize("route", [respond_k8s, respond])
def test_turns_read_first_then_repair(setup, route):
    sim, _ = broken(setup, Injection("remove_ingress", "productcatalogservice"))
    first = route(build_prompt(""))
    assert extract_command(first) == READ_COMMAND
    summary = mismatch_summary(sim.probe(setup.expected))
    log = render_log([LogEntry(READ_COMMAND, sim.run(READ_COMMAND).stdout, summary)])
    command = extract_command(route(build_prompt(log)))
    assert command.startswith("kubectl patch networkpolicy productcatalogservice -n default --type=json -p ")
    assert not banned_in(command)
    assert sim.run(command).code == 0 and sim.probe(setup.expected) == ()


def test_a_contradicted_model_is_refused_and_the_turn_only_reads(setup):
    sim, _ = broken(setup)
    lie = "Mismatch: frontend \u2192 adservice:9555 (Expected: True, Actual: False)"  # the model says True
    log = render_log([LogEntry(READ_COMMAND, sim.run(READ_COMMAND).stdout, lie)])
    decision = decide(build_prompt(log))
    # the turn reads the cluster another way: never the same read again
    assert decision.command != READ_COMMAND and decision.command.startswith("kubectl get ") and decision.plan is None
    assert "contradicts" in decision.explanation


def test_a_failed_read_leads_to_a_plainer_read(setup):
    from netmend.repair.observe import READ_JSON

    log = render_log([LogEntry(READ_COMMAND, "error: You must be logged in", "Mismatch: a \u2192 b:1 (Expected: True, Actual: False)")])
    assert decide(build_prompt(log)).command == READ_JSON


def test_a_kubectl_without_jsonpath_gets_the_plainer_reads(setup):
    from netmend.assess.k8s.harness import run_task
    from netmend.assess.k8s.inject import Task
    from netmend.assess.k8s.kubectl import SimCluster
    from netmend.assess.k8s.shell import Result
    from netmend.repair.observe import READ_JSON

    original = SimCluster.kubectl

    def picky(self, argv, stdin=""):
        if any("jsonpath" in a for a in argv):
            return Result(stderr='error: unable to match a printer suitable for the output format "jsonpath"\n', code=1)
        return original(self, argv, stdin)

    task = Task("change_port", 0, (Injection("change_port", "cartservice", port=4321),))
    SimCluster.kubectl = picky
    try:
        result = run_task(setup, task, respond_k8s)
    finally:
        SimCluster.kubectl = original
    assert result.success and result.safe and result.iterations == 3
    assert [t.command for t in result.turns[:2]] == [READ_COMMAND, READ_JSON]


def test_probe_error_lines_are_skipped_and_pods_are_matched_by_name_prefix(setup):
    from dataclasses import replace

    from netmend.repair.observe import Observation, align_sources

    sim, obs = broken(setup, Injection("remove_ingress", "adservice"))
    # a harness whose pods carry no owner or hash: workloads are unknown until aligned
    pods = tuple(replace(p, workload=f"{p.workload}-7f9c-x1") if p.namespace == "default" else p for p in obs.cluster.pods)
    bare = Observation(replace(obs.cluster, pods=pods), obs.policies)
    aligned = align_sources(bare, ["frontend", "adservice"])
    assert {p.workload for p in aligned.cluster.pods} >= {"frontend", "adservice"}
    summary = "Error checking connectivity for loadgenerator \u2192 adservice:9555: timeout\n" + str(sim.probe(setup.expected)[0])
    log = render_log([LogEntry(READ_COMMAND, sim.run(READ_COMMAND).stdout, summary)])
    assert decide(build_prompt(log)).plan is not None


def test_few_shot_examples_before_the_marker_are_not_feedback(setup):
    sim, _ = broken(setup, Injection("change_protocol", "redis-cart", protocol="UDP"))
    examples = (
        "Here are a few examples:\nQuestion: Mismatch: frontend \u2192 adservice:9555 (Expected: True, Actual: False)\n"
        "Answer: ```kubectl get networkpolicy adservice -o yaml```\n"
    )
    first = build_prompt("", PREAMBLE + examples)
    assert is_k8s_prompt(first) and extract_command(respond_k8s(first)) == READ_COMMAND
    log = render_log([LogEntry(READ_COMMAND, sim.run(READ_COMMAND).stdout, mismatch_summary(sim.probe(setup.expected)))])
    command = extract_command(respond_k8s(build_prompt(log, PREAMBLE + examples)))
    assert command.startswith("kubectl patch networkpolicy redis-cart ")


@pytest.mark.parametrize(
    ("damage", "fix"),
    [
        (lambda spec: spec.__setitem__("policyTypes", ["Egress"]), '"path":"/spec/policyTypes/-","value":"Ingress"'),
        (lambda spec: spec.__setitem__("podSelector", {"matchLabels": {"app": "ad-service"}}), '"path":"/spec/podSelector/matchLabels/app","value":"adservice"'),
    ],
    ids=["lost-ingress-type", "wrong-pod-selector"],
)
def test_unseen_error_kinds_are_repaired_in_two_turns(setup, monkeypatch, damage, fix):
    import copy

    import netmend.assess.k8s.harness as harness
    from netmend.assess.k8s.inject import Task
    from netmend.assess.k8s.kubectl import SimCluster

    def deployed(s, task):
        manifests = copy.deepcopy(s.manifests)
        damage(manifests["default/adservice"]["spec"])  # adservice is left open to everyone
        return SimCluster.deploy(s.base, manifests.values())

    monkeypatch.setattr(harness, "deployed", deployed)
    result = harness.run_task(setup, Task("unseen", 0, ()), respond_k8s)
    assert result.success and result.safe and result.iterations == 2
    assert fix in result.turns[1].command


def test_a_harness_that_only_lists_policies_gets_the_known_application(setup):
    from netmend.assess.k8s.harness import run_task
    from netmend.assess.k8s.inject import Task
    from netmend.assess.k8s.kubectl import SimCluster
    from netmend.assess.k8s.shell import Result
    from netmend.repair.observe import READ_POLICIES

    original = SimCluster.kubectl

    def policies_only(self, argv, stdin=""):
        if argv[:2] == ["get", "networkpolicy"] and "jsonpath" not in " ".join(argv):
            return original(self, argv, stdin)
        if argv[:1] == ["patch"]:
            return original(self, argv, stdin)
        return Result(stderr="error: the server doesn't have a resource type\n", code=1)

    task = Task("remove_ingress", 0, (Injection("remove_ingress", "checkoutservice"),))
    SimCluster.kubectl = policies_only
    try:
        result = run_task(setup, task, respond_k8s)
    finally:
        SimCluster.kubectl = original
    assert result.success and result.safe
    assert [t.command for t in result.turns[:-1]][-1] == READ_POLICIES


# Admin-tier policies in the cluster: the JSON read that also asks for the admin kinds sees them.
ADMIN_DENY_ADS = {
    "apiVersion": "policy.networking.k8s.io/v1alpha2", "kind": "ClusterNetworkPolicy",
    "metadata": {"name": "no-ads"},
    "spec": {"tier": "Admin", "priority": 10,
             "subject": {"pods": {"namespaceSelector": {}, "podSelector": {"matchLabels": {"app": "adservice"}}}},
             "ingress": [{"name": "no-ads-from-frontend", "action": "Deny",
                          "from": [{"pods": {"namespaceSelector": {},
                                             "podSelector": {"matchLabels": {"app": "frontend"}}}}]}]},
}  # fmt: skip
ADMIN_PASS_ALL = {
    "apiVersion": "policy.networking.k8s.io/v1alpha1", "kind": "AdminNetworkPolicy",
    "metadata": {"name": "teams-decide"},
    "spec": {"priority": 5, "subject": {"namespaces": {}},
             "ingress": [{"name": "to-networkpolicies", "action": "Pass", "from": [{"namespaces": {}}]}]},
}  # fmt: skip


def admin_read(sim, *admin: dict) -> tuple[str, str]:
    """The admin-aware read's output on ``sim`` with ``admin`` installed, and the harness's
    mismatch summary, which the admin tier shapes too."""
    import json

    from netmend.repair.observe import READ_JSON, READ_JSON_ADMIN, parse_read

    stderr = "error: the server doesn't have a resource type \"baselineadminnetworkpolicies\"\n"
    lists = "".join(json.dumps({"apiVersion": "v1", "kind": "List", "items": [a]}) + "\n" for a in admin)
    output = sim.run(READ_JSON).stdout + lists + stderr
    obs = parse_read(READ_JSON_ADMIN, output)
    assert len(obs.cluster.admin_policies) == len(admin)
    return output, obs


def test_the_admin_aware_read_follows_the_plain_ones(setup):
    from netmend.repair.observe import READ_JSON, READ_JSON_ADMIN, reads_for

    assert reads_for()[:3][1:] == (READ_JSON, READ_JSON_ADMIN) and is_read_only(READ_JSON_ADMIN)
    assert not banned_in(READ_JSON_ADMIN)


def test_the_participant_plans_through_an_admin_pass(setup):
    from netmend.repair.observe import READ_JSON_ADMIN

    sim, _ = broken(setup, Injection("remove_ingress", "productcatalogservice"))
    output, _ = admin_read(sim, ADMIN_PASS_ALL)
    summary = mismatch_summary(sim.probe(setup.expected))  # a Pass changes no verdict
    decision = decide(build_prompt(render_log([LogEntry(READ_JSON_ADMIN, output, summary)])))
    assert decision.plan is not None and decision.command.startswith("kubectl patch networkpolicy productcatalogservice")
    assert sim.run(decision.command).code == 0 and sim.probe(setup.expected) == ()


def test_the_participant_says_when_an_admin_deny_decides(setup):
    from netmend.k8s import Prober
    from netmend.k8s.probe import Mismatch
    from netmend.repair.observe import READ_JSON_ADMIN

    sim, _ = broken(setup, Injection("remove_ingress", "productcatalogservice"))
    output, obs = admin_read(sim, ADMIN_DENY_ADS)
    # What the harness would see with the admin tier enforced: the NetworkPolicy damage, and the ads.
    seen = Prober(obs.cluster, setup.expected.probes()).run()
    wrong = [Mismatch(s, t, want, seen.get(s, t)) for s, row in setup.expected.rows for t, want in row
             if seen.get(s, t) != want]  # fmt: skip
    assert any(m.source == "frontend" and m.target.startswith("adservice") for m in wrong)
    decision = decide(build_prompt(render_log([LogEntry(READ_JSON_ADMIN, output, mismatch_summary(wrong))])))
    assert decision.plan is not None and decision.command.startswith("kubectl patch networkpolicy productcatalogservice")
    assert "ClusterNetworkPolicy/no-ads" in decision.explanation and "admin-tier rule decides first" in decision.explanation
    assert "frontend -> adservice" in decision.explanation


def test_a_turn_that_cannot_plan_climbs_the_ladder_and_never_searches_the_same_observation_twice(setup, monkeypatch):
    import netmend.repair.participant as participant

    sim, _ = broken(setup)
    lie = "Mismatch: frontend \u2192 adservice:9555 (Expected: True, Actual: False)"  # no model plans this
    calls = []
    real = participant.plan_from_feedback
    monkeypatch.setattr(participant, "plan_from_feedback", lambda *a, **k: calls.append(1) or real(*a, **k))
    entries, commands = [], []
    for _ in range(5):
        decision = decide(build_prompt(render_log(entries) if entries else ""))
        commands.append(decision.command)
        entries.append(LogEntry(decision.command, sim.run(decision.command).stdout, lie))
    # read, the admin-tier read, then a stated stop: no read repeated, one search in all
    assert commands[:3] == [READ_COMMAND, participant.READ_JSON_ADMIN, participant.STOP_COMMAND]
    assert set(commands[3:]) == {participant.STOP_COMMAND} and len(set(commands[:3])) == 3
    assert len(calls) == 1
    assert "stopping" in decision.explanation


def test_the_admin_read_keeps_its_objects_on_a_cluster_without_the_admin_kinds(setup):
    from netmend.assess.k8s.kubectl import harness_output
    from netmend.repair.errors import ObservationError
    from netmend.repair.observe import READ_JSON_ADMIN, parse_read

    sim, _ = broken(setup)
    # the simulated cluster has no admin CRD: each admin kind's read fails on stderr
    output = harness_output(sim.run(READ_JSON_ADMIN))
    assert is_read_only(READ_JSON_ADMIN) and parse_read(READ_JSON_ADMIN, output).policies
    with pytest.raises(ObservationError, match="no object"):
        parse_read(READ_JSON_ADMIN, "")
