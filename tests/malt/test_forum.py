"""Requests posted on a forum ask how to do what they want ("How would I list ...?", "anyone
know how to ...", "can someone tell me the best way to ...", "... What's the cleanest
way?"), under a "TL;DR:" and over "appreciate any help". Asked how, a read is answered by
showing it, as "How do I see ...?" always was; a change asked how is not made, as "How do I
delete X?" never was. Asked whether there is a way ("Is there a clean way to ...?"), it is a
request, as "Can I ...?" is."""

from __future__ import annotations

import pytest

from netmend.malt.parser import QueryError, parse

from .reading import refused, same

S = "ju1.a1.m1.s2c2"
A = "ju1.a1.m1"
HOW_TO = [
    "How would I {}?",
    "Noob question: how do I {}?",
    "anyone know how to {}? thx",
    "Does anyone know the best way to {}?",
    "Can someone tell me the best way to {}? appreciate any help",
    "can someone show me how to {}? any help appreciated",
    "what's the cleanest way to {}",
    "{} - how would I do that?",
    "Hi all, I need to {}. What's the best way? thx",
]


@pytest.mark.parametrize("asked", HOW_TO)
def test_a_read_asked_how_is_read(asked: str) -> None:
    same(asked.format(f"list the ports of {S}"), f"List the ports of {S}.")


@pytest.mark.parametrize("asked", HOW_TO)
def test_a_change_asked_how_is_not_made(asked: str) -> None:
    with pytest.raises(QueryError, match="asks how a change is made"):
        parse(asked.format(f"remove {S} from the graph"))


@pytest.mark.parametrize("text", [
    f"Is there a simple way to remove {S} from the graph?",
    f"TL;DR: remove {S} from the graph. appreciate any help",
    f"tl;dr - remove {S} from the graph, thx",
])
def test_whether_there_is_a_way_and_a_summary_are_the_request(text: str) -> None:
    same(text, f"Remove {S} from the graph.")


def test_a_summary_before_a_read_of_a_set_names_no_nodes() -> None:
    same(f"TL;DR: count the ports in {A}. appreciate any help", f"Count the ports in {A}.")


@pytest.mark.parametrize("text", [
    f"How would I list the ports of {S} without the uplinks?",
    f"how do I list the ports of {S} or {A}?",
    f"should I remove {S}?",
    f"Is there a way to not remove {S}?",
    f"What's the best way to list the ports of {S} except p1?",
])
def test_a_how_to_that_says_how_or_whether_stays_refused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"Remove {S} from the graph. TL;DR What's the best way?",
    f"; TL;DR What's the best way? Remove {S} from the graph.",
])
def test_a_change_asked_how_after_a_summary_is_not_made(text: str) -> None:
    """How is asked in the sentences as they are read, not only as written: a summary's
    "TL;DR" splits the written sentences where the read ones are whole."""
    with pytest.raises(QueryError, match="asks how a change is made"):
        parse(text)


@pytest.mark.parametrize("text", [f"dr tl;dr - list the ports of {S}",
                                  f"list the ports of {S}. tl TL;DR:"])
def test_stray_words_of_a_summary_are_refused(text: str) -> None:
    refused(text)
