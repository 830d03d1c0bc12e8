"""Requests pasted as a chat transcript or a call log: what the requester said is read as the
request when every other turn only acknowledges, greets, waits or asks the requester to go
on; any other log is refused."""

from __future__ import annotations

import pytest

from netmend.malt import phrasing as P
from netmend.malt import transcript

from .reading import refused, same

S = "ju1.a1.m1.s2c3"
A = "ju1.a1.m1"


@pytest.mark.parametrize("text", [
    f"<kb> rm {S} from the graph <netops> ack <kb> and list the child nodes of {A} after",
    f"[10:42] alice: hey [10:42] noc-bob: sure, go ahead [10:43] alice: remove {S} from the "
    f"graph [10:44] noc-bob: ok, anything else? [10:44] alice: then list the child nodes of {A}",
    f"Requester: Please remove {S} from the graph. Agent: Noted. Requester: And then list "
    f"the child nodes of {A}.",
    f"[2024-05-02 08:14:31] user: remove {S} [2024-05-02 08:14:40] helpdesk: one moment, "
    f"checking. [2024-05-02 08:15:02] user: then list the children of {A}",
    f"Agent: Hi Priya, how can I help? Caller: remove {S} from the graph, then list the "
    f"child nodes of {A}. Agent: Will do.",
    f"[10:02] alex: pls delete {S} from the graph [10:02] noc: ok, next? [10:03] alex: then "
    f"list the child nodes of {A} [10:03] noc: looking it up",
    f"priya: hey can you remove {S} from the graph\nbob: sure, one sec\npriya: then list the "
    f"child nodes of {A}",
])
def test_what_the_requester_said_is_the_request(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {A}.")


@pytest.mark.parametrize("text", [
    # the other side says more than an acknowledgement
    f"<kb> remove {S} from the graph <ops> done, also removed {S}.p1",
    f"<kb> remove the ports of {S} <ops> all of them? <kb> yes",
    f"<kb> remove {S} <ops> which of the 3?",
    f"<kb> remove {S} <ops> no",
    f"<kb> remove {S} <ops> hold on",
    f"<kb> remove {S} <ops> not now",
    f"<kb> remove {S} <ops> ok, in the lab",
    # two speakers ask
    f"<kb> remove {S} <ops> ok <bo> and list the child nodes of {A}",
    # what the requester says later changes the request
    f"<kb> remove {S} <ops> ok <kb> actually don't",
    f"<kb> list the ports of {S} <ops> ok <kb> only the uplinks",
    f"<kb> list the ports of {S} <ops> ok <kb> uplinks",
    f"[09:01] dan: count the switches in {A} [09:02] eve: ok [09:02] dan: in the lab",
    # a turn that only says yes, to a question the log may hold
    f"<kb> remove {S} <ops> ok <kb> yes",
    # words before the log, or one speaker only
    f"Log: <kb> remove {S} <ops> ok",
    f"Hypothetically: <kb> remove {S} <ops> ok",
    f"In the lab:\n<kb> remove {S}\n<ops> ok",
    f"<kb> remove {S} <kb> and count the switches in {A}",
])
def test_any_other_log_is_refused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"Task: remove {S}. Context: NET-6981.",
    f"Remove {S}: it died",
    f"ops: remove {S}",
])
def test_text_that_is_no_log_is_left_to_the_parser(text: str) -> None:
    assert transcript.requester_text(text) is None


@pytest.mark.parametrize("word", sorted(P.CRITICAL)[::7])
def test_a_word_that_could_change_a_request_keeps_a_log_refused(word: str) -> None:
    # said by the other side, or by the requester in a turn of its own
    refused(f"<kb> remove the ports of {S} <ops> ok, {word} <kb> then list the children of {A}")
    refused(f"<kb> remove the ports of {S} <ops> ok <kb> {word}")


@pytest.mark.parametrize("text", [
    f"Hannah Cole 9:07 AM: Can you remove {S} from the graph? Then list the child nodes of {A}. "
    f"Deepak Rao 9:08 AM: yep, doing it now",
    f"17/03/24, 14:10 - Tom: remove {S} from the graph, then list the child nodes of {A} "
    f"17/03/24, 14:11 - Priya: will do",
    f"13:30:45 [BRIDGE] Marta (NetOps): remove {S} from the graph 13:30:47 [BRIDGE] Ravi (DC "
    f"ops): copy 13:30:52 [BRIDGE] Marta (NetOps): then list the child nodes of {A}",
    f"Sofia Lind — Today at 1:10 PM: remove {S} from the graph and list the child nodes of {A} "
    f"Ravi Kumar — Today at 1:11 PM: 👍",
    f"Oksana Petrenko (10:14): remove {S} from the graph, then list the child nodes of {A}\n"
    f"Li Wei (10:15): +1",
])
def test_the_marks_of_chat_exports(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {A}.")


def test_a_capitalized_word_before_a_name_ends_the_turn_before() -> None:
    # "Gbps" is the unit of the number, not part of Ravi Kumar's name
    same(f"Sofia Lind 9:02 AM: set {S}.p1 to 40 Gbps Ravi Kumar 9:03 AM: on it",
         f"Set the capacity of {S}.p1 to 40 Gbps.")


@pytest.mark.parametrize("text", [
    f"Hannah Cole 9:07 AM: remove {S} from the graph Deepak Rao 9:08 AM: done, and {S}.p1 too",
    f"17/03/24, 14:10 - Tom: remove the ports of {S} 17/03/24, 14:11 - Priya: only the uplinks?",
    f"Tom 9:00 AM: add ports new_r1, new_r2 and to switch {S} Priya 9:01 AM: ok",
])
def test_an_export_whose_other_side_says_more_is_refused(text: str) -> None:
    refused(text)
