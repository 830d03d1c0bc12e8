"""Requests said again after a restart, as speech-to-text writes them down ("delete, I mean
remove X", "remove, uh, remove X"): what was begun and taken back goes only when it named no
node and no number and the request's verb is said again."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.a2.m1.s2c2"
A = "ju1.a2.m2"


@pytest.mark.parametrize(("text", "plain"), [
    (f"netmend delete, I mean remove {S} from the graph", f"Remove {S} from the graph."),
    (f"netmend remove, uh, remove {S}.p3 from the graph", f"Remove {S}.p3 from the graph."),
    (f"set every port, I mean set the capacity of every port of switch {S} to 25 Gbps",
     f"Set the capacity of every port of switch {S} to 25 Gbps."),
    (f"um hey netmend show me, I mean list the ports in agg block {A}",
     f"List the ports in agg block {A}."),
    (f"count the switches, I mean count the ports in {A}", f"Count the ports in {A}."),
    (f"list, sorry, rank the children of {A} by capacity",
     f"Rank the child nodes of {A} by capacity."),
    (f"netmend add, uh, add a new port called np3 to {S} and count the ports in {S} after",
     f"Add a new port named np3 to {S}. Count the ports in {S}."),
    # names listed as speech lists them
    (f"hey netmend add ports named x1 x2 and x3 to switch {S}",
     f"Add ports named x1, x2 and x3 to switch {S}."),
])
def test_a_restart_that_named_nothing_is_taken_back(text: str, plain: str) -> None:
    same(text, plain)


@pytest.mark.parametrize("text", [
    # what was taken back named a node: which of them is meant cannot be told
    f"set the capacity of {S}.p3, I mean {S}.p3 and {S}.p4 to 40 Gbps",
    f"remove {S}.p1, I mean {S}.p2",
    # what follows is no request's verb
    f"remove, I mean don't remove {S}",
    f"remove, I mean {S}",
    # what was taken back said how or whether, or a word netmend does not know
    f"hypothetical delete, I mean remove {S} from the graph",
    f"skip delete, I mean remove {S} from the graph",
    f"count the uplinks, I mean count the ports in {A}",
    # a name with a dot in a row of new names may be where they go
    f"add a port named x1 {S} and x3",
])
def test_a_restart_that_may_lose_what_was_said_stays_refused(text: str) -> None:
    refused(text)
