"""Exact graph copies and comparisons that are cheaper than the general ones.

An assessment copies its topology for every task (the evaluator passes
``copy.deepcopy(G)`` to the participant) and compares result graphs by
isomorphism with exact node attributes. Both are expensive on a 5,000-node
graph. Each fast path here is used only when it is provably equivalent; every
other case takes the general route.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import networkx as nx

_SCALARS = (str, int, float, bool, type(None))
_EXACT_CLASSES = (nx.Graph, nx.DiGraph)
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
    if kind is tuple:
        return all(_plain_value(item, seen) for item in value)
    return False


def supports_fast_copy(graph: Any) -> bool:
    """Whether :func:`fast_copy` of ``graph`` is indistinguishable from ``copy.deepcopy``.

    True for a plain ``nx.Graph``/``nx.DiGraph`` whose node ids are scalars and
    whose attributes are trees of scalars, lists, tuples and dicts with no
    container shared between two places (a deep copy would keep the sharing).
    """
    if type(graph) not in _EXACT_CLASSES or not set(vars(graph)) <= _KNOWN_INSTANCE_KEYS:
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


def _structural_copy(graph: Any) -> Any:
    duplicate = type(graph)()
    duplicate.graph.update(_copy_value(graph.graph))
    duplicate._node = {node: _copy_attrs(attrs) for node, attrs in graph._node.items()}
    if graph.is_directed():
        succ = {
            node: {nbr: _copy_attrs(attrs) for nbr, attrs in nbrs.items()}
            for node, nbrs in graph._succ.items()
        }
        duplicate._succ = duplicate._adj = succ
        duplicate._pred = {
            node: {nbr: succ[nbr][node] for nbr in nbrs} for node, nbrs in graph._pred.items()
        }
    else:
        adj: dict = {node: {} for node in graph._adj}
        for node, nbrs in graph._adj.items():
            for nbr, attrs in nbrs.items():
                if nbr in adj[node]:
                    continue
                shared = _copy_attrs(attrs)
                adj[node][nbr] = shared
                adj[nbr][node] = shared
        # Re-create each neighbour dict in the source's order.
        duplicate._adj = {
            node: {nbr: adj[node][nbr] for nbr in nbrs} for node, nbrs in graph._adj.items()
        }
    return duplicate


class CopySource:
    """Hands out deep copies of one graph that nobody else can touch.

    The check of :func:`supports_fast_copy` runs once: the source graph is a
    private copy, so it cannot change afterwards.
    """

    def __init__(self, graph: Any):
        self._graph = copy.deepcopy(graph)
        self._fast = supports_fast_copy(self._graph)

    @property
    def fast(self) -> bool:
        """Whether copies are structural (proven equivalent) or ``copy.deepcopy``."""
        return self._fast

    @property
    def pristine(self) -> Any:
        """The private graph itself, for runs that restore it (``malt_reference.applied``)."""
        return self._graph

    def copy(self) -> Any:
        """A fresh deep copy of the source graph."""
        return _structural_copy(self._graph) if self._fast else copy.deepcopy(self._graph)

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


# --- comparison ---------------------------------------------------------------


def node_attributes_equal(first: dict, second: dict) -> bool:
    """The evaluator's node match: same attribute names and no value ``!=`` its peer."""
    if set(first) != set(second):
        return False
    return not any(value != second[key] for key, value in first.items())


def _name_index(graph: Any) -> dict | None:
    """``name -> node`` when every node has a distinct, hashable ``name``, else None."""
    index: dict = {}
    pairs = graph._node.items() if type(graph) is nx.DiGraph else graph.nodes(data=True)
    try:
        for node, attrs in pairs:
            name = attrs["name"]
            if type(name) not in _SCALARS or (type(name) is float and math.isnan(name)):
                return None
            if name in index:
                return None
            index[name] = node
    except (KeyError, TypeError):
        return None
    return index


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
        index_first = _name_index(first)
        index_second = _name_index(second) if index_first is not None else None
        if index_first is not None and index_second is not None:
            return _match_by_name(first, second, index_first, index_second)
    return nx.is_isomorphic(nx.Graph(first), nx.Graph(second), node_match=node_attributes_equal)


def _match_by_name(first: Any, second: Any, index_first: dict, index_second: dict) -> bool:
    if index_first.keys() != index_second.keys():
        return False
    nodes_first = first._node if type(first) is nx.DiGraph else first.nodes
    nodes_second = second._node if type(second) is nx.DiGraph else second.nodes
    for name, node in index_first.items():
        # node_attributes_equal, inlined: this loop runs once per node.
        mine, theirs = nodes_first[node], nodes_second[index_second[name]]
        if mine.keys() != theirs.keys():
            return False
        for key, value in mine.items():
            if value != theirs[key]:
                return False
    edges_first = _named_edges(first, index_first)
    edges_second = _named_edges(second, index_second)
    if edges_first == edges_second:
        return True  # same directed edges, so the same undirected ones
    return {frozenset(edge) for edge in edges_first} == {frozenset(edge) for edge in edges_second}


def _named_edges(graph: Any, index: dict) -> set[tuple]:
    """The edges as ``(name, name)`` pairs, directed as stored."""
    name_of = {node: name for name, node in index.items()}
    if type(graph) is nx.DiGraph:  # the same edges as graph.edges(), read from the dicts
        return {(name_of[u], name_of[v]) for u, nbrs in graph._succ.items() for v in nbrs}
    return {(name_of[u], name_of[v]) for u, v in graph.edges()}
