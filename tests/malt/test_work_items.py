"""Requests copied out of work logs, cards, sheets and code reviews: the bookkeeping around
them is set apart only when it cannot change what is asked."""

from __future__ import annotations

import pytest

from netmend.malt import ir, titles, worklog
from netmend.malt.parser import parse
from netmend.malt.records import set_apart

from .reading import refused

PORT = "ju1.s1.s1c3.p4"
SWITCH = "ju1.a2.m2.s2c1"


@pytest.mark.parametrize("text", [
    f"- [ ] 03:12Z OPEN INC-20417 (raised by rpatel) remove {PORT} from the graph",
    f"[ ] 0410 UTC, INC-7781, from mwong - pls remove {PORT} from the graph",
    f"* [ ] 23:48 OPEN NET-7012 raised by lpetrov - remove {PORT} from the graph",
    f"- [ ] 2024-07-02T06:15Z OPEN CHG-4410\n  who: rmehta\n  remove {PORT} from the graph",
    f"[ ] 03:03Z pending TKT-551\n    raised by night shift\n    remove {PORT} from the graph",
    f"todo, OPS-1877, raised by fwright -- remove {PORT} from the graph",
    f"INC-20417 remove {PORT} from the graph",
    f"Q5) Remove {PORT} from the graph.",
    f"Task (b): Remove {PORT} from the graph.",
    f"(ii) Remove {PORT} from the graph.",
    f"Lab step 3 – remove {PORT} from the graph.",
    f"feat(topo): remove `{PORT}` from the graph",
    f"feat: remove `{PORT}` from the graph",
    f"suggestion: remove `{PORT}` from the graph",
    f"Take {PORT} out of the graph. Priority: P3",
    f"Summary: {PORT} removal\nDescription: Please remove {PORT} from the graph.\nPriority: P3",
    f"[NETOPS-2210] {PORT} cleanup\nDescription: Delete {PORT} from the graph.\nLabels: netops",
    f"### Steps\n1. Remove `{PORT}` from the graph\n\nExpected: `{PORT}` is gone from the graph.",
    f"for this part can you remove {PORT} from the graph?",
    f"For this question, remove {PORT} from the graph.",
    f"can we also drop `{PORT}` from the graph in this PR?",
    # a shift handover's courtesy and provenance
    f"- remove {PORT} from the graph, pls action",
    f"- Carried over from nights - remove {PORT} from the graph",
])
def test_bookkeeping_around_a_removal_is_set_apart(text: str) -> None:
    assert parse(text).steps == (ir.Remove(PORT),)


def test_a_kind_set_as_code_is_that_kind() -> None:
    assert parse(f"add a new node named `np1` of type `EK_PORT` to `{SWITCH}`").steps == (
        ir.Add("np1", "EK_PORT", SWITCH),)
    assert parse("remove 'EK_PORT' from the graph").steps == (ir.Remove("EK_PORT"),)


@pytest.mark.parametrize("text", [
    # a status that says the item is not to be done as asked
    f"- [x] 03:12Z INC-1 remove {PORT} from the graph",
    f"[ ] 03:12Z DONE INC-1 remove {PORT} from the graph",
    f"[ ] 03:12Z blocked - remove {PORT} from the graph",
    # who raised it, said of a change to a set: a name may pick some out
    f"[ ] 03:00Z INC-1 (by uplinks) remove all the ports of {SWITCH}",
    f"Remove all ports of {SWITCH}.\nRequested by: uplink team",
    f"Remove all ports of {SWITCH}. Priority: uplinks",
    # a title that says more than the body
    f"Summary: Uplink ports on {SWITCH}\nDescription: List the ports of {SWITCH}.",
    f"Title: Remove {PORT}\nDescription: Count the ports in {SWITCH}.",
    f"Summary: Ports under 40 Gbps on {SWITCH}\nDescription: List the ports of {SWITCH}.",
    f"Card: low-capacity ports on {SWITCH}\nPlease list the ports of {SWITCH}.",
    f"Summary: Spare ports on {SWITCH}\nDescription: List the ports of {SWITCH}.\nLabels: spare",
    f"Summary: all ports but {PORT}\nDescription: Remove all ports of {SWITCH}.",
    # what it should come to, saying more than the request
    f"### Steps\n1. Remove all ports of `{SWITCH}`\n\nExpected: only the uplinks gone.",
    f"### Steps\n1. Remove all ports of `{SWITCH}`\n\nExpected: uplink ports gone.",
    f"### Steps\n1. List the ports of `{SWITCH}`\n\nExpected: the 10G ports.",
    f"### Steps\n1. List the ports of `{SWITCH}`\n\nExpected: the ports that aren't used.",
    # a commit's scope that may pick nodes out
    f"feat(uplinks): remove all ports of {SWITCH}",
    # the item of a sheet or the change under review frames the request; a part does not
    f"count the ports in {SWITCH} in this part",
    # how many times is no name
    f"3x port add on {SWITCH}",
    f"add port 3x to {SWITCH}",
    f"Card: 3x port add on {SWITCH}\nPlease add the following ports to switch {SWITCH}:\n"
    "- new_r1\n- new_r2\n- new_r3\nPriority: P3",
])
def test_what_may_change_the_request_is_not_set_apart(text: str) -> None:
    refused(text)


def test_a_quoted_name_of_digits_and_x_is_a_name() -> None:
    assert parse(f'add port "3x" to {SWITCH}').steps == (ir.Add("3x", "EK_PORT", SWITCH),)


@pytest.mark.parametrize(("text", "said", "apart"), [
    ("- [ ] 03:12Z OPEN INC-1 (raised by sam) remove X", "remove X", "(raised by sam)"),
    ("[ ] pending / CHG-8812 / from: ops\n  count Y", "from: ops\n  count Y", ""),
    ("[ ] new port new_p6 on S", "new port new_p6 on S", ""),
    ("open the graph", "open the graph", ""),
    ("pending: remove X", "pending: remove X", ""),
    ("2024-05-19 14:02 remove X", "remove X", ""),
])
def test_a_work_log_opening_is_split_from_its_request(text: str, said: str, apart: str) -> None:
    assert worklog.split(text) == (said, apart)


def test_lines_of_bookkeeping_and_labels_over_lines_are_set_apart() -> None:
    found = set_apart("### Steps\n1. remove X\n2. count Y\nPriority: P3\nRequested by: Sam\n"
                      "Expected: Y counted")
    assert found.request == "1. remove X\n2. count Y"
    assert found.values == ["P3", "Sam"] and found.outcomes == ["Y counted"]
    assert set_apart("remove X") == ("remove X", [], [])


@pytest.mark.parametrize(("title", "ok"), [
    ("Port count - S.p1", False),  # a name the body does not say
    ("S port count", True),
    ("S children ranking", True),
    ("S removal", False),  # the body removes nothing
    ("spare ports of S", False),
    ("S ranking", True),
    ("all ports of S", False),  # the body says no whole set
    ("S, 3 ports", False),
])
def test_a_title_restates_only_what_the_body_asks(title: str, ok: bool) -> None:
    body = "Rank the child nodes of S by capacity and count the ports in S."
    steps = (ir.Rank("S", descending=True), ir.Count("EK_PORT", "S"))
    assert titles.restates(title, body, steps) is ok


@pytest.mark.parametrize(("text", "said", "apart"), [
    ("remove X, raised by kfoster", "remove X", "raised by kfoster"),
    ("[ ] INC-1 - how many ports in A? asked by inventory", "how many ports in A?",
     "asked by inventory"),
    ("todo NET-7 -- pull X out of the graph (from tlopez)", "pull X out of the graph",
     "(from tlopez)"),
    ("TODO NET-2 - add port p to S. -shah", "add port p to S.", "shah"),
    ("count the ports of S (from spine)", "count the ports of S (from spine)", ""),
])
def test_who_raised_it_said_last_is_split_from_the_request(text: str, said: str, apart: str) -> None:
    assert worklog.split(text) == (said, apart)


def test_who_raised_a_change_to_a_set_may_pick_some_out() -> None:
    refused(f"remove all ports of {SWITCH}, raised by uplinks")
    assert parse(f"remove {PORT}, requested by Sam").steps == (ir.Remove(PORT),)


def test_a_participle_said_after_a_set_may_say_which_nodes() -> None:
    assert worklog.split(f"list the ports of {SWITCH} reported by monitoring")[1] == ""
    assert worklog.split(f"list the ports of {SWITCH}, reported by monitoring")[1] == ""


def test_a_title_may_say_a_number_with_its_unit_against_it_and_a_whole_set() -> None:
    body = "Set the capacity of every port of S to 40 Gbps."
    steps = (ir.UpdateAll(ir.Select("S", "EK_PORT"), 40_000_000_000),)
    assert titles.restates("All ports on S -> 40G", body, steps)
    assert not titles.restates("All ports on S -> 25G", body, steps)
    assert not titles.restates("low-cap ports on S -> 40G", body, steps)
