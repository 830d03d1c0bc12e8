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


P = f"{S}.p1"


@pytest.mark.parametrize(("text", "plain"), [
    # Romance languages: an infinitive that orders, a need or a possibility without its "it",
    # "can you to", "I need that you", "say me", a noun before its adjective, "of" after
    # "after" and a comparison, an operation said as a noun after "do" or "make"
    (f"To remove {S} from the graph.", f"Remove {S} from the graph."),
    (f"To add new port np9 in {S}. After, to do the ranking of the child nodes of {S} by "
     "capacity.", f"Add a new port named np9 to {S}. Rank the child nodes of {S} by capacity."),
    (f"To make the removal of {P} from the graph and to return a graph.",
     f"Remove {P} from the graph. Return a graph."),
    (f"Is necessary remove {S} from the graph. obrigado", f"Remove {S} from the graph."),
    (f"is possible you create a new port called np6 in {S}?", f"Add a new port named np6 to {S}."),
    (f"Please can you to remove {S} from the graph? grazie", f"Remove {S} from the graph."),
    (f"I need that you make the removal of {P} from the graph. Then do the listing of the "
     f"children of {S}", f"Remove {P} from the graph. List the child nodes of {S}."),
    (f"Say me the capacity of the port {P}, por favor.", f"What is the capacity of port {P}?"),
    ("how much is the capacity total of ju1.a1.m1? obrigado", f"What is the total capacity of {A}?"),
    (f"Please, list the ports of the switch {S} with capacity below of 10 Gbps.",
     f"List the ports of switch {S} with capacity below 10 Gbps."),
    (f"Can you to remove {P} from the graph? After of removing it I want that you rank the "
     f"child nodes of {S} by capacity.",
     f"Remove {P} from the graph. Rank the child nodes of {S} by capacity."),
    (f"there is how many switches in the agg block {A}? valeu", f"Count the switches in {A}."),
    (f"Which are the switches that have in agg block {A}?", f"List the switches in agg block {A}."),
    (f"Pessoal, in what switch stays the port {P}? abraço", f"Which switch contains port {P}?"),
    (f"the port {P} is of which agg block?", f"Which agg block contains port {P}?"),
    (f"Please can you to put the capacity of {P} at 40 Gbps?",
     f"Set the capacity of {P} to 40 Gbps."),
    (f"update the physical capacity of {P} for 10 Gbps", f"Set the capacity of {P} to 10 Gbps."),
    (f"I want that you cancel {S} from the graph, por favor.", f"Remove {S} from the graph."),
    # "ok?" after a request asked of its reader asks to be heard, not whether
    (f"Please remove {S} from the graph, ok?", f"Remove {S} from the graph."),
    (f"To update the capacity physical of {P} to 10 Gbps, ok?",
     f"Set the capacity of {P} to 10 Gbps."),
    # West African English and Pidgin: "abeg", "oga", "wey dey", "o" that ends a sentence
    (f"Oga abeg extract {P} from the graph o.", f"Remove {P} from the graph."),
    (f"Abeg help me count the ports wey dey {S} o.", f"Count the ports in {S}."),
    (f"How many ports dey inside {A}?", f"Count the ports in {A}."),
    # South Asian English: address, "do one thing", "coming under", "I am wanting", "is having"
    (f"do one thing yaar, remove {S} itself from the graph",
     f"Remove {S} from the graph."),
    (f"bhai how many switches are coming under {A}? tx", f"Count the switches in {A}."),
    (f"Hi team, I am wanting to know which switch is having port {P}. thnx",
     f"Which switch contains port {P}?"),
    # texting: slips of the keys, "thn", "2", "4", "r", and what the phone adds
    (f"pls remove {P} from teh grpah - sent from my phone", f"Remove {P} from the graph."),
    (f"add port np5 2 {S} thn count ports in {S}",
     f"Add a new port named np5 to {S}. Count the ports in {S}."),
    (f"del {S} -> switch count 4 {A} thx", f"Remove {S} from the graph. Count the switches in {A}."),
    (f"which ports of {S} r under 10 Gbps capacity?",
     f"List the ports of switch {S} with capacity below 10 Gbps."),
    (f"pls chnage {P} capacity to 40 Gbps", f"Set the capacity of {P} to 40 Gbps."),
    # Pidgin "get" (have) and "am" (it), a value a capacity is "to be"
    (f"Abeg which 2 switches in agg block {A} get the most ports?",
     f"List the 2 switches in agg block {A} with the most ports."),
    (f"Oga, how many ports dey {S}? Count am for me.", f"Count the ports in {S}."),
    (f"Abeg make the physical capacity of port {P} to be 10 Gbps.",
     f"Set the capacity of {P} to 10 Gbps."),
    # German, Dutch, Scandinavian: closings and greetings, "hereby I ask to", a verb said
    # before "afterwards"
    (f"Hej, can you count me the ports in {S}? Mvh Lars", f"Count the ports in {S}."),
    (f"Moin, hereby I ask to remove {P} from the graph. Gruß", f"Remove {P} from the graph."),
    (f"Remove {S} from the graph and list afterwards the child nodes of {A}. Met vriendelijke "
     "groet", f"Remove {S} from the graph. List the child nodes of {A}."),
    (f"Please set the capacity of {P} on 40 Gbps. Danke", f"Set the capacity of {P} to 40 Gbps."),
    # Japanese: the topic said first, courtesies, faces and a tilde that end a sentence
    (f"About {S}, how many port is there? please count.", f"Count the ports in {S}."),
    (f"About {A}. I want to add new switch named sw11 there, then show me child nodes of {A}~",
     f"Add a new switch named sw11 to {A}. List the child nodes of {A}."),
    (f"I want ranking of {A} child nodes by capacity. onegai (^^)",
     f"Rank the child nodes of {A} by capacity."),
    # French: "it would be necessary to", "the totality of", a place verb after "is"
    (f"It would be necessary to remove {P} from the graph svp. Cordialement",
     f"Remove {P} from the graph."),
    (f"Bonjour, can you list the totality of the child nodes of {A} ? Merci",
     f"List the child nodes of {A}."),
    (f"Can you please tell me in which switch is located the port {P} ?",
     f"Which switch contains port {P}?"),
    # Slavic languages: "make remove of", "need to" with no subject, "I am need", "summary"
    (f"please make remove of {P} from graph, then rank child nodes of {S} by capacity",
     f"Remove {P} from the graph. Rank the child nodes of {S} by capacity."),
    (f"need to delete port {P} from the graph", f"Remove {P} from the graph."),
    ("I am need list of all switches in the graph", "List all switches in the graph."),
    (f"how much is summary capacity of ports in switch {S}? спасибо",
     f"What is the total capacity of the ports in switch {S}?"),
    # typing fast: two words run together, slips of the keys
    (f"pls delete {P} fromthe graph then retrun the graph", f"Remove {P} from the graph."),
    (f"whcih switch has port {P}", f"Which switch contains port {P}?"),
    # the value said before the capacity, "the graph updated", "say me" said last
    (f"Is necessary change to 40 Gbps the capacity of the ports {P} and {S}.p2, ok?",
     f"Set the capacity of {P} and {S}.p2 to 40 Gbps."),
    (f"Please can you to remove {P} from the graph and then list the child nodes of {S} in "
     "the graph updated? grazie", f"Remove {P} from the graph. List the child nodes of {S}."),
    (f"Which agg block contains port {P}? Say me please. Saludos",
     f"Which agg block contains port {P}?"),
    (f"The port {P} must be eliminated of the graph, ok?", f"Remove {P} from the graph."),
    # a phone message signed after a dash
    (f"NEED {P} cap set at 40 Gbps asap - Raj, DH2", f"Set the capacity of {P} to 40 Gbps."),
])
def test_forms_of_more_englishes_are_read(text: str, plain: str) -> None:
    same(text, plain)


@pytest.mark.parametrize("text", [
    # a purpose said before its request is no order
    f"To remove {S} from the graph, list the children of {A}.",
    # a need asked as a question asks whether
    f"Is necessary remove {S} from the graph?",
    # "ok?" after a bare order, or a first person who may act, asks whether
    f"remove {S} from the graph, ok?",
    f"I remove {S} from the graph please, ok?",
    f"we remove {S} please, ok?",
    "rm ju1.a1.m1.s2c1 k?",
    # "cancel" that names no graph to take the node from may call something off
    f"cancel {S}",
    # "2" after a kind, or before one, is a number
    f"add port 2 {S}",
    # a slip that is an English word stays that word
    f"list the pots of {S}",
    # "about" before no node may say how much; a tilde before a number says about
    f"About 10 Gbps ports of {S}, list them",
    f"list ports of {S} with capacity ~10 Gbps",
    # a need asked as a question asks whether
    f"need to delete port {P} from the graph?",
    # a signature after a set may name some of it
    f"count ports in {A} - Uplinks",
])
def test_forms_that_may_say_more_stay_refused(text: str) -> None:
    refused(text)
