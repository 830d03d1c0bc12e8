"""Requests written as ``key: value`` fields read as the sentences they stand for."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.malt.parser import QueryError, parse
from netmend.malt.records import RecordError, split_fields, to_request


@pytest.mark.parametrize(("record", "sentence"), [
    ("target: ju1.a1.m2.s2c4; action: remove", "remove ju1.a1.m2.s2c4"),
    ("action: delete | node: ju1.s1.s1c3", "remove ju1.s1.s1c3"),
    ("target: ju1.a1.m2.s2c4; action: add; type: EK_PORT; name: new_p3; return: graph",
     "Add new node with name new_p3 type EK_PORT, to ju1.a1.m2.s2c4. Return a graph."),
    ("op: add_node; parent: ju1.a1.m1; kind: EK_PACKET_SWITCH; name: sw2",
     "add switch sw2 to ju1.a1.m1"),
    ("cmd: list-children; node: ju1.a2", "list the children of ju1.a2"),
    ("target: ju1.a2.m2; action: rank children by capacity; order: asc",
     "rank the children of ju1.a2.m2 by capacity in ascending order"),
    ("switch: ju1.a2.m2.s2c1; rank: ports; by: capacity", "rank the ports of ju1.a2.m2.s2c1 by capacity"),
    ("target: ju1.a1.m1; action: count; kind: port", "count the ports in ju1.a1.m1"),
    ("scope: graph; count: switches", "count the switches in the graph"),
    ("target: ju1.a1.m1.s2c1.p3; attr: physical_capacity_bps; value: 40 Gb/s",
     "set the capacity of ju1.a1.m1.s2c1.p3 to 40 Gbps"),
    ("step1: remove ju1.a1.m1.s2c2; step2: list children of ju1.a1.m1",
     "remove ju1.a1.m1.s2c2, then list the children of ju1.a1.m1"),
    ("agg block: ju1.a1.m1\nshow: switches", "list the switches in agg block ju1.a1.m1"),
    ("step 1: remove ju1.a1.m1.s2c2 | step 2: rank children of ju1.a1.m1 by capacity",
     "remove ju1.a1.m1.s2c2, then rank the children of ju1.a1.m1 by capacity"),
    ("remove: ju1.a2.m1.s2c4; then rank: children of ju1.a2.m1 by capacity",
     "remove ju1.a2.m1.s2c4, then rank the children of ju1.a2.m1 by capacity"),
    ("action: add switch; name: sw5; parent: ju1.a2.m1 -- then list children of ju1.a2.m1",
     "add switch sw5 to ju1.a2.m1, then list the children of ju1.a2.m1"),
    ("for each agg block: add new port; then: count ports in whole graph",
     "For each agg block, add a new port to it. Count the ports in the graph."),
    ("agg block: ju1.a1.m2; top 2 switches by port count",
     "List the 2 switches in agg block ju1.a1.m2 with the most ports."),
    ("scope: agg block ju1.a1.m2; metric: mean port capacity",
     "What is the average capacity of the ports in agg block ju1.a1.m2?"),
    ("switch: ju1.a1.m2.s2c4; add ports: new_q1, new_q2",
     "Add ports named new_q1 and new_q2 to switch ju1.a1.m2.s2c4."),
    # a form's bookkeeping goes, a label of the request holds what to do, and what to send
    # back is what it returns
    ("Action: remove | Target: ju1.a1.m1.s2c1.p1 | Requested by: J. Doe | Priority: P3",
     "remove ju1.a1.m1.s2c1.p1"),
    ("Action: remove; Target: ju1.a1.m1.s2c1.p1; Output needed: updated graph",
     "remove ju1.a1.m1.s2c1.p1"),
    ("Task: list child nodes; Scope: ju1.a1.m1; Expected result: list of node names",
     "list the child nodes of ju1.a1.m1"),
    ("Request: count the ports in ju1.a1.m1 | Due: Friday", "count the ports in ju1.a1.m1"),
    ("Summary: port count for ju1.a1.m1.s2c1 | Requested by: J. Doe",
     "count the ports in ju1.a1.m1.s2c1"),
])
def test_a_record_reads_as_its_sentence(record: str, sentence: str) -> None:
    assert parse(record) == parse(sentence)


@pytest.mark.parametrize("record", [
    "target: ju1.a1.m1; colour: red",  # a field netmend does not read
    "target: ju1.a1.m1; action: frobnicate",
    "target: ju1.a1.m1.s2c1.p3; attr: name; value: foo",  # only the capacity changes
    "target: ju1.a1.m1; action: remove; count: ports",  # two things to do
    "target: ju1.a1.m1; target: ju1.a1.m2; action: remove",  # a slot said twice
    "name: new_p1; type: EK_PORT",  # nothing to do
    "action: add; name: new_p1",  # no parent
    "agg block: ju1.a1.m1; top 2 switches by port count; rack: ju1.a1.m1rack",  # two places
    # bookkeeping that could say what is asked, or an answer the request does not compute
    "Request: count the ports in ju1.a1.m1 | Notes: only the dark ones",
    "Action: remove | Target: ju1.a1.m1.s2c1.p1 | Reason: test run",
    "Action: remove | Target: ju1.a1.m1.s2c1.p1 | Status: on hold",  # a hedge of two words
    "Action: remove | Target: ju1.a1.m1.s2c1.p1 | Status: scheduled",  # only planned
    "Action: remove | Target: ju1.a1.m1.s2c1.p1 | Notes: subject to CAB",
    "Action: remove | Target: ju1.a1.m1.s2c1.p1 | Context: see ju1.a1.m1.s2c1.p2",
    "Task: count the ports in ju1.a1.m1 | Expected output: a graph",
])
def test_a_record_netmend_cannot_read_whole_is_refused(record: str) -> None:
    with pytest.raises(QueryError):
        parse(record)


@pytest.mark.parametrize("text", [
    "remove: ju1.a1.m1.s2c1",  # one field: a verb and its object, for the parser
    "ju1.a2.m2: add switch sw8",  # a headline
    "Ticket 7731: remove ju1.a1.m1.s2c1",
    "Step 1: remove ju1.a1.m1.s2c2. Step 2: list the children of ju1.a1.m1.",
    "under ju1.a1.m1: all ports",
])
def test_text_that_is_no_record_is_left_to_the_parser(text: str) -> None:
    assert split_fields(text) is None


_KEYS = st.sampled_from(["target", "action", "node", "scope", "name", "type", "value", "order",
                         "by", "return", "then", "count", "list", "switch", "colour", "step1",
                         "requested by", "notes", "task", "output needed"])
_VALUES = st.sampled_from(["remove", "add", "count", "list children", "ju1.a1.m1", "graph",
                           "EK_PORT", "new_p1", "40 Gbps", "desc", "capacity", "", "rank ports",
                           "set", "ju1.a1.m1.s2c1.p1"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_KEYS, _VALUES), min_size=1, max_size=5),
       st.sampled_from(["; ", " | ", "\n", " / "]))
def test_any_record_is_a_query_or_a_typed_refusal(fields, separator) -> None:
    text = separator.join(f"{k}: {v}" for k, v in fields)
    try:
        parse(text)
    except QueryError as exc:
        assert exc.expected
    try:
        parsed = split_fields(text)
        if parsed is not None:
            assert isinstance(to_request(parsed), str)
    except RecordError as exc:
        assert str(exc)


@pytest.mark.parametrize("text", [
    # a field of bookkeeping that may say which nodes of a set are meant
    "Remove all ports of ju1.a1.m1.s2c1.\nPriority: uplinks",
    "List the ports of ju1.a1.m1.s2c1.\nNote: uplinks",
    "Priority: dark optics\nRemove all ports of ju1.a1.m1.s2c1.",
    # before a change to a set, a word netmend does not know (a name may be a noun)
    "Remove all ports of ju1.a1.m1.s2c1.\nOwner: dchen",
])
def test_bookkeeping_that_may_pick_nodes_out_keeps_a_set_request_refused(text: str) -> None:
    with pytest.raises(QueryError):
        parse(text)


@pytest.mark.parametrize(("text", "plain"), [
    ("Remove all ports of ju1.a1.m1.s2c1.\nPriority: high\nTicket: NET-1234",
     "Remove all ports of ju1.a1.m1.s2c1."),
    ("List the ports of ju1.a1.m1.s2c1.\nOwner: dchen", "List the ports of ju1.a1.m1.s2c1."),
    ("Remove ju1.a1.m1.s2c1.p1.\nNote: uplinks", "Remove ju1.a1.m1.s2c1.p1."),
])
def test_bookkeeping_that_cannot_is_set_aside(text: str, plain: str) -> None:
    assert parse(text) == parse(plain)
