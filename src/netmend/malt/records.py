"""Requests written as records: ``target: S; action: remove``, ``scope: A; count: switches``.

Automation engineers often write a request as ``key: value`` fields rather than a
sentence. A record is read here into the plain English request it stands for, which
the parser then reads like any other (so a record means nothing a sentence could not
say, and every check of the parser still applies). Only records made entirely of
known keys are read; a field whose key is not known makes the whole request a typed
refusal, never a guess. Text that is not a record is left to the parser as it is.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from netmend.malt import context
from netmend.malt import phrasing as P

# field separators: ";", "|", a line break, " / ", " -- "
_FIELDS = re.compile(r"\s*(?:;|\||\n|\s/\s|\s--\s)\s*")
# "key: value"; a key is words (no dots or digits: "ju1.a2: ..." is a headline, not a field),
# or a step's number ("step 2: ...")
_FIELD = re.compile(r"^((?i:step\s*\d+)|[A-Za-z][A-Za-z _-]{0,30}?)\s*:\s*(.*)$", re.DOTALL)
# a part that is no field: what to do, said as a phrase ("agg block: A; top 2 switches by
# port count"), or what to do next ("... -- then list the children of A")
_THEN_WORDS = ("then ", "and then ", "after that ", "afterwards ")

_ACTION = frozenset({"action", "op", "operation", "cmd", "command", "do"})
_TARGET = frozenset({"target", "targets", "node", "nodes", "object", "entity", "element",
                     "device"})
_PARENT = frozenset({"parent", "into", "under", "container", "parent node"})
_SCOPE = frozenset({"scope", "where", "within", "location", "in"})
_KIND = frozenset({"type", "kind", "node type", "node kind"})
_NAME = frozenset({"name", "new name", "new node", "label", "node name"})
_VALUE = frozenset({"value", "capacity", "physical capacity", "physical_capacity_bps",
                    "bandwidth", "speed", "new capacity", "new value", "set capacity"})
_ATTRIBUTE = frozenset({"attr", "attribute", "field", "property"})
_ORDER = frozenset({"order", "sort", "direction", "sort order"})
_BY = frozenset({"key", "by", "metric", "sort by", "rank by", "order by"})
_RETURN = frozenset({"return", "output", "result", "returns", "output needed",
                     "output required", "expected output", "expected result", "result needed",
                     "deliverable", "return value"})
# What to do, said as a phrase under a label of the request ("task: list child nodes").
_PHRASE_KEYS = frozenset({"task", "request", "ask", "change", "summary", "description",
                          "details", "todo", "to do", "job", "activity", "requested action",
                          "instruction", "instructions", "work", "work requested"})
# Fields of bookkeeping: who, when, why, which ticket. Set aside when their value can say
# nothing about what is asked (see :func:`_inert`).
_META = frozenset({"requested by", "requester", "requestor", "owner", "assignee", "assigned to",
                   "priority", "due", "due date", "deadline", "ticket", "ticket id", "ref",
                   "reference", "reason", "justification", "rationale", "notes", "note",
                   "comment", "comments", "approver", "approved by", "impact", "risk",
                   "category", "customer", "submitted by", "date", "cc", "contact", "sla",
                   "status", "case", "case id", "incident", "change id", "id", "team",
                   "business reason", "purpose", "context", "background", "urgency",
                   "severity", "from", "who", "raised by", "reported by", "opened by",
                   "created by", "filed by", "logged by", "asked by", "reporter", "author",
                   "labels", "tags", "component", "sprint", "epic", "milestone", "created",
                   "updated", "opened", "raised", "time", "timestamp", "shift", "state",
                   "story points", "estimate", "source", "channel", "watchers",
                   # a forum post's afterword: "EDIT: thanks all!", "PS: ..."
                   "edit", "ps"})
_THEN = frozenset({"then", "after", "afterwards", "next", "and then", "after that"})
# Which slot of the sentence each key fills.
_SLOT_OF = {key: slot for slot, keys in (
    ("place", _TARGET | _PARENT | _SCOPE), ("action", _ACTION), ("kind", _KIND), ("name", _NAME),
    ("value", _VALUE), ("attribute", _ATTRIBUTE), ("order", _ORDER), ("by", _BY),
    ("return", _RETURN)) for key in keys}
_VERBS = frozenset({"list", "show", "count", "get", "find", "rank", "remove", "delete", "add",
                    "set", "update"})
_STEP = re.compile(r"step\s*\d+")
_PHRASE = "phrase"  # the key of a part said as a phrase, not a field
_FOREACH = re.compile(r"(?:for ?each|for every)(?: (.+))?")
_CAPACITY_WORDS = frozenset({"capacity", "physical capacity", "physical capacity bps",
                             "bandwidth", "speed"})
_GRAPH_WORDS = frozenset({"graph", "topology", "network", "whole graph", "entire graph",
                          "whole topology", "entire topology", "whole network",
                          "entire network", "all", "everything"})


class RecordError(ValueError):
    """A record whose fields cannot be read; the message says which field and why."""


def _key(raw: str) -> str:
    return " ".join(raw.lower().replace("_", " ").replace("-", " ").split())


def _kind_of(key: str) -> str | None:
    """The entity kind a field key names ("switch", "agg block", "EK_PORT"), if any."""
    if key.upper().startswith("EK_"):
        return key.upper()
    found = P.KIND_WORDS.get(key)
    return found[0] if found else None


def split_fields(text: str) -> list[tuple[str, str]] | None:
    """The ``(key, value)`` fields of a record, in order; None when ``text`` is not one."""
    parts = [p for p in _FIELDS.split(text.strip().rstrip(".")) if p]
    if len(parts) < 2 and not (len(parts) == 1 and parts[0].count(":") == 1):
        return None
    fields = []
    phrases = dropped = 0
    for part in parts:
        match = _FIELD.match(part)
        if match is None:
            lowered = part.lower()
            then = next((w for w in _THEN_WORDS if lowered.startswith(w)), None)
            fields.append(("then", part[len(then):]) if then else (_PHRASE, part))
            phrases += then is None
            continue
        key, value = _key(match.group(1)), match.group(2).strip()
        if key in _META:
            if not _inert(value):
                raise RecordError(f"the field {key!r} says {value!r}, which may change what is "
                                  "asked (a node, a negation, a restriction or a test)")
            dropped += 1
            continue
        if key in _PHRASE_KEYS:
            key = _PHRASE
            phrases += 1
        fields.append((key, value))
    if dropped and len(fields) == phrases == 1:
        return fields  # "Request: count the ports in A | Due: Friday": the request alone
    if phrases > 1 or len(fields) == phrases + sum(1 for k, _ in fields if k == "then"):
        return None  # a record has fields; free phrases alone are sentences
    known = sum(1 for key, _ in fields if _known(key))
    if known == len(fields) >= 2:  # every key known, and at least two of them
        return fields
    if known == 0 or known == len(fields):  # no field known, or a lone "remove: X"
        return None
    key = next(k for k, _ in fields if not _known(k))
    raise RecordError(f"the field {key!r} is not one netmend reads in a request written as "
                      "fields")


def bookkeeping(text: str) -> list[str]:
    """The values of the fields of bookkeeping in ``text`` ("Priority: high", "Owner: dchen"),
    which :func:`split_fields` sets aside: the parser reads a request about a set after them
    only when they cannot say which of its nodes are meant."""
    values = []
    for part in _FIELDS.split(text.strip().rstrip(".")):
        match = _FIELD.match(part)
        if match is not None and _key(match.group(1)) in _META:
            values.append(match.group(2).strip())
    return values


# The last part of a sentence that is a field of bookkeeping: "... by capacity. Priority: P3".
_LAST_FIELD = re.compile(r"(?<=[.!?])\s+([A-Za-z][A-Za-z _-]{0,30}?)\s*:\s*([^.:\n]*)\.?\s*$")
# A markdown heading over the request's lines: "### Steps", "## Description".
_HEADING = re.compile(r"\s*#{1,6}\s+([A-Za-z][A-Za-z _-]{0,30}?)\s*:?\s*$")
# Fields that say what the request should come to: they may only say it again.
_OUTCOME = frozenset({"expected", "expected result", "expected outcome", "expected behaviour",
                      "expected behavior", "outcome", "done when"})
_OVER_LINES = _PHRASE_KEYS | {"steps"}


class SetApart(NamedTuple):
    """A request's lines without those of bookkeeping and the labels over its lines:
    ``request``; the bookkeeping values set apart (``values``), which may not pick out some
    of a set of nodes; and what the request should come to (``outcomes``), which may only
    say the request again."""

    request: str
    values: list[str]
    outcomes: list[str]


def set_apart(text: str) -> SetApart:
    """``text`` without its lines (and last part) that are fields of bookkeeping whose value
    can say nothing about what is asked ("Priority: P3", "Requested by: S. Haddad"), without
    a line that only labels the lines after it ("Description:", "### Steps"), and without a
    line that says what it should come to ("Expected: ..."); ``text`` itself, and nothing set
    apart, when there are none such."""
    kept: list[str] = []
    values: list[str] = []
    outcomes: list[str] = []
    lines = text.split("\n")
    for at, line in enumerate(lines):
        heading = _HEADING.fullmatch(line)
        if heading is not None and _key(heading.group(1)) in _OVER_LINES and at + 1 < len(lines):
            continue  # "### Steps" over the request's lines
        match = _FIELD.match(line.strip())
        if match is not None:
            key, value = _key(match.group(1)), match.group(2).strip()
            if key in _META and _inert(value):
                values.append(value)
                continue
            if key in _OUTCOME and value:
                outcomes.append(value)
                continue
            if key in _OVER_LINES and not value and at + 1 < len(lines):
                continue  # "Description:" over the request's lines
        kept.append(line)
    if kept:
        last = _LAST_FIELD.search(kept[-1])
        if last is not None and _key(last.group(1)) in _META and _inert(last.group(2)):
            values.append(last.group(2).strip())
            kept[-1] = kept[-1][:last.start()]
    if len(kept) == len(lines) and not values:
        return SetApart(text, [], [])
    return SetApart("\n".join(kept).strip(), values, outcomes)


def _inert(value: str) -> bool:
    """Whether a bookkeeping field's value can say nothing about what is asked: no node name
    (a word with a dot), and no word or phrase that says how, whether or which (a negation,
    an exception, a restriction, a test, a plan: ``P.HEDGES``, ``context.CARRIES``)."""
    words = re.findall(r"[\w.'-]+", value.lower())
    return P.phrased_hedge(words) is None and not any(
        "." in w.strip(".") or w in P.HEDGES or w in context.CARRIES for w in words)


def _known(key: str) -> bool:
    if key.startswith("then ") and _known(key[5:]):  # "then rank: the children of A"
        return True
    if key.split(" ")[0] in _VERBS or key == _PHRASE or _FOREACH.fullmatch(key):
        return True  # "add ports: A, B", "get capacity: S", "for each agg block: ..."
    return (key in _SLOT_OF or key in _THEN or _STEP.fullmatch(key) is not None
            or _kind_of(key) is not None)


def to_request(fields: list[tuple[str, str]]) -> str:
    """The English request a record stands for."""
    if all(_STEP.fullmatch(key) for key, _ in fields):
        return " ".join(f"Step {i}: {value.rstrip('.')}." for i, (_, value) in enumerate(fields, 1))
    slots: dict[str, str] = {}
    then: list[str] = []
    for key, value in fields:
        if key in _THEN or _STEP.fullmatch(key):
            then.append(value)
            continue
        if key.startswith("then ") and key[5:].split(" ")[0] in _VERBS:
            then.append(f"{key[5:]} {value}")
            continue
        each = _FOREACH.fullmatch(key)
        if each:  # "for each agg block: add a new port", "foreach: EK_AGG_BLOCK"
            key, value = "foreach", (f"{each.group(1)}: {value}" if each.group(1) else value)
        verb, _, extra = key.partition(" ")
        if extra and verb in _VERBS and _kind_of(key) is None:
            key, value = verb, (f"{extra} {value}" if P.LEXICON.get(verb, frozenset()) & {"ADD"}
                                else f"{extra}\x00{value}")
        kind = _kind_of(key)
        slot = "place" if kind is not None else _SLOT_OF.get(key, key)
        if "\x00" in value:  # "get capacity: switch S": the value is where
            what, _, where = value.partition("\x00")
            if "place" in slots:
                raise RecordError("the record says twice which node it is about")
            slots["place"], value = where, what
        if slot == "place" and kind is not None and not value.upper().startswith("EK_"):
            value = f"{key} {value}"
        if slot in slots:
            raise RecordError(f"the record says {slot!r} twice")
        slots[slot] = value
    if "attribute" in slots and _key(slots["attribute"]) not in _CAPACITY_WORDS:
        raise RecordError(f"the attribute {slots['attribute']!r} is not one netmend changes; "
                          "expected the capacity (physical_capacity_bps)")
    sentence = _sentence(slots)
    parts = [sentence, *then]
    if "return" in slots:
        parts.append(f"Return {slots['return']}")
    return ". ".join(p.rstrip(".") for p in parts) + "."


def _with_place(phrase: str, place: str) -> str:
    """The place after the phrase's head: "list all ports, any depth" + "in A" -> "list all
    ports in A, any depth"."""
    cut = min((i for i in (phrase.find(","), phrase.find("(")) if i >= 0), default=len(phrase))
    return f"{phrase[:cut].rstrip()} {place}{phrase[cut:]}".rstrip()


def _place(value: str, preposition: str) -> str:
    return "in the graph" if _key(value) in _GRAPH_WORDS else f"{preposition} {value}"


def _sentence(slots: dict[str, str]) -> str:
    if "foreach" in slots:
        what = slots.get(_PHRASE) or slots.get("action") or next(
            (f"{k} {v}" for k, v in slots.items() if k in _VERBS), "")
        each, _, inline = slots["foreach"].partition(": ")
        return f"for each {each}, {inline or what} to it"
    if _PHRASE in slots:  # what to do said as a phrase, the place as a field
        said = len(slots) - ("return" in slots)  # what it returns is checked by the parser
        if said > 2 or (said == 2 and "place" not in slots):
            raise RecordError("a phrase to do goes with at most one node field")
        if "place" not in slots:
            return slots[_PHRASE]
        return _with_place(slots[_PHRASE], _place(slots["place"], "in"))
    verbs = [key for key in slots if key in _VERBS]
    if len(verbs) > 1 or (verbs and "action" in slots):
        raise RecordError("the record says more than one thing to do")
    if verbs:
        verb, what = verbs[0], slots[verbs[0]]
    elif "action" in slots:
        verb, _, what = _key(slots["action"]).partition(" ")
    elif "value" in slots:
        verb, what = "set", ""
    elif "by" in slots:  # "scope: A; metric: mean port capacity": a value to read
        place = slots.get("place")
        return f"what is the {slots['by']} {_place(place, 'in')}" if place else \
            f"what is the {slots['by']}"
    else:
        raise RecordError("the record says nothing to do; expected an 'action' field")
    place = slots.get("place")
    category = P.LEXICON.get(verb, frozenset())
    if category & {"REMOVE"}:
        target = place or what
        if not target or (place and what):
            raise RecordError("a removal needs exactly one target")
        return f"remove {target}"
    if category & {"ADD"}:
        if place is None or ("name" not in slots and not what):
            raise RecordError("an addition needs a 'name' and a parent")
        if "name" not in slots:  # "add: switch sw2", "add ports: A, B"
            return f"add {what} to {place}"
        kind = slots.get("kind") or (what if what not in ("", "node") else "")
        return f"add {kind} {slots['name']} to {place}".replace("  ", " ")
    if category & {"SET"}:
        if place is None or "value" not in slots:
            raise RecordError("a capacity change needs a target and a 'value'")
        return f"set the capacity of {place} to {slots['value']}"
    if verb == "count":
        kind = slots.get("kind") or what
        kind = _kind_of(_key(kind)) or kind  # "kind: port" -> EK_PORT
        return f"count the {kind} {_place(place, 'in')}" if place else f"count the {kind}"
    if category & {"ASK", "RANK", "COUNT"} or verb in _VERBS:
        what, _, by = what.partition(" by ")  # "rank children by capacity": the place goes
        if by:                                # after "children"
            if "by" in slots:
                raise RecordError("the record says twice what to rank by")
            slots = {**slots, "by": by}
        sentence = f"{verb} {what}".strip()
        if place is not None:
            sentence = _with_place(sentence, _place(place, "of"))
        if "by" in slots:
            sentence += f" by {slots['by']}"
        if "order" in slots:
            sentence += f", {slots['order']}"
        return sentence
    raise RecordError(f"the action {slots.get('action', verb)!r} is not one netmend knows")
