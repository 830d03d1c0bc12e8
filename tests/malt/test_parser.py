"""Golden request -> plan pairs for every family and many phrasings; refusals for nonsense."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from netmend.malt import ir
from netmend.malt.parser import QueryError, parse, parse_request, tokenize

DATA = Path(__file__).parent / "data"
GROUPS = yaml.safe_load((DATA / "requests.yaml").read_text())
REFUSALS = yaml.safe_load((DATA / "refusals.yaml").read_text())


def _plan(steps: list) -> tuple:
    """YAML lists as the plan's tuples, all the way down."""
    return tuple(_plan(item) if isinstance(item, list) else item for item in steps)


CASES = [(text, group) for group in GROUPS for text in group["say"]]


@pytest.mark.parametrize(("text", "group"), CASES, ids=[t[:60] for t, _ in CASES])
def test_golden_phrasing(text: str, group: dict) -> None:
    query = parse(text)
    assert query.to_plan() == _plan(group["plan"])
    assert query.answer_type == group["answer"]
    assert query.family == group["family"]


@pytest.mark.parametrize("case", REFUSALS, ids=[c["text"][:50] or "<empty>" for c in REFUSALS])
def test_refusals_are_typed(case: dict) -> None:
    with pytest.raises(QueryError) as info:
        parse(case["text"])
    assert info.value.code == case["code"], str(info.value)
    assert info.value.expected, "a refusal says what was expected"


def test_every_family_is_covered() -> None:
    families = {group["family"] for group in GROUPS}
    for family in ("level-1 add", "level-1 remove", "level-1 list", "level-1 rank",
                   "level-1 count", "level-1 update", "level-2 remove-list",
                   "level-2 remove-rank", "level-2 remove-count", "level-2 add-list",
                   "level-2 add-rank", "level-2 add-count", "for-loop add-count",
                   "level-1 list-nodes", "level-1 capacity", "level-1 aggregate", "level-1 top",
                   "level-1 remove-all", "level-1 update-all"):
        assert family in families


def test_parsing_is_deterministic_and_case_insensitive_for_words() -> None:
    a = parse("REMOVE ju1.a1.m1.s2c1 FROM THE GRAPH")
    b = parse("remove ju1.a1.m1.s2c1 from the graph")
    assert a == b
    assert parse("remove ju1.a1.m1.s2c1") == parse("remove ju1.a1.m1.s2c1")


def test_names_keep_their_case_and_quotes_allow_anything() -> None:
    assert parse("remove Ju1.A1").steps == (ir.Remove("Ju1.A1"),)
    assert parse("remove 'core switch \"7\"'").steps == (ir.Remove('core switch "7"'),)
    assert parse('delete "it\'s; rm -rf /"').steps == (ir.Remove("it's; rm -rf /"),)


def test_kind_qualifiers_are_recorded_for_validation() -> None:
    parsed = parse_request("list the children of rack ju1.a1.m1")
    assert parsed.qualifiers == (("ju1.a1.m1", "EK_RACK"),)


def test_numbers_and_units() -> None:
    values = [parse(f"set the capacity of p1.x to {text}").steps[0].value
              for text in ("5", "2.5 Gbps", "100 mbps", "1e3")]
    assert values == [5, 2_500_000_000, 100_000_000, 1000]


def test_tokenizer_rejects_control_characters() -> None:
    with pytest.raises(QueryError):
        tokenize("remove ju1\x00")
