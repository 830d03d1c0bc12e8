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
