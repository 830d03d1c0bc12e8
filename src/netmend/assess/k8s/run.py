"""``netmend assess k8s``: the NetArena K8s assessment end to end.

Generates the visible tasks of the fifteen families, puts each through the
harness loop with the in-process agent or an A2A agent, and summarises
success, safety, iterations and latency per family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from netmend.assess.agents import chosen_agent
from netmend.assess.k8s.app import load_app
from netmend.assess.k8s.harness import (
    Setup,
    TaskResult,
    app_setup,
    demo_setup,
    fuzz_tasks,
    run_task,
    visible_tasks,
)
from netmend.assess.k8s.inject import FAMILIES, InjectionError
from netmend.assess.report import Outcome, add_iterations, summarize
from netmend.repair.netarena import MAX_ITERATIONS


@dataclass(frozen=True)
class K8sAssessment:
    """What to run: task counts, seed, families, DNS modelling, the agent."""

    per_type: int = 10
    seed: int = 0
    families: tuple[str, ...] = FAMILIES
    dns: bool = True
    max_iterations: int = MAX_ITERATIONS
    agent_url: str | None = None
    probes: str = "sim"  # "live": real packets in a netmend lab instead of the engine
    live_deny: str = "drop"  # live only: "reject" fails denied probes at once (same verdicts)
    app: str = "online-boutique"  # a built-in application or a fixture directory
    faults: str = "netarena"  # "netarena" (the five kinds and pairs) or "fuzz" (every field)


def families_of(faults: str) -> tuple[str, ...]:
    """The families of a fault generator: NetArena's fifteen or the fuzzer's kinds."""
    if faults == "fuzz":
        from netmend.assess.k8s.fuzz import FAMILIES as FUZZ_FAMILIES

        return FUZZ_FAMILIES
    if faults != "netarena":
        raise InjectionError(f"unknown fault generator {faults!r}; expected netarena or fuzz")
    return FAMILIES


def parse_families(text: str, faults: str = "netarena") -> tuple[str, ...]:
    """``all`` or a comma list of family names, in the canonical order."""
    known = families_of(faults)
    if text.strip() == "all":
        return known
    chosen = {word.strip() for word in text.split(",") if word.strip()}
    unknown = sorted(chosen - set(known))
    if unknown or not chosen:
        raise InjectionError(f"unknown families {', '.join(unknown) or '(none)'}; expected 'all' or some of {', '.join(known)}")
    return tuple(f for f in known if f in chosen)


def outcome(result: TaskResult) -> Outcome:
    """The generic outcome of one task (latency: mean per reply)."""
    return Outcome(result.family, result.success, result.safe, result.mean_latency_s)


def summary_of(results: Sequence[TaskResult], families: Iterable[str] = FAMILIES) -> dict[str, Any]:
    """The generic summary plus iterations (overall and per family)."""
    ran = {r.family for r in results}
    summary = summarize((outcome(r) for r in results), group_order=tuple(f for f in families if f in ran))
    add_iterations(summary, ((r.family, r.iterations) for r in results))
    add_intent(summary, results)
    return summary


def add_intent(summary: dict[str, Any], results: Sequence[TaskResult], key: str = "intent_restored") -> dict[str, Any]:
    """Put the fraction of tasks whose final policies equal the intended ones
    (over the whole matrix) into ``summary``, overall and per family.

    ``key`` names the verdict: ``intent_restored`` (netmend's engine, on each
    result) or ``nca_intent_restored`` (read from ``summary[key + "_by_task"]``).
    """
    verdicts = summary.get(f"{key}_by_task") or {r.task_id: bool(r.intent_restored) for r in results}
    pairs = [(r.family, verdicts.get(r.task_id, False)) for r in results]
    summary[key] = sum(v for _, v in pairs) / len(pairs) if pairs else 0.0
    for family, stats in summary["by_family"].items():
        mine = [v for f, v in pairs if f == family]
        stats[key] = sum(mine) / len(mine) if mine else 0.0
    return summary


def outcome_table(summary: dict[str, Any]) -> str:
    """Per family: tasks, repaired, unsafe, mean iterations and intent restored
    (and NCA's verdict on intent when it ran)."""
    nca = "nca_intent_restored" in summary
    header = ["family", "n", "repaired", "unsafe", "iterations", "intent restored", *(["intent (NCA)"] if nca else [])]

    def row(name: str, stats: dict[str, Any]) -> list[str]:
        n = stats["n"]
        cells = [
            name,
            str(n),
            f"{stats['correctness'] * 100:.1f}%",
            str(round((1 - stats["safety"]) * n)),
            f"{stats['avg_iterations']:.2f}",
            f"{stats.get('intent_restored', 0.0) * 100:.1f}%",
        ]
        if nca:
            cells.append(f"{stats.get('nca_intent_restored', 0.0) * 100:.1f}%")
        return cells

    rows = [row(name, stats) for name, stats in summary["by_family"].items()]
    total = row("total", summary)
    widths = [max(len(line[i]) for line in [header, *rows, total]) for i in range(len(header))]

    def fmt(line: list[str]) -> str:
        return "  ".join([line[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(line[1:], widths[1:], strict=True))]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(header), rule, *(fmt(r) for r in rows), rule, fmt(total)])


def add_nca_intent(summary: dict[str, Any], results: Sequence[TaskResult], setup: Setup, executable) -> dict[str, Any]:
    """NCA's verdict on intent for every task, in one NCA run (see :mod:`.intent`)."""
    from netmend.assess.k8s.intent import nca_intent

    diffs = nca_intent(executable, setup.base, setup.manifests, [r.final for r in results])
    summary["nca_intent_restored_by_task"] = {r.task_id: not d for r, d in zip(results, diffs, strict=True)}
    summary["nca_intent_diff"] = {r.task_id: list(d) for r, d in zip(results, diffs, strict=True) if d}
    return add_intent(summary, results, "nca_intent_restored")


def setup_of(app: str) -> Setup:
    """The setup of a built-in application or an application fixture directory."""
    return demo_setup() if app == "online-boutique" else app_setup(load_app(app))


def assess_k8s(
    config: K8sAssessment,
    setup: Setup | None = None,
    agent: Callable[[str], str | None] | None = None,
    progress: Callable[[TaskResult], None] | None = None,
) -> tuple[tuple[TaskResult, ...], dict[str, Any]]:
    """Run the assessment; returns the per-task results and the summary."""
    if setup is None:
        setup = setup_of(config.app)
    if config.faults == "fuzz":
        tasks = fuzz_tasks(setup, config.per_type, config.seed, config.families, config.dns)
    else:
        tasks = visible_tasks(setup, config.per_type, config.seed, config.families, config.dns)
    live = None
    if config.probes == "live":  # the same tasks, measured with real packets
        from netmend.lab.live import LiveProber

        live = LiveProber(setup.base, setup.expected.probes(), dns=config.dns, deny=config.live_deny)
        setup = replace(setup, measure=lambda cluster: live.run(cluster.policies))
    results = []
    try:
        with chosen_agent(agent, config.agent_url) as ask:
            for task in tasks:
                result = run_task(setup, task, ask, dns=config.dns, max_iterations=config.max_iterations)
                results.append(result)
                if progress is not None:
                    progress(result)
    finally:
        if live is not None:
            live.close()
    summary = summary_of(results, config.families)
    summary["client_notes"] = list(setup.notes)
    return tuple(results), summary
