"""Words inserted into a request, for tests that a word which may change its meaning is never
skipped (the parser's and slot filling's)."""

from __future__ import annotations

from netmend.malt import phrasing
from netmend.malt.parser import QueryError, parse

CRITICAL = sorted(word for word in phrasing.CRITICAL if " " not in word and word.isalpha())


def insert(text: str, word: str, at: int) -> str:
    """``text`` with ``word`` inserted before its ``at``-th word (modulo its length + 1)."""
    words = text.split(" ")
    at %= len(words) + 1
    return " ".join([*words[:at], word, *words[at:]])


def _makes_a_phrase(text: str, word: str, at: int) -> bool:
    """Whether ``word`` inserted makes a phrase of the lexicon with the words after it ("not"
    before "below" says "not below", at least): a reading of its own, tested as such."""
    words = text.lower().rstrip("?.!").split(" ")
    at %= len(words) + 1
    return any(" ".join([word, *words[at:at + n]]) in phrasing.LEXICON for n in (1, 2, 3))


def refused_or_same(text: str, word: str, at: int) -> None:
    """``text`` with ``word`` inserted is refused, or reads as ``text`` does (unless it makes a
    phrase of its own with the words after it)."""
    if _makes_a_phrase(text, word, at):
        return
    changed = insert(text, word, at)
    try:
        got = parse(changed)
    except QueryError:
        return
    assert got == parse(text), changed
