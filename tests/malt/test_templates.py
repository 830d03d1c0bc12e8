"""The shortcut for the generator's phrasing gives exactly what the parser gives, or nothing.

The parser (``parse_request(..., shortcut=False)``) is the oracle: on every text the
shortcut reads, both must agree, and a text the parser refuses must never be read.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from netmend.assess.malt.tasks import generate_tasks, select_families
from netmend.malt import kinds as K
from netmend.malt import templates
from netmend.malt.parser import QueryError, parse_request
from netmend.malt.topology import default

GRAPH = default()
# The families whose phrasing is the public generator's (the rest are netmend's own).
GENERATOR_FAMILIES = [f for f in select_families("all") if not f.name.startswith(
    ("l1-typed", "l1-capacity", "l1-aggregate", "l1-top", "l1-filter", "l1-ancestor",
     "l1-multi", "l1-update-all"))]


def _parser(text: str):
    try:
        return parse_request(text, shortcut=False)
    except QueryError:
        return None


def _agrees(text: str) -> bool:
    """Whether the shortcut reads ``text`` (and then, as the parser does)."""
    found = templates.read(text)
    if found is None:
        return False
    parsed = _parser(text)
    assert parsed is not None, f"the shortcut reads what the parser refuses: {text!r}"
    assert (parsed.query.steps, parsed.qualifiers, parsed.places, parsed.unquantified) == (
        found.steps, found.qualifiers, (), False), text
    assert parse_request(text) == parsed, text
    return True


def _generated(seed: int, per_type: int = 25) -> list[str]:
    return [t.query for t in generate_tasks(GRAPH, GENERATOR_FAMILIES, per_type, seed)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_generated_request_is_read_as_the_parser_reads_it(seed: int) -> None:
    texts = _generated(seed)
    assert len(GENERATOR_FAMILIES) == 16 and len(texts) == 16 * 25
    assert all(_agrees(text) for text in texts)


def test_other_phrasings_are_left_to_the_parser() -> None:
    for text in ("Remove ju1.a1.m1.s2c1 from the graph.",  # no "Return a graph."
                 "remove ju1.a1.m1.s2c1 from the graph. Return a graph.",
                 "Remove  ju1.a1.m1.s2c1 from the graph. Return a graph.",
                 "Do not remove ju1.a1.m1.s2c1 from the graph. Return a graph.",
                 "Remove ju1.a1.m1.s2c1 from the graph. Return a graph. Thanks.",
                 "Count the EK_WIDGET in the ju1.a1.m1. Return the count number as text.",
                 "Add new node with name new_EK_PORT_3 type EK_RACK, to ju1.a1.m1. Return a graph.",
                 "Remove ju1.a1.m1.s2c1 from the graph. Count the EK_PORT in ju1.a1.m1.s2c1 in "
                 "the updated graph. Return the count number as text."):
        assert templates.read(text) is None, text


# Names of the generator's shape made of words a request may also say, and of random parts.
_PARTS = st.one_of(
    st.sampled_from(["ju1", "a1", "m2", "s2c3", "p4", "dom", "graph", "all", "not", "the", "new",
                     "EK_PORT", "Remove", "x", "1", "p", "rack", "m1rack", "to", "from", "_"]),
    st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", min_size=1,
            max_size=6))
_NAMES = st.lists(_PARTS, min_size=1, max_size=5).map(".".join)
_KINDS = st.sampled_from([*K.ENTITY_KINDS, "EK_WIDGET", "EK_PORTS", "EK"])
_NEW = st.builds(lambda kind, n: f"new_{kind}_{n}", _KINDS, st.integers(0, 1200))
_FIRST = st.one_of(
    st.builds("Remove {} from the graph.".format, _NAMES),
    st.builds("Add {} to {}.".format, _NEW, _NAMES),
    st.builds("Add node with name '{}' to {}.".format, _NEW, _NAMES))
_THEN = st.one_of(
    st.builds(" List direct child nodes of {} in the updated graph. Return a list of child "
              "nodes name.".format, _NAMES),
    st.builds(" Rank direct child nodes of {} in the updated graph based on physical_capacity_bps"
              " attribute. Return a list of tuple, each tuple has node name and its total physical"
              " capacity.".format, _NAMES),
    st.builds(" Count the {} in {} in the updated graph. Return the count number as text.".format,
              _KINDS, _NAMES))
_TEXTS = st.one_of(
    st.builds("{}{}".format, _FIRST, _THEN),
    st.builds("Add new node with name {} type {}, to {}. Return a graph.".format, _NEW, _KINDS,
              _NAMES),
    st.builds("Remove {} from the graph. Return a graph.".format, _NAMES),
    st.builds("List all the child nodes of {}. Return a list of child node names.".format, _NAMES),
    st.builds("Rank all child nodes of {} type {} based on physical_capacity_bps attribute. Return"
              " a list of tuple, each tuple has child node name and its total physical "
              "capacity.".format, _KINDS, _NAMES),
    st.builds("Count the {} in the {}. Return the count number as text.".format, _KINDS, _NAMES),
    st.builds("Update the physical capacity value of {} to {}. Return a graph.".format, _NAMES,
              st.one_of(st.integers(-5, 10**10), st.sampled_from(["1.5", "07", "1e3", "10G"]))),
    st.builds("For each {}, add a new {} to it. Count the total number of {} in the updated "
              "graph. Return only the counts.".format, _KINDS, _KINDS, _KINDS))


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(_TEXTS)
@example("Remove ju1.a1.m1.s2c1 from the graph. Remove ju1.a1.m1.s2c1 from the graph.")
@example("For each EK_PORT, add a new EK_PORT to it. Count the total number of EK_PORT in the "
         "updated graph. Return only the counts.")
def test_random_names_kinds_and_numbers_are_read_as_the_parser_reads_them(text: str) -> None:
    _agrees(text)


def _mutations(text: str, rng: random.Random) -> list[str]:
    words = text.split(" ")
    out = []
    for _ in range(12):
        w = list(words)
        at = rng.randrange(len(w))
        how = rng.randrange(5)
        if how == 0:
            del w[at]
        elif how == 1:
            w.insert(at, rng.choice(["not", "only", "all", "except", "then", "the", "and"]))
        elif how == 2:
            w[at] = w[at].upper() if w[at] != w[at].upper() else w[at].lower()
        elif how == 3 and at + 1 < len(w):
            w[at], w[at + 1] = w[at + 1], w[at]
        else:
            w[at] = w[at] + rng.choice([".", ",", "?", "s", ""])
        out.append(" ".join(w))
    return out


def test_mutated_generated_requests_are_read_as_the_parser_reads_them_or_not_at_all() -> None:
    rng = random.Random(5)
    texts = _generated(3, per_type=8)
    read = sum(_agrees(m) for text in texts for m in _mutations(text, rng))
    assert read < len(texts) * 12 // 4  # most mutations leave the generator's phrasing
