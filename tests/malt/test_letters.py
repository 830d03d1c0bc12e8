"""Letters, memos and the words of contracts: their openings, headers and closings say whom
and when, never what; anything in them that could change the request keeps it refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.a1.m2.s2c2"
PLAIN_COUNT = f"Count the ports in {S}."


@pytest.mark.parametrize("text", [
    f"Dear Sir or Madam, I should be grateful if you would count the ports in {S}. Yours "
    "faithfully",
    f"Dear Sir/Madam, kindly count the ports in {S}. Yours sincerely, Rob Whitcombe",
    f"MEMO. To: Capacity Planning. From: Operations Manager. Date: 14 March. Subject: Port "
    f"count. Please count the ports in {S}.",
    f"To: Inventory. From: Procurement Officer. Subject: Port count query. Please count the "
    f"ports in {S}.",
    f"Re: Switch {S}. Kindly count the ports in {S}.",
    f"The Contractor is hereby instructed to count the ports in {S}.",
    f"With immediate effect, please count the ports in {S}.",
    f"Clause 4.2(a): the Provider shall count the ports in {S}.",
])
def test_what_a_letter_says_around_a_request_is_not_part_of_it(text: str) -> None:
    same(text, PLAIN_COUNT)


@pytest.mark.parametrize("text", [
    # a subject or a field that may pick some nodes out, or say when or whether
    f"MEMO. To: Capacity Planning. Subject: Uplinks only. Please list the ports of {S}.",
    f"To: Inventory. From: Procurement. Subject: except ju1.a1.m2.s2c2.p1. Please remove all "
    f"ports of {S}.",
    f"To: Inventory. From: Procurement. Date: 14 March. Subject: Port count. Please count the "
    f"ports in {S} unless it is empty.",
    f"MEMO. To: NOC. From: Ops. Subject: remove {S}. Please list the ports of {S}.",
    f"Re: ju1.a1.m2.s2c3. Please list the ports of {S}.",  # another node named
    # a letter's opening or closing that is no one's name
    f"Dear Sir or Madam or the uplinks, please list the ports of {S}.",
    f"Please list the ports of {S}. Yours faithfully, only the uplinks",
    # proposed, not instructed
    f"It is hereby proposed that {S} be removed.",
])
def test_a_letter_part_that_could_change_the_request_keeps_it_refused(text: str) -> None:
    refused(text)


def test_the_next_step_said_as_contracts_say_it() -> None:
    same(f"Clause 4.2(a): {S}.p1 shall be deleted from the graph. Clause 4.2(b): upon such "
         f"deletion, count the ports in {S}.",
         f"Remove {S}.p1 from the graph. Count the ports in {S}.")
