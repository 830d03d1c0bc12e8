"""Directives given over a bridge call: radio procedure said as sentences of its own ("Copy?",
"Confirm when done.", "Over and out."), who speaks ("IC here."), and a directive's label
("Directive 2:", "Priority one:", "Execute:") are read as the plain request. "Stand by" and
"Hold" say it is not to be done yet, and a phrase said "here" that may name nodes ("Uplinks
here.") is no speaker: both stay refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.s2.s2c1"
A = "ju1.s2"


@pytest.mark.parametrize("text", [
    f"IC here. Directive 1: remove {S} from the graph. Directive 2: list the child nodes of "
    f"{A}. Confirm when done.",
    f"Priority one: remove {S}, then list the child nodes of {A}. Copy?",
    f"Execute: delete {S}. Then list the child nodes of {A}. Over and out.",
    f"Shift lead here. Remove {S}, then list the child nodes of {A}. Standing by.",
    f"Remove {S} and list the child nodes of {A}. Execute and confirm.",
])
def test_a_directive_is_read_as_the_plain_request(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {A}.")


@pytest.mark.parametrize("text", [
    f"Remove {S}. Stand by.",
    f"Remove {S}. Hold.",
    f"Uplinks here. List the ports of {S}.",
    f"The spares here. Count the ports of {S}.",
])
def test_waiting_or_a_phrase_that_may_name_nodes_stays_refused(text: str) -> None:
    refused(text)


def test_someone_new_saying_so_is_no_phrase_naming_nodes() -> None:
    same(f"Hi, new person here. List the ports of {S}.", f"List the ports of {S}.")


def test_an_action_item_for_a_team_is_a_label() -> None:
    same(f"Action item for network: remove {S}, then list the child nodes of {A}. Standing by.",
         f"Remove {S} from the graph. List the child nodes of {A}.")


def test_a_notebook_looks_at_what_it_lists() -> None:
    same(f"Let's remove {S} from the graph. Next, we look at the direct children of {A} and "
         "list them.", f"Remove {S} from the graph. List the child nodes of {A}.")
