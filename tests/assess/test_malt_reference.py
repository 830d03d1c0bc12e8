"""The reference semantics: golden quirks and the copy-free runs against real copies."""

from __future__ import annotations

import copy

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.assess.malt import reference as ref
from netmend.assess.malt.reference import (
    Add,
    Count,
    ListChildren,
    Rank,
    Remove,
    Update,
    applied,
    apply_steps,
    evaluator_namespace,
    run_program,
)
from netmend.malt import topology

from .topologies import tiny_graph


def test_add_port_gets_integer_id_string_type_and_capacity() -> None:
    graph = tiny_graph()
    ref.solid_step_add_node_to_graph(graph, {"name": "new_EK_PORT_5", "type": "EK_PORT"}, "ju1.a1.m1.s2c1")
    assert graph.nodes[8] == {"name": "new_EK_PORT_5", "type": "EK_PORT", "physical_capacity_bps": 1000}
    assert graph.edges["ju1.a1.m1.s2c1", 8] == {"type": "RK_CONTAINS"}


def test_add_switch_adds_a_port_named_after_the_request_repr() -> None:
    graph = tiny_graph()
    ref.solid_step_add_node_to_graph(graph, {"name": "sw", "type": "EK_PACKET_SWITCH"}, "ju1.a1.m1")
    assert graph.nodes[8] == {"name": "sw", "type": "EK_PACKET_SWITCH"}
    assert graph.nodes[9] == {
        "name": "{'name': 'sw', 'type': 'EK_PACKET_SWITCH'}.p1",
        "type": "EK_PORT",
        "physical_capacity_bps": 1000,
    }
    assert list(graph.successors(8)) == [9]
    assert list(graph.successors("ju1.a1.m1"))[-1] == 8


def test_add_under_unknown_parent_adds_an_isolated_node() -> None:
    graph = tiny_graph()
    ref.solid_step_add_node_to_graph(graph, {"name": "x", "type": "EK_PORT"}, "nowhere")
    assert graph.degree(8) == 0


def test_remove_leaves_children_and_ignores_unknown_names() -> None:
    graph = tiny_graph()
    ref.solid_step_remove_node_from_graph(graph, "ju1.a1.m1.s2c1")
    assert "ju1.a1.m1.s2c1" not in graph and graph.degree("ju1.a1.m1.s2c1.p1") == 0
    before = list(graph.nodes)
    assert list(ref.solid_step_remove_node_from_graph(graph, "nope").nodes) == before


def test_count_walks_contains_edges_and_counts_every_path() -> None:
    graph = tiny_graph()
    dom = {"type": "EK_CONTROL_DOMAIN", "name": "ju1.a1.dom"}
    assert ref.solid_step_counting_query(graph, dom, {"type": "EK_PORT", "name": None}) == 3
    # A second containment path to the same switch counts its ports again.
    graph.add_edge("ju1.a1.dom", "ju1.a1.m1", type="RK_CONTAINS")
    assert ref.solid_step_counting_query(graph, dom, {"type": "EK_PORT", "name": None}) == 3
    assert ref.solid_step_counting_query(graph, dom, {"type": "EK_PACKET_SWITCH", "name": None}) == 4
    assert ref.solid_step_counting_query(graph, {"type": "EK_PORT"}) == 3
    missing = {"type": "EK_AGG_BLOCK", "name": "ju9"}
    assert ref.solid_step_counting_query(graph, missing, {"type": "EK_PORT"}) == {"ju9": "not found"}


def test_list_rank_and_update() -> None:
    graph = tiny_graph()
    assert ref.solid_step_list_child_nodes(graph, {"name": "ju1.a1.m1"}) == [
        "ju1.a1.m1.s2c1", "ju1.a1.m1.s2c2"]
    assert ref.solid_step_list_child_nodes(graph, {"name": "nope"}) == []
    assert ref.solid_step_rank_child_nodes(graph, "ju1.a1.m1") == [
        ("ju1.a1.m1.s2c2", 5000), ("ju1.a1.m1.s2c1", 4000)]
    assert ref.solid_step_rank_child_nodes(graph, "ju1.a1.m1.s2c1") == [
        ("ju1.a1.m1.s2c1.p2", 3000), ("ju1.a1.m1.s2c1.p1", 1000)]
    ref.solid_step_update_node_value(graph, "ju1.a1.m1.s2c1.p1", 7)
    assert graph.nodes["ju1.a1.m1.s2c1.p1"]["physical_capacity_bps"] == 7
    ref.solid_step_update_node_value(graph, "ju1.a1.m1", 7)  # not a port: unchanged
    assert "physical_capacity_bps" not in graph.nodes["ju1.a1.m1"]
    assert ref.solid_step_update_node_value(graph, "nope", 7)[1:] == ("nope", 7)


def test_rank_is_stable_on_ties() -> None:
    graph = tiny_graph()
    graph.nodes["ju1.a1.m1.s2c2.p1"]["physical_capacity_bps"] = 4000
    assert [name for name, _ in ref.solid_step_rank_child_nodes(graph, "ju1.a1.m1")] == [
        "ju1.a1.m1.s2c1", "ju1.a1.m1.s2c2"]


def test_run_program_takes_helpers_from_the_namespace() -> None:
    graph = tiny_graph()
    namespace = evaluator_namespace(graph)
    program = (Remove("ju1.a1.m1.s2c1"), ListChildren("ju1.a1.m1", "EK_AGG_BLOCK"))
    assert run_program(program, namespace) == {"type": "list", "data": ["ju1.a1.m1.s2c2"]}
    assert "ju1.a1.m1.s2c1" in graph  # it worked on a copy
    namespace["solid_step_list_child_nodes"] = lambda graph, node: ["tampered"]
    assert run_program(program, namespace)["data"] == ["tampered"]


def _snapshot(graph: nx.DiGraph):
    return (list(graph._node.items()), [(u, list(n.items())) for u, n in graph._succ.items()],
            [(u, list(n.items())) for u, n in graph._pred.items()])


GRAPH = topology.synthetic(seed=3, switches_per_block=3, ports_per_switch=2)
NAMES = [name for _, name in GRAPH.nodes(data="name")] + ["missing"]
KINDS = ["EK_PORT", "EK_PACKET_SWITCH"]
CONTAINERS = ["EK_AGG_BLOCK", "EK_CONTROL_DOMAIN", "EK_PACKET_SWITCH"]
names = st.sampled_from(NAMES)
reads = st.one_of(
    st.builds(Count, st.sampled_from(KINDS), names, st.sampled_from(CONTAINERS)),
    st.builds(Count, st.sampled_from(KINDS)),
    st.builds(ListChildren, names, st.sampled_from(CONTAINERS)),
    st.builds(Rank, names),
)
adds = st.builds(Add, st.text(min_size=1, max_size=6), st.sampled_from(KINDS), names)
programs = st.one_of(
    st.tuples(st.builds(Remove, names)),
    st.tuples(st.builds(Remove, names), reads),
    st.lists(adds, min_size=1, max_size=3).map(tuple),
    st.tuples(adds, reads),
    st.tuples(adds, adds, reads),
    st.tuples(reads),
    st.tuples(st.builds(Update, names, st.integers(0, 100))),
)


@settings(max_examples=150, deadline=None)
@given(programs)
def test_applied_equals_running_on_a_deep_copy(program) -> None:
    graph = copy.deepcopy(GRAPH)
    before = _snapshot(graph)
    expected = apply_steps(program, copy.deepcopy(GRAPH))
    with applied(program, graph) as result:
        assert result is not None
        assert result["type"] == expected["type"]
        if expected["type"] == "graph":
            got, want = result["data"], expected["data"]
            if isinstance(want, tuple):  # an update of an unknown name answers (graph, name, value)
                assert isinstance(got, tuple) and got[1:] == want[1:]
                got, want = got[0], want[0]
            assert list(got.nodes(data=True)) == list(want.nodes(data=True))
            assert list(got.edges(data=True)) == list(want.edges(data=True))
        else:
            assert result["data"] == expected["data"]
    assert _snapshot(graph) == before, "the graph must be restored exactly, in order"


def test_applied_declines_when_a_new_id_is_taken() -> None:
    graph = tiny_graph()
    graph.add_node(9, name="squatter", type=["EK_PORT"], physical_capacity_bps=1)
    graph.add_edge("ju1.a1.m1.s2c2", 9, type="RK_CONTAINS")
    with applied((Add("p", "EK_PORT", "ju1.a1.m1.s2c1"),), graph) as result:
        assert result is None
    assert graph.nodes[9]["name"] == "squatter"


def test_applied_on_another_graph_class_uses_a_view_for_removal() -> None:
    graph = nx.MultiDiGraph(tiny_graph())
    program = (Remove("ju1.a1.m1.s2c1"), ListChildren("ju1.a1.m1", "EK_AGG_BLOCK"))
    with applied(program, graph) as result:
        assert result == apply_steps(program, copy.deepcopy(graph))
    assert "ju1.a1.m1.s2c1" in graph
