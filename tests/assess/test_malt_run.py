"""End to end in process: the built-in agent, worker processes, records and plots."""

from __future__ import annotations

import json

import pytest

from netmend.assess.malt.run import MaltAssessment, assess_malt, plan_jobs
from netmend.assess.plots import write_plots
from netmend.assess.records import write_jsonl

NETARENA_KEYS = ["Query", "Label", "Result-Correctness", "Result-Safety", "GT-Result-Safety",
                 "Result-Latency", "Ground truth code", "LLM code"]


def test_the_built_in_agent_passes_every_family(small_graph) -> None:
    run = assess_malt(small_graph, MaltAssessment(per_type=4, seed=11, families="all", workers=1))
    assert run.summary["n"] == 100 and len(run.summary["by_family"]) == 25
    assert not run.failures, [f.record for f in run.failures]
    assert run.summary["correctness"] == 1.0 and run.summary["safety"] == 1.0
    assert run.fast_copies
    record = run.results[0].record
    assert list(record)[: len(NETARENA_KEYS)] == NETARENA_KEYS
    assert record["Label"] == "capacity planning, level-1, add"
    assert record["LLM code"].startswith("def process_graph(")


def test_workers_give_the_same_verdicts_in_the_same_order(small_graph) -> None:
    config = MaltAssessment(per_type=3, seed=4, families="enabled", workers=1)
    one = assess_malt(small_graph, config)
    two = assess_malt(small_graph, MaltAssessment(per_type=3, seed=4, families="enabled", workers=2))
    strip = [(r.task_index, r.family, r.correct, r.safe) for r in one.results]
    assert strip == [(r.task_index, r.family, r.correct, r.safe) for r in two.results]


def _failing_answers(prompt: str) -> str:
    question = [line for line in prompt.splitlines() if line.startswith("Question: ")][-1]
    if question.startswith("Question: Remove"):
        raise RuntimeError("boom")
    return "```python\ndef process_graph(graph_data):\n    return {'type': 'text', 'data': 'x'}\n```"


def test_failures_are_recorded_not_raised(small_graph) -> None:
    config = MaltAssessment(per_type=2, seed=1, families="l1-list,l1-remove", workers=1)
    run = assess_malt(small_graph, config, respond=_failing_answers)
    assert len(run.failures) == 4
    by_family = {r.family: r.record for r in run.failures}
    assert "the agent raised RuntimeError: boom" in by_family["l1-remove"]["Error"]
    assert by_family["l1-list"]["Result-Safety"] == "Fail"
    assert "updated_graph" in by_family["l1-list"]["Verifier-Error"]
    assert by_family["l1-list"]["Error"] == {"Ground truth": by_family["l1-list"]["Ground truth exec"],
                                             "Model output": "x"}


def test_every_prompt_type(small_graph) -> None:
    kinds = ("zeroshot_base", "fewshot_base", "zeroshot_cot", "fewshot_cot")
    config = MaltAssessment(per_type=1, seed=2, prompt_types=kinds, workers=1)
    tasks, jobs = plan_jobs(small_graph, config)
    assert len(jobs) == 4 * len(tasks)
    run = assess_malt(small_graph, config)
    assert set(run.summary["by_prompt_type"]) == set(kinds) and not run.failures


def test_records_and_plots_are_written(tmp_path, small_graph) -> None:
    run = assess_malt(small_graph, MaltAssessment(per_type=2, seed=3, workers=1))
    assert write_jsonl(tmp_path / "r.jsonl", (r.record for r in run.results)) == 20
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["Query"] == run.results[0].record["Query"]
    for path in write_plots(run.summary, tmp_path, title="test"):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.needs_shared
def test_real_topology_all_families(real_graph) -> None:
    run = assess_malt(real_graph, MaltAssessment(per_type=2, seed=9, families="all", workers=1))
    assert not run.failures, [f.record for f in run.failures]
