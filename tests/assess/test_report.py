"""Summaries and tables."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from netmend.assess.report import Outcome, json_summary, percentile, render_table, summarize


@given(st.lists(st.floats(0, 1e3), min_size=1, max_size=50), st.floats(0, 100))
def test_percentile_is_between_min_and_max(values, q) -> None:
    assert min(values) <= percentile(values, q) <= max(values)
    assert percentile(values, 0) == min(values) and percentile(values, 100) == max(values)


def test_percentile_of_nothing_is_nan() -> None:
    assert math.isnan(percentile([], 50))


def test_summary_groups_in_the_given_order() -> None:
    outcomes = [Outcome("b", True, True, 0.1), Outcome("a", False, True, 0.3),
                Outcome("b", True, False, 0.2)]
    summary = summarize(outcomes, group_order=["a", "b"])
    assert list(summary["by_family"]) == ["a", "b"]
    assert summary["by_family"]["b"]["safety"] == 0.5
    assert summary["correctness"] == 2 / 3
    line = json_summary(summary)
    assert set(line) == {"n", "correctness", "safety", "avg_latency_s", "by_family"}
    table = render_table(summary)
    assert table.splitlines()[2].startswith("a ") and "66.7%" in table.splitlines()[-1]
