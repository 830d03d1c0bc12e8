"""The assessment's intent check: final policies against the intended ones, whole matrix."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from netmend.assess.k8s.harness import Task, run_task
from netmend.assess.k8s.intent import intent_diff, nca_executable, nca_intent
from netmend.assess.k8s.run import outcome_table, setup_of, summary_of
from netmend.repair.participant import decide

APPS = Path(__file__).parents[1] / "k8s" / "apps"


@pytest.fixture(scope="module")
def tiny():
    return setup_of(str(APPS / "tiny-shop"))


def _with_web_ingress(setup, block: dict) -> dict:
    out = copy.deepcopy(setup.manifests)
    out["shop/web"]["spec"]["ingress"][0]["from"] = [{"ipBlock": block}]
    return out


def test_same_policies_are_equivalent(tiny):
    assert intent_diff(tiny.base, tiny.manifests, copy.deepcopy(tiny.manifests)) == ()


def test_a_block_fitted_to_the_probed_client_is_not_the_intent(tiny):
    # the probes (customer 203.0.113.10 in, abuser 203.0.113.200 out) cannot tell these apart
    fitted = _with_web_ingress(tiny, {"cidr": "203.0.113.10/32"})
    rows = intent_diff(tiny.base, tiny.manifests, fitted)
    assert rows and all("shop/web" in row for row in rows)
    assert any("lost" in row for row in rows)


def test_an_equivalent_rewrite_is_the_intent(tiny):
    # the same addresses written as two halves of the /25 the except leaves
    split = copy.deepcopy(tiny.manifests)
    split["shop/web"]["spec"]["ingress"][0]["from"] = [
        {"ipBlock": {"cidr": "203.0.113.0/26"}},
        {"ipBlock": {"cidr": "203.0.113.64/26"}},
    ]
    assert intent_diff(tiny.base, tiny.manifests, split) == ()


def test_results_and_table_carry_intent(tiny):
    task = Task("by-hand", 0, ())
    result = run_task(tiny, task, lambda prompt: decide(prompt, tiny.base).reply(), max_iterations=1)
    assert result.intent_restored is True and "final" not in result.as_record()
    summary = summary_of([result], ("by-hand",))
    assert summary["intent_restored"] == 1.0
    table = outcome_table(summary)
    assert "intent restored" in table.splitlines()[0] and "100.0%" in table.splitlines()[-1]


@pytest.mark.needs_nca
def test_nca_sees_the_same_difference(tiny, tmp_path):
    exe = nca_executable()
    if exe is None:
        pytest.skip("network-config-analyzer not installed ($NETMEND_NCA or .venv-nca)")
    fitted = _with_web_ingress(tiny, {"cidr": "203.0.113.10/32"})
    same, differs = nca_intent(exe, tiny.base, tiny.manifests, [copy.deepcopy(tiny.manifests), fitted])
    assert same == () and differs
