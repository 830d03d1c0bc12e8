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


def _read_as_before(mutate, seed: int, rounds: int) -> list[str]:
    """Mutants of requests the front end reads (``mutate(rng, text)``) that it reads as it
    read the request."""
    rng = random.Random(seed)
    read = _read_requests()
    same = []
    for _ in range(rounds):
        text, reading = rng.choice(read)
        mutant = mutate(rng, text)
        try:
            got = parse(mutant)
        except QueryError:
            continue
        if got == reading:
            same.append(mutant)
    return same


def test_a_word_that_changes_the_meaning_is_never_read_as_absent() -> None:
    assert len(_read_requests()) > 1000, "the sample reaches most families"
    skipped = _read_as_before(lambda rng, text: insert(
        text, rng.choice(CHANGING), rng.randrange(len(text.split(" ")) + 1)), 7, 4000)
    assert not skipped, f"{len(skipped)} read as if the word were absent, e.g. {skipped[:5]}"


# Clauses set apart from the request that say it is not to be done yet.
PENDING = ("{} Pending approval.", "{} - awaiting sign-off", "{} (subject to CAB approval)",
           "Planned: {}", "Pending review, {}", "{} Scheduled for the weekend.",
           "{} On hold for now.", "Awaiting approval - {}", "{} TBC.", "Tentative: {}")


def test_a_request_said_to_wait_is_never_read_as_if_it_did_not() -> None:
    taken = _read_as_before(lambda rng, text: rng.choice(PENDING).format(text), 11, 1500)
    assert not taken, f"{len(taken)} read as if they did not wait, e.g. {taken[:5]}"
