"""``netmend assess k8s``: the NetArena K8s assessment end to end.

Generates the visible tasks of the fifteen families, puts each through the
harness loop with the in-process agent or an A2A agent, and summarises
success, safety, iterations and latency per family.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

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
from netmend.assess.report import Outcome, summarize
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


class SyncA2A:
    """A blocking wrapper around the assess package's async A2A client."""

    def __init__(self, url: str):
        from netmend.assess.a2a_client import A2AAgent

        self._loop = asyncio.new_event_loop()
        self._agent = A2AAgent(url)
        self._loop.run_until_complete(self._agent.__aenter__())

    def __call__(self, prompt: str) -> str | None:
        reply, _problem = self._loop.run_until_complete(self._agent.ask(prompt))
        return reply

    def close(self) -> None:
        """Close the connection and the private event loop."""
        try:
            self._loop.run_until_complete(self._agent.__aexit__(None, None, None))
        finally:
            self._loop.close()


def in_process_agent() -> Callable[[str], str]:
    """The agent's own entry point (the route a served agent takes)."""
    from netmend.agent import respond

    return respond


def outcome(result: TaskResult) -> Outcome:
    """The generic outcome of one task (latency: mean per reply)."""
    return Outcome(result.family, result.success, result.safe, result.mean_latency_s)


def summary_of(results: Sequence[TaskResult], families: Iterable[str] = FAMILIES) -> dict[str, Any]:
    """The generic summary plus iterations (overall and per family)."""
    ran = {r.family for r in results}
    summary = summarize((outcome(r) for r in results), group_order=tuple(f for f in families if f in ran))
    summary["avg_iterations"] = sum(r.iterations for r in results) / len(results) if results else 0.0
    for family, stats in summary["by_family"].items():
        mine = [r.iterations for r in results if r.family == family]
        stats["avg_iterations"] = sum(mine) / len(mine)
    return summary


def iterations_table(summary: dict[str, Any]) -> str:
    """Mean iterations per family, as a two-column table."""
    rows = [(name, f"{stats['avg_iterations']:.2f}") for name, stats in summary["by_family"].items()]
    rows.append(("total", f"{summary['avg_iterations']:.2f}"))
    width = max(len(name) for name, _ in [("family", ""), *rows])
    lines = [f"{'family'.ljust(width)}  iterations"]
    lines += [f"{name.ljust(width)}  {value.rjust(10)}" for name, value in rows]
    return "\n".join(lines)


def write_iterations_plot(summary: dict[str, Any], out_dir: str | Path, *, title: str) -> Path:
    """``iterations.png``: mean turns per family (NetArena's third metric)."""
    from netmend.assess.plots import _bar_chart  # the package's one bar-chart style

    path = Path(out_dir) / "iterations.png"
    labels = list(summary["by_family"])
    _bar_chart(
        path,
        labels,
        [summary["by_family"][f]["avg_iterations"] for f in labels],
        title=f"{title}: mean iterations by family (overall {summary['avg_iterations']:.2f})",
        ylabel="iterations",
        color="tab:purple",
        percent=False,
    )
    return path


def assess_k8s(
    config: K8sAssessment,
    setup: Setup | None = None,
    agent: Callable[[str], str | None] | None = None,
    progress: Callable[[TaskResult], None] | None = None,
) -> tuple[tuple[TaskResult, ...], dict[str, Any]]:
    """Run the assessment; returns the per-task results and the summary."""
    if setup is None:
        setup = demo_setup() if config.app == "online-boutique" else app_setup(load_app(config.app))
    if config.faults == "fuzz":
        tasks = fuzz_tasks(setup, config.per_type, config.seed, config.families, config.dns)
    else:
        tasks = visible_tasks(setup, config.per_type, config.seed, config.families, config.dns)
    closer = None
    if agent is None:
        if config.agent_url:
            remote = SyncA2A(config.agent_url)
            agent, closer = remote, remote.close
        else:
            agent = in_process_agent()
    live = None
    if config.probes == "live":  # the same tasks, measured with real packets
        from netmend.lab.live import LiveProber

        live = LiveProber(setup.base, setup.expected.probes(), dns=config.dns, deny=config.live_deny)
        setup = replace(setup, measure=lambda cluster: live.run(cluster.policies))
    results = []
    try:
        for task in tasks:
            result = run_task(setup, task, agent, dns=config.dns, max_iterations=config.max_iterations)
            results.append(result)
            if progress is not None:
                progress(result)
    finally:
        if closer is not None:
            closer()
        if live is not None:
            live.close()
    return tuple(results), summary_of(results, config.families)
