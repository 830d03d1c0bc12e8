"""The reference quirks, one small case each, and planner properties over random requests."""

from __future__ import annotations

import copy

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from netmend.malt import ir, safety, topology
from netmend.malt.planner import plan
from netmend.malt.runtime import run_plan

from . import evaluator


def tiny() -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_node("agg", name="agg", type=["EK_AGG_BLOCK"])
    g.add_node("dom", name="dom", type=["EK_CONTROL_DOMAIN"])
    for s in ("s1", "s2"):
        g.add_node(s, name=s, type=["EK_PACKET_SWITCH", "EK_CONTROL_POINT"])
        g.add_edge("agg", s, type="RK_CONTAINS")
        g.add_edge("dom", s, type="RK_CONTAINS")
        for p, cap in (("p1", 1e9), ("p2", 4e9)):
            g.add_node(f"{s}.{p}", name=f"{s}.{p}", type=["EK_PORT"], physical_capacity_bps=cap)
            g.add_edge(s, f"{s}.{p}", type="RK_CONTAINS")
    g.add_edge("agg", "dom", type="RK_CONTROLS")
    return g


def test_new_switch_gets_integer_ids_and_the_repr_named_port() -> None:
    g = tiny()
    n = g.number_of_nodes()
    result = run_plan(g, (("add", "sw9", "EK_PACKET_SWITCH", "agg"),))
    assert g.nodes[n + 1] == {"name": "sw9", "type": "EK_PACKET_SWITCH"}
    assert g.nodes[n + 2] == {"name": "{'name': 'sw9', 'type': 'EK_PACKET_SWITCH'}.p1",
                              "type": "EK_PORT", "physical_capacity_bps": 1000}
    assert g.has_edge("agg", n + 1) and g.has_edge(n + 1, n + 2)
    assert result["updated_graph"] is g  # a safe request commits exactly what was asked


def test_new_port_under_a_block_is_answered_but_not_committed() -> None:
    g = tiny()
    result = run_plan(g, (("add", "p9", "EK_PORT", "agg"), ("list", "agg")))
    assert result["data"] == ["s1", "s2", "p9"]
    assert "p9" not in set(nx.get_node_attributes(result["updated_graph"], "name").values())
    assert safety.is_safe(result["updated_graph"])


def test_count_is_per_edge_breadth_first() -> None:
    g = tiny()
    g.add_edge("agg", "s1.p1", type="RK_CONTAINS")  # a second path to the same port
    assert run_plan(g, (("count", "EK_PORT", "agg"),))["data"] == 5
    assert run_plan(g, (("count", "EK_PORT", "nope"),))["data"] == {"nope": "not found"}
    assert run_plan(g, (("count", "EK_PORT", None),))["data"] == 4


def test_rank_sums_own_and_child_ports_and_is_stable() -> None:
    g = tiny()
    assert run_plan(g, (("rank", "agg"),))["data"] == [("s1", 5e9), ("s2", 5e9)]
    assert run_plan(g, (("rank", "s1"),))["data"] == [("s1.p2", 4e9), ("s1.p1", 1e9)]


def test_first_node_by_name_wins_and_unknown_names_change_nothing() -> None:
    g = tiny()
    g.add_node(99, name="s1", type="EK_PACKET_SWITCH")  # same name, later in node order
    run_plan(g, (("remove", "s1"),))
    assert "s1" not in g and 99 in g
    before = copy.deepcopy(g)
    result = run_plan(g, (("remove", "ghost"), ("list", "ghost")))
    assert result["data"] == [] and nx.utils.graphs_equal(before, g)


def test_removal_cascades_and_update_to_zero_is_not_committed() -> None:
    g = tiny()
    result = run_plan(g, (("remove", "s1"),))
    assert {"s1.p1", "s1.p2"} <= set(g.nodes)  # the exact answer keeps the orphans
    assert not {"s1.p1", "s1.p2"} & set(result["updated_graph"].nodes)
    g = tiny()
    result = run_plan(g, (("update", "s2.p1", 0),))
    assert g.nodes["s2.p1"]["physical_capacity_bps"] == 0
    assert result["updated_graph"].nodes["s2.p1"]["physical_capacity_bps"] == 1e9


def test_removing_the_last_port_takes_the_switch_along() -> None:
    g = tiny()
    result = run_plan(g, (("remove", "s2.p1"), ("remove", "s2.p2")))
    assert "s2" not in result["updated_graph"]
    assert safety.is_safe(result["updated_graph"])


BASE = topology.synthetic(seed=2, switches_per_block=2, ports_per_switch=2)
NAMES = sorted(topology.iter_names(BASE))
KINDS = ["EK_PORT", "EK_PACKET_SWITCH", "EK_AGG_BLOCK", "EK_CONTROL_DOMAIN", "EK_RACK"]
existing = st.sampled_from(NAMES)
mutations = st.one_of(
    st.builds(ir.Add, st.from_regex(r"new_[a-z0-9]{1,6}", fullmatch=True), st.sampled_from(KINDS),
              existing),
    st.builds(ir.Remove, existing),
    st.builds(ir.Update, existing, st.integers(min_value=0, max_value=10**10)),
    st.builds(ir.ForEachAdd, st.sampled_from(KINDS), st.sampled_from(KINDS)),
)
reads = st.one_of(
    st.builds(ir.Count, st.sampled_from(KINDS), st.one_of(st.none(), existing)),
    st.builds(ir.ListChildren, existing),
    st.builds(ir.Rank, existing),
)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutations, max_size=4), st.one_of(st.none(), reads))
def test_planner_commits_only_safe_graphs_and_answers_exactly(muts, read) -> None:
    steps = tuple(muts) + ((read,) if read else ())
    if not steps:
        return
    query = ir.Query(steps)
    p = plan(query, BASE)
    assert p.committed_verdict.ok and safety.is_safe(p.committed_graph)
    try:
        kind, expected = evaluator.ground_truth(query.to_plan(), BASE)
    except evaluator.Incomparable:
        return
    result = {"data": p.data if p.answer_type != "graph" else p.requested_graph}
    assert evaluator.correct(kind, expected, result)
    if p.requested_verdict.ok:
        assert not p.notes or all(note.startswith("nothing") for note in p.notes)
