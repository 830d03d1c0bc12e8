"""Requests written as a prompt in sections (a role, a context, the task, the output):
read as the plain request the task states, the output as what to return; a role, context
or note that could say more than that (a number, a hedge, another node, a test) refuses,
and a context that names nodes is set aside only from requests about named nodes."""

from __future__ import annotations

import pytest

from netmend.malt import sections

from .reading import refused, same

P = "ju1.a1.m2.s2c4.p3"
S = "ju1.a1.m2.s2c4"
A = "ju1.a1.m2"


@pytest.mark.parametrize(("text", "plain"), [
    (f"You are a topology assistant. Task: remove {P} from the graph, then list the child "
     f"nodes of {S}. Output: a list of node names.",
     f"Remove {P} from the graph. List the child nodes of {S}. Return a list."),
    (f"Role: graph automation agent. Steps: 1. Remove {P}. 2. Rank the child nodes of {S} by "
     "capacity. Output: the ranked list of children.",
     f"Remove {P} from the graph. Rank the child nodes of {S} by capacity."),
    (f"**Role:** topology agent. **Task:** drop {P}, then count the ports on {S}. "
     "**Output:** just the integer.",
     f"Remove {P} from the graph. Count the ports in {S}. Return the count as text."),
    (f"System: you have write access to the network graph. Instruction: take {P} out of the "
     "graph.", f"Remove {P} from the graph."),
    (f"Context: CHG-7730. Task for the automation agent: remove {P}.",
     f"Remove {P} from the graph."),
    (f"Context: the linecard on {S} failed. Task: remove {P}.", f"Remove {P} from the graph."),
    (f"Context: {P} is being retired. Agent, please remove {P}.", f"Remove {P} from the graph."),
])
def test_a_prompt_in_sections_is_the_request_its_task_states(text: str, plain: str) -> None:
    same(text, plain)


@pytest.mark.parametrize("text", [
    f"You are a test harness. Task: remove {P}.",
    f"You are a cautious assistant. Constraints: do not remove anything. Task: remove {P}.",
    f"Context: only the uplinks matter. Task: list the ports of {S}.",
    f"Context: {P} is dead. Task: list the ports of {S}.",
    f"Context: ju1.a2.m1.s2c1 died. Task: remove {P}.",
    f"Note: use 2 ports. Task: remove {P}.",
    f"Task: remove {P}. Output: only the ports above 10G.",
    "Role: topology bot. Context: cleanup. Output: the updated graph.",
    f"You are a topology assistant. Task: remove {P}. Output: the updated graph. On hold for "
    "now.",
    f"Task: remove {P}. Output: the graph, on hold for now.",
])
def test_a_section_that_may_say_more_refuses(text: str) -> None:
    refused(text)


def test_text_without_sections_is_no_prompt() -> None:
    assert sections.to_request(f"remove {P}, then list the child nodes of {S}") is None
    assert sections.to_request(f"list the Output of {S}") is None


def test_markdown_means_nothing_in_a_request() -> None:
    assert sections.plain("**remove** `ju1.a1` \n- list x") == "remove ju1.a1 . list x"


def test_a_section_set_aside_that_names_a_kind_keeps_a_set_request_refused() -> None:
    refused("Note: uplinks\nTask: list the ports of ju1.a1.m1.s2c1.")
    same("Context: capacity audit\nTask: list the ports of ju1.a1.m1.s2c1.",
         "List the ports of ju1.a1.m1.s2c1.")


@pytest.mark.parametrize("text", [
    "Task for the random graph agent: remove ju1.s1.s1c1",
    "Task for the test agent: remove ju1.s1.s1c1",
])
def test_a_label_whose_addressee_may_say_how_keeps_the_prompt_refused(text: str) -> None:
    refused(text)
