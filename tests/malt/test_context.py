"""Why a request is made, said first or last, is set aside; anything that could change it is not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.malt import context
from netmend.malt.parser import QueryError, _normalized, lex, parse, tokenize

from .inserted import CRITICAL, refused_or_same

SAID_WITH_CONTEXT = [
    ("Can you list the ports on switch ju1.a2.m1.s2c4? Remote hands want to check labels.",
     "List the ports of switch ju1.a2.m1.s2c4."),
    ("Could the ports of spine switch ju1.s2.s2c1 be listed, as required by the migration "
     "checklist?", "List the ports of switch ju1.s2.s2c1."),
    ("We're reviewing spine headroom - could you rank the ports of ju1.s1.s1c2 by capacity?",
     "Rank the ports of ju1.s1.s1c2 by capacity."),
    ("Could you add a switch called sw3 to control domain ju1.s2.dom? It's for next week's "
     "spine maintenance.", "Add a new switch named sw3 to ju1.s2.dom."),
    ("For the licence audit I need the number of switches in the graph.",
     "Count the switches in the graph."),
    ("Hi all, quick one before the change window: remove ju1.a2.m2.s2c1 from the graph. Thanks.",
     "Remove ju1.a2.m2.s2c1 from the graph."),
    ("Get rid of ju1.s1.s1c3 in the graph, it was RMA'd yesterday.",
     "Remove ju1.s1.s1c3 from the graph."),
    ("Hi - auditing control-plane ownership. Can you list the switches in control domain "
     "ju1.a1.dom?", "List the switches in control domain ju1.a1.dom."),
    ("We're choosing upgrade candidates - please list the 3 switches in agg block ju1.a2.m1 "
     "with the lowest total capacity.",
     "List the 3 switches in agg block ju1.a2.m1 with the lowest total capacity."),
    ("Remove ports ju1.a2.m2.s2c3.p2 and ju1.a2.m2.s2c3.p3 from the graph; the linecard is "
     "being replaced.",
     "Remove ju1.a2.m2.s2c3.p2 and ju1.a2.m2.s2c3.p3 from the graph."),
    # context naming the node asked about; what happened; what the answer is for; purposes
    ("Linecard on ju1.a1.m2.s2c4 died, pull it out of the graph.",
     "Remove ju1.a1.m2.s2c4 from the graph."),
    ("ju1.a1.m1.s2c2 lost its linecard. Delete it from the topology and then show me "
     "ju1.a1.m1's child nodes.",
     "Remove ju1.a1.m1.s2c2 from the graph. List the child nodes of ju1.a1.m1."),
    ("The PSU in switch ju1.a1.m1.s2c1 died; what is the capacity of ju1.a1.m1.s2c1?",
     "What is the capacity of switch ju1.a1.m1.s2c1?"),
    ("Since the linecard failed on ju1.a2.m1.s2c2, remove it. After that, list the child "
     "nodes of agg block ju1.a2.m1.",
     "Remove ju1.a2.m1.s2c2 from the graph. List the child nodes of ju1.a2.m1."),
    ("ju1.a2.m2.s2c1 is being retired this quarter, so take it out of the graph.",
     "Remove ju1.a2.m2.s2c1 from the graph."),
    ("In line with the downgrade decision, set every port of spine switch ju1.s2.s2c4 to 10 Gbps.",
     "Set the capacity of every port of switch ju1.s2.s2c4 to 10 Gbps."),
    ("What is the total switch count across the whole topology? Finance needs it for the "
     "depreciation schedule.",
     "Count the switches in the graph."),
    ("What's the smallest port capacity on switch ju1.s1.s1c2? We are checking for bottlenecks.",
     "What is the minimum capacity of the ports of switch ju1.s1.s1c2?"),
    ("Which switch in agg block ju1.a1.m1 has the highest total capacity? It will anchor "
     "the upgrade proposal.",
     "List the switch in agg block ju1.a1.m1 with the highest total capacity."),
    ("Remove ju1.a2.m2.s2c3 from the graph and then list the child nodes of ju1.a2.m2 so we "
     "can confirm what remains.",
     "Remove ju1.a2.m2.s2c3 from the graph. List the child nodes of ju1.a2.m2."),
    ("Add a port named new_p7 to switch ju1.a1.m1.s2c4 so that the inventory matches the "
     "purchase order.",
     "Add a new port named new_p7 to ju1.a1.m1.s2c4."),
    ("List the child nodes of ju1.a2.m2 so the next shift can verify.",
     "List the child nodes of ju1.a2.m2."),
    ("For the asset register, please list every direct child of agg block ju1.a2.m2.",
     "List all the child nodes of ju1.a2.m2."),
    ("For the superblock inventory, list all direct child nodes of ju1.a1.",
     "List all the child nodes of ju1.a1."),
    ("For the Q3 capacity plan, which switches sit in aggregation block ju1.a2.m1?",
     "List the switches in agg block ju1.a2.m1."),
    # a change to a set, after context of the occasion only
    ("For the audit, remove all ports of ju1.a1.m1.s2c1.",
     "Remove all ports of ju1.a1.m1.s2c1."),
    # a part that may name some nodes, before a change to named nodes
    ("We're retaining the uplinks. Remove ju1.a1.m1.s2c1.p1.", "Remove ju1.a1.m1.s2c1.p1."),
    # a fault said of the node whose set is changed
    ("ju1.a1.m1.s2c1 is dead, remove all its ports.", "Remove all ports of ju1.a1.m1.s2c1."),
    # a story told first: someone and what they did, dated in the past
    ("We had a power blip in the east hall last Tuesday. Add a new switch called sw11 to "
     "ju1.a2.m1.", "Add a new switch named sw11 to ju1.a2.m1."),
    ("After the migration my lead asked. Which superblock contains switch ju1.a2.m2.s2c2?",
     "Which superblock contains switch ju1.a2.m2.s2c2?"),
    ("I was up late drafting the expansion plan. Rank the child nodes of ju1.a2 by capacity.",
     "Rank the child nodes of ju1.a2 by capacity."),
    ("We finished cabling a new chassis in the cold aisle last night. Count the switches in "
     "ju1.a2.m1.", "Count the switches in ju1.a2.m1."),
    ("I got paged at 2am and was tired, and had to look it up. What superblock contains "
     "switch ju1.a2.m2.s2c2?", "Which superblock contains switch ju1.a2.m2.s2c2?"),
    # a story with numbers, kinds and questions of its own, before a request about named nodes
    ("We had some packet loss on ju1.s1.s1c2.p1 during Friday's outage and swapped 3 optics. "
     "What is the capacity of ju1.s1.s1c2.p1?", "What is the capacity of ju1.s1.s1c2.p1?"),
    ("My manager asked what is in that rack yesterday. Which switch contains port "
     "ju1.a1.m1.s2c1.p1?", "Which switch contains port ju1.a1.m1.s2c1.p1?"),
]


@pytest.mark.parametrize(("text", "same_as"), SAID_WITH_CONTEXT,
                         ids=[t[:50] for t, _ in SAID_WITH_CONTEXT])
def test_why_a_request_is_made_is_not_part_of_it(text: str, same_as: str) -> None:
    assert parse(text) == parse(same_as)


@pytest.mark.parametrize("text", [
    # a restriction, an extension or a reference to the answer's nodes
    "List the ports of ju1.a1.m1.s2c1 - the uplink ones.",
    "List the switches in ju1.a1.m1 - healthy.",
    "List the switches in ju1.a1.m1 - we are checking healthy ones.",
    "Set the capacity of ju1.a1.m1.s2c1.p1 to 40 Gbps - we are applying it everywhere.",
    "Remove ju1.a1.m1.s2c1.p1 - we are retiring its siblings too.",
    "Remove ju1.a1.m1.s2c1.p1; we are retiring the same elsewhere.",
    "List the children of ju1.a1.m1 - we are sorting them in descending order.",
    # when, whether, or for real
    "Remove ju1.a1.m1.s2c1. Tomorrow.",
    "Remove ju1.a1.m1.s2c1 - we are doing it after the window closes.",
    "Remove ju1.a1.m1.s2c1. It is already done.",
    "Remove ju1.a1.m1.s2c1 - we are running a dry run.",
    "For the lab rehearsal I need ju1.a1.m1.s2c1 removed from the graph.",
    "Remove ju1.a1.m1.s2c1 - unless the audit says otherwise.",
    "Remove ju1.a1.m1.s2c1 - we are not sure yet.",
    # a name, a number or a request of its own is never context
    "Remove ju1.a1.m1.s2c1 - we are planning the 40G refresh.",
    "We are retiring ju1.a1.m1 - remove ju1.a1.m1.s2c1.",
    "Remove ju1.a1.m1.s2c1 - we are counting the ports.",

    # another node, a state of the nodes asked for, more asked, a shaped purpose
    "The linecard on ju1.a1.m1.s2c1 died. Remove ju1.a1.m1.s2c2 from the graph.",
    "ju1.a1.m1.s2c1 and ju1.a1.m1.s2c2 died, remove it from the graph.",
    "ju1.a1.m1.s2c1 is not healthy, remove it from the graph.",
    "ju1.a1.m1.s2c1 only flapped; list its ports.",
    "The linecard on ju1.a1.m1.s2c1 died. Remove ju1.a1.m1.s2c2 and list its ports.",
    "The failed ports: list the ports of ju1.a1.m1.s2c1.",
    "Ports of ju1.a1.m1.s2c1 are down, list the ports of ju1.a1.m1.s2c1.",
    "Count the switches in the graph. We will remove it.",
    "Rank the ports of ju1.s1.s1c2 by capacity. It should be sorted the other way.",
    "List the ports of ju1.a1.m1.s2c1 so we can remove them later.",
    "Count the switches in ju1.a1.m1 so that only spine ones count.",
    "List the ports of ju1.a1.m1.s2c1 so we can see the 2 largest.",
    "For the largest inventory, list the child nodes of ju1.a1.",
    # a part that may name some of a set, and say they are kept, before a change to the set
    "The uplinks stay. Remove all ports of ju1.a1.m1.s2c1.",
    "The uplinks are staying. Set all ports of ju1.a1.m1.s2c1 to 10 Gbps.",
    "Dana is holding the uplinks back. Remove all ports of ju1.a1.m1.s2c1.",
    "We're retaining the uplinks. Remove all ports of ju1.a1.m1.s2c1.",
    "We're sparing the optics - remove every port of ju1.a1.m1.s2c1.",
    "Remove all ports of ju1.a1.m1.s2c1, we are preserving the uplinks.",
    "We're retaining the uplinks on ju1.a1.m1.s2c1 - remove all ports of ju1.a1.m1.s2c1.",
    "ju1.a1.m1.s2c1 retains its uplinks, remove all ports of ju1.a1.m1.s2c1.",
    "The optics are dead. Remove all ports of ju1.a1.m1.s2c1.",
    # a request opposed, called off or put off
    "We decided against it. Remove ju1.a1.m1.s2c1.",
    "Remove ju1.a1.m1.s2c1 - legal vetoed it.",
    "The change was postponed. Remove ju1.a1.m1.s2c1.",
    "Management advised against it - remove ju1.a1.m1.s2c1.",
    "Remove ju1.a1.m1.s2c1; the CAB rejected it.",
    # a story that may say which nodes, or what is wanted, or that a change was made
    "We racked a replacement chassis last Tuesday. Remove all switches of ju1.a2.m1.",
    "We swapped the optics on the uplink ports last night. Remove every port of "
    "ju1.a1.m1.s2c1.",
    "My manager came by and wanted it gone once the audit is done. Remove ju1.a1.m1.s2c1.",
    "We added a port to ju1.a1.m1.s2c1 yesterday. Count the ports of ju1.a1.m1.s2c1.",
    "We decided not to touch it last week. Remove ju1.a1.m1.s2c1.",
    "The alert only gave me the port name last night. Remove all ports of ju1.a1.m1.s2c1.",
    "We had three ports fail last night. Remove all ports of ju1.a1.m1.s2c1.",
    "I was up all night with the uplinks. List the ports of ju1.a1.m1.s2c1.",
    "We had three ports fail last night on ju1.a1.m1.s2c1. Remove all ports of "
    "ju1.a1.m1.s2c1.",
    "We swapped 3 optics on ju1.a1.m1.s2c1 last night. List the ports of ju1.a1.m1.s2c1.",
    "We tested it in the lab last week. Remove ju1.a1.m1.s2c1.",
    "We thought we would maybe keep it. Remove ju1.a1.m1.s2c1.",
    "The vendor swapped ju1.a1.m1.s2c2 last night. Remove ju1.a1.m1.s2c1.",
    "We added a port to ju1.a1.m1.s2c1 yesterday. Remove ju1.a1.m1.s2c1.p1.",
    "My manager asked for it once the audit was done last week. Remove ju1.a1.m1.s2c1.",
    # a time of day dates the request
    "Remove ju1.a1.m1.s2c1 at 2am.",
    "Remove ju1.a1.m1.s2c1 10pm",
])
def test_a_part_that_could_change_the_request_keeps_it_refused(text: str) -> None:
    with pytest.raises(QueryError):
        parse(text)


def _is_context(said: str) -> bool:
    tokens, _ = _normalized(tokenize(said))
    return context.is_context([(t.kind, t.text) for t in tokens],
                              [(x.cats, x.text) for x in lex(tokens)])


def test_what_a_part_must_be_to_be_context() -> None:
    assert _is_context("we are reviewing spine headroom")  # a clause of its own
    assert _is_context("for the upgrade plan")  # a purpose
    assert _is_context("hi")  # a greeting only
    assert not _is_context("spine headroom")  # no verb, no purpose: it could restrict
    assert not _is_context("healthy")
    assert not _is_context("we are reviewing the switches")  # a kind said as a thing
    assert not _is_context("we are reviewing the capacity")
    assert not _is_context("we are updating the cabling sheet")  # a verb of a request
    assert not _is_context("we are doing it tomorrow")  # no word of its own but a date


CONTEXT_TEXTS = [text for text, _ in SAID_WITH_CONTEXT]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CONTEXT_TEXTS),
       st.sampled_from(CRITICAL + ["ones", "everywhere", "too", "test", "after", "then",
                                   "lab", "siblings", "also", "likewise"]),
       st.integers(0, 40))
def test_a_word_that_could_change_the_request_is_never_set_aside(text: str, word: str,
                                                                 at: int) -> None:
    refused_or_same(text, word, at)


def test_a_compound_noun_may_end_a_part() -> None:
    assert _is_context("needed for the audit report")
    assert not _is_context("needed for the report")  # no word of its own but "needed"


def test_asides_are_bracketed_reasons_that_end_a_sentence() -> None:
    def spans(text: str) -> list[tuple[int, int]]:
        tokens, _ = _normalized(tokenize(text))
        return context.asides([(t.kind, t.text) for t in tokens],
                              lambda i, j: [(x.cats, x.text) for x in lex(tokens[i:j])])

    assert spans("Remove ju1.a1.m1.s2c1 (dead PSU, RMA open).") == [(2, 9)]
    assert spans("Remove ju1.a1.m1.s2c1 (dead PSU) and list the children of ju1.a1.m1.") == []
    assert spans("Remove ju1.a1.m1.s2c1 (test only).") == []  # says how it is meant
    assert spans("Remove ju1.a1.m1.s2c1 (ju1.a1.m1.s2c2 too).") == []  # names a node
    assert spans("Remove ju1.a1.m1.s2c1 (dead).") == []  # one word could restrict


@pytest.mark.parametrize("text", [
    "Conditionally, remove ju1.a1.m1.s2c1",
    "Optionally: remove ju1.a1.m1.s2c1",
    "[optionally] remove ju1.a1.m1.s2c1",
    "Ideally, remove ju1.a1.m1.s2c1",
    "Logically, remove ju1.a1.m1.s2c1",
])
def test_a_lone_adverb_of_manner_said_first_is_never_set_aside(text: str) -> None:
    with pytest.raises(QueryError):
        parse(text)


@pytest.mark.parametrize("text", ["Seriously, remove ju1.a1.m1.s2c1",
                                  "Frankly, remove ju1.a1.m1.s2c1"])
def test_a_lone_adverb_of_stance_said_first_is_set_aside(text: str) -> None:
    assert parse(text) == parse("Remove ju1.a1.m1.s2c1 from the graph.")


def test_a_story_that_says_how_much_keeps_the_request_refused() -> None:
    with pytest.raises(QueryError):
        parse("After the migration I found the record twice was stale. Please change the "
              "physical capacity of port ju1.s1.s1c3.p4 to 10 Gbps.")
