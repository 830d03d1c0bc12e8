"""``netmend k8s diff OLD NEW``: gained and lost connections, --fail-on exit codes,
every format against golden files, SARIF validated, JUnit read back."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from junitparser import Failure
from k8s_oracles import REPO
from toolkit_helpers import assert_golden, read_junit, validate_sarif

from netmend.cli import main

OLD = "tests/k8s/apps/tiny-shop/policies.yaml"
WORKLOADS = ("--manifests", "tests/k8s/apps/tiny-shop/workloads.yaml")
NEW = {
    "widen": "tests/k8s/data/diff/widen.policies.yaml",
    "narrow": "tests/k8s/data/diff/narrow.policies.yaml",
    "same": "tests/k8s/data/diff/same.policies.yaml",
    "mixed": "tests/k8s/data/diff/mixed",
}


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch):
    monkeypatch.chdir(REPO)


def diff(new: str, *args: str, old: str = OLD):
    return CliRunner().invoke(main, ["k8s", "diff", old, NEW[new], *WORKLOADS, *args])


# (new set, --fail-on) -> exit code: the whole truth table of the gate.
EXIT_CODES = {
    ("widen", None): 0, ("widen", "widen"): 1, ("widen", "narrow"): 0, ("widen", "any"): 1,
    ("narrow", None): 0, ("narrow", "widen"): 0, ("narrow", "narrow"): 1, ("narrow", "any"): 1,
    ("same", None): 0, ("same", "widen"): 0, ("same", "narrow"): 0, ("same", "any"): 0,
    ("mixed", None): 0, ("mixed", "widen"): 1, ("mixed", "narrow"): 1, ("mixed", "any"): 1,
}


@pytest.mark.parametrize(("new", "fail_on"), sorted(EXIT_CODES, key=str))
def test_fail_on_exit_codes_match_their_golden_files(new, fail_on):
    args = ("--fail-on", fail_on) if fail_on else ()
    result = diff(new, *args)
    assert result.exit_code == EXIT_CODES[(new, fail_on)], result.output
    assert_golden(f"diff-{new}-{fail_on or 'none'}.txt", result.output)


@pytest.mark.parametrize(("fmt", "suffix"), [("json", "json"), ("junit", "xml"), ("sarif", "sarif")])
def test_every_format_matches_its_golden_file(fmt, suffix):
    result = diff("mixed", "--fail-on", "narrow", "--format", fmt)
    assert result.exit_code == 1
    assert_golden(f"diff-mixed-narrow.{suffix}", result.output)


def test_gained_and_lost_by_source_target_and_port():
    report = json.loads(diff("mixed", "--format", "json").output)
    changes = {(c["source"], c["target"]): c for c in report["changes"]}
    assert changes[("shop/web", "shop/api")]["lost_ranges"] == [{"protocol": "TCP", "start": 9000, "end": 9000}]
    # The except shrank from /25 to /26: the upper quarter of the block reaches the storefront now.
    gained = changes[("address 203.0.113.192", "shop/web")]
    assert gained["gained"] == "TCP 8080" and gained["lost"] is None
    assert report["policies"]["changed"] == ["data/default-deny", "shop/api", "shop/web"]
    # data/db's new egress to the storefront changes nothing: shop/web's ingress still denies it.
    assert not any(c["source"].startswith("data/") for c in report["changes"])


def test_a_rewrite_that_allows_the_same_is_no_change():
    report = json.loads(diff("same", "--format", "json").output)
    assert report["changes"] == [] and report["policies"]["changed"]


def test_sarif_is_valid_and_levels_follow_fail_on():
    for fail_on, level in (("narrow", "error"), ("widen", "note")):
        doc = validate_sarif(diff("narrow", "--fail-on", fail_on, "--format", "sarif").output)
        (result,) = doc["runs"][0]["results"]
        assert result["ruleId"] == "connectivity-narrowed" and result["level"] == level
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == NEW["narrow"]


def test_junit_reads_back():
    xml = read_junit(diff("mixed", "--fail-on", "widen", "--format", "junit").output)
    cases = {case.name: case for suite in xml for case in suite}
    assert set(cases) == {"shop/web -> shop/api", "address 203.0.113.192 -> shop/web"}
    assert any(isinstance(r, Failure) for r in cases["address 203.0.113.192 -> shop/web"].result)
    assert cases["shop/web -> shop/api"].is_passed
    same = read_junit(diff("same", "--format", "junit").output)
    assert [c.name for s in same for c in s] == ["no connectivity change"]


def test_bad_input_exits_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: v1\nkind: Service\nmetadata: {name: x}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["k8s", "diff", OLD, str(bad), *WORKLOADS])
    assert result.exit_code == 2 and "a policy path holds policies only" in result.output
    twice = tmp_path / "twice"
    twice.mkdir()
    for name in ("a.yaml", "b.yaml"):
        (twice / name).write_text((REPO / OLD).read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["k8s", "diff", OLD, str(twice), *WORKLOADS])
    assert result.exit_code == 2 and "one NetworkPolicy per namespace/name" in result.output
