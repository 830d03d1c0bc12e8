"""What a request refused for unknown words is offered instead, and when nothing is."""

from __future__ import annotations

from pathlib import Path

import pytest

from netmend.assess.malt.corpus import load_corpus
from netmend.malt.parser import QueryError, parse
from netmend.malt.suggest import suggest

DATA = Path(__file__).parent / "data"


def test_an_unknown_word_of_the_occasion_is_left_out_and_listed() -> None:
    text = "Linecard pulled - remove ju1.a2.m2.s2c2.p1 from the topology."
    with pytest.raises(QueryError):
        parse(text)
    offered = suggest(text)
    assert offered is not None
    assert offered.request == "Remove ju1.a2.m2.s2c2.p1 from the graph."
    assert offered.left_out == ("linecard",)
    assert offered.to_dict() == {"request": offered.request, "left_out": list(offered.left_out)}


@pytest.mark.parametrize("text", [
    "count the dark ports of ju1.a1.m1.s2c1",  # said of a kind: may pick nodes out
    "count the ports flapping of ju1.a1.m1.s2c1",
    "how many optical circuit switches are in ju1.a1",
    "set every transceiver of ju1.a1.m1.s2c1 to 10 Gbps",  # after a quantifier
    "don't remove ju1.a1.m1.s2c1 yet, blorp",  # a negation stays and is refused again
    "remove ju1.a1.m1.s2c1 from the graph",  # nothing unknown to leave out
    "what's the packet loss on ju1.a1.m1.s2c1.p1",  # 'packet' is known, only in a phrase
    "blorp florp",  # no request is left
    "What's the current utilization on port ju1.s1.s1c2.p3?",  # what is asked of the port
    "rm ju1.a1.m2.s2c1.p1 and/or ju1.a1.m2.s2c1.p2",  # how the names are joined
    "remove ju1.a1.m1.s2c1 ¤",  # not even words
])
def test_nothing_is_offered(text: str) -> None:
    assert suggest(text) is None


def _refused(paths: list[Path]) -> tuple[list[tuple[str, str]], list[str]]:
    pairs, negatives = [], []
    for path in paths:
        corpus = load_corpus(path.read_text())
        for text, canonical in [(p.paraphrase, p.canonical) for p in corpus.pairs] + [
                (text, "") for text in corpus.negatives]:
            try:
                parse(text)
            except QueryError as refusal:
                if refusal.code == "unknown":
                    (pairs.append((text, canonical)) if canonical else negatives.append(text))
    return pairs, negatives


def test_offers_on_the_tuning_corpus_ask_what_was_meant() -> None:
    """Measured on the tuning parts (the held-back ones are only counted, by hand): offers
    made for refused paraphrases ask what the canonical asks, nearly always; an offer is
    made for a few negatives (out-of-scope questions), each listing what it leaves out."""
    pairs, negatives = _refused(sorted(DATA.glob("paraphrases-tuning*.yaml")))
    offers = [(suggest(text), canonical) for text, canonical in pairs]
    made = [(offer, canonical) for offer, canonical in offers if offer is not None]
    wrong = [offer.request for offer, canonical in made if parse(offer.request) != parse(canonical)]
    assert len(made) >= 110 and len(wrong) <= 2, (len(made), wrong)
    for offer, _ in made:
        assert parse(offer.request) is not None and offer.left_out
    offered_negatives = [text for text in negatives if suggest(text) is not None]
    # about one negative in eighty (40 of 3,164 before the seventeenth tuning part, 42 of
    # 3,514 with it, 37 of 3,751 with the eighteenth)
    assert len(offered_negatives) <= len(negatives) // 80, offered_negatives
