"""A request dated for later ("rm X monday", "remove X over the weekend", "... sometime") is
refused: netmend changes the graph now. A deadline the answer meets now
("by Friday", "by EOD if you can"), a date of bookkeeping ("due Fri") and a greeting of the
day stay read as the plain request."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.a1.m1.s2c1"
P = "ju1.a2.m2.s2c1.p1"


@pytest.mark.parametrize("when", [
    "monday", "Tuesday", "mon", "fri", "weekend", "over the weekend", "overnight", "tonite",
    "morning", "in the morning", "january", "during the window", "sometime", "someday",
    "friday pls", "nightly", "on friday", "next monday",
])
def test_a_request_dated_for_later_is_refused(when: str) -> None:
    refused(f"remove {S} {when}")
    refused(f"rm {S} {when}")


@pytest.mark.parametrize("text", [
    f"remove {S} today",
    f"remove {S} now",
    f"remove {S} asap",
    f"remove {S} EOD",
    f"remove {S} by friday",
    f"remove {S} by Friday if you can",
    f"remove {S} by monday morning please",
    f"Remove {S}. By Friday if you can.",
    f"Remove {S} (due Fri).",
    f"AI-4, due Fri: remove {S}",
    f"For Monday: remove {S}.",
    f"Good morning! Remove {S}.",
    f"Happy Friday! Please remove {S}.",
])
def test_a_deadline_met_now_bookkeeping_or_greeting_is_read(text: str) -> None:
    same(text, f"Remove {S} from the graph.")


def test_a_deadline_with_a_condition_after_it_stays_refused() -> None:
    refused(f"list the ports of {S} by friday if not sooner")
    refused(f"What is the capacity of {P}? By Friday unless it changes.")
