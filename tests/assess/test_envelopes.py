"""Prompt envelopes keep the markers participants rely on."""

from __future__ import annotations

import pytest

from netmend.agent import respond
from netmend.assess.malt.envelopes import PROMPT_TYPES, build_prompt
from netmend.assess.malt.scoring import extract_code

QUERY = "Remove ju1.a1.m1.s2c1.p1 from the graph. Return a graph."


@pytest.mark.parametrize("kind", PROMPT_TYPES)
def test_the_live_question_is_the_last_question_line_in_the_closing_block(kind: str) -> None:
    prompt = build_prompt(QUERY, kind)
    questions = [line for line in prompt.splitlines() if line.startswith("Question: ")]
    assert questions[-1] == f"Question: {QUERY}"
    closing = prompt.index("Begin! Remember to ensure")
    assert prompt.index(f"Question: {QUERY}") > closing
    assert ("fewshot" in kind) == (len(questions) > 1)
    assert ("cot" in kind) == ("step by step" in prompt)


@pytest.mark.parametrize("kind", PROMPT_TYPES)
def test_the_built_in_agent_answers_inside_every_envelope(kind: str) -> None:
    assert extract_code(respond(build_prompt(QUERY, kind))) == extract_code(respond(QUERY))


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="one line"):
        build_prompt("Remove x.\nQuestion: Remove y.")
    with pytest.raises(ValueError):
        build_prompt(QUERY, "oneshot")
