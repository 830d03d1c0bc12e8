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
from netmend.repair.kubectl import CommandResult


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


# Admin-tier policies on the live cluster: read kind by kind, each rendered to JSON by the real
# kubectl (offline: ``kubectl label --local``), served beside the simulated cluster's own kinds.
ADMIN_DENY = """\
apiVersion: policy.networking.k8s.io/v1alpha2
kind: ClusterNetworkPolicy
metadata:
  name: guard-email
spec:
  tier: Admin
  priority: 10
  subject:
    pods:
      namespaceSelector: {}
      podSelector: {matchLabels: {app: emailservice}}
  ingress:
  - name: no-mail-from-checkout
    action: Deny
    from:
    - pods:
        namespaceSelector: {}
        podSelector: {matchLabels: {app: checkoutservice}}
"""
ADMIN_PASS = """\
apiVersion: policy.networking.k8s.io/v1alpha1
kind: AdminNetworkPolicy
metadata:
  name: teams-decide
spec:
  priority: 5
  subject:
    namespaces: {}
  ingress:
  - name: to-networkpolicies
    action: Pass
    from:
    - namespaces: {}
"""


def admin_list(kubectl: str, tmp_path, manifest: str) -> dict:
    import subprocess

    path = tmp_path / "admin.yaml"
    path.write_text(manifest, encoding="utf-8")
    done = subprocess.run([kubectl, "label", "--local", "-f", str(path), "netmend.test/read=live", "-o", "json"],
                          capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    return {"apiVersion": "v1", "kind": "List", "items": [json.loads(done.stdout)]}


def with_admin(monkeypatch, sim, served: dict, failing: str | None = None):
    """The simulated cluster, plus the admin kinds in ``served`` (plural -> List); other
    admin kinds answer as a cluster without their CRD does."""
    calls = []

    def runner(argv):
        calls.append(argv)
        resource = argv[argv.index("get") + 1] if "get" in argv else ""
        plural = resource.split(".")[0]
        if resource.endswith(".policy.networking.k8s.io"):
            if failing:
                return CommandResult("", failing, 1)
            if plural in served:
                return CommandResult(json.dumps(served[plural]), "", 0)
        return sim.kubectl(argv[1:])

    monkeypatch.setattr(k8s_repair, "make_runner", lambda binary: runner)
    return calls


def test_live_repair_reads_the_admin_tiers_and_plans_through_a_pass(setup, cluster, monkeypatch, kubectl, tmp_path):
    sim, _ = cluster
    calls = with_admin(monkeypatch, sim, {"adminnetworkpolicies": admin_list(kubectl, tmp_path, ADMIN_PASS)})
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", "intent.yaml", "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["commands"]) == 2  # the Pass hands every probe to the NetworkPolicies
    read = [argv[argv.index("get") + 1] for argv in calls if "get" in argv]
    assert {"clusternetworkpolicies.policy.networking.k8s.io", "adminnetworkpolicies.policy.networking.k8s.io",
            "baselineadminnetworkpolicies.policy.networking.k8s.io"} <= set(read)  # fmt: skip


def test_live_repair_says_when_an_admin_deny_decides(setup, cluster, monkeypatch, kubectl, tmp_path):
    sim, _ = cluster
    before = json.dumps(sim.policies, sort_keys=True)
    with_admin(monkeypatch, sim, {"clusternetworkpolicies": admin_list(kubectl, tmp_path, ADMIN_DENY)})
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", "intent.yaml"])
    assert result.exit_code == 1, result.output
    assert "admin-tier rule decides first" in result.output and "ClusterNetworkPolicy/guard-email" in result.output
    assert "checkoutservice" in result.output and "emailservice" in result.output
    assert json.dumps(sim.policies, sort_keys=True) == before


def test_live_repair_without_admin_crds_is_not_an_error(setup, cluster, monkeypatch):
    sim, _ = cluster
    with_admin(monkeypatch, sim, {})
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", "intent.yaml", "--json"])
    assert result.exit_code == 0, result.output


def test_an_admin_read_that_fails_otherwise_is_a_clear_error(setup, cluster, monkeypatch):
    sim, _ = cluster
    forbidden = 'Error from server (Forbidden): clusternetworkpolicies.policy.networking.k8s.io is forbidden\n'
    with_admin(monkeypatch, sim, {}, failing=forbidden)
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", "intent.yaml"])
    assert result.exit_code == 1 and "Forbidden" in result.output and "clusternetworkpolicies" in result.output
