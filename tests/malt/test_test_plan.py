"""Requests written as steps of a test plan: a test's number with dots ("ATP-4.6.5:"), a
label of the plan ("Procedure:", "Setup -", "Test step 3:"), which graph is given ("Given the
default topology, ...") and what the tool is checked to do ("Check that the tool returns
...") are read as the plain request. A check of a state, a negation and an exception in the
given graph stay refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.s1.s1c4"
P = "ju1.s1.s1c4.p2"


@pytest.mark.parametrize("text", [
    f"ATP-4.6.5: delete {P}, then list the children of {S}.",
    f"ATP-2.1 Procedure: remove {P}; then list the children of {S}.",
    f"Procedure: drop {P} from the graph. Afterwards, list the children of {S}.",
    f"Setup - remove {P}. Test step 2: list the children of {S}.",
    f"Given the default topology, remove {P}, then list the children of {S}.",
    f"Check that the tool removes {P}, then verify the tool lists the children of {S}.",
])
def test_a_test_plan_step_is_read_as_the_plain_request(text: str) -> None:
    same(text, f"Remove {P} from the graph. List the child nodes of {S}.")


def test_the_tool_checked_to_return_a_read_is_the_read() -> None:
    same(f"Check that the tool returns the switch containing port {P}.",
         f"Which switch contains port {P}?")


@pytest.mark.parametrize("text", [
    f"verify that {P} is removed",
    f"Check that the tool does not remove {P}",
    f"Given the default topology except {S}, remove {P}",
    f"Given the topology after the upgrade, remove {P}",
])
def test_a_state_checked_a_negation_or_another_graph_stays_refused(text: str) -> None:
    refused(text)


def test_a_dotted_number_after_a_request_is_not_taken_for_a_name() -> None:
    same(f"Add a new port named np-1.2 to {S}.", f"Add port np-1.2 to {S}.")
