"""The safety check scoped to a change equals the full check, violations and order alike.

Random changes of every kind the rules look at (nodes and edges added and removed, kinds,
capacities and edge types rewritten) are made to safe and unsafe topologies; the verdict
:func:`safety.check_change` finds from the base's full check and the changed nodes must be
:func:`safety.check`'s on the changed graph. The planner's working copies and commits are
checked the same way on real requests.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.malt import safety
from netmend.malt.parser import parse
from netmend.malt.planner import diff, plan, working_copy
from netmend.malt.topology import synthetic

KINDS = ["EK_PORT", "EK_PACKET_SWITCH", "EK_AGG_BLOCK", "EK_SUPERBLOCK", "EK_RACK",
         "EK_CHASSIS", "EK_TOASTER"]
EDGE_TYPES = ["RK_CONTAINS", "RK_CONTROLS", "RK_LIKES", None]
CAPACITIES = [0, 1000, 1e9, None]


def _base(seed: int, unsafe: bool) -> nx.DiGraph:
    # Small, with switches of one or two ports, so random moves often hit a switch's last port.
    graph = synthetic(seed % 3, superblocks=1, agg_blocks=1 + seed % 2, spine_blocks=1,
                      switches_per_block=1 + seed % 2, ports_per_switch=1 + seed % 2)
    if unsafe:  # start from a topology that already breaks rules, in several places
        rng = random.Random(seed)
        for _ in range(4):
            _mutate(graph, rng)
    return graph


def _mutate(graph: nx.DiGraph, rng: random.Random) -> None:
    nodes = list(graph.nodes)
    if nodes and rng.random() < 0.5:  # often a switch or a port, the kinds two rules join
        near = [n for n in nodes if any(k in (graph.nodes[n].get("type") or [])
                                        for k in ("EK_PORT", "EK_PACKET_SWITCH"))]
        nodes = near or nodes
    move = rng.randrange(8)
    if move == 0 or not nodes:
        new = f"new{len(graph)}-{rng.randrange(10**6)}"
        graph.add_node(new, name=new, type=[rng.choice(KINDS)], physical_capacity_bps=1000)
        if nodes and rng.random() < 0.7:
            graph.add_edge(rng.choice(nodes), new, type=rng.choice(EDGE_TYPES[:2]))
    elif move == 1:
        graph.remove_node(rng.choice(nodes))
    elif move == 2:
        a, z = rng.choice(nodes), rng.choice(nodes)
        attrs = {} if (kind := rng.choice(EDGE_TYPES)) is None else {"type": kind}
        graph.add_edge(a, z, **attrs)
    elif move == 3 and graph.number_of_edges():
        graph.remove_edge(*rng.choice(list(graph.edges)))
    elif move == 4:
        attrs = graph.nodes[rng.choice(nodes)]
        value = rng.choice(CAPACITIES)
        if value is None:
            attrs.pop("physical_capacity_bps", None)
        else:
            attrs["physical_capacity_bps"] = value
    elif move == 5:
        choice = rng.choice([[rng.choice(KINDS)], rng.choice(KINDS), [], None])
        graph.nodes[rng.choice(nodes)]["type"] = choice
    elif move == 6 and graph.number_of_edges():
        a, z = rng.choice(list(graph.edges))
        graph.edges[a, z]["type"] = rng.choice(EDGE_TYPES[:3])
    else:
        graph.nodes[rng.choice(nodes)]["name"] = f"renamed{rng.randrange(100)}"


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 12), unsafe=st.booleans(),
       extra=st.integers(0, 5))
def test_the_scoped_check_is_the_full_check(seed: int, moves: int, unsafe: bool,
                                            extra: int) -> None:
    before = _base(seed, unsafe)
    baseline = safety.Baseline(before)
    assert baseline.verdict == safety.check(before)
    after = working_copy(before)
    rng = random.Random(seed + 1)
    for _ in range(moves):
        _mutate(after, rng)
    changed = safety.changed_nodes(before, after)
    assert changed is not None
    assert safety.check_change(baseline, after, changed) == safety.check(after)
    # Any superset of the changed nodes gives the same verdict.
    more = set(changed) | set(rng.sample(list(before), min(extra, len(before))))
    assert safety.check_change(baseline, after, more) == safety.check(after)
    # And the change found from them is the one found by comparing every node.
    assert diff(before, after, changed) == diff(before, after) == diff(before, after, more)


def test_the_changed_nodes_are_exactly_those_that_differ() -> None:
    before = _base(1, False)
    after = working_copy(before)
    assert safety.changed_nodes(before, after) == set()
    port = next(n for n, a in after.nodes(data=True) if "EK_PORT" in a["type"])
    switch = next(iter(after.pred[port]))
    after.nodes[port]["physical_capacity_bps"] = 0
    assert safety.changed_nodes(before, after) == {port}
    after.edges[switch, port]["type"] = "RK_CONTROLS"
    assert safety.changed_nodes(before, after) == {port, switch}
    assert safety.changed_nodes(before, before.subgraph(list(before))) is None


@pytest.mark.parametrize("request_text", [
    "Remove ju1.a1.m1.s2c1 from the graph. Return a graph.",
    "remove ju1.a1.m1.s2c1.p1, ju1.a1.m1.s2c1.p2 and ju1.a1.m1.s2c2.p1",
    "Add new node with name new_p type EK_PORT, to ju1.a1.m1.s2c1. Return a graph.",
    "Add new node with name new_p type EK_PORT, to ju1.a1.m1. Return a graph.",
    "Add new node with name new_s type EK_PACKET_SWITCH, to ju1.a1.m1. Return a graph.",
    "set the capacity of every port of switch ju1.a1.m1.s2c1 to 0 Gbps",
    "Update the physical capacity value of ju1.a1.m1.s2c1.p1 to 0. Return a graph.",
    "For each EK_AGG_BLOCK, add a new EK_PORT to it. Count the total number of EK_PORT in the "
    "updated graph. Return only the counts.",
    "count the ports in ju1.a1.m1",
])
@pytest.mark.parametrize("unsafe", [False, True])
def test_plans_are_judged_as_the_full_check_judges_them(request_text: str, unsafe: bool) -> None:
    topology = synthetic()
    if unsafe:
        rng = random.Random(7)
        for _ in range(6):
            _mutate(topology, rng)
    query = parse(request_text)
    scoped = plan(query, topology, baseline=safety.Baseline(topology))
    assert scoped.requested_verdict == safety.check(scoped.requested_graph)
    assert scoped.committed_verdict == safety.check(scoped.committed_graph)
    full = plan(query, topology)
    if scoped.answer_type == "graph":  # the data is the requested graph itself
        assert nx.utils.graphs_equal(scoped.data, full.data)
    else:
        assert scoped.data == full.data
    assert (scoped.change, scoped.notes, scoped.requested_verdict,
            scoped.committed_verdict) == (full.change, full.notes,
                                          full.requested_verdict, full.committed_verdict)


def test_the_working_copy_keeps_every_order_the_evaluators_deepcopy_keeps() -> None:
    import copy

    topology = synthetic(3)
    rng = random.Random(3)
    for _ in range(30):  # edges added out of node order, so orders differ from a rebuild
        a, z = rng.sample(list(topology), 2)
        topology.add_edge(a, z, type="RK_CONTROLS")
    mine, theirs = working_copy(topology), copy.deepcopy(topology)
    assert list(mine) == list(theirs) and list(mine.succ) == list(theirs.succ)
    for node in topology:
        assert mine.nodes[node] == theirs.nodes[node]
        assert mine.nodes[node] is not topology.nodes[node]
        assert list(mine.succ[node].items()) == list(theirs.succ[node].items())
        assert list(mine.pred[node]) == list(theirs.pred[node])
        for target in mine.succ[node]:
            assert mine.succ[node][target] is mine.pred[target][node]
            assert mine.succ[node][target] is not topology.succ[node][target]
