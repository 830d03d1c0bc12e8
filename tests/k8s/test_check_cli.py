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
    # The exception admits the api's pods only: the storefront stays out.
    assert repair["breaks"] == []
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


def test_a_suggestion_names_the_holding_assertions_it_would_break():
    """A repair is re-checked against the assertions that hold (here one an intent could not
    state beside the failing one: checked together they contradict)."""
    from netmend.cli.k8s_inputs import load_inputs, read_intent
    from netmend.k8s.check import check as run_check
    from netmend.k8s.intent_code import parse_intent_code
    from netmend.repair.suggest import suggest

    inputs = load_inputs(TINY_SHOP[1:2], (TINY_SHOP[3], f"{INTENTS}/admin"), dns=True)
    (queries, _) = run_check(inputs.cluster, read_intent(f"{INTENTS}/admin.intent.yaml"))
    shop_closed = parse_intent_code({"assertions": [{"name": "shop-never-reaches-db", "deny": {
        "from": {"namespace": "shop"}, "to": {"namespace": "data"}, "ports": [5432]}}]}).assertions
    assert run_check(inputs.cluster, shop_closed)[0].holds
    s = suggest(inputs.cluster, inputs.policy_objects(), queries, dns=True, holding=shop_closed)
    assert s is not None and s.edits and s.breaks == ("shop-never-reaches-db",)


CONTRADICTIONS = ["contradicts", "contradicts-via-service"]
FORMATS = [("text", "txt"), ("json", "json"), ("junit", "xml"), ("sarif", "sarif")]


@pytest.mark.parametrize("intent", CONTRADICTIONS)
@pytest.mark.parametrize(("fmt", "suffix"), FORMATS)
def test_a_contradiction_is_reported_in_every_format_with_exit_2(intent, fmt, suffix):
    """On stdout in the chosen format (what CI keeps), on stderr as an error."""
    result = check(intent, "--format", fmt)
    assert result.exit_code == 2, result.output
    assert_golden(f"check-{intent}.{suffix}", result.stdout)
    assert result.stderr.startswith(f"Error: {INTENTS}/{intent}.intent.yaml: assertions ")


@pytest.mark.parametrize("intent", CONTRADICTIONS)
def test_a_contradiction_names_both_assertions_and_their_lines_in_json_sarif_and_junit(intent):
    report = json.loads(check(intent, "--format", "json").stdout)
    error = report["error"]
    assert error["type"] == "IntentContradiction" and report["exit_code"] == 2
    named = [(a["name"], a["expect"], a["line"]) for a in error["assertions"]]
    assert len(named) == 2 and named[0][1] == "allow" and named[1][1] == "deny" and all(a[2] for a in named)
    sarif = validate_sarif(check(intent, "--format", "sarif").stdout)
    run = sarif["runs"][0]
    (result,) = run["results"]
    assert result["ruleId"] == "intent-contradiction" and run["invocations"][0]["exitCode"] == 2
    lines = [result["locations"][0]["physicalLocation"]["region"]["startLine"]]
    lines += [r["physicalLocation"]["region"]["startLine"] for r in result["relatedLocations"]]
    assert lines == [a[2] for a in named]
    xml = read_junit(check(intent, "--format", "junit").stdout)
    (case,) = [c for suite in xml for c in suite]
    (error_result,) = case.result
    assert type(error_result).__name__ == "Error" and error_result.type == "IntentContradiction"
    assert all(f"{name} (line {line})" in error_result.text for name, _, line in named)


def test_a_service_assertion_and_a_pod_assertion_behind_it_contradict():
    """web:80 lands on the web pods' port 8080: denying 8080 to them denies the Service."""
    result = check("contradicts-via-service")
    assert result.exit_code == 2
    assert ("assertions 'api-calls-the-storefront' (line 5) and 'storefront-pods-take-nothing-from-api' (line 10) "
            "contradict: allow and deny of shop/api -> web:80, which lands on shop/web-0 TCP 8080") in result.stderr
