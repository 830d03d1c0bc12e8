"""``netmend k8s check``: exit codes, every output format against golden files,
SARIF validated against the 2.1.0 schema, JUnit read back by junitparser."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from junitparser import Failure
from k8s_oracles import REPO
from toolkit_helpers import TINY_SHOP, assert_golden, read_junit, validate_sarif

from netmend.cli import main

INTENTS = "tests/k8s/data/check"


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch):
    # Paths in the reports are the relative ones given on the command line.
    monkeypatch.chdir(REPO)


# Intents checked with more policies than tiny-shop's own: admin-tier guardrails.
EXTRA = {"admin": ("--policies", f"{INTENTS}/admin")}


def check(intent: str, *args: str):
    return CliRunner().invoke(main, ["k8s", "check", "--intent", f"{INTENTS}/{intent}.intent.yaml", *TINY_SHOP,
                                     *EXTRA.get(intent, ()), *args])


CASES = [("holds", 0), ("fails", 1), ("matrix", 1), ("outside", 1), ("admin", 1)]


@pytest.mark.parametrize(("intent", "code"), CASES)
@pytest.mark.parametrize(("fmt", "suffix"), [("text", "txt"), ("json", "json"), ("junit", "xml"), ("sarif", "sarif")])
def test_every_format_and_exit_code_matches_its_golden_file(intent, code, fmt, suffix):
    result = check(intent, "--format", fmt)
    assert result.exit_code == code, result.output
    assert_golden(f"check-{intent}.{suffix}", result.output)


@pytest.mark.parametrize(("intent", "code"), CASES)
def test_sarif_is_valid_sarif_2_1_0_with_a_result_per_failing_assertion(intent, code):
    doc = validate_sarif(check(intent, "--format", "sarif").output)
    results = doc["runs"][0]["results"]
    failing = [a for a in json.loads(check(intent, "--format", "json").output)["assertions"] if not a["holds"]]
    assert len(results) == len(failing) == (0 if code == 0 else len(results))
    for result, assertion in zip(results, failing, strict=True):
        assert result["ruleId"] == f"intent-{assertion['expect']}"
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] == f"{INTENTS}/{intent}.intent.yaml"
        assert location["region"]["startLine"] == assertion["line"]


@pytest.mark.parametrize(("intent", "code"), CASES)
def test_junit_reads_back_with_one_case_per_assertion(intent, code):
    xml = read_junit(check(intent, "--format", "junit").output)
    report = json.loads(check(intent, "--format", "json").output)
    cases = [case for suite in xml for case in suite]
    assert [c.name for c in cases] == [a["name"] for a in report["assertions"]]
    for case, assertion in zip(cases, report["assertions"], strict=True):
        failures = [r for r in case.result if isinstance(r, Failure)]
        assert bool(failures) == (not assertion["holds"])
    assert sum(1 for c in cases if not c.is_passed) == report["summary"]["failed"]


def test_failing_assertions_name_the_deciding_policies_and_a_verified_repair():
    report = json.loads(check("fails", "--format", "json").output)
    by_name = {a["name"]: a for a in report["assertions"]}
    reads_db = by_name["storefront-reads-db"]
    assert not reads_db["holds"] and reads_db["failing"] == 1
    assert "data/db" in reads_db["witnesses"][0]["policies"]
    assert reads_db["repair"]["edits"], reads_db["repair"]
    never = by_name["api-never-reaches-db"]
    assert never["witnesses"][0]["policies"] == ["data/db", "shop/api"]
    assert "allowed by data/db ingress[0]" in never["witnesses"][0]["explanation"]
    # No Service fronts ports 1-4999: the report says why there is no repair instead of guessing.
    anyport = by_name["db-takes-low-ports-from-api"]
    assert anyport["repair"]["edits"] == [] and "no Service port" in anyport["repair"]["reason"]


def test_the_suggested_repair_makes_the_assertion_hold(tmp_path):
    """Apply the suggested plan's edits (through the planner's own patches) and check again."""
    import yaml

    from netmend.cli.k8s_inputs import load_inputs, read_intent
    from netmend.k8s.check import check as run_check
    from netmend.k8s.manifest import parse_policy
    from netmend.repair.cluster import propose
    from netmend.repair.observe import Observation
    from netmend.repair.suggest import stated_matrix

    inputs = load_inputs(TINY_SHOP[1:2], TINY_SHOP[3:4], dns=True)
    assertions = read_intent(f"{INTENTS}/fails.intent.yaml")
    results = run_check(inputs.cluster, assertions)
    fixable = [r for r in results if not r.holds and r.probes and not r.unprobed]
    assert fixable
    for r in fixable:
        plan = propose(Observation(inputs.cluster, inputs.policy_objects()), stated_matrix(r.probes)).plan
        after = {p.key: p for p in inputs.cluster.policies}
        for patch in plan.patches:
            after[f"{patch.namespace}/{patch.name}"] = parse_policy(yaml.safe_load(yaml.safe_dump(patch.after)))
        again = run_check(inputs.cluster.with_policies(tuple(after.values())), [r.assertion])
        assert again[0].holds, r.assertion.name


@pytest.mark.parametrize("intent", ["unknown-key", "selects-nothing"])
def test_bad_intents_exit_2_with_a_typed_message(intent):
    result = check(intent)
    assert result.exit_code == 2
    assert_golden(f"check-{intent}.txt", result.output)


def test_bad_manifest_and_missing_file_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: x}\nspec: {policyTypes: [In]}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["k8s", "check", "--intent", f"{INTENTS}/holds.intent.yaml",
                                       "--manifests", TINY_SHOP[1], "--policies", str(bad)])
    assert result.exit_code == 2 and "expected 'Ingress' or 'Egress'" in result.output
    missing = CliRunner().invoke(main, ["k8s", "check", "--intent", str(tmp_path / "nope.yaml"), *TINY_SHOP])
    assert missing.exit_code == 2 and "cannot read the intent" in missing.output


def test_no_repair_skips_planning_and_keeps_the_exit_code():
    result = check("fails", "--no-repair", "--format", "json")
    assert result.exit_code == 1
    assert all(a["repair"] is None for a in json.loads(result.output)["assertions"])


def test_the_sarif_validator_rejects_a_broken_log():
    import jsonschema

    doc = json.loads(check("fails", "--format", "sarif").output)
    del doc["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        validate_sarif(json.dumps(doc))


@pytest.mark.parametrize(("body", "message"), [
    ({"allow": {"from": {"address": "not-an-ip"}, "to": {"namespace": "shop"}}},
     "assertions[0].allow.from.address: expected one IPv4 or IPv6 address"),
    ({"allow": {"from": {"address": "198.51.100.7"}, "to": {"address": "8.8.8.8"}}},
     "an assertion needs one end in the cluster"),
    ({"allow": {"from": {"namespace": "shop"}, "to": {"namespace": "data"}, "ports": ["53/ICMP"]}},
     "assertions[0].allow.ports[0]: expected a port 1..65535"),
    ({"allow": {"from": {"namespace": "shop"}, "to": {"service": "api"}, "ports": ["53/UDP"]}},
     "Services are probed over TCP"),
    ({"allow": {"from": {"namespace": "shop"}}}, "assertions[0].allow.to: expected a 'to' selection, missing"),
    ({"allow": {"from": {"namespace": "shop"}, "to": {}}, "deny": {}}, "exactly one of the keys allow, deny"),
    ({"allow": {"from": {"address": "198.51.100.7"}, "to": {"service": "api", "namespace": "shop"}}},
     "expected a LoadBalancer port or nodePort of a selected Service, found none"),
])
def test_malformed_assertions_exit_2_naming_the_place(tmp_path, body, message):
    import yaml

    intent = tmp_path / "intent.yaml"
    intent.write_text(yaml.safe_dump({"assertions": [body]}), encoding="utf-8")
    result = CliRunner().invoke(main, ["k8s", "check", "--intent", str(intent), *TINY_SHOP])
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_an_admin_deny_is_named_and_repaired_in_the_admin_policy_not_a_networkpolicy():
    report = json.loads(check("admin", "--format", "json").output)
    queries = report["assertions"][0]
    assert not queries["holds"] and queries["witnesses"][0]["policies"] == ["ClusterNetworkPolicy/protect-data"]
    assert any("DENIED by Admin tier" in line for line in queries["witnesses"][0]["chain"])
    repair = queries["repair"]
    assert repair["edits"] == ["ClusterNetworkPolicy/protect-data: add rule 'allow-shop-api-to-db-data-5432' (Accept) "
                               "before the deciding one"]
    assert "no NetworkPolicy edit can change it" in repair["reason"]
    # The other assertion forbids exactly what this one asks: the report says the repair breaks it.
    assert repair["breaks"] == ["shop-never-reaches-db"]
    sarif = validate_sarif(check("admin", "--format", "sarif").output)
    related = sarif["runs"][0]["results"][0]["relatedLocations"]
    assert related == [{"id": 0, "message": {"text": "ClusterNetworkPolicy protect-data decides this connection"},
                        "physicalLocation": {"artifactLocation": {"uri": f"{INTENTS}/admin/guardrails.yaml"}}}]


def test_verbose_chains_also_name_the_policies_that_do_not_select_the_pod():
    terse = check("fails", "--no-repair").output
    verbose = check("fails", "--no-repair", "--verbose").output
    assert "1 other NetworkPolicy does not select shop/web-0" in terse
    assert "shop/api: podSelector {app=api} does not match shop/web-0" in verbose and "1 other NetworkPolicy" not in verbose


@pytest.mark.parametrize("intent", ["contradicts", "contradicts-on-the-cluster"])
def test_contradictory_assertions_are_bad_input_naming_both(intent):
    """Caught when the intent is read (on its face) or on the cluster it is checked against."""
    result = check(intent)
    assert result.exit_code == 2, result.output
    assert f"{INTENTS}/{intent}.intent.yaml: assertions 'web-calls-api' (line 3) and" in result.output
    assert "contradict: allow and deny of" in result.output and "on TCP 9000" in result.output
    second = "'no-traffic-in-the-shop' (line 9)" if intent == "contradicts" else "'shop-is-closed' (line 9)"
    assert second in result.output
