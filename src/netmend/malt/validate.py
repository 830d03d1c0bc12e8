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
    holds = _kinds_held(graph)
    for at, step in enumerate(steps):
        _check(step, given, known, holds)
        if isinstance(step, ir.MUTATIONS) and at < len(steps) - 1:
            if model is None:
                model = graph.copy()
            run_plan(model, (step.literal(),))
            known, holds = _kinds_by_name(model), _kinds_held(model)
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


def _check(step: ir.Step, given: dict[str, list[str]], known: dict[str, list[str]],
           holds: set[tuple[str, str, str]]) -> None:
    """Raise when ``step`` does not fit ``known`` (the names the steps before it leave).

    ``given`` is the topology before any step: a for-each loop runs over it; ``holds``,
    which kinds hold which in it (:func:`_kinds_held`)."""
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
        if isinstance(step, (ir.ListNodes, ir.Top)):
            _held(step.nodes.root, step.nodes.kind, step.nodes.axis, known, holds)
    elif isinstance(step, ir.ForEachAdd) and not any(
        kinds and kinds[0] == step.parent_kind for kinds in given.values()
    ):
        raise QueryError(f"the topology has no {step.parent_kind}",
                         expected="a kind of node the topology has")


def _held(root: str | None, kind: str | None, axis: str, known: dict[str, list[str]],
          holds: set[tuple[str, str, str]]) -> None:
    """Raise when a list or a ranking is of a kind that no node of its place's kind holds
    anywhere in the topology ("the agg blocks under port P", "port P, which agg block?",
    "count the switches in agg block A per rack"): it is always empty, so it cannot be what
    was meant (the agg block that contains P; the racks that hold A's switches). A count or
    a total of such a set stays answered (none, as NetArena's counts are). ``holds``: (kind,
    kind held, axis) as :func:`_kinds_held` finds them."""
    if root is None or kind is None or axis not in ("descendants", "children"):
        return
    kinds = known[root]
    if kinds and not any((k, kind, axis) in holds for k in kinds):
        below = "directly below it" if axis == "children" else "below it"
        raise QueryError(
            f"{root!r} is a {'/'.join(kinds)}, and no {'/'.join(kinds)} in the topology holds "
            f"a {kind} {below}, so that set is always empty",
            expected=f"a kind {root!r} holds, or 'which {kind} contains {root}' for the one "
            "above it")


def _kinds_held(graph: nx.Graph) -> set[tuple[str, str, str]]:
    """(kind, kind held, "children" or "descendants") for every pair of kinds where a node of
    the first holds one of the second in ``graph`` (over RK_CONTAINS), directly or at any
    depth."""
    kinds = {n: K.kinds_of(attrs) for n, attrs in graph.nodes(data=True)}
    direct = {(a, b) for u, v, data in graph.edges(data=True)
              if data.get("type") == K.CONTAINS for a in kinds[u] for b in kinds[v]}
    deep = set(direct)
    while True:
        more = {(a, d) for a, b in deep for c, d in direct if b == c} - deep
        if not more:
            break
        deep |= more
    return {(a, b, "children") for a, b in direct} | {(a, b, "descendants") for a, b in deep}


def _require(name: str, known: dict[str, list[str]]) -> None:
    if name not in known:
        close = sorted(n for n in known if n.startswith(name.rsplit(".", 1)[0]))[:3]
        hint = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
        raise UnknownName(f"no node is named {name!r}{hint}",
                          expected="the name of a node in the topology")
