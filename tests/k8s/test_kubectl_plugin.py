"""``kubectl netmend``: the kubectl-netmend console script, offline and on the current context.

The live read is driven through a fake ``kubectl`` put first on PATH, which
prints a recorded ``kubectl get -o json`` List and logs the argv it got; the
real kubectl (when installed) dispatches ``kubectl netmend ...`` to the script."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from k8s_oracles import REPO
from toolkit_helpers import TINY_SHOP, assert_golden

from netmend.cli import main as netmend_main
from netmend.cli.kubectl_plugin import main as plugin
from netmend.k8s import admin_policy_to_dict, as_list, load_cluster, to_dict
from netmend.repair.kubectl import ADMIN_RESOURCES

INTENTS = "tests/k8s/data/check"
FAKE = """#!{python}
import json, os, sys
with open(os.environ["FAKE_KUBECTL_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
if "get" not in sys.argv or os.environ.get("FAKE_KUBECTL_FAIL"):
    sys.stderr.write("error: the server could not be reached\\n")
    sys.exit(1)
resource = sys.argv[sys.argv.index("get") + 1]
if resource.endswith(".policy.networking.k8s.io"):  # admin-tier kinds: CRDs installed only with a fixture
    admin = os.environ.get("FAKE_KUBECTL_ADMIN")
    if not admin:
        sys.stderr.write("error: the server doesn't have a resource type " + resource.split(".")[0] + "\\n")
        sys.exit(1)
    items = [d for d in json.load(open(admin, encoding="utf-8"))["items"] if d["kind"].lower()[:-1] + "ies" == resource.split(".")[0]]
    sys.stdout.write(json.dumps(dict(apiVersion="v1", kind="List", items=items)))
    sys.exit(0)
sys.stdout.write(open(os.environ["FAKE_KUBECTL_STATE"], encoding="utf-8").read())
"""


def live_state() -> dict:
    """tiny-shop as a live cluster prints it: Deployment pods with template hashes."""
    cluster = load_cluster([REPO / TINY_SHOP[1]], [REPO / TINY_SHOP[3]])
    items = []
    for obj in (*cluster.namespaces, *cluster.pods, *cluster.services, *cluster.policies):
        doc = to_dict(obj)
        if doc["kind"] == "Pod":
            meta = doc["metadata"]
            workload = meta["name"].rsplit("-", 1)[0]
            meta["labels"]["pod-template-hash"] = "5d8f7c9b4"
            meta["name"] = f"{workload}-5d8f7c9b4-x2x4z"
            meta["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                        "name": f"{workload}-5d8f7c9b4", "controller": True}]
            doc["metadata"]["uid"] = "not-a-real-uid"
        items.append(doc)
    return as_list(items)


@pytest.fixture
def fake_kubectl(tmp_path, monkeypatch):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "kubectl"
    script.write_text(FAKE.format(python=sys.executable), encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    state, log = tmp_path / "state.json", tmp_path / "argv.log"
    state.write_text(json.dumps(live_state()), encoding="utf-8")
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_KUBECTL_STATE", str(state))
    monkeypatch.setenv("FAKE_KUBECTL_LOG", str(log))
    monkeypatch.chdir(REPO)

    def calls() -> list[list[str]]:
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []

    return calls


def run(*args: str):
    return CliRunner().invoke(plugin, list(args))


def test_check_reads_the_current_context_through_kubectl_get_json(fake_kubectl):
    result = run("check", "--intent", f"{INTENTS}/fails.intent.yaml", "--context", "kind-shop")
    assert result.exit_code == 1, result.output
    calls = fake_kubectl()
    assert calls[0] == ["--context", "kind-shop", "get", "namespaces,pods,services,networkpolicies", "-A", "-o", "json"]
    assert [c[3] for c in calls[1:]] == list(ADMIN_RESOURCES) and all(c[:2] == ["--context", "kind-shop"] for c in calls)
    assert_golden("plugin-check-live.txt", result.output)
    # The suggested commands patch the live objects in the same context.
    report = json.loads(run("check", "--intent", f"{INTENTS}/fails.intent.yaml", "--context", "kind-shop",
                            "--format", "json").output)
    commands = [c for a in report["assertions"] if a["repair"] for c in a["repair"]["commands"]]
    assert commands and all(c.startswith("kubectl --context kind-shop patch networkpolicy") for c in commands)


def test_live_and_offline_checks_agree(fake_kubectl):
    for intent in ("holds", "fails", "matrix"):
        live = json.loads(run("check", "--intent", f"{INTENTS}/{intent}.intent.yaml", "--format", "json").output)
        files = json.loads(CliRunner().invoke(netmend_main, ["k8s", "check", "--intent", f"{INTENTS}/{intent}.intent.yaml",
                                                             *TINY_SHOP, "--format", "json"]).output)
        assert [(a["name"], a["holds"], a["checked"], a["failing"]) for a in live["assertions"]] == [
            (a["name"], a["holds"], a["checked"], a["failing"]) for a in files["assertions"]]


def test_policies_replace_the_live_ones(fake_kubectl):
    result = run("check", "--intent", f"{INTENTS}/fails.intent.yaml", "--policies", "tests/k8s/data/diff/widen.policies.yaml",
                 "--format", "json")
    holds = {a["name"]: a["holds"] for a in json.loads(result.output)["assertions"]}
    assert holds["storefront-reads-db"] is True  # the candidate policies open it; the live ones do not


def test_with_manifests_nothing_is_read_from_the_cluster(fake_kubectl):
    result = run("check", "--intent", f"{INTENTS}/holds.intent.yaml", *TINY_SHOP)
    assert result.exit_code == 0 and fake_kubectl() == []


def test_a_failing_kubectl_is_exit_2(fake_kubectl, monkeypatch):
    monkeypatch.setenv("FAKE_KUBECTL_FAIL", "1")
    result = run("check", "--intent", f"{INTENTS}/holds.intent.yaml")
    assert result.exit_code == 2 and "cannot read the cluster" in result.output
    assert "server could not be reached" in result.output


def test_diff_new_against_the_live_policies(fake_kubectl):
    result = run("diff", "tests/k8s/data/diff/widen.policies.yaml", "--fail-on", "widen")
    assert result.exit_code == 1, result.output
    assert "+ shop/web -> data/db: TCP 5432" in result.output
    same = run("diff", "tests/k8s/apps/tiny-shop/policies.yaml", "--fail-on", "any")
    assert same.exit_code == 0 and "0 connection changes" in same.output


def _script() -> Path:
    return Path(sys.executable).parent / "kubectl-netmend"


def test_the_console_script_is_installed():
    assert _script().exists(), "pip install -e . registers kubectl-netmend (pyproject [project.scripts])"


@pytest.mark.needs_kubectl
def test_the_real_kubectl_dispatches_kubectl_netmend(kubectl, fake_kubectl, tmp_path):
    env = {**os.environ, "PATH": f"{os.environ['PATH']}{os.pathsep}{_script().parent}"}
    offline = subprocess.run([kubectl, "netmend", "check", "--intent", f"{INTENTS}/fails.intent.yaml", *TINY_SHOP],
                             capture_output=True, text=True, env=env, timeout=120, check=False)
    direct = CliRunner().invoke(netmend_main, ["k8s", "check", "--intent", f"{INTENTS}/fails.intent.yaml", *TINY_SHOP])
    assert offline.returncode == 1 and offline.stdout == direct.output
    # Live: kubectl runs the plugin, and the plugin's own `kubectl get` finds the fake first on PATH.
    live = subprocess.run([kubectl, "netmend", "check", "--intent", f"{INTENTS}/holds.intent.yaml"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert live.returncode == 0, live.stderr
    assert ["get", "namespaces,pods,services,networkpolicies", "-A", "-o", "json"] in fake_kubectl()


def test_admin_policies_are_read_from_the_live_cluster(fake_kubectl, monkeypatch, tmp_path):
    guarded = load_cluster([REPO / TINY_SHOP[1]], [REPO / TINY_SHOP[3], REPO / INTENTS / "admin"])
    admin = tmp_path / "admin.json"
    admin.write_text(json.dumps(as_list([admin_policy_to_dict(p) for p in guarded.admin_policies])), encoding="utf-8")
    monkeypatch.setenv("FAKE_KUBECTL_ADMIN", str(admin))
    live = json.loads(run("check", "--intent", f"{INTENTS}/admin.intent.yaml", "--format", "json").output)
    files = json.loads(CliRunner().invoke(netmend_main, ["k8s", "check", "--intent", f"{INTENTS}/admin.intent.yaml",
                                                         *TINY_SHOP, "--policies", f"{INTENTS}/admin",
                                                         "--format", "json"]).output)
    assert [(a["name"], a["holds"]) for a in live["assertions"]] == [(a["name"], a["holds"]) for a in files["assertions"]]
    assert live["assertions"][0]["witnesses"][0]["policies"] == ["ClusterNetworkPolicy/protect-data"]
    # Applying the live NetworkPolicies again changes nothing; the live guardrails stay in force.
    same = run("diff", "tests/k8s/apps/tiny-shop/policies.yaml", "--fail-on", "any")
    assert same.exit_code == 0, same.output


def test_a_failing_admin_read_other_than_a_missing_crd_is_exit_2(fake_kubectl, monkeypatch, tmp_path):
    broken = tmp_path / "admin.json"
    broken.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("FAKE_KUBECTL_ADMIN", str(broken))
    result = run("check", "--intent", f"{INTENTS}/holds.intent.yaml")
    assert result.exit_code == 2
