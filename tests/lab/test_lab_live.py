"""The live lab against the semantics engine and NetArena's expectations (real packets)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from pathlib import Path

import pytest

from netmend.assess.k8s.inject import FAMILIES, PolicyFacts, generate_tasks, inject
from netmend.k8s import (
    NetworkPolicy,
    Peer,
    Prober,
    Rule,
    compare,
    demo_cluster,
    demo_expected,
    demo_policies,
    parse_policy,
    policy_to_dict,
)
from netmend.k8s.model import LabelSelector
from netmend.lab import sandbox
from netmend.lab.errors import LabError, SandboxError
from netmend.lab.lab import Lab
from netmend.lab.nft import compile_empty_filter
from netmend.lab.prober import ProbeJob

pytestmark = pytest.mark.needs_root_net
DISAGREEMENTS = Path(__file__).parent / "data" / "disagreements"
SEED = 7


def demo_facts() -> dict[str, PolicyFacts]:
    """What the injector needs to know, read off the demo's expected matrix."""
    expected = demo_expected()
    facts = {}
    for policy in demo_policies():
        app = dict(policy.pod_selector.match_labels)["app"]
        into = [(s, v) for s, cells in expected.rows for t, v in cells if t.split(":")[0] == app]
        facts[policy.name] = PolicyFacts(
            policy=policy.name,
            workload=app,
            allowed_sources=tuple(s for s, v in into if v),
            denied_sources=tuple(s for s, v in into if not v),
            allowed_targets=sum(v for s, cells in expected.rows if s == app for _, v in cells),
        )
    return facts


def save_disagreement(kind: str, policies, lab_rows, engine_rows) -> Path:
    """Keep a disagreement as a fixture (replayed by test_saved_disagreements_now_agree)."""
    DISAGREEMENTS.mkdir(parents=True, exist_ok=True)
    data = {
        "kind": kind,
        "policies": [policy_to_dict(p) for p in policies],
        "lab": lab_rows,
        "engine": engine_rows,
    }
    text = json.dumps(data, indent=1, sort_keys=True)
    path = DISAGREEMENTS / f"{kind}-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"
    path.write_text(text)
    return path


def assert_lab_equals_engine(lab: Lab, policies, kind: str, mode: str = "socket") -> None:
    probes = demo_expected().probes()
    lab.apply(policies)
    live = lab.probe(probes, mode=mode).matrix
    engine = Prober(lab.cluster, probes, dns=True).run(policies)
    differ = compare(engine, live)
    if differ:
        path = save_disagreement(kind, policies, live.to_dict(), engine.to_dict())
        pytest.fail(f"{len(differ)} cells differ (saved {path.name}): {[str(m) for m in differ]}")


@pytest.mark.parametrize("mode", ["socket", "nc"])
def test_correct_policies_give_no_mismatch(demo_lab, mode):
    demo_lab.apply(demo_policies())
    live = demo_lab.probe(demo_expected().probes(), mode=mode)
    assert compare(demo_expected(), live.matrix) == ()
    assert live.matrix.count(True) == demo_expected().count(True) > 0


@pytest.mark.parametrize("family", FAMILIES)
def test_every_error_family_matches_the_engine(demo_lab, family):
    originals = {p.name: policy_to_dict(p) for p in demo_policies()}
    (task,) = generate_tasks(1, SEED, originals, demo_facts(), families=(family,))
    broken = inject(originals, task.injections)
    policies = tuple(parse_policy(broken[p.name]) for p in demo_policies())
    assert_lab_equals_engine(demo_lab, policies, family.replace("+", "-"))
    # The damage must show, or the family tests nothing.
    assert compare(
        demo_expected(), Prober(demo_lab.cluster, demo_expected().probes()).run(policies)
    )


def test_nc_agrees_with_the_engine_on_a_two_error_family(demo_lab):
    originals = {p.name: policy_to_dict(p) for p in demo_policies()}
    (task,) = generate_tasks(1, SEED, originals, demo_facts(), families=("add_ingress+add_egress",))
    broken = inject(originals, task.injections)
    policies = tuple(parse_policy(broken[p.name]) for p in demo_policies())
    assert_lab_equals_engine(demo_lab, policies, "nc-add_ingress-add_egress", mode="nc")


def _frontend_egress_only_to(app: str) -> NetworkPolicy:
    peer = Peer(pod_selector=LabelSelector(match_labels=(("app", app),)))
    return NetworkPolicy(
        name="frontend-egress",
        pod_selector=LabelSelector(match_labels=(("app", "frontend"),)),
        policy_types=("Egress",),
        egress=(Rule(peers=(peer,)),),
    )


def _without(name: str) -> tuple[NetworkPolicy, ...]:
    return tuple(p for p in demo_policies() if p.name != name)


def test_egress_without_dns_breaks_names_but_not_addresses(demo_lab):
    # The demo's own frontend policy allows all egress; a union with it would hide the cut.
    policies = (*_without("frontend"), _frontend_egress_only_to("cartservice"))
    demo_lab.apply(policies)
    probes = (("frontend", ("cartservice:7070", "adservice:9555")),)
    by_name = demo_lab.probe(probes)
    assert [r.ok for r in by_name.records] == [False, False]
    assert "name resolution" in by_name.records[0].detail
    by_ip = demo_lab.probe(probes, dns=False)
    assert [r.ok for r in by_ip.records] == [True, False]
    engine = Prober(demo_lab.cluster, probes, dns=True).run(policies)
    assert engine == by_name.matrix


def test_reapplying_reloads_only_the_pods_whose_rules_change(demo_lab):
    demo_lab.apply(demo_policies())
    assert demo_lab.apply(demo_policies()) == ()
    changed = demo_lab.apply((*_without("frontend"), _frontend_egress_only_to("adservice")))
    assert changed == ("default/frontend-0",)
    assert 'comment "default/frontend-egress egress[0]"' in demo_lab.ruleset("default/frontend-0")


def test_a_dropped_probe_times_out_and_a_rejected_one_fails_at_once(lab_ok, demo_lab):
    demo_lab.apply(demo_policies())
    probes = (("adservice", ("cartservice:7070",)),)
    started = time.monotonic()
    (rejected,) = demo_lab.probe(probes).records
    assert not rejected.ok and time.monotonic() - started < 0.5
    with Lab.start(demo_cluster(), tied=True) as dropping:
        (dropped,) = dropping.probe(probes, timeout=0.3).records
    assert not dropped.ok and dropped.detail == "timed out"


def test_parallel_labs_do_not_collide_and_stop_cleanly(lab_ok):
    cluster = demo_cluster()
    with Lab.start(cluster, tied=True) as first:
        try:
            # The unprivileged path: user namespace, overlay /etc, nftables inside it.
            second = Lab.start(cluster, tied=True, userns=True)
        except SandboxError as exc:
            pytest.skip(f"user namespaces are not available here: {exc}")
        with second:
            assert first.name != second.name
            probes = (("frontend", ("cartservice:7070",)),)
            assert first.probe(probes).records[0].ok and second.probe(probes).records[0].ok
            second.apply(())
            assert first.ruleset("default/cartservice-0") != second.ruleset("default/cartservice-0")
    assert not first.directory.exists() and not second.directory.exists()


def test_killing_the_sandbox_leaves_nothing_running(lab_ok):
    lab = Lab.start(demo_cluster(), tied=True)
    pid = int((lab.directory / "pid").read_text())
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    assert children, "the sandbox has a supervisor"
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    deadline = time.monotonic() + 5
    while any(Path(f"/proc/{c}").exists() for c in children) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(Path(f"/proc/{c}").exists() for c in children)
    assert not sandbox.is_running(lab.directory)
    assert sandbox.stop(lab.directory) is False  # stale state is removed, nothing was running
    assert not lab.directory.exists()


def test_saved_disagreements_now_agree(demo_lab):
    for path in sorted(DISAGREEMENTS.glob("*.json")) if DISAGREEMENTS.exists() else ():
        data = json.loads(path.read_text())
        if "policies" in data and "cluster" not in data:
            policies = tuple(parse_policy(p) for p in data["policies"])
            assert_lab_equals_engine(demo_lab, policies, f"replay-{path.stem}")


def test_sctp_probes_say_why_they_cannot_be_measured(demo_lab):
    netns = demo_lab.plan.pod("default/frontend-0").netns
    (result,) = demo_lab.run_jobs([ProbeJob(netns, "cartservice", 7070, "SCTP")])
    assert not result.ok and result.detail.startswith("SCTP is not probed: ")


def test_a_failing_ruleset_leaves_every_pod_as_it_was(demo_lab):
    demo_lab.apply(demo_policies())
    before = {
        key: demo_lab.ruleset(key) for key in ("default/adservice-0", "default/cartservice-0")
    }
    rulesets = {
        demo_lab.plan.pod("default/adservice-0").netns: compile_empty_filter(),
        demo_lab.plan.pod("default/cartservice-0").netns: "table inet netmend_filter { oops }\n",
    }
    with pytest.raises(LabError, match="nft"):
        sandbox.request(demo_lab.directory, {"op": "apply", "rulesets": rulesets})
    assert {key: demo_lab.ruleset(key) for key in before} == before


def test_bad_requests_get_errors_and_the_lab_keeps_serving(demo_lab):
    for payload in (
        {"op": "dance"},
        {"op": "apply", "rulesets": {"no-such-pod": ""}},
        {"op": "probe"},
    ):
        with pytest.raises(LabError):
            sandbox.request(demo_lab.directory, payload)
    assert sandbox.request(demo_lab.directory, {"op": "ping"})["pods"] == len(demo_lab.plan.pods)
