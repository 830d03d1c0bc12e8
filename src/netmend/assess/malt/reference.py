"""Reference semantics of the MALT ground truth, restated independently.

The NetArena evaluator computes every expected answer with six helper
functions and puts the same six into the namespace the participant's code runs
in. This module restates their behaviour, quirks included, under the names the
participant may call:

- a new node's id is the integer ``len(graph) + 1`` and its ``type`` a plain
  string; a port gets ``physical_capacity_bps = 1000``;
- a new switch also gets a port child named after the Python repr of the
  request dict plus ``.p1``;
- names are looked up as the FIRST node (in node order) whose ``name``
  attribute matches; an unknown name is a silent no-op (or an empty answer);
- counting below a container is a breadth-first walk over ``RK_CONTAINS``
  edges that counts every edge reaching a node of the wanted kind;
- ``in`` tests on ``type`` work on lists (membership) and strings (substring).

A reference *program* is a tuple of frozen steps; :func:`run_program` executes
one the way the evaluator executes its ground-truth function: helpers and the
graph are taken from a namespace, so the same code serves the pristine case and
the case where a participant disturbed that namespace.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import networkx as nx

CONTAINS = "RK_CONTAINS"
PORT = "EK_PORT"
SWITCH = "EK_PACKET_SWITCH"
CAPACITY = "physical_capacity_bps"
NEW_PORT_CAPACITY = 1000


_PLAIN = (nx.Graph, nx.DiGraph)


def _node_attrs(graph: Any) -> Any:
    """``node -> attribute dict`` for lookups: the dict itself for plain graphs (fast)."""
    return graph._node if type(graph) in _PLAIN else graph.nodes


def _first_named(graph: Any, name: Any) -> Any:
    """Id of the first node, in node order, whose ``name`` attribute equals ``name``, else None."""
    pairs = graph._node.items() if type(graph) in _PLAIN else graph.nodes(data=True)
    for node, attrs in pairs:
        if attrs.get("name") == name:
            return node
    return None


def solid_step_add_node_to_graph(graph_data, new_node, parent_node_name=None):
    """Add ``new_node`` (a dict with ``name`` and ``type``) under a parent.

    Mutates and returns ``graph_data`` and, like the original, ``new_node``.

    Examples
    --------
    >>> g = nx.DiGraph(); g.add_node('sw', name='sw', type=['EK_PACKET_SWITCH'])
    >>> g = solid_step_add_node_to_graph(g, {'name': 'p', 'type': 'EK_PORT'}, 'sw')
    >>> g.nodes[2], list(g.edges(data=True))
    ({'name': 'p', 'type': 'EK_PORT', 'physical_capacity_bps': 1000}, [('sw', 2, {'type': 'RK_CONTAINS'})])
    """
    new_id = len(graph_data.nodes) + 1
    if PORT in new_node["type"]:
        new_node[CAPACITY] = NEW_PORT_CAPACITY
    attrs = {"name": new_node["name"], "type": new_node["type"]}
    if CAPACITY in new_node:
        attrs[CAPACITY] = new_node[CAPACITY]
    if new_node["type"] == SWITCH:
        # The port's name is the repr of the request dict: a quirk of the
        # original that correctness (exact node attributes) depends on.
        port_id = len(graph_data.nodes) + 2
        graph_data.add_node(new_id, **attrs)
        graph_data.add_node(
            port_id, name=f"{new_node}.p1", type=PORT, **{CAPACITY: NEW_PORT_CAPACITY}
        )
        graph_data.add_edge(new_id, port_id, type=CONTAINS)
    graph_data.add_node(new_id, **attrs)
    if parent_node_name:
        parent = _first_named(graph_data, parent_node_name)
        if parent is not None:
            graph_data.add_edge(parent, new_id, type=CONTAINS)
    return graph_data


def solid_step_remove_node_from_graph(graph_data, node_name):
    """Remove the first node named ``node_name`` with its edges (children stay).

    >>> g = nx.DiGraph([('a', 'b')]); nx.set_node_attributes(g, {'a': 'a', 'b': 'b'}, 'name')
    >>> list(solid_step_remove_node_from_graph(g, 'a').nodes), len(solid_step_remove_node_from_graph(g, 'x'))
    (['b'], 1)
    """
    node = _first_named(graph_data, node_name)
    if node is not None:
        graph_data.remove_node(node)
    return graph_data


def solid_step_counting_query(graph_data, node1, node2=None):
    """Count nodes of ``node2['type']`` below ``node1``, or of ``node1['type']`` overall.

    Below a container the walk is breadth-first over ``RK_CONTAINS`` edges and
    counts every edge that reaches a node of the wanted kind. An unknown
    container yields ``{name: 'not found'}``; a falsy, non-None ``node2``
    yields None (both as in the original).
    """
    if node2 is None:
        wanted = node1["type"]
        return sum(1 for _, attrs in graph_data.nodes(data=True) if wanted in attrs["type"])
    if not node2:
        return None
    start = _first_named(graph_data, node1["name"])
    if start is None:
        return {node1["name"]: "not found"}
    nodes = _node_attrs(graph_data)
    count = 0
    queue = [start]
    head = 0
    seen: set = set()
    while head < len(queue):
        current = queue[head]
        head += 1
        if current in seen:
            continue
        seen.add(current)
        for _, child, edge in graph_data.out_edges(current, data=True):
            if edge["type"] == CONTAINS:
                if node2["type"] in nodes[child]["type"]:
                    count += 1
                queue.append(child)
    return count


def solid_step_list_child_nodes(graph_data, parent_node):
    """Names of the direct ``RK_CONTAINS`` children of ``parent_node['name']``, in edge order."""
    parent = _first_named(graph_data, parent_node["name"])
    if parent is None:
        return []
    nodes = _node_attrs(graph_data)
    return [
        nodes[child]["name"]
        for _, child, edge in graph_data.out_edges(parent, data=True)
        if edge["type"] == CONTAINS
    ]


def solid_step_update_node_value(graph_data, child_node_name, new_value):
    """Set ``physical_capacity_bps`` of a named port.

    An unknown name returns the tuple ``(graph_data, name, value)``, as the
    original does; a node that is not a port is left unchanged.
    """
    node = _first_named(graph_data, child_node_name)
    if node is None:
        return graph_data, child_node_name, new_value
    if PORT in graph_data.nodes[node]["type"]:
        graph_data.nodes[node][CAPACITY] = new_value
    return graph_data


def solid_step_rank_child_nodes(graph_data, parent_node_name):
    """``(name, total capacity)`` of each direct child, highest first (stable).

    A child's total is its own capacity if it is a port plus the capacities of
    its direct port children.
    """
    parent = _first_named(graph_data, parent_node_name)
    if parent is None:
        return []
    nodes = _node_attrs(graph_data)
    totals = []
    for _, child, edge in graph_data.out_edges(parent, data=True):
        if edge["type"] != CONTAINS:
            continue
        child_attrs = nodes[child]
        total = child_attrs.get(CAPACITY, 0) if PORT in child_attrs["type"] else 0
        for _, grandchild, child_edge in graph_data.out_edges(child, data=True):
            if child_edge["type"] == CONTAINS:
                grand_attrs = nodes[grandchild]
                if PORT in grand_attrs["type"]:
                    total += grand_attrs.get(CAPACITY, 0)
        totals.append((child_attrs, total))
    totals.sort(key=lambda pair: pair[1], reverse=True)
    return [(attrs["name"], total) for attrs, total in totals]


HELPERS: dict[str, Callable[..., Any]] = {
    "solid_step_add_node_to_graph": solid_step_add_node_to_graph,
    "solid_step_counting_query": solid_step_counting_query,
    "solid_step_remove_node_from_graph": solid_step_remove_node_from_graph,
    "solid_step_list_child_nodes": solid_step_list_child_nodes,
    "solid_step_update_node_value": solid_step_update_node_value,
    "solid_step_rank_child_nodes": solid_step_rank_child_nodes,
}
"""The six helpers by the names the evaluator's namespace binds them to."""


def evaluator_namespace(graph: nx.Graph) -> dict[str, Any]:
    """A fresh namespace like the one the evaluator execs participant code in."""
    return {"G": graph, "copy": copy, "nx": nx, "json": json, **HELPERS}


# --- reference programs -------------------------------------------------------


@dataclass(frozen=True)
class Add:
    """Add a node ``{'name': name, 'type': kind}`` under ``parent``."""

    name: str
    kind: str
    parent: str


@dataclass(frozen=True)
class Remove:
    """Remove the first node called ``name``."""

    name: str


@dataclass(frozen=True)
class Update:
    """Set a port's capacity."""

    name: str
    value: int


@dataclass(frozen=True)
class Count:
    """Count ``kind`` below ``container`` (of ``container_kind``), or overall when None."""

    kind: str
    container: str | None = None
    container_kind: str | None = None


@dataclass(frozen=True)
class ListChildren:
    """Names of the direct children of ``parent``."""

    parent: str
    parent_kind: str


@dataclass(frozen=True)
class Rank:
    """Direct children of ``parent`` ranked by total port capacity."""

    parent: str


# --- the families beyond NetArena's six helpers -------------------------------
#
# NetArena's generator has no ground truth for these; they are netmend's own,
# stated here from their definitions, with networkx doing the graph work:
#
# - a node set is what one RK_CONTAINS edge (``children``, ``parents``) or any
#   chain of them (``descendants``, ``ancestors``) reaches from the first node
#   named ``root`` (every node when ``root`` is None), the root itself never
#   included, in breadth-first order (graph order for the whole graph); then
#   only nodes whose ``type`` holds ``kind``; then the filters;
# - a node's capacity is its own ``physical_capacity_bps`` if it is a port plus
#   that of every port it contains at any depth, summed smallest first (a
#   missing or empty capacity counts 0); a count metric is how many nodes of a
#   kind it contains at any depth, each once;
# - sums and averages add the capacities smallest first; an empty set has sum 0
#   and no minimum, maximum or average (None);
# - a top-k list holds ``(name, value)`` pairs, highest value first (lowest for
#   an ascending one), equal values in the set's order;
# - set changes pick the whole set first, then remove every member (or set the
#   capacity of every port in it).


@dataclass(frozen=True)
class Nodes:
    """A node set; ``filters`` are ``('capacity'|('count', kind), op, value)`` or
    ``('name', 'contains'|'prefix'|'suffix', text)`` tuples. With axis ``named`` the set is
    the first node called each of ``root`` (a tuple of names), in that order, each once."""

    root: str | tuple[str, ...] | None
    kind: str | None
    axis: str = "descendants"
    filters: tuple = ()


@dataclass(frozen=True)
class ListNodes:
    """Names of the nodes of a set."""

    nodes: Nodes


@dataclass(frozen=True)
class CapacityOf:
    """The capacity of the first node called ``name`` (None when there is none).

    Without ``total`` only a port (its attribute) or a packet switch (its ports'
    sum) has one; anything else answers None.
    """

    name: str
    total: bool = False


@dataclass(frozen=True)
class Aggregate:
    """``sum``, ``min``, ``max``, ``average`` of the capacity over a set, or its ``count``."""

    function: str
    nodes: Nodes


@dataclass(frozen=True)
class TopK:
    """The ``k`` members with the highest (``descending``) or lowest metric, with their values."""

    nodes: Nodes
    metric: str | tuple = "capacity"  # or ("count", kind)
    k: int | None = None
    descending: bool = True


@dataclass(frozen=True)
class RemoveNodes:
    """Remove every node of a set."""

    nodes: Nodes


@dataclass(frozen=True)
class SetCapacities:
    """Set the capacity of every port of a set."""

    nodes: Nodes
    value: int | float


Step = (Add | Remove | Update | Count | ListChildren | Rank | ListNodes | CapacityOf | Aggregate
        | TopK | RemoveNodes | SetCapacities)
MUTATIONS = (Add, Remove, Update, RemoveNodes, SetCapacities)
_TEXT_ANSWERS = (Count, CapacityOf, Aggregate)


def answer_type(program: tuple[Step, ...]) -> str:
    """``graph`` for a program of mutations only; else ``text`` (a count or a value) or ``list``."""
    last = program[-1]
    if isinstance(last, MUTATIONS):
        return "graph"
    return "text" if isinstance(last, _TEXT_ANSWERS) else "list"


def _holds(attrs: Mapping, kind: str) -> bool:
    value = attrs.get("type")
    return bool(value) and kind in value


def _containment(graph: Any) -> Any:
    """The graph restricted to its RK_CONTAINS edges (a view)."""
    return nx.subgraph_view(graph, filter_edge=lambda a, z: graph[a][z].get("type") == CONTAINS)


_AXES = {"children": (False, 1), "descendants": (False, None), "parents": (True, 1),
         "ancestors": (True, None)}


def _reached(graph: Any, start: Any, axis: str) -> list:
    """The nodes ``axis`` reaches from ``start`` over RK_CONTAINS, breadth first."""
    if axis not in _AXES:
        raise ValueError(f"unknown axis {axis!r}")
    reverse, depth = _AXES[axis]
    edges = nx.bfs_edges(_containment(graph), start, reverse=reverse, depth_limit=depth)
    return [found for _, found in edges if found != start]


def node_capacity(graph: Any, node: Any) -> Any:
    """A port's own capacity plus the capacity of every port below ``node``."""
    members = {node, *_reached(graph, node, "descendants")}
    nodes = graph.nodes
    return sum(sorted(nodes[n].get(CAPACITY) or 0 for n in members if _holds(nodes[n], PORT)))


def node_metric(graph: Any, node: Any, metric: Any) -> Any:
    """``capacity`` or ``('count', kind)`` of one node."""
    if metric == "capacity":
        return node_capacity(graph, node)
    _, kind = metric
    return sum(1 for n in _reached(graph, node, "descendants") if _holds(graph.nodes[n], kind))


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b,
}


def _keeps(graph: Any, node: Any, rule: tuple) -> bool:
    if rule[0] == "name":
        _, mode, text = rule
        name = graph.nodes[node].get("name")
        if not isinstance(name, str):
            return False
        return {"contains": text in name, "prefix": name.startswith(text),
                "suffix": name.endswith(text)}[mode]
    metric, op, value = rule
    return _COMPARE[op](node_metric(graph, node, metric), value)


def node_set(graph: Any, nodes: Nodes) -> list:
    """The members of ``nodes``, in breadth-first order (graph order for the whole graph)."""
    if nodes.axis == "named":
        found = (_first_named(graph, name) for name in nodes.root)
        members = list(dict.fromkeys(n for n in found if n is not None))
    elif nodes.root is None:
        members = list(graph.nodes)
    else:
        start = _first_named(graph, nodes.root)
        members = [] if start is None else _reached(graph, start, nodes.axis)
    if nodes.kind is not None:
        members = [n for n in members if _holds(graph.nodes[n], nodes.kind)]
    return [n for n in members if all(_keeps(graph, n, rule) for rule in nodes.filters)]


def aggregate(graph: Any, function: str, nodes: Nodes) -> Any:
    members = node_set(graph, nodes)
    if function == "count":
        return len(members)
    values = sorted(node_capacity(graph, n) for n in members)
    if function == "sum":
        return sum(values)
    if not values:
        return None
    if function == "average":
        return sum(values) / len(values)
    return {"min": values[0], "max": values[-1]}[function]


def top_k(graph: Any, step: TopK) -> list[tuple]:
    pairs = [(graph.nodes[n].get("name"), node_metric(graph, n, step.metric))
             for n in node_set(graph, step.nodes)]
    pairs.sort(key=lambda pair: pair[1], reverse=step.descending)
    return pairs if step.k is None else pairs[: step.k]


def _apply_own(step: Step, graph: Any) -> Any:
    """Run one of the steps beyond the six helpers; returns its answer (or the graph)."""
    if isinstance(step, ListNodes):
        return [graph.nodes[n].get("name") for n in node_set(graph, step.nodes)]
    if isinstance(step, CapacityOf):
        node = _first_named(graph, step.name)
        attrs = None if node is None else graph.nodes[node]
        if attrs is None or not (step.total or _holds(attrs, PORT) or _holds(attrs, SWITCH)):
            return None
        return node_capacity(graph, node)
    if isinstance(step, Aggregate):
        return aggregate(graph, step.function, step.nodes)
    if isinstance(step, TopK):
        return top_k(graph, step)
    if isinstance(step, RemoveNodes):
        graph.remove_nodes_from(node_set(graph, step.nodes))
        return graph
    if isinstance(step, SetCapacities):
        for node in node_set(graph, step.nodes):
            if _holds(graph.nodes[node], PORT):
                graph.nodes[node][CAPACITY] = step.value
        return graph
    raise TypeError(f"unknown reference step {step!r}")


def apply_steps(
    program: tuple[Step, ...], graph: Any, helpers: Mapping[str, Callable[..., Any]] = HELPERS
) -> dict[str, Any]:
    """Run ``program`` on ``graph`` (mutated in place) with the given helpers.

    Returns the evaluator's ground-truth object ``{'type': ..., 'data': ...}``;
    for a graph answer ``data`` is the (mutated) graph itself.
    """
    data: Any = None
    for step in program:
        if isinstance(step, Add):
            graph = helpers["solid_step_add_node_to_graph"](
                graph, {"name": step.name, "type": step.kind}, step.parent
            )
            data = graph
        elif isinstance(step, Remove):
            graph = helpers["solid_step_remove_node_from_graph"](graph, step.name)
            data = graph
        elif isinstance(step, Update):
            graph = helpers["solid_step_update_node_value"](graph, step.name, step.value)
            data = graph
        elif isinstance(step, Count):
            if step.container is None:
                data = helpers["solid_step_counting_query"](graph, {"type": step.kind, "name": None})
            else:
                data = helpers["solid_step_counting_query"](
                    graph,
                    {"type": step.container_kind, "name": step.container},
                    {"type": step.kind, "name": None},
                )
        elif isinstance(step, ListChildren):
            data = helpers["solid_step_list_child_nodes"](
                graph, {"type": step.parent_kind, "name": step.parent}
            )
        elif isinstance(step, Rank):
            data = helpers["solid_step_rank_child_nodes"](graph, step.parent)
        else:
            data = _apply_own(step, graph)
    return {"type": answer_type(program), "data": data}


def run_program(
    program: tuple[Step, ...],
    namespace: Mapping[str, Any],
    graph_copy: Callable[[Any], Any] | None = None,
) -> dict[str, Any]:
    """Run ``program`` the way the evaluator runs its ground truth in ``namespace``.

    The helpers and ``G`` come from ``namespace``; the program works on
    ``namespace['copy'].deepcopy(G)`` unless ``graph_copy`` (a proven
    equivalent) is given.
    """
    source = namespace["G"]
    graph = graph_copy(source) if graph_copy is not None else namespace["copy"].deepcopy(source)
    return apply_steps(program, graph, namespace)


# --- running a program on a shared graph without copying it --------------------


@contextmanager
def applied(program: tuple[Step, ...], graph: Any) -> Iterator[dict[str, Any] | None]:
    """Run ``program`` on ``graph`` as if on a deep copy, and restore ``graph`` after.

    Yields the ground-truth object, valid only inside the ``with`` block (a
    graph answer may be ``graph`` itself or a view of it), or None when no
    copy-free route is proven exact for this program; the caller then copies.

    The copy-free routes and why they are exact:

    - read-only steps: the helpers that answer them never write;
    - a leading removal: on a plain DiGraph the node is removed and every
      dict it touched is refilled afterwards in its saved order; on other
      graphs ``nx.restricted_view`` hides the node, which shows the read-only
      helpers the other nodes and adjacencies in the order a copy would have;
    - additions: each new node gets an id not yet in the graph, so its keys are
      appended to the graph's dicts and deleting them restores every order;
    - an update: the one changed value is put back (or its key deleted).
    """
    mutations = [step for step in program if isinstance(step, MUTATIONS)]
    if not mutations:
        yield apply_steps(program, graph)
        return
    head = len(mutations)
    if program[:head] != tuple(mutations):  # a mutation after a read: not needed here
        yield None
        return
    if isinstance(mutations[0], Remove) and head == 1:
        node = _first_named(graph, mutations[0].name)
        if node is None:
            yield _finish(program[head:], graph)
        elif type(graph) is nx.DiGraph and not hasattr(graph, "_graph"):  # not a view
            restore = _remove_restorably(graph, node)
            try:
                yield _finish(program[head:], graph)
            finally:
                restore()
        else:
            yield _finish(program[head:], nx.restricted_view(graph, [node], []))
        return
    if all(isinstance(step, Add) for step in mutations):
        added = _apply_adds(mutations, graph)
        if added is None:
            yield None
            return
        try:
            yield _finish(program[head:], graph)
        finally:
            graph.remove_nodes_from(added)
        return
    if isinstance(mutations[0], Update) and head == 1:
        step = mutations[0]
        node = _first_named(graph, step.name)
        if node is None:  # nothing changes; the helper answers with a tuple
            yield _finish((), solid_step_update_node_value(graph, step.name, step.value))
            return
        attrs = graph.nodes[node]
        missing = object()
        old = attrs.get(CAPACITY, missing)
        try:
            yield _finish((), solid_step_update_node_value(graph, step.name, step.value))
        finally:
            if old is missing:
                attrs.pop(CAPACITY, None)
            else:
                attrs[CAPACITY] = old
        return
    yield None


def _remove_restorably(graph: nx.DiGraph, node: Any) -> Callable[[], None]:
    """Remove ``node`` and return a function that puts every dict back as it was.

    ``DiGraph.remove_node`` touches exactly: the node, successor and
    predecessor dicts, the predecessor dicts of the node's successors and the
    successor dicts of its predecessors. Each is refilled in place (views hold
    references to them) with its saved items, in their saved order.
    """
    touched = [graph._node, graph._succ, graph._pred]
    touched += [graph._pred[succ] for succ in graph._succ[node]]
    touched += [graph._succ[pred] for pred in graph._pred[node]]
    saved = [(mapping, list(mapping.items())) for mapping in touched]
    graph.remove_node(node)

    def restore() -> None:
        for mapping, items in saved:
            mapping.clear()
            mapping.update(items)

    return restore


def _finish(reads: tuple[Step, ...], graph: Any) -> dict[str, Any]:
    if not reads:
        return {"type": "graph", "data": graph}
    return apply_steps(reads, graph)


def _apply_adds(steps: list[Step], graph: Any) -> list[Any] | None:
    """Apply additions whose new ids are all fresh; None (nothing applied) otherwise."""
    planned: list[Any] = []
    size = len(graph)
    for step in steps:
        ids = [size + 1, size + 2] if step.kind == SWITCH else [size + 1]
        planned.extend(ids)
        size += len(ids)
    if any(node in graph for node in planned):
        return None
    for step in steps:
        solid_step_add_node_to_graph(graph, {"name": step.name, "type": step.kind}, step.parent)
    return planned


def program_source(program: tuple[Step, ...]) -> str:
    """The ground truth as readable code over the six helpers (for records).

    >>> print(program_source((Remove('a.b'), Rank('a'))))
    def ground_truth_process_graph(graph_data):
        graph_data = solid_step_remove_node_from_graph(graph_data, 'a.b')
        data = solid_step_rank_child_nodes(graph_data, 'a')
        return {'type': 'list', 'data': data}
    """
    lines = ["def ground_truth_process_graph(graph_data):"]
    for step in program:
        if isinstance(step, Add):
            node = {"name": step.name, "type": step.kind}
            call = f"graph_data = solid_step_add_node_to_graph(graph_data, {node!r}, {step.parent!r})"
        elif isinstance(step, Remove):
            call = f"graph_data = solid_step_remove_node_from_graph(graph_data, {step.name!r})"
        elif isinstance(step, Update):
            call = (
                f"graph_data = solid_step_update_node_value(graph_data, {step.name!r}, {step.value!r})"
            )
        elif isinstance(step, Count):
            if step.container is None:
                call = f"data = solid_step_counting_query(graph_data, {{'type': {step.kind!r}, 'name': None}})"
            else:
                node1 = {"type": step.container_kind, "name": step.container}
                node2 = {"type": step.kind, "name": None}
                call = f"data = solid_step_counting_query(graph_data, {node1!r}, {node2!r})"
        elif isinstance(step, ListChildren):
            node = {"type": step.parent_kind, "name": step.parent}
            call = f"data = solid_step_list_child_nodes(graph_data, {node!r})"
        elif isinstance(step, Rank):
            call = f"data = solid_step_rank_child_nodes(graph_data, {step.parent!r})"
        else:  # netmend's own families: the reference statement of this module
            target = "graph_data" if isinstance(step, MUTATIONS) else "data"
            call = f"{target} = reference_step(graph_data, {step!r})"
        lines.append("    " + call)
    kind = answer_type(program)
    result = "graph_data" if kind == "graph" else "data"
    lines.append(f"    return {{'type': {kind!r}, 'data': {result}}}")
    return "\n".join(lines)
