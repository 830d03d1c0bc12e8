"""The six safety rules, each caught; the baseline checker against the full one."""

from __future__ import annotations

import copy

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.assess.malt.safety import BaselineChecker, check
from netmend.malt import topology

from .topologies import tiny_graph


def test_the_tiny_graph_is_safe() -> None:
    assert check(tiny_graph()).ok


def _spoiled(how: str) -> nx.DiGraph:
    graph = tiny_graph()
    if how == "node without type":
        del graph.nodes["ju1.a1.m1"]["type"]
    elif how == "unknown node kind":
        graph.nodes["ju1.a1.m1"]["type"] = ["EK_ROUTER"]
    elif how == "unknown edge kind":
        graph.edges["ju1.a1.m1", "ju1.a1.m1.s2c1"]["type"] = "RK_LINKS"
    elif how == "edge without type":
        del graph.edges["ju1.a1.m1", "ju1.a1.m1.s2c1"]["type"]
    elif how == "port under agg block":
        graph.add_node(8, name="p", type="EK_PORT", physical_capacity_bps=1000)
        graph.add_edge("ju1.a1.m1", 8, type="RK_CONTAINS")
    elif how == "isolated node":
        graph.add_node("lonely", name="lonely", type=["EK_RACK"])
    elif how == "zero capacity":
        graph.nodes["ju1.a1.m1.s2c1.p1"]["physical_capacity_bps"] = 0
    elif how == "port without capacity":
        del graph.nodes["ju1.a1.m1.s2c1.p1"]["physical_capacity_bps"]
    elif how == "portless switch":
        graph.remove_node("ju1.a1.m1.s2c2.p1")
    return graph


@pytest.mark.parametrize(("how", "rule"), [
    ("node without type", "node_types"),
    ("unknown node kind", "node_types"),
    ("unknown edge kind", "edge_types"),
    ("edge without type", "edge_types"),
    ("port under agg block", "hierarchy"),
    ("isolated node", "no_isolated_nodes"),
    ("zero capacity", "port_capacity"),
    ("port without capacity", "port_capacity"),
    ("portless switch", "switch_has_port"),
])
def test_each_rule_catches_its_violation(how: str, rule: str) -> None:
    verdict = check(_spoiled(how))
    assert not verdict.ok and verdict.rule == rule, verdict
    assert verdict.message
    assert BaselineChecker(tiny_graph()).check(_spoiled(how)) == verdict


def test_rules_follow_the_evaluators_in_and_string_semantics() -> None:
    graph = tiny_graph()
    graph.edges["ju1.a1.m1", "ju1.a1.m1.s2c1"]["type"] = "XRK_CONTAINSX"  # substring test
    assert check(graph).ok
    graph.nodes["ju1.a1.m1"]["type"] = "EK_AGG_BLOCK"  # a string kind is one kind
    assert check(graph).ok


def test_malformed_values_fail_the_rule_with_the_exception() -> None:
    graph = tiny_graph()
    graph.nodes["ju1.a1.m1"]["type"] = 5
    verdict = check(graph)
    assert not verdict.ok and verdict.rule == "node_types" and "TypeError" in verdict.message


def test_empty_and_missing_graphs_are_unsafe() -> None:
    assert check(nx.DiGraph()).rule == "graph"
    assert check(None).rule == "graph"
    assert check({"nodes": []}).rule == "graph"


def test_undirected_graph_with_a_switch_fails_like_the_original() -> None:
    verdict = check(nx.Graph(tiny_graph()))
    assert not verdict.ok and "AttributeError" in verdict.message


BASE = topology.synthetic(seed=2, switches_per_block=2, ports_per_switch=2)
NODES = list(BASE)
ATTRS = [("type", ["EK_PORT"]), ("type", "EK_PACKET_SWITCH"), ("type", ["EK_BOGUS"]),
         ("physical_capacity_bps", 0), ("physical_capacity_bps", 5), ("name", "x")]
changes = st.lists(
    st.one_of(
        st.tuples(st.just("remove"), st.sampled_from(NODES)),
        st.tuples(st.just("attr"), st.sampled_from(NODES), st.sampled_from(ATTRS)),
        st.tuples(st.just("add"), st.sampled_from(NODES), st.sampled_from(["EK_PORT", "EK_PACKET_SWITCH", "EK_RACK"])),
        st.tuples(st.just("edge"), st.sampled_from(NODES), st.sampled_from(NODES),
                  st.sampled_from(["RK_CONTAINS", "RK_CONTROLS", "RK_OTHER"])),
        st.tuples(st.just("drop-edge"), st.integers(0, 300)),
    ),
    max_size=4,
)


def _apply(graph: nx.DiGraph, steps) -> nx.DiGraph:
    for index, step in enumerate(steps):
        kind = step[0]
        if kind == "remove" and step[1] in graph:
            graph.remove_node(step[1])
        elif kind == "attr" and step[1] in graph:
            key, value = step[2]
            graph.nodes[step[1]][key] = copy.deepcopy(value)
        elif kind == "add" and step[1] in graph:
            graph.add_node(index + 1000, name=f"new{index}", type=step[2], physical_capacity_bps=1000)
            graph.add_edge(step[1], index + 1000, type="RK_CONTAINS")
        elif kind == "edge" and step[1] in graph and step[2] in graph:
            graph.add_edge(step[1], step[2], type=step[3])
        elif kind == "drop-edge" and graph.number_of_edges():
            edges = list(graph.edges)
            graph.remove_edge(*edges[step[1] % len(edges)])
    return graph


CHECKER = BaselineChecker(copy.deepcopy(BASE))


@settings(max_examples=200, deadline=None)
@given(changes, st.booleans())
def test_baseline_checker_agrees_with_the_full_check(steps, as_view) -> None:
    graph = _apply(copy.deepcopy(BASE), steps)
    if as_view and len(graph):
        graph = graph.subgraph([node for node in graph if node != NODES[3]])
    assert CHECKER.baseline_verdict.ok
    assert CHECKER.check(graph) == check(graph)


def test_baseline_checker_with_an_unsafe_baseline_checks_everything() -> None:
    unsafe = _spoiled("zero capacity")
    checker = BaselineChecker(unsafe)
    assert not checker.baseline_verdict.ok
    assert checker.check(copy.deepcopy(unsafe)).rule == "port_capacity"
