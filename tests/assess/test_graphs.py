"""Fast copies and comparisons against the general ones they stand in for."""

from __future__ import annotations

import copy

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.assess.malt.graphs import (
    CopySource,
    fast_copy,
    isomorphic_with_node_attrs,
    node_attributes_equal,
    read,
    supports_fast_copy,
)
from netmend.malt import topology

from .topologies import tiny_graph


def _layout(graph):
    return (list(graph.nodes(data=True)), list(graph.edges(data=True)),
            [(n, list(graph.predecessors(n))) for n in graph], graph.graph)


def _containers(graph):
    ids = [id(attrs) for attrs in graph._node.values()]
    ids += [id(v) for attrs in graph._node.values() for v in attrs.values() if isinstance(v, list | dict)]
    return set(ids)


def test_fast_copy_is_a_deep_copy(small_graph) -> None:
    duplicate = fast_copy(small_graph)
    assert _layout(duplicate) == _layout(copy.deepcopy(small_graph))
    assert not _containers(duplicate) & _containers(small_graph)
    # Mutating the copy leaves the source alone, nested values included.
    first = next(iter(duplicate))
    duplicate.nodes[first]["type"].append("EK_RACK")
    switch = "ju1.a1.m1.s2c1"
    duplicate.nodes[switch]["switch_loc"]["stage"] = 9
    duplicate.remove_edge(*next(iter(duplicate.edges)))
    assert _layout(small_graph) == _layout(topology.default())


def test_copy_source_copies_are_independent(small_graph) -> None:
    source = CopySource(small_graph)
    assert source.fast
    first, second = source.copy(), source.copy()
    first.nodes["ju1"]["jupiter_type"] = "changed"
    first.add_edge("ju1", "x")
    assert second.nodes["ju1"]["jupiter_type"] == "JDT_COLO" and not second.has_node("x")
    assert source.unchanged(second) and not source.unchanged(first)
    assert _layout(source.scratch) == _layout(small_graph)


def test_unchanged_notices_order_and_content(small_graph) -> None:
    source = CopySource(small_graph)
    graph = source.copy()
    graph.nodes["ju1"]["extra"] = 1
    assert not source.unchanged(graph)
    reordered = nx.DiGraph()
    reordered.add_nodes_from(reversed(list(small_graph.nodes(data=True))))
    reordered.add_edges_from(small_graph.edges(data=True))
    assert not source.unchanged(reordered)


@pytest.mark.parametrize("spoil", ["shared list", "set value", "tuple holding a list",
                                   "multigraph", "extra attribute"])
def test_no_fast_copy_when_it_could_differ(spoil: str) -> None:
    graph = tiny_graph()
    if spoil == "shared list":
        graph.nodes["ju1.a1.m1"]["type"] = graph.nodes["ju1.a1.dom"]["type"]
    elif spoil == "set value":
        graph.nodes["ju1.a1.m1"]["tag"] = {1, 2}
    elif spoil == "tuple holding a list":
        graph.nodes["ju1.a1.m1"]["tag"] = ([1],)
    elif spoil == "multigraph":
        graph = nx.MultiDiGraph(graph)
    else:
        graph.custom = 1
    assert not supports_fast_copy(graph)
    duplicate = fast_copy(graph)  # falls back to copy.deepcopy
    assert _layout(duplicate) == _layout(copy.deepcopy(graph))
    if spoil == "shared list":
        assert duplicate.nodes["ju1.a1.m1"]["type"] is duplicate.nodes["ju1.a1.dom"]["type"]


def test_reading_a_subgraph_view_follows_the_view_orders(small_graph) -> None:
    graph = fast_copy(small_graph)
    for keep in (list(graph)[:10], list(graph)[5:]):  # a small and a large kept set
        view = graph.subgraph(keep)
        reading = read(view)
        assert reading.fast
        assert list(reading.node_items()) == list(view.nodes(data=True))
        assert list(reading.edges()) == list(view.edges(data=True))
        assert reading.isolates() == list(nx.isolates(view))
        for node in keep[:5]:
            assert list(reading.successors(node)) == list(view.successors(node))


def test_reading_other_graphs_uses_the_api() -> None:
    graph = nx.Graph(tiny_graph())
    reading = read(graph)
    assert not reading.fast
    assert list(reading.edges()) == list(graph.edges(data=True))
    with pytest.raises(AttributeError):
        reading.successors("ju1.a1.m1")


def test_node_attributes_equal_is_the_evaluator_match() -> None:
    assert node_attributes_equal({"a": 1, "b": [1]}, {"b": [1.0], "a": True})
    assert not node_attributes_equal({"a": 1}, {"a": 1, "b": 2})
    nan = float("nan")
    assert not node_attributes_equal({"a": nan}, {"a": nan})  # != per value, as the evaluator


BASE = topology.synthetic(seed=5, switches_per_block=2, ports_per_switch=2)
NODES = list(BASE)
edits = st.lists(
    st.one_of(
        st.tuples(st.just("remove"), st.sampled_from(NODES)),
        st.tuples(st.just("attr"), st.sampled_from(NODES), st.sampled_from([1, "x", [1], 2.0])),
        st.tuples(st.just("edge"), st.sampled_from(NODES), st.sampled_from(NODES)),
        st.tuples(st.just("drop-edge"), st.integers(0, 400)),
        st.tuples(st.just("rename-id"), st.sampled_from(NODES)),
        st.tuples(st.just("reverse-edge"), st.integers(0, 400)),
    ),
    max_size=4,
)


def _edited(graph: nx.DiGraph, changes) -> nx.DiGraph:
    graph = copy.deepcopy(graph)
    for change in changes:
        kind = change[0]
        edges = list(graph.edges)
        if kind == "remove" and change[1] in graph:
            graph.remove_node(change[1])
        elif kind == "attr" and change[1] in graph:
            graph.nodes[change[1]]["extra"] = change[2]
        elif kind == "edge" and change[1] in graph and change[2] in graph:
            graph.add_edge(change[1], change[2], type="RK_CONTAINS")
        elif kind == "drop-edge" and edges:
            graph.remove_edge(*edges[change[1] % len(edges)])
        elif kind == "reverse-edge" and edges:
            u, v = edges[change[1] % len(edges)]
            attrs = graph.edges[u, v]
            graph.remove_edge(u, v)
            graph.add_edge(v, u, **attrs)
        elif kind == "rename-id" and change[1] in graph:
            graph = nx.relabel_nodes(graph, {change[1]: ("renamed", change[1])})
    return graph


@settings(max_examples=120, deadline=None)
@given(edits, edits)
def test_fast_isomorphism_agrees_with_networkx(first_edits, second_edits) -> None:
    first, second = _edited(BASE, first_edits), _edited(BASE, second_edits)
    expected = nx.is_isomorphic(nx.Graph(first), nx.Graph(second), node_match=node_attributes_equal)
    assert isomorphic_with_node_attrs(first, second) == expected
    assert isomorphic_with_node_attrs(first.subgraph(list(first)), second) == expected


def test_isomorphism_without_unique_names_falls_back() -> None:
    first, second = tiny_graph(), tiny_graph()
    for graph in (first, second):
        for node in graph:
            graph.nodes[node]["name"] = "same"
    assert isomorphic_with_node_attrs(first, second)
    second.add_edge("ju1.a1.m1.s2c1.p1", "ju1.a1.m1.s2c2.p1", type="RK_CONTAINS")
    assert not isomorphic_with_node_attrs(first, second)


def test_isomorphism_of_non_graphs_is_the_evaluators() -> None:
    with pytest.raises(nx.NetworkXError):
        isomorphic_with_node_attrs(tiny_graph(), "not a graph")


class _Odd:
    """Equal to everything and unequal to everything: == and != disagree."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("value", [float("nan"), _Odd()], ids=["shared NaN", "odd equality"])
def test_values_where_dict_equality_differs_from_the_evaluators_match(value) -> None:
    first, second = tiny_graph(), tiny_graph()
    first.nodes["ju1.a1.m1"]["x"] = value
    second.nodes["ju1.a1.m1"]["x"] = value if isinstance(value, float) else 1
    expected = nx.is_isomorphic(nx.Graph(first), nx.Graph(second), node_match=node_attributes_equal)
    assert expected is False
    assert isomorphic_with_node_attrs(first, second) is False
