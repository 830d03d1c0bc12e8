"""Slot filling: one addition said in an order no grammar rule has, and what stays refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.malt import phrasing, slots
from netmend.malt.parser import QueryError, parse

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
    ("Can a new port called new_p7 be added to ju1.s2.s2c3?",
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
    ("We're short a port on ju1.a2.m2.s2c2, so could you add an EK_PORT node named "
     "new_EK_PORT_9 under it?", "Add new node with name new_EK_PORT_9 type EK_PORT, to "
                                "ju1.a2.m2.s2c2."),
    # an addition, then what the grammar reads ("it" is the parent)
    ("ju1.s1.s1c3 needs another port -> call it new_p5. Then count the ports in it.",
     "Add a new port named new_p5 to ju1.s1.s1c3. Count the ports in ju1.s1.s1c3."),
]


@pytest.mark.parametrize(("text", "same_as"), FILLED, ids=[t[:50] for t, _ in FILLED])
def test_an_addition_in_any_order_reads_as_the_plain_request(text: str, same_as: str) -> None:
    assert parse(text) == parse(same_as)


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
]


@pytest.mark.parametrize("text", REFUSED)
def test_what_is_not_exactly_one_addition_is_refused(text: str) -> None:
    with pytest.raises(QueryError):
        parse(text)


def test_roles_come_from_the_words_next_to_the_names() -> None:
    def cats(*said: str) -> list[frozenset[str]]:
        return [frozenset(s.split("/")) for s in said]

    # "new port N on switch S": N named by its kind after "new", S placed by "on"
    frame = slots.addition(cats("NEW", "KIND/KIND_SG", "NAME", "IN/BY", "KIND/KIND_SG", "NAME"))
    assert frame == ("add", (("new", 2, (1,), None),), ("node", 5, 4))
    # "S: new port, name it N": the name with no role word is the one role left
    frame = slots.addition(cats("NAME", "COMMA", "NEW", "KIND/KIND_SG", "COMMA", "NAME_N/ASK",
                                "IT", "NAME"))
    assert frame == ("add", (("new", 7, (3,), None),), ("node", 0, None))
    # two names, neither said to be new or a parent
    assert slots.addition(cats("NAME", "NAME", "NEW", "KIND/KIND_SG")) is None
    # "name the ports of S": a question, not an addition
    assert slots.addition(cats("ASK", "KIND/KIND_PL", "OF", "NAME")) is None


def test_a_change_is_asked_for_not_stated_or_wondered_about() -> None:
    def said(text: str) -> list[tuple[str, str]]:
        return [("NAME" if "." in w else "WORD", w) for w in text.split()]

    assert slots.asked(said("can you add a port n to ju1.a ?"))
    assert slots.asked(said("could a new port n be added to ju1.a ?"))
    assert not slots.asked(said("is there a port n on ju1.a ?"))
    assert not slots.asked(said("a port n was added to ju1.a"))
    assert not slots.asked(said("ju1.a could need a port n"))
    assert not slots.asked(said("maybe add a port n to ju1.a"))


ADDITIONS = [text for text, _ in FILLED]
CRITICAL = sorted(word for word in phrasing.CRITICAL if " " not in word and word.isalpha())


def _insert(text: str, word: str, at: int) -> str:
    words = text.split(" ")
    at %= len(words) + 1
    return " ".join([*words[:at], word, *words[at:]])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ADDITIONS), st.sampled_from(CRITICAL + ["zorp", "blue", "count", "was"]),
       st.integers(0, 40))
def test_a_word_outside_the_frame_is_never_skipped(text: str, word: str, at: int) -> None:
    changed = _insert(text, word, at)
    try:
        got = parse(changed)
    except QueryError:
        return
    assert got == parse(text), changed
