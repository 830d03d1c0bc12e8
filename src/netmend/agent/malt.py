"""The MALT route of the agent: prompt text in, ``process_graph`` reply out.

NetArena sends the request inside one of four prompt envelopes (zero-shot or
few-shot, base or chain-of-thought). Few-shot envelopes carry example
questions first; the live request is the last ``Question:`` line of the
closing block, which begins with ``Begin!``. A bare request is accepted too.
"""

from __future__ import annotations

import re

from netmend.malt import codegen
from netmend.malt import phrasing as P
from netmend.malt.parser import QueryError, UnknownRequest, parse
from netmend.malt.suggest import Suggestion, for_refusal

_CLOSING_BLOCK = "Begin!"
# The longest request read. NetArena's are one or two sentences; a request naming
# dozens of nodes still fits. Longer text is refused before it is parsed.
MAX_REQUEST_CHARS = 4000
_ECHO_CHARS = 300
_QUESTION = re.compile(r"^[ \t]*Question:[ \t]*(.*?)[ \t]*$", re.MULTILINE)
_MARK = "Question:"


def is_malt_envelope(text: str) -> bool:
    """True when ``text`` looks like a NetArena MALT prompt (asks for ``process_graph``)."""
    return "process_graph" in text and _QUESTION.search(text) is not None


def extract_request(text: str) -> str:
    """The live request of a MALT prompt envelope, or the text itself when it is a bare request.

    >>> extract_request("Question: Example one.\\nBegin! go\\nQuestion: Remove x1 from the graph.\\nAnswer:")
    'Remove x1 from the graph.'
    """
    low = max(text.rfind(_CLOSING_BLOCK), 0)  # the closing block, or the whole text
    # The last line that starts (after blanks) with "Question:", found from the end: the
    # same line ``_QUESTION`` would find last, without matching every line before it.
    at = text.rfind(_MARK, low)
    while at >= 0:
        newline = text.rfind("\n", low, at)
        start = newline + 1 if newline >= 0 else low
        if not text[start:at].strip(" \t"):
            end = text.find("\n", at)
            return text[at + len(_MARK):end if end >= 0 else len(text)].strip(" \t")
        at = text.rfind(_MARK, low, at)
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
        return refusal(request, exc, _offer(request, exc))
    except Exception as exc:  # noqa: BLE001 - a defect must still be a refusal, never a crash
        return refusal(request, QueryError(
            f"netmend could not read this request ({type(exc).__name__})",
            expected=P.EXPECTED["any"]))
    try:
        return codegen.fenced(codegen.emit(query))
    except codegen.UnwritableValue as exc:
        return refusal(request, QueryError(
            f"a value in this request cannot be written as code the evaluator reads back ({exc})",
            expected=f"finite numbers of at most {codegen.MAX_INTEGER_DIGITS} digits"))
    except Exception as exc:  # noqa: BLE001 - code that failed its own check is never sent
        return refusal(request, QueryError(
            f"netmend could not write checked code for this request ({type(exc).__name__})",
            expected=P.EXPECTED["any"]))


# Plain requests of every kind: answering them once compiles the grammar and fills the
# parse caches for these sentence shapes (nothing about any answer is kept).
_WARM_REQUESTS = (
    "Remove warm.up from the graph. Return a graph.",
    "Add new node with name new_EK_PORT_1 type EK_PORT, to warm.up. Return a graph.",
    "List all the child nodes of warm.up. Return a list of child node names.",
    "Rank all child nodes of EK_AGG_BLOCK type warm.up based on physical_capacity_bps "
    "attribute. Return a list of tuple, each tuple has child node name and its total "
    "physical capacity.",
    "Count the EK_PORT in the warm.up. Return the count number as text.",
    "Update the physical capacity value of warm.up to 5. Return a graph.",
    "Remove warm.up.x from the graph. List direct child nodes of warm.up in the updated graph. "
    "Return a list of child nodes name.",
    "Add new_EK_PORT_1 to warm.up. Count the EK_PORT in warm.up in the updated graph. Return "
    "the count number as text.",
    "For each EK_AGG_BLOCK, add a new EK_PORT to it. Count the total number of EK_PORT in the "
    "updated graph. Return only the counts.",
    "List the ports of switch warm.up.",
    "What is the capacity of port warm.up?",
    "Which agg block contains port warm.up?",
    "What is the average capacity of the ports in agg block warm.up?",
    "List the 3 switches in agg block warm.up with the most ports.",
    "List the ports of switch warm.up with capacity below 10 Gbps.",
    "Set the capacity of every port of switch warm.up to 40 Gbps.",
)


def _listing(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1]


# Changes to several nodes named in a list ("A, B and C"): a list of each length is a
# sentence shape of its own, so the usual lengths are warmed too.
_WARM_LISTS = tuple(
    phrase.format(_listing([f"warm.n{number}" for number in range(count)]))
    for count in range(2, 6)
    for phrase in ("Remove {} from the graph.", "Add ports named {} to switch warm.up.",
                   "Set the capacity of {} to 10 Gbps.")
)
WARM_REQUESTS = _WARM_REQUESTS + _WARM_LISTS


def warm_malt() -> None:
    """Build every cache the first answers would otherwise pay for: the audited runtime
    pieces for each kind of plan, the grammar, and the parses of the plain phrasings."""
    codegen.warm()
    for request in WARM_REQUESTS:
        respond_malt(request)


def _offer(request: str, error: QueryError) -> Suggestion | None:
    """:func:`for_refusal` of a refused request; a defect in making the offer loses only it."""
    try:
        return for_refusal(request, error)
    except Exception:  # noqa: BLE001 - the refusal is the answer; the offer is optional
        return None


def refusal(request: str, error: QueryError, offered: Suggestion | None = None) -> str:
    """A clear, non-empty refusal that carries no code; with the request netmend would
    answer in its place when one is ``offered`` (never answered here)."""
    shown = request if len(request) <= _ECHO_CHARS else request[:_ECHO_CHARS] + "..."
    text = (f"I cannot answer this request safely, so I will not guess.\n"
            f"Request: {shown}\nReason ({error.code}): {error}\n")
    if offered is not None:
        text += (f"A request I would answer: {offered.request} (it leaves out "
                 f"{offered.left_out_said}; send it only if that drops nothing you meant)\n")
    return text
