"""Applications other than Online Boutique: fixtures, the client extractor, the
fuzzer, and the participant in NetArena's loop on every fault kind.

Seeds 0..999 are the tuning range; the report's held-back figures use seeds
from 1000 on (``netmend assess k8s --app DIR --seed 1000``), which no test
here draws.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

from netmend.agent.k8s import respond_k8s
from netmend.assess.k8s.app import AppError, load_app, parse_app
from netmend.assess.k8s.fuzz import FAMILIES as FUZZ_FAMILIES
from netmend.assess.k8s.fuzz import KINDS
from netmend.assess.k8s.harness import app_setup, deployed, fuzz_tasks, run_task
from netmend.k8s import parse_policy
from netmend.k8s.patch import patch_document
from netmend.repair.clients import extract_clients
from netmend.repair.netarena import build_prompt, task_text

APPS = Path(__file__).parents[1] / "k8s" / "apps"
APP_NAMES = ("bank", "clinic", "iot", "tiny-shop", "streamhub")


@pytest.fixture(scope="module", params=APP_NAMES)
def app_setup_of(request):
    return app_setup(load_app(APPS / request.param))


def _texts(name: str) -> dict[str, str]:
    return {f: (APPS / name / f).read_text(encoding="utf-8") for f in ("app.yaml", "workloads.yaml", "policies.yaml", "expected.yaml")}


@pytest.mark.parametrize(
    ("text", "clients", "unmodelled"),
    [
        ("Customers (`customer`, 203.0.113.10) open the shop.", {"customer": "203.0.113.10"}, []),
        ("The gateway **partner** at 198.51.100.7 calls in; `web` serves.", {"partner": "198.51.100.7"}, []),
        ("VPN users `vpn` come from 10.8.0.0/16 except 10.8.0.0/24 and 10.8.1.0/24.", {}, []),
        ("A laptop `lab` (2001:db8::5) probes; `other` has no address.", {"lab": "2001:db8::5"}, ["other"]),
        ("The storefront accepts 203.0.113.0/24 except 203.0.113.128/25.", {}, []),
        ("**web** (10.0.0.1) is a workload.", {}, []),
    ],
)
def test_the_extractor_reads_clients_from_prose(text, clients, unmodelled):
    found = extract_clients(text, exclude={"web"})
    assert found.as_dict() == clients
    assert [n for n, _ in found.unmodelled] == unmodelled


def test_every_fixture_loads_and_its_prompt_carries_its_clients(app_setup_of):
    # every declared client is read from the prompt, as its address or a range holding it
    prompt = build_prompt("", app_setup_of.preamble)
    found = extract_clients(task_text(prompt), {"x"})
    for name, address in app_setup_of.externals:
        client = found.client(name)
        assert client is not None and client.holds(address), (name, found)


def test_a_fixture_whose_prose_misses_a_client_loads_and_says_so():
    texts = _texts("tiny-shop")
    texts["app.yaml"] = texts["app.yaml"].replace("(`abuser`, 203.0.113.200)", "(`abuser`)")
    app = parse_app(texts)
    assert dict(app.externals)["abuser"] == "203.0.113.200"
    assert app.notes == ("client 'abuser' (probes from 203.0.113.200): unmodelled, the text gives it no address",)
    assert parse_app(_texts("tiny-shop")).notes == ()


def test_a_workload_kind_the_loader_does_not_model_is_refused_by_name():
    texts = _texts("tiny-shop")
    texts["workloads.yaml"] += "\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\n"
    with pytest.raises(AppError, match="ConfigMap 'settings' is not a kind netmend models"):
        parse_app(texts)


def test_a_cronjob_is_modelled_by_its_job_template():
    texts = _texts("tiny-shop")
    texts["workloads.yaml"] += (
        "\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: backup, namespace: data}\n"
        "spec:\n  schedule: '0 3 * * *'\n  jobTemplate:\n    spec:\n      template:\n"
        "        metadata: {labels: {app: backup}}\n        spec: {containers: [{name: b, image: b}]}\n"
    )
    pods = [p for p in parse_app(texts).workloads.pods if p.workload == "backup"]
    assert [(p.namespace, dict(p.labels)) for p in pods] == [("data", {"app": "backup"})]


def test_a_fixture_whose_expected_matrix_is_wrong_is_refused():
    texts = _texts("tiny-shop")
    texts["expected.yaml"] = texts["expected.yaml"].replace("db.data:5432: true", "db.data:5432: false")
    with pytest.raises(AppError, match="do not give the expected matrix"):
        parse_app(texts)


def test_fuzzer_faults_are_valid_single_changes_and_seeded(app_setup_of):
    tasks = fuzz_tasks(app_setup_of, 1, 7)
    assert tasks == fuzz_tasks(app_setup_of, 1, 7)
    assert {t.family for t in tasks} <= set(FUZZ_FAMILIES)
    for task in tasks:
        assert len(task.injections) == (2 if task.family == "pair" else 1)
        for fault in task.injections:
            parse_policy({**app_setup_of.manifests[fault.policy], "spec": json.loads(fault.spec)})
        assert deployed(app_setup_of, task).probe(app_setup_of.expected)  # visible


def test_the_bank_exercises_most_fault_kinds():
    setup = app_setup(load_app(APPS / "bank"))
    kinds = {t.family for t in fuzz_tasks(setup, 1, 0)}
    assert len(kinds) >= len(KINDS) - 3, sorted(set(KINDS) - kinds)


def test_every_fault_kind_is_repaired_safely_in_two_turns(app_setup_of):
    for task in fuzz_tasks(app_setup_of, 1, 0):
        result = run_task(app_setup_of, task, respond_k8s)
        counts = [t.mismatches for t in result.turns if t.mismatches is not None]
        assert result.success and result.safe and result.iterations == 2, (task.task_id, [f.as_dict() for f in task.injections])
        assert max(counts) <= result.initial_mismatches


@pytest.mark.slow
@pytest.mark.parametrize("name", APP_NAMES)
def test_five_tasks_per_fault_kind(name):
    setup = app_setup(load_app(APPS / name))
    for task in fuzz_tasks(setup, 5, 1):
        result = run_task(setup, task, respond_k8s)
        assert (result.success, result.safe, result.iterations) == (True, True, 2), task.task_id


@pytest.mark.needs_kubectl
def test_emitted_app_patches_apply_the_same_under_the_real_kubectl(kubectl, tmp_path):
    setup = app_setup(load_app(APPS / "bank"))
    checked = 0
    for task in fuzz_tasks(setup, 1, 2)[::3]:
        result = run_task(setup, task, respond_k8s)
        sim = deployed(setup, task)
        sim.run(result.turns[0].command)
        for command in result.turns[1].command.split(" && "):
            words = shlex.split(command)
            key = f"{words[words.index('-n') + 1]}/{words[3]}"
            before = sim.policies[key]
            path = tmp_path / "policy.yaml"
            path.write_text(yaml.safe_dump(before), encoding="utf-8")
            done = subprocess.run(
                [kubectl, "patch", "--local", "-f", str(path), "--type=json", "-p", words[-1], "-o", "json"],
                capture_output=True, text=True, timeout=60, check=False,
            )
            assert done.returncode == 0, f"{task.task_id}: {done.stderr}"
            assert json.loads(done.stdout)["spec"] == patch_document(before, words[-1], "json")["spec"]
            checked += 1
    assert checked >= 5


def test_a_fault_hidden_by_another_in_the_same_policy_is_repaired_in_two_steps():
    # the podSelector key misspelt: the policy selects nothing, so its DNS rule's
    # misspelt key does no harm yet; restoring the selector alone would cut DNS
    from netmend.assess.k8s.fuzz import Mutation
    from netmend.assess.k8s.harness import Task

    setup = app_setup(load_app(APPS / "iot"))
    spec = json.loads(json.dumps(setup.manifests["iot/dashboard"]["spec"]))
    spec["podSelector"] = {"matchLabels": {"aapp": "dashboard"}}
    dns = spec["egress"][1]["to"][0]["podSelector"]["matchLabels"]
    dns["k8sapp"] = dns.pop("k8s-app")
    task = Task("pair-same-policy", 0, (Mutation("pair-same-policy", "iot/dashboard", "two keys", json.dumps(spec)),))
    result = run_task(setup, task, respond_k8s)
    assert (result.success, result.safe, result.iterations) == (True, True, 2)


def _bank_without(*clients: tuple[str, str]):
    import dataclasses

    setup = app_setup(load_app(APPS / "bank"))
    preamble = setup.preamble
    for name, address in clients:
        preamble = preamble.replace(f"(`{name}`, {address})", f"(`{name}`)")
    return dataclasses.replace(setup, preamble=preamble)


def test_the_one_client_without_address_is_looked_for_where_the_text_puts_clients_of_its_value():
    # bank's internet client stripped of its address: its lost gateway lines are aimed at the
    # accepted range, not at the excluded range the text gives the scanner (a client kept out)
    setup = _bank_without(("internet", "198.51.100.20"))
    task = next(t for t in fuzz_tasks(setup, 1, 0) if t.family == "ipblock-cidr")
    result = run_task(setup, task, respond_k8s, max_iterations=5)
    assert (result.success, result.safe, result.iterations, result.intent_restored) == (True, True, 2, True)


def test_a_turn_that_cannot_plan_changes_strategy_and_then_stops():
    # the task text names both outside clients without an address: either may sit
    # anywhere, so no line of theirs is planned on and no turn can plan; after the read,
    # the admin-tier read (a view that may decide), then a stated stop: no read repeats
    from netmend.repair.observe import READ_COMMAND, READ_JSON_ADMIN
    from netmend.repair.participant import STOP_COMMAND

    setup = _bank_without(("internet", "198.51.100.20"), ("scanner", "198.51.100.130"))
    task = next(t for t in fuzz_tasks(setup, 1, 0) if t.family == "ipblock-cidr")
    result = run_task(setup, task, respond_k8s, max_iterations=5)
    commands = [t.command for t in result.turns]
    assert commands == [READ_COMMAND, READ_JSON_ADMIN, STOP_COMMAND, STOP_COMMAND, STOP_COMMAND]
    assert result.safe and all(t.mismatches == result.turns[0].mismatches for t in result.turns)


def test_a_range_client_and_an_emptied_selector_are_repaired_in_two_turns():
    # streamhub: `settop` is a CIDR in the task text (the harness probes one address of it),
    # so a narrowed rule must name that CIDR; an emptied podSelector also catches origin
    setup = app_setup(load_app(APPS / "streamhub"))
    tasks = fuzz_tasks(setup, 3, 0, ["rule-peers-dropped", "pod-selector-emptied"])
    assert any(f.policy == "edge/player" for t in tasks for f in t.injections)
    for task in tasks:
        result = run_task(setup, task, respond_k8s)
        assert (result.success, result.safe, result.iterations) == (True, True, 2), task.task_id


def _dispatch():
    return app_setup(load_app(APPS / "dispatch"))


def test_the_dispatch_fixture_reads_its_clients_but_the_auditor_which_has_no_address():
    app = load_app(APPS / "dispatch")
    found = extract_clients(app.description, exclude={"console", "tracker-gw", "partner-api", "status"})
    assert found.client("carrier").networks == ("203.0.113.10/32", "203.0.113.11/32")
    assert found.client("vpn").excepts == ("100.96.255.0/24",)
    assert [n for n, _ in found.unmodelled] == ["auditor"]


def test_a_client_the_text_gives_no_address_is_repaired_on_the_classes_it_may_come_from():
    # dispatch's auditor has no address in the text: a main that leaves every such probe
    # alone reads for ten turns once the auditor's line is the last one left
    setup = _dispatch()
    tasks = fuzz_tasks(setup, 3, 0, ["pod-selector-value", "policy-type-dropped", "allow-all-added"])
    assert any(m.source == "auditor" for task in tasks for m in deployed(setup, task).probe(setup.expected, True))
    for task in tasks:
        result = run_task(setup, task, respond_k8s)
        assert result.success and result.safe and result.iterations <= 2, (task.task_id, result.iterations)


@pytest.mark.parametrize(
    "family",
    ["ipblock-cidr-widened", "ipblock-cidr-shifted", "ipblock-to-pod-selector", "ipblock-cidr",
     "ipblock-except-changed", "ipblock-except-added", "rule-peers-dropped"],
)
def test_ipblock_faults_on_the_dispatch_app_are_repaired_safely_in_two_turns(family):
    setup = _dispatch()
    tasks = fuzz_tasks(setup, 3, 0, [family])
    assert tasks, family
    for task in tasks:
        result = run_task(setup, task, respond_k8s)
        assert result.success and result.safe and result.iterations <= 2, (task.task_id, result.iterations)


def test_the_new_ipblock_kinds_change_one_field_of_one_block():
    setup = _dispatch()
    for family, word in (("ipblock-cidr-widened", "widened"), ("ipblock-cidr-shifted", "shifted"), ("ipblock-to-pod-selector", "podSelector")):
        (task,) = fuzz_tasks(setup, 1, 0, [family])
        (fault,) = task.injections
        assert fault.kind == family and word in fault.detail
