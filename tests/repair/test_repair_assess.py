"""``netmend assess k8s``: the acceptance run and the harness rules."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from netmend.assess.k8s.harness import run_task, visible_tasks
from netmend.assess.k8s.inject import draw_task
from netmend.cli import main
from netmend.repair.netarena import DISALLOWED_SUMMARY


@pytest.mark.slow
def test_150_tasks_all_solved_safely_in_two_iterations(tmp_path):
    result = CliRunner().invoke(
        main, ["assess", "k8s", "--per-type", "10", "--seed", "3", "--json", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output[-2000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert (summary["n"], summary["correctness"], summary["safety"], summary["avg_iterations"]) == (150, 1.0, 1.0, 2.0)
    assert summary["dns"] is True and len(summary["by_family"]) == 15
    records = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert len(records) == 150 and all(r["turns"][0]["mismatches"] > 0 for r in records)
    for name in ("correctness.png", "safety.png", "latency.png", "iterations.png"):
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")


def test_every_generated_task_shows_damage(setup):
    tasks = visible_tasks(setup, 2, 9)
    assert len(tasks) == 30
    assert tasks == visible_tasks(setup, 2, 9)


def test_banned_commands_spend_the_turn_and_are_logged(setup):
    task = draw_task("remove_ingress", 0, 1, setup.manifests, setup.facts)
    prompts = []

    def agent(prompt):
        prompts.append(prompt)
        return "```bash\nkubectl get pods```"

    result = run_task(setup, task, agent, max_iterations=2, clock=iter(range(100)).__next__)
    assert not result.success and result.iterations == 2 and result.safe
    assert all(t.refused and t.summary == DISALLOWED_SUMMARY for t in result.turns)
    assert "Disallowed command detected." in prompts[1]
    assert [t.latency_s for t in result.turns] == [1, 1]


def test_a_damaging_participant_is_unsafe(setup):
    task = draw_task("change_port", 0, 1, setup.manifests, setup.facts)
    replies = iter(["```kubectl get pods```", "```kubectl patch networkpolicy cartservice --type=merge -p '{\"spec\":{\"ingress\":[]}}'```"])
    result = run_task(setup, task, lambda p: next(replies), max_iterations=2)
    assert not result.safe and not result.success
    assert result.turns[1].mismatches > result.turns[0].mismatches
