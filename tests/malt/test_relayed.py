"""A request relayed from someone else ("ACME are asking us to ..."), and English as a
translation tool writes it: read as the request itself; a relayed condition, negation or
hedge keeps it refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.a1.m2.s2c2"


@pytest.mark.parametrize(("text", "plain"), [
    (f"The customer would like us to add a new port called new_p3 to {S}.",
     f"Add port new_p3 to {S}."),
    (f"ACME asked us to add port new_p3 on {S}.", f"Add port new_p3 to {S}."),
    (f"Cyberdyne are asking us to add port new_p3 to {S}.", f"Add port new_p3 to {S}."),
    # a translation tool's English
    (f"Please add the new port which name is new_p3 to {S}.", f"Add port new_p3 to {S}."),
    (f"Please teach me the agg block which contains the port {S}.p1.",
     f"Which agg block contains port {S}.p1?"),
    ("Please rank the child nodes of ju1.a1.dom by capacity in the ascending order.",
     "Rank the child nodes of ju1.a1.dom by capacity, lowest first."),
    (f"Please add ports which names are cap1, cap2 and cap3 to the switch {S}.",
     f"Add ports cap1, cap2 and cap3 to {S}."),
    (f"Add port np4 to {S} and then you count the ports of {S}.",
     f"Add port np4 to {S}. Count the ports in {S}."),
])
def test_a_relayed_or_translated_request_is_the_request(text: str, plain: str) -> None:
    same(text, plain)


@pytest.mark.parametrize("text", [
    f"The customer asked us not to remove {S}.",
    f"The customer would like us to remove {S} only if it is empty.",
    f"ACME are asking us to maybe remove {S}.",
    f"They want us to remove {S}.",  # who "they" are may be the nodes
    f"The customer would like us to remove all ports of {S} except the uplinks.",
])
def test_a_relayed_condition_keeps_the_request_refused(text: str) -> None:
    refused(text)
