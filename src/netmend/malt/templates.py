"""The generator's own phrasing, read at once.

NetArena's query generator writes every request in one of a few fixed sentence shapes
("Remove X from the graph. Return a graph.", "Count the T in P in the updated graph. ...");
an evaluator sends nothing else. :func:`read` recognizes exactly those shapes, with
conservative patterns for the names, kinds and numbers in them, and says what they ask as
the parser's IR; anything else (a word more, a word less, another case, another spacing, a
name of another shape) is ``None`` and left to the parser, which reads every phrasing.

This is a shortcut, not a second grammar: on every text it reads, it must give exactly what
the parser gives (``tests/malt/test_templates.py`` checks that on every generated request,
on random names and numbers, and on mutated texts), so the parser stays the one definition
of what a request means.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from netmend.malt import ir
from netmend.malt import kinds as K

# A node's name as the generator writes one: dotted words ("ju1.a1.m1.s2c1.p3").
_NAME = r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+"
# A new node's name as the generator makes one, its kind inside it ("new_EK_PORT_12").
# Only the kinds the generator adds: a new "chassis", say, the parser may refuse as unclear.
_NEW = r"new_(?P<{0}>EK_PORT|EK_PACKET_SWITCH)_[1-9][0-9]{{0,5}}"
_KIND = r"EK_[A-Z]+(?:_[A-Z]+)*"

_RETURN_GRAPH = " Return a graph."
_UPDATED = " in the updated graph"
_FIRSTS = {
    "remove": rf"Remove (?P<gone>{_NAME}) from the graph\.",
    "add": rf"Add (?P<new>{_NEW.format('newkind')}) to (?P<parent>{_NAME})\.",
    "add_quoted": rf"Add node with name '(?P<new>{_NEW.format('newkind')})' to (?P<parent>{_NAME})\.",
}
_SECONDS = {
    "list": rf" List direct child nodes of (?P<p>{_NAME}){_UPDATED}\. Return a list of child "
            r"nodes name\.",
    "rank": rf" Rank direct child nodes of (?P<p>{_NAME}){_UPDATED} based on "
            r"physical_capacity_bps attribute\. Return a list of tuple, each tuple has node name "
            r"and its total physical capacity\.",
    "count": rf" Count the (?P<t>{_KIND}) in (?P<p>{_NAME}){_UPDATED}\. Return the count "
             r"number as text\.",
}
_SINGLE = {
    "add": rf"Add new node with name (?P<new>{_NEW.format('newkind')}) type (?P<t>{_KIND}), to "
           rf"(?P<parent>{_NAME})\.{_RETURN_GRAPH}",
    "remove": rf"Remove (?P<gone>{_NAME}) from the graph\.{_RETURN_GRAPH}",
    "list": rf"List all the child nodes of (?P<p>{_NAME})\. Return a list of child node names\.",
    "rank": rf"Rank all child nodes of (?P<pk>{_KIND}) type (?P<p>{_NAME}) based on "
            r"physical_capacity_bps attribute\. Return a list of tuple, each tuple has child "
            r"node name and its total physical capacity\.",
    "count": rf"Count the (?P<t>{_KIND}) in the (?P<p>{_NAME})\. Return the count number as "
             r"text\.",
    "update": rf"Update the physical capacity value of (?P<gone>{_NAME}) to "
              rf"(?P<v>[1-9][0-9]{{0,8}})\.{_RETURN_GRAPH}",
    "for_each": rf"For each (?P<pk>{_KIND}), add a new (?P<t>{_KIND}) to it\. Count the total "
                rf"number of (?P=t){_UPDATED}\. Return only the counts\.",
}
_SHAPES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    *((first, "", re.compile(pattern)) for first, pattern in _SINGLE.items()),
    *((first, second, re.compile(f + s)) for first, f in _FIRSTS.items()
      for second, s in _SECONDS.items()),
)
_KINDS = frozenset(K.ENTITY_KINDS)


class Reading(NamedTuple):
    """What a request in the generator's phrasing asks: its steps, and the kinds it says
    its names are (name, kind)."""

    steps: tuple[ir.Step, ...]
    qualifiers: tuple[tuple[str, str], ...]


def read(text: str) -> Reading | None:
    """The steps of ``text`` if it is written exactly as the generator writes a request,
    else ``None`` (then the parser reads it)."""
    if text[:1] not in "ARLCUF" or not text.endswith("."):
        return None
    for first, second, pattern in _SHAPES:
        found = pattern.fullmatch(text)
        if found is not None:
            return _steps(first, second, found.groupdict())
    return None


def _steps(first: str, second: str, said: dict[str, str]) -> Reading | None:
    kinds = [said[k] for k in ("t", "pk", "newkind") if said.get(k) is not None]
    if not _KINDS.issuperset(kinds):
        return None
    qualifiers: tuple[tuple[str, str], ...] = ()
    if first in ("add", "add_quoted"):
        if not second and said["t"] != said["newkind"]:
            return None  # "new_EK_PORT_1 type EK_RACK": the parser says what that means
        step: ir.Step = ir.Add(said["new"], said["newkind"], said["parent"])
    elif first == "remove":
        step = ir.Remove(said["gone"])
    elif first == "update":
        step = ir.Update(said["gone"], int(said["v"]))
    elif first == "list":
        step = ir.ListChildren(said["p"])
    elif first == "rank":
        step = ir.Rank(said["p"], descending=True)
        qualifiers = ((said["p"], said["pk"]),)
    elif first == "count":
        step = ir.Count(said["t"], said["p"])
    else:
        return Reading((ir.ForEachAdd(said["pk"], said["t"]), ir.Count(said["t"], None)), ())
    if not second:
        return Reading((step,), qualifiers)
    if second == "count":
        then: ir.Step = ir.Count(said["t"], said["p"])
    elif second == "list":
        then = ir.ListChildren(said["p"])
    else:
        then = ir.Rank(said["p"], descending=True)
    steps = (step, then)
    return None if ir.conflict(steps) is not None else Reading(steps, qualifiers)
