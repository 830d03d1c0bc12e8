"""Cluster mode through the CLI, with the simulated cluster standing in for kubectl."""

from __future__ import annotations

import json
import shlex

import pytest
import yaml
from click.testing import CliRunner
from repair_helpers import broken

import netmend.cli.k8s_repair as k8s_repair
from netmend.assess.k8s.inject import Injection
from netmend.cli import main


@pytest.fixture
def cluster(setup, monkeypatch, tmp_path):
    sim, _ = broken(
        setup,
        Injection("add_egress", "cartservice", apps=("frontend", "emailservice")),
        Injection("change_port", "emailservice", port=1234),
    )
    calls = []

    def runner(argv):
        calls.append(argv)
        return sim.kubectl(argv[1:])

    monkeypatch.setattr(k8s_repair, "make_runner", lambda binary: runner)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "intent.yaml").write_text(yaml.safe_dump(setup.expected.to_dict()), encoding="utf-8")
    return sim, calls


def test_dry_run_shows_the_plan_and_changes_nothing(setup, cluster):
    sim, calls = cluster
    before = json.dumps(sim.policies, sort_keys=True)
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", "intent.yaml", "--context", "kind-x", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["mode"] == "dry-run" and len(report["commands"]) == 2
    assert all(shlex.split(c)[:3] == ["kubectl", "--context", "kind-x"] for c in report["commands"])
    assert json.dumps(sim.policies, sort_keys=True) == before
    assert all(argv[3] == "get" for argv in calls)


def test_apply_verifies_audits_and_the_rollback_restores_exactly(setup, cluster, tmp_path):
    sim, _ = cluster
    before = {k: v["spec"] for k, v in sim.policies.items()}
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", "intent.yaml", "--apply", "--rollback-file", "rb.sh"])
    assert result.exit_code == 0, result.output
    assert "outcome: verified" in result.output
    assert sim.probe(setup.expected) == ()
    (record,) = [json.loads(line) for line in (tmp_path / "netmend-audit.jsonl").read_text().splitlines()]
    assert record["verified"] and record["who"] and record["when"]
    assert set(record["before"]) == set(record["after"]) == {"default/cartservice", "default/emailservice"}
    assert record["before"]["default/emailservice"]["spec"] == before["default/emailservice"]
    script = (tmp_path / "rb.sh").read_text()
    commands = [line for line in script.splitlines() if line.startswith("kubectl")]
    for command in commands:
        assert sim.run(command).code == 0
    assert {k: v["spec"] for k, v in sim.policies.items()} == before
    # a second rollback finds specs that are no longer the repaired ones and refuses
    assert sim.run(commands[0]).code == 1


def test_a_concurrent_change_makes_apply_fail_and_undo(setup, cluster, monkeypatch):
    sim, _ = cluster
    original = k8s_repair.make_runner("kubectl")
    seen = {"patches": 0}

    def racing(argv):
        if "patch" in argv:
            seen["patches"] += 1
            if seen["patches"] == 2:  # someone edits emailservice between our read and our patch
                sim.run("""kubectl patch networkpolicy emailservice --type=merge -p '{"spec":{"ingress":[]}}'""")
        return original(argv)

    monkeypatch.setattr(k8s_repair, "make_runner", lambda binary: racing)
    cart_before = json.loads(json.dumps(sim.policies["default/cartservice"]["spec"]))
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", "intent.yaml", "--apply", "--rollback-file", "rb.sh"])
    assert result.exit_code == 1
    assert "apply failed" in result.output and "undone: default/cartservice" in result.output
    assert sim.policies["default/cartservice"]["spec"] == cart_before


def test_bad_intent_is_a_clear_error(cluster, tmp_path):
    (tmp_path / "bad.yaml").write_text("allow: ['frontend adservice:9555']\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", "bad.yaml"])
    assert result.exit_code == 1 and "expected 'source -> service:port'" in result.output
