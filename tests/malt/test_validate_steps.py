"""Topology validation follows the steps of a request in order, on the model.

A name an earlier step removes is free for a later addition; a node an earlier
step adds exists for a later step. The golden tests pin both orders on the
built-in and the public MALT topology (request, validation, commit, emitted code
against the reference); the property test checks over random step sequences
that the verdict is the one found by simulating the steps one at a time with the
reference semantics and checking each step alone against the graph it meets.
"""

from __future__ import annotations

import copy
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.agent import respond
from netmend.malt import ir, topology
from netmend.malt import kinds as K
from netmend.malt.parser import Parsed, QueryError, parse, parse_request
from netmend.malt.planner import plan
from netmend.malt.validate import validate

from . import evaluator

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "malt" / "malt-graph.textproto.txt"
SWITCH = "ju1.a1.m1.s2c1"
PORT = "ju1.a1.m1.s2c1.p1"
NEW = "ju1.a1.m1.s2c1.p99"
REPLACE = f"Remove {PORT}, then add port {PORT} to {SWITCH}."
ADD_THEN_REMOVE = f"Add port {NEW} to {SWITCH}, then remove {NEW}."


@pytest.fixture(scope="module")
def real_graph():
    if not REAL.exists():
        pytest.skip(f"the public MALT topology is not next to the repository ({REAL.name})")
    return topology.load(REAL)


def _names(graph: nx.Graph) -> list:
    return sorted(name for _, name in graph.nodes(data="name"))


def _emitted_matches_reference(graph: nx.DiGraph, text: str) -> None:
    before = copy.deepcopy(graph)
    result, _ = evaluator.run_reply(respond(text), graph)
    kind, expected = evaluator.ground_truth(parse(text).to_plan(), graph)
    assert evaluator.correct(kind, expected, result) and evaluator.safe(result), text
    assert evaluator.same_graph(before, graph), "the evaluator's G must be untouched"


def _replace(graph: nx.DiGraph) -> None:
    parsed = parse_request(REPLACE)
    assert parsed.query.to_plan() == (("remove", PORT), ("add", PORT, K.PORT, SWITCH))
    validate(parsed, graph)  # the removal frees the name: no "already exists"
    p = plan(parsed.query, graph)
    assert p.requested_verdict.ok and p.committed_verdict.ok
    committed = p.committed_graph
    assert _names(committed) == _names(graph)
    [port] = [n for n, name in committed.nodes(data="name") if name == PORT]
    assert [committed.nodes[s]["name"] for s in committed.pred[port]] == [SWITCH]
    assert K.PORT in K.kinds_of(committed.nodes[port])
    assert committed.nodes[port]["physical_capacity_bps"] == 1000
    _emitted_matches_reference(graph, REPLACE)


def _add_then_remove(graph: nx.DiGraph) -> None:
    parsed = parse_request(ADD_THEN_REMOVE)
    assert parsed.query.to_plan() == (("add", NEW, K.PORT, SWITCH), ("remove", NEW))
    validate(parsed, graph)  # the addition makes the name exist for the removal
    p = plan(parsed.query, graph)
    assert p.requested_verdict.ok and p.committed_verdict.ok
    committed = p.committed_graph
    assert _names(committed) == _names(graph)
    assert committed.number_of_edges() == graph.number_of_edges()
    _emitted_matches_reference(graph, ADD_THEN_REMOVE)


def test_remove_then_add_the_same_name_builtin() -> None:
    _replace(topology.default())


def test_add_then_remove_builtin() -> None:
    _add_then_remove(topology.default())


@pytest.mark.needs_shared
def test_remove_then_add_the_same_name_malt(real_graph) -> None:
    _replace(real_graph)


@pytest.mark.needs_shared
def test_add_then_remove_malt(real_graph) -> None:
    _add_then_remove(real_graph)


@pytest.mark.parametrize(("text", "fragment"), [
    # Without the removal the name is taken.
    (f"Add port {PORT} to {SWITCH}.", "already exists"),
    (f"Remove {NEW}.", "no node is named"),
    # A node an earlier step adds exists for a later step, with the kind it was given.
    (f"Add port {NEW} to {SWITCH}, then update the capacity of {NEW} to 400.", None),
    ("Add switch ju1.a1.m1.s9 to ju1.a1.m1, then add port ju1.a1.m1.s9.p7 to ju1.a1.m1.s9.",
     None),
    # An added rack is no port, so it has no capacity to set.
    ("Add rack ju1.a1.r9 to ju1.a1, then update the capacity of ju1.a1.r9 to 400.",
     "is not a port"),
])
def test_what_the_steps_leave_is_what_later_steps_meet(text: str, fragment: str | None) -> None:
    parsed = parse_request(text)
    if fragment is None:
        validate(parsed, topology.default())
    else:
        with pytest.raises(QueryError, match=fragment):
            validate(parsed, topology.default())


# ---------------------------------------------------------------- property: the verdict is the simulation's

_GRAPH = topology.synthetic(seed=0, superblocks=1, agg_blocks=1, spine_blocks=1,
                            switches_per_block=2, ports_per_switch=2)
_BY_KIND = topology.names_by_kind(_GRAPH)
_SWITCHES = _BY_KIND[K.PACKET_SWITCH][:2] + ["new.s1"]
_PORTS = _BY_KIND[K.PORT][:3] + ["new.p1", "new.p2"]
_NAMES = _SWITCHES + _PORTS

_change = st.one_of(
    st.builds(ir.Add, st.sampled_from(_PORTS), st.just(K.PORT), st.sampled_from(_SWITCHES)),
    st.builds(ir.Add, st.sampled_from(_SWITCHES), st.just(K.PACKET_SWITCH),
              st.sampled_from(_BY_KIND[K.AGG_BLOCK])),
    st.builds(ir.Remove, st.sampled_from(_NAMES)),
    st.builds(ir.Update, st.sampled_from(_NAMES), st.integers(1, 5000)),
)
_read = st.one_of(
    st.builds(ir.ListChildren, st.sampled_from(_SWITCHES)),
    st.builds(ir.CapacityOf, st.sampled_from(_NAMES)),
)


def _verdict(steps: tuple, graph: nx.DiGraph) -> str | None:
    try:
        validate(Parsed(ir.Query(steps), ()), graph)
    except QueryError as exc:
        return str(exc)
    return None


def _simulated(steps: tuple, graph: nx.DiGraph) -> str | None:
    """Each step alone against the graph the reference leaves after the steps before it."""
    state = graph
    for step in steps:
        found = _verdict((step,), state)
        if found is not None:
            return found
        if not isinstance(step, ir.READS):
            _, state = evaluator.ground_truth((step.literal(),), state)
    return None


@settings(max_examples=300, deadline=None)
@given(st.lists(_change, min_size=1, max_size=5), st.one_of(st.none(), _read))
def test_the_verdict_is_that_of_the_steps_one_by_one(changes: list, read) -> None:
    steps = tuple(changes) + (() if read is None else (read,))
    graph = copy.deepcopy(_GRAPH)
    assert _verdict(steps, graph) == _simulated(steps, graph)
    assert evaluator.same_graph(graph, _GRAPH), "validation must leave the topology as it was"


@pytest.mark.parametrize("text", [
    "Count the switches in ju1.a1.m1 per rack.",  # no rack is in an agg block
    "Rank the racks in agg block ju1.a1.m1 by switches.",
    "List the 2 ports in ju1.a1.m1.s2c1.p1 with the highest capacity.",
    # any set, not only a ranking: the agg block that holds P is what is meant
    "List the agg blocks under port ju1.a1.m1.s2c1.p1.",
    "Which agg blocks does port ju1.a1.m1.s2c1.p1 hold?",
    "Which children of superblock ju1.a1 are ports?",
])
def test_a_set_of_a_kind_its_place_never_holds_is_refused(text: str) -> None:
    with pytest.raises(QueryError, match="in the topology holds"):
        validate(parse_request(text), topology.default())


def test_which_kinds_hold_which_comes_from_the_topology() -> None:
    # racks hold switches directly in the MALT topology, though its schema puts a chassis
    # between them
    validate(parse_request("Which child nodes of rack ju1.s1rack are switches?"),
             topology.default())
    # with no port anywhere, a switch holds none, until a step before the list adds one
    graph = _GRAPH.copy()
    graph.remove_nodes_from([n for n, a in _GRAPH.nodes(data=True) if K.PORT in K.kinds_of(a)])
    switch = _BY_KIND[K.PACKET_SWITCH][0]
    with pytest.raises(QueryError, match="in the topology holds"):
        validate(parse_request(f"List the ports of {switch}."), graph)
    validate(parse_request(f"Add port new.p1 to {switch}. List the ports of {switch}."), graph)


def test_a_count_of_a_kind_its_place_never_holds_is_none() -> None:
    validate(parse_request("Count the switches in port ju1.a1.m1.s2c1.p1."), topology.default())


def test_a_ranking_of_a_kind_its_place_holds_is_validated() -> None:
    for text in ("List the 3 switches in ju1.a1 with the most ports.",
                 "List the 3 racks in the graph with the most switches."):
        validate(parse_request(text), topology.default())
