"""Requests written as backlog items (estimates, user stories, acceptance criteria): each
is read as the plain request it states, and each form that could say more than that (a
benefit with a value or a change, a role that is a hedge, a "when" that is not the work
being done) is refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

P = "ju1.a1.m2.s2c4.p3"
S = "ju1.a1.m2.s2c4"


@pytest.mark.parametrize("text", [
    f"Story (2 pts): delete port {P} from the topology, then list the children of {S}.",
    f"Remove {P} from the topology and then list {S}'s child nodes. 1 pt.",
    f"Story: delete {P} from the topology; afterwards list {S}'s child nodes. Estimate: 2 points.",
    f"Please take {P} out of the graph, then list the child nodes of {S} - 1 story point.",
    f"Remove {P} from the graph, then list the child nodes of {S}. Story points: 1.",
])
def test_an_estimate_of_effort_is_bookkeeping(text: str) -> None:
    same(text, f"Remove {P} from the graph. List the child nodes of {S}.")


@pytest.mark.parametrize("text", [
    f"Add 2 pts to {S}.",
    f"Remove the top 2 pts of {S}.",
    f"Story points: 3 ports of {S} removed.",
])
def test_an_estimate_inside_the_request_is_not_set_aside(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"As a capacity planner, I want {P} removed from the graph and the child nodes of {S} "
    "listed, so that I can confirm what remains on the switch.",
    f"As a network planner I want {P} removed from the graph and then the child nodes of {S} "
    "listed, so that the spine port picture is right.",
    f"As an inventory owner, I want {P} taken out of the graph and the child nodes of {S} "
    "listed so we can reconcile.",
])
def test_a_user_story_is_read_without_its_role_and_benefit(text: str) -> None:
    same(text, f"Remove {P} from the graph. List the child nodes of {S}.")


@pytest.mark.parametrize("text", [
    f"As a test, I want {P} removed.",
    f"As a dry run I want {P} removed.",
    f"As a planner I do not want {P} removed.",
    f"Remove {P} so that {S} keeps 3 ports.",
    f"Remove {P} so that we can then count the ports.",
    f"Count the ports of {S} so that only spine ones count.",
    f"List the ports of {S} so we can remove them later.",
])
def test_a_role_or_benefit_that_may_say_more_is_not_set_aside(text: str) -> None:
    refused(text)


def test_so_that_with_a_value_is_not_a_benefit() -> None:
    same(f"Could you update each port on switch {S} so that its capacity is ten gigabits per "
          "second?", f"Set the capacity of every port of switch {S} to 10 Gbps.")


@pytest.mark.parametrize("text", [
    f"AC: Given the current graph, When {P} is removed, Then the child nodes of {S} are listed.",
    f"Given the topology graph, When {P} is deleted, Then the response lists the child nodes "
    f"of {S}.",
    f"Given the current graph, When port {P} is removed, Then list the children of {S}.",
])
def test_an_acceptance_criterion_is_the_request_it_states(text: str) -> None:
    same(text, f"Remove {P} from the graph. List the child nodes of {S}.")


@pytest.mark.parametrize("text", [
    f"AC: Given the current graph, When the story is done, Then {P} is no longer in the graph.",
    f"Given the current graph, When this ticket closes, Then port {P} has been removed from it.",
    f"Given the current graph, When the change is applied, Then {P} is gone from the graph.",
    f"AC: Given the current graph, When done, Then {P} is not in the graph anymore.",
    f"AC: Given the current graph, When this item is done, Then {P} no longer exists in it.",
    f"Story: remove {P} from the topology. Estimate 1.",
    f"Remove {P} from the topology. Est 2.",
])
def test_an_outcome_of_nodes_gone_is_their_removal(text: str) -> None:
    same(text, f"Remove {P} from the graph.")


@pytest.mark.parametrize("text", [
    f"Given the graph without {S}, Then list the children of {S}.",
    f"Given the current graph, When the story is done, Then {P} is not removed.",
    f"Given the current graph, Then {P} is still in the graph.",
    f"Given the current graph, When the story is done, Then {P} has been removed, unless it "
    "carries traffic.",
    f"Given the current graph, When the switch is busy, Then {P} has been removed.",
    f"Given the current graph, Then {P} is removed and ju1.a1.m2.s2c4.p4 is kept.",
])
def test_an_acceptance_criterion_that_says_more_isrefused(text: str) -> None:
    refused(text)
