"""A query said back in netmend's own plain English.

:func:`say` writes a :class:`~netmend.malt.ir.Query` as the request netmend reads it
("Remove ju1.a1.m1.s2c1 from the graph. Count the switches in ju1.a1.m1."), so an
operator sees what a freely phrased request was taken to mean before trusting the answer.
:func:`plain` gives that text only when reading it back yields the same query, which is
what a suggestion must be: a request that, sent as it is, asks exactly that.

Pure: names, kinds and numbers in, text out; the reading back is the caller's parser.
"""

from __future__ import annotations

from collections.abc import Callable

from netmend.malt import ir
from netmend.malt import kinds as K

# A kind as a request names it, and its plural; kinds with no word of their own are said
# by their EK_ name, which the grammar reads as it reads the words.
_WORD = {K.PACKET_SWITCH: ("switch", "switches"), K.PORT: ("port", "ports"),
         K.AGG_BLOCK: ("agg block", "agg blocks"), K.RACK: ("rack", "racks"),
         K.SUPERBLOCK: ("superblock", "superblocks"),
         K.SPINEBLOCK: ("spine block", "spine blocks"),
         K.CONTROL_DOMAIN: ("control domain", "control domains")}
_GBPS, _MBPS = 10**9, 10**6
_OPS = {"<": "below", "<=": "at most", ">": "above", ">=": "at least", "==": "equal to"}
_NAME_MATCHES = {"contains": "contains", "prefix": "starts with", "suffix": "ends with"}
_AGGREGATES = {"sum": "total", "min": "lowest", "max": "highest", "average": "average"}


def _one(kind: str) -> str:
    return _WORD.get(kind, (kind, kind))[0]


def _many(kind: str | None) -> str:
    return "nodes" if kind is None else _WORD.get(kind, (kind, kind))[1]


def _rate(value: int | float) -> str:
    """A capacity as written: in Gbps or Mbps when it is a whole number of them."""
    try:
        for unit, name in ((_GBPS, "Gbps"), (_MBPS, "Mbps")):
            if value and value % unit == 0:
                return f"{int(value // unit)} {name}"
        return str(value)
    except ValueError:  # more digits than Python writes out
        return f"a number of {value.bit_length()} bits"


def _listing(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _filters(select: ir.Select) -> str:
    said = []
    for f in select.filters:
        if isinstance(f, ir.NameLike):
            said.append(f"whose name {_NAME_MATCHES[f.mode]} {f.text}")
        elif f.metric.name == "capacity":
            said.append(f"with capacity {_OPS[f.op]} {_rate(f.value)}")
        else:
            said.append(f"with {_OPS[f.op]} {_rate(f.value)} {_many(f.metric.kind)}")
    return "".join(" " + part for part in said)


def _nodes(select: ir.Select, what: str | None = None) -> str:
    """The set: "the ports in ju1.a1.m1.s2c1 with capacity below 10 Gbps"; ``what`` names
    its nodes in place of their kind ("3 switches", "switch")."""
    what = what or _many(select.kind)
    if select.axis == "named":
        return _listing(select.names) + _filters(select)
    if select.root is None:
        place = " in the graph"
    elif select.axis == "descendants":
        place = f" in {select.root}"
    elif select.axis == "children":
        place = f" directly under {select.root}"
    elif select.axis == "parents":
        return f"the parent {'nodes' if select.kind is None else _one(select.kind)} of " \
            f"{select.root}{_filters(select)}"
    else:
        place = f" above {select.root}"
    return f"the {what}{place}{_filters(select)}"


def _measure(metric: ir.Metric) -> str:
    """What a metric measures: "total capacity", or the kind it counts ("ports")."""
    return "total capacity" if metric.name == "capacity" else _many(metric.kind)


def _metric(metric: ir.Metric, descending: bool) -> str:
    """A metric at its top or bottom: "highest total capacity", "fewest ports"."""
    top, bottom = ("highest", "lowest") if metric.name == "capacity" else ("most", "fewest")
    return f"{top if descending else bottom} {_measure(metric)}"


def _step(step: ir.Step) -> str:
    if isinstance(step, ir.Add):
        return f"Add a new {_one(step.kind)} named {step.name} to {step.parent}."
    if isinstance(step, ir.Remove):
        return f"Remove {step.name} from the graph."
    if isinstance(step, ir.Update):
        return f"Set the capacity of {step.name} to {_rate(step.value)}."
    if isinstance(step, ir.ForEachAdd):
        return f"Add a new {_one(step.kind)} to every {_one(step.parent_kind)}."
    if isinstance(step, ir.RemoveAll):
        return f"Remove every one of {_nodes(step.nodes)}."
    if isinstance(step, ir.UpdateAll):
        return f"Set the capacity of every one of {_nodes(step.nodes)} to {_rate(step.value)}."
    if isinstance(step, ir.Count):
        where = "the graph" if step.container is None else step.container
        return f"Count the {_many(step.kind)} in {where}."
    if isinstance(step, ir.ListChildren):
        return f"List the child nodes of {step.parent}."
    if isinstance(step, ir.Rank):
        order = "" if step.descending else ", lowest first"
        return f"Rank the child nodes of {step.parent} by capacity{order}."
    if isinstance(step, ir.CapacityOf):
        return f"What is the {'total ' if step.total else ''}capacity of {step.name}?"
    if isinstance(step, ir.ListNodes):
        if step.nodes.axis == "ancestors" and step.nodes.kind and not step.nodes.filters:
            return f"Which {_one(step.nodes.kind)} contains {step.nodes.root}?"
        return f"List {_nodes(step.nodes)}."
    if isinstance(step, ir.Aggregate):
        if step.function == "count":
            return f"Count {_nodes(step.nodes)}."
        return f"What is the {_AGGREGATES[step.function]} capacity of {_nodes(step.nodes)}?"
    if isinstance(step, ir.Top):
        if step.limit is None:
            return f"Rank {_nodes(step.nodes)} by {_measure(step.metric)}" + (
                "." if step.descending else ", lowest first.")
        what = _one(step.nodes.kind) if step.limit == 1 else f"{step.limit} {_many(step.nodes.kind)}"
        return f"List {_nodes(step.nodes, what)} with the {_metric(step.metric, step.descending)}."
    raise TypeError(f"not a step of a query: {step!r}")


def say(query: ir.Query) -> str:
    """The query as netmend's plain English, one sentence per step."""
    return " ".join(_step(step) for step in query.steps)


def plain(query: ir.Query, read: Callable[[str], ir.Query]) -> str | None:
    """:func:`say` of ``query`` when ``read`` (the parser) reads it back as exactly that
    query; None when the plain English would ask something else or is refused."""
    text = say(query)
    try:
        return text if read(text) == query else None
    except ValueError:  # a refusal (QueryError is a ValueError)
        return None
