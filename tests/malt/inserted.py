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


def refused_or_same(text: str, word: str, at: int) -> None:
    """``text`` with ``word`` inserted is refused, or reads as ``text`` does."""
    changed = insert(text, word, at)
    try:
        got = parse(changed)
    except QueryError:
        return
    assert got == parse(text), changed
