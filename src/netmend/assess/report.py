"""Summaries and tables of assessment outcomes (pure: no I/O).

Any assessment reduces each task to an :class:`Outcome` (its group, whether
it was correct and safe, and its latency); this module aggregates them per
group and overall, and renders the per-group table. Rooms that count turns
(K8s, Route) add mean iterations with :func:`add_iterations` and print them
with :func:`iterations_table`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """One scored task: its ``group`` (family), verdicts and latency in seconds."""

    group: str
    correct: bool
    safe: bool
    latency_s: float


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by linear interpolation between closest ranks.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([5.0], 95), percentile([1.0, 2.0], 100)
    (2.5, 5.0, 2.0)
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _stats(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    latencies = [outcome.latency_s for outcome in outcomes]
    n = len(outcomes)
    return {
        "n": n,
        "correctness": sum(outcome.correct for outcome in outcomes) / n if n else 0.0,
        "safety": sum(outcome.safe for outcome in outcomes) / n if n else 0.0,
        "avg_latency_s": sum(latencies) / n if n else 0.0,
        "p50_latency_s": percentile(latencies, 50) if n else 0.0,
        "p95_latency_s": percentile(latencies, 95) if n else 0.0,
    }


def summarize(outcomes: Iterable[Outcome], group_order: Sequence[str] = ()) -> dict[str, Any]:
    """Overall and per-group rates and latencies.

    Groups appear in ``group_order`` first, then in order of first appearance.
    Rates are fractions in [0, 1].

    >>> s = summarize([Outcome('a', True, True, 0.5), Outcome('a', False, True, 1.5)])
    >>> s['n'], s['correctness'], s['safety'], s['avg_latency_s'], s['by_family']['a']['n']
    (2, 0.5, 1.0, 1.0, 2)
    """
    outcomes = list(outcomes)
    groups: dict[str, list[Outcome]] = {name: [] for name in group_order}
    for outcome in outcomes:
        groups.setdefault(outcome.group, []).append(outcome)
    overall = _stats(outcomes)
    return {
        "n": overall["n"],
        "correctness": overall["correctness"],
        "safety": overall["safety"],
        "avg_latency_s": overall["avg_latency_s"],
        "p50_latency_s": overall["p50_latency_s"],
        "p95_latency_s": overall["p95_latency_s"],
        "by_family": {name: _stats(items) for name, items in groups.items() if items},
    }


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def render_table(summary: dict[str, Any], group_title: str = "family") -> str:
    """A fixed-width table: one row per group and a total row.

    >>> print(render_table(summarize([Outcome('l1-add', True, False, 0.002)])))
    family  n  correct  safe  mean ms  p50 ms  p95 ms
    ------  -  -------  ----  -------  ------  ------
    l1-add  1   100.0%  0.0%      2.0     2.0     2.0
    ------  -  -------  ----  -------  ------  ------
    total   1   100.0%  0.0%      2.0     2.0     2.0
    """
    header = (group_title, "n", "correct", "safe", "mean ms", "p50 ms", "p95 ms")

    def row(name: str, stats: dict[str, Any]) -> tuple[str, ...]:
        return (
            name,
            str(stats["n"]),
            f"{stats['correctness'] * 100:.1f}%",
            f"{stats['safety'] * 100:.1f}%",
            _ms(stats["avg_latency_s"]),
            _ms(stats["p50_latency_s"]),
            _ms(stats["p95_latency_s"]),
        )

    rows = [row(name, stats) for name, stats in summary["by_family"].items()]
    total = row("total", summary)
    widths = [max(len(line[i]) for line in [header, *rows, total]) for i in range(len(header))]

    def fmt(line: tuple[str, ...]) -> str:
        cells = [line[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(line[1:], widths[1:], strict=True)]
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([fmt(header), rule, *(fmt(line) for line in rows), rule, fmt(total)])


def json_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """The one-line JSON summary: overall rates, mean latency and the per-family block."""
    line = {
        "n": summary["n"],
        "correctness": summary["correctness"],
        "safety": summary["safety"],
        "avg_latency_s": summary["avg_latency_s"],
        "by_family": summary["by_family"],
    }
    if "by_prompt_type" in summary:
        line["by_prompt_type"] = summary["by_prompt_type"]
    if "reply_bytes" in summary:
        line["reply_bytes"] = summary["reply_bytes"]
    return line


def add_iterations(summary: dict[str, Any], iterations: Iterable[tuple[str, int]]) -> dict[str, Any]:
    """Put mean iterations into ``summary``, overall and per group, from ``(group, iterations)`` pairs.

    >>> s = add_iterations(summarize([Outcome('a', True, True, 0.1)] * 2), [('a', 2), ('a', 3)])
    >>> s['avg_iterations'], s['by_family']['a']['avg_iterations']
    (2.5, 2.5)
    """
    pairs = list(iterations)
    summary["avg_iterations"] = sum(n for _, n in pairs) / len(pairs) if pairs else 0.0
    for group, stats in summary["by_family"].items():
        mine = [n for g, n in pairs if g == group]
        stats["avg_iterations"] = sum(mine) / len(mine)
    return summary


def iterations_table(summary: dict[str, Any]) -> str:
    """Mean iterations per family, as a two-column table.

    >>> print(iterations_table(add_iterations(summarize([Outcome('a', True, True, 0.1)]), [('a', 2)])))
    family  iterations
    a             2.00
    total         2.00
    """
    rows = [(name, f"{stats['avg_iterations']:.2f}") for name, stats in summary["by_family"].items()]
    rows.append(("total", f"{summary['avg_iterations']:.2f}"))
    width = max(len(name) for name, _ in [("family", ""), *rows])
    lines = [f"{'family'.ljust(width)}  iterations"]
    lines += [f"{name.ljust(width)}  {value.rjust(10)}" for name, value in rows]
    return "\n".join(lines)
