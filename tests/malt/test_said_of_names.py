"""What a request says of the nodes it names is checked: named nodes called by a kind they
are not are refused, in every form that names a kind for them (one name or a list, the kind
said before the names, with a count, or after), and so is "both" before other than two
names, or before a set (which may have more or fewer)."""

from __future__ import annotations

import pytest

from netmend.malt import topology
from netmend.malt.parser import QueryError, parse_request
from netmend.malt.validate import validate

GRAPH = topology.default()
PORTS = ("ju1.a2.m2.s2c3.p1", "ju1.a2.m2.s2c3.p2")
SWITCHES = ("ju1.a2.m2.s2c3", "ju1.a2.m2.s2c2")
# (names, the kind said for them in the singular and the plural), each a kind they are not
MISNAMED = [(PORTS, "switch", "switches"), (SWITCHES, "port", "ports"),
            (SWITCHES, "agg block", "agg blocks")]
FORMS = [
    "remove two {K}: {a} and {b}", "remove the {K} {a} and {b}",
    "remove the following {K}: {a}, {b}", "remove {K} {a}, {b} from the graph",
    "delete these {K} from the graph: {a}, {b}", "remove two {K} from the graph: {a}, {b}",
    "set the capacity of {K} {a} and {b} to 10 Gbps",
    "set the capacity of the {K} {a} and {b} to 10 Gbps",
    "set two {K}, {a} and {b}, to 10 Gbps", "set the capacity of the two {K} {a} and {b} to 10G",
    "{K} to remove: {a}, {b}", "two {K} to remove from the graph: {a}, {b}",
    "what is the capacity of the {k} {a}", "list the ports of the {k} {a}",
    "count the ports in {k} {a}", "rank the child nodes of {k} {a} by capacity",
    "list the child nodes of {k} {a}", "remove {k} {a}", "remove {a}, the {k}",
    "remove {a} ({k})", "add port np9 to {k} {a}", "add a new port named np9 to the {k} {a}",
    "which agg block contains {k} {a}",
]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("names", "k", "kinds"), MISNAMED)
def test_a_kind_said_for_named_nodes_is_checked(form: str, names: tuple, k: str,
                                                 kinds: str) -> None:
    text = form.format(a=names[0], b=names[1], k=k, K=kinds)
    with pytest.raises(QueryError):
        validate(parse_request(text), GRAPH)


@pytest.mark.parametrize("text", [
    "remove two ports: ju1.a2.m2.s2c3.p1 and ju1.a2.m2.s2c3.p2",
    "remove the following switches: ju1.a2.m2.s2c3, ju1.a2.m2.s2c2",
    "delete these ports from the graph: ju1.a2.m2.s2c3.p1, ju1.a2.m2.s2c3.p2",
])
def test_the_kind_they_are_is_answered(text: str) -> None:
    parsed = parse_request(text)
    validate(parsed, GRAPH)
    assert len(parsed.query.steps) == 2 and parsed.qualifiers


@pytest.mark.parametrize("text", [
    "remove both ju1.a2.m2.s2c3.p1, ju1.a2.m2.s2c3.p2 and ju1.a2.m2.s2c3.p3",
    "set both ju1.a2.m2.s2c3.p1, ju1.a2.m2.s2c3.p2 and ju1.a2.m2.s2c3.p3 to 10 Gbps",
    "remove both ju1.a2.m2.s2c3.p1",
])
def test_both_before_other_than_two_names_is_refused(text: str) -> None:
    with pytest.raises(QueryError, match="'both' is said before"):
        parse_request(text)


@pytest.mark.parametrize("text", [
    "remove both ju1.a2.m2.s2c3.p1 and ju1.a2.m2.s2c3.p2",
    "set both ju1.a2.m2.s2c3.p1 + ju1.a2.m2.s2c3.p2 to 10 Gbps",
    "set both ju1.a2.m2.s2c3.p1, and ju1.a2.m2.s2c3.p2 to 10 Gbps",
])
def test_both_before_two_names_is_read(text: str) -> None:
    assert len(parse_request(text).query.steps) == 2


@pytest.mark.parametrize("text", [
    "Set both ports of ju1.a2.m2.s2c3 to 10 Gbps.",  # the switch has four
    "Remove both switches in ju1.a2.m2.",
    "What is the total capacity of both of the ports of ju1.a2.m2.s2c3?",
])
def test_both_said_of_a_set_is_refused(text: str) -> None:
    with pytest.raises(QueryError, match="'both' says the set has two nodes"):
        parse_request(text)
