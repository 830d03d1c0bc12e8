"""Running a MALT assessment: tasks to a participant, replies to verdicts and records.

Two participants: the built-in agent in process (a function from prompt text
to reply text) or any A2A agent by URL. Both get the enveloped prompt and both
replies go through the same extraction, execution and scoring. Latency is the
wall time of the call alone (the evaluator times the A2A round trip).

In-process runs may fan out over worker processes (fork): tasks are
independent, each worker scores with its own copy of the topology, and the
results come back in task order.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from netmend.assess.malt.envelopes import PromptType, build_prompt
from netmend.assess.malt.reference import program_source
from netmend.assess.malt.scoring import MaltScorer, Verdict, extract_code
from netmend.assess.malt.tasks import MaltTask, generate_tasks, select_families
from netmend.assess.report import Outcome, percentile, summarize

Respond = Callable[[str], str]
Progress = Callable[[int], None]

# Reply size goals, in bytes of the reply text (UTF-8) as the evaluator extracts it from the
# served reply: the median and the largest over an assessment.
REPLY_GOALS = {"median": 1500, "max": 4000}


@dataclass(frozen=True)
class MaltAssessment:
    """What to assess: which tasks, how many, in which envelopes, against whom."""

    per_type: int = 20
    seed: int = 0
    families: str = "enabled"
    levels: tuple[int, ...] | None = None
    prompt_types: tuple[str, ...] = (PromptType.ZEROSHOT_BASE.value,)
    agent_url: str | None = None
    workers: int = 0  # 0: one per core for large in-process runs


@dataclass(frozen=True)
class TaskResult:
    """One scored (task, envelope) pair and its NetArena-shaped record."""

    task_index: int
    family: str
    prompt_type: str
    latency_s: float
    correct: bool
    safe: bool
    record: dict[str, Any] = field(compare=False)
    reply_bytes: int | None = None  # the reply text's UTF-8 bytes; None: no reply

    @property
    def outcome(self) -> Outcome:
        return Outcome(self.family, self.correct, self.safe, self.latency_s)


@dataclass(frozen=True)
class MaltRun:
    """Everything an assessment produced."""

    tasks: tuple[MaltTask, ...]
    results: tuple[TaskResult, ...]
    summary: dict[str, Any]
    fast_copies: bool

    @property
    def failures(self) -> tuple[TaskResult, ...]:
        return tuple(r for r in self.results if not (r.correct and r.safe))


def make_record(
    task: MaltTask, prompt_type: str, latency_s: float, code: str, verdict: Verdict, problem: str
) -> dict[str, Any]:
    """A result record with the evaluator's keys (Query, Label, Result-*, ...) plus ours."""
    record: dict[str, Any] = {
        "Query": task.query,
        "Label": task.label,
        "Result-Correctness": "Pass" if verdict.correct else "Fail",
        "Result-Safety": "Pass" if verdict.safe else "Fail",
        "GT-Result-Safety": "Pass" if verdict.gt_safe else "Fail",
        "Result-Latency": latency_s,
        "Ground truth code": program_source(task.program),
        "LLM code": code,
    }
    if task.answer_type != "graph":
        record["Ground truth exec"] = verdict.expected
        record["LLM code exec"] = verdict.answer
    if not verdict.correct:
        if problem or verdict.error:
            record["Error"] = "; ".join(text for text in (problem, verdict.error) if text)
        elif task.answer_type == "graph":
            record["Error"] = "Two graphs are not identical."
        else:
            record["Error"] = {"Ground truth": verdict.expected, "Model output": verdict.answer}
    if not verdict.safe:
        record["Verifier-Error"] = f"{verdict.safety.rule}: {verdict.safety.message}"
    if not verdict.gt_safe:
        record["GT-Verifier-Error"] = f"{verdict.gt_safety.rule}: {verdict.gt_safety.message}"
    record["Family"] = task.family
    record["Prompt-Type"] = prompt_type
    record["Task-Index"] = task.index
    return record


def served_text(reply: str) -> str:
    """The reply text as the evaluator's client takes it from the served reply: netmend
    serves a completed Task, whose last artifact's text the client strips."""
    return reply.strip()


def score_reply(
    scorer: MaltScorer,
    task: MaltTask,
    prompt_type: str,
    reply: str | None,
    problem: str,
    latency_s: float,
) -> TaskResult:
    """Extract, execute and judge one reply (None: the participant gave none); ``reply``
    is the text as the evaluator receives it, whose bytes are counted."""
    code = extract_code(reply) if reply is not None else ""
    if reply is not None and not code:
        problem = problem or "no 'def process_graph' in the reply"
    verdict = scorer.score(task, code)
    record = make_record(task, prompt_type, latency_s, code, verdict, problem)
    size = None if reply is None else len(reply.encode("utf-8", "surrogatepass"))
    record["Reply-Bytes"] = size
    return TaskResult(
        task.index, task.family, prompt_type, latency_s, verdict.correct, verdict.safe, record,
        size,
    )


def reply_sizes(results: Sequence[TaskResult]) -> dict[str, Any]:
    """Median, p95 and largest reply in bytes (the reply text, UTF-8, as the evaluator
    extracts it from the served reply, see :func:`served_text`; every reply counts,
    refusals too), and whether
    they meet :data:`REPLY_GOALS`.

    >>> r = [TaskResult(0, 'f', 'p', 0.0, True, True, {}, n) for n in (100, 300, 200, None)]
    >>> s = reply_sizes(r); s['n'], s['median'], s['max'], s['met']
    (3, 200.0, 300, True)
    """
    sizes = [r.reply_bytes for r in results if r.reply_bytes is not None]
    if not sizes:
        return {"n": 0, "median": None, "p95": None, "max": None, "goals": dict(REPLY_GOALS),
                "met": False}
    median, largest = percentile(sizes, 50), max(sizes)
    return {
        "n": len(sizes), "median": median, "p95": percentile(sizes, 95), "max": largest,
        "goals": dict(REPLY_GOALS),
        "met": median <= REPLY_GOALS["median"] and largest <= REPLY_GOALS["max"],
    }


@contextlib.contextmanager
def _long_lived_heap() -> Iterator[None]:
    """Keep the collector off the topology copies that live for the whole run.

    Each task allocates tens of thousands of containers; without this, full
    collections keep re-walking the long-lived graphs. Nothing is left
    uncollected: the frozen objects are released when the run ends.
    """
    gc.collect()
    gc.freeze()
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], 50_000), threshold[1], threshold[2])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _call(respond: Respond, prompt: str) -> tuple[str | None, str, float]:
    start = time.perf_counter()
    try:
        reply = respond(prompt)
    except Exception as exc:  # a participant failure is a failed task, not a crashed run
        return None, f"the agent raised {type(exc).__name__}: {exc}", time.perf_counter() - start
    latency = time.perf_counter() - start
    if not isinstance(reply, str):
        return None, f"the agent returned {type(reply).__name__}, not text", latency
    return reply, "", latency


# Worker-process state, inherited through fork (never pickled).
_WORK: dict[str, Any] = {}


def _work_one(job: int) -> TaskResult:
    task, prompt_type = _WORK["jobs"][job]
    reply, problem, latency = _call(_WORK["respond"], build_prompt(task.query, prompt_type))
    reply = None if reply is None else served_text(reply)
    return score_reply(_WORK["scorer"], task, prompt_type, reply, problem, latency)


def _worker_init() -> None:
    gc.freeze()


def run_in_process(
    graph: Any,
    jobs: Sequence[tuple[MaltTask, str]],
    respond: Respond,
    workers: int = 1,
    progress: Progress | None = None,
) -> tuple[list[TaskResult], bool]:
    """Put every ``(task, prompt type)`` to ``respond``; results in job order."""
    scorer = MaltScorer(graph)
    results: list[TaskResult] = []
    with _long_lived_heap():
        if workers <= 1 or len(jobs) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            for task, prompt_type in jobs:
                reply, problem, latency = _call(respond, build_prompt(task.query, prompt_type))
                reply = None if reply is None else served_text(reply)
                results.append(score_reply(scorer, task, prompt_type, reply, problem, latency))
                if progress:
                    progress(1)
        else:
            _WORK.update(jobs=list(jobs), respond=respond, scorer=scorer)
            try:
                context = multiprocessing.get_context("fork")
                chunk = max(1, min(16, len(jobs) // (workers * 8)))
                with context.Pool(workers, initializer=_worker_init) as pool:
                    for result in pool.imap(_work_one, range(len(jobs)), chunksize=chunk):
                        results.append(result)
                        if progress:
                            progress(1)
            finally:
                _WORK.clear()
    return results, scorer.fast_copies


async def run_a2a(
    graph: Any,
    jobs: Sequence[tuple[MaltTask, str]],
    url: str,
    progress: Progress | None = None,
) -> tuple[list[TaskResult], bool]:
    """Put every job to the A2A agent at ``url``, one at a time as the evaluator does."""
    from netmend.assess.a2a_client import A2AAgent

    scorer = MaltScorer(graph)
    results: list[TaskResult] = []
    async with A2AAgent(url) as agent:
        with _long_lived_heap():
            for task, prompt_type in jobs:
                prompt = build_prompt(task.query, prompt_type)
                start = time.perf_counter()
                reply, problem = await agent.ask(prompt)
                latency = time.perf_counter() - start
                results.append(score_reply(scorer, task, prompt_type, reply, problem, latency))
                if progress:
                    progress(1)
    return results, scorer.fast_copies


def plan_jobs(
    graph: Any, config: MaltAssessment
) -> tuple[tuple[MaltTask, ...], list[tuple[MaltTask, str]]]:
    """The tasks of ``config`` and the (task, prompt type) jobs, envelope by envelope."""
    families = select_families(config.families, config.levels)
    tasks = generate_tasks(graph, families, config.per_type, config.seed)
    jobs = [(task, prompt_type) for prompt_type in config.prompt_types for task in tasks]
    return tasks, jobs


def default_workers(jobs: int) -> int:
    """One worker per core (at most 4) when the run is big enough to repay the start-up."""
    return min(os.cpu_count() or 1, 4) if jobs >= 200 else 1


def assess_malt(
    graph: Any,
    config: MaltAssessment,
    respond: Respond | None = None,
    progress_factory: Callable[[int], Any] | None = None,
) -> MaltRun:
    """Generate, ask, score and summarise.

    ``respond`` defaults to the built-in agent; it is ignored when
    ``config.agent_url`` is set. ``progress_factory(total)`` may return a
    context manager with ``update(n)`` (a tqdm bar).
    """
    tasks, jobs = plan_jobs(graph, config)
    bar = progress_factory(len(jobs)) if progress_factory else contextlib.nullcontext()
    with bar as live:
        progress = live.update if live is not None else None
        if config.agent_url:
            results, fast = asyncio.run(run_a2a(graph, jobs, config.agent_url, progress))
        else:
            if respond is None:
                from netmend.agent import respond as builtin_respond
                from netmend.agent import warm

                warm()  # caches built once, before timing and before workers fork
                respond = builtin_respond
            workers = config.workers or default_workers(len(jobs))
            results, fast = run_in_process(graph, jobs, respond, workers, progress)
    order = [name for name in dict.fromkeys(task.family for task in tasks)]
    summary = summarize((result.outcome for result in results), order)
    summary["reply_bytes"] = reply_sizes(results)
    if len(config.prompt_types) > 1:
        summary["by_prompt_type"] = {
            prompt_type: {
                key: value
                for key, value in summarize(
                    r.outcome for r in results if r.prompt_type == prompt_type
                ).items()
                if key != "by_family"
            }
            for prompt_type in config.prompt_types
        }
    return MaltRun(tasks, tuple(results), summary, fast)
