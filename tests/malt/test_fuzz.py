"""Whatever a user types, the front end answers or refuses with a typed error, never crashes.

Three sources of text, from blind to grammar-aware:

* random word sequences over the whole vocabulary (every lexicon phrase, kind
  word, unit, number word, filler and critical word) mixed with names,
  numbers and punctuation;
* random derivations of the grammar itself (each category replaced by one of
  its phrases), so every rule, including rarely used ones, is reached with
  well-formed parts;
* those derivations mutated: a word dropped, repeated or swapped.

Each text goes through :func:`~netmend.malt.parser.parse` (only a
:class:`~netmend.malt.parser.QueryError` may come out), through the agent's
reply path (always a reply), and, when accepted, through validation and the
planner on a small topology (a typed refusal or a plan).
"""

from __future__ import annotations

import random
from functools import cache, lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.agent.malt import respond_malt
from netmend.malt import kinds as K
from netmend.malt import parser, topology
from netmend.malt import phrasing as P
from netmend.malt.parser import QueryError, parse_request
from netmend.malt.planner import plan
from netmend.malt.validate import validate

GRAPH = topology.synthetic(seed=0, superblocks=1, agg_blocks=1, spine_blocks=1,
                           switches_per_block=2, ports_per_switch=2)
NAMES = sorted(name for _, name in GRAPH.nodes(data="name"))[:40] + ["new_EK_PORT_7",
                                                                    "new_sw", "zz.q1"]
CODES = ("unknown", "ambiguous", "incomplete", "unknown-name", "invalid")

# Terminal categories the lexer makes without a lexicon entry, with texts that make them.
_SPECIAL = {
    "NAME": NAMES, "NUM": ["3", "1", "10", "2,000", "two", "twenty-five"],
    "RATE": ["10 Gbps", "40G", "2.5 gigabits per second", "100 mbps"],
    "COMMA": [",", ":"], "POSS": ["'s"], "UNK": ["zorp", "frobnicate"],
    "CRIT": sorted(P.CRITICAL)[:30], "UNIT": ["Gbps"],
    "KIND": list(K.ENTITY_KINDS),
}


@lru_cache(maxsize=1)
def _phrases_by_category() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {cat: list(texts) for cat, texts in _SPECIAL.items()}
    for text, cats in sorted(P.LEXICON.items()):
        for cat in cats:
            found.setdefault(cat, []).append(text)
    for text, (_kind, number) in sorted(P.KIND_WORDS.items()):
        for cat in ("KIND_SG", "KIND_PL") if number == "SGPL" else ("KIND_" + number,):
            found.setdefault(cat, []).append(text)
    found["KIND_SG"] += list(K.ENTITY_KINDS)
    found["KIND_PL"] += list(K.ENTITY_KINDS)
    return found


@lru_cache(maxsize=1)
def _vocabulary() -> list[str]:
    words = set(P.LEXICON) | set(P.KIND_WORDS) | set(P.UNITS) | set(P.NUMBER_WORDS)
    words |= set(P.FILLERS) | set(P.CRITICAL)
    return sorted(words) + NAMES + ["3", "10 Gbps", ",", ".", "?", "'s", ":", "EK_PORT"]


@cache
def _productions(nt: str) -> list[list[tuple]]:
    """Each of ``nt``'s productions as its concrete element sequences (optionals spelled out)."""
    return [list(parser._expand(shape)) for shape, _ in parser._rules()[nt]]


def _derive(nt: str, rng: random.Random, depth: int, out: list[str],
            reached: set[str] | None = None) -> None:
    if reached is not None:
        reached.add(nt)
    if depth > 6:  # deep down: prefer the shortest ways out, so derivations end
        options = [seq for production in _productions(nt) for seq in production]
        fewest = min(sum(1 for e in seq if e[0] == "N") for seq in options)
        choice = rng.choice([seq for seq in options
                             if sum(1 for e in seq if e[0] == "N") == fewest])
    else:  # a production, then one way of spelling its optionals: a rule with many optional
        # parts is no likelier than a plain one; coverage-guided, half the time towards a
        # nonterminal no derivation has reached yet
        productions = _productions(nt)
        fresh = [seq for production in productions for seq in production
                 if any(e[0] == "N" and e[1] not in (reached or ()) for e in seq)]
        choice = rng.choice(fresh) if reached is not None and fresh and rng.random() < 0.5 \
            else rng.choice(rng.choice(productions))
    phrases = _phrases_by_category()
    for kind, name, _slot in choice:
        if kind == "T":
            out.append(rng.choice(phrases.get(name, ["zorp"])))
        elif name == "gap":
            out.append("zorp")
        else:
            _derive(name, rng, depth + 1, out, reached)


def derivation(seed: int, reached: set[str] | None = None) -> str:
    words: list[str] = []
    _derive("sentence", random.Random(seed), 0, words, reached)
    return " ".join(words)


def _mutate(text: str, seed: int) -> str:
    rng = random.Random(seed)
    words = text.split(" ")
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(words))
        action = rng.choice(("drop", "repeat", "swap", "insert"))
        if action == "drop" and len(words) > 1:
            del words[at]
        elif action == "repeat":
            words.insert(at, words[at])
        elif action == "swap" and at + 1 < len(words):
            words[at], words[at + 1] = words[at + 1], words[at]
        else:
            words.insert(at, rng.choice(_vocabulary()))
    return " ".join(words)


def _check(text: str) -> None:
    try:
        parsed = parse_request(text)
    except QueryError as exc:
        assert exc.code in CODES and exc.expected, text
    else:
        try:
            validate(parsed, GRAPH)
        except QueryError as exc:
            assert exc.code in CODES, text
        else:
            plan(parsed.query, GRAPH)
    reply = respond_malt(text)
    assert isinstance(reply, str) and reply.strip(), text
    assert ("def process_graph" in reply) != reply.startswith("I cannot answer"), text


@settings(max_examples=250, deadline=None)
@given(st.lists(st.sampled_from(_vocabulary()), min_size=1, max_size=16).map(" ".join))
def test_random_word_sequences_are_answered_or_refused(text: str) -> None:
    _check(text)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_grammar_derivations_are_answered_or_refused(seed: int) -> None:
    _check(derivation(seed))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_mutated_derivations_are_answered_or_refused(seed: int, mutation: int) -> None:
    _check(_mutate(derivation(seed), mutation))


def test_derivations_reach_every_rule_and_many_are_understood() -> None:
    """The generator is worth its name: it uses every nonterminal and often parses."""
    reached: set[str] = set()
    accepted = 0
    for seed in range(1000):
        try:
            parse_request(derivation(seed, reached))
            accepted += 1
        except QueryError:
            pass
    assert accepted >= 60  # most derivations are nonsense with well-formed parts, as intended
    assert len(reached) >= len(parser._rules()) * 0.9


def test_the_reported_crash_is_now_an_answer() -> None:
    """A quantified update ("for all ports beneath A, set ...") once crashed the resolver."""
    for text in ("For all ports beneath agg block ju1.a1.m1, set their capacity to 10 gigabits "
                 "per second.", "for every port under ju1.a1.m1 set the capacity to 10G"):
        (step,) = parse_request(text).query.steps
        assert step.value == 10 * 10**9 and step.nodes.root == "ju1.a1.m1"
        assert step.nodes.kind == K.PORT


def test_soft_fillers_cost_a_bounded_number_of_parses() -> None:
    """Each soft filler ("new", "total", "now") may be dropped, but a request full of them
    is tried a bounded number of ways, the fewest drops first and all of them last."""
    text = "add " + " and ".join(f"new port new_p{i}" for i in range(20)) + " zork to ju1.a1.m1"
    lexemes = parser.lex(parser.tokenize(text))
    variants = list(parser._variants(lexemes))
    assert len(variants) <= parser._MAX_VARIANTS + 1
    assert variants[0] == lexemes and not any(x.soft for x in variants[-1])
    assert [len(v) for v in variants] == sorted((len(v) for v in variants), reverse=True)
