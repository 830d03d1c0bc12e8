"""The MALT route of the agent: prompt text in, ``process_graph`` reply out.

NetArena sends the request inside one of four prompt envelopes (zero-shot or
few-shot, base or chain-of-thought). Few-shot envelopes carry example
questions first; the live request is the last ``Question:`` line of the
closing block, which begins with ``Begin!``. A bare request is accepted too.
"""

from __future__ import annotations

import re

from netmend.malt import codegen
from netmend.malt.parser import QueryError, UnknownRequest, parse

_CLOSING_BLOCK = "Begin!"
# The longest request read. NetArena's are one or two sentences; a request naming
# dozens of nodes still fits. Longer text is refused before it is parsed.
MAX_REQUEST_CHARS = 4000
_ECHO_CHARS = 300
_QUESTION = re.compile(r"^[ \t]*Question:[ \t]*(.*?)[ \t]*$", re.MULTILINE)


def is_malt_envelope(text: str) -> bool:
    """True when ``text`` looks like a NetArena MALT prompt (asks for ``process_graph``)."""
    return "process_graph" in text and _QUESTION.search(text) is not None


def extract_request(text: str) -> str:
    """The live request of a MALT prompt envelope, or the text itself when it is a bare request.

    >>> extract_request("Question: Example one.\\nBegin! go\\nQuestion: Remove x1 from the graph.\\nAnswer:")
    'Remove x1 from the graph.'
    """
    tail = text[text.rfind(_CLOSING_BLOCK):] if _CLOSING_BLOCK in text else text
    questions = _QUESTION.findall(tail)
    if questions:
        return questions[-1]
    return text.strip()


def respond_malt(text: str) -> str:
    """Answer a MALT prompt: one python fence with ``process_graph``, or a refusal in words."""
    request = extract_request(text)
    if len(request) > MAX_REQUEST_CHARS:
        return refusal(request, UnknownRequest(
            f"the request is {len(request)} characters long",
            expected=f"a request of at most {MAX_REQUEST_CHARS} characters"))
    try:
        query = parse(request)
    except QueryError as exc:
        return refusal(request, exc)
    return codegen.fenced(codegen.emit(query))


def warm_malt() -> None:
    """Audit and build the emitted runtime once, and compile the grammar, ahead of the first request."""
    respond_malt("Remove warm.up from the graph.")


def refusal(request: str, error: QueryError) -> str:
    """A clear, non-empty refusal that carries no code."""
    shown = request if len(request) <= _ECHO_CHARS else request[:_ECHO_CHARS] + "..."
    return (f"I cannot answer this request safely, so I will not guess.\n"
            f"Request: {shown}\nReason ({error.code}): {error}\n")
