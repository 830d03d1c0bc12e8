"""An email thread is read as its newest message; the older messages are never asked now, and
a request about a set is read only when they say nothing that could pick some of it out."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.malt import mail
from netmend.malt.parser import QueryError, parse

OUTLOOK = """Hi all,

Confirmed with the vendor. Please remove ju1.a1.m2.s2c1.p3 from the graph.

Thanks,
Dana Okafor
Network Planning | +1 (415) 555-0142

-----Original Message-----
From: Marcus Feld
Sent: Tuesday, March 4, 2025 9:12 AM
To: Dana Okafor
Subject: RE: decom list

Dana - the optics came back dead. Ready to go.

Marcus"""

INLINE = """> which port?

ju1.a2.m1.s2c1.p1 -- take it out of the graph please.

Sven"""

GMAIL = """Rank the child nodes of ju1.a2 by capacity, please.

-- Lena

On Wed, Feb 12, 2025 at 4:47 PM Raj Iyer <raj.iyer@example.com> wrote:
> Status update: field team finished the recabling this afternoon.
>
> Raj"""


def test_the_newest_message_of_a_thread() -> None:
    newest = mail.newest_message(OUTLOOK)
    assert newest is not None
    assert newest.said == ("Confirmed with the vendor. Please remove ju1.a1.m2.s2c1.p3 from the "
                           "graph.")
    assert "Ready to go" in newest.history
    assert mail.newest_message(INLINE).said == (
        "ju1.a2.m1.s2c1.p1 -- take it out of the graph please.")
    assert mail.newest_message(GMAIL).said == "Rank the child nodes of ju1.a2 by capacity, please."


def test_what_a_mail_client_adds_is_left_out() -> None:
    assert mail.newest_message(
        "Take ju1.s1.s1c2.p3 out of the graph, thx.\n\nSent from Mail for Windows"
    ).said == "Take ju1.s1.s1c2.p3 out of the graph, thx."
    assert mail.newest_message(
        "Importance: High\n\nRemove ju1.s2.s2c4 from the graph.\n\nCONFIDENTIALITY NOTICE: this "
        "e-mail is intended for the addressee only.").said == "Remove ju1.s2.s2c4 from the graph."


def test_signatures_notices_and_quotation_lines_as_mail_programs_write_them() -> None:
    assert mail.newest_message(
        "Drop ju1.s2.s2c1.p2 from the graph.\n\nThx\nSven Lund | Sr. Network Engineer | M: +46 "
        "70 555 12 34").said == "Drop ju1.s2.s2c1.p2 from the graph."
    assert mail.newest_message(
        "Remove ju1.a1.m1.s2c1 from the graph, please.\n\nKeisha\n\nAm Mo., 9. Juni 2025 um "
        "09:14 Uhr schrieb Lena Hofmann <lena.h@example.com>:\n> the chassis is gone.").said == (
        "Remove ju1.a1.m1.s2c1 from the graph, please.")
    assert mail.newest_message(
        "Delete ju1.s1.s1c4.p1 from the graph.\n\nKind regards,\nAiko Tanaka\nTel. +81 3 5555 "
        "0121\n\n\nThe information in this email is confidential and intended only for the named "
        "recipient.").said == "Delete ju1.s1.s1c4.p1 from the graph."
    # after a bar, a signature says no word that could change the request
    assert mail.newest_message("List the ports of ju1.a1.m1.s2c1.\n\nDana | only uplinks") is None


def test_the_message_s_own_subject_is_set_aside_unless_it_could_change_the_request() -> None:
    newest = mail.newest_message("Subject: Re: s2c4 port count\n\nHi Diego,\n\nPlease remove "
                                 "ju1.a2.m1.s2c4 from the graph.\n\nThanks,\nHarriet")
    assert newest.said == "Please remove ju1.a2.m1.s2c4 from the graph."
    assert "Subject: Re: s2c4 port count" in newest.aside
    assert parse("Subject: Re: spine ports\n\nPlease remove ju1.a2.m1.s2c4 from the graph.") == (
        parse("Remove ju1.a2.m1.s2c4 from the graph."))
    # a subject that names a kind, or any word but an occasion's, may say which nodes of a
    # set are meant
    for subject in ("uplinks", "Re: dark optics", "Re: p3"):
        with pytest.raises(QueryError):
            parse(f"Subject: {subject}\n\nPlease list the ports of ju1.a2.m1.s2c4.")
    for subject in ("Re: audit", "RE: NET-4410", "Re: capacity review"):
        assert parse(f"Subject: {subject}\n\nPlease list the ports of ju1.a2.m1.s2c4.") == (
            parse("List the ports of ju1.a2.m1.s2c4."))
    # a subject that could change the request stays, and the request is refused
    with pytest.raises(QueryError):
        parse("Subject: do not remove ju1.a2.m1.s2c4 yet\n\nPlease remove ju1.a2.m1.s2c4.")


def test_a_subject_as_an_inbox_shows_it_on_the_first_line() -> None:
    for subject in ("RE: spine decom", "Fwd: RE: port audit", "AW: s1c3", "Re: [NET-9700] s2c4"):
        assert mail.newest_message(f"{subject}\nTake ju1.s1.s1c3.p2 out of the graph, danke!"
                                   ).said == "Take ju1.s1.s1c3.p2 out of the graph, danke!"
        assert parse(f"{subject}\nPlease remove ju1.s1.s1c3.p2.") == parse(
            "Remove ju1.s1.s1c3.p2.")
    # a subject names an occasion, or it may say which nodes of a set are meant
    assert parse("RE: spine decom\nPlease list the ports of ju1.s1.s1c3.") == parse(
        "List the ports of ju1.s1.s1c3.")
    for subject in ("AW: s1c3", "Re: [NET-9700] s2c4", "Re: dark optics", "FW: p3 only"):
        with pytest.raises(QueryError):
            parse(f"{subject}\nPlease list the ports of ju1.s1.s1c3.")


def test_a_subject_may_name_the_request_s_node_and_a_read_follows_talk_of_when() -> None:
    assert parse("Subject: Re: agg block ju1.a2.m2\n\nPlease list the child nodes of ju1.a2.m2."
                 ) == parse("List the child nodes of ju1.a2.m2.")
    with pytest.raises(QueryError):  # another node
        parse("Subject: Re: agg block ju1.a2.m1\n\nPlease list the child nodes of ju1.a2.m2.")
    assert parse("Good catch. List the ports of ju1.a1.m1.s2c1.\n\n> anything else? when?"
                 ) == parse("List the ports of ju1.a1.m1.s2c1.")
    with pytest.raises(QueryError):  # what else, or when, may be about a change
        parse("Remove all ports of ju1.a1.m1.s2c1.\n\n> anything else? wait until Friday")
    with pytest.raises(QueryError):  # a yes answers what the older message asks
        parse("Yes. List the ports of ju1.a1.m1.s2c1.\n\n> only the uplinks?")


def test_a_subject_that_asks_for_more_than_the_reply_is_not_set_aside() -> None:
    text = "Subject: remove ju1.a1.m1.s2c2\n\nHi Dev,\n\nPlease remove ju1.a1.m1.s2c1.\n\n> ok?"
    with pytest.raises(QueryError):
        parse(text)
    assert parse("Subject: Remove ju1.a1.m1.s2c1\n\nHi Dev,\n\nPlease remove ju1.a1.m1.s2c1."
                 "\n\n> ok?") == parse("Remove ju1.a1.m1.s2c1.")


def test_a_text_with_nothing_of_a_mail_is_left_alone() -> None:
    assert mail.newest_message("Remove ju1.s2.s2c4 from the graph.") is None
    assert mail.newest_message("Remove ju1.s2.s2c4.\nThen count the switches in ju1.s2.") is None


def test_a_last_paragraph_is_a_signature_only_when_it_names_someone() -> None:
    assert mail.newest_message("List the ports of ju1.a1.m1.s2c1.\n\nB. Quinn\n+1 312 555 0199"
                               ).said == "List the ports of ju1.a1.m1.s2c1."
    # capitalized words of the request's vocabulary are no one's name
    for text in ("List the ports of ju1.a1.m1.s2c1.\n\nUplinks Only",
                 "List the ports of ju1.a1.m1.s2c1.\n\nExcept Uplinks",
                 "List the ports of ju1.a1.m1.s2c1.\n\nDana\nNot The Uplinks"):
        assert mail.newest_message(text) is None, text


def test_whom_a_letter_greets_on_a_line_of_its_own() -> None:
    assert mail.newest_message("Hugo,\n\nRemove ju1.a2.m2.s2c4 from the graph.").said == (
        "Remove ju1.a2.m2.s2c4 from the graph.")
    assert mail.newest_message("Team --\n\nRemove ju1.a2.m2.s2c4.").said == "Remove ju1.a2.m2.s2c4."
    assert parse("Hi Hugo,\n\nList the ports of ju1.a1.m1.s2c1.") == parse(
        "List the ports of ju1.a1.m1.s2c1.")
    assert parse("Hugo,\n\nRemove ju1.a1.m1.s2c1.p1.") == parse("Remove ju1.a1.m1.s2c1.p1.")
    for signed in ("Thanks,\nDana Okafor\nNetwork Planning", "-- Dana", "-Dana"):
        assert parse(f"List the ports of ju1.a1.m1.s2c1.\n\n{signed}") == parse(
            "List the ports of ju1.a1.m1.s2c1.")


@pytest.mark.parametrize("text", [
    # a word taken for a name may pick some nodes of a set out
    "Uplinks,\n\nList the ports of ju1.a1.m1.s2c1.",
    "Uplinks,\n\nRemove all ports of ju1.a1.m1.s2c1.",
    "Hugo,\n\nRemove all ports of ju1.a1.m1.s2c1.",
    "Optics,\n\nList the ports of ju1.a1.m1.s2c1.",  # a name alone may be a noun, a heading
    "Remove all ports of ju1.a1.m1.s2c1.\n-- except uplinks",  # no signature
    "Remove all ports of ju1.a1.m1.s2c1.\nPriority: uplinks",  # no mail program's line
    "Remove all ports of ju1.a1.m1.s2c1.\nSent from the spare pool only",
    # what follows a notice is read, not left out with it
    "Remove all ports of ju1.a1.m1.s2c1.\n\nThis email is confidential and intended for the "
    "addressee.\n\nExcept the uplinks.",
    "List the ports of ju1.a1.m1.s2c1.\n\nOptics\nSpare Pool",
    "Remove all ports of ju1.a1.m1.s2c1.\n\nOptics\nSpare Pool",
])
def test_what_a_reply_says_around_its_text_may_keep_a_set_request_refused(text: str) -> None:
    with pytest.raises(QueryError):
        parse(text)


@pytest.mark.parametrize(("text", "same_as"), [
    (OUTLOOK, "Remove ju1.a1.m2.s2c1.p3 from the graph."),
    (INLINE, "Remove ju1.a2.m1.s2c1.p1 from the graph."),
    (GMAIL, "Rank the child nodes of ju1.a2 by capacity."),
    ("Marcus,\n\nWe're good. Remove ju1.a2.m1.s2c3 from the graph.\n\n> is it cleared?",
     "Remove ju1.a2.m1.s2c3 from the graph."),
])
def test_a_thread_asks_what_its_newest_message_asks(text: str, same_as: str) -> None:
    assert parse(text) == parse(same_as)


@pytest.mark.parametrize("text", [
    # the reply points at what an older message says, which is not read with it
    "Please remove it from the graph.\n\n> The port is ju1.a2.m1.s2c1.p1.",
    "Remove that one.\n\n-----Original Message-----\nFrom: Jen\nSent: Monday\n\nPort "
    "ju1.a2.m1.s2c1.p1 is dead.",
    # an older message may say which nodes of the set are meant
    "Remove all ports of ju1.a1.m1.s2c1.\n\n> We keep the uplinks, though.",
    "List the ports of ju1.a1.m1.s2c1.\n\nOn Tue, Jen wrote:\n> only the 100G ones matter",
    "Remove every port of ju1.a1.m1.s2c1.\n\n-----Original Message-----\nFrom: Jen\n"
    "Sent: Monday\n\nDon't touch the uplinks.",
])
def test_what_the_older_messages_say_is_never_asked_now(text: str) -> None:
    with pytest.raises(QueryError):
        parse(text)


def test_what_an_older_message_says_that_could_change_a_request_keeps_it_refused() -> None:
    # about named nodes too: the older message may put it off or take it back
    for older in ("> We keep the uplinks, though.", "> On hold until the audit.",
                  "> perhaps not yet"):
        with pytest.raises(QueryError):
            parse(f"Remove ju1.a1.m1.s2c1.p1.\n\n{older}")
    assert parse("Remove ju1.a1.m1.s2c1.p1.\n\n> The optic is dead.") == parse(
        "Remove ju1.a1.m1.s2c1.p1.")


_REQUESTS = ["Remove ju1.a1.m1.s2c1.p1 from the graph.", "List the ports of ju1.a1.m1.s2c1.",
             "Remove all ports of ju1.a1.m1.s2c1.", "Count the switches in ju1.a1.m1.",
             "Rank the child nodes of ju1.a2 by capacity.",
             "Set the capacity of every port of ju1.a1.m1.s2c1 to 40 Gbps."]
_OLDER = ["Thanks, will do.", "Only the uplinks.", "Keep ju1.a1.m1.s2c1.p2.",
          "Remove ju1.a1.m1.s2c2 too.", "Not the 100G ones.", "except the spine side",
          "Can you also list the racks?", "Waiting on your go-ahead.", "Don't do it yet.",
          "Which ones?", "All of them except p2."]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_REQUESTS), st.lists(st.sampled_from(_OLDER), min_size=1, max_size=3),
       st.sampled_from(["> {}", "{}"]), st.booleans())
def test_a_thread_is_answered_as_its_request_or_refused(request: str, older: list[str],
                                                        quote: str, outlook: bool) -> None:
    history = "\n".join(quote.format(line) for line in older)
    if outlook or not quote.startswith(">"):
        history = f"-----Original Message-----\nFrom: Jen\nSent: Monday\n\n{history}"
    text = f"Hi,\n\n{request}\n\nThanks,\nDana\n\n{history}"
    try:
        got = parse(text)
    except QueryError:
        return
    assert got == parse(request), text


def test_names_listed_a_line_each_are_a_list() -> None:
    assert parse("Please drop these from the graph:\n- ju1.a2.m1.s2c3.p1\n- ju1.a2.m1.s2c3.p2\n"
                 "- ju1.a2.m1.s2c3.p4\n\nThanks!") == parse(
        "Remove ju1.a2.m1.s2c3.p1, ju1.a2.m1.s2c3.p2 and ju1.a2.m1.s2c3.p4 from the graph.")
    # a line that is no name leaves the lines as they are written
    with pytest.raises(QueryError):
        parse("Remove these:\nju1.a2.m1.s2c3.p1\nbut not\nju1.a2.m1.s2c3.p2")


def test_a_signature_line_that_puts_the_request_off_keeps_it_refused() -> None:
    with pytest.raises(QueryError):
        parse("Delete ju1.s1.s1c2 from the graph please.\n\n--\nCarlos Mendez\n"
              "DC Engineering | 305-555-0161 Scheduled for the weekend.")


def test_a_sent_from_line_that_says_more_keeps_the_request_refused() -> None:
    with pytest.raises(QueryError):
        parse("Subject: rack lookup\n\nhey Kel - what rack is ju1.a1.m2.s2c2 in? ta, Dom\n\n"
              "Sent from Outlook for temporarily Android")
