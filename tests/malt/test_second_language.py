"""Requests written in English as a second language, or typed telegraphically: the false
friends of French and Spanish ("superior to", "in order ascendant", "base on"), plurals made
regular ("childs"), the particles and terms of address of South-East Asian Englishes
("thanks lah", "tolong", "krub"), "cnt", a singular kind after words that count ("how many
switch"), an answer "made" ("make the count of"), and a count said after a change with a
comma alone, and a modal with no one to do it ("Can help me add X ... or not?") are read as
the plain request."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.a1.m1.s2c1"
A = "ju1.a1.m1"


@pytest.mark.parametrize(("text", "plain"), [
    (f"Give me the list of ports of the agg block {A} that have a capacity superior to 2 Gbps.",
     f"List the ports in {A} with capacity above 2 Gbps."),
    (f"List the ports of switch {S} with capacity inferior to 10 Gbps.",
     f"List the ports of switch {S} with capacity below 10 Gbps."),
    (f"I need a ranking of the child nodes of {A} by capacity, in order ascendant please.",
     f"Rank the child nodes of {A} by capacity in ascending order."),
    (f"need ranking of {S} ports base on capacity, thanks",
     f"Rank the ports of {S} by capacity."),
    (f"Give me all the childs of {A} please.", f"List the child nodes of {A}."),
    (f"rm {S} then cnt switches in {A}",
     f"Remove {S} from the graph. Count the switches in {A}."),
    (f"Pls take out {S}.p1 in the graph, thanks lah", f"Remove {S}.p1 from the graph."),
    (f"Tolong remove {S} in the graph and give me switch count for {A} ya",
     f"Remove {S} from the graph. Count the switches in {A}."),
    (f"Kindly help to take out {S}.p4 from the graph, thank you krub",
     f"Remove {S}.p4 from the graph."),
    (f"rm {S}.p1, port count on {S}",
     f"Remove {S}.p1 from the graph. Count the ports in {S}."),
    (f"remove {S}, the number of ports in {A}",
     f"Remove {S} from the graph. Count the ports in {A}."),
    # a singular kind after words that count can only be the plural
    (f"Please remove {S} from graph and count how many switch in {A}.",
     f"Remove {S} from the graph. Count the switches in {A}."),
    (f"give me the number of port under {S}", f"Count the ports in {S}."),
    # "make" an answer, as other languages ask for one
    (f"Please make the count of the ports on {S}.", f"Count the ports in {S}."),
    (f"Can you make me a ranking by capacity of the switches of {A}?",
     f"Rank the switches in {A} by capacity."),
    (f"We need one more switch in {A}, his name is sw5. Add it please, gracias.",
     f"Add a new switch named sw5 to {A}."),
    (f"Can you list every port that exist in {A}?", f"List the ports in {A}."),
    (f"Give me the ports of the switch {S} in a list.", f"List the ports of switch {S}."),
    ("How many ports there are in all the graph?", "Count the ports in the graph."),
    # counts typed as keywords, or with the question word left where the answer goes
    (f"how many ports {S}", f"Count the ports in {S}."),
    ("after that graph got how many switch?", "Count the switches in the graph."),
    # the graph wanted back, and the graph said without "the"
    (f"Add a switch named sw1 to {A}. I need the graph back afterwards.",
     f"Add a new switch named sw1 to {A}."),
    (f"rm {S}, then list direct children of {A} in updated graph",
     f"Remove {S} from the graph. List the child nodes of {A}."),
    (f"rank {S} direct child nodes by physical_capacity_bps attr pls",
     f"Rank the child nodes of {S} by capacity."),
    # a modal with no one to do it, and a yes-or-no question's "or not"
    (f"Hi, can help me add port np1 into {S} and list the child nodes of {S}?",
     f"Add a new port named np1 to {S}. List the child nodes of {S}."),
    (f"Can change the physical capacity of {S}.p1 to 40 Gbps or not?",
     f"Update the physical capacity value of {S}.p1 to 40 Gbps."),
    (f"Can check for me what capacity port {S}.p2 have?", f"What is the capacity of port {S}.p2?"),
    # a capacity to "become" a value, a kind's "name" before the new name
    (f"Hi, can help me make every port on switch {S} become 10 Gbps capacity?",
     f"Set the capacity of every port of switch {S} to 10 Gbps."),
    (f"First add port name np3 into {S}, after that rank {S} child node by capacity.",
     f"Add a new port named np3 to {S}. Rank the child nodes of {S} by capacity."),
])
def test_second_language_and_telegraphic_forms_are_read(text: str, plain: str) -> None:
    same(text, plain)


@pytest.mark.parametrize("text", [
    # a list after a change and a comma alone may be more of what the change changes
    f"remove {S}, child nodes of {A}",
    # a comparison said with a word the false friend does not cover
    f"List the ports of switch {S} with capacity not superior to 10 Gbps.",
    # a singular kind before a name may be said of that node
    f"count port {S}.p1",
    # "or not" asks whether only after a modal; a negated modal is a negation
    f"remove {S} or not?",
    f"can not remove {S}?",
    f"Can remove {S} if not needed?",
    # "become" before no value, "name" before no new name
    f"make the capacity of {S}.p1 become fast",
    f"add port name to {S}",
])
def test_a_list_after_a_comma_or_a_negated_false_friend_stays_refused(text: str) -> None:
    refused(text)
