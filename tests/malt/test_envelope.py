"""The live request of a prompt envelope: the last line that starts with ``Question:``."""

from __future__ import annotations

import random

import pytest

from netmend.agent.malt import _QUESTION, extract_request
from netmend.assess.malt.envelopes import PROMPT_TYPES, build_prompt


def _by_pattern(text: str) -> str:
    """The definition: the last ``Question:`` line the pattern finds after ``Begin!``."""
    tail = text[text.rfind("Begin!"):] if "Begin!" in text else text
    found = _QUESTION.findall(tail)
    return found[-1] if found else text.strip()


@pytest.mark.parametrize("kind", PROMPT_TYPES)
def test_every_envelope_gives_back_its_request(kind: str) -> None:
    request = "Remove ju1.a1.m1.s2c1 from the graph. Return a graph."
    assert extract_request(build_prompt(request, kind)) == request


def test_the_search_from_the_end_agrees_with_the_pattern() -> None:
    rng = random.Random(20261203)
    pieces = ["Question:", "Question: y", "Begin!", "\n", "\r\n", " ", "\t", "x", "Answer:"]
    cases = ["Question: a\nQuestion: b  \t", "x Question: no\n  Question:\tyes \r\nz",
             "Begin!\nQuestion:", "Question:x", "no question here ", "\tQuestion:  c\t\t"]
    cases += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 14))) for _ in range(3000)]
    for text in cases:
        assert extract_request(text) == _by_pattern(text), repr(text)


def test_every_warm_up_request_is_answered_with_code() -> None:
    """The warm-up fills the parse caches only if its requests parse: a stale one would
    silently warm nothing."""
    from netmend.agent.malt import WARM_REQUESTS, respond_malt

    for request in WARM_REQUESTS:
        assert respond_malt(request).startswith("```python\ndef process_graph("), request
