"""Requests typed in a casual chat: mood emoji (":pray:", a picture), discourse words
("ngl", "tbh", "real quick"), "yeet", "lmk", "outta", words run together ("gotta", "can
ya", "lemme", "wanna") are read as the plain request; an
emoji that may say no or doubt, a guess, a question or proposal whether to act, a request
taken back ("nvm") or one that trails off stays refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.a2.m1.s2c4"
D = "ju1.a2.dom"


@pytest.mark.parametrize("text", [
    f"yeet {S} outta the graph, then gimme a list of the {D} child nodes :pray:",
    f"ngl so like remove {S} real quick, then list the child nodes of {D} lmk",
    f"remove {S} from the graph and lmk the child nodes of {D} \U0001F64F\U0001F525",
    f"tbh remove {S} and list the child nodes of {D} fr :eyes:",
])
def test_chat_is_read_as_the_request(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {D}.")


@pytest.mark.parametrize("text", [
    f"remove {S} :x:",
    f"remove {S} :thinking:",
    f"remove {S} :sweat_smile:",
    f"remove {S} \u274C",
    f"remove {S} \U0001F914",
    f"remove {S} i guess",
    f"remove {S}, i reckon",
    f"remove {S} nvm",
    f"should i remove {S}",
    f"so like should i yeet {S}",
    f"we could remove {S}",
    f"so we might remove {S}",
    f"remove {S} and also like",
    f"rm {S} n",
    f"rm {S} tmrw",
    f"rm {S} iff empty",
    f"remove {S}, ok?",
    f"rm {S} y/n",
    f"rm {S} nm",
    f"rm {S} oops",
    f"rm {S} nxt wk",
])
def test_chat_that_may_say_no_doubt_or_whether_isrefused(text: str) -> None:
    refused(text)


def test_a_polite_i_think_we_need_is_a_request() -> None:
    same(f"I think we need to remove {S} from the graph - could you do that?",
          f"Remove {S} from the graph.")


@pytest.mark.parametrize("text", [
    f"remove {S} from the graph, then list the child nodes of {D} #netops #capacity",
    f":wrench: remove {S}, then list the child nodes of {D} :bar_chart: #NetOps",
])
def test_a_feeds_topic_tags_and_pictures_of_work_are_left_out(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {D}.")


@pytest.mark.parametrize("text", [
    f"list the ports of {S} #uplinks",  # a tag that may say which
    f"add port np1 to {S} :wastebasket:",  # a picture of another change
    f"remove {S} :scissors: #netops :shrug:",
    f"remove {S} #not-yet",
])
def test_other_tags_and_pictures_keep_a_request_refused(text: str) -> None:
    refused(text)


def test_a_hash_before_a_kind_is_still_a_number() -> None:
    same(f"#ports in {S}?", f"Count the ports in {S}.")


@pytest.mark.parametrize("text", [
    f"whey aye, can ye remove {S} an' then list the child nodes o {D}, cheers pet",
    f"bout ye, can yous remove {S} and then list the child nodes of {D}, so it is",
    f"gonnae remove {S} then gizza list of the child nodes of {D}, ta la",
])
def test_the_englishes_of_britain_and_ireland_are_read(text: str) -> None:
    same(text.replace(" an' ", " and "), f"Remove {S} from the graph. List the child nodes of {D}.")


@pytest.mark.parametrize("text", [
    f"gotta drop {S} real quick, then can ya gimme the child nodes of {D}, ya know",
    f"hey so {S} has gotta go. lemme get the child nodes of {D} after, no rush",
    f"kinda need {S} gone - then lemme see the child nodes of {D}",
    f"gonna need {S} outta the graph, then I wanna see the child nodes of {D}",
])
def test_casual_speech_run_together_is_read(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {D}.")


@pytest.mark.parametrize("text", [
    f"ya gotta not remove {S}",
    f"I don't wanna remove {S}",
    f"gonna remove {S}, ya know, if it's down",
    f"kinda wanna remove {S}?",
])
def test_casual_speech_that_says_no_or_if_stays_refused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"gonnae no remove {S}, pal",
    f"remove {S}, so it is not",
    f"remove {S} so it is done",
])
def test_a_dialect_no_or_a_tag_that_says_more_stays_refused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"1/2 remove {S} from the graph :wrench: 2/2 then list the child nodes of {D} #netops",
    f"(1/2) remove {S} from the graph. (2/2) list the child nodes of {D}",
])
def test_a_threads_numbers_end_its_parts(text: str) -> None:
    same(text, f"Remove {S} from the graph. List the child nodes of {D}.")


@pytest.mark.parametrize("text", [
    f"1/3 remove {S} from the graph 2/3 list the child nodes of {D}",  # a part is missing
    f"1/2 remove {S} from the graph",
    f"2/2 remove {S} from the graph 1/2 list the child nodes of {D}",
    f"set {S}.p1 to 1/2 Gbps",
])
def test_a_thread_not_numbered_whole_and_in_order_stays_as_written(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"Hey Atlas, remove every port of switch {S}.",
    f"Hi Nkechi: remove every port of switch {S}.",
    f"Good morning Priya - remove every port of switch {S}.",
])
def test_a_greeting_and_a_name_set_apart_is_whom_it_is_said_to(text: str) -> None:
    same(text, f"Remove every port of switch {S}.")


@pytest.mark.parametrize("text", [
    f"Hi uplinks, remove every port of switch {S}.",  # a known word: the ones meant?
    f"Hey Conditionally, remove every port of switch {S}.",
    f"Hey Atlas Smith, remove every port of switch {S}.",
])
def test_a_greeting_before_a_word_that_may_say_which_stays_refused(text: str) -> None:
    refused(text)
