"""Requests written as a prompt in sections: a role, a context, the task, the output.

People who write for an assistant or an automation agent often lay a request out in
labelled sections ("You are a topology assistant. Task: remove X, then list the children
of S. Output: a list of names.", "**Role:** graph bot. **Steps:** 1. ... 2. ..."), with
markdown around them. This module reads such a text into the plain request it states,
which the parser then reads like any other (so a prompt means nothing a sentence could not
say, and every check of the parser still applies):

* the sections that say what to do ("Task:", "Steps:", "Instruction:", "Request:", ...)
  are the request, in the order written;
* "Output:" (or "Format:", "Return:", ...) says what to give back, read as "Return ...";
* a role ("You are a topology assistant.", "Role: graph bot", "System: ..."), and a
  context, background, note or constraint are set aside only when they can say nothing
  about what is asked: no node name, no number, and no word that says how, whether or
  which (a negation, an exception, a restriction, a test). Any other such section makes
  the request a typed refusal, never a guess.

Text without a section label is not a prompt, and is left to the parser as it is. Pure:
text in, text (or None) out.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from netmend.malt import context
from netmend.malt import phrasing as P

_ASKING = ("task", "tasks", "steps", "step", "instruction", "instructions", "request", "user",
           "query", "question", "goal", "objective", "action", "actions", "ask", "to do",
           "todo", "what i need", "what we need", "prompt", "input")
_GIVING_BACK = ("output", "output format", "format", "return", "returns", "expected output",
                "response", "response format", "answer", "answer format", "deliverable")
_ASIDE = ("role", "system", "persona", "context", "background", "note", "notes",
          "constraint", "constraints", "assumptions", "reason", "why", "agent", "assistant")
_LABELS = sorted((*_ASKING, *_GIVING_BACK, *_ASIDE), key=len, reverse=True)

# A section label, with markdown around it ("## Steps:", "**Task:**") and whom it is for
# ("Task for the automation agent:", "Agent instructions:"). It counts at the start, after
# a sentence's end, a line break or markdown, or written with a capital ("... Output: ...").
_FOR_WHOM = r"(?:(?:agent|bot|assistant)\s+)?"
_LABEL = re.compile(
    r"(?:#+\s*)?(?:\*\*|__)?\s*\b" + _FOR_WHOM + "(" + "|".join(
        re.escape(label) for label in _LABELS) + r")\b(?:\s+(?:for|to)\s+(?:the\s+|our\s+|"
    r"my\s+)?(?P<whom>[a-z -]{1,30}?))?\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?",
    re.IGNORECASE)
_OPENS = re.compile(r"(?:^|[.!?\n*#]|\*\*)\s*$")
# A role said as a sentence of its own: "You are a topology assistant.", "Act as the graph
# automation agent."
_ROLE = re.compile(r"(?:^|(?<=[.!?\n]))\s*(?:you are|you're|act as|acting as)\s+(?:a|an|the)\s+"
                   r"([^.!?\n:]{1,80})[.!?\n]", re.IGNORECASE)
_MARKDOWN = re.compile(r"\*\*|__|`|^\s*#+\s*|(?<=\n)\s*#+\s*")
_BULLET = re.compile(r"(?:^|\n)\s*(?:[-*\u2022])\s+")
# A ticket's number in a context ("Context: CHG-7730.") says nothing of what is asked.
_TICKET = re.compile(r"\b[A-Z]{2,10}-\d+\b")
# Where a section set aside ends when no label follows: its first sentence.
_SENTENCE_END = re.compile(r"[.!?](?:\s+|$)")


class SectionError(ValueError):
    """A prompt whose sections cannot be read; the message says which section and why."""


def plain(text: str) -> str:
    """``text`` without markdown that means nothing in a request (bold, code quotes,
    heading marks) and with each bullet of a list its own sentence."""
    text = _BULLET.sub(". ", text)
    return _MARKDOWN.sub("", text)


class Prompt(NamedTuple):
    """The request a prompt states, whether a section set aside named nodes (then only a
    request about named nodes may be answered: a context could pick some of a set out), and
    what the sections set aside say (their words may pick some out too)."""

    request: str
    named_aside: bool
    aside: str = ""


def _labels(text: str) -> list[re.Match[str]]:
    """The section labels of ``text``: where a label may open a section (see ``_LABEL``)."""
    return [m for m in _LABEL.finditer(text)
            if _OPENS.search(text[:m.start()]) or text[m.start(1)].isupper()]


def to_request(text: str) -> Prompt | None:
    """The plain request a prompt in sections states; None when ``text`` has no section
    label (then it is no prompt)."""
    roles = list(_ROLE.finditer(text))
    if not roles and not _labels(text):
        return None
    for role in roles:
        if not _inert(role.group(1)):
            raise SectionError(f"the role {role.group(1).strip()!r} may say what is asked "
                               "(a node, a number, a negation, a restriction or a test)")
    rest = _ROLE.sub(" ", text)
    labels = _labels(rest)
    asked: list[str] = [rest[:labels[0].start()] if labels else rest]
    given_back: list[str] = []
    aside: list[str] = []
    for at, label in enumerate(labels):
        if label.group("whom") and not _inert(label.group("whom")):
            raise SectionError(f"the label {label.group().strip()!r} may say what is asked "
                               "(a negation, a restriction or a test)")
        end = labels[at + 1].start() if at + 1 < len(labels) else len(rest)
        said = rest[label.end():end].strip()
        key = " ".join(label.group(1).lower().split())
        if key in _ASKING:
            asked.append(said)
            continue
        # an output or an aside is one sentence: what follows it unlabelled is asked
        cut = _SENTENCE_END.search(said)
        said, more = (said[:cut.end()], said[cut.end():]) if cut else (said, "")
        if key in _GIVING_BACK:
            given_back.append(said)
            asked.append(more)
        else:
            if not _inert(said, names=True):
                raise SectionError(f"the section {key!r} says {said!r}, which may change "
                                   "what is asked (a number, a negation, a restriction or a "
                                   "test)")
            aside.append(said)
            asked.append(more)
    asked = [part.strip().rstrip(".") for part in asked if part.strip(" .\n")]
    if not asked:
        raise SectionError("the prompt has no section that says what to do; expected 'Task:' "
                           "or 'Steps:' and the request")
    request = ". ".join(asked)
    named = {name for part in aside for name in NODE_NAME.findall(part)}
    said_in_request = set(NODE_NAME.findall(request))
    if not all(any(n == name or n.startswith(name + ".") for n in said_in_request)
               for name in named):
        raise SectionError(f"a section set aside names {sorted(named)}, which the request "
                           "does not (nor anything in them)")
    returns = [_given_back(part) for part in given_back if part.strip(" .\n")]
    sentences = [request, *(f"Return {said}" for said in returns if said)]
    return Prompt(plain(". ".join(sentences) + "."), bool(named), " ".join(aside))


# What an output section may say it gives back, by the words it uses: a graph, a list (of
# names, ranked or not), or one value said as text.
_SAID_BACK = (("a graph", frozenset({"graph", "topology", "network"})),
              ("a list", frozenset({"list", "names", "ranking", "ranked", "ordered", "sorted"})),
              ("the answer as text", frozenset({"count", "number", "integer", "int", "total",
                                                "value", "capacity", "sum", "average", "figure",
                                                "text"})))


# What narrows nothing but the layout in an output section: "just the integer".
_LAYOUT_ONLY = frozenset({"just", "only"})


def _given_back(said: str) -> str:
    """What an output section gives back, said as the parser reads it ("the ranked list of
    children" -> "a list"); as written when it names none or more than one (the parser
    then judges it), "" when it says only that there is an answer ("the result")."""
    words = re.findall(r"[\w'-]+", said.lower())
    found = [back for back, nouns in _SAID_BACK if not nouns.isdisjoint(words)]
    if len(found) == 1 and _inert(" ".join(w for w in words if w not in _LAYOUT_ONLY)):
        return found[0]  # "just the integer", "node names only": only the layout
    return "" if not found and _inert(said) else said.strip().rstrip(".")


def _inert(value: str, names: bool = False) -> bool:
    """Whether a role's or a context's words can say nothing about what is asked: no node
    name (a word with a dot; ``names``: node names allowed), no number, and no word or
    phrase that says how, whether or which (``P.HEDGES``, :data:`context.CARRIES`)."""
    value = _TICKET.sub(" ", NODE_NAME.sub(" ", value) if names else value)
    words = re.findall(r"[\w.'-]+", value.lower())
    return P.phrased_hedge(words) is None and not any(
        "." in w.strip(".") or any(c.isdigit() for c in w) or w in P.HEDGES
        or w in context.CARRIES for w in words)


NODE_NAME = re.compile(r"\b[A-Za-z][\w-]*(?:\.[\w-]+)+")
