"""Requests written as the items of a worksheet or an exam: a question's number ("Q2.",
"Problem 2(b):", "Section A, Question 2"), its marks ("(4 marks)"), its parts ("(a) ...
(b) ..."), which graph it is about ("Using the topology provided, ...", "Using the modified
graph, ..."), how to give the answer ("Show your answer as a single integer", "hand in the
updated graph") are read as the plain request, and so is an item's label ("Exercise 3:",
"Homework 2 -", "Warm-up exercise:"), which numbers an item of a sheet about the graph given
as "Problem 2(b):" does. A graph before the changes named after a change, and a request said
to be a rehearsal, a dry run or for a lab, stay refused."""

from __future__ import annotations

import pytest

from .reading import refused, same

S = "ju1.a1.m2.s2c1"
A = "ju1.a1.m2"


@pytest.mark.parametrize("text", [
    f"Q2. (a) Remove switch {S} from the graph. (b) Using the modified graph, rank the child "
    f"nodes of {A} by capacity. (4 marks)",
    f"Problem 2(b): Delete {S}, then order the direct children of agg block {A} by capacity.",
    f"Using the topology provided, remove {S}, then rank the child nodes of {A} by capacity.",
    f"Given the topology in Figure 1, remove {S} and then sort the child nodes of {A} by "
    "capacity. Show your answer as an ordered list.",
    f"Section A, Question 3 [2 marks]. Starting from the reference topology, take {S} out, "
    f"then rank the children of {A} by capacity.",
])
def test_a_worksheet_item_is_read_as_the_plain_request(text: str) -> None:
    same(text, f"Remove {S} from the graph. Rank the child nodes of {A} by capacity.")


def test_a_count_answered_as_asked() -> None:
    same(f"Q5. Remove {S}, then count the switches in {A}. Show your answer as a single "
         "integer. (1 mark)", f"Remove {S} from the graph. Count the switches in {A}.")


@pytest.mark.parametrize("label", ["Exercise:", "Exercise 3:", "Homework 2 -",
                                   "Warm-up exercise:", "Practice problem:", "Assignment 4:"])
def test_a_worksheet_items_label_is_bookkeeping(label: str) -> None:
    same(f"{label} remove {S}, then count the switches in {A}.",
         f"Remove {S} from the graph. Count the switches in {A}.")
    same(f"{label} count the switches in {A}.", f"Count the switches in {A}.")


def test_the_graph_handed_in() -> None:
    same(f"Remove {S} and hand in the updated graph.", f"Remove {S} from the graph.")


@pytest.mark.parametrize("text", [
    f"Remove {S}. Using the original graph, count the switches in {A}.",
    f"1) remove {S} 2) using the initial topology, count the switches in {A}",
    f"Using the topology after the upgrade, remove {S}",
    f"Lab worksheet, step 1: remove {S}",
    f"Exercise (dry run): remove {S}",
    f"This is an exercise: remove {S}",
    f"Exercise, hypothetically: remove {S}",
    f"Exercise: remove {S} in the lab",
    f"Exercise: test removing {S}",
    f"For the DR exercise, remove {S}",
])
def test_another_graph_or_an_exercise_stays_refused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize("text", [
    f"# remove {S} from the graph; next: count the switches in {A} on the updated graph",
    f"## Step 2: remove {S}, then count the switches in {A} after the update",
])
def test_a_notebook_comment_or_heading_is_read_as_its_words(text: str) -> None:
    same(text, f"Remove {S} from the graph. Count the switches in {A}.")


@pytest.mark.parametrize("text", [f"# of switches in {A}?", f"#  of switches in {A}?"])
def test_a_number_sign_before_of_still_counts(text: str) -> None:
    same(text, f"Count the switches in {A}.")


@pytest.mark.parametrize("text", [f"# switches in {A}?", f"# switches under {A}"])
def test_a_number_sign_before_a_kind_counts_it(text: str) -> None:
    same(text, f"Count the switches in {A}.")
