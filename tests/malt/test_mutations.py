"""A word that changes what is meant is never skipped, wherever it is put in a request.

Seeded mutation run over the tuning corpora: requests the front end reads get one such word
("not", "except", "maybe", "simulate", ...) inserted at a random place; the result must be
refused, or read differently (the word was understood, as in "not below" for "at least") -
never read as if the word were not there. Requests with a sign-off are left out (what
follows "Best regards" is the signature, which is not read). "only" is not among the words:
"directly only" says the depth again, and means what "directly" does.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import yaml

from netmend.malt.parser import QueryError, parse

from .inserted import insert

DATA = Path(__file__).parent / "data"
CHANGING = ("not", "never", "except", "excluding", "unless", "without", "maybe", "perhaps",
            "ignore", "skip", "temporarily", "hypothetical", "simulate", "half", "twice",
            "alphabetically", "random", "instead", "nobody", "neither", "keep")
SIGN_OFFS = ("regards", "best", "cheers", "sincerely", "br,")


@cache
def _read_requests() -> tuple[tuple[str, object], ...]:
    texts: list[str] = []
    for path in sorted(DATA.glob("paraphrases-tuning*.yaml")):
        for group in yaml.safe_load(path.read_text()).get("groups", []):
            texts += group["paraphrases"]
    rng = random.Random(20261206)
    read = []
    for text in rng.sample(texts, 1500):
        if any(word in text.lower() for word in SIGN_OFFS):
            continue
        try:
            read.append((text, parse(text)))
        except QueryError:
            continue
    return tuple(read)


def test_a_word_that_changes_the_meaning_is_never_read_as_absent() -> None:
    rng = random.Random(7)
    read = _read_requests()
    assert len(read) > 1000, "the sample reaches most families"
    skipped = []
    for _ in range(4000):
        text, reading = rng.choice(read)
        word = rng.choice(CHANGING)
        mutant = insert(text, word, rng.randrange(len(text.split(" ")) + 1))
        try:
            got = parse(mutant)
        except QueryError:
            continue
        if got == reading:
            skipped.append(mutant)
    assert not skipped, f"{len(skipped)} read as if the word were absent, e.g. {skipped[:5]}"


# Clauses set apart from the request that say it is not to be done yet.
PENDING = ("{} Pending approval.", "{} - awaiting sign-off", "{} (subject to CAB approval)",
           "Planned: {}", "Pending review, {}", "{} Scheduled for the weekend.",
           "{} On hold for now.", "Awaiting approval - {}", "{} TBC.", "Tentative: {}")


def test_a_request_said_to_wait_is_never_read_as_if_it_did_not() -> None:
    rng = random.Random(11)
    read = _read_requests()
    taken = []
    for _ in range(1500):
        text, reading = rng.choice(read)
        mutant = rng.choice(PENDING).format(text)
        try:
            got = parse(mutant)
        except QueryError:
            continue
        if got == reading:
            taken.append(mutant)
    assert not taken, f"{len(taken)} read as if they did not wait, e.g. {taken[:5]}"
