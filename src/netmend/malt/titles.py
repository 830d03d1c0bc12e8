"""A work item's title, said over the request it names: set aside only when it adds nothing.

Cards and tickets carry a short title over the request itself::

    Summary: Port count - ju1.s1.s1c3
    Description: How many ports are in ju1.s1.s1c3? Please count and reply on the card.

The body is the request; the title only names it. :func:`restates` says whether a title
can be set aside: every node name and number it holds is in the body, it says no word that
may change what is asked (a negation, a restriction, a hedge, a plan), every word that
names an operation names one of the steps the body was read as, and every other word is
the body's own, a word for a kind, or a word that joins. A title that holds anything else
("Summary: Uplink ports on S", "Title: Remove X" over a body that only counts) may say
what the body does not, so the request is refused, never read from the body alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from netmend.malt import context, ir
from netmend.malt import kinds as K
from netmend.malt import phrasing as P

# Words that name an operation, and the steps that do it.
_OPERATIONS: dict[str, tuple[type, ...]] = {
    **dict.fromkeys(("remove", "removal", "delete", "deletion", "drop", "decommission",
                     "decom", "cleanup", "clean-up", "teardown", "out"), (ir.Remove, ir.RemoveAll)),
    **dict.fromkeys(("add", "addition", "new", "create", "creation", "provision"),
                    (ir.Add, ir.ForEachAdd)),
    **dict.fromkeys(("update", "change", "set", "bump", "correction", "adjustment"),
                    (ir.Update, ir.UpdateAll)),
    **dict.fromkeys(("count", "tally", "recount"), (ir.Count, ir.Top, ir.Aggregate)),
    **dict.fromkeys(("rank", "ranking", "ranked", "re-rank", "rerank", "sort"),
                    (ir.Rank, ir.Top)),
    **dict.fromkeys(("avg", "average", "mean", "min", "minimum", "max", "maximum", "sum",
                     "combined"), (ir.Aggregate, ir.CapacityOf)),
    "total": (ir.Aggregate, ir.CapacityOf, ir.Count),
    **dict.fromkeys(("list", "listing", "inventory"), (ir.ListChildren, ir.ListNodes, ir.Top)),
    **dict.fromkeys(("parent", "parents"), (ir.ListNodes,)),
    # a word for any question: the body says which
    **dict.fromkeys(("lookup", "look-up", "query", "check", "report", "info", "details"),
                    (ir.Count, ir.ListChildren, ir.ListNodes, ir.Rank, ir.Top, ir.Aggregate,
                     ir.CapacityOf)),
}
# Words for what a node holds, said of any node: the body says which.
_CONTENTS = frozenset({"child", "children", "node", "nodes", "contents", "members",
                       "number"})
# Words for a kind that name every node of it (not "uplink", which may name some ports).
_PLAIN_KINDS = frozenset({"port", "switch", "packet", "agg", "aggregation", "block",
                          "superblock", "spineblock", "spine", "rack", "chassis", "domain",
                          "control", "point", "jupiter"} | {k.lower() for k in K.ENTITY_KINDS})
_JOINING = frozenset({"the", "a", "an", "of", "on", "in", "for", "to", "and", "&", "+", "-",
                      "--", "at", "from", "then", "by", "/", "|", "re", "request"})
_WORDS = re.compile(r"[\w.'&+/|-]+")
# A number said with its unit against it ("40G", "25gbps"): the number.
_NUMBER_WITH_UNIT = re.compile(r"(\d+(?:\.\d+)?)(?:g|gb|gbps|gig|m|mb|mbps|k)")


def _words(text: str) -> list[str]:
    words = [w.strip(".,:;?!'\"()[]").lower() for w in _WORDS.findall(text)]
    return [(found.group(1) if (found := _NUMBER_WITH_UNIT.fullmatch(w)) else w) for w in words]


# What a line that says what a request should come to says of its own ("Expected: the
# children of A ordered by capacity after the removal", "all three are gone").
_OUTCOME_WORDS = frozenset({"gone", "removed", "deleted", "added", "updated", "changed",
                            "listed", "ranked", "ordered", "sorted", "shown", "returned",
                            "present", "remaining", "left", "is", "are", "be", "should", "now",
                            "name", "names", "value", "values", "after", "afterwards", "all",
                            "both", "two", "three", "four", "five", "step", "with", "their",
                            "its", "new"})
# Words for a whole set, said again when the body says one of them.
_WHOLE = frozenset({"all", "every", "each"})


def _said_again(line: str, said: set[str], outcome: bool) -> bool:
    """Whether ``line`` names no node and no number the body does not say (its words:
    ``said``), and says no word that may change what is asked."""
    whole = not said.isdisjoint(_WHOLE)
    return not any(
        word in P.HEDGES or word.endswith("n't") or (
            word in context.CARRIES and not (outcome and word in _OUTCOME_WORDS)
            and not (whole and word in _WHOLE)) or (
            word not in said and (any(ch.isdigit() for ch in word) or "." in word))
        for word in _words(line))


def restates(title: str, body: str, steps: Sequence[ir.Step], *, outcome: bool = False) -> bool:
    """Whether ``title`` only names the request ``body`` was read as (``steps``); with
    ``outcome``, whether it only says what that request comes to ("Expected: ...")."""
    said = set(_words(body))
    if not _said_again(title, said, outcome):
        return False
    for word in filter(None, _words(title)):
        if word in said or word in _JOINING or word in _CONTENTS or word in _WHOLE or (
                outcome and word in _OUTCOME_WORDS):
            continue
        operation = _OPERATIONS.get(word) or _OPERATIONS.get(word.removesuffix("s"))
        if operation is not None:
            if not any(isinstance(step, operation) for step in steps):
                return False
            continue
        if word not in _PLAIN_KINDS and word.removesuffix("s") not in _PLAIN_KINDS and (
                word.removesuffix("es") not in _PLAIN_KINDS):
            return False
    return True
