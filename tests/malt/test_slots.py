"""Slot filling: one change said in an order no grammar rule has, and what stays refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.malt import slots
from netmend.malt.parser import QueryError, parse

from .inserted import CRITICAL, refused_or_same

FILLED = [
    ("ju1.s1.s1c3 needs another port -> call it new_p5",
     "Add a new port named new_p5 to ju1.s1.s1c3."),
    ("quick one: new port on ju1.a2.m1.s2c2, name it new_p7",
     "Add a new port named new_p7 to ju1.a2.m1.s2c2."),
    ("ju1.a2.m2.s2c1 needs an extra port - create uplink_9 on it.",
     "Add a new port named uplink_9 to ju1.a2.m2.s2c1."),
    ("new node new_EK_PACKET_SWITCH_3 (EK_PACKET_SWITCH) -> parent ju1.a1.m2. return graph.",
     "Add new node with name new_EK_PACKET_SWITCH_3 type EK_PACKET_SWITCH, to ju1.a1.m2. "
     "Return a graph."),
    ("Can you put a new port called new_p7 on ju1.s2.s2c3?",
     "Add a new port named new_p7 to ju1.s2.s2c3."),
    ("We need an extra port on ju1.a2.m1.s2c3; call it new_p7.",
     "Add a new port named new_p7 to ju1.a2.m1.s2c3."),
    ("New port on switch ju1.a2.m2.s2c1, please; call it uplink_9.",
     "Add a new port named uplink_9 to ju1.a2.m2.s2c1."),
    ("new sw for ju1.s2.dom pls, name it sw3", "Add a new switch named sw3 to ju1.s2.dom."),
    # a kind next to the parent is the parent's; the new node's is said apart
    ("Request: provision a new switch, name sw3, under ctrl domain ju1.s2.dom.",
     "Add a new switch named sw3 to ju1.s2.dom."),
    ("need a new EK_PORT node, name new_EK_PORT_9, under ju1.a2.m2.s2c2 - return the updated "
     "graph pls", "Add new node with name new_EK_PORT_9 type EK_PORT, to ju1.a2.m2.s2c2. "
                  "Return a graph."),
    ("ju1.a2.m2.s2c2 needs a port, so could you add an EK_PORT node named new_EK_PORT_9 "
     "under it?", "Add new node with name new_EK_PORT_9 type EK_PORT, to ju1.a2.m2.s2c2."),
    # more than one new node, said as one list
    ("quick one: ju1.a1.m2.s2c4 needs 3 new ports -> new_q1, new_q2, new_q3",
     "Add ports named new_q1, new_q2 and new_q3 to switch ju1.a1.m2.s2c4."),
    # removals, updates, an addition to each node of a kind
    ("Take these three switches out of the graph: ju1.a1.m1.s2c2, ju1.a1.m2.s2c3, "
     "ju1.a2.m1.s2c4", "Remove ju1.a1.m1.s2c2, ju1.a1.m2.s2c3 and ju1.a2.m1.s2c4 from the "
                       "graph."),
    ("every port on switch ju1.a2.m1.s2c3 should be set to 10 Gb/s",
     "Set the capacity of every port of switch ju1.a2.m1.s2c3 to 10 Gbps."),
    ("one new port in each agg block, then # of ports in the graph?",
     "For each agg block, add a new port to it. Count the ports in the graph."),
    ("new switch in each ctrl domain pls, then # of sw in the graph?",
     "For each control domain, add a new switch to it. Count the switches in the graph."),
    # a question about one node: its capacity, the node of a kind it is in
    ("ju1.s2.s2c1.p4 - how much capacity?", "What is the capacity of port ju1.s2.s2c1.p4?"),
    ("How much capacity is configured on port ju1.a2.m2.s2c2.p1?",
     "What is the capacity of port ju1.a2.m2.s2c2.p1?"),
    ("ju1.a2.m2.s2c4.p4 - which agg block is that in?",
     "Which agg block contains port ju1.a2.m2.s2c4.p4?"),
    ("May I ask to which aggregation block port ju1.a2.m2.s2c4.p1 belongs?",
     "Which agg block contains port ju1.a2.m2.s2c4.p1?"),
    # a set below one node: its child nodes, the nodes of a kind, their count, a ranking
    ("Directly beneath superblock ju1.a1 - which nodes are there?",
     "List all the child nodes of ju1.a1."),
    ("Give me the list of nodes one level below ju1.a1.dom.",
     "List all the child nodes of ju1.a1.dom."),
    ("which ports live under ju1.a1.m1? all of them, any depth",
     "List all ports under agg block ju1.a1.m1."),
    ("Give me a capacity ranking of the ports on ju1.a1.m2.s2c3, top down.",
     "Rank the ports of ju1.a1.m2.s2c3 by capacity."),
    ("By capacity, descending: every child node of ju1.a2.m1.",
     "Rank all child nodes of ju1.a2.m1 by capacity."),
    # an aggregate of the capacity of a set below one node
    ("How much capacity, on average, does a port in aggregation block ju1.a1.m1 have?",
     "What is the average capacity of the ports in agg block ju1.a1.m1?"),
    ("How much capacity do the ports on ju1.s2.s2c1 have combined?",
     "What is the total capacity of the ports of switch ju1.s2.s2c1?"),
    # a list of the nodes of a kind with one capacity filter, said anywhere
    ("Over 10G - which ports in aggregation block ju1.a1.m1 are there?",
     "List the ports in agg block ju1.a1.m1 with capacity above 10 Gbps."),
    ("Under 25G: which ports on ju1.a1.m2.s2c3 fall there?",
     "List the ports of switch ju1.a1.m2.s2c3 with capacity below 25 Gbps."),
    # the k nodes of a kind with the most or least ports or capacity
    ("I need the 3 lowest-capacity switches, by total capacity, in ju1.a2.m1.",
     "List the 3 switches in agg block ju1.a2.m1 with the lowest total capacity."),
    ("Who are the 4 biggest switches by number of ports in ju1.a1.m2?",
     "List the 4 switches in agg block ju1.a1.m2 with the most ports."),
    ("[ops] ju1.a2.m1: biggest switch by total capacity?",
     "List the switch in agg block ju1.a2.m1 with the highest total capacity."),
    # a change said as a condition, then a question
    ("With np3 added as a new port of ju1.a2.m2, how do ju1.a2.m2's child nodes rank by "
     "capacity?", "Add a new port named np3 to ju1.a2.m2. Rank the child nodes of ju1.a2.m2 "
                  "by capacity."),
    ("Add new_sw2 (a switch) to ju1.a2.m1. Which nodes does ju1.a2.m1 then directly contain?",
     "Add a new switch named new_sw2 to ju1.a2.m1. List the child nodes of ju1.a2.m1."),
    ("any chance you could add an EK_PACKET_SWITCH called new_EK_PACKET_SWITCH_2 to ju1.a1.m1? "
     "need the updated graph returned", "Add new node with name new_EK_PACKET_SWITCH_2 type "
                                        "EK_PACKET_SWITCH, to ju1.a1.m1. Return a graph."),
    # a change the grammar reads, then a question only slots read
    ("Please action the removal of ju1.a2.m1.s2c4; after that, rank what ju1.a2.m1 directly "
     "contains by capacity.", "Remove ju1.a2.m1.s2c4 from the graph. Rank the child nodes of "
                              "ju1.a2.m1 by capacity."),
    # one kind said alone after the change is the new node's; "capacity" after the rate is it
    ("ju1.s1.s1c3 needs another port -> call it new_p5, type EK_PORT",
     "Add a new port named new_p5 to ju1.s1.s1c3."),
    ("set ju1.s1.s1c3.p1 to 40G, capacity", "Update the physical capacity value of ju1.s1.s1c3.p1 "
     "to 40 Gbps."),
    # an addition, then what the grammar reads ("it" is the parent)
    ("ju1.s1.s1c3 needs another port -> call it new_p5. Then count the ports in it.",
     "Add a new port named new_p5 to ju1.s1.s1c3. Count the ports in ju1.s1.s1c3."),
]


@pytest.mark.parametrize(("text", "same_as"), FILLED, ids=[t[:50] for t, _ in FILLED])
def test_a_change_or_a_question_in_any_order_reads_as_the_plain_request(text: str, same_as: str) -> None:
    assert parse(text) == parse(same_as)


def test_a_change_asked_whether_it_can_be_done_is_the_change() -> None:
    assert parse("Can a new port called new_p9 be put on ju1.a1.m1.s2c1?") == parse(
        "Add a new port named new_p9 to ju1.a1.m1.s2c1.")


REFUSED = [
    # statements and questions about what is or may be, not a change to make
    "ju1.a1.m1.s2c1 might need a new port called new_p9.",
    "ju1.a1.m1.s2c1 needs another port -> call it new_p9, maybe.",
    "ju1.a1.m1.s2c1 needs another port -> call it new_p9 if possible",
    "ju1.a1.m1.s2c1 already has a new port called new_p9.",
    "Is there a new port called new_p9 on ju1.a1.m1.s2c1?",
    "Should a new port called new_p9 go on ju1.a1.m1.s2c1?",
    # a word that is not part of an addition
    "ju1.a1.m1.s2c1 needs another port -> call it new_p9, not new_p8",
    "ju1.a1.m1.s2c1 needs another faulty port -> call it new_p9",
    "ju1.a1.m1.s2c1 needs another port -> call it new_p9 and count them",
    "ju1.a1.m1.s2c1 needs another port -> call it new_p9 once the optic is in",
    # a slot filled twice, or not at all
    "new port on ju1.a1.m1.s2c1 and ju1.a1.m1.s2c2, name it new_p9",
    "new port on ju1.a1.m1.s2c1, name it new_p9 or new_p8",
    "ju1.a1.m1.s2c1 needs something -> call it new_p9",
    "new on switch ju1.a1.m1.s2c1, name it sw9",
    "new ports on ju1.a1.m1.s2c1, name it new_p9",
    # a number that is not the number of names; a change by an amount, not to it
    "Take these two switches out of the graph: ju1.a1.m1.s2c2, ju1.a1.m2.s2c3, ju1.a2.m1.s2c4",
    "Increase the capacity of ju1.a1.m1.s2c1.p1 by 5 Gbps.",
    # a set picked out by more than its kind and place
    "every port on switch ju1.a2.m1.s2c3 with 1 Gbps should be set to 10 Gb/s",
    "every port on switch ju1.a2.m1.s2c3 except ju1.a2.m1.s2c3.p1 should be set to 10 Gb/s",
    "ju1.a1.m1.s2c1.p1 and the ports of ju1.a1.m1.s2c2 should be set to 10 Gb/s",
    # a change said only as a state, with nothing that wants it
    "Three ports, ju1.a1.m1.s2c1.p1, ju1.a1.m1.s2c1.p2 and ju1.a1.m1.s2c1.p3, deleted.",
    # two names said together are two new nodes only when said so ("N and M", "3 ports")
    "Into ju1.a1.m1 please add new node new_EK_PACKET_SWITCH_2, the ju1.a1.m2 type is "
    "EK_PACKET_SWITCH.",
    "ju1.s2.dom needs one more switch, and I want it named sw12, zorp so go ahead and add that.",
    # names in two sentences are not one list; a name placed twice has no one role
    "Set the capacity of ju1.a1.m2.s2c2.p4. ju1.a1.m1 capacity: 40 Gbps",
    "new switch, name: below sw5; parent: ju1.a2.m1",
    # a question about another node than the one named, or about many
    "What's the capacity of ju1.a1.m1.s2c1.p1's switch?",
    "What's the capacity of the switch ju1.a1.m1.s2c1.p1 is on?",
    "ju1.a2.m2.s2c4.p4 - which agg blocks is that in?",
    "ju1.a1.m1 - which switches are in it, how much capacity?",
    "We're adding a packet switch to agg block ju1.a2.m1: call it new_EK_PACKET_SWITCH_2, and "
    "old return the graph.",
    # a place after the name asks what the name is in; a list and a count at once; a modal
    "ju1.a1.m1 is directly under which node?",
    "can u pull the switch list count for ju1.s1.dom",
    "which ports live under ju1.a1.m1? count all of them, any depth",
    "How many ports would ju1.a1.m1.s2c1 have?",
    # a ranking by something else than capacity, or in two directions
    "Rank the child nodes of ju1.a1.m1, largest first, smallest first, by capacity.",
    "Give me a port-count ranking of the switches in ju1.a1.m1.",
    # one value of a set: which function, or which node?
    "What's the largest average capacity of the ports in ju1.a1.m1?",
    "Which capacity is the largest among the ports in ju1.a1.m1?",
    "How much capacity do the ports in ju1.a1.m1 have, per switch?",
    # a question without "does" that ends on its verb is cut short
    "How much capacity on average the ports in agg block ju1.a1.m1 have",
    # how many, by what, in which direction: each said once
    "the biggest switches in ju1.a1.m1",
    "the switch in ju1.a1.m1 with the most ports and the highest capacity",
    "the 2 switches in ju1.a1.m1 with the most and the least capacity",
    # "child" or "parent" that places no name asks for something the frame has no slot for
    "ju1.s1.dom new switch new_sw8 + child nodes",
    "add new_sw8 switch to ju1.s1.dom, child nodes",
    "add new_sw8 switch to ju1.s1.dom and child nodes",
    "new port new_p9 on ju1.s1.s1c1, parent",
    # one node of a kind asked of a named node, with no place said: the one it is in?
    "ju1.s2.s2c2.p4 which switch",
    "ju1.a2.m1.s2c2.p3 which agg block?",
    # nouns alone after the change ask for a set or a read, and a plural kind is no one node's
    "remove ju1.s1.s1c1, nodes",
    "new switch sw3 under ju1.a2.m1 then nodes",
    "add port new_p5 to ju1.a1.m1.s2c1. ports",
    "set ju1.s1.s1c1.p1 capacity to 40G, ports",
    "update ju1.s1.s1c1.p1 to 10 Gbps, ports by capacity",
    "add port new_p5 to ju1.a1.m1.s2c1 switches",
    "set ju1.s1.s1c1.p1 capacity to 40G ports",
    # a name said to be both new and a place
    "ju1.s2.dom needs one more switch - add it and name it of sw5.",
    # two comparisons, or a comparison of something else than the nodes listed
    "Which ports in agg block ju1.a1.m1 are over 10 Gbps and under 40G?",
    "Which switches in ju1.a1.m1 have ports over 10G?",
    # a condition that is not a change, or a change after it
    "With ju1.a1.m1.s2c1 faulty, how many switches are in ju1.a1.m1?",
    "With a new port np5 on ju1.a1.m1.s2c2, remove ju1.a1.m1.s2c2.p1",
    # a place said twice (a node and the graph); a kind and a name not said together
    "ju1.a1.m1. Count all ports in the graph.",
    "count all ports in the graph. ju1.a1.m1",
    "np3 added as a new port list of ju1.a2.m2",
    "set capacity = 40 Gbps on every port list of ju1.a1.m1.s2c1.",
    # an order with no ranking verb ranks only "by capacity"
    "agg block: ju1.a2.m1; metric: max first capacity of ports",
    # "then" in a question with no change before it
    "Which nodes does ju1.a2.m1 then directly contain?",
    # a question whose answer is not asked for, before a read
    "Is there a new port called new_p9 on ju1.a1.m1.s2c1? Then count the ports in it.",
]


@pytest.mark.parametrize("text", REFUSED)
def test_what_is_not_exactly_one_change_or_question_is_refused(text: str) -> None:
    with pytest.raises(QueryError):
        parse(text)


def test_roles_come_from_the_words_next_to_the_names() -> None:
    def cats(*said: str) -> list[frozenset[str]]:
        return [frozenset(s.split("/")) for s in said]

    # "new port N on switch S": N named by its kind after "new", S placed by "on"
    frame = slots.change(cats("NEW", "KIND/KIND_SG", "NAME", "IN/BY", "KIND/KIND_SG", "NAME"))
    assert frame == ("add", (("new", 2, (1,), None),), ("node", 5, 4))
    # "S: new port, name it N": the name with no role word is the one role left
    frame = slots.change(cats("NAME", "COMMA", "NEW", "KIND/KIND_SG", "COMMA", "NAME_N/ASK",
                                "IT", "NAME"))
    assert frame == ("add", (("new", 7, (3,), None),), ("node", 0, None))
    # two names, neither said to be new or a parent
    assert slots.change(cats("NAME", "NAME", "NEW", "KIND/KIND_SG")) is None
    # "name the ports of S": a question, not an addition
    assert slots.change(cats("ASK", "KIND/KIND_PL", "OF", "NAME")) is None
    # "X gone, capacity 10G": a removal and an update at once is not one change
    assert slots.change(cats("NAME", "GONE", "COMMA", "CAP", "RATE")) is None


def test_a_change_is_asked_for_not_stated_or_wondered_about() -> None:
    def said(text: str) -> list[tuple[str, str]]:
        return [("NAME" if "." in w else "WORD", w) for w in text.split()]

    assert slots.asked(said("can you add a port n to ju1.a ?"))
    assert not slots.asked(said("could a new port n be added to ju1.a ?"))
    assert not slots.asked(said("is there a port n on ju1.a ?"))
    assert not slots.asked(said("a port n was added to ju1.a"))
    assert not slots.asked(said("ju1.a could need a port n"))
    assert not slots.asked(said("maybe add a port n to ju1.a"))


FILLED_TEXTS = [text for text, _ in FILLED]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FILLED_TEXTS), st.sampled_from(CRITICAL + ["zorp", "blue", "count", "was"]),
       st.integers(0, 40))
def test_a_word_outside_the_frame_is_never_skipped(text: str, word: str, at: int) -> None:
    refused_or_same(text, word, at)


@pytest.mark.parametrize("text", [
    "ju1.a2.m2.s2c2.p4. which agg block contains it",
    "re: ju1.a2.m2.s2c2.p4 .. which agg block holds that port",
    "ju1.a1.m1.s2c1 - which agg block has it?",
])
def test_a_kind_that_holds_the_named_node_said_as_a_pronoun_is_above_it(text: str) -> None:
    """"P. which agg block holds it": the agg block is above P (it was read as those below)."""
    (step,) = parse(text).steps
    assert step.nodes.axis == "ancestors" and step.nodes.kind == "EK_AGG_BLOCK"


def test_kinds_that_hold_the_named_node_said_as_a_pronoun_are_refused() -> None:
    with pytest.raises(QueryError):
        parse("ju1.a1.m1. which switches hold it")


@pytest.mark.parametrize(("text", "kind"), [
    ("Where does port ju1.a1.m2.s2c1.p2 live, which agg block?", "agg block"),
    ("Where does ju1.a1.m2.s2c1.p2 sit - which switch?", "switch"),
    ("where's ju1.a1.m2.s2c1.p2 located, in which superblock", "superblock"),
    ("Where is ju1.a1.m2.s2c1.p2: what EK_AGG_BLOCK?", "EK_AGG_BLOCK"),
])
def test_where_a_node_is_asked_as_the_node_of_a_kind_it_is_in(text: str, kind: str) -> None:
    assert parse(text) == parse(f"Which {kind} contains ju1.a1.m2.s2c1.p2?")
    assert parse(f"Remove ju1.a1.m1.s2c1. {text}").steps[1:] == parse(text).steps


@pytest.mark.parametrize("text", [
    "Where is ju1.a1.m2.s2c1.p2, which switches?",  # many: which are meant?
    "Where can I find ju1.a1.m2.s2c1.p2, which switch?",
    "ju1.a1.m2.s2c1.p2 where, which switch?",
    "Where is ju1.a1.m2.s2c1.p2? Which switch?",
    "Where are the ports of ju1.a1.m2.s2c1?",
])
def test_where_a_node_is_never_reads_below_it(text: str) -> None:
    # without a topology the parser cannot know that no switch is below a port; what no
    # rule reads as where the node is, is refused
    with pytest.raises(QueryError):
        parse(text)


def test_a_set_asked_of_a_node_without_a_where_is_still_below_it() -> None:
    assert parse("switch ju1.a1.m2.s2c1, which ports?") == parse(
        "List the ports of ju1.a1.m2.s2c1.")
    assert parse("Could you show me everything that sits one level below ju1.a1.m2?") == parse(
        "List the child nodes of ju1.a1.m2.")
