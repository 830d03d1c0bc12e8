"""Slot filling: a request no grammar rule fits, read by the roles its words give.

The grammar of :mod:`netmend.malt.parser` reads a request by its word order. Some
requests say everything a change needs in an order no rule has ("ju1.s1.s1c3 needs
another port -> call it new_p5", "a new port bearing the name ... is to be added to
...", "new node new_X (EK_PORT) -> parent S"). For one *addition*, the frame is small
and fixed: one new node (a name and a kind), one parent. This module fills those
slots from the lexemes' categories, and answers only when:

* every word belongs to the frame: a change word or "new", the names, the kinds, the
  words that give a name its role ("called", "name it", "to", "under", "parent") and
  glue (commas, auxiliaries, "need"). Any other word, known or unknown, leaves the
  request to the grammar's refusal: a word that could change the meaning ("not",
  "once", "count", "faulty") is never skipped;
* each slot is filled exactly once: one parent (by a place word, or the only name
  left), the new names (by a naming word or a kind said next to them), the kinds of
  the new nodes (a kind said next to the parent is the parent's).

It returns the same frame tuples as the grammar (lexeme positions, not values), so
names, kinds and the checks on them are resolved by the same code. Pure: categories
in, a frame or None out.
"""

from __future__ import annotations

from collections.abc import Sequence

# words that may be in an addition, each with no other meaning in it
_ADDING = frozenset({"ADD", "ADDED", "ADDITION", "GOES"})
_NEW = frozenset({"NEW"})
_NAMING = frozenset({"CALLED", "NAME_N", "CALL", "AS"})
_PLACING = frozenset({"TO", "IN", "BY", "OF", "PARENT", "CHILD"})
_KINDS = frozenset({"KIND", "KIND_SG", "KIND_PL"})
_GLUE = frozenset({"COMMA", "AND", "AUX", "MODAL", "INVERT", "WANT", "GET", "HELD", "REL",
                   "THERE", "BE", "ARROW", "THEN", "IT", "NODE", "HAS", "HAVE", "LIKE"})
# a word whose categories are all of these is part of an addition; "name" is also a
# verb that asks ("name the ports of S"), "under" a comparison ("under 10 Gbps"): both
# read here only as what they are in an addition
_FRAME = _ADDING | _NEW | _NAMING | _PLACING | _KINDS | _GLUE | {"NAME"}
_ALSO_MEANS = {"NAME_N": frozenset({"ASK"}), "IN": frozenset({"LT"}), "GET": frozenset({"ASK"})}


# a part that only asks for the graph back: "..., and return the graph", "Graph back
# please.", "with the resulting graph returned afterwards"
_GRAPH_SAID = frozenset({"GRAPH", "WHOLE_GRAPH", "RETURN"})
_GRAPH_TAIL = _GRAPH_SAID | frozenset({"GIVE", "ASK", "WANT", "GET", "HELD", "THEN", "SETP",
                                       "WITH", "AND", "AUX", "MODAL", "IT", "LIKE", "AFTER",
                                       "ADDITION", "HAS", "HAVE"})
_JOINT = frozenset({"COMMA"})


def _without_graph_tail(cats: Sequence[frozenset[str]]) -> list[frozenset[str]]:
    """``cats`` with each part between commas that only asks for the graph back made a
    comma (positions kept: the frame's positions are the lexemes')."""
    out = list(cats)
    start = 0
    for end in [i for i, c in enumerate(cats) if "COMMA" in c] + [len(cats)]:
        part = cats[start:end]
        if part and all(c <= _GRAPH_TAIL for c in part) and (
                any(c & _GRAPH_SAID for c in part)
                or [c for c in part if c != {"AND"}] == [frozenset({"WITH"})]):
            out[start:end] = [_JOINT] * len(part)
        start = end + 1
    return out


def _fits(cats: frozenset[str]) -> bool:
    rest = set(cats) - _FRAME
    for cat, also in _ALSO_MEANS.items():
        if cat in cats:
            rest -= also
    return not rest


def _before(cats: Sequence[frozenset[str]], at: int) -> int:
    """The position of the word that gives the name at ``at`` its role: the word before
    it, past a kind said with the name ("to switch S", "new port N") and past "it" after
    a naming verb ("call it N")."""
    i = at - 1
    if i >= 0 and cats[i] & (_KINDS | {"NODE"}):
        i -= 1
    if i >= 1 and "IT" in cats[i] and cats[i - 1] & {"CALL", "NAME_N"}:
        i -= 1
    if i >= 1 and "AUX" in cats[i] and "PARENT" in cats[i - 1]:  # "parent is S"
        i -= 1
    return i


def _role(cats: Sequence[frozenset[str]], at: int) -> str | None:
    """``parent``, ``new`` or None (no word says which) for the name or "it" at ``at``."""
    i = _before(cats, at)
    if i < 0:
        return None
    said = cats[i]
    if said & _PLACING:
        return "parent"
    if said & _NAMING:
        return "new"
    kinded = bool(cats[at - 1] & (_KINDS | {"NODE"}))
    if said & (_ADDING | _NEW) and (kinded or "ADD" in said):
        return "new"  # "add port N", "new switch N", "create N"
    return None


# words that make the request a statement or a question about what is or may be, not a
# change to make: "S was given a new port N", "S might need a new port N"
_NOT_ASKED = frozenset({"was", "were", "been", "had", "did", "does", "do", "already", "exists",
                        "exist", "existed", "existing", "still", "whether", "if", "might",
                        "maybe", "perhaps", "possibly", "probably", "likely"})
_ASKING = frozenset({"can", "could", "would", "will", "may", "mind"})


def asked(said: Sequence[tuple[str, str]]) -> bool:
    """Whether the words as written (token kind, lower-case text; fillers included) ask
    for a change: no word of a statement or a possibility, no modal right after a name
    ("S could use a new port N"), and a question asks for the change ("can you ...?",
    "could a new port ... be added ...?")."""
    words = {text for _, text in said}
    if not words.isdisjoint(_NOT_ASKED) or ("?" in words and words.isdisjoint(_ASKING)):
        return False
    return not any(text in _ASKING and i and said[i - 1][0] == "NAME"
                   for i, (_, text) in enumerate(said))


def addition(cats: Sequence[frozenset[str]]) -> tuple | None:
    """The frame of one addition (``("add", (("new", n, kinds, None),), ("node", p, k))``
    with lexeme positions), or None when the words are not exactly one addition. Whether
    the request asks for a change at all is :func:`asked`."""
    cats = _without_graph_tail(cats)
    if not all(_fits(c) for c in cats):
        return None
    if not any(c & (_ADDING | _NEW) for c in cats):
        return None
    names = [i for i, c in enumerate(cats) if "NAME" in c]
    if len(names) != 2:
        return None
    roles = {i: _role(cats, i) for i in names}
    placed_it = any("IT" in c and _role(cats, i) == "parent" for i, c in enumerate(cats))
    parents = [i for i in names if roles[i] == "parent"]
    news = [i for i in names if roles[i] == "new"]
    unsaid = [i for i in names if roles[i] is None]
    if placed_it and not parents:  # "S needs another port: create N on it": "it" is S
        if len(unsaid) != 1:
            return None
        parents = unsaid
    elif len(unsaid) == 1 and len(parents) + len(news) == 1:
        (parents if news else news).append(unsaid[0])
    elif unsaid:
        return None
    if len(parents) != 1 or len(news) != 1:
        return None
    parent, new = parents[0], news[0]
    parent_kind = next((k for k in (parent - 1, parent + 1)
                        if 0 <= k < len(cats) and cats[k] & _KINDS), None)
    kinds = tuple(i for i, c in enumerate(cats) if c & _KINDS and i != parent_kind)
    if any("KIND_SG" not in cats[k] for k in kinds):
        return None  # "add ports N to S": how many?
    return ("add", (("new", new, kinds, None),), ("node", parent, parent_kind))
