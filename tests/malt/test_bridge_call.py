"""Requests in bridge-call shorthand: nodes "out of the topo" alone, a note on the fault of
the named hardware ("bad optic", "box is dead"), "box" for a switch. Each is read as the
plain request; a note that could say more (a verb, a retraction) or that is said of a set
is refused, and so is a new "chassis" said in words (a MALT switch is a chassis too)."""

from __future__ import annotations

import pytest

from netmend.malt.parser import parse_request

from .reading import refused, same

P = "ju1.a1.m2.s2c4.p3"
S = "ju1.a1.m2.s2c4"


@pytest.mark.parametrize(("text", "plain"), [
    (f"{P} out of the topo -- then dump the kids of box {S}",
     f"Remove {P} from the graph. List the child nodes of {S}."),
    (f"{P} + ju1.a1.m2.s2c4.p4 out of the topo pls",
     f"Remove {P} and ju1.a1.m2.s2c4.p4 from the graph."),
    (f"Take {P}, ju1.a1.m2.s2c4.p4 and ju1.a1.m2.s2c4.p1 out of the graph.",
     f"Remove {P}, ju1.a1.m2.s2c4.p4 and ju1.a1.m2.s2c4.p1 from the graph."),
    ("count the boxes in ju1.a1.m2", "Count the switches in ju1.a1.m2."),
    (f"pull ports {P} + ju1.a1.m2.s2c4.p4 out of the topo",
     f"Remove {P} and ju1.a1.m2.s2c4.p4 from the graph."),
    (f"light up a new port new_p8 on {S} and count the ports on {S}",
     f"Add a new port named new_p8 to {S}. Count the ports in {S}."),
    (f"{P} comes out of the topo -- port count on {S} after that",
     f"Remove {P} from the graph. Count the ports in {S}."),
])
def test_bridge_call_shorthand(text: str, plain: str) -> None:
    same(text, plain)


@pytest.mark.parametrize("text", [
    f"is {P} out of the topo?",
    f"{P} out of the topo unless it carries traffic",
])
def test_out_of_the_topo_asked_or_with_a_condition_isrefused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"pull ports of {S}",
    f"light up {P}",
    f"count the ports of {S} -- the dark ones",
    f"count the ports of {S} -- uplinks only",
])
def test_pull_of_a_set_light_up_of_a_node_or_a_dash_before_no_request_isrefused(
        text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"Remove {P} from the graph, bad optic",
    f"pull port {P} out of the topo, optic's dead",
    f"linecard's dead -- delete {P} from the topo",
    f"Remove {P} from the graph -- box is toast",
])
def test_a_note_on_a_fault_of_named_nodes_is_set_aside(text: str) -> None:
    same(text, f"Remove {P} from the graph.")


@pytest.mark.parametrize("text", [
    f"Remove {P} from the graph, nvm",
    f"Remove {P} from the graph; drain traffic",
    f"Remove {P} from the graph, wrong box",
    f"Remove {P} from the graph, drain the dead box",
    f"Remove {P} from the graph, shut down",
    f"Remove {P} from the graph, dead wrong",
    f"Remove {P} from the graph, box is not dead",
    f"Remove {P} from the graph, unless dead",
    f"List the ports of {S}, bad optics",
    f"Remove all ports of {S}, bad optics",
])
def test_a_note_that_may_say_more_or_a_note_on_a_set_isrefused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    "New chassis sw12 goes into ju1.a1.m2.",
    "add a chassis c9 to ju1.a1.m2rack",
])
def test_a_new_chassis_said_in_words_isrefused(text: str) -> None:
    refused(text)


def test_a_new_node_of_kind_ek_chassis_written_as_such_is_read() -> None:
    parsed = parse_request("Add a new node named c9 of type EK_CHASSIS to ju1.a1.m2rack.")
    assert parsed.query.steps[0].kind == "EK_CHASSIS"
