"""A query said back in netmend's plain English reads back as the same query."""

from __future__ import annotations

from pathlib import Path

import pytest

from netmend.assess.malt.corpus import load_corpus
from netmend.assess.malt.tasks import generate_tasks, select_families
from netmend.malt import english, ir, topology
from netmend.malt import kinds as K
from netmend.malt.parser import parse

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("query", "said"), [
    (ir.Query((ir.Remove("ju1.a1.m1.s2c1"), ir.Count(K.PACKET_SWITCH, "ju1.a1.m1"))),
     "Remove ju1.a1.m1.s2c1 from the graph. Count the switches in ju1.a1.m1."),
    (ir.Query((ir.Update("ju1.a1.m1.s2c1.p1", 40 * 10**9),)),
     "Set the capacity of ju1.a1.m1.s2c1.p1 to 40 Gbps."),
    (ir.Query((ir.Update("ju1.a1.m1.s2c1.p1", 400),)),
     "Set the capacity of ju1.a1.m1.s2c1.p1 to 400."),
    (ir.Query((ir.Rank("ju1.a1.m1", descending=False),)),
     "Rank the child nodes of ju1.a1.m1 by capacity, lowest first."),
    (ir.Query((ir.Top(ir.Select("ju1.a1.m1", K.PACKET_SWITCH), ir.Metric("count", K.PORT), 3),)),
     "List the 3 switches in ju1.a1.m1 with the most ports."),
    (ir.Query((ir.ListNodes(ir.Select("ju1.a1.m1.s2c1", K.PORT, filters=(
        ir.Where(ir.CAPACITY, "<", 10 * 10**9),))),)),
     "List the ports in ju1.a1.m1.s2c1 with capacity below 10 Gbps."),
    (ir.Query((ir.ListNodes(ir.Select("ju1.a1.m1.s2c1.p1", K.AGG_BLOCK, "ancestors")),)),
     "Which agg block contains ju1.a1.m1.s2c1.p1?"),
])
def test_say_golden(query: ir.Query, said: str) -> None:
    assert english.say(query) == said
    assert parse(said) == query


def _corpus_canonicals() -> list[str]:
    texts: dict[str, None] = {}
    for path in sorted(DATA.glob("paraphrases-*.yaml")):  # canonicals only, never paraphrases
        for pair in load_corpus(path.read_text()).pairs:
            texts[pair.canonical] = None
    return list(texts)


def test_every_corpus_canonical_is_said_back_as_itself() -> None:
    queries = {parse(text) for text in _corpus_canonicals()}
    assert len(queries) > 300
    unsaid = [english.say(q) for q in queries if english.plain(q, parse) is None]
    assert not unsaid, unsaid[:5]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_generated_task_of_every_family_is_said_back_as_itself(seed: int) -> None:
    tasks = generate_tasks(topology.default(), select_families("all"), 12, seed=seed)
    for task in tasks:  # the generator's phrasing, read as the evaluator's requests are
        query = parse(task.query)
        said = english.plain(query, parse)
        assert said is not None, (task.query, english.say(query))
        assert parse(said) == query


def test_plain_is_none_when_the_english_reads_as_something_else() -> None:
    query = ir.Query((ir.Remove("ju1.a1.m1.s2c1"),))
    assert english.plain(query, lambda _text: ir.Query((ir.Remove("other"),))) is None
    assert english.plain(query, parse) == "Remove ju1.a1.m1.s2c1 from the graph."
