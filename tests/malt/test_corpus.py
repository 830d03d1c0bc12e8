"""Paraphrase corpora: freely phrased requests get the canonical phrasing's answer or a refusal.

Three corpora live in ``data/``: the hand-written tuning part and the
compositional one (``paraphrase_gen``), which the front end is developed
against, and the held-back part, which is only measured. Any other corpus
file (same format) can be judged with ``NETMEND_MALT_CORPUS=FILE`` (and
optionally ``NETMEND_MALT_TOPOLOGY=FILE``), or ``netmend assess malt --corpus FILE``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from netmend.assess.malt.corpus import CorpusError, evaluate, load_corpus, render
from netmend.cli import main
from netmend.malt import topology

from . import paraphrase_gen

DATA = Path(__file__).parent / "data"
TUNING = ("paraphrases-tuning.yaml", "paraphrases-generated.yaml")
HELD_BACK = "paraphrases-heldback.yaml"
# Written with the tuning corpus's second batch and split off at random before the front end
# was changed for any of it (87.6% same and one wrong answer as written).
HELD_BACK_2 = "paraphrases-heldback-2.yaml"
GRAPH = topology.default()


def _report(name: str):
    return evaluate(load_corpus((DATA / name).read_text()), GRAPH)


def test_the_corpora_hold_enough_paraphrases_and_negatives() -> None:
    corpora = [load_corpus((DATA / name).read_text()) for name in (*TUNING, HELD_BACK)]
    assert sum(len(c.pairs) for c in corpora) >= 600
    assert sum(len(c.negatives) for c in corpora) >= 100
    assert len(corpora[-1].pairs) >= 250


# The third tuning part: batches in twelve voices (see its header), developed against; its
# share is a floor that holds what was reached, not a goal.
TUNING_3 = "paraphrases-tuning-3.yaml"
# The third held-back part: two batches written with the third tuning part's first ones, by
# writers who saw neither the code nor the tuning batches, measured (counts only) before any
# change and at the end; see its header for both measurements.
HELD_BACK_3 = "paraphrases-heldback-3.yaml"
# The fourth parts: nine tuning batches in other voices (chat, hedges, tickets, speech,
# analysts, many countries, systematic variants, a paraphrasing assistant, many roles) and
# three held-back batches written alongside them and measured only (see their headers).
TUNING_4 = "paraphrases-tuning-4.yaml"
HELD_BACK_4 = "paraphrases-heldback-4.yaml"
# The fifth parts: two tuning batches (sentence shapes; change requests, planning emails and
# newcomers) and three held-back batches written before any change and measured only.
TUNING_5 = "paraphrases-tuning-5.yaml"
HELD_BACK_5 = "paraphrases-heldback-5.yaml"
# The sixth parts: eight tuning batches (context around requests, vocabulary, new users, a
# paraphrase generator, terse notes, questions, English as a second language, plain
# rewrites) and three held-back batches measured only (two before any change, one written
# during the work).
TUNING_6 = "paraphrases-tuning-6.yaml"
HELD_BACK_6 = "paraphrases-heldback-6.yaml"
# The seventh parts: six tuning batches (polite requests and plans, runbooks, first-week
# users, chat with short reasons, writers outside networking, chat shorthand) and three
# held-back batches measured only (two before any change, one written during the work).
TUNING_7 = "paraphrases-tuning-7.yaml"
HELD_BACK_7 = "paraphrases-heldback-7.yaml"
# The eighth parts: five tuning batches (newcomers, on-call chat with reasons, every
# construction, English as a second language, planners and auditors) and three held-back
# batches written and measured before any change, measured only.
TUNING_8 = "paraphrases-tuning-8.yaml"
HELD_BACK_8 = "paraphrases-heldback-8.yaml"
# The ninth parts: seven tuning batches (formal planners, voice transcripts, systematic
# grammar, new hires, business staff, English as a second language, a provider's operations
# centre) and three held-back batches written and measured before any change, measured only.
TUNING_9 = "paraphrases-tuning-9.yaml"
HELD_BACK_9 = "paraphrases-heldback-9.yaml"
TUNING_10 = "paraphrases-tuning-10.yaml"
HELD_BACK_10 = "paraphrases-heldback-10.yaml"
# The eleventh parts: four tuning batches (managers, an incident channel, wordy writers, people
# outside networking) and three held-back batches written and measured before any change.
TUNING_11 = "paraphrases-tuning-11.yaml"
HELD_BACK_11 = "paraphrases-heldback-11.yaml"
# The twelfth parts: four tuning batches (postmortem action items, English as a second
# language, shorthand, colocation customers), three held-back batches written and measured
# before any change (vendor case notes, request forms, requests talked through; the round's
# work was aimed at these registers, from their description), and three written during the
# round and aimed at by nothing (helpdesk relays, design reviews, texts from the floor).
TUNING_12 = "paraphrases-tuning-12.yaml"
# The twelfth held-back part fell from 61.4% to 58.3% when a phrase set apart that may name
# some of a set ("Uplinks: list the ports of S") came to be refused next to a set read.
HELD_BACK_12 = "paraphrases-heldback-12.yaml"
HELD_BACK_13 = "paraphrases-heldback-13.yaml"
# The thirteenth tuning part (code comments, mail threads, new hires) was developed against;
# the fourteenth held-back part was written at the start of that round and measured at its
# start and end only (capacity planners, dictated requests, audit and security).
TUNING_13 = "paraphrases-tuning-13.yaml"
HELD_BACK_14 = "paraphrases-heldback-14.yaml"
# The fifteenth held-back part was written at the start of the round after (user stories,
# hardware jargon, research notes) and measured at its start and end only.
HELD_BACK_15 = "paraphrases-heldback-15.yaml"
# The fourteenth tuning part (backlog items, bridge calls, prompts for an assistant, chat,
# minutes) was developed against; the sixteenth held-back part was written at the start of
# that round in three of those registers (prompts, chat, minutes) and measured at its start
# and end only; the seventeenth was written at its end, aimed at by nothing.
TUNING_14 = "paraphrases-tuning-14.yaml"
HELD_BACK_16 = "paraphrases-heldback-16.yaml"
HELD_BACK_17 = "paraphrases-heldback-17.yaml"
# The fifteenth tuning part (polite office writing, forum posts, test plans, worksheets,
# notebooks, pager replies, chased requests, bridge directives) was developed against; the
# eighteenth held-back part was written at the start of that round (forum questions, QA test
# specs, polite British writing), the nineteenth in its middle (escalations, ops-net orders,
# corporate jargon), each aimed at only through other writers' tuning batches of some of its
# registers, and the twentieth at its end, aimed at by nothing (microblog posts, chat
# transcripts, dialect chat); all three measured at the round's start and end only.
TUNING_15 = "paraphrases-tuning-15.yaml"
HELD_BACK_18 = "paraphrases-heldback-18.yaml"
HELD_BACK_19 = "paraphrases-heldback-19.yaml"
# The sixteenth tuning part (chat transcripts, microblog posts, dialect chat, stories) was
# developed against; it aims at three of the twentieth held-back part's registers through
# other writers (so that part is aimed at since, as its header says). The twenty-first
# held-back part was written at the start of that round and aimed at by nothing (translated
# English, world Englishes, stories, sales relays, formal letters), measured at the round's
# start and end only.
HELD_BACK_20 = "paraphrases-heldback-20.yaml"
TUNING_16 = "paraphrases-tuning-16.yaml"
HELD_BACK_21 = "paraphrases-heldback-21.yaml"
# The seventeenth tuning part (stories, relayed asks, translated English, formal letters, chat
# exports, mail replies, contracts) was developed against; it aims at four of the twenty-first
# held-back part's registers through other writers. The twenty-second held-back part was
# written at the start of that round (office English of India, contract drafting, email
# threads, Australian, New Zealand and South African chat, half query half code), measured at
# its start and end only; two of its registers were aimed at through the tuning batches.
TUNING_17 = "paraphrases-tuning-17.yaml"
HELD_BACK_22 = "paraphrases-heldback-22.yaml"
# The eighteenth tuning part (plain English, English as a second language, keyword fragments,
# phone messages, casual chat, an assistant called by name) was developed against. The
# twenty-third held-back part was written at the start of that round and measured at its
# start and end only (two of its registers aimed at, as its header says); the twenty-fourth
# was written at its end, aimed at by nothing.
TUNING_18 = "paraphrases-tuning-18.yaml"
HELD_BACK_23 = "paraphrases-heldback-23.yaml"
HELD_BACK_24 = "paraphrases-heldback-24.yaml"
# The nineteenth tuning part (on-call logs, code review, coursework, East Asian English, cards
# and tickets, a voice assistant) was developed against. The twenty-fifth held-back part was
# written at the start of that round and measured at its start and end only (four of its
# registers aimed at through the tuning batches, as its header says); the twenty-sixth was
# written during it, aimed at by nothing and measured at the end only.
TUNING_19 = "paraphrases-tuning-19.yaml"
HELD_BACK_25 = "paraphrases-heldback-25.yaml"
HELD_BACK_26 = "paraphrases-heldback-26.yaml"
# The twentieth tuning part (English written directly by speakers of many languages, West
# African and South Asian English, phone texts, forum posts, typing slips) was developed
# against; it aims at three of the twenty-sixth held-back part's registers through other
# writers. The twenty-seventh held-back part was written at the start of that round, the
# twenty-eighth in its middle; both aimed at by nothing and measured at its start and end only.
TUNING_20 = "paraphrases-tuning-20.yaml"
HELD_BACK_27 = "paraphrases-heldback-27.yaml"
HELD_BACK_28 = "paraphrases-heldback-28.yaml"
# Negatives answered that are open findings, each said in its corpus' header: the count must
# be exactly this (so a new one fails, and so does the fix, until this is updated).
ANSWERED_NEGATIVES = {TUNING_14: 1, HELD_BACK_17: 1, TUNING_18: 2, TUNING_19: 1, HELD_BACK_25: 1,
                      HELD_BACK_26: 2, TUNING_20: 1, HELD_BACK_28: 2}

# Every corpus: never a wrong answer, never an accepted negative, every canonical understood,
# and at least this share of its paraphrases answered the same (a goal for the first
# held-back part and the first tuning parts, a floor holding what was reached for the rest).
# The held-back parts are measured only: the front end is never adjusted to their phrasings.
FLOORS = {**{name: 0.97 for name in TUNING}, HELD_BACK: 0.97, HELD_BACK_2: 0.95,
          TUNING_3: 0.95, HELD_BACK_3: 0.94, TUNING_4: 0.94, HELD_BACK_4: 0.96,
          TUNING_5: 0.93, HELD_BACK_5: 0.91, TUNING_6: 0.95, HELD_BACK_6: 0.96,
          TUNING_7: 0.93, HELD_BACK_7: 0.93, TUNING_8: 0.88, HELD_BACK_8: 0.93,
          TUNING_9: 0.86, HELD_BACK_9: 0.91, TUNING_10: 0.87, HELD_BACK_10: 0.87,
          TUNING_11: 0.65, HELD_BACK_11: 0.73, TUNING_12: 0.82, HELD_BACK_12: 0.58,
          HELD_BACK_13: 0.58, TUNING_13: 0.59, HELD_BACK_14: 0.67,
          HELD_BACK_15: 0.71, TUNING_14: 0.82, HELD_BACK_16: 0.61, HELD_BACK_17: 0.63,
          TUNING_15: 0.75, HELD_BACK_18: 0.60, HELD_BACK_19: 0.59, HELD_BACK_20: 0.41,
          TUNING_16: 0.56, HELD_BACK_21: 0.46, TUNING_17: 0.52, HELD_BACK_22: 0.52,
          TUNING_18: 0.87, HELD_BACK_23: 0.58, HELD_BACK_24: 0.70, TUNING_19: 0.85,
          HELD_BACK_25: 0.50, HELD_BACK_26: 0.69, TUNING_20: 0.84, HELD_BACK_27: 0.64,
          HELD_BACK_28: 0.60}


@pytest.mark.parametrize(("name", "floor"), sorted(FLOORS.items()))
def test_corpora_never_answer_wrongly_and_hold_their_share(name: str, floor: float) -> None:
    report = _report(name)
    counts = report.counts()
    assert counts["wrong"] == 0, render(report, show=0)
    assert counts["negatives_accepted"] == ANSWERED_NEGATIVES.get(name, 0), render(report, show=0)
    assert counts["bad_canonical"] == 0, render(report, show=0)
    assert counts["same_rate"] >= floor, render(report, show=0)


def test_the_generated_corpus_is_what_the_generator_writes() -> None:
    assert (DATA / "paraphrases-generated.yaml").read_text() == paraphrase_gen.render()


@pytest.mark.skipif(not os.environ.get("NETMEND_MALT_CORPUS"),
                    reason="set NETMEND_MALT_CORPUS=FILE to judge an external corpus")
def test_external_corpus() -> None:
    path = Path(os.environ["NETMEND_MALT_CORPUS"])
    graph = topology.load(os.environ["NETMEND_MALT_TOPOLOGY"]) if os.environ.get(
        "NETMEND_MALT_TOPOLOGY") else GRAPH
    report = evaluate(load_corpus(path.read_text()), graph)
    print(render(report, show=200))
    counts = report.counts()
    assert counts["wrong"] == 0 and counts["negatives_accepted"] == 0


# ---- the loader accepts the shapes corpora come in, and says what is wrong


def test_every_accepted_shape_loads() -> None:
    mapping = load_corpus("""
groups:
  - {canonical: "Remove x.y from the graph.", paraphrases: ["delete x.y", "drop x.y"]}
pairs:
  - {paraphrase: "erase x.y", canonical: "Remove x.y from the graph."}
negatives: ["Do not remove x.y.", {text: "Reboot x.y."}]
""")
    assert len(mapping.pairs) == 3 and mapping.negatives == ("Do not remove x.y.", "Reboot x.y.")
    listing = load_corpus("""
- {paraphrase: "delete x.y", canonical: "Remove x.y."}
- {text: "drop x.y", same_as: "Remove x.y."}
- {negative: "Never remove x.y."}
- {text: "Maybe remove x.y.", refuse: true}
- {canonical: "Remove x.y.", paraphrases: ["erase x.y"]}
""")
    assert len(listing.pairs) == 3 and len(listing.negatives) == 2


@pytest.mark.parametrize("text", [
    "just words", "pairs: 3", "- {paraphrase: only one side}", "groups: [{canonical: x}]",
    "- 7", "other: []", "- {paraphrase: '', canonical: x}", "[unclosed",
])
def test_malformed_corpora_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(CorpusError) as info:
        corpus = load_corpus(text)
        if not corpus.pairs and not corpus.negatives:
            raise CorpusError("empty")
    assert str(info.value)


def test_a_wrong_answer_and_an_accepted_negative_are_reported(tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("""
pairs:
  - {paraphrase: "Remove ju1.a1.m1.s2c2.", canonical: "Remove ju1.a1.m1.s2c1."}
  - {paraphrase: "delete ju1.a1.m1.s2c1", canonical: "Remove ju1.a1.m1.s2c1."}
  - {paraphrase: "make the network faster", canonical: "Remove ju1.a1.m1.s2c1."}
negatives: ["Remove ju1.a1.m1.s2c3."]
""")
    report = evaluate(load_corpus(path.read_text()), GRAPH)
    counts = report.counts()
    assert (counts["same"], counts["wrong"], counts["refused"]) == (1, 1, 1)
    assert counts["negatives_accepted"] == 1 and not report.ok
    result = CliRunner().invoke(main, ["assess", "malt", "--corpus", str(path)])
    assert result.exit_code == 1 and "[wrong]" in result.output and "[accepted]" in result.output
    good = tmp_path / "good.yaml"
    good.write_text("pairs: [{paraphrase: 'delete ju1.a1.m1.s2c1', canonical: 'Remove "
                    "ju1.a1.m1.s2c1.'}]\nnegatives: ['Do not remove ju1.a1.m1.s2c1.']\n")
    result = CliRunner().invoke(main, ["assess", "malt", "--corpus", str(good), "--json"])
    assert result.exit_code == 0 and '"same": 1' in result.output
    result = CliRunner().invoke(main, ["assess", "malt", "--corpus", str(path), "--min-same", "1"])
    assert result.exit_code == 1
