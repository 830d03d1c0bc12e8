"""A request to offer when one is refused for words netmend does not know.

A refusal says what was expected; for a request refused only because some of its words
are unknown ("For the vendor quote, what's the number of EK_PACKET_SWITCH boxes in
ju1.a1.m2?"), :func:`suggest` also offers what netmend would read without those words, in
its own plain English ("Count the switches in ju1.a1.m2."), with the words it left out.

It is an offer, never an answer: nothing is run on it, and the words left out may well
have mattered ("dark ports", "the uplinks"), which is why they are listed. It is made only
when the request's other words read as a whole request on their own, and only as text
that reads back as exactly that request (:func:`netmend.malt.english.plain`).
"""

from __future__ import annotations

from dataclasses import dataclass

from netmend.malt import english, phrasing
from netmend.malt import parser as P


@dataclass(frozen=True)
class Suggestion:
    """``request``: what to send instead; ``left_out``: the words of the refused request it
    leaves out, in the order they were written."""

    request: str
    left_out: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"request": self.request, "left_out": list(self.left_out)}

    @property
    def left_out_said(self) -> str:
        """The words left out, quoted: "'linecard', 'pulled'"."""
        return ", ".join(map(repr, self.left_out))


def for_refusal(text: str, refusal: P.QueryError) -> Suggestion | None:
    """:func:`suggest` for ``text`` when it was refused for what netmend does not know (code
    ``unknown``); None for any other refusal (a negation, an ambiguity, an unknown name)."""
    return suggest(text) if refusal.code == "unknown" else None


# Words that say how many of a set are meant: "every optical transceiver".
_QUANTIFIERS = frozenset({"every", "each", "all", "any", "some"})
# The first words of the words for kinds ("switches", "agg" of "agg block").
_KIND_FIRST = frozenset(words.split()[0] for words in phrasing.KIND_WORDS)


# Words before and after a noun that is what a question asks of a node ("the utilization on
# P", "the current temperature in R").
_ASKED_BEFORE = frozenset({"the", "a", "an", "current", "its", "their"})
_ASKED_AFTER = frozenset({"on", "of", "for", "in", "at"})


def _may_pick(tokens: list[P.Token], i: int) -> bool:
    """Whether the unknown word at ``i`` may say which nodes are meant or what is asked of
    them: it is said next to a kind ("optical circuit switches", "the ports flapping", "dark
    ports"), after a quantifier ("every transceiver"), as the noun asked of a node ("the
    utilization on P"), or it joins names ("A and/or B")."""
    return any(0 <= j < len(tokens) and (tokens[j].kind == "KIND" or tokens[j].text in _KIND_FIRST)
               for j in (i - 1, i + 1)) or i > 0 and tokens[i - 1].text in _QUANTIFIERS \
        or "/" in tokens[i].text or 0 < i < len(tokens) - 1 \
        and tokens[i - 1].text in _ASKED_BEFORE and tokens[i + 1].text in _ASKED_AFTER


def suggest(text: str) -> Suggestion | None:
    """What ``text`` reads as without its unknown words, or None (nothing unknown to leave
    out, or the rest is no whole request either)."""
    try:
        tokens = P.tokenize(text)
    except P.QueryError:
        return None
    unknown = P.unknown_positions(tokens)
    kept = [token for i, token in enumerate(tokens) if i not in unknown]
    left_out = [token for i, token in enumerate(tokens) if i in unknown]
    if not left_out or not kept or any(_may_pick(tokens, i) for i in unknown):
        return None
    try:
        query = P.parse(" ".join(token.text for token in kept))
    except P.QueryError:
        return None
    said = english.plain(query, P.parse)
    if said is None:
        return None
    return Suggestion(said, tuple(dict.fromkeys(token.text for token in left_out)))
