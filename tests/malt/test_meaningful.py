"""Requests netmend understands word by word but must refuse, because what they mean cannot be
answered as asked: a word the lexicon does not know in predicate or condition position, a
count of a kind the counted nodes can never contain, and steps that contradict each other."""

from __future__ import annotations

import pytest

from netmend.malt.parser import QueryError, parse

S = "ju1.a1.m1.s2c1"
P = f"{S}.p1"
A = "ju1.a1.m1"


def _refused(text: str) -> QueryError:
    with pytest.raises(QueryError) as info:
        parse(text)
    return info.value


# ---- an unknown word after a copula, an auxiliary, a read or a node set is never skipped

@pytest.mark.parametrize(("text", "word"), [
    (f"Which ports of {S} are flapping?", "flapping"),
    (f"Which ports of {S} have been flapping?", "flapping"),
    (f"Which switches in {A} are congested?", "congested"),
    (f"How many ports of {S} are misconfigured?", "misconfigured"),
    (f"How many ports are in {S} flapping?", "flapping"),
    (f"Which ports does {S} have saturated?", "saturated"),
    (f"List the ports of {S} flapping", "flapping"),
    (f"Count the ports of {S} erroring", "erroring"),
    (f"Which switch in {A} has the most ports overheating?", "overheating"),
    (f"What is the capacity of {P} flapping?", "flapping"),
    (f"Rank the children of {A} by capacity congested", "congested"),
    (f"Remove the ports of {S} flapping", "flapping"),
])
def test_an_unknown_word_in_predicate_position_is_refused_and_named(text, word) -> None:
    error = _refused(text)
    assert error.code == "unknown" and repr(word) in str(error)


def test_an_unknown_word_after_a_named_change_is_still_skipped() -> None:
    """The edge of a change on named nodes is not a predicate position."""
    assert parse(f"Remove {P} asap") == parse(f"Remove {P}")
    assert parse(f"Set {P} to 10 Gbps asap") == parse(f"Set {P} to 10 Gbps")
