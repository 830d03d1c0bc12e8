"""Requests netmend understands word by word but must refuse, because what they mean cannot be
answered as asked: a word the lexicon does not know in predicate or condition position, a
count of a kind the counted nodes can never contain, and steps that contradict each other."""

from __future__ import annotations

import pytest

from netmend.malt import ir
from netmend.malt import kinds as K
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


# ---- a count of a kind the counted nodes never contain

def test_held_by_follows_the_hierarchy() -> None:
    assert K.held_by(K.PORT) == ()
    assert K.held_by(K.PACKET_SWITCH) == (K.PORT,)
    assert set(K.held_by(K.RACK)) == {K.CHASSIS, K.CONTROL_POINT, K.PACKET_SWITCH, K.PORT}


@pytest.mark.parametrize("text", [
    f"Rank the ports of {S} by port number.",
    f"Which port of {S} has the most ports?",
    f"the 2 ports of {S} with the most ports",
    f"Which switch in {A} has the most switches?",
    f"List the ports of {S} with more than 2 ports",
    f"Count the ports of {S} with at least 1 port",
    f"What is the average capacity of the ports of {S} with at least 2 ports?",
])
def test_a_count_of_a_kind_that_cannot_be_below_is_refused(text: str) -> None:
    error = _refused(text)
    assert error.code == "invalid" and "never contains" in str(error)
    assert "capacity" in error.expected


def test_the_refusal_says_what_can_be_ranked_by() -> None:
    error = _refused(f"Which switch in {A} has the most switches?")
    assert error.expected.endswith("by capacity or the number of EK_PORT")


def test_a_count_of_a_kind_that_can_be_below_is_kept() -> None:
    (step,) = parse(f"Rank the switches of {A} by port count").steps
    assert step.metric == ir.Metric("count", K.PORT) and step.nodes.kind == K.PACKET_SWITCH
    (step,) = parse("Which rack has the most ports?").steps
    assert step.metric == ir.Metric("count", K.PORT)


# ---- steps of one request that contradict each other

@pytest.mark.parametrize(("text", "steps"), [
    (f"Remove port {P}, then set port {P} to 25 Gbps.", ("step 2 (set", "step 1 (remove")),
    (f"Remove {P} and remove {P}", ("step 2 (remove", "step 1 (remove")),
    (f"Remove {S}, then add port new_q to {S}.", ("step 2 (add", "step 1 (remove")),
    (f"Remove {S}, then count the ports in {S}.", ("step 2 (count", "step 1 (remove")),
    (f"Add port new_q to {S} and add port new_q to ju1.a2.m1.s2c1.", ("step 2 (add", "step 1 (add")),
    (f"Set {P} to 10 Gbps, then set {P} to 25 Gbps.", ("step 2 (set", "step 1 (set")),
])
def test_conflicting_steps_are_refused_with_both_named(text, steps) -> None:
    error = _refused(text)
    assert error.code == "invalid" and "contradicts itself" in str(error)
    assert all(step in str(error) for step in steps)


def test_steps_on_different_nodes_do_not_conflict() -> None:
    assert len(parse(f"Remove {S}.p2, then count the ports in {S}.").steps) == 2
    assert len(parse(f"Remove {S} and {P}").steps) == 2  # its ports are left behind
    assert len(parse(f"Add switch new_sw to {A}, then add port new_p to new_sw.").steps) == 2


def test_conflict_sees_only_what_the_steps_name() -> None:
    assert ir.conflict((ir.Remove("x"), ir.Add("x", K.PORT, "s"))) is None  # a replacement
    assert "removes" in ir.conflict((ir.Remove("x"), ir.Rank("x")))


# ---- a rank with no place ranks a kind over the whole graph (NetArena's rank names a parent)

def test_a_scopeless_rank_of_a_kind_is_the_whole_graph() -> None:
    whole = parse("Rank all the switches in the graph by capacity.")
    assert parse("Rank the switches by capacity.") == whole
    (step,) = whole.steps
    assert step.nodes == ir.Select(None, K.PACKET_SWITCH) and step.limit is None


def test_a_scopeless_rank_of_children_or_after_a_placed_change_is_refused() -> None:
    assert _refused("Rank the children by capacity.").code == "incomplete"
    assert _refused(f"Add switch new_sw to {A} and rank the switches by capacity.").code == (
        "ambiguous")
