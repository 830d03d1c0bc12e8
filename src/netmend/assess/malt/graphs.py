"""Exact graph copies and comparisons that are cheaper than the general ones.

An assessment copies its topology for every task (the evaluator passes
``copy.deepcopy(G)`` to the participant) and compares result graphs by
isomorphism with exact node attributes. Both are expensive on a 5,000-node
graph. Each fast path here is used only when it is provably equivalent; every
other case takes the general route.
"""

from __future__ import annotations

import copy
from itertools import chain, repeat
from operator import eq, itemgetter, ne
from typing import Any

import networkx as nx

_SCALARS = (str, int, float, bool, type(None))
_SCALAR_SET = frozenset(_SCALARS)
_VALUE_TYPES = _SCALAR_SET | {list, dict, tuple}
# Instance keys of a plain networkx graph (cached views, the backend cache and
# the containers). Anything else could be lost by a structural copy.
_KNOWN_INSTANCE_KEYS = frozenset(
    {"graph", "_node", "_adj", "_succ", "_pred", "__networkx_cache__"}
    | {"nodes", "edges", "adj", "succ", "pred", "degree", "in_edges", "out_edges"}
    | {"in_degree", "out_degree"}
)


def _plain_value(value: Any, seen: set[int]) -> bool:
    """True for scalars and unshared list/tuple/dict trees of scalars."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind in (list, dict):
        if id(value) in seen:  # shared container: deepcopy keeps the sharing
            return False
        seen.add(id(value))
        items = value.items() if kind is dict else ((None, item) for item in value)
        return all(type(key) in _SCALARS and _plain_value(item, seen) for key, item in items)
    if kind is tuple:  # immutable only if everything inside is
        return all(type(item) in _SCALARS or type(item) is tuple for item in value) and all(
            _plain_value(item, seen) for item in value
        )
    return False


def supports_fast_copy(graph: Any) -> bool:
    """Whether :func:`fast_copy` of ``graph`` is indistinguishable from ``copy.deepcopy``.

    True for a plain ``nx.DiGraph`` (not a view) whose node ids are scalars and
    whose attributes are trees of scalars, lists, tuples and dicts with no
    container shared between two places (a deep copy would keep the sharing).
    """
    if type(graph) is not nx.DiGraph or not set(vars(graph)) <= _KNOWN_INSTANCE_KEYS:
        return False
    seen: set[int] = set()
    if not _plain_value(graph.graph, seen):
        return False
    for node, attrs in graph._node.items():
        if type(node) not in _SCALARS or id(attrs) in seen or not _plain_value(attrs, seen):
            return False
    return all(_plain_value(attrs, seen) for _, _, attrs in graph.edges(data=True))


def _copy_value(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [_copy_value(item) for item in value]
    if kind is dict:
        return {key: _copy_value(item) for key, item in value.items()}
    return value  # scalars and tuples of scalars are immutable


def _copy_attrs(attrs: dict) -> dict:
    duplicate = attrs.copy()
    for key, value in duplicate.items():
        if type(value) in (list, dict):
            duplicate[key] = _copy_value(value)
    return duplicate


def fast_copy(graph: Any) -> Any:
    """A structural deep copy: new containers, same order, same attribute values.

    Equal to ``copy.deepcopy(graph)`` in every observable way when
    :func:`supports_fast_copy` holds; otherwise it IS ``copy.deepcopy``.
    """
    if not supports_fast_copy(graph):
        return copy.deepcopy(graph)
    return _structural_copy(graph)


def _structural_copy(graph: nx.DiGraph, plan: _CopyPlan | None = None) -> nx.DiGraph:
    plan = plan or _CopyPlan(graph)
    duplicate = nx.DiGraph()
    duplicate.graph.update(_copy_value(graph.graph))
    nodes = {node: attrs.copy() for node, attrs in graph._node.items()}
    for node, key in plan.flat_lists:
        attrs = nodes[node]
        attrs[key] = attrs[key][:]
    for node, key in plan.nested:
        attrs = nodes[node]
        attrs[key] = _copy_value(attrs[key])
    copy_edge_attrs = dict.copy if plan.flat_edges else _copy_attrs
    succ = {
        node: {nbr: copy_edge_attrs(attrs) for nbr, attrs in nbrs.items()}
        for node, nbrs in graph._succ.items()
    }
    duplicate._node = nodes
    duplicate._succ = duplicate._adj = succ
    duplicate._pred = {
        node: {nbr: succ[nbr][node] for nbr in nbrs} for node, nbrs in graph._pred.items()
    }
    return duplicate


class _CopyPlan:
    """Where a graph's attribute values need more than a shallow dict copy."""

    def __init__(self, graph: nx.DiGraph):
        self.flat_lists: list[tuple[Any, Any]] = []  # lists of scalars: a slice copies them
        self.nested: list[tuple[Any, Any]] = []  # other containers: copied recursively
        for node, attrs in graph._node.items():
            for key, value in attrs.items():
                if type(value) is list and all(type(item) in _SCALARS for item in value):
                    self.flat_lists.append((node, key))
                elif type(value) in (list, dict):
                    self.nested.append((node, key))
        self.flat_edges = all(
            type(value) not in (list, dict)
            for _, nbrs in graph._succ.items()
            for attrs in nbrs.values()
            for value in attrs.values()
        )


class CopySource:
    """Hands out deep copies of one graph that nobody else can touch.

    The check of :func:`supports_fast_copy` runs once: the source graph is a
    private copy, so it cannot change afterwards.
    """

    def __init__(self, graph: Any):
        self._graph = copy.deepcopy(graph)
        self._fast = supports_fast_copy(self._graph)
        self._plan = _CopyPlan(self._graph) if self._fast else None
        self._scratch: Any = None

    @property
    def fast(self) -> bool:
        """Whether copies are structural (proven equivalent) or ``copy.deepcopy``."""
        return self._fast

    @property
    def pristine(self) -> Any:
        """The private source graph; readers must not change it."""
        return self._graph

    @property
    def scratch(self) -> Any:
        """A second private copy for runs that change it and restore it (``reference.applied``)."""
        if self._scratch is None:
            self._scratch = self.copy()
        return self._scratch

    def copy(self) -> Any:
        """A fresh deep copy of the source graph."""
        if self._fast:
            return _structural_copy(self._graph, self._plan)
        return copy.deepcopy(self._graph)

    def unchanged(self, graph: Any) -> bool:
        """Whether ``graph`` still equals the source: same class, nodes in order, attributes, edges.

        Used to notice a participant that modified a graph it was only meant
        to read. Equality is ``==`` on every container.
        """
        source = self._graph
        if type(graph) is not type(source) or graph.graph != source.graph:
            return False
        if graph._node != source._node or list(graph._node) != list(source._node):
            return False
        if graph._adj != source._adj:
            return False
        return not graph.is_directed() or graph._pred == source._pred


# --- reading a graph fast -----------------------------------------------------


class Reading:
    """Read access to a graph in exactly the public API's orders, without the views' cost.

    ``nodes`` maps node -> attribute dict in ``graph.nodes`` order;
    :meth:`edges` yields ``(u, v, attrs)`` in ``graph.edges(data=True)``
    order; :meth:`successors` and :meth:`isolates` match ``graph.successors``
    and ``nx.isolates``. Built by :func:`read`.
    """

    def __init__(self, graph: Any, nodes: Any = None, succ: Any = None):
        self.graph = graph
        self._fast = nodes is not None
        self.nodes = nodes if self._fast else graph.nodes
        self._succ = succ

    @property
    def fast(self) -> bool:
        """Whether ``nodes`` and ``succ`` are plain dicts (node -> attrs, node -> {nbr: attrs})."""
        return self._fast

    @property
    def succ(self) -> Any:
        """node -> {successor: edge attrs}, for fast readings only."""
        return self._succ

    def node_items(self) -> Any:
        """``(node, attrs)`` pairs in node order."""
        return self.nodes.items() if self._fast else self.graph.nodes(data=True)

    def edges(self) -> Any:
        """``(u, v, attrs)`` triples in edge order."""
        if self._fast:
            return ((u, v, attrs) for u, nbrs in self._succ.items() for v, attrs in nbrs.items())
        return self.graph.edges(data=True)

    def successors(self, node: Any) -> Any:
        """The successors of ``node`` (raises as ``graph.successors`` does on undirected graphs)."""
        return self._succ[node] if self._fast else self.graph.successors(node)

    def isolates(self) -> list:
        """Nodes without any edge, in node order."""
        if not self._fast:
            return list(nx.isolates(self.graph))
        linked: set = set()
        for node, nbrs in self._succ.items():
            if nbrs:
                linked.add(node)
                linked.update(nbrs)
        return [node for node in self.nodes if node not in linked]


def _filtered_order(keep: Any, base: dict) -> Any:
    """The order networkx's filtered views iterate in: the kept set's when it is small."""
    if 2 * len(keep) < len(base):
        return [node for node in keep if node in base]
    return [node for node in base if node in keep]


def read(graph: Any) -> Reading:
    """A :class:`Reading` of ``graph``: straight from the dicts for a plain DiGraph or an
    induced-subgraph view of one, through the public API otherwise.
    """
    if type(graph) is not nx.DiGraph:
        return Reading(graph)
    base = getattr(graph, "_graph", None)
    if base is None:
        return Reading(graph, graph._node, graph._succ)
    node_ok = getattr(graph, "_NODE_OK", None)
    if (
        type(base) is nx.DiGraph
        and getattr(base, "_graph", None) is None
        and isinstance(node_ok, nx.filters.show_nodes)
        and getattr(graph, "_EDGE_OK", None) is nx.filters.no_filter
    ):
        keep = node_ok.nodes
        order = _filtered_order(keep, base._node)
        nodes = dict(zip(order, map(base._node.__getitem__, order), strict=True))
        succ_order = _filtered_order(keep, base._succ)
        # Only the successor dicts of nodes with a hidden successor need
        # filtering; the others read the same as the base graph's own dicts.
        succ = dict(zip(succ_order, map(base._succ.__getitem__, succ_order), strict=True))
        hidden = base._node.keys() - keep
        touched = {pred for node in hidden for pred in base._pred[node]} if hidden else set()
        for node in touched & succ.keys():
            succ[node] = {nbr: attrs for nbr, attrs in succ[node].items() if nbr in keep}
        return Reading(graph, nodes, succ)
    return Reading(graph)


# --- comparison ---------------------------------------------------------------


def node_attributes_equal(first: dict, second: dict) -> bool:
    """The evaluator's node match: same attribute names and no value ``!=`` its peer."""
    if set(first) != set(second):
        return False
    return not any(value != second[key] for key, value in first.items())


def _name_index(graph: Reading) -> dict | None:
    """``name -> node`` when every node has a distinct scalar ``name`` (no NaN), else None."""
    items = list(graph.node_items())
    nodes, attrs = list(map(itemgetter(0), items)), list(map(itemgetter(1), items))
    try:
        names = list(map(itemgetter("name"), attrs))
    except (KeyError, TypeError):
        return None
    kinds = set(map(type, names))
    if not kinds <= _SCALAR_SET or (float in kinds and any(map(ne, names, names))):
        return None  # NaN is the only scalar unequal to itself
    index = dict(zip(names, nodes, strict=True))
    return index if len(index) == len(names) else None


def _dict_equality_is_exact(attr_dicts: list) -> bool:
    """Whether ``==`` on these attribute dicts decides exactly what the evaluator's match does.

    ``dict ==`` compares values with an identity shortcut where the evaluator
    uses ``!=`` per value; the two differ only for a value unequal to itself
    (NaN) or of a type whose ``==`` and ``!=`` disagree. Builtin scalars and
    containers with no NaN at the top level are safe.
    """
    try:
        values = list(chain.from_iterable(map(dict.values, attr_dicts)))
    except TypeError:  # not plain dicts
        return False
    return set(map(type, values)) <= _VALUE_TYPES and not any(map(ne, values, values))


def isomorphic_with_node_attrs(first: Any, second: Any) -> bool:
    """The evaluator's graph correctness: ``nx.is_isomorphic`` on undirected copies.

    Fast path: when every node of both graphs has a distinct ``name``, an
    isomorphism that preserves node attributes (``name`` among them) must map
    each node to the node of the same name, so it exists iff the names match,
    the matched nodes' attributes are equal and the undirected edge sets
    correspond. Otherwise ``nx.is_isomorphic`` decides.

    Examples
    --------
    >>> a = nx.DiGraph([(1, 2)]); nx.set_node_attributes(a, {1: 'x', 2: 'y'}, 'name')
    >>> b = nx.DiGraph([('q', 'p')]); nx.set_node_attributes(b, {'p': 'x', 'q': 'y'}, 'name')
    >>> isomorphic_with_node_attrs(a, b)
    True
    >>> b.nodes['p']['extra'] = 1
    >>> isomorphic_with_node_attrs(a, b)
    False
    """
    if isinstance(first, nx.Graph) and isinstance(second, nx.Graph):
        if len(first) != len(second):
            return False
        first, second = read(first), read(second)
        index_first = _name_index(first)
        index_second = _name_index(second) if index_first is not None else None
        if index_first is not None and index_second is not None:
            return _match_by_name(first, second, index_first, index_second)
        first, second = first.graph, second.graph
    return nx.is_isomorphic(nx.Graph(first), nx.Graph(second), node_match=node_attributes_equal)


def _match_by_name(
    first: Reading, second: Reading, index_first: dict, index_second: dict
) -> bool:
    if index_first.keys() != index_second.keys():
        return False
    mine = list(map(first.nodes.__getitem__, index_first.values()))
    theirs = list(map(second.nodes.__getitem__, map(index_second.__getitem__, index_first)))
    exact = _dict_equality_is_exact(mine) and _dict_equality_is_exact(theirs)
    if not all(map(eq if exact else node_attributes_equal, mine, theirs)):
        return False
    edges_first = _named_edges(first, index_first)
    edges_second = _named_edges(second, index_second)
    if edges_first == edges_second:
        return True  # same directed edges, so the same undirected ones
    return {frozenset(edge) for edge in edges_first} == {frozenset(edge) for edge in edges_second}


def _named_edges(graph: Reading, index: dict) -> set[tuple]:
    """The edges as ``(name, name)`` pairs, directed as stored."""
    name_of = dict(zip(index.values(), index, strict=True))
    if not graph.fast:
        return {(name_of[u], name_of[v]) for u, v, _ in graph.edges()}
    pairs: set[tuple] = set()
    for node, nbrs in graph.succ.items():
        if nbrs:
            pairs.update(zip(repeat(name_of[node]), map(name_of.__getitem__, nbrs)))
    return pairs
