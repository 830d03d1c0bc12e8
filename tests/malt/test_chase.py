"""A request chased after it was not done: a sentence that only complains ("Still
waiting!!", "How many times do I have to ask?", "I shouldn't have to ask twice.", "This was
promised last week.") and a lead that only says it is asked again ("Following up AGAIN on
this:", "Asking for the THIRD time:") go. "Again", "not" and the rest said otherwise stay
refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.s1.s1c1"
D = "ju1.s1.dom"


@pytest.mark.parametrize("text", [
    f"Following up AGAIN on this: remove {S}, then list the child nodes of {D}. How many "
    "times do I have to ask?",
    f"Still waiting!! Remove {S} from the graph, then list the child nodes of {D}.",
    f"I shouldn't have to ask twice. Remove {S}, then list the child nodes of {D}.",
    f"Asking for the THIRD time: remove {S}, then list the child nodes of {D}. This was "
    "promised last week.",
    f"Third reminder - remove {S}, then list the child nodes of {D}. Please just do it.",
    f"Following up on ticket #5290 again. Remove {S}, then list the child nodes of {D}.",
])
def test_a_chased_request_is_read_as_the_plain_request(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {D}.")


@pytest.mark.parametrize("text", [
    f"Remove {S} again.",
    f"Remove {S}. Do not do it.",
    f"Remove {S}. Not yet.",
    f"Remove {S} once more.",
    f"Still waiting!! Uplinks: list the ports of {S}.",
    f"Remove the third port of {S}.",
])
def test_again_not_and_ordinals_said_otherwise_stay_refused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"Please just do it: remove {S}, then list the child nodes of {D}.",
    f"Bumping this for the 4th time: remove {S}, then list the child nodes of {D}.",
])
def test_more_leads_of_a_chase(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {D}.")


@pytest.mark.parametrize("wish", ["Thanks, have a good weekend!", "Have a nice day.",
                                  "Have a good one", "Enjoy your evening."])
def test_a_wish_to_close_with_says_nothing_of_the_request(wish: str) -> None:
    same(f"Remove {S}, then list the child nodes of {D}. {wish}",
         f"Remove {S} from the graph. List the child nodes of {D}.")


def test_a_wish_with_more_said_stays_refused() -> None:
    refused(f"Remove {S}. Have a good weekend, and do not touch the uplinks.")
