"""``netmend k8s repair --manifests ... --policies DIR --intent F --write-to DIR2``: no cluster.

The repaired tree is compared with golden copies; untouched files must be
byte-identical; the written files must satisfy the intent when checked again
and match what the real ``kubectl patch --local`` makes of the same patches."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from k8s_oracles import REPO
from toolkit_helpers import GOLDEN, UPDATE, assert_golden

from netmend.cli import main
from netmend.k8s.writeback import guess_layout, load_policy_file

OFFLINE = "tests/k8s/data/offline"
POLICIES = f"{OFFLINE}/policies"
WORKLOADS = ("--manifests", "tests/k8s/apps/tiny-shop/workloads.yaml")
INTENTS = ["api-calls-web", "web-reads-db"]


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch):
    monkeypatch.chdir(REPO)


def repair(intent: str, out: Path | None, *args: str, policies: str = POLICIES):
    write = ("--write-to", str(out)) if out is not None else ()
    return CliRunner().invoke(main, ["k8s", "repair", *WORKLOADS, "--policies", policies,
                                     "--intent", f"{OFFLINE}/{intent}.intent.yaml", *write, *args])


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("intent", INTENTS)
def test_the_repaired_tree_and_the_printed_diff_match_their_golden_files(intent, tmp_path):
    out = tmp_path / "repaired"
    result = repair(intent, out)
    assert result.exit_code == 0, result.output
    assert_golden(f"offline-{intent}.txt", result.output.replace(str(out), "DIR2"))
    written, source = tree(out), tree(REPO / POLICIES)
    assert set(written) == set(source)
    changed = {name for name in written if written[name] != source[name]}
    assert changed and len(changed) < len(source)
    golden = GOLDEN / f"offline-{intent}"
    for name in sorted(changed):
        assert_golden(f"offline-{intent}/{name}", written[name].decode("utf-8"))
    if not UPDATE:
        assert {p.relative_to(golden).as_posix() for p in golden.rglob("*") if p.is_file()} == changed


@pytest.mark.parametrize("intent", INTENTS)
def test_the_written_policies_satisfy_the_intent_when_checked_again(intent, tmp_path):
    out = tmp_path / "repaired"
    assert repair(intent, out).exit_code == 0
    before = CliRunner().invoke(main, ["k8s", "check", *WORKLOADS, "--policies", POLICIES,
                                       "--intent", f"{OFFLINE}/{intent}.intent.yaml", "--no-repair"])
    after = CliRunner().invoke(main, ["k8s", "check", *WORKLOADS, "--policies", str(out),
                                      "--intent", f"{OFFLINE}/{intent}.intent.yaml", "--no-repair"])
    assert (before.exit_code, after.exit_code) == (1, 0), after.output
    # Nothing else moved: every other probe of the cluster keeps its value.
    probe = ["k8s", "probe", *WORKLOADS, "--format", "json"]
    old = json.loads(CliRunner().invoke(main, [*probe, "--policies", POLICIES]).output)["probes"]
    new = json.loads(CliRunner().invoke(main, [*probe, "--policies", str(out)]).output)["probes"]
    moved = {_norm(a["source"], a["target"]) for a, b in zip(old, new, strict=True) if a["actual"] != b["actual"]}
    report = json.loads(repair(intent, None, "--json").output)
    assert moved == {_norm(c.split(" ")[1], c.split(" ")[3]) for c in report["changes"]}


def _norm(source: str, target: str) -> tuple[str, str, str]:
    """(workload, service, port) whatever the namespace spelling of a probe."""
    service, _, port = target.rpartition(":")
    return source.rpartition("/")[2], service.partition(".")[0], port


def test_comments_quotes_and_four_space_indentation_survive_a_repair(tmp_path):
    out = tmp_path / "repaired"
    assert repair("api-calls-web", out).exit_code == 0
    text = (out / "shop" / "web.yaml").read_text(encoding="utf-8")
    for kept in ("# Written with four-space indentation on purpose", 'owner: "storefront-team"   # quoted on purpose',
                 "port: http    # the container's named port"):
        assert kept in text
    assert guess_layout(text) == guess_layout((REPO / POLICIES / "shop" / "web.yaml").read_text(encoding="utf-8"))


@pytest.mark.needs_kubectl
@pytest.mark.parametrize("intent", INTENTS)
def test_written_policies_equal_what_the_real_kubectl_makes_of_the_patches(intent, kubectl, tmp_path):
    out = tmp_path / "repaired"
    assert repair(intent, out).exit_code == 0
    report = json.loads(repair(intent, None, "--json").output)
    assert report["patches"]
    originals = {key: obj for f in sorted((REPO / POLICIES).rglob("*")) if f.is_file()
                 for key, _, obj in _policies(f)}
    written = {key: obj for f in sorted(out.rglob("*")) if f.is_file() for key, _, obj in _policies(f)}
    for patch in report["patches"]:
        path = tmp_path / "before.json"
        path.write_text(json.dumps(originals[patch["policy"]]), encoding="utf-8")
        done = subprocess.run([kubectl, "patch", "--local", "-f", str(path), "--type=json",
                               "-p", json.dumps(patch["ops"]), "-o", "json"],
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["spec"] == written[patch["policy"]]["spec"]


def _policies(file: Path):
    from netmend.k8s.writeback import plain, policy_documents

    loaded = load_policy_file(str(file), file.read_text(encoding="utf-8"))
    return [(key, prefix, plain(obj)) for key, prefix, obj in policy_documents(loaded)]


def test_refusals_exit_2_and_write_nothing(tmp_path):
    inside = REPO / POLICIES / "out"
    result = repair("api-calls-web", inside)
    assert result.exit_code == 2 and "outside the --policies tree" in result.output and not inside.exists()
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("x", encoding="utf-8")
    result = repair("api-calls-web", full)
    assert result.exit_code == 2 and "new or empty directory" in result.output
    assert repair("api-calls-web", tmp_path / "a", "--apply").exit_code == 2
    two = CliRunner().invoke(main, ["k8s", "repair", *WORKLOADS, "--policies", f"{POLICIES}/shop",
                                    "--policies", f"{POLICIES}/data", "--intent", f"{OFFLINE}/api-calls-web.intent.yaml",
                                    "--write-to", str(tmp_path / "b")])
    assert two.exit_code == 2 and "exactly one --policies" in two.output


def test_no_plan_exits_1_and_writes_nothing(tmp_path):
    intent = tmp_path / "impossible.yaml"
    intent.write_text(yaml.safe_dump({"allow": ["shop/web -> nosuch:80"]}), encoding="utf-8")
    out = tmp_path / "repaired"
    result = CliRunner().invoke(main, ["k8s", "repair", *WORKLOADS, "--policies", POLICIES,
                                       "--intent", str(intent), "--write-to", str(out)])
    assert result.exit_code in (1, 2) and not out.exists(), result.output


def test_an_intent_already_met_copies_the_tree_unchanged(tmp_path):
    intent = tmp_path / "met.yaml"
    intent.write_text(yaml.safe_dump({"allow": ["shop/web -> api:9000"]}), encoding="utf-8")
    out = tmp_path / "repaired"
    result = CliRunner().invoke(main, ["k8s", "repair", *WORKLOADS, "--policies", POLICIES,
                                       "--intent", str(intent), "--write-to", str(out)])
    assert result.exit_code == 0 and "already match" in result.output
    assert tree(out) == tree(REPO / POLICIES)


def test_without_write_to_it_only_prints_the_diff(tmp_path, monkeypatch):
    result = repair("api-calls-web", None)
    assert result.exit_code == 0 and "+++ b/shop/web.yaml" in result.output and "Wrote" not in result.output


def test_an_intent_about_outside_clients_is_repaired_and_then_holds(tmp_path):
    out = tmp_path / "repaired"
    intent = "tests/k8s/data/check/outside.intent.yaml"
    result = CliRunner().invoke(main, ["k8s", "repair", *WORKLOADS, "--policies", POLICIES, "--intent", intent,
                                       "--write-to", str(out)])
    assert result.exit_code == 0, result.output
    assert "+          - ipBlock:\n+                cidr: 198.51.100.7/32\n" in result.output
    again = CliRunner().invoke(main, ["k8s", "check", *WORKLOADS, "--policies", str(out), "--intent", intent])
    assert again.exit_code == 0, again.output


def _guarded_tree(tmp_path: Path) -> Path:
    import shutil

    tree_root = tmp_path / "guarded"
    shutil.copytree(REPO / POLICIES, tree_root)
    shutil.copy(REPO / "tests/k8s/data/check/admin/guardrails.yaml", tree_root / "guardrails.yaml")
    return tree_root


def test_admin_policies_in_the_tree_take_part_and_are_copied_unchanged(tmp_path):
    source = _guarded_tree(tmp_path)
    out = tmp_path / "repaired"
    result = repair("api-calls-web", out, policies=str(source))
    assert result.exit_code == 0, result.output
    assert (out / "guardrails.yaml").read_bytes() == (source / "guardrails.yaml").read_bytes()


def test_a_connection_the_admin_tier_decides_is_refused_with_the_reason(tmp_path):
    source = _guarded_tree(tmp_path)
    out = tmp_path / "repaired"
    result = CliRunner().invoke(main, ["k8s", "repair", *WORKLOADS, "--policies", str(source),
                                       "--intent", "tests/k8s/data/check/admin.intent.yaml", "--write-to", str(out)])
    assert result.exit_code == 1 and not out.exists()
    assert "decided by ClusterNetworkPolicy/protect-data in the admin tiers" in result.output
    assert "no NetworkPolicy edit can change them" in result.output


def test_allow_admin_edits_writes_the_exception_into_the_admin_policy_file(tmp_path):
    source = _guarded_tree(tmp_path)
    out = tmp_path / "repaired"
    args = ["k8s", "repair", *WORKLOADS, "--policies", str(source), "--intent",
            f"{OFFLINE}/api-queries-db.intent.yaml", "--write-to", str(out)]  # fmt: skip
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 1 and not out.exists() and "--allow-admin-edits" in refused.output
    result = CliRunner().invoke(main, [*args, "--allow-admin-edits"])
    assert result.exit_code == 0, result.output
    assert "Admin policy exception: ClusterNetworkPolicy/protect-data: add ingress rule" in result.output
    assert "+  - name: allow-shop-api-to-db-data-5432\n+    action: Accept\n" in result.output
    before, after = tree(source), tree(out)
    assert set(before) == set(after)
    assert [name for name in before if before[name] != after[name]] == ["guardrails.yaml"]
    text = (out / "guardrails.yaml").read_text(encoding="utf-8")
    # Comments and flow style of the untouched parts stay; the exception comes first.
    assert "# Cluster guardrails on top of tiny-shop's NetworkPolicies." in text
    assert "# the platform team's rule: it wins over every NetworkPolicy" in text
    docs = list(yaml.safe_load_all(text))
    rules = [r["name"] for r in docs[0]["spec"]["ingress"]]
    assert rules == ["allow-shop-api-to-db-data-5432", "no-database-from-the-shop"]
    assert docs[1] == list(yaml.safe_load_all((source / "guardrails.yaml").read_text(encoding="utf-8")))[1]
    again = CliRunner().invoke(main, ["k8s", "check", *WORKLOADS, "--policies", str(out), "--intent",
                                      f"{OFFLINE}/api-queries-db.intent.yaml"])  # fmt: skip
    assert again.exit_code == 0, again.output
    # The shop's other traffic to the database stays denied by the admin rule.
    (tmp_path / "web.intent.yaml").write_text(
        "version: 1\nassertions:\n  - name: web-never-reaches-db\n    deny:\n"
        "      from: {namespace: shop, workload: web}\n      to: {namespace: data}\n      ports: [5432]\n",
        encoding="utf-8",
    )
    for tree_root in (source, out):
        held = CliRunner().invoke(main, ["k8s", "check", *WORKLOADS, "--policies", str(tree_root), "--intent",
                                         str(tmp_path / "web.intent.yaml")])  # fmt: skip
        assert held.exit_code == 0, held.output


def test_allow_admin_edits_reports_the_edit_as_json(tmp_path):
    source = _guarded_tree(tmp_path)
    result = CliRunner().invoke(main, ["k8s", "repair", *WORKLOADS, "--policies", str(source), "--intent",
                                       f"{OFFLINE}/api-queries-db.intent.yaml", "--allow-admin-edits", "--json"])
    assert result.exit_code == 0, result.output
    (edit,) = json.loads(result.output)["admin_edits"]
    assert edit["policy"] == "ClusterNetworkPolicy/protect-data" and edit["field"] == "ingress" and edit["index"] == 0
    assert edit["probe"] == ["shop/api", "db.data:5432"] and edit["rule"]["action"] == "Accept"


def test_allow_admin_edits_is_for_files_only(tmp_path):
    result = CliRunner().invoke(main, ["k8s", "repair", "--intent", f"{OFFLINE}/api-queries-db.intent.yaml",
                                       "--allow-admin-edits"])
    assert result.exit_code == 2 and "--allow-admin-edits" in result.output
