"""Check a parsed request against a known topology before anything runs.

Without a topology (for example over A2A) the emitted code copes with
missing names exactly as the reference does; with one, a name that is not
there is an error, never a silent no-op.

The steps are checked in order, each against the topology as the steps before
it leave it: a name an earlier step removes is free for a later addition, and
a node an earlier step adds exists for a later step. What a change leaves is
not worked out here but by running it: each change step goes through
:func:`netmend.malt.runtime.run_plan` (the one implementation the executor and
the emitted code share) over a copy of the topology.
"""

from __future__ import annotations

import networkx as nx

from netmend.malt import ir
from netmend.malt import kinds as K
from netmend.malt.parser import Parsed, QueryError, UnknownName
from netmend.malt.runtime import run_plan


def _kinds_by_name(graph: nx.Graph) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for _, attrs in graph.nodes(data=True):
        name = attrs.get("name")
        if isinstance(name, str) and name not in found:
            found[name] = K.kinds_of(attrs)
    return found


def validate(parsed: Parsed, graph: nx.Graph) -> None:
    """Raise :class:`UnknownName` or :class:`QueryError` when the request does not fit ``graph``."""
    given = known = seen = _kinds_by_name(graph)
    steps = parsed.query.steps
    model = None  # the topology as the steps so far leave it (a copy, made when needed)
    places = _check_places(parsed.places, graph, known)
    for at, step in enumerate(steps):
        _check(step, given, known)
        if isinstance(step, ir.MUTATIONS) and at < len(steps) - 1:
            if model is None:
                model = graph.copy()
            run_plan(model, (step.literal(),))
            known = _kinds_by_name(model)
            # A kind before a name is checked against the node the name first stood for.
            seen = {**known, **seen}
            places = _check_places(places, model, known)
    for name, kind in parsed.qualifiers:
        if name in seen and kind not in seen[name]:
            raise QueryError(f"{name!r} is a {'/'.join(seen[name])}, not a {kind}",
                             expected=f"the name of a {kind}, or no kind before the name")


def _check_places(places: tuple[tuple[str, str], ...], graph: nx.Graph,
                  known: dict[str, list[str]]) -> tuple[tuple[str, str], ...]:
    """Raise when a node of ``places`` that ``graph`` has is not inside the container the text
    says ("S, which sits in agg block A"); the places of nodes it does not have yet, left to
    check once a step adds them. Above a node is what the runtime finds above it."""
    pending = []
    for name, container in places:
        if name not in known:
            pending.append((name, container))
            continue
        above = run_plan(graph, (ir.ListNodes(ir.Select(name, axis="ancestors")).literal(),))
        if container not in above["data"]:
            raise QueryError(f"{name!r} is not inside {container!r}",
                             expected=f"the place of {name!r} as the topology has it, or no "
                             "place said")
    return tuple(pending)


def _check(step: ir.Step, given: dict[str, list[str]], known: dict[str, list[str]]) -> None:
    """Raise when ``step`` does not fit ``known`` (the names the steps before it leave).

    ``given`` is the topology before any step: a for-each loop runs over it."""
    if isinstance(step, ir.Add):
        if step.name in known:
            raise QueryError(f"a node named {step.name!r} already exists",
                             expected="a new, unused name for the node to add")
        _require(step.parent, known)
    elif isinstance(step, (ir.Remove, ir.Update)):
        _require(step.name, known)
        if isinstance(step, ir.Update) and K.PORT not in known[step.name]:
            raise QueryError(f"{step.name!r} is not a port, so it has no capacity",
                             expected="the name of a port (EK_PORT)")
    elif isinstance(step, (ir.ListChildren, ir.Rank)):
        _require(step.parent, known)
    elif isinstance(step, ir.Count) and step.container is not None:
        _require(step.container, known)
    elif isinstance(step, ir.CapacityOf):
        _require(step.name, known)
        if not step.total and not {K.PORT, K.PACKET_SWITCH} & set(known[step.name]):
            raise QueryError(
                f"{step.name!r} is a {'/'.join(known[step.name]) or 'node'}: capacity is a "
                "port's attribute (a switch's is its ports' total), so it has none of its "
                "own", expected="'what is the total capacity of <node name>' (every port "
                "below it) or the capacity of a port or switch")
    elif isinstance(step, (ir.ListNodes, ir.Aggregate, ir.Top, ir.RemoveAll, ir.UpdateAll)):
        for name in step.nodes.roots:
            _require(name, known)
        if isinstance(step, ir.Top):
            _rankable(step.nodes, known)
    elif isinstance(step, ir.ForEachAdd) and not any(
        kinds and kinds[0] == step.parent_kind for kinds in given.values()
    ):
        raise QueryError(f"the topology has no {step.parent_kind}",
                         expected="a kind of node the topology has")


def _rankable(nodes: ir.Select, known: dict[str, list[str]]) -> None:
    """Raise when a ranking is over a kind its place can never hold ("count the switches in
    agg block A per rack": no rack is inside an agg block, on the MALT hierarchy): what it
    ranks is always nothing, so it cannot be what was meant (the racks that hold A's
    switches)."""
    if nodes.root is None or nodes.kind is None or nodes.axis != "descendants":
        return
    kinds = known[nodes.root]
    if kinds and not any(nodes.kind in K.held_by(kind) for kind in kinds):
        raise QueryError(
            f"{nodes.root!r} is a {'/'.join(kinds)}, which never holds a {nodes.kind} (on the "
            f"MALT hierarchy), so a ranking of the {nodes.kind} in it ranks nothing",
            expected=f"a ranking of a kind {nodes.root!r} holds")


def _require(name: str, known: dict[str, list[str]]) -> None:
    if name not in known:
        close = sorted(n for n in known if n.startswith(name.rsplit(".", 1)[0]))[:3]
        hint = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
        raise UnknownName(f"no node is named {name!r}{hint}",
                          expected="the name of a node in the topology")
