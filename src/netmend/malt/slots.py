"""Slot filling: a request no grammar rule fits, read by the roles its words give.

The grammar of :mod:`netmend.malt.parser` reads a request by its word order. Some
requests say everything they need in an order no rule has ("ju1.s1.s1c3 needs another
port -> call it new_p5", "new node new_X (EK_PORT) -> parent S", "Over 10G - which ports
in A are there?", "A: biggest switch by total capacity?"). Each kind of change and of
question has a small, fixed frame: an addition has new names, their kind and one parent;
a removal has the names to remove; an update has the names (or a set) and one rate; an
addition to each node of a kind has two kinds; a question about a set below one node has
the node, the kind of the set and what is asked of it (the list, the count, a ranking, a
sum, the top k, one filter). This module fills those slots from the lexemes'
categories, and answers only when:

* every word belongs to the frame of exactly one kind of request: its own words, the
  names, the kinds, the words that give a name its role ("called", "name it", "to",
  "under", "parent") and glue (commas, auxiliaries, "need"). Any other word, known or
  unknown, leaves the request to the grammar's refusal: a word that could change the
  meaning ("not", "once", "faulty", "per switch", a second rate) is never skipped;
* each slot is filled exactly once (one parent, one rate, one direction, the kinds said
  where they belong: a kind next to a name is that node's), and a number said is checked
  against the names given when the frame is resolved.

It returns the same frame tuples as the grammar (lexeme positions, not values), so
names, kinds, numbers and the checks on them are resolved by the same code. Whether a
request asks for a change at all (and is not a statement or a question about what can
be) is :func:`asked`; whether a question asks about what is now, :func:`said_now`; both
read the words as written. Pure: categories in, a frame or None out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Cats = Sequence[frozenset[str]]

_KINDS = frozenset({"KIND", "KIND_SG", "KIND_PL"})
_GLUE = frozenset({"COMMA", "STOP", "AND", "AUX", "MODAL", "INVERT", "WANT", "GET", "REL",
                   "THERE", "BE", "ARROW", "THEN", "IT", "NODE", "LIKE"})
# words of an addition
_ADDING = frozenset({"ADD", "ADDED", "ADDITION", "GOES"})
_NEW = frozenset({"NEW"})
_NAMING = frozenset({"CALLED", "NAME_N", "CALL", "AS"})
_PLACING = frozenset({"TO", "IN", "BY", "OF", "PARENT", "CHILD"})
# words of a removal ("remove", "take ... out", "gone", "the removal of", "from the graph")
_REMOVING = frozenset({"REMOVE", "TAKE", "GONE", "REMOVAL", "OUT", "OUTOF", "AWAY"})
# words of an update of capacity ("set", "make", "run at", "capacity", "to")
_SETTING = frozenset({"SET", "SETP", "MAKE", "RUNAT"})
# words that say "each" / "every" / "per" before a kind
_EVERY = frozenset({"EACHW", "ALL", "PER", "FOREACH"})

# The words each kind of change may have. "name" is also a verb that asks ("name the
# ports of S"), "under" a comparison ("under 10 Gbps"), "get" a verb that asks ("get me
# the list"): they read here only as what they are in that change.
_ALSO_MEANS = {"NAME_N": frozenset({"ASK"}), "IN": frozenset({"LT"}), "GET": frozenset({"ASK"})}
_ADDITION_WORDS = _ADDING | _NEW | _NAMING | _PLACING | _KINDS | _GLUE | {"NAME", "NUM"}
_REMOVAL_WORDS = _REMOVING | _KINDS | _GLUE | {"NAME", "NUM", "ALL", "EACHW", "FROM", "GRAPH",
                                               "OF"}
_UPDATE_WORDS = _SETTING | _KINDS | _GLUE | {"NAME", "RATE", "CAP", "OF", "TO", "AS", "IN",
                                             "BY", "ALL", "EACHW", "ITS", "EQ"}
_FOR_EACH_WORDS = _ADDING | _NEW | _EVERY | _KINDS | _GLUE | {"NUM", "TO", "IN", "BY", "SETP"}


# A change said only by a participle ("N added to S", "X removed", "P set to 10G") states
# what is, unless a word wants it ("is to be added", "needs removing", "should be set").
_WANTING = frozenset({"MODAL", "INVERT", "WANT", "GET"})


def _wanted(cats: Cats, verbs: frozenset[str], participles: frozenset[str]) -> bool:
    """Whether ``cats`` ask for the change: a verb that says it, or a participle that says
    it with a word that wants it."""
    said = frozenset().union(*cats) if cats else frozenset()
    return bool(said & verbs) or bool(said & participles) and bool(said & _WANTING)


def _where(cats: Cats, cat: str) -> list[int]:
    """The positions of the words of category ``cat``."""
    return [i for i, c in enumerate(cats) if cat in c]


def _fits(cats: Cats, words: frozenset[str]) -> bool:
    for said in cats:
        rest = set(said) - words
        for cat, also in _ALSO_MEANS.items():
            if cat in said and cat in words:
                rest -= also
        if rest:
            return False
    return True


# a part that only asks for the graph back: "..., and return the graph", "Graph back
# please.", "with the resulting graph returned afterwards"
_GRAPH_SAID = frozenset({"GRAPH", "WHOLE_GRAPH", "RETURN"})
_GRAPH_TAIL = _GRAPH_SAID | frozenset({"GIVE", "ASK", "WANT", "GET", "THEN", "SETP",
                                       "WITH", "AND", "AUX", "MODAL", "IT", "LIKE", "AFTER",
                                       "ADDITION", "HAS", "HAVE"})
_JOINT = frozenset({"COMMA"})


def _without_graph_tail(cats: Cats) -> list[frozenset[str]]:
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


def _lists(cats: Cats) -> list[list[int]]:
    """The names, as lists said together ("A, B and C", "A, and B"); two names with nothing
    between them are two lists ("named zorp new_p1" names one node, not two), and so are
    names in two sentences (a sentence's end is a comma with ``STOP``)."""
    lists: list[list[int]] = []
    joined = False  # a comma or "and" since the last name, and nothing else
    for i, said in enumerate(cats):
        if "NAME" in said:
            if joined:
                lists[-1].append(i)
            else:
                lists.append([i])
            joined = False
        elif said & {"COMMA", "AND"} and "STOP" not in said:
            joined = bool(lists) and "NAME" in cats[i - 1] or joined
        else:
            joined = False
    return lists


# ---------------------------------------------------------------- additions


def _before(cats: Cats, at: int) -> int:
    """The position of the word that gives the name at ``at`` its role: the word before
    it, past a kind said with the name ("to switch S", "new port N") and past "it" after
    a naming verb ("call it N")."""
    i = at - 1
    if i >= 0 and cats[i] & (_KINDS | {"NODE"}):
        i -= 1
    if i >= 1 and "COMMA" in cats[i] and cats[i - 1] & {"PARENT", "NAME_N", "CALLED"}:
        i -= 1  # "parent: S", "name: N"
    if i >= 1 and "IT" in cats[i] and cats[i - 1] & {"CALL", "NAME_N"}:
        i -= 1
    if i >= 1 and "AUX" in cats[i] and "PARENT" in cats[i - 1]:  # "parent is S"
        i -= 1
    return i


def _role(cats: Cats, at: int) -> str | None:
    """``parent``, ``new``, ``both`` (a place said right after a naming word) or None (no
    word says which) for the name or "it" at ``at``."""
    i = _before(cats, at)
    if i < 0:
        return None
    said = cats[i]
    if said & _PLACING and i and (cats[i - 1] & _NAMING or "IT" in cats[i - 1]):
        return "both"  # "name it of S": a name and a place at once
    if "ARROW" in said:  # "N -> S": N goes under S; "3 new ports -> N1, N2, N3"
        if i and "NAME" in cats[i - 1]:
            return "parent"
        return "new" if i and cats[i - 1] & (_KINDS | {"NODE"}) else None
    if said & _PLACING:
        return "parent"
    if said & _NAMING:
        return "new"
    kinded = bool(cats[at - 1] & (_KINDS | {"NODE"}))
    if said & (_ADDING | _NEW) and (kinded or "ADD" in said):
        return "new"  # "add port N", "new switch N", "create N"
    return None


def _nouns_place(cats: Cats) -> bool:
    """Whether each "child" or "parent" said gives a name its place ("parent: S", "N,
    child of S"): one that places nothing asks for something else ("add N to S, child
    nodes" asks for the children too), which this frame has no slot for."""
    given = {_before(cats, i) for i, c in enumerate(cats) if c & {"NAME", "IT"}}
    return all(i in given or i + 1 < len(cats) and cats[i + 1] & _PLACING
               for i, c in enumerate(cats) if c & {"CHILD", "PARENT"})


def addition(cats: Cats) -> tuple | None:
    """``("add", (("new", n, kinds, count), ...), ("node", p, k))``: one or more new nodes
    under one parent, or None."""
    if not _fits(cats, _ADDITION_WORDS) or not _wanted(cats, _NEW | {"ADD", "ADDITION"},
                                                       frozenset({"ADDED", "GOES"})):
        return None
    lists = _lists(cats)
    roles = {tuple(said): _role(cats, said[0]) for said in lists}
    if "both" in roles.values() or not _nouns_place(cats):
        return None
    placed_it = any("IT" in c and _role(cats, i) == "parent" for i, c in enumerate(cats))
    parents = [said for said, role in roles.items() if role == "parent"]
    news = [said for said, role in roles.items() if role == "new"]
    unsaid = [said for said, role in roles.items() if role is None]
    if placed_it and not parents:  # "S needs another port: create N on it": "it" is S
        if len(unsaid) != 1:
            return None
        parents, unsaid = unsaid, []
    if len(unsaid) == 1 and len(parents) + len(news) == 1:
        (parents if news else news).append(unsaid[0])
    elif unsaid:
        return None
    if len(parents) != 1 or len(parents[0]) != 1 or len(news) != 1:
        return None
    parent, new = parents[0][0], news[0]
    if len(new) > 1 and not any("NUM" in c or c & _KINDS == {"KIND", "KIND_PL"} for c in cats):
        return None  # "N, S ..." is two new nodes only when said so: "3 ports", "ports N, M"
    parent_kind = next((k for k in (parent - 1, parent + 1)  # one node's: not "switches"
                        if 0 <= k < len(cats) and cats[k] & _KINDS
                        and cats[k] & _KINDS != {"KIND", "KIND_PL"}), None)
    kinds = tuple(i for i, c in enumerate(cats) if c & _KINDS and i != parent_kind)
    counts = _where(cats, "NUM")
    if len(counts) > 1 or any("KIND_SG" not in cats[k] for k in kinds) and len(new) == 1:
        return None  # "add ports N to S": how many?
    count = counts[0] if counts else None
    return ("add", tuple(("new", n, kinds, count) for n in new), ("node", parent, parent_kind))


# ---------------------------------------------------------------- removals and updates


def _targets(cats: Cats, places: frozenset[str] = frozenset()) -> tuple | None:
    """``("names", (("node", n, k), ...), count)`` for the names of one list, each with the
    kind said right before it (a plural kind before the list is said of all of them), or
    None: a name said apart from the list, a kind not said of a name ("the ports of S"),
    more than one number, or a name after a word in ``places``."""
    lists = _lists(cats)
    if len(lists) != 1:
        return None
    names = lists[0]
    kinds = {i: None for i in names}
    for i, said in enumerate(cats):
        if said & _KINDS:
            if i + 1 in kinds:
                if "KIND_SG" in said and "KIND_PL" not in said:
                    kinds[i + 1] = i
            elif not (i and "NUM" in cats[i - 1] and "KIND_PL" in said):
                return None  # a kind said of no name ("the ports of S"), not counted
    if any(cats[i - 1] & places for i in names if i):
        return None
    counts = _where(cats, "NUM")
    if len(counts) > 1:
        return None
    return ("names", tuple(("node", n, kinds[n]) for n in names), counts[0] if counts else None)


def removal(cats: Cats) -> tuple | None:
    """``("remove", ("names", ...), None)``: the names of one list removed, or None."""
    if not _fits(cats, _REMOVAL_WORDS) or not _wanted(
            cats, frozenset({"REMOVE", "TAKE", "REMOVAL"}), frozenset({"GONE", "OUT", "OUTOF",
                                                                     "AWAY"})):
        return None
    # "from" and "of" only in "from the graph", "all three of them": never a place
    if any("FROM" in c and cats[i + 1:i + 2] != [frozenset({"GRAPH"})]
           for i, c in enumerate(cats)):
        return None
    targets = _targets(cats, frozenset({"OF", "FROM", "OUTOF"}))
    return None if targets is None else ("remove", targets, None)


# what may come right before the rate of an update: "to 40G", "as 40G", "= 40G", "capacity
# 40G", "run at 40G", "-> 40G", ": 40G", "make it 40G", "make both 40G"
_TO_RATE = frozenset({"TO", "AS", "EQ", "CAP", "RUNAT", "ARROW", "COMMA", "IT", "MAKE", "SET",
                      "SETP", "ALL", "EACHW"})


def update(cats: Cats) -> tuple | None:
    """``("update", ("names", ...), rate)``: the names of one list set to one rate, or None."""
    if not _fits(cats, _UPDATE_WORDS) or not _wanted(cats, frozenset({"SET", "MAKE"}),
                                                     frozenset({"SETP", "RUNAT"})):
        return None
    rates = _where(cats, "RATE")
    if len(rates) != 1 or not rates[0] or not cats[rates[0] - 1] & _TO_RATE:
        return None  # "increase P by 5G" is not "set P to 5G"
    targets = _targets(cats)
    return None if targets is None else ("update", targets, rates[0])


_ALL_OF = frozenset({"ALL", "EACHW", "FOREACH", "AMONG"})  # "every", "each", "all of"
_UPDATE_ALL_WORDS = _UPDATE_WORDS | _ALL_OF | {"POSS", "DEEP", "ACROSS"}


def update_all(cats: Cats) -> tuple | None:
    """``("update", ("set_of", ("set", ("node", n, k), kind, "descendants", ())), rate)``:
    every node of one kind under one named node set to one rate ("every port on switch S
    at 10 Gb/s", "S's ports, all of them -> 25G"), or None. The set is said by "all" /
    "every" / "each" or a plural kind, and the kind said right before the name is the
    name's."""
    if not _fits(cats, _UPDATE_ALL_WORDS) or not _wanted(cats, frozenset({"SET", "MAKE"}),
                                                         frozenset({"SETP", "RUNAT"})):
        return None
    names = _where(cats, "NAME")
    rates = _where(cats, "RATE")
    if len(names) != 1 or len(rates) != 1 or not rates[0] or not cats[rates[0] - 1] & _TO_RATE:
        return None
    name = names[0]
    name_kind = name - 1 if name and cats[name - 1] & _KINDS else None
    kinds = [i for i, c in enumerate(cats) if c & _KINDS and i != name_kind]
    if len(kinds) != 1 or not (any(c & _ALL_OF for c in cats)
                               or "KIND_SG" not in cats[kinds[0]]):
        return None
    if kinds[0] == rates[0] + 1:
        return None  # "set P to 40G ports": the ports of 40G, below P?
    return ("update", ("set_of", ("set", ("node", name, name_kind), kinds[0], "descendants",
                                  ())), rates[0])


# ---------------------------------------------------------------- an addition to each


def for_each(cats: Cats) -> tuple | None:
    """``("for_each", parent_kind, new_kind)``: a new node of one kind under each node of
    another ("one new port per agg block", "every ctrl domain gets a new switch"), or None.
    The parent kind is the one said after "each" / "every" / "per"; a number said is the
    number of new nodes, which must be one (checked when resolved)."""
    if not _fits(cats, _FOR_EACH_WORDS) or not _wanted(
            cats, _NEW | {"ADD", "ADDITION"}, frozenset({"ADDED", "GOES", "GET", "SETP"})):
        return None
    kinds = [i for i, c in enumerate(cats) if c & _KINDS]
    every = [k for k in kinds if k and cats[k - 1] & _EVERY]
    if len(kinds) != 2 or len(every) != 1 or any("KIND_SG" not in cats[k] for k in kinds):
        return None
    parent_kind = every[0]
    new_kind = kinds[0] if kinds[1] == parent_kind else kinds[1]
    counts = _where(cats, "NUM")
    if len(counts) > 1 or any(c & _EVERY for i, c in enumerate(cats) if i + 1 != parent_kind
                              and not (c & {"EACHW"} and i == len(cats) - 1)):
        return None
    return ("for_each", parent_kind, ("one", counts[0], new_kind) if counts else new_kind)


# ---------------------------------------------------------------- questions about one node

_ASKING_WORDS = frozenset({"WH", "REL", "ASK", "WANT", "GIVE", "AUX", "MODAL", "INVERT", "GET",
                           "COMMA", "STOP", "IT", "BE", "ARROW", "NUMBER", "AND"})
_CAPACITY_WORDS = _ASKING_WORDS | _KINDS | {"NAME", "CAP", "HOWFAST", "HOWMUCH", "OF", "IN",
                                            "BY", "ITS", "POSS", "RUNAT", "SETP"}
_ANCESTOR_WORDS = _ASKING_WORDS | _KINDS | {"NAME", "IN", "LT", "BY", "GOES", "HOLDING",
                                            "PARENT", "OF", "TO"}
_CONTAINED = frozenset({"IN", "LT", "BY", "GOES", "HOLDING", "PARENT"})
_HELD_IT = frozenset({"HOLDING"})


def _one_name(cats: Cats) -> tuple[int, int | None, list[int]] | None:
    """The one name of ``cats``, the kind said with it (right before it, or right after it
    in the singular: "port P", "the S switch"), and the other kinds; None when there is
    not one name. ("P's switch" is another node: a kind after a possessive is one of the
    other kinds.)"""
    names = _where(cats, "NAME")
    if len(names) != 1:
        return None
    name = names[0]
    said = name - 1 if name and cats[name - 1] & _KINDS else None
    if said is None and name + 1 < len(cats) and cats[name + 1] & _KINDS == {"KIND", "KIND_SG"}:
        said = name + 1
    return name, said, [i for i, c in enumerate(cats) if c & _KINDS and i != said]


def capacity(cats: Cats) -> tuple | None:
    """``("capacity", ("node", n, k), False)``: the capacity of one named node ("P - how
    much capacity?", "How much capacity is configured on port P?"), or None. Nothing that
    folds a set ("total", "average", "the ports of"), no other kind, no number."""
    if not _fits(cats, _CAPACITY_WORDS) or not any(c & {"CAP", "HOWFAST"} for c in cats):
        return None
    found = _one_name(cats)
    if found is None or found[2]:
        return None
    name, kind, _ = found
    if any(c & {"IN", "BY", "OF"} for c in cats[name + 1:]):
        return None  # "the capacity of the switch P is on": another node
    return ("capacity", ("node", name, kind), False)


def ancestor(cats: Cats) -> tuple | None:
    """``("nodes", ("set", ("node", n, k), kind, "ancestors", ()))``: the node of one kind
    that a named node is in ("P - which agg block is that in?", "to which switch port P
    belongs"), or None. The kind asked for is said once, in the singular, by "which" /
    "what" or a word that asks; the named node is the one contained: a word of being in
    ("in", "under", "belongs", "containing", "parent", or holding a pronoun that stands for
    it: "P. which switch holds it?") is said, and none of holding it ("contains", "has")."""
    # "P. which agg block holds it": holding the pronoun (P) is being in, said the other way
    cats = [_HELD_IT if "HAVE" in c and "IT" in d else c
            for c, d in zip(cats, [*cats[1:], frozenset()], strict=True)]
    if not _fits(cats, _ANCESTOR_WORDS) or not any(c & _CONTAINED for c in cats) or not any(
            c & {"WH", "REL", "ASK"} for c in cats):
        return None
    found = _one_name(cats)
    if found is None or len(found[2]) != 1:
        return None
    name, kind, (asked_kind,) = found
    if cats[asked_kind] & _KINDS != {"KIND", "KIND_SG"}:
        return None  # "which switches ...": many, and maybe below
    return ("nodes", ("set", ("node", name, kind), asked_kind, "ancestors", ()))


# ---------------------------------------------------------------- sets below one node

_PLACES = frozenset({"OF", "IN", "LT", "BY", "FROM", "AMONG", "ACROSS"})
_COUNTING = frozenset({"COUNT", "HOWMANY", "NUMBER"})
_BELOW_WORDS = _ASKING_WORDS | _PLACES | _KINDS | {"NAME", "ALL", "POSS", "ITS", "THERE", "HAVE",
                                                   "CHILD", "DIRECT", "EVERYTHING", "NODE"}
ORDERS = frozenset({"ORDER_DESC", "ORDER_ASC"})


def _below(cats: Cats) -> tuple[int, int | None, list[int]] | None:
    """:func:`_one_name`, when every place word comes before the name ("the ports under
    A", not "A is under which node") and a word of holding after it ("what A contains"),
    never before a pronoun ("A. which switches hold it": "it" is A, and held)."""
    found = _one_name(cats)
    if found is None:
        return None
    name = found[0]
    placed = [i for i, c in enumerate(cats) if c & _PLACES and not (  # not "by capacity"
        c <= {"BY", "IN"} and i + 1 < len(cats) and cats[i + 1] & {"CAP", "HOWMUCH", "SUM"})]
    if any(i > name for i in placed) or any("HAVE" in c for c in cats[:name]):
        return None
    if any("HAVE" in c and "IT" in d for c, d in zip(cats, cats[1:], strict=False)):
        return None  # "P. which agg block contains it": "it" is P, held, not holding
    asked = found[2][0] if found[2] else name
    if not placed and asked > name and any("REL" in c and "WH" not in c for c in cats[:name]) \
            and any("BE" in c for c in cats):
        return None  # "where does P live, which agg block?": where P is, above it
    if not placed and any("REL" in c for c in cats[asked + 1:name]) and not any(
            c & {"POSS", "ITS", "HAVE", "DIRECT", "DEEP", "CHILD"} for c in cats):
        return None  # "the agg block where P sits": the node is in the set, not above it
    return found


def _children(cats: Cats) -> bool:
    """"the child nodes", "everything directly under", "the nodes one level below"."""
    return any("CHILD" in c for c in cats) or any("DIRECT" in c for c in cats) and any(
        c & {"EVERYTHING", "NODE", "WH"} for c in cats)


def below(cats: Cats) -> tuple | None:
    """A read of a set below one named node: its child nodes (``("list", node)``), the nodes
    of one kind at any depth (``("nodes", set)``) or their count (``("count", set)``), or
    None. The kind of a set is said once and is not the name's own; "directly" says the
    child nodes of every kind, never a kind's ("the ports directly under S" is left to the
    grammar); a question word or a verb that asks is said."""
    if not _fits(cats, _BELOW_WORDS | _COUNTING | {"DEEP"}) or not any(
            c & ({"ASK", "WH", "REL", "GIVE", "WANT"} | _COUNTING) for c in cats):
        return None
    found = _below(cats)
    if found is None:
        return None
    name, kind, kinds = found
    node = ("node", name, kind)
    counted = any(c & _COUNTING for c in cats)
    if counted and any("ASK" in c and not c & _COUNTING or {"REL", "WH"} <= c for c in cats):
        return None  # "pull the switch list count", "which ports ...? count them": which?
    if _children(cats):
        if kinds or counted or any(c & {"DEEP"} for c in cats):
            return None
        return ("list", node)
    if len(kinds) != 1 or any(c & {"DIRECT", "EVERYTHING", "NODE"} for c in cats):
        return None
    if not counted and kinds[0] > name and cats[kinds[0]] & _KINDS == {"KIND", "KIND_SG"} \
            and not any(c & _PLACES for c in cats):
        return None  # "P which switch": one node asked of P, so maybe the one P is in
    nodes = ("set", node, kinds[0], "descendants", ())
    return ("count", nodes) if counted else ("nodes", nodes)


def rank(cats: Cats) -> tuple | None:
    """A ranking by capacity of the child nodes of one named node (``("rank", node, desc)``)
    or of the nodes of one kind below it (``("top", set, ("capacity",), None, desc)``), or
    None: capacity is said, one direction at most (highest first when none), and "total"
    only of the capacity."""
    if not _fits(cats, _BELOW_WORDS | ORDERS | {"RANK", "CAP", "HOWMUCH", "SUM", "SUMV",
                                                 "TOTALW", "AND"}):
        return None
    by_capacity = any("BY" in c and i + 1 < len(cats) and "CAP" in cats[i + 1]
                      for i, c in enumerate(cats))
    if not any("CAP" in c for c in cats) or not (
            any("RANK" in c for c in cats) or any(c & ORDERS for c in cats) and by_capacity):
        return None  # an order alone ranks only "by capacity": "By capacity, descending: ..."
    if any(c & {"SUM", "SUMV", "TOTALW"} and not (i + 1 < len(cats) and "CAP" in cats[i + 1])
           for i, c in enumerate(cats)):
        return None  # "total" of something else than the capacity
    directions = {cat for c in cats for cat in c & ORDERS}
    if len(directions) > 1:
        return None
    descending = directions != {"ORDER_ASC"}
    found = _below(cats)
    if found is None:
        return None
    name, kind, kinds = found
    node = ("node", name, kind)
    if _children(cats):
        return None if kinds else ("rank", node, descending)
    if len(kinds) != 1 or "KIND_PL" not in cats[kinds[0]] or any(
            c & {"DIRECT", "EVERYTHING", "NODE"} for c in cats):
        return None
    return ("top", ("set", node, kinds[0], "descendants", ()), ("capacity",), None, descending)


_FOLDING = {"AVG": "average", "MOST": "max", "LEAST": "min", "SUM": "sum", "SUMV": "sum",
            "TOTALW": "sum", "ADDUP": "sum"}
_AGGREGATE_WORDS = (_BELOW_WORDS - {"CHILD", "DIRECT", "EVERYTHING", "NODE"}) | set(_FOLDING) | {
    "CAP", "HOWMUCH", "BE", "AND"}


def aggregate(cats: Cats) -> tuple | None:
    """``("aggregate", function, set)``: the sum, average, largest or smallest capacity of
    the nodes of one kind below one named node ("How much capacity, on average, does a port
    in A have?", "add up the capacities of S's ports and report the total"), or None. One
    function (said once or more), capacity said, and not "which" (a node, not a value)."""
    if not _fits(cats, _AGGREGATE_WORDS) or not any("CAP" in c for c in cats):
        return None
    functions = {_FOLDING[cat] for c in cats for cat in c if cat in _FOLDING}
    said = [c for c in cats if c & set(_FOLDING)]
    if len(functions) != 1 or any({"REL", "WH"} <= c for c in cats) or any(
            len({_FOLDING[cat] for cat in c if cat in _FOLDING}) > 1 for c in said):
        return None
    found = _below(cats)
    if found is None or len(found[2]) != 1:
        return None
    name, kind, (of_kind,) = found
    return ("aggregate", functions.pop(), ("set", ("node", name, kind), of_kind, "descendants",
                                           ()))


_BEFORE_RATE = {"LT": "<", "GT": ">", "LE": "<=", "GE": ">=", "FASTER": ">", "SLOWER": "<"}
_AFTER_RATE = {"POST_GE": ">=", "POST_LE": "<="}
_COMPARING = frozenset(_BEFORE_RATE) | frozenset(_AFTER_RATE)


def filtered(cats: Cats) -> tuple | None:
    """``("nodes", set)`` with one capacity filter: the nodes of one kind below one named
    node whose capacity compares with one rate ("Over 10G - which ports in A are there?",
    "25G or more: list the ports in A that qualify"), or None. The comparison is the word
    right before the rate or the "or more" / "or less" right after it, and is said once; the
    rest must be a list of the nodes of one kind below one name (see :func:`below`)."""
    rates = _where(cats, "RATE")
    if len(rates) != 1:
        return None
    rate = rates[0]
    before = [op for cat, op in _BEFORE_RATE.items() if rate and cat in cats[rate - 1]]
    after = [op for cat, op in _AFTER_RATE.items()
             if rate + 1 < len(cats) and cat in cats[rate + 1]]
    if len(before) + len(after) != 1:
        return None
    said = rate - 1 if before else rate + 1
    if any(c & _COMPARING for i, c in enumerate(cats) if i != said):
        return None
    # the comparison, the rate and the words that only say what is compared ("with
    # capacity", "of capacity", "in capacity") are not part of the set
    said_of = {rate, said} | {i for i, c in enumerate(cats) if c <= {"CAP", "HAVE", "ITS"}}
    said_of |= {i - 1 for i in said_of if i and cats[i - 1] <= {"BY", "IN", "OF", "WITH"}}
    found = below([_JOINT if i in said_of else c for i, c in enumerate(cats)])
    if found is None or found[0] != "nodes":
        return None
    _, (_, node, kind, axis, _) = found
    return ("nodes", ("set", node, kind, axis, (("where", ("capacity",), (before + after)[0],
                                                 rate),)))


_HIGHEST = frozenset({"MOST", "TOP", "FASTEST"})
_LOWEST = frozenset({"LEAST", "SLOWEST"})
_TOP_WORDS = _BELOW_WORDS - {"CHILD", "DIRECT", "EVERYTHING", "NODE"} | _HIGHEST | _LOWEST | {
    "NUM", "CAP", "SUM", "SUMV", "TOTALW", "WITH", "WHOSE", "NUMBER", "AND"}


def top(cats: Cats) -> tuple | None:
    """``("top", set, metric, limit, descending)``: the k nodes of one kind below one named
    node with the most or least ports or capacity ("the 3 lowest-capacity switches in A",
    "top switch by total capacity, agg block A", "Who are the 4 biggest switches by number
    of ports in A?"), or None. One direction; the metric is a second kind ("ports") or
    capacity, not both; k is the number said, or one when the kind is said in the singular;
    the superlative is said of the nodes (right before their kind, or after "with",
    "whose", "by" or "has"), so "the highest capacity of the ports" stays a value."""
    if not _fits(cats, _TOP_WORDS):
        return None
    directions = {bool(c & _HIGHEST) for c in cats if c & (_HIGHEST | _LOWEST)}
    if len(directions) != 1 or any(c & _HIGHEST and c & _LOWEST for c in cats):
        return None
    found = _below(cats)
    if found is None:
        return None
    name, kind, kinds = found
    counts = _where(cats, "NUM")
    superlative = next(i for i, c in enumerate(cats) if c & (_HIGHEST | _LOWEST))
    of_nodes = (superlative + 1 < len(cats) and cats[superlative + 1] & _KINDS) or (
        any(c & {"WITH", "WHOSE", "BY", "HAVE"} for c in cats[:superlative]))
    if len(counts) > 1 or not kinds or not of_nodes:
        return None
    set_kind, *metric_kinds = kinds
    said_capacity = any(c & {"CAP", "FASTEST", "SLOWEST"} for c in cats)
    if len(metric_kinds) > 1 or bool(metric_kinds) == said_capacity:
        return None  # no metric, or two
    metric = ("count", metric_kinds[0]) if metric_kinds else ("capacity",)
    if counts:
        limit: object = ("pos", counts[0])
    elif cats[set_kind] & _KINDS == {"KIND", "KIND_SG"}:
        limit = 1
    else:
        return None  # "the biggest switches": how many?
    return ("top", ("set", ("node", name, kind), set_kind, "descendants", ()), metric, limit,
            directions.pop())


_FRAMES: tuple[Callable[[Cats], tuple | None], ...] = (addition, removal, update, update_all,
                                                       for_each)
_QUESTIONS: tuple[Callable[[Cats], tuple | None], ...] = (capacity, ancestor, below, rank,
                                                          aggregate, filtered, top)


_WANTED = frozenset({"WANT"})


def change(cats: Cats, *, condition: bool = False) -> tuple | None:
    """The frame of the one change ``cats`` say (see the module's doc), or None when they
    say no change, more than one, or anything else. A ``condition`` ("with X removed, ...")
    wants its change however it is said (a word that wants it is added after the last)."""
    cats = _without_graph_tail(cats)
    if _ends_on_nouns(cats):
        return None
    return _one_of([*cats, _WANTED] if condition and cats else cats, _FRAMES)


_PARTING = frozenset({"COMMA", "STOP", "THEN", "AND", "ARROW"})
_NOUNS = _KINDS | {"NODE", "CHILD", "CAP", "DESC", "PARENT", "ANCESTOR", "EVERYTHING"}
_ASKING_NOUNS = _NOUNS - _KINDS - {"CAP"} | {"BY"}  # nouns that name a set or a read


def _ends_on_nouns(cats: Cats) -> bool:
    """Whether the last part (after a comma, a stop, "then", "and" or an arrow) is nouns
    alone that name a set or a read ("remove X, nodes", "add N to S. ports", "set P to 40G
    then switches", "..., ports by capacity"): no change's frame has a slot for what they
    ask. One kind said alone ("add N to S, type EK_PORT") is the new node's kind."""
    parts: list[list[frozenset[str]]] = [[]]
    for said in cats:
        if said & _PARTING:
            parts.append([])
        else:
            parts[-1].append(said)
    last = next((part for part in reversed(parts) if part), [])
    return len(parts) > 1 and bool(last) and all(said <= _NOUNS | {"BY"} for said in last) and any(
        said & _ASKING_NOUNS or said & _KINDS == {"KIND", "KIND_PL"}
        or "CAP" in said and not any("RATE" in c for c in cats) for said in last)


def question(cats: Cats) -> tuple | None:
    """The frame of the one question about one node ``cats`` ask (its capacity, the node of
    a kind it is in, a set below it, a ranking of that set), or None."""
    return _one_of(cats, _QUESTIONS)


def _one_of(cats: Cats, frames: tuple[Callable[[Cats], tuple | None], ...]) -> tuple | None:
    if not cats or cats[-1] & {"THEN", "AND", "ARROW"}:
        return None  # "remove X then": a part is missing
    found = [frame for frame in (build(cats) for build in frames) if frame is not None]
    return found[0] if len(found) == 1 else None


# ---------------------------------------------------------------- asked, not stated

# words that make the request a statement or a question about what is or may be, not a
# change to make: "S was given a new port N", "S might need a new port N"
_NOT_ASKED = frozenset({"was", "were", "been", "had", "did", "does", "do", "already", "exists",
                        "exist", "existed", "existing", "still", "whether", "if", "might",
                        "maybe", "perhaps", "possibly", "probably", "likely"})
_ASKING = frozenset({"can", "could", "would", "will", "may"})
_ASKED = frozenset({"you", "u", "ya", "we", "i"})


_NOT_NOW = _NOT_ASKED - {"does", "do", "exists", "exist", "existing"}  # "how many ports does S have?"
_MODALS = _ASKING | {"should", "shall", "must"}
_POLITE = _ASKED | {"like", "love", "appreciate"}


def said_now(said: Sequence[tuple[str, str]]) -> bool:
    """Whether the words as written ask about what is: no word of the past or of a
    possibility ("was", "did", "maybe", "if"), and no modal but one that asks ("could you",
    "I would like"): "how many ports would S have?" asks about a change not said."""
    words = [text for _, text in said]
    return _NOT_NOW.isdisjoint(words) and not any(
        a in _MODALS and b not in _POLITE for a, b in zip(words, words[1:] + [""], strict=False))


def asked(said: Sequence[tuple[str, str]]) -> bool:
    """Whether the words as written (token kind, lower-case text; fillers included) ask
    for a change: no word of a statement or a possibility ("was", "maybe"), no modal right
    after a name ("S could use a new port N"), and a question asks someone to make the
    change ("can you ...?", "would you mind ...?"), not whether it can be made ("could a
    new port N be added to S?")."""
    words = [text for _, text in said]
    if not _NOT_ASKED.isdisjoint(words):
        return False
    if any(text in _ASKING and i and said[i - 1][0] == "NAME" for i, (_, text) in
           enumerate(said)):
        return False
    return "?" not in words or "mind" in words or any(
        a in _ASKING and b in _ASKED or a in ("you", "u") and b in _ASKING
        for a, b in zip(words, words[1:], strict=False))  # "could you", "any chance you could"
