"""Requests in the words of minutes and work orders: made by someone else ("It is hereby
requested that X be removed", "The Committee requests ...", "The Network Operations
function shall list ..."), under an outline item ("Action item 2.4:") or a resolution
("Resolved:"). Each is read as the plain request; a negated, hedged or proposed one, or
one whose requester is a hedge, stays refused."""

from __future__ import annotations

import pytest

from netmend.malt.parser import parse_request

from .reading import refused, same

P = "ju1.a2.m2.s2c2.p1"
S = "ju1.a2.m2.s2c2"
A = "ju1.a2.m1"


@pytest.mark.parametrize(("text", "plain"), [
    (f"It is hereby requested that {P} be removed from the graph.", f"Remove {P} from the graph."),
    (f"The Committee requests identification of the switch which contains port {P}.",
     f"Which switch contains port {P}?"),
    (f"The Committee requests that the aggregation block containing switch {S} be identified.",
     f"Which agg block contains switch {S}?"),
    (f"It is hereby requested that the child nodes of {A} be listed.",
     f"List the child nodes of {A}."),
    (f"The Network Operations function shall list the child nodes of {A}.",
     f"List the child nodes of {A}."),
    (f"Action item 2.4: remove {P} from the graph.", f"Remove {P} from the graph."),
    (f"Resolved: switch {S} shall be removed from the graph; the number of ports in {A} shall "
     "be reported thereafter.", f"Remove {S} from the graph. Count the ports in {A}."),
    (f"It is hereby requested that {S} be removed from the graph, and that the child nodes of "
     f"{A} thereafter be listed.", f"Remove {S} from the graph. List the child nodes of {A}."),
    (f"Action item 18.1: Remove {S} from the graph. Action item 18.2: List the child nodes of "
     f"{A}.", f"Remove {S} from the graph. List the child nodes of {A}."),
])
def test_a_request_in_the_words_of_minutes(text: str, plain: str) -> None:
    same(text, plain)


@pytest.mark.parametrize("text", [
    f"The team shall not remove {S}.",
    f"The auditors shall never remove {S}.",
    f"It is hereby proposed that {S} be removed.",
    f"The test harness requests that {S} be removed.",
    "The switch shall be removed.",
])
def test_a_negated_proposed_or_hedged_request_of_minutes_isrefused(text: str) -> None:
    refused(text)


def test_an_outline_number_is_no_value_in_a_label_only() -> None:
    parsed = parse_request(f"Set the capacity of {P} to 2.4 Gbps")
    assert parsed.query.steps[0].value == 2_400_000_000
