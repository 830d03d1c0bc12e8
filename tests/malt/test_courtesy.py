"""Courtesy around a request, in the frames politeness takes in many Englishes ("I'd really
appreciate it if you could ...", "Could I trouble you to ...", "I wonder if you could
possibly ...", "Would you mind awfully ...ing", "when you get a sec", "Thanks heaps.") is
read as the plain request. A softener said without a frame ("possibly remove X"), a negation
or a condition inside the frame, and a question whether *we* should act stay refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.a1.m1.s2c2"
A = "ju1.a1.m1"


@pytest.mark.parametrize("text", [
    f"I'd really appreciate it if you could remove {S} from the graph.",
    f"We would appreciate it if you would remove {S}.",
    f"Could I trouble you to remove {S} from the graph?",
    f"May I ask you to remove {S}?",
    f"Would you mind awfully removing {S}?",
    f"Would you kindly mind removing {S}?",
    f"I wonder if you could possibly remove {S}.",
    f"I was wondering whether you might remove {S}",
    f"We were wondering if you could possibly remove {S} from the graph",
    f"Hi, I'd be ever so grateful if you could remove {S}.",
    f"I should be most obliged if you would remove {S}.",
    f"It would be lovely if you could remove {S}.",
    f"Could you possibly remove {S}?",
    f"When you have a moment, would you mind removing {S} from the graph? Cheers.",
    f"Remove {S} when you get a sec.",
    f"Whenever you've got a spare minute, remove {S}.",
    f"Sorry to bother you, but could I trouble you to remove {S}?",
])
def test_courtesy_is_read_as_the_plain_request(text: str) -> None:
    same(text, f"Remove {S} from the graph.")


@pytest.mark.parametrize("thanks", ["Thanks heaps.", "Much obliged.", "Thanks so much.",
                                    "Thanks a mil.", "Thanks a million!"])
def test_thanks_with_warmth_after_a_set_read_is_no_phrase_naming_nodes(thanks: str) -> None:
    same(f"Could you remove {S} and then count the ports in {A}? {thanks}",
         f"Remove {S} from the graph. Count the ports in {A}.")


@pytest.mark.parametrize("text", [
    f"possibly remove {S}",
    f"perhaps remove {S}",
    f"Could you perhaps remove {S}?",
    f"I'd appreciate it if you could not remove {S}.",
    f"Would you mind not removing {S}?",
    f"I wonder if you could remove {S} if it is empty",
    f"I was wondering if we should remove {S}",
    f"I wonder whether we could remove {S}",
    f"remove {S} when the window opens",
    f"Could you possibly remove {S} or {A}?",
])
def test_a_hedge_negation_condition_or_question_whether_stays_refused(text: str) -> None:
    refused(text)


def test_a_frame_already_plain_is_left_as_it_is() -> None:
    same(f"I think we need a switch named sw9 in {A} - would you mind adding it?",
         f"Add a new switch named sw9 to {A}.")


@pytest.mark.parametrize("text", [
    f"Kindly remove {S} from the graph, post which list the child nodes of {A}.",
    f"Could you remove {S} and send over the child nodes of {A}?",
    f"Would you mind removing {S} and sending me the child nodes of {A}? At the earliest.",
])
def test_office_englishes_join_and_send_as_the_plain_steps(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {A}.")


def test_a_quantity_set_apart_is_no_thanks() -> None:
    refused(f"Many spares. Count the ports in {A}.")
    refused(f"Uplinks, many. Count the ports in {A}.")


@pytest.mark.parametrize("text", [
    "Remove ju1.s1.s1c1 from the graph. Thx, RK",
    "Remove ju1.s1.s1c1 from the graph. -JT",
    "Remove ju1.s1.s1c1 from the graph. - Dana Smith",
    "Remove ju1.s1.s1c1 from the graph. Thx. —D",
])
def test_a_signature_a_dash_or_a_short_thanks_leads_goes(text: str) -> None:
    same(text, "Remove ju1.s1.s1c1 from the graph.")


@pytest.mark.parametrize("text", [
    "Remove ju1.s1.s1c1 from the graph. - Maybe",
    "Remove ju1.s1.s1c1 from the graph. - Test",
    "Remove ju1.s1.s1c1 from the graph. -nvm",
    "Remove ju1.s1.s1c1 from the graph. - except",
    # a name could say which nodes of a set are meant
    "Remove every port of ju1.a1.m1.s2c1 from the graph. - Optics",
])
def test_a_dash_before_a_word_that_may_carry_meaning_keeps_it_refused(text: str) -> None:
    refused(text)
