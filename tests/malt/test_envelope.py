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


def test_a_value_no_literal_can_hold_is_refused_in_words() -> None:
    """A capacity of 10**5000 bps parses, but no Python literal the evaluator can read holds
    it: the reply is a typed refusal saying what was expected, not a crash or code."""
    from netmend.agent.malt import respond_malt
    from netmend.malt import codegen

    reply = respond_malt("set ju1.a1.m1.s2c1.p3 to 1e5000 bps")
    assert reply.startswith("I cannot answer this request safely")
    assert "process_graph" not in reply and "```" not in reply
    assert "Reason (invalid):" in reply
    assert f"expected finite numbers of at most {codegen.MAX_INTEGER_DIGITS} digits" in reply
    # The largest integer that is writable is still answered with code.
    big = "9" * 200
    assert respond_malt(f"set ju1.a1.m1.s2c1.p3 to {big} bps").startswith("```python\n")


@pytest.mark.parametrize("failure", [ValueError("x"), RecursionError(), KeyError("k"),
                                     RuntimeError("y")])
def test_a_code_generation_defect_is_a_refusal_not_an_exception(monkeypatch, failure) -> None:
    """Whatever the code generator raises becomes a refusal in words (typed, saying what
    was expected), so ``netmend serve`` never answers a JSON-RPC internal error for it."""
    from netmend.agent import malt as agent_malt
    from netmend.agent import respond

    def broken(query, **kwargs):
        raise failure

    monkeypatch.setattr(agent_malt.codegen, "emit", broken)
    reply = respond("Remove ju1.a1.m1.s2c1 from the graph. Return a graph.")
    assert reply.startswith("I cannot answer this request safely")
    assert f"could not write checked code for this request ({type(failure).__name__})" in reply
    assert "Reason (invalid):" in reply and "; expected " in reply
    assert "process_graph" not in reply


def test_a_code_generation_defect_is_served_as_a_refusal(monkeypatch) -> None:
    """Through the A2A app: the refusal is an ordinary reply (HTTP 200, a result), never
    a JSON-RPC error."""
    import json

    from netmend.agent import malt as agent_malt
    from netmend.agent import respond
    from netmend.malt.codegen import CodegenError
    from netmend.serve.app import A2AApp
    from netmend.serve.protocol import parse_request

    def broken(query, **kwargs):
        raise CodegenError("emitted code failed its check")

    monkeypatch.setattr(agent_malt.codegen, "emit", broken)
    body = json.dumps({"jsonrpc": "2.0", "id": "1", "method": "message/send", "params": {
        "message": {"kind": "message", "messageId": "m", "role": "user",
                    "parts": [{"kind": "text", "text": "Remove ju1.a1.m1.s2c1 from the graph."}]}}})
    request = parse_request(body.encode(), version_header=None, wants_stream=False)
    reply = json.loads(A2AApp(respond)._answer(request))
    assert "error" not in reply
    text = reply["result"]["parts"][0]["text"]
    assert text.startswith("I cannot answer this request safely") and "(CodegenError)" in text


def test_a_refusal_for_unknown_words_offers_what_would_be_answered() -> None:
    """The offer is words in the refusal, never code; other refusals carry none."""
    from netmend.agent.malt import respond_malt

    reply = respond_malt("Linecard pulled - remove ju1.a2.m2.s2c2.p1 from the topology.")
    assert reply.startswith("I cannot answer this request safely")
    assert "```" not in reply and "process_graph" not in reply
    assert ("A request I would answer: Remove ju1.a2.m2.s2c2.p1 from the graph. (it leaves "
            "out 'linecard';") in reply
    assert "A request I would answer" not in respond_malt(
        "Don't remove ju1.a2.m2.s2c2.p1 from the graph.")
