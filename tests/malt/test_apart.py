"""A phrase set apart from a request that may say which nodes are meant ("Uplinks: list the
ports of S") is never read as the whole set; one that names the occasion mostly goes.

Two labelled parts in ``data/``: each item is a request, the phrase set apart in it, and
whether its writer meant the phrase to narrow the set. The held-back part is only measured.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from netmend.malt.parser import QueryError, _of_named, parse_request

DATA = Path(__file__).parent / "data"
# (file, narrowing phrases answered as the whole set at most, occasion phrases answered at least)
# Context that says a word other than an occasion's before a change to a set is refused
# ("We're retaining the uplinks. Remove all ports of S"), which costs three held-back occasion
# phrases (55 -> 52).
PARTS = [("phrases-apart-tuning.yaml", 1, 48), ("phrases-apart-heldback.yaml", 4, 52)]


def _answers(name: str) -> tuple[int, int, int]:
    """How many narrowing phrases are answered as the whole set, how many occasion ones are
    answered, and how many items there are."""
    items = yaml.safe_load((DATA / name).read_text())["items"]
    narrowed = occasion = 0
    for item in items:
        try:
            steps = parse_request(item["text"]).query.steps
        except QueryError:
            continue
        if not item["narrows"]:
            occasion += 1
        elif not all(map(_of_named, steps)):
            narrowed += 1
    return narrowed, occasion, len(items)


@pytest.mark.parametrize(("name", "most_narrowed", "least_occasion"), PARTS)
def test_a_narrowing_phrase_is_rarely_read_as_the_whole_set(
        name: str, most_narrowed: int, least_occasion: int) -> None:
    narrowed, occasion, count = _answers(name)
    assert count == 150
    assert narrowed <= most_narrowed
    assert occasion >= least_occasion
