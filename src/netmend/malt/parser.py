"""Request text -> :class:`~netmend.malt.ir.Query`.

The pipeline, each stage a small pure function over the tables of
:mod:`netmend.malt.phrasing`:

1. :func:`tokenize`: names (dotted, quoted, with digits or underscores),
   kinds (``EK_PORT``), numbers (with digit groups and attached units),
   words, punctuation;
2. :func:`lex`: words and phrases become tokens carrying *categories*
   (longest phrase first; fillers dropped; negations and other critical words
   kept as ``CRIT``; unknown words ``UNK``); a number with a unit becomes a
   rate, exactly (decimal arithmetic);
3. each sentence is parsed with the grammar, finding *every* parse (a
   memoised top-down parser over categories); soft fillers are tried as
   words first and dropped only if no parse uses them, the fewest drops winning;
4. every parse is resolved with the token values into IR steps. One distinct
   result is the answer; none is a refusal that says what was expected; more
   than one is refused as ambiguous.

Lexing and parsing depend only on a sentence's words, never on its names or
numbers, so both are cached by the sentence's *shape* (:func:`_analyze`):
the same shape of request with other names costs one lookup, and only the
resolution reads the values. Nothing is guessed: an unknown word
inside a phrase, a critical word anywhere, a clause no rule fits, a missing
kind or value, two readings that differ, or a ``Return ...`` promise that
contradicts the request each raise a :class:`QueryError`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from netmend.malt import (
    context,
    ir,
    mail,
    records,
    sections,
    slots,
    templates,
    titles,
    transcript,
    worklog,
)
from netmend.malt import kinds as K
from netmend.malt import phrasing as P


class QueryError(ValueError):
    """A request was refused. ``code`` is one of ``unknown``, ``ambiguous``,
    ``incomplete``, ``unknown-name``, ``invalid``; ``expected`` says what would work."""

    code = "invalid"

    def __init__(self, message: str, *, expected: str | None = None, text: str | None = None):
        super().__init__(message if expected is None else f"{message}; expected {expected}")
        self.reason = message
        self.expected = expected
        self.text = text

    def to_dict(self) -> dict:
        return {"code": self.code, "message": str(self), "expected": self.expected}


class UnknownRequest(QueryError):
    code = "unknown"


class AmbiguousRequest(QueryError):
    code = "ambiguous"


class IncompleteRequest(QueryError):
    code = "incomplete"


class UnknownName(QueryError):
    code = "unknown-name"


# ---------------------------------------------------------------- tokens


class Token(NamedTuple):
    kind: str  # NAME, KIND, NUM, WORD, PUNCT, POSS
    text: str  # lower case for words
    value: object = None  # names and kinds: as written; numbers: exact; words: as written


# Letters of Latin scripts beyond ASCII are a word's own when the grammar knows the word
# ("abraço", "días": a courtesy of another language); any other word with them is read in
# ASCII pieces, as before such words were known.
_LATIN = "À-ÖØ-öø-ɏЀ-ӿ"  # (and Cyrillic: "спасибо")
_WORD_CHARS = rf"[A-Za-z0-9_\-/{_LATIN}]"
_ASCII_WORD_CHARS = r"[A-Za-z0-9_\-/]"
_TOKEN_PATTERN = r"""
    (?P<word>[A-Za-z_LATIN]WORD*(?:\.WORD+)*)
  | (?P<contraction>(?<=[A-Za-z])(?:'d|'ll|'re|'ve|'m|'t)\b)
  | (?P<poss>(?<=[\w"'`”’])'s\b|(?<=[sS])'(?=\s|$|[,.;:?!]))
  | (?P<quoted>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`|‘[^’]*’|“[^”]*”)
  | (?P<arrow>->|=>|→|\|)
  | (?P<hash>\#)
  | (?P<num>[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?
        (?P<unit>(?i:[kmgt]?(?:bps|b/s|bit/s|bits/s|bits?|be|ige|ig)|[kmgt])\b)?
        (?!\w|\.\w))
  | (?P<name>WORD+(?:\.WORD+)*)
  | (?P<punct>[.,;:?!()&<>=≥≤\[\]]+)
  | (?P<dash>[–—])
  | (?P<bad>\S)
    """
_TOKEN_RE = re.compile(_TOKEN_PATTERN.replace("WORD", _WORD_CHARS).replace("LATIN", _LATIN),
                       re.VERBOSE)


def _token_strings(pattern: str) -> re.Pattern[str]:
    """``pattern`` without named groups: matching gives the token strings alone (see
    ``_TOKEN_STRINGS``)."""
    return re.compile(r"\s*(" + re.sub(r"\(\?P<\w+>", "(?:", pattern) + ")", re.VERBOSE)
_KIND_RE = re.compile(r"EK_[A-Z_]+")
# Units written against their number ("40G", "10Gbps"), as the token pattern admits them.
_ATTACHED_UNITS = frozenset(f"{p}{u}" for p in ("", "k", "m", "g", "t")
                            for u in ("bps", "b/s", "bit/s", "bits/s", "bit", "bits", "be", "ige",
                                      "ig")) | frozenset("kmgt")
_NAME_MARK = re.compile(r"[0-9._]")
_CLOCK_HALVES = frozenset({"am", "pm"})
# A capital B is a byte: "GB/s", "MBps" are byte rates (read as "gigabytes per second"), "GB",
# "MiB" byte sizes. Lower-case "gb/s" stays the bit rate people usually mean by it.
_BYTE_RATE = re.compile(r"([kKMGT]?)B(?:/s|/sec|ps)")
_BYTE_SIZE = re.compile(r"[kKMGT]i?B|[kKMGT]iB(?:/s|/sec|ps)")
_BYTE_WORDS = {"": "bytes", "k": "kilobytes", "K": "kilobytes", "M": "megabytes", "G": "gigabytes",
               "T": "terabytes"}
_NEW_NAME_KIND = re.compile(r"new_(EK_[A-Z_]+?)_\d+$")
_SENTENCE_ENDS = frozenset({".", ";", "?", "!"})
_COMMAS = frozenset({",", ":", "(", ")", "-", "--"})


def _unquote(raw: str) -> str:
    body = raw[1:-1]
    if raw[0] in "'\"":
        body = re.sub(r"\\(.)", r"\1", body)
    return body


def _decimal_number(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def _exact(value: Decimal) -> int | float:
    """An int when the value is whole, else the nearest float."""
    if value == value.to_integral_value():
        return int(value)
    return float(value)


# The same pattern without named groups: matching gives the token strings alone, which is
# much cheaper than match objects; each string's first characters say which kind it is. The
# white space before a token is consumed in the same match (one group is kept), rather than
# every alternative being tried and failing at each space.
_TOKEN_STRINGS = _token_strings(_TOKEN_RE.pattern)
_ASCII_TOKEN_STRINGS = _token_strings(_TOKEN_PATTERN.replace("WORD", _ASCII_WORD_CHARS)
                                      .replace("LATIN", ""))
_NUMBER_PARTS = re.compile(
    r"([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?)(.*)$", re.DOTALL)
_PUNCT_CHARS = frozenset(".,;:?!()&<>=≥≤[]")
# A number with three digits after a point and at most three before it, other than 0:
# "10.000" is ten, or ten thousand where a point separates thousands ("10.000 Mbps").
_GROUPED_OR_DECIMAL = re.compile(r"[+-]?[1-9]\d{0,2}\.\d{3}")
# Typographic forms of punctuation the grammar knows: "≥ 4 Gbps", "[CR-1234]".
# ":=" assigns, as an arrow does ("P capacity := 25G", "P capacity -> 25G").
_PUNCT_FORMS = {"≥": ">=", "≤": "<=", "[": "(", "]": ")", ":=": "->"}
_DASH = frozenset("–—")  # en and em dashes: a pause, as "-" between words
_QUOTES = frozenset("'\"`‘“")
_CURLY_APOSTROPHE = re.compile(r"(?<=[A-Za-z0-9])’(?=[A-Za-z])")
_ARROW_AFTER_WORD = re.compile(r"(?<=[A-Za-z0-9_])->")


def tokenize(text: str, mentions: bool = False, _latin: bool = True) -> list[Token]:
    """Split request text into tokens; refuse characters that cannot be part of a request.
    A chat mention ("@bot", "owner: @dchen") says whom, never what: it is left out, or kept
    as a ``MENTION`` token when ``mentions`` (then it may mark a part as bookkeeping)."""
    if mentions and "@" in text:
        tokens: list[Token] = []
        start = 0
        for found in _MENTION.finditer(text):
            tokens += tokenize(text[start:found.start()])
            tokens.append(Token("MENTION", found.group().rstrip(",")))
            start = found.end()
        return tokens + tokenize(text[start:])
    if "’" in text:  # a typographic apostrophe inside a word: "don’t", "S’s"
        text = _CURLY_APOSTROPHE.sub("'", text)
    if "->" in text:  # an arrow written against the word before it: "high->low", "S->remove"
        text = _ARROW_AFTER_WORD.sub(" ->", text)
    if "@" in text:  # "@bot remove X", "@netops": a chat mention says whom, never what
        text = _MENTION.sub(" ", text)
    if ":" in text:  # "14:02 [mitigating] pls add ...": when a chat line was sent
        text = _CLOCK.sub(" ", text)
    if "\n" in text:  # a chat message sent as lines: each line ends a sentence
        text = _LINE_END.sub(". ", text.strip())
    tokens = []
    append = tokens.append
    # One C-level scan; every non-space character belongs to some token (a "bad" one at
    # worst), so only white space is skipped.
    vocabulary = _VOCABULARY_TOKENS
    for raw in (_TOKEN_STRINGS if _latin else _ASCII_TOKEN_STRINGS).findall(text):
        first = raw[0]
        token = vocabulary.get(raw)
        if token is not None and first.isalpha():  # a word of the vocabulary: the common case
            append(token)
            continue
        if "B" in raw and _byte_unit(raw, tokens, text):
            continue
        if first.isalpha() or first == "_":  # words and names: the common case
            if _latin and not raw.isascii() and raw.lower() not in _VOCABULARY:
                tokens += tokenize(raw, _latin=False)  # (see _LATIN)
                continue
            ranked = _TOP_N.fullmatch(raw) if "-" in raw else None
            if ranked:  # "top-3", "Bottom-10": the word and its number
                tokens += [_classify_word(ranked.group(1)),
                           Token("NUM", ranked.group(2), _decimal_number(ranked.group(2)))]
                continue
            if raw in ("em", "Em"):  # "list em": them
                append(_VOCABULARY_TOKENS["them"])
                continue
            if raw.lower() in _RUN_TOGETHER:  # "whats": what is
                said = _RUN_TOGETHER[raw.lower()]
                if raw.lower() == "gotta" and tokens and tokens[-1].text in ("has", "have"):
                    said = said[1:]  # "X has gotta go": has to
                tokens += said
                continue
            token = _classify_word(raw)
            if token.kind == "NAME" and "/" in raw and _slashed_names(raw, tokens):
                continue
            if "-" in raw and token.kind == "WORD" and token.text not in _VOCABULARY:
                tokens.extend(_hyphenated(token))
            else:
                append(token)
        elif raw in _ARROWS:
            append(Token("PUNCT", "->"))
        elif raw == "#":  # "# of ports", "#ports": the number (of)
            append(Token("WORD", "number"))
        elif raw in P.CONTRACTIONS:
            append(Token("WORD", P.CONTRACTIONS[raw.lower()]))
        elif raw == "'s" or raw == "'" or raw.lower() == "'s":
            previous = tokens[-1].text if tokens and tokens[-1].kind == "WORD" else ""
            if previous == "let":
                append(Token("WORD", "us"))
            elif previous in P.S_IS and raw.lower() == "'s":
                append(Token("WORD", "is"))
            else:
                append(Token("POSS", raw))
        elif first in _QUOTES and len(raw) > 1:
            name = _unquote(raw)
            if not name:
                raise IncompleteRequest("an empty quoted name", expected="a node name", text=text)
            kind = _classify_word(name) if first == "`" and name.startswith("EK_") else None
            # a kind set as code ("of type `EK_PORT`") is that kind; any other quote names
            append(kind if kind is not None and kind.kind == "KIND" else Token("NAME", raw, name))
        elif first in _PUNCT_CHARS:
            tokens.extend(Token("PUNCT", _PUNCT_FORMS.get(ch, ch)) for ch in _split_punct(raw))
        elif first in _DASH:
            append(Token("WORD", "-", "-"))
        elif first.isdigit() or first in "+-":
            number = _NUMBER_PARTS.match(raw)
            if number is not None and _GROUPED_OR_DECIMAL.fullmatch(number.group(1)):
                raise AmbiguousRequest(
                    f"{number.group(1)!r} may be a decimal number or a whole number written "
                    "with a point between its thousands", expected="the number without the "
                    "point, with a comma between its thousands, or with fewer or more than three "
                    "digits after the point (10000, 10,000, 10.0)", text=text)
            rest = number.group(2) if number else raw
            if rest.lower() in _CLOCK_HALVES and number.group(1).isdigit() \
                    and 1 <= int(number.group(1)) <= 12:
                append(Token("WORD", raw.lower()))  # a time of day, no name: "2am", "10pm"
                continue
            if rest.lower() == "x" and number.group(1).isdigit():
                append(Token("WORD", raw.lower()))  # how many times, no name: "3x ports"
                continue
            if number is not None and rest and "B" in rest and _byte_unit(rest, tokens, text, number.group(1)):
                continue
            if number is None or (rest and rest.lower() not in _ATTACHED_UNITS):
                append(_classify_word(raw))  # a name that starts with a digit: 10.0.0.1, 2nd
            else:
                append(Token("NUM", number.group(1), _decimal_number(number.group(1))))
                if rest:
                    append(Token("WORD", rest.lower()))
        elif first in "/":
            append(_classify_word(raw))
        else:
            bad = next(m for m in _TOKEN_RE.finditer(text) if m.lastgroup == "bad")
            raise UnknownRequest(
                f"unexpected character {bad.group()!r} at position {bad.start()}",
                expected="words, node names, numbers and punctuation", text=text)
    return tokens


_ARROWS = frozenset({"->", "=>", "→", "|"})
# A contraction written without its apostrophe ("whats"; "its" stays the possessive), words
# as the Englishes of Scotland, the north and Ireland spell them ("whit", "tae", "number o
# ports", "gizza count", "can yous", "would ye"), and casual speech's ("gotta", "wanna";
# "kinda" hedges how much it is wanted, not what).
_RUN_TOGETHER = {
    **{f"{word}s": [Token("WORD", word, word), Token("WORD", "is", "is")]
       for word in ("what", "how", "where", "that", "here", "there")},
    **{said: [Token("WORD", word, word) for word in words.split()] for said, words in (
        ("whit", "what"), ("tae", "to"), ("intae", "into"), ("ontae", "onto"), ("o", "of"),
        ("aal", "all"), ("gizza", "give us a"), ("gis", "give us"), ("gies", "give us"),
        ("ye", "you"), ("yous", "you"), ("youse", "you"),
        # and as casual speech runs words together ("gotta", "can ya", "lemme")
        ("ya", "you"), ("gotta", "have to"), ("wanna", "want to"), ("gonna", "going to"),
        ("lemme", "let me"), ("kinda", ""), ("sorta", ""),
        # two words typed without the space between them
        ("fromthe", "from the"), ("ofthe", "of the"), ("inthe", "in the"), ("tothe", "to the"),
        ("childnodes", "child nodes"), ("childnode", "child node"))},
    "o": [Token("WORD", "of", "o")]}  # (written "o": Pidgin's "o" ends a sentence, see below)
_MENTION = re.compile(r"(?<!\S)@[A-Za-z][\w.-]*,?")
# A clock time that starts a line ("14:02", "[09:15 UTC]", "14:02Z -"): when it was sent.
_CLOCK = re.compile(r"^[ \t]*[\[(]?\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]*(?:utc|gmt|z|bst|cet|cest|"
                    r"est|edt|pst|pdt|ist|am|pm|hrs))?[\])]?(?:[ \t]*[-|>:]+)?(?=\s)",
                    re.IGNORECASE | re.MULTILINE)
# A line break after a word or a name (not after punctuation, which ends the line already).
_LINE_END = re.compile(r"(?<=[\w`'\")])[ \t]*\n\s*")
_TOP_N = re.compile(r"((?i:top|bottom))-(\d+)")


def _byte_unit(raw: str, tokens: list[Token], text: str, number: str | None = None) -> bool:
    """Append a byte unit's tokens ("40GB/s" -> 40 gigabytes per second); False if ``raw`` is none.

    A byte size ("40 GB") is not a capacity: refused, not read as bits.
    """
    rate = _BYTE_RATE.fullmatch(raw)
    if rate is None:
        if _BYTE_SIZE.fullmatch(raw):
            raise UnknownRequest(
                f"{raw!r} is an amount of data, not a rate",
                expected="a capacity in bits or bytes per second, such as 40 Gbps or 5 GB/s", text=text)
        return False
    if number is not None:
        tokens.append(Token("NUM", number, _decimal_number(number)))
    tokens.extend(Token("WORD", word) for word in f"{_BYTE_WORDS[rate.group(1)]} per second".split())
    return True


def _slashed_names(raw: str, tokens: list[Token]) -> bool:
    """Names written against slashes ("new_q1/new_q2/new_q3"): a list, as with spaces around
    the slashes, never one name (no MALT name holds a slash; quote one that does)."""
    parts = raw.split("/")
    if not all(parts) or not all(_NAME_MARK.search(part) for part in parts):
        return False
    for i, part in enumerate(parts):
        if i:
            tokens.append(_VOCABULARY_TOKENS["/"])
        tokens.append(_classify_word(part))
    return True


def _hyphenated(token: Token) -> list[Token]:
    """An unknown hyphenated word made of known words ("packet-switch", "high-to-low") is
    read as those words; any other stays one word."""
    parts = token.text.split("-")
    if all(part in _VOCABULARY for part in parts):
        return [Token("WORD", part, part) for part in parts]
    return [token]


def _split_punct(raw: str) -> list[str]:
    return [raw] if len(raw) == 1 else re.findall(r":=|<=|>=|==|[.,;:?!()&<>=≥≤\[\]]", raw)


def _classify_word(raw: str) -> Token:
    # Not memoized by the raw word: such a memo would hold every node name a request ever said
    # (request text). A word of the vocabulary written in lower case, the common case, has
    # its token ready in a fixed table of the vocabulary (built once, never grown).
    token = _VOCABULARY_TOKENS.get(raw)
    if token is not None:
        return token
    if raw.startswith("EK_") and raw not in K.ENTITY_KINDS and raw[-1:] in "sS" \
            and raw[:-1] in K.ENTITY_KINDS:
        return Token("KIND", raw[:-1], raw[:-1])  # a plural: "EK_PORTs", "EK_PORTS"
    if raw.startswith("EK_") and _KIND_RE.fullmatch(raw):
        if raw not in K.ENTITY_KINDS:
            raise UnknownRequest(
                f"unknown entity kind {raw!r}", expected="one of " + ", ".join(K.ENTITY_KINDS))
        return Token("KIND", raw, raw)
    lower = raw.lower()
    if lower in _VOCABULARY:
        return Token("WORD", lower, raw)
    if _NAME_MARK.search(raw):
        return Token("NAME", raw, raw)
    return Token("WORD", _MISSPELT.get(lower, lower), raw)


def _misspellings() -> dict[str, str]:
    """Slips of the keys that can only be one word the grammar knows ("grpah", "chnage",
    "updte", "swtich", "evry"): two letters swapped, a letter inside left out or doubled. A
    slip that is a word of the vocabulary, or could be a slip of two such words, is none;
    short words are mended only for swapped letters, and a word that lost its first or last
    letter ("witch", "ever") may be another English word, so it is left as written."""
    slips: dict[str, set[str]] = {}
    for word in P.SPELLED_WITH_SLIPS:
        variants = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
        if len(word) > 4:
            variants |= {word[:i] + word[i + 1:] for i in range(1, len(word) - 1)}
            variants |= {word[:i] + word[i] + word[i:] for i in range(len(word))}
        for variant in variants - {word}:
            slips.setdefault(variant, set()).add(word)
    return {slip: next(iter(words)) for slip, words in slips.items()
            if len(words) == 1 and slip not in _VOCABULARY and slip not in P.WORDS_NOT_SLIPS
            } | dict(P.SHORT_SLIPS)



# ---------------------------------------------------------------- lexing


class Lexeme(NamedTuple):
    """A word or phrase as the grammar sees it: its categories, its value, its text."""

    cats: frozenset[str]
    value: object
    text: str
    soft: bool = False  # a filler that is also a word of the grammar: droppable at a cost


class _Ref(NamedTuple):
    """A lexeme's value and text, to be read from the sentence's tokens ``start:end``.

    ``mode`` is ``value`` (the token's value), ``rate`` (the number times
    ``scale``, exactly) or ``raw`` (the word as written, for a name).
    """

    start: int
    end: int
    mode: str
    scale: int = 1


_PHRASES: dict[tuple[str, ...], tuple[str, object]] = {}
for _text, _cats in P.LEXICON.items():
    _PHRASES[tuple(_text.split())] = ("CATS", _cats)
for _text, (_kind, _number) in P.KIND_WORDS.items():
    _PHRASES[tuple(_text.split())] = ("KIND", (_kind, _number))
for _text in P.FILLERS:
    _PHRASES.setdefault(tuple(_text.split()), ("FILLER", None))
for _text in P.CRITICAL:
    words = tuple(_text.split())
    if len(words) > 1 or words not in _PHRASES:
        _PHRASES[words] = ("CRIT", None)
for _text, _count in P.NUMBER_WORDS.items():
    _PHRASES[tuple(_text.split())] = ("NUMWORD", _count)
_UNIT_PHRASES = {tuple(text.split()): multiplier for text, multiplier in P.UNITS.items()}


def _lengths(phrases) -> dict[str, tuple[int, ...]]:
    """first word -> the lengths of the phrases starting with it, longest first."""
    found: dict[str, set[int]] = {}
    for words in phrases:
        found.setdefault(words[0], set()).add(len(words))
    return {word: tuple(sorted(sizes, reverse=True)) for word, sizes in found.items()}


_PHRASE_LENGTHS = _lengths(_PHRASES)
_ARTICLES = frozenset({("the",), ("a",), ("an",)})
_UNIT_LENGTHS = _lengths(_UNIT_PHRASES)
_SINGLE_CRITICAL = frozenset(w for w in P.CRITICAL if " " not in w)
_VOCABULARY = (frozenset(w for words in _PHRASES for w in words)
               | frozenset(w for words in _UNIT_PHRASES for w in words))
_VOCABULARY_TOKENS = {word: Token("WORD", word, word) for word in _VOCABULARY}
_MISSPELT = _misspellings()
_KIND_NUMBER = {"SG": frozenset({"KIND", "KIND_SG"}), "PL": frozenset({"KIND", "KIND_PL"}),
                "SGPL": frozenset({"KIND", "KIND_SG", "KIND_PL"})}
_FILLER_ALSO = {tuple(text.split()) for text in P.SOFT_FILLERS}
_RETURN_STARTS = frozenset(words[0] for words, (kind, cats) in _PHRASES.items()
                           if kind == "CATS" and "RETURN" in cats)  # type: ignore[operator]
_SHAPED = frozenset({"WORD", "PUNCT"})  # tokens whose text (not kind) is part of a shape
_NAMES = frozenset({"NAME"})
_CRIT = frozenset({"CRIT"})
_UNK = frozenset({"UNK"})
_STRAY_UNIT = frozenset({"UNIT"})
_HELD = frozenset({"HELD"})
_UNIT_WORDS = frozenset(w for words in _UNIT_PHRASES for w in words)
# Words of the phrases that mean something (not fillers): one standing alone ("low" without
# "to high") or a shortening of one ("asc", "desc", "excl") is never skipped as unknown.
_MEANT_WORDS = frozenset(
    w for words, (kind, _) in _PHRASES.items() if kind != "FILLER" for w in words
    if w.isalpha()) | _UNIT_WORDS | frozenset(P.SCALES)
_SHORTENINGS = frozenset(w[:n] for w in _MEANT_WORDS if len(w) > 3 for n in range(3, len(w)))
_HELD_FORM = re.compile(
    P.MANNER_FORM + r"""      # a manner or modal adverb: hypothetically, temporarily
      | [a-z]{2,}est           # a superlative: newest, oldest
      | [a-z]+(?:wards?|wise)  # a direction: backwards, upwards, clockwise
      | (?:un|non|dis)[a-z-]{3,}  # a negated word: unconnected, non-empty, disabled
    """, re.VERBOSE)


def _held(word: str) -> bool:
    """An unknown word that may carry meaning (a negation, an order, a manner, a position):
    refused rather than skipped, and a name only after "named"/"called"."""
    return word in _MEANT_WORDS or word in _SHORTENINGS or word in P.PLANNED \
        or word in P.WHEN or _HELD_FORM.fullmatch(word) is not None


def lex(sentence: list[Token]) -> list[Lexeme]:
    """The lexemes of one sentence: phrases matched longest first, fillers dropped.

    Lexing depends only on the words, not on the names and numbers between
    them, so it is done once per sentence shape and the values filled in.
    """
    return _materialize(_lex_shape(_shape_of(sentence)), sentence)


def unknown_positions(tokens: list[Token]) -> set[int]:
    """Where ``tokens`` hold words the grammar does not know at all (``UNK`` lexemes; not
    ``HELD`` ones, which it knows as part of a phrase or as words that may change what is
    asked), each sentence lexed as a request's is (so "block" of "agg block" is known)."""
    found: set[int] = set()
    start = 0
    for end in [*(i for i, t in enumerate(tokens)
                  if t.kind == "PUNCT" and t.text in _SENTENCE_ENDS), len(tokens)]:
        for lexeme in _lex_shape(_shape_of(tokens[start:end])):
            if lexeme.cats == _UNK and type(lexeme.value) is _Ref:
                found.update(range(start + lexeme.value.start, start + lexeme.value.end))
        start = end + 1
    return found


def _shape_of(sentence: list[Token]) -> tuple[str, ...]:
    """The words of a sentence, names, numbers and kinds standing for themselves by kind."""
    return tuple([t.text if t.kind in _SHAPED else t.kind for t in sentence])


def _materialize(template, sentence: list[Token]) -> list[Lexeme]:
    """Lexemes with their values and texts read from the sentence's tokens."""
    out = []
    for lexeme in template:
        ref = lexeme.value
        if type(ref) is _Ref:
            first = sentence[ref.start]
            text = first.text if ref.end == ref.start + 1 else " ".join(
                t.text for t in sentence[ref.start:ref.end])
            if ref.mode == "value":
                value = first.value
            elif ref.mode == "raw":
                value = first.value if first.value is not None else first.text
            else:
                value = _exact(first.value * ref.scale)
            lexeme = Lexeme(lexeme.cats, value, text, lexeme.soft)
        out.append(lexeme)
    return out


@lru_cache(maxsize=8192)
def _lex_shape(shape: tuple[str, ...]) -> tuple[Lexeme, ...]:
    out: list[Lexeme] = []
    i = 0
    n = len(shape)
    while i < n:
        word = shape[i]
        if word == "NAME":
            out.append(Lexeme(_NAMES, _Ref(i, i + 1, "value"), ""))
            i += 1
            continue
        if word == "KIND":
            out.append(Lexeme(_KIND_NUMBER["SGPL"], _Ref(i, i + 1, "value"), ""))
            i += 1
            continue
        if word == "NUM":
            i = _lex_number(shape, i, i + 1, None, out)
            continue
        if word == "POSS":
            out.append(Lexeme(frozenset({"POSS"}), None, "'s"))
            i += 1
            continue
        if word in _COMMAS:
            out.append(Lexeme(frozenset({"COMMA"}), None, word))
            i += 1
            continue
        for length in _PHRASE_LENGTHS.get(word, ()):
            words = shape[i:i + length]
            found = _PHRASES.get(words) if len(words) == length else None
            if found is None:
                continue
            kind, payload = found
            text = " ".join(words)
            if kind == "CATS":
                cats = _CRIT if length == 1 and word in _SINGLE_CRITICAL else payload
                out.append(Lexeme(cats, None, text, soft=words in _FILLER_ALSO))
            elif kind == "KIND":
                out.append(Lexeme(_KIND_NUMBER[payload[1]], payload[0], text))
            elif kind == "CRIT":
                out.append(Lexeme(_CRIT, None, text))
            elif kind == "NUMWORD":
                i = _lex_number(shape, i, i + length, payload, out)
                break
            elif out and "COMMA" in out[-1].cats and i + length < n \
                    and shape[i + length] in _COMMAS and words not in _ARTICLES:
                out.pop()  # ", in total," / ", if possible,": an aside, its commas with it
                i += 1
            i += length  # (fillers add nothing)
            break
        else:
            if word in _UNIT_WORDS:
                # a unit away from its number ("40 zorp Gbps"): never skipped, never a name
                out.append(Lexeme(_STRAY_UNIT, None, word))
            elif word[:1].isalnum() or word[:1] in "_-/":
                out.append(Lexeme(_HELD if _held(word) else _UNK, _Ref(i, i + 1, "raw"), ""))
            i += 1
    return tuple(_names_after_called(_counted_plural(_kind_nouns(out))))


_COUNTING = frozenset({"HOWMANY", "COUNT"})


def _counted_plural(lexemes: list[Lexeme]) -> list[Lexeme]:
    """A kind said in the singular right after words that count ("how many switch in A",
    "count port in S", "number of switch", as English written as a second language or in
    haste says them) can only be the plural: it is read as both, unless a name follows it
    (then the kind may be said of that node)."""
    out = list(lexemes)
    for i in range(1, len(out)):
        before = out[i - 1].cats
        counts = before & _COUNTING or "OF" in before and i > 1 and "NUMBER" in out[i - 2].cats
        named = i + 1 < len(out) and "NAME" in out[i + 1].cats  # "count port P": which?
        if counts and out[i].cats == _KIND_NUMBER["SG"] and not named:
            out[i] = out[i]._replace(cats=_KIND_NUMBER["SGPL"])
    return out


def _kind_nouns(lexemes: list[Lexeme]) -> list[Lexeme]:
    """A kind followed by a word for nodes is one kind phrase, in the number of that word:
    "EK_PACKET_SWITCH nodes" (plural), "port entity" (singular)."""
    out: list[Lexeme] = []
    for lexeme in lexemes:
        previous = out[-1] if out else None
        if (previous is not None and "NODE" in lexeme.cats and "KIND" in previous.cats
                and lexeme.text):
            number = "KIND_PL" if lexeme.text.endswith("s") else "KIND_SG"
            if number in previous.cats:
                out[-1] = previous._replace(cats=frozenset({"KIND", number}))
                continue
        out.append(lexeme)
    return out


def _names_after_called(lexemes: list[Lexeme]) -> list[Lexeme]:
    """An unknown word right after "named"/"called"/"call it" (or after a name in a list
    that follows them) is a name, whatever it looks like: "a switch named core". Elsewhere
    a plain word is not ("add switch quickly to A" is refused, not a switch "quickly"), nor
    is one before a kind ("named N and spare type EK_PORT": "spare" says what the node is)."""
    out = list(lexemes)
    naming = False
    for i, lexeme in enumerate(out):
        if "CALLED" in lexeme.cats or ("IT" in lexeme.cats and i and "CALL" in out[i - 1].cats):
            naming = True
        elif naming and lexeme.cats & {"UNK", "HELD"} and not (
                i + 1 < len(out) and "KIND" in out[i + 1].cats):
            out[i] = lexeme._replace(cats=_NAMES)
        elif naming and (lexeme.cats & {"NAME", "COMMA", "AND"}):
            continue
        else:
            naming = False
    return out


def _lex_number(shape: tuple[str, ...], i: int, j: int, count: int | None,
                out: list[Lexeme]) -> int:
    """A number (``shape[i:j]``), a scale word ("billion") and the unit after it if any (a
    rate); the next position."""
    factor = 1
    if j < len(shape) and shape[j] in P.SCALES:
        factor = P.SCALES[shape[j]]
        j += 1
    for size in _UNIT_LENGTHS.get(shape[j] if j < len(shape) else "", ()):
        words = shape[j:j + size]
        if words in _UNIT_PHRASES:
            scale = _UNIT_PHRASES[words] * factor
            if count is not None:
                out.append(Lexeme(frozenset({"RATE"}), _exact(Decimal(count) * scale),
                                  " ".join(shape[i:j + size])))
            else:
                out.append(Lexeme(frozenset({"RATE"}), _Ref(i, j + size, "rate", scale), ""))
            return j + size
    if count is not None:
        out.append(Lexeme(frozenset({"NUM"}), count * factor, " ".join(shape[i:j])))
    else:
        out.append(Lexeme(frozenset({"NUM"}), _Ref(i, j, "rate", factor), ""))
    return j


# ---------------------------------------------------------------- grammar


@dataclass(frozen=True)
class _Term:
    cat: str
    slot: str | None


@dataclass(frozen=True)
class _NonTerm:
    name: str
    slot: str | None


@dataclass(frozen=True)
class _Opt:
    body: tuple


@dataclass(frozen=True)
class _Alt:
    options: tuple[tuple, ...]
    slot: str | None = None


def _parse_shape(shape: str) -> tuple:
    tokens = re.findall(r"\[|\]|\(|\)(?::[a-z_0-9]+)?|\||[A-Za-z_]+(?::[a-z_0-9]+)?", shape)
    pos = 0

    def item(tok: str):
        name, _, slot = tok.partition(":")
        if name.isupper():
            return _Term(name, slot or None)
        return _NonTerm(name, slot or None)

    def sequence(stop: set[str]) -> tuple:
        nonlocal pos
        items: list = []
        while pos < len(tokens) and tokens[pos].split(":")[0] not in stop:
            tok = tokens[pos]
            pos += 1
            if tok == "[":
                options = [sequence({"|", "]"})]
                while tokens[pos] == "|":
                    pos += 1
                    options.append(sequence({"|", "]"}))
                pos += 1
                items.append(_Opt(options[0] if len(options) == 1 else (_Alt(tuple(options)),)))
            elif tok == "(":
                options = [sequence({"|", ")"})]
                while tokens[pos] == "|":
                    pos += 1
                    options.append(sequence({"|", ")"}))
                close = tokens[pos]
                pos += 1
                slot = close.partition(":")[2] or None
                items.append(_Alt(tuple(options), slot))
            else:
                items.append(item(tok))
        return tuple(items)

    return sequence(set())


@lru_cache(maxsize=1)
def _rules() -> dict[str, tuple[tuple[tuple, str | None], ...]]:
    rules = {nt: tuple((_parse_shape(shape), builder) for shape, builder in productions)
             for nt, productions in P.GRAMMAR.items()}
    for nt, productions in rules.items():
        for shape, builder in productions:
            for part in _walk(shape):
                if isinstance(part, _NonTerm) and part.name not in rules and part.name != "gap":
                    raise ValueError(f"rule {nt!r} names unknown nonterminal {part.name!r}")
            if builder is not None and builder not in BUILDERS:
                raise ValueError(f"rule {nt!r} names unknown builder {builder!r}")
    return rules


def _walk(items: tuple):
    for part in items:
        yield part
        if isinstance(part, _Opt):
            yield from _walk(part.body)
        elif isinstance(part, _Alt):
            for option in part.options:
                yield from _walk(option)


@lru_cache(maxsize=1)
def _first_sets() -> tuple[dict[str, frozenset[str]], frozenset[str], dict[str, tuple]]:
    """For each nonterminal, the categories it can start with, which can be empty, and the
    same two facts for each of its productions."""
    rules = _rules()
    first: dict[str, set[str]] = {nt: set() for nt in rules}
    first["gap"] = {"UNK"}
    nullable: set[str] = set()

    def seq_first(items: tuple) -> tuple[set[str], bool]:
        found: set[str] = set()
        for part in items:
            if isinstance(part, _Term):
                found.add(part.cat)
                return found, False
            if isinstance(part, _NonTerm):
                found |= first[part.name]
                if part.name not in nullable:
                    return found, False
            elif isinstance(part, _Opt):
                found |= seq_first(part.body)[0]
            else:
                empty = False
                for option in part.options:
                    sub, sub_empty = seq_first(option)
                    found |= sub
                    empty = empty or sub_empty
                if not empty:
                    return found, False
        return found, True

    changed = True
    while changed:
        changed = False
        for nt, productions in rules.items():
            for shape, _ in productions:
                cats, empty = seq_first(shape)
                if not cats <= first[nt]:
                    first[nt] |= cats
                    changed = True
                if empty and nt not in nullable:
                    nullable.add(nt)
                    changed = True
    return ({nt: frozenset(cats) for nt, cats in first.items()}, frozenset(nullable),
            {nt: tuple((frozenset(c), e) for c, e in (seq_first(shape) for shape, _ in productions))
             for nt, productions in rules.items()})


# Categories so common that a set of "needed" categories holding one says little.
_COMMON = frozenset({"NAME", "COMMA", "AND", "KIND", "KIND_SG", "KIND_PL", "NUM", "OF", "IN",
                     "AUX", "ALL", "TO", "THEN", "REL", "FROM", "NODE"})


@lru_cache(maxsize=1)
def _needs() -> dict[str, frozenset[str] | None]:
    """For each nonterminal, categories of which every phrase it derives holds at least one
    (None when there is no such useful set): a nonterminal whose needed categories do not
    occur in the rest of a sentence cannot match there, so it is not tried."""
    rules = _rules()
    _, nullable, _ = _first_sets()
    needs: dict[str, frozenset[str] | None] = {nt: None for nt in rules}
    needs["gap"] = frozenset({"UNK"})

    def weight(found: frozenset[str]) -> tuple[int, int]:
        return (len(found & _COMMON), len(found))

    def of_items(items: tuple) -> frozenset[str] | None:
        """The most telling needed set of one mandatory part of a sequence."""
        best: frozenset[str] | None = None
        for part in items:
            found: frozenset[str] | None = None
            if isinstance(part, _Term):
                found = frozenset({part.cat})
            elif isinstance(part, _NonTerm):
                if part.name not in nullable:
                    found = needs[part.name]
            elif isinstance(part, _Alt):
                options = [of_items(option) for option in part.options]
                if all(o is not None for o in options):
                    found = frozenset().union(*options)
            if found is not None and (best is None or weight(found) < weight(best)):
                best = found
        return best

    changed = True
    while changed:
        changed = False
        for nt, productions in rules.items():
            if nt in nullable:
                continue
            sets = [of_items(shape) for shape, _ in productions]
            found = None if any(x is None for x in sets) else frozenset().union(*sets)
            if found != needs[nt] and found is not None:
                needs[nt] = found
                changed = True
    return needs


_MAX_GAP = 3
# An unknown word after one of these is its complement, so in predicate position ("which ports
# of S are flapping", "how many ports does S have idle"): never skipped.
_OPENS = frozenset({"AUX", "MODAL", "BE", "HAVE", "HOLDING", "REL", "WHOSE", "GET", "BECOME",
                    "RUNAT", "CONSIST", "ENDUP", "GOES", "THERE",
                    # after a bare number an unknown word may be its unit ("40 kilograms")
                    "NUM"})
# An unknown word right after a read (what a question asks: "list the ports of S flapping",
# "the switch with the most ports congested") or after a node set ("remove the ports of S
# flapping") could restrict or qualify it: never skipped either.
_QUALIFIABLE = ("read", "per_node", "set", "core", "children")


def _expand(items: tuple) -> list[tuple[tuple[str, str, str | None], ...]]:
    """Every concrete sequence a shape stands for: optionals and alternatives spelled out.

    Elements are ``("T", category, slot)`` or ``("N", nonterminal, slot)``. An
    alternative's slot goes to the first element of the chosen option (the
    alternatives that carry slots are single words).
    """
    sequences: list[tuple] = [()]
    for part in items:
        if isinstance(part, _Term):
            options = [(("T", part.cat, part.slot),)]
        elif isinstance(part, _NonTerm):
            options = [(("N", part.name, part.slot),)]
        elif isinstance(part, _Opt):
            options = [(), *_expand(part.body)]
        else:
            options = []
            for option in part.options:
                for seq in _expand(option):
                    if part.slot is not None and seq:
                        head = seq[0]
                        seq = ((head[0], head[1], part.slot),) + seq[1:]
                    options.append(seq)
        sequences = [seq + option for seq in sequences for option in options]
    return sequences


class _Trie:
    """The productions of one nonterminal, expanded and merged by common prefixes."""

    __slots__ = ("terms", "nonterms", "ends")

    def __init__(self) -> None:
        self.terms: dict[str, list[tuple[str | None, _Trie]]] = {}
        self.nonterms: list[tuple[str, str | None, _Trie]] = []
        self.ends: list[str | None] = []  # builders of the productions that end here

    def child(self, element: tuple[str, str, str | None]) -> _Trie:
        kind, name, slot = element
        if kind == "T":
            edges = self.terms.setdefault(name, [])
            for edge_slot, node in edges:
                if edge_slot == slot:
                    return node
            node = _Trie()
            edges.append((slot, node))
            return node
        for edge_name, edge_slot, node in self.nonterms:
            if edge_name == name and edge_slot == slot:
                return node
        node = _Trie()
        self.nonterms.append((name, slot, node))
        return node


@lru_cache(maxsize=1)
def _tries() -> dict[str, _Trie]:
    tries: dict[str, _Trie] = {}
    for nt, productions in _rules().items():
        root = _Trie()
        for shape, builder in productions:
            for sequence in _expand(shape):
                node = root
                for element in sequence:
                    node = node.child(element)
                if builder not in node.ends:
                    node.ends.append(builder)
        tries[nt] = root
    return tries


_NOTHING: frozenset[str] = frozenset()


class _Chart:
    """All parses of one category sequence, memoised by (nonterminal, position)."""

    def __init__(self, cats: tuple[frozenset[str], ...]):
        self.cats = cats
        self.n = len(cats)
        self.memo: dict[tuple[str, int], list[tuple[int, object]]] = {}
        self.tries = _tries()
        self.first, self.nullable, _ = _first_sets()
        self.needs = _needs()
        # the categories from each position to the end: a nonterminal needing none of them
        # cannot match from there
        rest: list[frozenset[str]] = [_NOTHING] * (self.n + 1)
        for at in range(self.n - 1, -1, -1):
            rest[at] = rest[at + 1] | cats[at]
        self.rest = rest

    def _qualifies(self, pos: int) -> bool:
        """Whether a word at ``pos`` would be in predicate or condition position: after a word
        that needs a complement, or where a read or a node set may end."""
        if pos == 0 or self.cats[pos - 1] & _OPENS:
            return True
        return any(end == pos for nt in _QUALIFIABLE for start in range(pos)
                   for end, _ in self.parse(nt, start))

    def parse(self, nt: str, pos: int) -> list[tuple[int, object]]:
        key = (nt, pos)
        found = self.memo.get(key)
        if found is not None:
            return found
        if nt == "gap":
            found = []
            if self._qualifies(pos):
                self.memo[key] = found
                return found
            for end in range(pos + 1, min(self.n, pos + _MAX_GAP) + 1):
                if "UNK" not in self.cats[end - 1]:
                    break
                found.append((end, ("gap", end - pos)))
            self.memo[key] = found
            return found
        self.memo[key] = []  # no left recursion: a re-entry at the same place finds nothing
        if (pos >= self.n or not (self.cats[pos] & self.first[nt])) and nt not in self.nullable:
            return []
        need = self.needs.get(nt)
        if need is not None and need.isdisjoint(self.rest[pos]):
            return []
        results: list[tuple[int, object]] = []
        seen: set = set()
        cats, n = self.cats, self.n
        first, nullable = self.first, self.nullable
        # the parts bound so far are a chain of (slot, value, rest) cells, made a dict only
        # where a production ends (most paths die before they end)
        stack: list[tuple[_Trie, int, tuple | None]] = [(self.tries[nt], pos, None)]
        push = stack.append
        parse = self.parse
        while stack:  # depth first over the trie, every way it matches from ``pos``
            node, at, chain = stack.pop()
            if node.ends:
                bound = {}
                cell = chain
                while cell is not None:
                    bound.setdefault(cell[0], cell[1])  # the latest binding of a slot wins
                    cell = cell[2]
                for builder in node.ends:
                    value = _build(builder, bound, cats)
                    if value is not _REJECT and (at, value) not in seen:
                        seen.add((at, value))
                        results.append((at, value))
            here = cats[at] if at < n else _NOTHING
            if here:
                terms = node.terms
                for cat in here:
                    edges = terms.get(cat)
                    if edges:
                        for slot, child in edges:
                            push((child, at + 1, chain if slot is None else (slot, at, chain)))
            for name, slot, child in node.nonterms:
                if here.isdisjoint(first[name]) and name not in nullable:
                    continue  # cannot start here (the same test parse() makes, without the call)
                for end, value in parse(name, at):
                    push((child, end, chain if slot is None else (slot, value, chain)))
        self.memo[key] = results
        return results


@lru_cache(maxsize=4096)
def _parses(cats: tuple[frozenset[str], ...]) -> tuple:
    """Every complete parse of a sentence's category sequence (frames with token positions)."""
    chart = _Chart(cats)
    return tuple(value for end, value in chart.parse("sentence", 0) if end == len(cats))


# ---------------------------------------------------------------- builders
#
# A builder turns a rule's bound parts into a frame: a tuple holding token
# positions (never values), so parses can be cached by category sequence.
# ``cats`` gives the categories of each position, for builders whose frame
# depends on which word matched (an operator, a direction).

_REJECT = object()
Frame = tuple
Builder = Callable[[dict, tuple], object]
BUILDERS: dict[str, Builder] = {}


def _builder(name: str):
    def register(function):
        BUILDERS[name] = function
        return function
    return register


def _build(builder: str | None, bound: dict, cats: tuple) -> object:
    if builder is None:
        if len(bound) == 1:
            return next(iter(bound.values()))
        return ("parts", tuple(sorted(bound.items())))
    return BUILDERS[builder](bound, cats)


def _cat(cats: tuple, pos: int, choices: tuple[str, ...]) -> str:
    found = [c for c in choices if c in cats[pos]]
    return found[0]


# sentences
BUILDERS["one"] = lambda b, c: (b["g"],)


@_builder("more")
def _more(b: dict, cats: tuple) -> object:
    """Groups in order; a condition alone ("once X is gone") may open a request, never follow a
    request in the same sentence (there it conditions the request before it: "count the
    ports of S, once X is gone")."""
    groups = (b["g"], *b["rest"])
    asked = False
    for group in groups:
        if group[2] is None and asked:
            return _REJECT
        asked = asked or group[2] is not None
    return groups


BUILDERS["plain"] = lambda b, c: ("group", (), b["c"])
BUILDERS["before"] = lambda b, c: ("group", (b["b"],), b["c"])
# said after the request it conditions: a pronoun there may mean the request's node
BUILDERS["after"] = lambda b, c: ("group", (b["b"],), b["c"], "request first")
BUILDERS["before_only"] = lambda b, c: ("group", (b["b"],), None)
# "how many ports are there then?": the state after an earlier change, which must exist
BUILDERS["then"] = lambda b, c: ("group", (), b["c"], "after a change")
BUILDERS["before_then"] = lambda b, c: ("group", (b["b"],), b["c"], "after a change")
BUILDERS["topic"] = lambda b, c: ("group", (("focus", b["t"]),), b["c"])
BUILDERS["locus"] = lambda b, c: ("locus", b["p"])
BUILDERS["named_locus"] = lambda b, c: ("locus", ("node", b["n"], b.get("k")))
BUILDERS["topic_before"] = lambda b, c: ("group", (("focus", b["t"]), b["b"]), b["c"])

# changes
BUILDERS["removed"] = lambda b, c: ("remove", b["t"], b.get("f"))
BUILDERS["added"] = lambda b, c: ("add", b["n"], b["p"])
BUILDERS["set_to"] = lambda b, c: ("update", b["t"], b["v"])
BUILDERS["set_to_rate"] = lambda b, c: ("update", b["t"], b["v"])
BUILDERS["add"] = lambda b, c: ("add", b["n"], b["p"])
BUILDERS["add_here"] = lambda b, c: ("add", b["n"], ("here",))
BUILDERS["add_more"] = lambda b, c: ("adds", ((b["n"], b["p"]), *b["rest"]))
BUILDERS["adds_one"] = lambda b, c: ((b["n"], b["p"]),)
BUILDERS["adds_more"] = lambda b, c: ((b["n"], b["p"]), *b["rest"])
BUILDERS["add_kinded"] = lambda b, c: ("add", tuple(n[:2] + (n[2] + (b["k"],), n[3])
                                                    for n in b["n"]), b["p"])
BUILDERS["add_called"] = lambda b, c: ("add", (("new", b["n"], (b["k"],), None),),
                                       b.get("p", ("here",)))
BUILDERS["new_one"] = lambda b, c: (b["n"],)
BUILDERS["new_more"] = lambda b, c: (b["n"], *b["rest"])
BUILDERS["new_node"] = lambda b, c: ("new", b["n"], tuple(k for k in (b.get("k"), b.get("k2"))
                                                         if k is not None), None)
BUILDERS["new_named"] = lambda b, c: tuple(("new", n, (b["k"],), b.get("count"))
                                           for n in b["names"])
BUILDERS["add_listed"] = lambda b, c: ("add", BUILDERS["new_named"](b, c), b["p"])
BUILDERS["first_name"] = lambda b, c: (b["n"],)
BUILDERS["more_names"] = lambda b, c: (b["n"], *b["rest"])
BUILDERS["remove"] = lambda b, c: ("remove", b["t"], b.get("f"))


@_builder("add_resp")
def _add_resp(b: dict, cats: tuple) -> object:
    """"add ports A and B to S1 and S2 respectively": the nth new node under the nth parent."""
    names, parents = b["names"], b["ps"]
    if len(names) != len(parents) or ("count" in b and len(names) < 2):
        return _REJECT
    return ("adds", tuple(((("new", n, (b["k"],), b.get("count")),), parent)
                          for n, parent in zip(names, parents, strict=True)))


@_builder("remove_resp")
def _remove_resp(b: dict, cats: tuple) -> object:
    targets, parents = b["t"], b["ps"]
    if len(targets) != len(parents) or len(targets) < 2:
        return _REJECT
    return ("removes", tuple((("names", (t,), None), p)
                             for t, p in zip(targets, parents, strict=True)))


@_builder("update_resp")
def _update_resp(b: dict, cats: tuple) -> object:
    targets = b["t"][1] if b["t"][0] == "names" else b["t"]
    values = b["vs"]
    if len(targets) != len(values) or len(values) < 2:
        return _REJECT
    return ("updates", tuple((("names", (t,), None), v)
                             for t, v in zip(targets, values, strict=True)))


BUILDERS["amount_one"] = lambda b, c: (b["v"],)
BUILDERS["amounts_more"] = lambda b, c: (b["v"], *b["rest"])
BUILDERS["remove_more"] = lambda b, c: ("removes", ((("names", b["t"], None), b["f"]), *b["rest"]))
BUILDERS["removes_one"] = lambda b, c: ((("names", b["t"], None), b["f"]),)
BUILDERS["removes_more"] = lambda b, c: ((("names", b["t"], None), b["f"]), *b["rest"])
BUILDERS["update_more"] = lambda b, c: ("updates", (b["a"], *b["rest"]))
BUILDERS["set_one"] = lambda b, c: (b["t"], b["v"])
BUILDERS["set_one_names"] = lambda b, c: (("names", b["t"], None), b["v"])
BUILDERS["sets_one"] = lambda b, c: (b["a"],)
BUILDERS["sets_more"] = lambda b, c: (b["a"], *b["rest"])


def _of_kind(names: tuple, kind: int) -> tuple:
    """Named nodes said with a kind for all of them ("remove three ports: A, B, C"): each is
    checked to be of that kind, as "remove the ports A, B and C" has each checked."""
    return tuple(("node", name[1], kind) if name[0] == "node" and name[2] is None else name
                 for name in names)


BUILDERS["remove_counted"] = lambda b, c: (
    "remove", ("names", _of_kind(b["t"], b["k"]), b["count"]), b.get("f"))
BUILDERS["remove_listed"] = lambda b, c: (
    "remove", ("names", _of_kind(b["t"], b["k"]), None), b.get("f"))
BUILDERS["update_counted"] = lambda b, c: (
    "update", ("names", _of_kind(b["t"], b["k"]), b["count"]), b["v"])
BUILDERS["from_graph"] = lambda b, c: ("graph",)
BUILDERS["from_node"] = lambda b, c: b["p"]
BUILDERS["update"] = lambda b, c: ("update", b["t"], b["v"])
BUILDERS["update_each"] = lambda b, c: ("update", ("set_of", b["t"]), b["v"])
BUILDERS["cap_of_it"] = lambda b, c: ("it",)


@_builder("set_poss_cap")
def _set_poss_cap(b: dict, cats: tuple) -> object:
    core = _core(b["p"], b)
    return core if core is _REJECT else ("set_of", core)


BUILDERS["for_each"] = lambda b, c: ("for_each", b["pk"], b["k"])
BUILDERS["for_each_then"] = lambda b, c: ("group", (("for_each", b["pk"], b["k"]),), b["r"],
                                          "in total")
BUILDERS["each_anywhere"] = lambda b, c: ("set", ("unsaid",), b["k"], "descendants",
                                          b.get("f", ()))
BUILDERS["per_node"] = lambda b, c: ("top", b["s"], b["m"], None, True)
BUILDERS["per_node_count"] = lambda b, c: ("top", b["s"], ("count", b["k"]), None, True)
BUILDERS["per_node_grouped"] = lambda b, c: ("top", ("set", b["p"], b["ks"], "descendants", ()),
                                             ("count", b["k"]), None, True)
BUILDERS["per_node_capacity"] = lambda b, c: ("top", b["s"], ("capacity",), None, True)
BUILDERS["one_kind"] = lambda b, c: ("counted_kind", b["one"], b["k"])

# nodes and sets
BUILDERS["node"] = lambda b, c: ("node", b["n"], b.get("k"))
BUILDERS["it"] = lambda b, c: ("it",)
BUILDERS["name_one"] = lambda b, c: (("node", b["n"], b.get("k")),)
BUILDERS["name_more"] = lambda b, c: (("node", b["n"], b.get("k")), *b["rest"])
BUILDERS["targets_names"] = lambda b, c: ("names", b["t"], None)
BUILDERS["targets_set"] = lambda b, c: ("set_of", b["t"])
BUILDERS["targets_it"] = lambda b, c: ("names", (("it",),), None)


def _axis(b: dict) -> str | object:
    direct = any(k in b for k in ("d", "d2"))
    deep = any(k in b for k in ("e", "e2", "e3"))
    if direct and deep:
        return _REJECT  # "directly ... at any depth" says two things
    return "children" if direct else "descendants"


def _core(root, b: dict) -> object:
    axis = _axis(b)
    if axis is _REJECT:
        return _REJECT
    return ("set", root, b["k"], axis, ())


BUILDERS["core"] = lambda b, c: _core(b["p"], b)
BUILDERS["core_poss"] = lambda b, c: _core(b["p"], b)
BUILDERS["core_its"] = lambda b, c: _core(("it",), b)
BUILDERS["core_has"] = lambda b, c: _core(b["p"], b)
BUILDERS["core_children"] = lambda b, c: ("set", b["p"], b["k"], "children", ())
BUILDERS["core_rate"] = lambda b, c: ("set", b["p"], b["k"], "descendants",
                                      (("where", ("capacity",), "==", b["v"]),))


@_builder("each_one")
def _each_one(b: dict, cats: tuple) -> object:
    core = _core(b["p"], b)
    return core if core is _REJECT or "f" not in b else core[:4] + (b["f"],)


def _graph_or_unsaid(b: dict) -> Frame | None:
    """The whole graph when the words say so ("in the graph"), else a place left unsaid."""
    return None if "g" in b else ("unsaid",)


BUILDERS["core_graph"] = lambda b, c: ("set", _graph_or_unsaid(b), b["k"], "descendants", ())


@_builder("filtered")
def _filtered(b: dict, cats: tuple) -> object:
    core = b["s"]
    return core if "f" not in b else core[:4] + (b["f"],)


BUILDERS["filter_one"] = lambda b, c: (b["f"],)
BUILDERS["filter_more"] = lambda b, c: (b["f"], *b["rest"])
_OPS = {"LT": "<", "GT": ">", "LE": "<=", "GE": ">=", "FASTER": ">", "SLOWER": "<",
        "POST_GE": ">=", "POST_LE": "<="}


def _op(cats: tuple, pos: int) -> str:
    return _OPS[_cat(cats, pos, tuple(_OPS))]




def _measured(b: dict, cats: tuple) -> tuple:
    """The capacity metric, when the words say it is capacity: a unit ("10 Gbps") or the
    word "capacity"; "with more than 10" says neither (10 what?)."""
    return ("capacity",) if "said" in b or "RATE" in cats[b["v"]] else ("unsaid",)


BUILDERS["cap_filter"] = lambda b, c: ("where", _measured(b, c), _op(c, b["c"]), b["v"])
BUILDERS["cap_post"] = lambda b, c: ("where", _measured(b, c), _op(c, b["c"]), b["v"])
BUILDERS["cap_equal"] = lambda b, c: ("where", _measured(b, c), "==", b["v"])
BUILDERS["speed_filter"] = lambda b, c: ("where", ("capacity",), _op(c, b["c"]), b["v"])
BUILDERS["count_filter"] = lambda b, c: ("where", ("count", b["k"]), _op(c, b["c"]), b["v"])
BUILDERS["count_post"] = lambda b, c: ("where", ("count", b["k"]), _op(c, b["c"]), b["v"])
BUILDERS["count_equal"] = lambda b, c: ("where", ("count", b["k"]), "==", b["v"])
_MODES = {"STARTS": "prefix", "ENDS": "suffix", "HAVE": "contains", "HOLDING": "contains",
          "LIKE": "contains"}
BUILDERS["name_contains"] = lambda b, c: ("name", "contains", b["t"])
BUILDERS["name_filter"] = lambda b, c: ("name", _MODES[_cat(c, b["m"], tuple(_MODES))], b["t"])
BUILDERS["count_metric"] = lambda b, c: ("count", b["k"])
BUILDERS["capacity_metric"] = lambda b, c: ("capacity",)

# reads
BUILDERS["children"] = lambda b, c: ("list", b["p"])
BUILDERS["children_it"] = lambda b, c: ("list", ("it",))
BUILDERS["children_named"] = lambda b, c: ("list", ("node", b["n"], None))
BUILDERS["count_named"] = lambda b, c: ("count", ("set", ("node", b["n"], None), b["k"],
                                                    "descendants", ()))
BUILDERS["children_here"] = lambda b, c: ("list", ("here",))
BUILDERS["sum_named"] = lambda b, c: ("aggregate", "sum", ("named", b["l"]))
BUILDERS["aggregate_named"] = lambda b, c: ("aggregate", _agg(c, b["a"]), ("named", b["l"]))


@_builder("kind_clause")
def _kind_clause(b: dict, cats: tuple) -> object:
    """"the children of X that are switches": the children (or descendants) of that kind."""
    target = b["c"]
    if target[0] == "list":
        return ("nodes", ("set", target[1], b["k"], "children", ()))
    _, (_, root, kind, axis, filters) = target
    return _REJECT if kind is not None else ("nodes", ("set", root, b["k"], axis, filters))

BUILDERS["descendants"] = lambda b, c: ("nodes", ("set", b["p"], None, "descendants", ()))
BUILDERS["list_set"] = lambda b, c: ("nodes", b["s"])
BUILDERS["value_read"] = lambda b, c: b["w"]
BUILDERS["late_value"] = lambda b, c: (("group", (), b["w"]),)
BUILDERS["capacity_of"] = lambda b, c: ("capacity", b["p"], "t" in b)
BUILDERS["capacity_of_locus"] = lambda b, c: ("capacity", ("topic",), "t" in b)
BUILDERS["capacity_of_locus_total"] = lambda b, c: ("capacity", ("topic",), True)
BUILDERS["aggregate_kind_sum_unsaid"] = lambda b, c: ("aggregate", "sum",
                                                      ("set", ("unsaid",), b["k"], "descendants", ()))
BUILDERS["remove_post"] = lambda b, c: ("remove", ("names", b["t"], None), None)
BUILDERS["headline_add"] = lambda b, c: ("add", (("new", b["n"], (b["k"],), None),), b["p"])
BUILDERS["cap_of_locus"] = lambda b, c: ("names", (("topic",),), None)
BUILDERS["ancestor_locus"] = lambda b, c: ("nodes", ("set", ("locus",), b["k"], "ancestors", ()))
BUILDERS["kind_list"] = lambda b, c: ("nodes", ("set", b["p"], b["k"], "descendants", ()))
BUILDERS["kind_list_locus"] = lambda b, c: ("nodes", ("set", ("locus",), b["k"], "descendants",
                                                     b.get("f", ())))
BUILDERS["children_locus"] = lambda b, c: ("list", ("locus",))
BUILDERS["count_locus"] = lambda b, c: ("count", ("set", ("locus",), b["k"], "descendants", ()))
BUILDERS["capacity_of_it"] = lambda b, c: ("capacity", ("it",), "t" in b)
BUILDERS["capacity_total"] = lambda b, c: ("capacity", b["p"], True)
_AGGREGATES = {"SUM": "sum", "AVG": "average", "MOST": "max", "LEAST": "min"}


def _agg(cats: tuple, pos: int) -> str:
    return _AGGREGATES[_cat(cats, pos, tuple(_AGGREGATES))]


BUILDERS["aggregate"] = lambda b, c: ("aggregate", _agg(c, b["a"]), b["s"])
BUILDERS["aggregate_kind"] = lambda b, c: ("aggregate", _agg(c, b["a"]),
                                           ("set", b["p"], b["k"], "descendants", ()))
BUILDERS["aggregate_kind_unsaid"] = lambda b, c: ("aggregate", _agg(c, b["a"]),
                                                  ("set", _graph_or_unsaid(b), b["k"],
                                                   "descendants", ()))
BUILDERS["aggregate_kind_sum"] = lambda b, c: ("aggregate", "sum",
                                               ("set", b["p"], b["k"], "descendants", ()))
BUILDERS["sum_set"] = lambda b, c: ("aggregate", "sum", b["s"])
BUILDERS["count_set"] = lambda b, c: ("count", b["s"])
BUILDERS["count_has"] = lambda b, c: ("count", ("set", b["p"], b["k"], "descendants", ()))
BUILDERS["count_children"] = lambda b, c: (
    ("count_children", b["c"][1]) if b["c"][0] == "list" else ("count", b["c"][1]))
BUILDERS["count_kind"] = lambda b, c: ("count", ("set", b["p"], b["k"], "descendants", ()))


BUILDERS["order"] = lambda b, c: ("order", "ORDER_DESC" in c[b["o"]],
                                   "cap" in b or "CAP_SAID" in c[b["o"]])


def _order(b: dict) -> tuple[bool, bool]:
    """(descending, says capacity) of an order phrase; (True, False) when there is none."""
    order = b.get("o")
    return (True, False) if order is None else (order[1], order[2])


@_builder("rank")
def _rank(b: dict, cats: tuple) -> object:
    descending, _ = _order(b)
    target = b["c"]
    if target[0] == "list":
        return ("rank", target[1], descending)
    return ("top", target[1], ("capacity",), None, descending)


@_builder("rank_order_only")
def _rank_order_only(b: dict, cats: tuple) -> object:
    _, says_capacity = _order(b)
    if not says_capacity:
        return _REJECT  # "from highest to lowest" what?
    return _rank({"c": b["c"], "o": b["o"]}, cats)


@_builder("rank_set")
def _rank_set(b: dict, cats: tuple) -> object:
    descending, _ = _order(b)
    return ("top", b["s"], b["m"], None, descending)


@_builder("rank_set_by_order")
def _rank_set_by_order(b: dict, cats: tuple) -> object:
    """A set ranked by an order that names the capacity ("from highest to lowest capacity");
    an order that names nothing to rank by is no ranking of a set."""
    descending, says_capacity = _order(b)
    if not says_capacity:
        return _REJECT
    return ("top", b["s"], ("capacity",), None, descending)


def _sup(cats: tuple, pos: int) -> bool:
    return "MOST" in cats[pos] or "TOP" in cats[pos] or "FASTEST" in cats[pos]


@_builder("top")
def _top(b: dict, cats: tuple) -> object:
    core = b["s"] if "f" not in b else b["s"][:4] + (b["f"],)
    descending = _sup(cats, b["d"])
    if "d2" in b and _sup(cats, b["d2"]) != descending:
        return _REJECT  # "the top 3 with the fewest" says two things
    if "d2" in b:
        descending = _sup(cats, b["d2"])
    return ("top", core, b["m"], ("pos", b["k"]) if "k" in b else "implied", descending)


@_builder("top_by")
def _top_by(b: dict, cats: tuple) -> object:
    core = b["s"] if "f" not in b else b["s"][:4] + (b["f"],)
    return ("top", core, b["m"], ("pos", b["k"]), "TOP" in cats[b["d"]])


BUILDERS["top_speed"] = lambda b, c: ("top", b["s"], ("capacity",),
                                      ("pos", b["k"]) if "k" in b else "implied",
                                      "FASTEST" in c[b["d"]])


def _top_speed_one(b: dict, cats: tuple) -> object:
    b = dict(b, m=("capacity",))
    return _top_of(b, "ks", 1, "FASTEST" in cats[b["d"]])


BUILDERS["top_speed_one"] = _top_speed_one


def _scope(b: dict) -> object:
    """The root a ``scope`` gave (None for the whole graph, said or not); two is one too many."""
    said = [b[k] for k in ("p", "p2") if k in b]
    if len(said) > 1:
        return _REJECT
    if not said:
        return ("unsaid",)
    return None if said[0] == ("graph",) else said[0]


def _top_of(b: dict, kind: str, limit: object, descending: bool) -> object:
    root = _scope(b)
    if root is _REJECT:
        return _REJECT
    return ("top", ("set", root, b[kind], "descendants", ()), b["m"], limit, descending)


BUILDERS["whole_graph"] = lambda b, c: ("graph",)
BUILDERS["top_k_sg"] = lambda b, c: _top_of(b, "ks", ("pos", b["k"]), _sup(c, b["d"]))
BUILDERS["top_one"] = lambda b, c: _top_of(b, "ks", 1, _sup(c, b["d"]))
BUILDERS["top_set_one"] = lambda b, c: ("top", b["s"], b["m"], 1, _sup(c, b["d"]))
BUILDERS["top_set_k"] = lambda b, c: ("top", b["s"], b["m"], ("pos", b["k"]), _sup(c, b["d"]))
BUILDERS["top_q"] = lambda b, c: _top_of(b, "kp", ("pos", b["k"]), _sup(c, b["d"]))
BUILDERS["top_by_kind"] = lambda b, c: _top_of(b, "ks", ("pos", b["k"]), "TOP" in c[b["d"]])
BUILDERS["ancestor"] = lambda b, c: ("nodes", ("set", b["p"], b["k"], "ancestors", ()))
BUILDERS["parents"] = lambda b, c: ("nodes", ("set", b["p"], None, "parents", ()))
BUILDERS["ancestors"] = lambda b, c: ("nodes", ("set", b["p"], None, "ancestors", ()))

# questions
BUILDERS["children_q"] = lambda b, c: ("list", b["p"])


@_builder("kinds_q")
def _kinds_q(b: dict, cats: tuple) -> object:
    axis = _axis(b)
    if axis is _REJECT:
        return _REJECT
    return ("nodes", ("set", b["p"], b["k"], axis, ()))


BUILDERS["kinds_graph_q"] = lambda b, c: ("nodes", ("set", _graph_or_unsaid(b), b["k"], "descendants", ()))
BUILDERS["set_test_q"] = lambda b, c: ("nodes", b["s"][:4] + ((b["f"],),))
BUILDERS["count_q"] = lambda b, c: ("count", b["s"] if "f" not in b else b["s"][:4] + (b["f"],))


@_builder("count_in_q")
def _count_in_q(b: dict, cats: tuple) -> object:
    axis = _axis(b)
    if axis is _REJECT:
        return _REJECT
    return ("count", ("set", b["p"], b["k"], axis, ()))


BUILDERS["count_there_q"] = lambda b, c: ("count", ("set", b.get("p", ("unsaid",)), b["k"],
                                                    "children" if "d" in b else "descendants", ()))
BUILDERS["count_graph_q"] = lambda b, c: ("count", ("set", _graph_or_unsaid(b), b["k"],
                                                    "descendants", ()))
BUILDERS["count_test_q"] = lambda b, c: ("count", b["s"][:4] + ((b["f"],),))
BUILDERS["count_children_q"] = lambda b, c: ("count_children", b["p"])
BUILDERS["capacity_q"] = lambda b, c: ("capacity", b["p"], "t" in b)
BUILDERS["sum_q"] = lambda b, c: ("aggregate", "sum", b["s"])
BUILDERS["avg_q"] = lambda b, c: ("aggregate", "average", b["s"])


# ---------------------------------------------------------------- resolution


_HAS_CAPACITY = frozenset({K.PORT, K.PACKET_SWITCH})


class Place(str):
    """A focus that is also a place: the topic of a request ("for agg block A, ...") or the
    parent something was just added to. Only a place stands in for a place left unsaid
    ("add N to A, then rank the children"); any focus stands in for "it"."""

    __slots__ = ()


class Topic(Place):
    """A focus said as the topic of the request: "as for S, remove it" can only mean S."""

    __slots__ = ()


class Locus(Topic):
    """A topic said as a place ("under A, ...", "in agg block A, ...", or a headline "A: ..."):
    it is also where a set whose place is left unsaid lies ("under A, count the switches").
    A topic said otherwise ("for A, count the ports") is not: there the unsaid place stays
    the whole graph, so the topic is never referred to and the request is refused."""

    __slots__ = ()


class _Resolve:
    """Frames plus token values -> IR steps, kind qualifiers and the focus for pronouns."""

    def __init__(self, lexemes: list[Lexeme], text: str, says_graph: bool = False,
                 says_total: bool = False):
        self.lex = lexemes
        self.text = text
        self.says_graph = says_graph
        self.says_total = says_total
        self.placed: str | None = None  # a place a change so far said: an unsaid one could be it
        self.topic: Topic | None = None  # the topic said in the part being resolved
        self.locus: Locus | None = None  # the same, when it was said as a place
        self.qualifiers: list[tuple[str, str]] = []
        self.references = 0  # how often a pronoun or an unsaid place meant the focus
        self.it_kinds: tuple[str, ...] = ()  # kinds a pronoun was said with ("that switch")
        self.said_kinds: frozenset[tuple[str, str]] = frozenset()  # earlier sentences' qualifiers

    def value(self, pos: int):
        return self.lex[pos].value

    # nodes -------------------------------------------------------------
    def root(self, frame: Frame | None, focus: str | None) -> str | None:
        """The root a set frame names: a node, the whole graph (None), or, when its place is
        left unsaid, the fronted place of the request if it has one (else the whole graph)."""
        if frame is None:
            return None
        if frame[0] == "unsaid":
            if self.locus is not None:
                if self.says_graph:
                    raise AmbiguousRequest(
                        f"the request is about {str(self.locus)!r} but also says the whole graph",
                        expected="one place for the request", text=self.text)
                self.references += 1
                return str(self.locus)
            if self.says_graph or self.says_total:
                return None
            if self.topic is not None and self.placed is None:
                # "For control domain D, list the switches": a set said of a topic is in it
                self.references += 1
                return str(self.topic)
            if self.topic is not None or self.placed is not None:
                # "for A, how many switches are there after adding N to it?", "add N to A and
                # count the switches": in A, or in the whole graph?
                place = self.topic if self.topic is not None else self.placed
                raise AmbiguousRequest(
                    f"the request names {str(place)!r} but does not say whether the set is in it "
                    "or in the whole graph", expected="'in <node name>' or 'in the graph'",
                    text=self.text)
            return None
        return self.name(frame, focus)

    def name(self, frame: Frame, focus: str | None) -> str:
        if frame[0] in ("locus", "topic"):
            # a place only a fronted place can fill ("A: ports?"), or a node only the topic can
            # be ("for port P, set the capacity to 40 Gbps": a capacity is always of a node);
            # both are the ones said in this part of the request, whatever came between
            said = self.locus if frame[0] == "locus" else self.topic
            if said is None:
                raise IncompleteRequest("the request does not say which node it is about",
                                        expected=P.EXPECTED["any"], text=self.text)
            self.references += 1
            return str(said)
        if frame[0] in ("it", "here"):
            if focus is None and frame[0] == "it":
                raise AmbiguousRequest("'it' (or 'its', 'them') refers to no earlier node",
                                       expected="the node's name instead of a pronoun",
                                       text=self.text)
            if frame[0] == "here" and not isinstance(focus, Place):
                # an unsaid place is the topic or where something was just added, nothing else
                raise IncompleteRequest("the request does not say which node it is about",
                                        expected=P.EXPECTED["any"], text=self.text)
            self.references += 1
            if frame[0] == "it" and self.it_kinds:  # "that switch's ports": a switch said so
                said = self.said_kinds | set(self.qualifiers)
                missing = [k for k in self.it_kinds if (str(focus), k) not in said]
                if missing:
                    raise AmbiguousRequest(
                        f"a pronoun said with its kind ({missing[0]}) points back to "
                        f"{str(focus)!r}, which the request does not call a {missing[0]}",
                        expected="the node's name instead of a pronoun", text=self.text)
            return str(focus)  # a plain name in the IR, whatever kind of focus it was
        _, n, k = frame
        name = self.value(n)
        if k is not None:
            self.qualifiers.append((name, self.value(k)))
        return name

    def select(self, frame: Frame, focus: str | None) -> ir.Select:
        if frame[0] == "named":
            names = tuple(dict.fromkeys(self.name(node, focus) for node in frame[1]))
            return ir.Select(None, None, "named", names=names)
        _, root, kind, axis, filters = frame
        root_name = self.root(root, focus)
        kind_value = None if kind is None else self.value(kind)
        if axis == "ancestors" and kind_value == K.PORT:
            raise AmbiguousRequest("a port contains nothing, so no port is above another node",
                                   expected="'which switch contains <port name>'", text=self.text)
        found = ir.Select(root_name, kind_value, axis, tuple(self.filter(f) for f in filters))
        for where in found.filters:
            if isinstance(where, ir.Where):
                self.countable(kind_value, where.metric, "filtered")
        return found

    def countable(self, kind: str | None, metric: ir.Metric, how: str) -> None:
        """Refuse a count of nodes of a kind that nodes of ``kind`` can never contain (on
        the MALT hierarchy a port holds nothing): every such count is 0, so the request
        says nothing it could mean ("rank the ports of S by port number")."""
        if kind is None or metric.name != "count" or metric.kind in K.held_by(kind):
            return
        can = " or ".join(["capacity", *(f"the number of {k}" for k in K.held_by(kind))])
        raise QueryError(
            f"a node of kind {kind} never contains one of kind {metric.kind} (on the MALT "
            f"hierarchy), so every {kind} would be {how} by a count of 0",
            expected=f"nodes of kind {kind} {how} by {can}", text=self.text)

    def filter(self, frame: Frame) -> ir.Filter:
        if frame[0] == "name":
            _, mode, text = frame
            return ir.NameLike(mode, str(self.value(text)))
        _, metric, op, value = frame
        number = self.value(value)
        if metric[0] == "unsaid":
            raise IncompleteRequest(
                f"{self.lex[value].text or number!r} has no unit and names no measure "
                "(10 what?)", expected="a unit or what is compared, e.g. 'with capacity "
                "above 10 Gbps' or 'with more than 10 ports'", text=self.text)
        if metric[0] == "count":
            if "RATE" in self.lex[value].cats or not isinstance(number, int):
                raise UnknownRequest("a count is compared with a whole number",
                                     expected="e.g. 'with more than 4 ports'", text=self.text)
            return ir.Where(ir.Metric("count", self.value(metric[1])), op, number)
        return ir.Where(ir.CAPACITY, op, number)

    def metric(self, frame: Frame) -> ir.Metric:
        return ir.CAPACITY if frame[0] == "capacity" else ir.Metric("count", self.value(frame[1]))

    # steps -------------------------------------------------------------
    def steps(self, frame: Frame, focus: str | None) -> tuple[list[ir.Step], str | None]:
        """IR steps for one clause frame and the node a later pronoun would mean."""
        op = frame[0]
        if op == "add":
            return self.adds(frame, focus)
        if op == "adds":
            steps: list[ir.Step] = []
            parents = []
            said_kind = None
            for new_nodes, parent in frame[1]:
                found, parent_name = self.adds(("add", new_nodes, parent), focus, said_kind)
                steps += found
                parents.append(parent_name)
                kinds = {self.new_kind(k) for *_, ks, _count in new_nodes for k in ks}
                if len(kinds) == 1:
                    said_kind = kinds.pop()
                elif kinds:
                    said_kind = None
            return steps, (Place(parents[0]) if len(set(parents)) == 1 else None)
        if op == "removes":  # "remove P1 from S1 and P2 from S2"
            return [step for targets, source in frame[1]
                    for step in self.removes(("remove", targets, source), focus)], None
        if op == "updates":  # "set P1 to 10 Gbps and P2 to 40 Gbps"
            return [step for targets, value in frame[1]
                    for step in self.updates(("update", targets, value), focus)[0]], None
        if op == "remove":
            found = self.removes(frame, focus)
            # after "remove the ports of S ...", "its" means S
            return found, (found[0].nodes.root if isinstance(found[0], ir.RemoveAll) else None)
        if op == "update":
            return self.updates(frame, focus)
        if op == "for_each":
            _, pk, k = frame
            kind = self.new_kind(k)
            return [ir.ForEachAdd(self.value(pk), kind)], None
        return [self.read(frame, focus)], None  # a question leaves the focus where it was

    def new_kind(self, frame) -> str:
        if isinstance(frame, int):
            return self.value(frame)
        _, one, kind = frame
        if self.value(one) != 1:
            raise UnknownRequest("'a new <kind>' here adds one node, not a number of them",
                                 expected=P.EXPECTED["for_each_add"], text=self.text)
        return self.value(kind)

    def adds(self, frame: Frame, focus: str | None,
             said_kind: str | None = None) -> tuple[list[ir.Step], str]:
        """Additions under one parent. ``said_kind`` is the kind said for the nodes of an
        earlier parent in the same list ("add port A to S1 and B to S2"): a node given no
        kind of its own has it."""
        _, new_nodes, parent = frame
        parent_name = self.placed = self.name(parent, focus)
        counts = {count for *_, count in new_nodes if count is not None}
        if counts and {self.value(c) for c in counts} != {len(new_nodes)}:
            raise AmbiguousRequest("the number of new nodes does not match the names given",
                                   expected="as many names as new nodes", text=self.text)
        steps = []
        for _, n, kinds, _count in new_nodes:
            name = self.value(n)
            given = {self.new_kind(k) for k in kinds}
            named = _NEW_NAME_KIND.match(name)
            if named and named.group(1) in K.ENTITY_KINDS and not given:
                given = {named.group(1)}
            if len(given) > 1:
                raise AmbiguousRequest(
                    f"the new node is given two kinds ({', '.join(sorted(given))})",
                    expected="one kind for the new node", text=self.text)
            if not given and said_kind is not None:
                given = {said_kind}
            if not given:
                raise IncompleteRequest(f"the kind of new node {name!r} is not given",
                                        expected=P.EXPECTED["add"], text=self.text)
            steps.append(ir.Add(name, given.pop(), parent_name))
        return steps, Place(parent_name)

    def removes(self, frame: Frame, focus: str | None) -> list[ir.Step]:
        _, targets, source = frame
        if targets[0] == "set_of":
            if source is not None and source[0] != "graph":
                raise UnknownRequest("a set to remove is named by where it is, not 'from' a node",
                                     expected="'remove every port of <switch>'", text=self.text)
            return [ir.RemoveAll(self.select(targets[1], focus))]
        _, nodes, count = targets
        if any(node[0] == "it" for node in nodes) and not isinstance(focus, Topic):
            raise AmbiguousRequest("'it' cannot name a node to remove",
                                   expected="the name of the node to remove", text=self.text)
        names = [self.name(node, focus) for node in nodes]
        self.counted(names, count)
        if source is not None and source[0] == "node":
            container = self.placed = self.name(source, focus)
            for name in names:
                if not name.startswith(container + "."):
                    raise UnknownRequest(f"{name!r} is not inside {container!r}",
                                         expected="'remove <node> from the graph', or a node "
                                         "inside the one named after 'from'", text=self.text)
        elif source is None and self.topic is not None and not self.says_graph and all(
                name.startswith(str(self.topic) + ".") for name in names):
            # "on S, remove P", "for switch S, delete port P": the node said first is where
            # what is removed lies (a node elsewhere leaves it unreferred to, and refused)
            self.references += 1
            self.placed = str(self.topic)
        return [ir.Remove(name) for name in names]

    def updates(self, frame: Frame, focus: str | None) -> tuple[list[ir.Step], str | None]:
        _, targets, value_pos = frame
        value = self.value(value_pos)
        if value < 0:
            raise QueryError(f"a capacity cannot be negative ({value})",
                             expected="a capacity of 0 or more", text=self.text)
        if targets[0] == "it":
            targets = ("names", (("it",),), None)
        if targets[0] == "set_of":
            select = self.select(targets[1], focus)
            return [ir.UpdateAll(select, value)], select.root
        names = [self.name(node, focus) for node in targets[1]]
        self.counted(names, targets[2])
        return [ir.Update(name, value) for name in names], (names[0] if len(names) == 1 else None)

    def counted(self, names: list[str], count: int | None) -> None:
        """Refuse a list of names other than as long as the request says ("remove three
        ports: A and B")."""
        if count is not None and self.value(count) != len(names):
            raise AmbiguousRequest(f"the request says {self.value(count)} nodes but names "
                                   f"{len(names)}", expected="as many names as it says",
                                   text=self.text)

    def read(self, frame: Frame, focus: str | None) -> ir.Read:
        op = frame[0]
        if op == "list":
            return ir.ListChildren(self.name(frame[1], focus))
        if op == "nodes":
            return ir.ListNodes(self.select(frame[1], focus))
        if op == "capacity":
            _, node, total = frame
            name = self.name(node, focus)
            kind = node[2] if node[0] == "node" and node[2] is not None else None
            if not total and kind is not None and self.value(kind) not in _HAS_CAPACITY:
                raise AmbiguousRequest(
                    f"capacity is a port's attribute (a switch's is its ports' total), so "
                    f"{self.value(kind)} {name!r} has none of its own",
                    expected=P.EXPECTED["total"], text=self.text)
            return ir.CapacityOf(name, total)
        if op == "aggregate":
            return ir.Aggregate(frame[1], self.select(frame[2], focus))
        if op == "count_children":
            return ir.Aggregate("count", ir.Select(self.name(frame[1], focus), None, "children"))
        if op == "count":
            select = self.select(frame[1], focus)
            if select.kind is None or select.filters or select.axis != "descendants":
                return ir.Aggregate("count", select)
            return ir.Count(select.kind, select.root)
        if op == "rank":
            return ir.Rank(self.name(frame[1], focus), frame[2])
        if op == "top":
            _, core, metric, limit, descending = frame
            select = self.select(core, focus)
            if limit == "implied":
                singular = "KIND_SG" in self.lex[core[2]].cats and "KIND_PL" not in self.lex[
                    core[2]].cats
                if not singular:
                    raise AmbiguousRequest("the request does not say how many to list",
                                           expected=P.EXPECTED["top"], text=self.text)
                limit = 1
            elif isinstance(limit, tuple):
                limit = self.value(limit[1])
            if limit is not None and (not isinstance(limit, int) or limit < 1):
                raise UnknownRequest("a top-k list holds a whole number of nodes, at least one",
                                     expected=P.EXPECTED["top"], text=self.text)
            found = ir.Top(select, self.metric(metric), limit, descending)
            self.countable(select.kind, found.metric, "ranked")
            return found
        raise AssertionError(op)  # pragma: no cover - frames are closed


@dataclass(frozen=True)
class Parsed:
    """A parsed request: the query, plus the kind qualifiers the text attached to names."""

    query: ir.Query
    qualifiers: tuple[tuple[str, str], ...]  # (name, kind the text says it is)
    # a change to a set of nodes said without "all", "every" or "each" ("remove the ports of
    # S"): a word netmend does not know anywhere in the request may pick some of them out
    unquantified: bool = False
    # (name, container): the text says the node is inside the container ("S, which sits in
    # agg block A"); the container's name starts the node's, and a topology is checked too
    places: tuple[tuple[str, str], ...] = ()


# Changes to a set of nodes, and the words that say the whole set is meant.
_SET_CHANGES = (ir.RemoveAll, ir.UpdateAll)
_WHOLE_SET = frozenset({"ALL", "FOREACH"})


def _unquantified(steps: Sequence[ir.Step], lexemes: Sequence[Lexeme]) -> bool:
    """Whether ``steps`` (read from ``lexemes``) change a set of nodes that the words may not
    say is meant whole: fewer "all" / "every" / "each" than steps ("remove every port of S and
    count the ports in A" may be "every" of the count)."""
    return _changes_a_set(steps) and sum(1 for x in lexemes if x.cats & _WHOLE_SET) < len(steps)


_LIST_WORDS = frozenset({",", "and"})


def _listed_after_semicolon(tokens: list[Token], at: int) -> bool:
    """True when the ";" at ``at`` separates names of one list ("remove A; B; C"): a name
    before it, and only names (with commas and "and") after it up to the sentence's end."""
    if at == 0 or tokens[at - 1].kind != "NAME":
        return False
    named = False
    for tok in tokens[at + 1:]:
        if tok.kind == "PUNCT" and tok.text in _SENTENCE_ENDS:
            break
        if tok.kind == "NAME":
            named = True
        elif tok.text not in _LIST_WORDS:
            return False
    return named


def _sentences(tokens: list[Token]) -> list[list[Token]]:
    sentences: list[list[Token]] = [[]]
    for i, tok in enumerate(tokens):
        if tok.kind == "PUNCT" and tok.text in _SENTENCE_ENDS:
            if tok.text == ";" and _listed_after_semicolon(tokens, i):
                sentences[-1].append(_LIST_COMMA)  # "remove A; B; C": one list
            elif sentences[-1]:
                sentences.append([])
        else:
            sentences[-1].append(tok)
    return [s for s in sentences if s]


_LIST_COMMA = Token("PUNCT", ",")


_FORMAT_BOUNDS = frozenset({",", ":", "(", "-", "--", "->"})
_FORMAT_OPEN = frozenset({"as", "and", "with", "each", "of", "their", "its", "in", "for", "plus",
                          "alongside", "along", "("})


def _format_word(tok: Token) -> bool:
    kind = tok.kind
    if kind == "WORD" or kind == "PUNCT":  # their text is lower case already
        text = tok.text
        if "/" not in text:
            return text in P.FORMAT_WORDS
        return all(part in P.FORMAT_WORDS for part in text.split("/") if part)
    if kind == "NAME":
        return tok.text.lower() == "physical_capacity_bps"
    return kind == "POSS"


def _layout(words: set[str]) -> str | None:
    """``pairs``, ``names`` or None (no layout said) for a tail's words."""
    if words & P.FORMAT_PAIRS or (words & P.FORMAT_NAMES and words & P.FORMAT_VALUES):
        return "pairs"
    return "names" if words & P.FORMAT_NAMES else None


def _format_tail(sentence: list[Token]) -> tuple[list[Token], str | None]:
    """The sentence without a tail that only lays out the answer (see ``P.FORMAT_WORDS``),
    and that layout (``names`` or ``pairs``); the sentence unchanged and None when it has none."""
    ok = len(sentence)
    while ok and _format_word(sentence[ok - 1]):
        ok -= 1
    for start in range(ok, len(sentence)):
        tok = sentence[start]
        if not (start == 0 or sentence[start - 1].text in _FORMAT_BOUNDS
                or tok.text in _FORMAT_BOUNDS or tok.text in P.FORMAT_LEADS):
            continue
        words = {part for t in sentence[start:] for part in t.text.lower().split("/")}
        layout = _layout(words)
        if layout is None or _dangling(tuple(t.text for t in sentence[start:])) is not None \
                or sentence[-1].text in _FORMAT_OPEN:
            return sentence, None  # no layout, or one cut short ("... their names as")
        rest = sentence[:start]
        while rest and (rest[-1].text in _FORMAT_BOUNDS or rest[-1].text in ("and", "then")):
            rest = rest[:-1]
        return rest, layout
    return sentence, None


def _return_promise(clause: list[Token], text: str) -> str | None:
    """What a ``Return ...`` clause promises: ``graph``, ``list``, ``text`` or nothing said.

    Its words are free text, but a critical word there still refuses the
    request ("return only the counts" is the one the benchmark itself uses).
    """
    promised: list[str] = []
    neutral = False
    said = [str(t.text).lower() for t in clause]
    phrase = P.phrased_hedge(said)
    if phrase is not None:  # "... and return the graph, on hold for now"
        raise UnknownRequest(f"{phrase!r} in {' '.join(said)!r} would change what is asked",
                             expected="'return a graph', 'return a list' or 'return the count'",
                             text=text)
    for tok in clause:
        word = str(tok.value if tok.kind == "NAME" else tok.text).lower()
        if word in P.HEDGES and word != "only":
            raise UnknownRequest(f"{word!r} in {' '.join(t.text for t in clause)!r} would change "
                                 "what is asked", expected="'return a graph', 'return a list' or "
                                 "'return the count'", text=text)
        if word in P.RETURN_WORDS:
            promised.append(P.RETURN_WORDS[word])
        elif word in P.RETURN_NEUTRAL:
            neutral = True
    layout = _layout({str(t.text).lower() for t in clause})
    if layout is not None and "graph" not in promised and "text" not in promised \
            or layout == "pairs":
        return layout
    for answer in ("graph", "list", "text"):
        if answer in promised:
            return answer
    if neutral:
        return None
    words = " ".join(t.text for t in clause)
    raise UnknownRequest(f"cannot tell what {words!r} should return",
                         expected="'return a graph', 'return a list' or 'return the count'",
                         text=text)


def _promised(clause: list[Token], text: str) -> str | None:
    """:func:`_return_promise`, or "unknown" when it cannot be told (the grammar refuses it)."""
    try:
        return _return_promise(clause, text)
    except UnknownRequest:
        return "unknown"


_NAMED = frozenset({"NAME", "KIND"})
# A kind said in a Return clause ("return the graph's ports") makes it a question too.
_KIND_TEXTS = frozenset(text for text in P.KIND_WORDS if " " not in text
                        and "GRAPH" not in P.LEXICON.get(text, frozenset()))
_RETURN_VERBS = frozenset({"return", "give", "hand", "send", "respond", "reply", "answer"})


def _return_as_read(sentence: list[Token], at: int, text: str) -> list[Token]:
    """A ``Return ...`` clause that names a node or a kind ("then return the number of EK_PORT
    in S") asks a question, not for a form of answer: the sentence with the clause's verb
    read as "show". Its words are never dropped as free text, so a clause that cannot be
    read that way is refused."""
    shape = _shape_of(sentence)
    if shape[at] in _RETURN_VERBS:
        for length in _PHRASE_LENGTHS.get(shape[at], ()):
            found = _PHRASES.get(shape[at:at + length])
            if found is not None and found[0] == "CATS" and "RETURN" in found[1]:
                return sentence[:at] + [_VOCABULARY_TOKENS["show"]] + sentence[at + length:]
    words = " ".join(t.text for t in sentence[at:])
    raise UnknownRequest(f"{words!r} names nodes, so it is more than a form of answer",
                         expected="'return a graph', 'return a list' or 'return the count'",
                         text=text)


_MAX_VARIANTS = 64


def _variants(lexemes: list[Lexeme]):
    """The lexeme lists to try, fewest soft fillers dropped first: at most
    :data:`_MAX_VARIANTS` of them, then every soft filler dropped (so a request full of
    them costs a bounded number of parses, never two to the power of their number)."""
    soft = [i for i, x in enumerate(lexemes) if x.soft]
    yield lexemes
    tried = 1
    for size in range(1, len(soft)):
        for dropped in itertools.combinations(soft, size):
            if tried >= _MAX_VARIANTS:
                break
            tried += 1
            yield [x for i, x in enumerate(lexemes) if i not in dropped]
    if soft:
        yield [x for x in lexemes if not x.soft]


@dataclass(frozen=True)
class _Analysis:
    """What a sentence's shape alone decides: where its ``Return`` clause starts, the
    lexemes parsed (fillers dropped, soft fillers as few as possible), and every parse."""

    return_at: int | None
    lexemes: tuple[Lexeme, ...]  # templates: values still to be read from the tokens
    frames: tuple
    says_new: bool = False  # a dropped "new" / "fresh": only an addition may say it
    each_read: bool = False  # an "each" said in a read ("the total capacity of each switch")
    says_graph: bool = False  # a dropped "in the graph": the whole graph is said as a place
    says_would: bool = False  # "how many ports would S have": true only after a change
    says_total: bool = False  # "in total", "overall", "in the graph": over the whole graph
    dangling: str | None = None  # a last word that needs what the sentence does not say
    depth: str | None = None  # a depth said where no rule has it: every set must go that deep
    reported: bool = False  # "X was removed", "X may go": a change said, not asked for


_EDGES = frozenset({"COMMA", "AND", "THEN"})
_COLON_VERBS = frozenset({"ADD", "REMOVE", "SET", "ASK", "COUNT", "RANK", "SUMV"})
_NEW_WORDS = frozenset({"new", "a new", "one new", "one additional", "one extra", "brand new",
                        "brand-new", "fresh", "additional",
                        "an additional", "another", "extra", "an extra", "one more"})
_CHANGE_VERBS = frozenset({"ADD", "MAKE", "GIVE", "REMOVE", "TAKE", "SET", "FOREACH"})
_READ_VERBS = frozenset({"ASK", "COUNT", "RANK", "WH", "HOWMANY", "HOWMUCH", "SUMV"})
# Reads that fold a set into one answer: "each" inside them asks for one answer per node.
_FOLDS = (ir.Aggregate, ir.Count, ir.CapacityOf, ir.Top)
_ADDS = (ir.Add, ir.ForEachAdd)
_ADD_VERBS = frozenset({"ADD", "MAKE", "GIVE", "GET", "FOREACH"})
_VERB_CATS = _ADD_VERBS | frozenset({"REMOVE", "TAKE", "SET", "ASK", "COUNT", "RANK", "WH",
                                     "HOWMANY", "HOWMUCH", "SUMV", "AFTER", "THEN"})


_BEFORE_NAME = frozenset({"KIND", "KIND_SG", "KIND_PL", "NODE", "CALLED", "COMMA", "NUM"})


def _any_change(lexemes: list[Lexeme]) -> bool:
    """Whether an "any" belongs to a change: the nearest verb before it changes the graph."""
    for at, lexeme in enumerate(lexemes):
        if lexeme.text in P.ANY:
            verb = next((x for x in reversed(lexemes[:at]) if x.cats & (_CHANGE_VERBS
                                                                          | _READ_VERBS)), None)
            if verb is not None and verb.cats & _CHANGE_VERBS:
                return True
    return False


def _distributes(lexemes: list[Lexeme]) -> bool:
    """Whether an "each" belongs to a read: the nearest verb before it reads, or none does
    ("if a port were added to each switch" is a change's)."""
    changes = _CHANGE_VERBS | {"ADDED"}
    for at, lexeme in enumerate(lexemes):
        if lexeme.text in P.EACH:
            verb = next((x for x in reversed(lexemes[:at]) if x.cats & (changes
                                                                          | _READ_VERBS)), None)
            if verb is None or "AFTER" in verb.cats:
                # "if each agg block got a new port, ...": the verb after it says whose it is
                later = lexemes[at + 1:]
                after = next((x for x in later
                              if x.cats & (changes | _READ_VERBS | {"GET", "GONE"})), None)
                if after is not None and after.cats & (changes | {"GET", "GONE"}) and not (
                        after.cats & _READ_VERBS):
                    continue
                # "once each domain has a new switch, ...": the change is had by each
                if any("HAVE" in x.cats and "KIND" in y.cats and "WH" not in lexemes[0].cats
                       for x, y in zip(later, later[1:], strict=False)):
                    continue
            if verb is None or not verb.cats & changes or verb.cats & _READ_VERBS:
                return True
    return False


_CLAUSE_ENDS = frozenset({"COMMA", "THEN", "AND"})


def _licensed(lexemes: list[Lexeme], at: int) -> bool:
    """Whether a "new" at ``at`` belongs to an addition: it introduces a named node ("a new
    switch, N"), the nearest verb before it adds, or (none before) an "added" follows ("a
    new port N is added to S"); or it is the value a change sets ("25G is the new capacity
    of P")."""
    if at + 1 < len(lexemes) and "CAP" in lexemes[at + 1].cats and any(
            x.cats & {"RATE", "NUM"} for x in lexemes[:at]):
        return True
    for lexeme in lexemes[at + 1:]:
        if not lexeme.cats & _BEFORE_NAME:
            if "NAME" in lexeme.cats:
                return True
            break
    if at and lexemes[at - 1].cats & {"HAVE", "GET"} and any(
            x.cats & {"ALL", "EACHW"} for x in lexemes[:at - 1]):
        return True  # "once each domain has (got) a new switch, ...": one added to each
    before = at - 1  # "N should be a new port on S", "S must have a new port N": a wish
    while (before >= 0 and lexemes[before].cats & {"AUX", "HAVE"}
           and "MODAL" not in lexemes[before].cats):
        before -= 1
    if before >= 0 and "MODAL" in lexemes[before].cats:
        return True
    for lexeme in reversed(lexemes[:at]):
        if "ADDED" in lexeme.cats:  # "if we added a new port to every switch"
            return True
        if "WANT" in lexeme.cats:  # "I need a new port on S, called N": a wish that names it,
            # or puts one in each node of a kind ("we need a new port per agg block")
            return any(x.cats & {"CALLED", "CALL", "PER", "ALL"} for x in lexemes[at + 1:])
        if "ADDITION" in lexeme.cats:  # "the addition of a new port to each agg block"
            return True
        if lexeme.cats & _VERB_CATS:
            if "AFTER" in lexeme.cats and not lexeme.cats & _ADD_VERBS:
                break  # a condition ("if a new port were added ..."): its verb follows
            if lexeme.cats & _ADD_VERBS and not lexeme.cats & (_VERB_CATS - _ADD_VERBS):
                return True
            if not lexeme.cats & _ADD_VERBS:
                return False
            break  # a verb that may add or read ("get"): an addition must follow in the clause
    for lexeme in lexemes[at + 1:]:  # the verb said last: "in each domain one new switch add";
        # or the new node named next: "S needs another port - call it N"
        if lexeme.cats & {"ADDED", "ADD", "CALL"}:
            return True
        if lexeme.cats & _CLAUSE_ENDS:
            break
    return False


_GRAPH_FILLERS = frozenset(tuple(f.split()) for f in P.GRAPH_FILLERS)
_GRAPH_FILLER_LENGTHS = frozenset(len(f) for f in _GRAPH_FILLERS)
_GRAPH_FILLER_ENDS = frozenset(f[-1] for f in _GRAPH_FILLERS)


def _says_graph(shape: tuple[str, ...]) -> bool:
    """Whether the words name the whole graph in a filler ("in the updated graph")."""
    if _GRAPH_FILLER_ENDS.isdisjoint(shape):
        return False
    return any(shape[i:i + n] in _GRAPH_FILLERS for n in _GRAPH_FILLER_LENGTHS
               for i in range(len(shape) - n + 1))


_TOTAL_WORDS = frozenset({"total", "overall", "altogether", "combined"})


def _says_total(shape: tuple[str, ...]) -> bool:
    """Whether the words say a number is one for the whole ("in total", "overall", "in all")."""
    return not _TOTAL_WORDS.isdisjoint(shape) or ("all" in shape and any(
        shape[i:i + 2] == ("in", "all") for i in range(len(shape) - 1)))


_CLOSINGS = sorted((tuple(c.split()) for c in P.CLOSINGS), key=len, reverse=True)
_CLOSING_ENDS = frozenset(c[-1] for c in _CLOSINGS)
_NOUN_CATS = frozenset({"CHILD", "NODE", "CAP", "NUMBER", "DESC", "PARENT", "ANCESTOR",
                        "EVERYTHING", "NAME_N"})
# The last words of the noun phrases a request says (kinds, "children", "capacity", ...), and
# the placeholders of kinds and numbers: what a stranded preposition cannot follow.
_NOUN_ENDS = frozenset(
    words[-1] for words, (kind, payload) in _PHRASES.items()
    if kind == "KIND" or (kind == "CATS" and not _NOUN_CATS.isdisjoint(payload))  # type: ignore[arg-type]
) | _UNIT_WORDS | frozenset({"KIND", "NUM", "there", "all"}) | P.DETERMINERS
_NOUN_WORDS = _NOUN_ENDS | frozenset(
    w for words, (kind, payload) in _PHRASES.items()
    if kind == "KIND" or (kind == "CATS" and not _NOUN_CATS.isdisjoint(payload))  # type: ignore[arg-type]
    for w in words)
# A subject said just before a last "has": a node, "it", or the graph ("how many switches the
# whole topology has").
_SUBJECTS = frozenset({"NAME", "it", "they", "them", "graph", "topology", "network", "fabric",
                       "datacenter", "inventory"})
_KIND_SG_WORDS = frozenset(w for text, (_, number) in P.KIND_WORDS.items() if "SG" in number
                           for w in text.split())
_WH_WORDS = frozenset({"what", "which", "whichever", "how", "who"})
# Prepositions a question may leave after a name: "which agg block is P in".
_AFTER_NAME = frozenset({"in", "on", "under", "at", "off", "inside", "within", "beneath",
                         "below", "underneath"})
_TO_VERBS = frozenset({"need", "needs", "has", "have", "had", "ought", "going", "want", "like",
                       "wish", "is", "are", "able", "love"})


# Depths said as a clause that ends on a verb ("at whatever depth they sit").
_DEPTHS_ENDING_ON_A_VERB = tuple(
    tuple(text.split()) for text, cats in P.LEXICON.items()
    if "DEEP" in cats and " " in text and text.split()[-1] in P.PLACE_VERBS)


def _dangling(said: tuple[str, ...]) -> str | None:
    """The last word of a sentence when it leaves a part unsaid (see ``P.DANGLING``), else None."""
    words = list(said)
    while words:
        if words[-1] in _COMMAS:
            words.pop()
            continue
        if words[-1] not in _CLOSING_ENDS:
            break
        closing = next((c for c in _CLOSINGS if tuple(words[-len(c):]) == c), None)
        if closing is None:
            break
        del words[-len(closing):]
    if not words or any(tuple(words[-len(p):]) == p for p in _DEPTHS_ENDING_ON_A_VERB):
        return None  # "..., at whatever depth they sit": a phrase of its own
    last = words[-1]
    prev = words[-2] if len(words) > 1 else ""
    if last == "each" and (prev in _UNIT_WORDS or prev == "NUM"):
        return None  # "set A and B to 25 Gbps each": what each one gets
    if last in P.DANGLING:
        return last
    wh = max((i for i, w in enumerate(words) if w in _WH_WORDS), default=-1)
    if last in P.PLACE_VERBS:
        asked = "where" in words or any(
            w in P.STRANDED and words[i + 1] in _WH_WORDS for i, w in enumerate(words[:-1]))
        return None if asked else last
    if last in P.COPULAS:
        if prev in ("there", "it", "they", "them"):
            return None
        if prev == "NAME" and wh > 0 and words[wh - 1] in P.STRANDED:
            return None  # "tell me in which agg block port P is": the place is asked
        # "what the ports of S are": the question word is the copula's complement; in "how
        # many ports are" and "which ports of S are" it is the subject, and nothing follows
        complement = wh >= 0 and words[wh] in ("what", "which") and wh + 1 < len(words) - 1 and (
            words[wh + 1] not in _NOUN_WORDS or words[wh + 1] in P.DANGLING
            # "what port P's capacity is": the noun goes with the name after it
            or (wh + 2 < len(words) - 1 and words[wh + 2] == "NAME"))
        return None if complement and prev not in _WH_WORDS else last
    if last in P.HAVES:
        if wh >= 0 and not P.SUBJECT_AUX.isdisjoint(words[wh + 1:-1]):
            return None  # "which ports does S have": the subject follows the auxiliary
        # Its subject is said just before it: a name or "it" ("how many ports S has", "the
        # number of ports it has"), not inside a phrase of place ("how many ports in S
        # have"), or one node of a kind ("how many ports each switch has").
        at = len(words) - 2
        while at > 0 and words[at] in _BETWEEN:
            at -= 1  # "which child nodes A still has"
        subject = words[at] if at >= 0 else ""
        if subject in _SUBJECTS:
            at -= 1
            while at >= 0 and (words[at] in _KIND_SG_WORDS or words[at] in P.DETERMINERS):
                at -= 1  # "(the) agg block A has"
            if at < 0 or words[at] not in P.STRANDED:
                return None
            at -= 1  # "the largest capacity any port in A has": one node of a kind, in A
            while at >= 0 and words[at] in _KIND_SG_WORDS:
                at -= 1
            return None if at < len(words) - 4 and at >= 0 and words[at] in ("any", "each",
                                                                              "every") else last
        while at >= 0 and words[at] in _KIND_SG_WORDS:
            at -= 1
        if at < len(words) - 2 and at >= 0 and words[at] in ("each", "every"):
            return None
        return last  # "which switches have", "how many ports have": whose?
    if last in P.STRANDED:
        if last == "of" and wh >= 0 and "NAME" in words[wh + 1:-2]:
            return None  # "which switch is P a port of?": the question word is its object
        if prev in _NOUN_ENDS or (last == "to" and prev in _TO_VERBS):
            return last
        if prev == "NAME" and last not in _AFTER_NAME:
            return last  # "add N to", "remove P from": the place is missing
    return None


def _says_nothing_more(rest: tuple[str, ...]) -> bool:
    """Whether the words after a phrase are only punctuation, politeness and "afterwards"."""
    words = [w for w in rest if w not in _COMMAS and w not in _SENTENCE_ENDS]
    if words[-1:] in (["afterwards"], ["afterward"], ["after"], ["thereafter"]):
        words.pop()
    while words:
        if words[-1] not in _CLOSING_ENDS:
            return False
        closing = next((c for c in _CLOSINGS if tuple(words[-len(c):]) == c), None)
        if closing is None:
            return False
        del words[-len(closing):]
    return True


@lru_cache(maxsize=8192)
def _analyze(shape: tuple[str, ...]) -> _Analysis:
    return_at = None
    for i, word in enumerate(shape):
        if word in _RETURN_STARTS:
            for length in _PHRASE_LENGTHS.get(word, ()):
                found = _PHRASES.get(shape[i:i + length])
                if found is not None and found[0] == "CATS" and "RETURN" in found[1] and (
                        "WHOLE_GRAPH" not in found[1] or _says_nothing_more(shape[i + length:])):
                    return_at = i
                    break
            if return_at is not None:
                break
    dangling = _dangling(shape[:return_at])
    if dangling is not None:
        return _Analysis(return_at, (), (), dangling=dangling)
    lexemes = list(_lex_shape(shape[:return_at]))
    # "..., and return the graph": a joint before the Return clause goes; a sentence that
    # ends on "and" / "then" with nothing after it has lost a part, so that joint stays
    # (and the request is refused rather than answered for the first part alone).
    edges = _EDGES if return_at is not None else frozenset({"COMMA"})
    while lexemes and lexemes[-1].cats & edges:
        lexemes.pop()
    while lexemes and "COMMA" in lexemes[0].cats:
        lexemes.pop(0)
    # "remove: X", "list: the ports of S": a colon right after a verb introduces its object
    # (tried first; a word that is also a noun keeps its colon in a second try: "P cap -> 40G")
    colonless = [x for i, x in enumerate(lexemes)
                 if not (x.text in (":", "(", "->") and i and lexemes[i - 1].cats & _COLON_VERBS)]
    bases = (colonless,) if len(colonless) == len(lexemes) else (colonless, lexemes)
    said = shape[:return_at]
    found = _parsed(bases, said, return_at)
    if found is not None:
        return found
    # "How many ports are there, at any depth, in A?": a word that says how deep a set goes,
    # where no rule has it, is read as said again (checked against the reading: see ``depth``)
    for cat, depth in (("DEEP", "descendants"), ("DIRECT", "children")):
        if any(cat in x.cats for x in colonless):
            found = _parsed(tuple(_without_cat(base, cat) for base in bases), said, return_at)
            if found is not None:
                return dataclasses.replace(found, depth=depth)
    return _Analysis(return_at, tuple(colonless), ())


def _without_cat(lexemes: list[Lexeme], cat: str) -> list[Lexeme]:
    """``lexemes`` without those of ``cat``, each with the commas that set it apart."""
    gone: set[int] = set()
    for i, x in enumerate(lexemes):
        if cat in x.cats:
            gone.add(i)
            before = i > 0 and "COMMA" in lexemes[i - 1].cats
            if before:
                gone.add(i - 1)
            if (before or i == 0) and i + 1 < len(lexemes) and "COMMA" in lexemes[i + 1].cats:
                gone.add(i + 1)
    return [x for i, x in enumerate(lexemes) if i not in gone]


def _parsed(bases: tuple[list[Lexeme], ...], said: tuple[str, ...],
            return_at: int | None) -> _Analysis | None:
    """The analysis of the first variant of ``bases`` the grammar parses, or None."""
    lexemes = bases[0]
    for variant in (v for base in bases for v in _variants(base)):
        found = _parses(tuple(x.cats for x in variant))
        if found:
            kept = {id(x) for x in variant}
            stray = any(x.text in _NEW_WORDS and id(x) not in kept and not _licensed(lexemes, i)
                        for i, x in enumerate(lexemes))
            if _any_change(variant):
                found = ()  # "remove any port of S": one of them, or all? (refused below)
            says_graph = _says_graph(said)
            return _Analysis(return_at, tuple(variant), found, stray, _distributes(variant),
                             says_graph,
                             "would" in said and any(x.text == "would" and "AUX" in x.cats
                                                     for x in variant),
                             says_graph or _says_total(said), reported=_reported(said))
    return None


_DONE_CATS = frozenset({"GONE", "ADDED", "SETP"})
_CHANGE_CATS = _DONE_CATS | _CHANGE_VERBS | {"NEW"}
_NOT_REPORTS = frozenset({"AFTER", "WH", "HOWMANY", "HOWMUCH"})
_CLAUSE_WORDS = frozenset({",", ".", ";", "then", "and"})


def _reported(said: tuple[str, ...]) -> bool:
    """Whether a change is said as done ("X was removed", "a port N has been put on S",
    "P had its capacity changed") or as allowed or likely ("X may be removed") rather than
    asked for, supposed or asked about: a past or perfect auxiliary before a change's
    participle, or "may" before a change, with no condition ("once", "if") and no question
    word ("what capacity has been assigned to P?") earlier in its clause."""
    for at, word in enumerate(said):
        perfect = word in ("has", "have") and said[at + 1:at + 2] == ("been",)
        if word == "may" and said[at + 1:at + 2] not in (("i",), ("we",), ("you",)):
            # "X may be removed", "S may need a new port": allowed or likely, not asked
            clause = said[at + 1:]
            for end, later in enumerate(clause):
                if later in _CLAUSE_WORDS:
                    clause = clause[:end]
                    break
            if not any(x.cats & _CHANGE_CATS for x in _lex_shape(clause)):
                continue
        elif word in ("was", "had") or perfect:
            rest = [x for x in _lex_shape(said[at + 1:]) if not x.cats <= {"AUX", "ITS", "CAP"}]
            if not rest or not rest[0].cats & _DONE_CATS:
                continue
        else:
            continue
        start = at
        while start and said[start - 1] not in _CLAUSE_WORDS:
            start -= 1
        clause = said[start:at]
        if "if" not in clause and not any(x.cats & _NOT_REPORTS for x in _lex_shape(clause)):
            return True
    return False


_LABEL_PHRASES = {tuple(p.split()): len(p.split()) for p in P.LABEL_WORDS}
_LABEL_FIRST = frozenset(words[0] for words in _LABEL_PHRASES)
_LABEL_ID = re.compile(r"#?([A-Za-z]{0,10})[-_]?\d+[A-Za-z]?")
_LABEL_ENDS = frozenset({":", "-", "--"})
# An issue tracker's key ("RMA-318", "NET-1234"): capitals, a hyphen, digits.
_TRACKER_KEY = re.compile(r"[A-Z]{2,10}-\d+")


# An item's number in an outline ("Action item 2.4:", "Item 4.2 -").
_OUTLINE_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3}){1,3}")


def _label_id(token: Token) -> str | None:
    """The letters of an identifier such as 7731, CR-1234 or INC0012345 ('' for a bare
    number); None when the token is no identifier."""
    if token.kind == "NUM":
        value = token.value
        return "" if isinstance(value, Decimal) and value == value.to_integral_value() \
            and value >= 0 and "," not in token.text or _OUTLINE_NUMBER.fullmatch(
                token.text) else None
    if token.kind != "NAME" or "." in token.text:
        return None
    match = _LABEL_ID.fullmatch(token.text)
    return match.group(1).lower() if match else None


def _label_end(tokens: list[Token], start: int) -> int | None:
    """Where a label (see ``P.LABEL_WORDS``) that starts at ``start`` ends, or None."""
    i, worded = start, False
    while i < len(tokens) and i - start < 8:
        token = tokens[i]
        if token.kind == "WORD":
            if token.text not in _LABEL_FIRST:
                break
            length = next((n for n in (3, 2, 1)
                           if all(t.kind == "WORD" for t in tokens[i:i + n])
                           and tuple(t.text for t in tokens[i:i + n]) in _LABEL_PHRASES), None)
            if length is None:
                break
            i, worded = i + length, True
            continue
        letters = _label_id(token)
        if letters is None or not (worded or (letters,) in _LABEL_PHRASES
                                   or _TRACKER_KEY.fullmatch(str(token.value))):
            break
        i, worded = i + 1, True
        if [t.text for t in tokens[i:i + 3:2]] == ["(", ")"] and tokens[i + 1].text \
                in _STEP_LETTERS:
            i += 3  # "Problem 2(b):": the part of a numbered item
    if worded and [t.text for t in tokens[i:i + 1]] == ["for"]:
        team = i + 1 + (i + 1 < len(tokens) and tokens[i + 1].text == "the")
        end = team
        while end < len(tokens) and end - team < 3 and tokens[end].text in _TEAM_WORDS:
            end += 1
        if end > team:
            i = end  # "Action item for network:", "Task for the NOC team:"
    return i if worded and i > start else None


# What announces the request after a colon: "Kindly:", "Requested actions:", "Please do the
# following:", "Kindly proceed as follows:", "Actions required:".
_ANNOUNCING = frozenset({"kindly", "please", "proceed", "as", "follows", "the", "following",
                         "do", "requested", "required", "actions", "action", "steps", "tasks",
                         "carry", "out", "perform", "execute", "complete", "are", "is",
                         "in", "order", "sequence", ",", "two", "things"})
_ANNOUNCING_WORDS = 8


# Who a ticket is from: "Ticket INC-3310 from Felix:", "Ticket 7730, raised by Sam."
_FILED = frozenset({"raised", "requested", "opened", "filed", "logged", "submitted", "created",
                    "reported"})


def _filed_by(tokens: list[Token], end: int, stop: int | None = None) -> int:
    """Where a label that ends at ``end`` ends with whom it is from said after it ("from
    Felix", ", raised by Sam"): one or two words the grammar gives no meaning, up to a
    label's end, a comma or ``stop``; ``end`` when nothing such follows."""
    at = end + (end < len(tokens) and tokens[end].text == ",")
    if at < len(tokens) and tokens[at].text in _FILED:
        at += 1
    if at >= len(tokens) or tokens[at].text not in ("from", "by"):
        return end
    names = at + 1
    while names < len(tokens) and names - at <= 2 and tokens[names].kind == "WORD" \
            and not _grammar_word(tokens[names].text):
        names += 1
    closed = names == stop or (stop is None and names < len(tokens) and (
        _is_label_end(tokens[names]) or tokens[names].text == ","))
    return names if names > at + 1 and closed else end


def _is_label_end(token: Token) -> bool:
    return token.text in _LABEL_ENDS and token.kind in ("PUNCT", "WORD")


def _without_label(tokens: list[Token]) -> list[Token]:
    """The request without a leading label ("Ticket 7731:", "[CR-1234]") or a bracketed one
    at its very end ("... (ticket 7731)"); the tokens unchanged when there is none."""
    if tokens and tokens[0].kind == "PUNCT" and tokens[0].text == "(":
        end = _label_end(tokens, 1)
        if end is not None and end < len(tokens) and tokens[end].text == ")":
            rest = tokens[end + 1:]
            if rest and _is_label_end(rest[0]):
                rest = rest[1:]
            tokens = rest or tokens
    else:
        lead = 2 if [t.text for t in tokens[:2]] == ["as", "per"] else int(
            bool(tokens) and tokens[0].text == "per")  # "Per CHG-8820, ...": whose it is
        end = _label_end(tokens, lead)
        if end is not None:
            end = _filed_by(tokens, end)
        if end is not None and end + 1 < len(tokens) and (
                _is_label_end(tokens[end]) or lead and tokens[end].text == ","):
            tokens = tokens[end + 1:]
        elif end is not None and end < len(tokens) and tokens[end].text == "step":
            tokens = tokens[end:]  # "CHG-4471 step 2: ...": the step, numbered as it is
        elif tokens and tokens[0].text in _ANNOUNCING:
            end = next((i for i, t in enumerate(tokens[:_ANNOUNCING_WORDS + 1])
                        if t.text not in _ANNOUNCING), 0)
            if end and end + 1 < len(tokens) and tokens[end].text == ":":
                tokens = tokens[end + 1:]  # "Kindly proceed as follows: ..."
    tail = len(tokens)
    while tail and tokens[tail - 1].kind == "PUNCT" and tokens[tail - 1].text in _SENTENCE_ENDS:
        tail -= 1
    last = max((i for i in range(tail) if tokens[i].kind == "PUNCT"
                and tokens[i].text in _SENTENCE_ENDS), default=None)
    if last is not None and tokens[last + 1].text in _LABEL_FIRST:
        end = _label_end(tokens, last + 1)  # "... ? Ticket INC-7730, raised by Sam."
        if end is not None and _filed_by(tokens, end, tail) == tail:
            return tokens[:last + 1]
    if tail > 2 and tokens[tail - 1].text == ")":
        opening = max((i for i in range(tail - 1) if tokens[i].text == "("), default=None)
        if opening and _label_end(tokens, opening + 1) == tail - 1:
            tokens = tokens[:opening] + tokens[tail:]
    return tokens


def _without_discourse_right(tokens: list[Token]) -> list[Token]:
    """A sentence opened with "right" as speech opens it ("Right, remove X", "um, right, take
    X out", "right we need ..."): it marks the start, and says nothing of depth. Only before
    anything but a place ("right under S, ..." is "directly under"), a time ("right now") or
    more of a phrase ("right away")."""
    def opened(sentence: list[Token], _after: bool) -> list[Token]:
        out: list[Token] = []
        opening = True  # only fillers and commas so far
        for i, token in enumerate(sentence):
            if opening and token.text == "right" and (
                    i + 1 == len(sentence) or sentence[i + 1].text not in _RIGHT_GOES_ON):
                continue
            out.append(token)
            opening = opening and (token.text == "," or token.text in _FILLER_WORDS)
        return out

    return _per_sentence(tokens, opened)


# What "right" is part of when it is followed by one of these: "right under", "right now".
_RIGHT_GOES_ON = frozenset({"under", "below", "beneath", "underneath", "inside", "in", "into",
                            "within", "on", "at", "off", "after", "before", "next", "now",
                            "away", "there", "here", "down", "up", "above", "from", "to",
                            "side", "hand", "most", "-", "one", "level"})
_FILLER_WORDS = frozenset(f for f in P.FILLERS if " " not in f)

_STEP_ENDS = frozenset({":", ")", "-", "."})
_ROMAN = {1: "i", 2: "ii", 3: "iii", 4: "iv", 5: "v", 6: "vi", 7: "vii", 8: "viii"}
# A letter's closing: "Kind regards, Alice", "Many thanks, Bob", "Best, the NOC team".
_SIGNOFFS = tuple(tuple(p.split()) for p in sorted(
    ("kind regards", "best regards", "warm regards", "regards", "best wishes", "many thanks",
     "thanks", "thank you", "cheers", "best", "sincerely", "yours sincerely",
     "yours faithfully", "yours truly", "all the best", "thanks in advance", "with thanks",
     "thanks and regards", "thanks & regards", "br", "rgds", "best rgds", "kind rgds",
     "thank you for your support", "thanks for your support", "thank you for your help",
     "thanks for your help", "thank you in advance", "thx", "thnx", "thks", "tnx", "tx",
     "ty", "tia", "many thx", "ta", *P.LOANED_CLOSINGS),
    key=lambda p: -len(p.split())))
_SIGNATURE_WORDS = 4
_SIGNOFF_FIRST = frozenset(closing[0] for closing in _SIGNOFFS)
# Words a team's name is made of ("Network Operations", "Capacity Planning"), known to the
# grammar for other uses but only a name after a closing.
_TEAM_WORDS = frozenset({"network", "operations", "ops", "capacity", "planning", "engineering",
                         "infrastructure", "noc", "team"})


def _without_signoff(tokens: list[Token]) -> list[Token]:
    """The request without a closing and signature after its last sentence ("... Kind
    regards, Alice"): only plain words may follow the closing (a name, "the NOC team"), never a
    node name, a number or a word of the grammar's own."""
    end = len(tokens)
    while end and tokens[end - 1].text in (".", "!"):  # "... Kind regards."
        end -= 1
    start = end
    while start and (tokens[start - 1].text not in (".", "!", "?", ";") or _initial(tokens,
                                                                                  start - 1)):
        start -= 1  # "Yours faithfully, J. Smith": an initial's full stop ends no sentence
    if start == 0 or start == end:
        return tokens
    if tokens[start].text not in _SIGNOFF_FIRST:
        return tokens
    words = [t.text for t in tokens[start:]]
    closing = next((c for c in _SIGNOFFS if tuple(words[:len(c)]) == c), None)
    if closing is None:
        return tokens
    rest = [t for t in tokens[start + len(closing):] if t.text not in (",", ".", "!", "-", "(", ")")
            and not (t.kind == "NUM" and _label_id(t) == "")]  # "TAC Tier 2", "John (TAC)"
    if len(rest) > _SIGNATURE_WORDS or not _someone(rest) \
            or any(t.text in P.HEDGES for t in rest):
        return tokens
    return tokens[:start]


_SIGNATURE_DASHES = frozenset({"-", "--", "—", "–"})


def _without_dash_signature(tokens: list[Token]) -> list[Token] | None:
    """The request without a signature a dash leads, after its last sentence or a closing
    ("... -JT", "... Thx. — Dana"): a few words written with a capital that may only name
    someone; None when there is none."""
    end = len(tokens)
    while end and tokens[end - 1].text in (".", "!"):
        end -= 1
    last = tokens[end - 1] if end else None
    if last is not None and last.kind == "WORD" and last.text[:1] == "-" \
            and last.text[1:].isalpha() and 1 <= len(last.text) - 1 <= 3:
        start, name = end - 1, [Token("WORD", last.text[1:], str(last.value)[1:])]  # "-JT"
    else:
        start = next((i for i in range(end - 1, max(end - 5, 0) - 1, -1)
                      if tokens[i].text in _SIGNATURE_DASHES), None)
        if start is None:
            return None
        name = [t for t in tokens[start + 1:end] if t.text != "."]
    before = tokens[start - 1].text if start else ""
    if not name or len(name) > _SIGNATURE_WORDS or not all(map(_signed_name, name)) \
            or before not in (".", "!", "?") and before not in _SIGNOFF_FIRST:
        return None
    return tokens[:start]


def _signed_name(token: Token) -> bool:
    """A word a signature may be: written with a capital, and no word netmend knows or one
    that may say how or whether a request is meant ("- Test", "-nvm", "- Maybe")."""
    return token.kind == "WORD" and str(token.value)[:1].isupper() and not _known(token.text) \
        and token.text not in P.CRITICAL and token.text not in P.HEDGES \
        and token.text not in context.CARRIES


def _someone(words: list[Token]) -> bool:
    """Whether ``words`` may only name someone (a name, a team) in a letter's opening or
    closing: plain words, none of the grammar's own but a team's ("Network Team")."""
    return all(t.kind == "WORD" and (t.text in _TEAM_WORDS or not (
        t.text in P.LEXICON or t.text in P.KIND_WORDS)) for t in words)


def _initial(tokens: list[Token], at: int) -> bool:
    """Whether the full stop at ``at`` follows an initial ("J. Smith"; not the unit of "to
    40G.")."""
    return tokens[at].text == "." and at > 0 and tokens[at - 1].kind == "WORD" \
        and len(tokens[at - 1].text) == 1 and tokens[at - 1].text.isalpha() \
        and not (at > 1 and tokens[at - 2].kind == "NUM")


def _without_salutation(tokens: list[Token]) -> list[Token]:
    """The request without a letter's opening ("Dear Network Team, ...", "Dear colleagues -
    ..."): "dear" and up to four plain words (a name, a team), never a node name, a number,
    a word of the grammar's own or one that may say how or whether, then a comma, dash or
    colon."""
    end = next((i for i, t in enumerate(tokens[:_SIGNATURE_WORDS + 2]) if i
                and t.text in (",", "-", ":")), None)
    if end is None or end + 1 >= len(tokens):
        return tokens
    if tuple(t.text for t in tokens[1:end]) in _ANYONE:
        return tokens[end + 1:]  # "Dear Sir or Madam,": whoever reads it
    if not _someone(tokens[1:end]) or not _quiet(tokens[1:end]):  # "Dear Service simulate Desk,"
        return tokens
    return tokens[end + 1:]


# A letter's opening to whoever reads it: "Dear Sir or Madam", "Dear Sir/Madam", "Dear Sirs".
_ANYONE = frozenset({("sir", "or", "madam"), ("madam", "or", "sir"), ("sir", "/", "madam"),
                     ("sir", "madam"), ("sirs",), ("sir",), ("madam",), ("sir", "and", "madam"),
                     ("sirs", "and", "madams")})


def _step_marker(tokens: list[Token], i: int, number: int, dotted: bool = False) -> int:
    """How many tokens at ``i`` number the request's step ``number`` ("Step 2:", "2)",
    "(2)"), or 0. ``dotted``: the steps are numbered "1." and the first one was, so a "2."
    followed by a word is the next even without a full stop before it ("1. remove X  2. list
    ...": the spaces that set it apart are not tokens)."""
    def numbered(at: int) -> bool:  # "2", "b" or "ii" for the second step ("(b) ...", "ii) ...")
        tok = tokens[at] if at < len(tokens) else None
        return tok is not None and (tok.kind == "NUM" and tok.text == str(number) or (
            tok.kind == "WORD" and P.NUMBER_WORDS.get(tok.text) == number) or (
            tok.kind == "WORD" and tok.text in (chr(ord("a") + number - 1) if number <= 26
                                                else None, _ROMAN.get(number))))

    if tokens[i].text == "step" and numbered(i + 1) and i + 2 < len(tokens) \
            and tokens[i + 2].text in _STEP_ENDS:
        return 3
    if tokens[i].text.lower() == f"step{number}" and i + 1 < len(tokens) \
            and tokens[i + 1].text in _STEP_ENDS:  # "step1: ...; step2: ..."
        return 2
    if tokens[i].text == "(" and numbered(i + 1) and i + 2 < len(tokens) \
            and tokens[i + 2].text == ")":
        return 3
    if numbered(i) and i + 1 < len(tokens) and tokens[i + 1].text == ")" \
            and not (i and tokens[i - 1].text == "("):
        return 2
    if numbered(i) and i + 1 < len(tokens) and tokens[i + 1].text == "." \
            and (i == 0 or tokens[i - 1].text in (".", ";") or dotted and tokens[i].kind == "NUM"
                 and i + 2 < len(tokens) and tokens[i + 2].kind == "WORD"):
        return 2  # "1. Remove X. 2. List ..."
    return 0


# Words that say how or whether a request is meant: a purpose made of them is kept (refused).
_MANNER = frozenset({"test", "testing", "draft", "dry", "simulation", "trial", "demo", "rehearsal",
                     "practice", "hypothetical", "pretend", "exercise", "what-if", "sandbox"})
_PURPOSE_WORDS = 5
_PURPOSE_LEADS = tuple(tuple(p.split()) for p in (
    # what only ever leads a purpose or a reason
    "in order that", "in order to", "so that", "pursuant to", "in accordance with",
    "in connection with", "in view of", "for the sake of", "on account of", "because of",
    "due to",
    "for the purposes of the", "for the purpose of the", "in preparation for the",
    "in preparation for", "with a view to", "as part of the", "as part of", "owing to the",
    "owing to", "for the", "for my", "for our", "for a", "for an", "ahead of the",
    "in advance of the", "prior to the", "before the", "before we", "per", "as per", "per the",
    "as per the", "in line with the", "in line with", "in support of the", "in support of",
    "to"))
# leads that may also say where or when a request applies ("for the ports of S, ...", "before
# the removal, ..."): the words after them must name nothing the grammar knows
_STRICT_LEADS = frozenset(p for p in _PURPOSE_LEADS if p[0] in ("for", "before", "prior")
                          and len(p) == 2 or p in (("ahead", "of", "the"), ("to",),
                                                   ("in", "advance", "of", "the")))
_PURPOSE_FIRST = frozenset(p[0] for p in _PURPOSE_LEADS)
# How many words a purpose said first may have after its lead: a strict lead's few, as its
# words must name nothing; any other's as a clause of its own ("As part of the capacity
# expansion planned for the next budget cycle, ...").
_REASON_WORDS = 12
_LEAD_WORDS = {lead: _PURPOSE_WORDS if lead in _STRICT_LEADS else _REASON_WORDS
               for lead in _PURPOSE_LEADS}


def _without_purpose(tokens: list[Token]) -> list[Token]:
    """A purpose said first ("For the migration, ...", "For the spine review, ..."): why the
    request is made, not what it asks. Only "for the" and a few words ending on one the
    grammar does not know (so "for the ports of S, ..." and "for the switches, ..." stay), no
    name or number among them, then a comma; never a word that says how or whether it is
    meant ("for the test, ...")."""
    tokens = _without_purpose_tail(tokens)
    if not tokens or tokens[0].text not in _PURPOSE_FIRST:
        return tokens
    said = _lead_at(tokens, 0, _PURPOSE_LEADS)
    if said is None or len(tokens) < len(said) + 2:
        return tokens
    lead = len(said)
    comma = next((i for i, t in enumerate(tokens[:lead + _LEAD_WORDS[said] + 1])
                  if t.text == ","), None)
    if comma is None or comma <= lead or comma + 1 >= len(tokens):
        return tokens
    words = tokens[lead:comma]
    # "for the ..." could also say where ("for the ports of S, ..."): its last word must name
    # nothing; the other leads only ever say why
    said = tuple(t.text for t in tokens[:lead])
    if said == ("to",) and (not words or words[0].text in _PLACE_STARTS
                            or words[0].text in P.KIND_WORDS or words[0].text in P.NUMBER_WORDS):
        return tokens  # "to" a place ("To each agg block, ..."), not "to identify ..."
    ok = _purpose_words(words) if said in _STRICT_LEADS else _why_words(words)
    return tokens[comma + 1:] if ok else tokens


def _lead_at(tokens: list[Token], at: int, leads: tuple[tuple[str, ...], ...]
             ) -> tuple[str, ...] | None:
    """The first of ``leads`` said at ``at`` (longer leads come before their prefixes)."""
    said = tuple(t.text for t in tokens[at:at + max(map(len, leads))])
    return next((lead for lead in leads if said[:len(lead)] == lead), None)


def _why_words(words: list[Token]) -> bool:
    """Words a lead that only ever gives a reason ("in order that", "in accordance with") may
    be followed by: plain words, none that says how or whether the request is meant or shapes
    its answer, and no set ("per switch, ...", "as per each agg block, ...", "due to the
    ports, ...")."""
    return bool(words) and all(
        t.kind in ("WORD", "POSS") and t.text not in _MANNER and t.text not in P.CRITICAL
        or _label_id(t) is not None and i and words[i - 1].text in P.LABEL_WORDS
        for i, t in enumerate(words)) and not (
            words[-1].text in P.KIND_WORDS and (len(words) == 1 or words[-2].text
                                                not in P.DETERMINERS)) \
        and not _shapes_answer(words) \
        and not any(t.text in P.KIND_WORDS and t.text not in _KIND_SG_WORDS for t in words)


_PLACE_STARTS = frozenset({"the", "a", "an", "each", "every", "all", "its", "their", "this",
                           "that", "these", "those", "any", "some", "it", "them"})


def _purpose_words(words: list[Token]) -> bool:
    """Words a purpose may be made of: plain words, none that says how or whether the request
    is meant, the last one a word the grammar does not know (so it names no set or node)."""
    if not words or any(not (t.kind == "WORD" or t.kind == "NAME" and _PERIOD.fullmatch(t.text))
                        or t.text in _MANNER or t.text in P.CRITICAL or t.text in _PARTS
                        or t.text in P.PLANNED and str(t.value)[:1].isupper() for t in words):
        return False  # (a plan said with a capital starts a sentence: "... plan Scheduled")
    last, before = words[-1].text, words[-2].text if len(words) > 1 else ""
    if before and P.LEXICON.get(last, frozenset()) <= _NOUNS_OF_A_PURPOSE and (
            not _grammar_word(before) or before in _KIND_SG_WORDS
            or P.LEXICON.get(before) == frozenset({"CAP"})) and not any(
                x.cats & _SHAPES_ANSWER - {"CAP"} for x in lex(words[:-1])):
        return True  # "for the utilisation report", "for the asset register", "for the
        # superblock inventory", "for the capacity model": a compound noun ("for the ports
        # report" names a set)
    return not _grammar_word(last)


# Words that say a part of something: "for this part of the fabric", "for the east side of
# the hall" may say which nodes, so no purpose holds one.
_PARTS = frozenset({"part", "parts", "portion", "portions", "subset", "side", "half",
                    "section", "segment", "slice", "area", "zone", "region", "corner", "row",
                    "rows", "end"})


# Words of the grammar a purpose may end on as a noun, after a word that says which.
_NOUNS_OF_A_PURPOSE = P.NOUN_VERBS | frozenset({"ADD", "GRAPH", "COUNT", "NUMBER", "RANK",
                                                 "CALL", "RETURN"})
# A period a purpose may name: "for the Q3 capacity plan", "for FY27".
_PERIOD = re.compile(r"(?i)q[1-4]|h[12]|fy\d{2}(?:\d{2})?")


def _grammar_word(word: str) -> bool:
    """A word (or a phrase of one word) the grammar gives a meaning: a category, a kind, a
    critical word, a unit or a number."""
    return (word in P.LEXICON or word in P.KIND_WORDS or word in P.CRITICAL
            or word in _UNIT_WORDS or word in P.NUMBER_WORDS)


def _without_purpose_tail(tokens: list[Token]) -> list[Token]:
    """The same said last in a sentence: "... is requested for the change record.", "I need
    every port in A for the capacity review. Can you list them?"."""
    if not any(t.text in _PURPOSE_TAIL_WORDS for t in tokens) and not any(
            (t.text == "," or t.text in _ASKED_FOR) and u.text in _WHY_FIRST
            for t, u in itertools.pairwise(tokens)):
        return tokens
    return _per_sentence(tokens, lambda sentence, _after: _without_last_purpose(sentence))


_PURPOSE_ARTICLES = frozenset({"the", "a", "an", "our", "my", "this"})


# A check said last, the request's own purpose: "... list the child nodes of S to confirm."
_CHECK_TAILS = tuple(tuple(f"to {verb}{what}".split()) for verb in (
    "confirm", "verify", "check", "double-check", "double check", "validate", "sanity-check",
    "sanity check") for what in ("", " it", " this", " that", " things"))
_CHECK_LAST = frozenset(tail[-1] for tail in _CHECK_TAILS)


def _without_last_purpose(tokens: list[Token]) -> list[Token]:
    """One sentence's tokens without a purpose said last ("for the capacity review", "to
    confirm", "..., in line with the migration standard")."""
    texts = {t.text for t in tokens}
    reason = _reason_said_last(tokens) if "," in texts or not texts.isdisjoint(_ASKED_FOR) \
        else None
    if reason is None and not texts.isdisjoint(_CONFORM):
        reason = _conformity_said_last(tokens)
    if reason is not None:
        return tokens[:reason]
    end = len(tokens)
    if end > 3 and tokens[-2].text == "for" and tokens[-1].text in _AUDIENCES:
        return tokens[:end - 2 - (tokens[end - 3].text == ",")]  # "..., for finance"
    said_before = next((i for i in range(max(1, end - _PURPOSE_WORDS - 3), end - 2)
                        if tokens[i].text == "before" and tokens[i + 1].text in ("we", "i")),
                       None) if "before" in texts else None
    if said_before is not None and _purpose_words(tokens[said_before + 2:]):
        return tokens[:said_before - (tokens[said_before - 1].text == ",")]  # "... before we
        # shift traffic": what the asker does next, not a step of the request
    tail = 0
    if end and tokens[-1].text in _CHECK_LAST:
        said = tuple(t.text for t in tokens[-4:])
        tail = next((len(c) for c in _CHECK_TAILS if said[len(said) - len(c):] == c), 0)
    if tail and end > tail + 2:
        return tokens[:end - tail - (tokens[end - tail - 1].text == ",")]
    if not any(t.text in _OCCASIONS for t in tokens[max(0, end - _PURPOSE_WORDS - 3):end]):
        return tokens
    for start in range(max(0, end - _PURPOSE_WORDS - 3), end - 2):
        lead = next((len(said) for said in _LONG_OCCASIONS
                     if tuple(t.text for t in tokens[start:start + len(said)]) == said), 1)
        if tokens[start].text in _OCCASIONS and start > 1 and start + lead < end \
                and tokens[start + lead].text in _PURPOSE_ARTICLES \
                and _purpose_words(tokens[start + lead + 1:end]):
            return tokens[:_purpose_said_of(tokens, start)]
    return tokens


# Leads that only ever give a reason, said after a comma at a sentence's end: "..., in line
# with the migration standard", "..., in order that they may be reconciled against the
# patching records", "..., pursuant to the audit findings".
_WHY_LEADS = tuple(lead for lead in _PURPOSE_LEADS if lead not in _STRICT_LEADS)
_WHY_FIRST = frozenset(lead[0] for lead in _WHY_LEADS)


def _reason_said_last(tokens: list[Token]) -> int | None:
    """Where a sentence ends before a reason said last after a comma, or after the words that
    ask for it ("... is requested in support of the sizing work"), or None."""
    for at in range(1, len(tokens) - 2):
        if not (tokens[at].text == "," or tokens[at].text in _ASKED_FOR) \
                or tokens[at + 1].text not in _WHY_FIRST:
            continue
        lead = _lead_at(tokens, at + 1, _WHY_LEADS)
        words = tokens[at + 1 + len(lead):] if lead else []
        if lead and len(words) <= _REASON_WORDS and _why_words(words):
            return at + (tokens[at].text != ",")
    return None


_ASKED_FOR = frozenset({"requested", "required", "needed", "sought"})
# What a record is brought in line with, said last: "... to match the contract", "... so the
# register matches the invoice", "... to align with the purchase order".
_CONFORM = frozenset({"match", "matches", "reflect", "reflects", "mirror", "mirrors", "align",
                      "aligns", "agree", "agrees", "tally", "tallies"})
_CONFORM_WORDS = 8
_NAMING = frozenset({"name", "names", "named", "called", "suffix", "prefix", "pattern", "label",
                     "labels", "id", "ids"})


def _conformity_said_last(tokens: list[Token]) -> int | None:
    """Where a sentence ends before what the request brings a record in line with ("to match
    the contract", "so the register matches the invoice"), or None. Only plain words, none a
    kind, a word that could change what is asked, a name or a number."""
    verb = next((i for i in range(len(tokens) - 1, max(1, len(tokens) - _CONFORM_WORDS), -1)
                 if tokens[i].text in _CONFORM), None)
    if verb is None or not all(t.kind == "WORD" and t.text.isalpha()
                               and t.text not in P.KIND_WORDS and t.text not in P.CRITICAL
                               and t.text not in _MANNER and t.text not in _NAMING
                               for t in tokens[verb + 1:]):
        return None  # "... so the names match c3" is a filter
    if tokens[verb - 1].text == "to":
        start = verb - 1
    else:
        start = next((i for i in range(verb - 1, max(0, verb - 5), -1)
                      if tokens[i].text == "so"), None)
        if start is None or not all(t.kind == "WORD" and t.text not in P.KIND_WORDS
                                    and t.text not in P.CRITICAL and t.text not in _NAMING
                                    for t in tokens[start + 1:verb]):
            return None
    if start < 2:
        return None
    return start - (tokens[start - 1].text == ",")


# What may say of the request that it is for a purpose: "- it's for the disposal
# certificate", "- needed for the maintenance quote", "; this is for the audit".
_FOR_SAID_OF = (("i", "need", "it"), ("we", "need", "it"), ("need", "it"), ("need", "this"),
                ("need",),
                ("it", "is"), ("this", "is"), ("that", "is"), ("they", "are"), ("these", "are"),
                ("it", "is", "needed"), ("this", "is", "needed"), ("needed",), ("required",),
                ("it", "is", "required"), ("this", "is", "required"))
_PURPOSE_BOUNDS = frozenset({",", "-", "--", ":", ";"})


def _purpose_said_of(tokens: list[Token], start: int) -> int:
    """Where the request ends before a purpose said last at ``start``: before a comma, or
    before a boundary and words that say the request is for it ("... - it's for the audit")."""
    for said in _FOR_SAID_OF:
        at = start - len(said)
        if at >= 0 and tuple(t.text for t in tokens[at:start]) == said:
            if at == 0:
                return 0  # the sentence only says what the request is for
            if at > 1 and tokens[at - 1].text in _PURPOSE_BOUNDS:
                return at - 1
    return start - (tokens[start - 1].text == ",")


# Who a request is for, said last without an article ("..., for finance").
_AUDIENCES = frozenset({"finance", "procurement", "audit", "legal", "compliance", "security",
                        "management", "leadership", "accounting", "billing", "planning",
                        "engineering", "operations", "ops", "noc", "support", "sales"})
# What a purpose said last starts with: "for the audit", "before the change window (closes)",
# "ahead of the migration"
_OCCASIONS = frozenset({"for", "before", "ahead"})
_LONG_OCCASIONS = (("ahead", "of"), ("for", "inclusion", "in"), ("for", "use", "in"))
_PURPOSE_TAIL_WORDS = _OCCASIONS | _CHECK_LAST | _AUDIENCES | _CONFORM


def _lone_step_label(tokens: list[Token]) -> list[Token]:
    """A request that is one step of a runbook ("Step 4: remove X", "Runbook step 2 - ...",
    "Step (c): set ..."): the step's label says nothing about what is asked. Only when no
    other step is numbered in it (a second "step" leaves the request to be refused)."""
    i = 1 if tokens and tokens[0].text in ("runbook", "procedure", "plan") else 0
    if len(tokens) < i + 3 or tokens[i].text != "step":
        return tokens
    j = i + 1
    if tokens[j].text == "(" and j + 2 < len(tokens) and tokens[j + 2].text == ")":
        j += 3
    elif tokens[j].kind == "NUM" or (tokens[j].kind == "WORD" and len(tokens[j].text) == 1):
        j += 1
    else:
        return tokens
    if j >= len(tokens) or tokens[j].text not in _STEP_ENDS or any(
            t.text == "step" for t in tokens[j:]):
        return tokens
    return tokens[j + 1:]


def _without_step_numbers(tokens: list[Token]) -> list[Token]:
    """Numbered steps ("Step 1: remove X. Step 2: list ...", "1) ... 2) ...") as sentences in
    their order. Only numbers 1, 2, 3, ... in that order are steps: numbered otherwise, the
    order said and the order written would differ, and the tokens are left to be refused.
    Steps taken from a longer list may start at another number when the word "step" says
    they are steps ("Step 4 - remove X. Step 5 - list ...")."""
    marks: list[tuple[int, int]] = []
    first = 1
    if len(tokens) > 3 and tokens[0].text == "step" and tokens[1].kind == "NUM" \
            and tokens[2].text in _STEP_ENDS and tokens[1].text.isdigit():
        first = int(tokens[1].text)
    dotted = len(tokens) > 2 and tokens[0].text == "1" and tokens[1].text == "."
    i = 0
    while i < len(tokens):
        length = _step_marker(tokens, i, first + len(marks), dotted)
        if length:
            marks.append((i, length))
            i += length
        else:
            i += 1
    if not marks or marks[0][0] != 0:
        return _lone_step_label(tokens)
    out: list[Token] = []
    last = 0
    for at, length in marks:
        out += tokens[last:at]
        out.append(Token("PUNCT", "."))
        last = at + length
    return out + tokens[last:]


_CALLABLE = frozenset({"CHILD", "CAP", "PARENT", "DESC", "ANCESTOR", "NUMBER"})
_OF = _VOCABULARY_TOKENS["of"]
_IN = _VOCABULARY_TOKENS["in"]
_HAVE = _VOCABULARY_TOKENS["have"]
_CAPACITY = _VOCABULARY_TOKENS["capacity"]


def _rewritten(tokens: list[Token], match) -> list[Token]:
    """``tokens`` with each window ``match(tokens, i)`` reads at ``i`` replaced: it gives how
    many tokens it reads and what stands for them, or None; matching goes on after it."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        found = match(tokens, i)
        if found is None:
            out.append(tokens[i])
            i += 1
        else:
            length, replacement = found
            out += replacement
            i += length
    return out


def _callable(token: Token) -> bool:
    if token.kind != "WORD":
        return False
    return bool(P.LEXICON.get(token.text, frozenset()) & _CALLABLE) or (
        P.KIND_WORDS.get(token.text, ("", ""))[1] in ("PL", "SGPL"))


def _call_notation(tokens: list[Token]) -> list[Token]:
    """A noun applied to one name as in code ("children(S)", "physical_capacity_bps(P)",
    "ports(S)"): the noun of that name ("children of S"). Only a noun of what a node has
    (children, capacity, parent, a plural kind, ...) and only one name in the brackets."""
    def called(tokens: list[Token], i: int):
        window = tokens[i:i + 4]
        if (len(window) == 4 and _callable(window[0]) and window[1].text == "("
                and window[2].kind == "NAME" and window[3].text == ")"):
            return 4, [window[0], _OF, window[2]]
        return None

    return _rewritten(tokens, called)


_SINGULAR_KINDS = {tuple(text.split()) for text, (_, number) in P.KIND_WORDS.items()
                   if "SG" in number}
_SINGULAR_KIND_LENGTHS = sorted({len(words) for words in _SINGULAR_KINDS}, reverse=True)
_NODE_NOUNS = frozenset({"node", "element", "entity", "device"})
_SINGULAR_KIND_FIRST = frozenset(words[0] for words in _SINGULAR_KINDS) | _NODE_NOUNS


_PLURAL_KIND_WORDS = frozenset(text.split()[0] for text, (_, number) in P.KIND_WORDS.items()
                               if "PL" in number)
_MANY = _VOCABULARY_TOKENS["many"]


_AFTERWARDS = _VOCABULARY_TOKENS["afterwards"]


def _after_alone(tokens: list[Token]) -> list[Token]:
    """"After" with nothing after it in its clause ("..., list the children of A after";
    "After, how many switches has A?"): "afterwards", since a condition needs an object. And
    "first" that ends the first clause that names a node ("remove X first, then ...", "Dear
    team, please remove X first; ..."): the order said is the order written, so it says
    nothing more."""
    out = list(tokens)
    for i, token in enumerate(out):
        if token.text == "after" and (i + 1 == len(out) or out[i + 1].text in _SEPARATORS):
            out[i] = _AFTERWARDS
    for i in range(len(out) - 2, 0, -1):
        if out[i].text in ("after", "once") and out[i - 1].text in _SEPARATORS:
            end = _change_said_again(out, i)
            if end:  # "... and, once added, give me ...": "and afterwards give me ..."
                start = i - (out[i - 1].text == "," and i > 1 and out[i - 2].text == "and")
                out[start:end] = [_AFTERWARDS]
    # the first clause that names a node ("Dear team, please remove X first; ...")
    named = next((i for i, t in enumerate(out) if t.kind == "NAME"), None)
    first_end = None if named is None else next(
        (i for i, t in enumerate(out) if i > named and (
            t.text in _SEPARATORS or t.text == "then"
            or t.text == "and" and i + 1 < len(out) and out[i + 1].text == "then")), None)
    if first_end is not None and out[first_end - 1].text == "first" \
            and first_end + 1 < len(out) and not any(
                t.text == "then" or t.text in _SENTENCE_ENDS for t in out[:named]):
        del out[first_end - 1]
    return out


# The change an "after ..." clause may say again, by the categories of its verb or noun.
_REMOVES = frozenset({"REMOVE", "TAKE", "REMOVAL", "GONE"})
_CHANGES = (_REMOVES, frozenset({"ADD", "ADDITION", "ADDED", "NEW"}),
            frozenset({"SET", "SETP"}))
_SAID_AGAIN = frozenset({"it", "them", "that", "this", "those", "these", "so", "one"})


def _change_said_again(tokens: list[Token], at: int) -> int:
    """Where an "after" clause at ``at`` ends when it only says again the change made just
    before it ("Remove X. After removing it, count ...", "...; after the removal, list ..."):
    "after", the change's verb or noun, at most a pronoun, then a separator; 0 otherwise, and
    when the change said is not the one before (then it is read, or refused, as written)."""
    end = at + 1 + (tokens[at + 1].text == "the")
    if end >= len(tokens):
        return 0
    said = lex([tokens[end]])
    change = next((c for c in _CHANGES if said and said[0].cats & c), None)
    end += 1
    if end < len(tokens) and tokens[end].text in _SAID_AGAIN:
        end += 1
    if change is None or end >= len(tokens) or tokens[end].text not in _SEPARATORS:
        return 0
    before = lex(tokens[:at - 1])
    last = next((x for x in reversed(before) if x.cats & (_VERB_CATS | change)), None)
    if last is not None and not last.cats & change and any(
            last.cats & other for other in _CHANGES):
        raise AmbiguousRequest(  # "Remove X. Once added, count ...": added when?
            f"'{tokens[at].text} {' '.join(t.text for t in tokens[at + 1:end])}' says again a "
            "change the request does not make", expected="the change said once, then what to "
            "do after it")
    return end + (tokens[end].text == ",") if last is not None and last.cats & change else 0


_METRIC_AGAIN = tuple(tuple(p.split()) for p in (
    "in terms of capacity", "in terms of speed", "in terms of bandwidth", "capacity-wise",
    "speed-wise", "bandwidth-wise", "capacity wise", "speed wise", "bandwidth wise"))
_SAYS_CAPACITY = frozenset({"CAP", "HOWFAST", "FASTEST", "SLOWEST"})


def _capacity_said_again(tokens: list[Token]) -> list[Token]:
    """"How fast is port P, capacity-wise?": a capacity said once more after a word that
    already asks about it goes (with its comma); said alone it stays, and the request is read
    (or refused) as written."""
    texts = [t.text for t in tokens]
    for phrase in _METRIC_AGAIN:
        at = next((i for i in range(len(texts)) if tuple(texts[i:i + len(phrase)]) == phrase),
                  None)
        if at is None:
            continue
        start = at - (at > 0 and texts[at - 1] == ",")
        rest = tokens[:start] + tokens[at + len(phrase):]
        said = [x.cats for x in lex(rest)]
        if any(cats & _SAYS_CAPACITY for cats in said):
            return rest
        if any("ADDUP" in cats for cats in said):  # "what do the ports of S add up to,
            # capacity-wise?": what they add up to in capacity
            return [*tokens[:start], _IN, _CAPACITY, *tokens[at + len(phrase):]]
    return tokens


_THEN_AUXES = frozenset({"is", "are", "should", "must", "will", "shall", "can", "could", "would"})
_LATE_THENS = frozenset({"then", "subsequently", "thereafter"})
# Verbs whose past participle may end a passive clause said with its "be" left out ("could X
# be added, and the children of A then ranked by capacity?").
_PARTICIPLE_CATS = frozenset({"RANK", "LISTED", "COUNTED", "GONE", "ADDED", "SETP"})


def _participle(token: Token) -> bool:
    return token.text.endswith("ed") and not _PARTICIPLE_CATS.isdisjoint(
        P.LEXICON.get(token.text, ()))


def _then_said_late(tokens: list[Token]) -> list[Token]:
    """"...; the ports in S should then be counted", "... are then to be listed": "then"
    inside a clause's verb says the clause comes next; it moves to the clause's start.
    "First X. Second, Y": "second" after a "first" that starts the request is "then"."""
    out = list(tokens)
    for i in range(len(out) - 2, 0, -1):
        # "... should then be counted", and with the modal said once for both clauses:
        # "could X be removed, and the children of A then be listed?", "... that the
        # nodes under A subsequently be ranked"
        if out[i].text in _LATE_THENS and (out[i + 1].text in ("be", "to") and (
                out[i - 1].text in _THEN_AUXES
                or out[i + 1].text == "be" and out[i - 1].text not in _SEPARATORS)
                or _participle(out[i + 1]) and out[i - 1].text not in _SEPARATORS):
            start = i - 1
            while start and out[start - 1].text not in _SEPARATORS and out[start - 1].text != "and" \
                    and not (start > 1 and out[start - 2].text == "and"
                             and out[start - 1].text == "that"):  # "and that X then be ..."
                start -= 1
            if start:
                out[start:i + 1] = [out[i], *out[start:i]]
    first = next((i for i, t in enumerate(out) if t.text in ("first", "firstly") and (
        i == 0 or out[i - 1].text in _SEPARATORS)), None)
    if first is not None:  # "First remove X. Second, ...", "two steps - first ..., second ..."
        for i in range(first + 2, len(out) - 1):
            if out[i].text == "second" and out[i - 1].text in _SEPARATORS \
                    and (out[i + 1].text in (",", ":") or out[i + 1].text in _LEXICON_VERBS):
                out[i] = _THEN
    return out


_LEXICON_VERBS = frozenset(text for text, cats in P.LEXICON.items()
                           if " " not in text and cats & _VERB_CATS)
# A state said in the progressive, as many Englishes do ("which switches is D having?")
_PROGRESSIVE = {"having": ("has", "have"), "containing": ("contains", "contain"),
                "needing": ("needs", "need"), "holding": ("holds", "hold"),
                "requiring": ("requires", "require")}


_BETWEEN = frozenset({"directly", "still", "now", "currently", "actually", "really"})


def _many_englishes(tokens: list[Token]) -> list[Token]:
    """"How many switches is D having?", "what X is directly containing": "is" / "are" and a
    verb of state in -ing say what it does now ("has", "contains"). "Please to delete X":
    "to" between "please" and a verb goes."""
    out: list[Token] = []
    for i, token in enumerate(tokens):
        previous = out[-1].text if out else ""
        if token.text == "to" and previous in ("please", "kindly") and i + 1 < len(tokens) \
                and tokens[i + 1].text in _LEXICON_VERBS:
            continue
        if token.text in _PROGRESSIVE and out and out[-1].kind == "NAME":
            # asked with the node between ("what capacity is port P having?"): "does P have"
            at = len(out) - 2
            at -= at >= 0 and out[at].text in _KIND_LAST
            at -= at >= 0 and out[at].text in _KIND_FIRST_OF_TWO and out[at + 1].text in _KIND_LAST
            if at >= 0 and out[at].text in ("is", "are"):
                out[at] = _VOCABULARY_TOKENS["does" if out[at].text == "is" else "do"]
                verb = _PROGRESSIVE[token.text][1]
                out.append(_VOCABULARY_TOKENS.get(verb, Token("WORD", verb, verb)))
                continue
        if token.text in _PROGRESSIVE and previous in ("is", "are") or (
                token.text in _PROGRESSIVE and previous in _BETWEEN and len(out) > 1
                and out[-2].text in ("is", "are")):
            be = out.pop(-1 if previous in ("is", "are") else -2)
            verb = _PROGRESSIVE[token.text][be.text == "are"]
            out.append(_VOCABULARY_TOKENS.get(verb, Token("WORD", verb, verb)))
        else:
            out.append(token)
    return out


def _how_much_of_a_kind(tokens: list[Token]) -> list[Token]:
    """"How much ports has S?": "how many" before a plural kind (an amount of a kind of
    node is a count; "how much capacity" stays an amount)."""
    out = list(tokens)
    for i in range(len(out) - 2):
        if (out[i].text == "how" and out[i + 1].text == "much"
                and out[i + 2].kind == "WORD" and out[i + 2].text in _PLURAL_KIND_WORDS
                and not (i + 3 < len(out) and out[i + 3].kind == "NAME")):
            out[i + 1] = _MANY  # not of a named node: "how much switch S can carry"
    return out


_THE = _VOCABULARY_TOKENS["the"]


def _wh_switch_port(tokens: list[Token]) -> list[Token]:
    """"Which switch port P is on": a question's kind, then the kind of the name it asks
    about ("switch port" is otherwise one kind, a port). Read as "which switch the port P is
    on", only right after the question word and right before the name."""
    out = list(tokens)
    for i in range(len(out) - 3, 0, -1):
        if (out[i].text == "switch" and out[i + 1].text in ("port", "interface")
                and out[i + 2].kind == "NAME" and out[i - 1].text in ("which", "what")):
            out.insert(i + 1, _THE)
    return out


def _kind_of_asked(tokens: list[Token]) -> list[Token]:
    """"Which switch is P a port of?": the kind said of the name, last, is said before it and
    the question asks where ("which switch is port P in?"), so the kind is checked."""
    end = len(tokens)
    while end and tokens[end - 1].text in _SENTENCE_ENDS:
        end -= 1
    at = end - 3
    if at < 2 or tokens[end - 1].text != "of" or tokens[at].text not in ("a", "an") \
            or tokens[at + 1].text not in _KIND_SG_WORDS or tokens[at - 1].kind != "NAME":
        return tokens
    return [*tokens[:at - 1], tokens[at + 1], tokens[at - 1], _IN, *tokens[end:]]


def _without_single(tokens: list[Token]) -> list[Token]:
    """"Which single switch", "the single highest-capacity switch": one node of a kind is
    what "which" and "the" ask for already. Dropped only right after those words (elsewhere
    "single" is the number one: "switches with a single port")."""
    return [t for i, t in enumerate(tokens)
            if not (t.text in ("single", "sole") and i and tokens[i - 1].text in ("which", "the"))
            and not (t.text == "one" and i and tokens[i - 1].text == "the"
                     and _kind_phrase(tokens, i + 1))]  # "the one switch in A whose ..."


_HOLDS = frozenset({"have", "has", "hold", "holds", "contain", "contains", "include",
                    "includes", "house", "houses"})
_INSIDE = frozenset({"in", "inside", "within", "under", "beneath", "below", "underneath"})


def _in_it_again(tokens: list[Token]) -> list[Token]:
    """"What switches does A have in it?", "which ports does S hold inside it": where a verb of
    holding says again the node it is said of, at the end of its clause; the pronoun goes."""
    def again(tokens: list[Token], i: int):
        if tokens[i].text not in _HOLDS:
            return None
        # "... has directly under it": the depth stays with the verb
        said = 2 if i + 1 < len(tokens) and tokens[i + 1].text in _DIRECT_WORDS else 1
        window = tokens[i + said:i + said + 3]
        if len(window) >= 2 and window[0].text in _INSIDE and window[1].text in ("it", "them") \
                and (len(window) == 2 or window[2].text in _SEPARATORS):
            return said + 2, tokens[i:i + said]
        return None

    return _rewritten(tokens, again)


_DIRECT_WORDS = frozenset(text for text, cats in P.LEXICON.items()
                          if "DIRECT" in cats and " " not in text)


# Words an order ends on ("biggest first", "high to low", "in descending order", "asc").
_ORDER_WORDS = frozenset(text.split()[-1] for text, cats in P.LEXICON.items()
                         if cats & slots.ORDERS)


def _order_said_after(tokens: list[Token]) -> list[Token]:
    """"How do the ports of S rank by capacity? Biggest first.": a last sentence that only says
    an order belongs to the sentence before it, as if said after a comma."""
    end = next((i for i in range(len(tokens) - 2, max(len(tokens) - 9, 0), -1)
                if tokens[i].kind == "PUNCT" and tokens[i].text in _SENTENCE_ENDS), None)
    if end is None:
        return tokens  # no sentence ends, or the last one says more than an order could
    last = tokens[end + 1:]
    said = lex([t for t in last if not (t.kind == "PUNCT" and t.text in _SENTENCE_ENDS)])
    if not said or not all(x.cats <= slots.ORDERS | {"COMMA"} for x in said) \
            or not any(x.cats & slots.ORDERS for x in said):
        return tokens
    return [*tokens[:end], Token("PUNCT", ","), *last]


# Words that say the graph, one word each ("graph", "topology", "inventory", ...).
_GRAPH_WORDS = frozenset(w for w, cats in P.LEXICON.items() if "GRAPH" in cats and " " not in w)
_REMOVED = _VOCABULARY_TOKENS["removed"]


def _out_of_the_graph(tokens: list[Token]) -> list[Token]:
    """"Once X is out of the graph, ...", "with X having been out of the topology": a node
    said to be out of the graph is removed ("take X out of the graph" is read as it is)."""
    def out_of(tokens: list[Token], i: int):
        window = tokens[i:i + 5]
        if len(window) < 4 or window[0].text not in P.COPULAS or window[1].text != "out" \
                or window[2].text != "of":
            return None
        at = 3 + (window[3].text == "the")
        if at < len(window) and window[at].text in _GRAPH_WORDS:
            return at + 1, [window[0], _REMOVED]
        return None

    return _rewritten(_named_out_of_the_graph(tokens), out_of)


# What may come before and after a removal said as the nodes and "out of the graph" alone
# (not a comma before: "take A, B and C out of the graph" lists them).
_BEFORE_NAMED_OUT = frozenset({".", ";", "!", ":", "-", "--"})
_AFTER_NAMED_OUT = frozenset({".", ";", "!", ",", "-", "--", "then", "pls", "please", "asap"})


def _named_out_of_the_graph(tokens: list[Token]) -> list[Token]:
    """Nodes said with "out of the graph" alone, as a clause of their own ("X out of the topo
    -- then ...", "X and Y out of the graph pls"): their removal. Said after anything else
    ("the ports of S out of ...") or before more words, it stays as written."""
    def named_out(tokens: list[Token], i: int) -> tuple[int, list[Token]] | None:
        if i and tokens[i - 1].text not in _BEFORE_NAMED_OUT or tokens[i].kind != "NAME":
            return None
        end = i
        while end < len(tokens) and (tokens[end].kind == "NAME" or tokens[end].text in (
                ",", "and", "+") and end + 1 < len(tokens) and tokens[end + 1].kind == "NAME"):
            end += 1
        at = end + 2 + (end + 2 < len(tokens) and tokens[end + 2].text == "the")
        if [t.text for t in tokens[end:end + 2]] == ["out", "of"] and at < len(tokens) \
                and tokens[at].text in _GRAPH_WORDS and (
                    at + 1 == len(tokens) or tokens[at + 1].text in _AFTER_NAMED_OUT):
            return at + 1 - i, [_VOCABULARY_TOKENS["remove"], *tokens[i:end]]
        return None

    return _rewritten(tokens, named_out)


def _no_longer_in_the_graph(tokens: list[Token]) -> list[Token]:
    """The graph without a node, said as a negated state ("not in the graph anymore", "no
    longer shows up in the topology"). Said by "so" of what a removal just named ("remove X
    so it's not in the graph anymore"), it only says the removal again and goes; said with
    "should" of a named node ("X shouldn't be in the graph anymore"), it asks for the
    removal. Any other such state (of another node, reported as already so, or without a
    removal) stays as written, and its "not" refuses the request."""
    out = list(tokens)
    for i in range(len(tokens) - 3, 0, -1):
        if i + 2 >= len(out):
            continue  # cut short by a state taken out after it
        said = out[i].text
        if said == "so" and not _removal_last(lex(out[:i])):
            continue
        if said == "so":
            subject = i + 1 + (out[i + 1].text == "that")
            end = _not_in_the_graph(out, subject + 1) if subject + 1 < len(out) \
                and out[subject].text in ("it", "they") else 0
            if end:
                del out[i - (out[i - 1].text in _SEPARATORS):end]
        elif said in _MUST_NOTS and out[i - 1].kind == "NAME" and out[i + 1].text == "not":
            end = _not_in_the_graph(out, i + 1)
            if end and out[i + 2].text == "be":
                out[i:end] = [_SHOULD, _VOCABULARY_TOKENS["be"], _REMOVED]
    return out


def _not_in_the_graph(tokens: list[Token], i: int) -> int:
    """Where a negated state of being in the graph said at ``i`` ends ("is not in the graph
    anymore", "no longer shows up in the topology", "not be part of the graph"), or 0."""
    at = i + 1 if tokens[i].text in _BE_STEMS and tokens[i + 1:i + 2] and \
        tokens[i + 1].text in ("not", "no") else i
    if tokens[at].text == "not" or (tokens[at].text == "no" and tokens[at + 1:at + 2]
                                    and tokens[at + 1].text == "longer"):
        at += 1 + (tokens[at].text == "no")
    else:
        return 0
    said = [t.text for t in tokens[at:at + 7]]
    for verb in (["be"], ["show", "up"], ["shows", "up"], ["appear"], ["appears"], []):
        if said[:len(verb)] != verb:
            continue
        rest = said[len(verb):]
        place = 2 if rest[:2] == ["part", "of"] else 1 if rest[:1] in (
            ["in"], ["on"], ["within"]) else 0
        rest = rest[place:]
        the = rest[:1] == ["the"]
        if place and rest[the:the + 1] and rest[the] in _GRAPH_WORDS:
            end = at + len(verb) + place + the + 1
            end += end < len(tokens) and tokens[end].text == "anymore"
            if end == len(tokens) or tokens[end].text in _SEPARATORS:
                return end
    return 0


def _answer_made_of(tokens: list[Token]) -> list[Token]:
    """"A list could be provided of the ports of S", "could a list be produced of ...", "a count
    taken of the ports in S": the answer named, then how it is made, then what it is of; read
    as "a list of the ports of S". A modal that asks for it goes with it ("Could a list be
    provided of ...?")."""
    def made(tokens: list[Token], i: int):
        asked = tokens[i].text in _POSSIBLE and i + 2 < len(tokens) \
            and tokens[i + 1].text in ("a", "the")
        noun = i + 2 if asked else i
        if tokens[noun].text not in _ANSWER_NOUNS:
            return None
        at = noun + 1
        at += at < len(tokens) and tokens[at].text in _POSSIBLE | _MUST_NOTS
        at += at < len(tokens) and tokens[at].text == "be"
        if at + 1 < len(tokens) and tokens[at].text in _MADE and tokens[at + 1].text == "of" \
                and (tokens[at - 1].text == "be" or tokens[at].text == "taken" and not asked):
            return at + 1 - i, tokens[i + asked:noun + 1]
        return None

    tokens = _rewritten(tokens, made)
    # "Could a list of the child nodes of A be produced?": how it is made said last
    for i in range(len(tokens) - 5):
        if tokens[i].text in _POSSIBLE and tokens[i + 1].text in ("a", "the") \
                and tokens[i + 2].text in _ANSWER_NOUNS and tokens[i + 3].text == "of":
            end = next((j for j in range(i + 4, len(tokens)) if tokens[j].text in _SEPARATORS),
                       len(tokens))
            if tokens[end - 2].text == "be" and tokens[end - 1].text in _MADE:
                return [*tokens[:i], *tokens[i + 1:end - 2], *tokens[end:]]
    return tokens


_ANSWER_NOUNS = frozenset({"list", "listing", "count", "ranking", "tally", "breakdown"})
_MADE = frozenset({"provided", "produced", "supplied", "given", "compiled", "prepared",
                   "generated", "made", "taken", "drawn"})


def _list_of_said_first(tokens: list[Token]) -> list[Token]:
    """"A full list of the switches in the graph, please.": a sentence that opens by naming
    a list of something asks for that list ("list the switches in the graph"), as one with
    a name in it already is read. A later sentence that only wishes for a list ("...? A
    list would be appreciated.") says the answer's form, as "Return a list." does."""
    out = tokens
    texts = [t.text for t in tokens]
    found = [i for i, text in enumerate(texts) if text == "list"]
    for i in reversed(found):
        if i and texts[i - 1] not in _BEFORE_A_LIST:
            continue  # "return a list of ...", "give me the list": not a sentence's opening
        start = i
        while start and i - start < 3 and texts[start - 1] not in _SENTENCE_ENDS:
            start -= 1
        if start and texts[start - 1] not in _SENTENCE_ENDS:
            continue  # more than an article and an adjective before it
        opening = tuple(texts[start:i])
        if opening not in _LIST_OPENINGS:
            continue
        end = next((j for j in range(i, len(texts)) if texts[j] in _SENTENCE_ENDS), len(texts))
        if texts[i + 1:i + 2] == ["of"]:
            out = [*out[:start], _LIST, *out[i + 2:]]
        elif start and tuple(texts[i + 1:end]) in _LIST_WISHES:
            out = [*out[:start], *_RETURN_A_LIST, *out[end:]]
    return out


_LIST_OPENINGS = frozenset((*article, *adjective) for article in ((), ("a",), ("the",))
                           for adjective in ((), ("full",), ("complete",)))
_BEFORE_A_LIST = frozenset(opening[-1] for opening in _LIST_OPENINGS if opening) | _SENTENCE_ENDS
_LIST_WISHES = frozenset({("please",), ("would", "be", "appreciated"),
                          ("would", "be", "much", "appreciated"), ("would", "be", "helpful"),
                          ("is", "needed"), ("is", "required")})
_LIST = _VOCABULARY_TOKENS["list"]
_RETURN_A_LIST = [_VOCABULARY_TOKENS[w] for w in ("return", "a", "list")]


def _value_said_before(tokens: list[Token]) -> list[Token]:
    """"P is now 100G - update its capacity", "P should be twenty-five gigabits, update it to
    that", "Port P should read 40,000 Mbps - update it": a new capacity said of one named
    node, then the update asked with a pronoun for both; read as "set the capacity of P to
    100G". Only when the first part says nothing but the node, a verb of being and the
    value, and the second nothing but the update, the pronoun, and "to that" / "to match"."""
    named = next((i for i, t in enumerate(tokens) if t.kind == "NAME"), len(tokens))
    sep = next((i for i in range(named, len(tokens)) if tokens[i].text in _VALUE_SEPARATORS),
               None)
    if sep is None:
        return tokens
    end = len(tokens) - (tokens[-1].text in _SENTENCE_ENDS)
    second = lex(tokens[sep + 1:end])  # the shorter part, and the one most requests fail
    cats = [x.cats for x in second]
    if cats[:1] != [frozenset({"SET"})] or not (
            cats[1:2] == [frozenset({"IT"})] and len(cats) in (2, 4)
            or cats[1:3] == [frozenset({"ITS"}), frozenset({"CAP"})] and len(cats) in (3, 5)) \
            or len(cats) > 3 and not (cats[-2] == frozenset({"TO"}) and second[-1].text in _SAME):
        return tokens
    first = lex(tokens[:sep])
    while first and first[0].cats == {"COMMA"}:  # "hi, P is now 100G - ..."
        first = first[1:]
    at = 1 if first and "KIND_SG" in first[0].cats else 0
    if len(first) < at + 3 or "NAME" not in first[at].cats or "RATE" not in first[-1].cats \
            or not all(x.cats <= _BEING and x.text in _BEING_NOW for x in first[at + 1:-1]):
        return tokens  # not "P was 10G" (what it had) nor "P should not be 10G"
    name, value = tokens[named], tokens[named + 1:sep]
    rate = next(i for i, t in enumerate(value) if t.kind == "NUM" or t.text in P.NUMBER_WORDS)
    return [*_SET_THE_CAPACITY_OF, name, _VOCABULARY_TOKENS["to"], *value[rate:]]


def _needs_doing(tokens: list[Token]) -> list[Token]:
    """"P needs removing from the graph", "whose capacity needs updating to 25G": a need said
    with the verb in -ing is "should be" and its participle ("needs to be removed")."""
    def doing(tokens: list[Token], i: int):
        if tokens[i].text in ("needs", "need") and i + 1 < len(tokens) \
                and tokens[i + 1].text in _DONE and not (
                    i + 2 < len(tokens) and tokens[i + 2].text == "of"):  # "need ranking of"
            return 2, [_SHOULD, _VOCABULARY_TOKENS["be"], _VOCABULARY_TOKENS[_DONE[
                tokens[i + 1].text]]]
        return None

    return _rewritten(tokens, doing)


_DONE = {"removing": "removed", "deleting": "deleted", "updating": "updated",
         "adding": "added", "setting": "set", "changing": "changed", "listing": "listed",
         "counting": "counted", "ranking": "ranked"}
_UPDATES = frozenset({"update", "set", "change", "amend", "adjust", "modify"})
_VALUE_SEPARATORS = frozenset({",", "-", "--", ";", "."})
_BEING = frozenset({"AUX", "MODAL", "INVERT", "BE", "ASK"})  # "is", "should be", "should read"
_BEING_NOW = frozenset({"is", "are", "should", "must", "shall", "will", "be", "read", "reads",
                        "needs", "need"})
_SAME = frozenset({"that", "this", "match", "it"})
_SET_THE_CAPACITY_OF = [_VOCABULARY_TOKENS[w] for w in ("set", "the", "capacity", "of")]


def _removal_last(said: list[Lexeme]) -> bool:
    """Whether the last verb said is a removal ("remove X and Y" but not "remove X, then list
    the ports of S")."""
    verbs = [x.cats for x in said if x.cats & (_VERB_CATS | _REMOVES)]
    return bool(verbs) and bool(verbs[-1] & _REMOVES)


_BE_STEMS = frozenset({"is", "are", "isn", "aren", "was", "wasn", "does", "do", "doesn", "don",
                       "will", "won", "would", "wouldn"})
_MUST_NOTS = frozenset({"should", "shouldn", "must", "mustn"})


_PULLS = frozenset({"pull", "pulling"})
# What may follow "pull" for it to mean "remove": a name, a pronoun, a kind before a name, or
# the particle of "pull out / off / from".
_PULLED = frozenset({"out", "off", "from", "it", "them", "that", "this", "these", "those"})
_SHOW = _VOCABULARY_TOKENS["show"]


_WHAT_IS_CAPACITY_OF = tuple(_VOCABULARY_TOKENS[w] for w in ("what", "is", "capacity", "of"))
_CARRIES = frozenset({"carry", "carries"})


def _carry_the_most(tokens: list[Token]) -> list[Token]:
    """"Which switch in A can carry the most?", "the switches that carry the least": the ones
    with the most (least) capacity ("has the most capacity"). Never when a kind follows ("carry
    the most ports" counts ports)."""
    def most(tokens: list[Token], i: int):
        can = tokens[i].text == "can"
        at = i + can
        said = [t.text for t in tokens[at:at + 4]]
        if said[:1] and said[0] in _CARRIES and said[1:3] in (["the", "most"], ["the", "least"]) \
                and (len(said) == 3 or said[3] not in P.KIND_WORDS):
            return can + 3, [_HAVE, tokens[at + 1], tokens[at + 2], _CAPACITY]
        return None

    return _rewritten(tokens, most)


def _how_much_carry(tokens: list[Token]) -> list[Token]:
    """"How much can port P carry?", "how much can the switch S carry in total?", and as a
    question is said inside another ("I'd like to know how much switch S can carry"): the
    capacity of that one node ("what is the capacity of port P"). Only a name, with its kind
    or "the" before it, between "can" and "carry", or before "can carry"."""
    for start in range(len(tokens) - 4):
        if tokens[start].text != "how" or tokens[start + 1].text != "much":
            continue
        inner = tokens[start + 2].text != "can"  # "how much S can carry"
        at = start + 2 + (not inner)
        at += tokens[at].text == "the"
        at += _kind_phrase(tokens, at)
        said = [t.text for t in tokens[at + 1:at + 3]]
        if at >= len(tokens) or tokens[at].kind != "NAME" or said[:1 + inner] != (
                ["can", "carry"] if inner else ["carry"]):
            continue
        rest = tokens[at + 2 + inner:]
        if [t.text for t in rest[:2]] == ["in", "total"]:
            rest = rest[2:]
        return [*tokens[:start], *_WHAT_IS_CAPACITY_OF, *tokens[start + 2 + (not inner):at + 1],
                *rest]
    return tokens


def _number_of(tokens: list[Token]) -> list[Token]:
    """"# ports" (the tokenizer reads "#" as "number"): the number of ports."""
    def before_kinds(tokens: list[Token], i: int):
        if tokens[i].text == "number" and i + 1 < len(tokens) \
                and P.KIND_WORDS.get(tokens[i + 1].text, ("", ""))[1] in ("PL", "SGPL"):
            return 1, [tokens[i], _OF]
        return None

    return _rewritten(tokens, before_kinds)


_METRIC_LEADS = (("by",), ("in", "terms", "of"))


def _metric_said_first(tokens: list[Token]) -> list[Token]:
    """"By port count, list the 2 biggest switches in A": the measure said first is said
    last in its sentence ("list the 2 biggest switches in A by port count"). Only a measure of
    a few words with no name or number, and only when the sentence says no other "by"."""
    lead = next((len(w) for w in _METRIC_LEADS if tuple(t.text for t in tokens[:len(w)]) == w),
                0)
    comma = next((i for i, t in enumerate(tokens[:lead + 5]) if t.text == ","), None)
    if not lead or comma is None or comma == lead:
        return tokens
    end = next((i for i in range(comma, len(tokens)) if tokens[i].text in _SENTENCE_ENDS),
               len(tokens))
    measure = tokens[lead:comma]
    if any(t.kind != "WORD" for t in measure) or any(t.text == "by" for t in tokens[comma:end]):
        return tokens
    return [*tokens[comma + 1:end], _VOCABULARY_TOKENS["by"], *measure, *tokens[end:]]


def _can_i_see(tokens: list[Token]) -> list[Token]:
    """"..., can I see the child nodes of S?", "then can we view ...": to be shown them, wherever
    it is asked (a read: nothing else is asked by it)."""
    def seeing(tokens: list[Token], i: int):
        if tokens[i].text in _POSSIBLE and i + 2 < len(tokens) \
                and tokens[i + 1].text in _ASKERS and tokens[i + 2].text in ("see", "view"):
            return 3, [_SHOW]
        return None

    return _rewritten(tokens, seeing)


_SORT = _VOCABULARY_TOKENS["sort"]
# What says a node is added: "put a new port N on S", "put port N, called ..., on S".
_ADDED_WORDS = frozenset({"a", "an", "new", "another", "extra", "additional", "named", "called"})


def _put_in_order(tokens: list[Token]) -> list[Token]:
    """"Put the child nodes of A in order of capacity": "put" sorts when what it puts goes
    "in ... order" in the same sentence; never when a node is said added on the way ("a",
    "new", "named": "put a port in A in order" stays refused)."""
    out = list(tokens)
    for i, token in enumerate(tokens):
        if token.text != "put":
            continue
        for j in range(i + 1, len(tokens) - 1):
            word = tokens[j].text
            if word in _SENTENCE_ENDS or word in _ADDED_WORDS:
                break
            if word == "in" and any(t.text == "order" for t in tokens[j + 1:j + 3]):
                out[i] = _SORT
                break
    return out


def _pull(tokens: list[Token]) -> list[Token]:
    """"Pull" takes a node out ("pull ju1.a1.m1.s2c1", "pull it from the graph") or fetches
    a report ("pull the list of switches", "pull up the ports of S", "pull the capacity for
    P"). Read as "show" when what it pulls is a value or a list (the head of its object, the
    word before "of", "for", "in", ...); kept as a removal before a name, a pronoun or "out";
    any other object ("pull every port in A", "pull the 2 biggest switches") could mean
    either, and is refused."""
    out = list(tokens)
    for i, token in enumerate(out):
        if token.kind != "WORD" or token.text not in _PULLS:
            continue
        j = i + 1
        while j < len(out) and out[j].text in ("the", "a", "an"):
            j += 1
        after = out[j] if j < len(out) else None
        # "pull switch S", "pull ports P and Q": the kind, then the names
        kind, _, length = _kind_words_at(out, j) if j < len(out) else ("", "", 0)
        named = j + (length if kind else 0)
        if after is None or after.kind == "NAME" or after.text in _PULLED or (
                named > j and named < len(out) and out[named].kind == "NAME"):
            continue
        if after.text == "up":
            continue  # "pull up": a read already
        head = j
        while head + 1 < len(out) and out[head + 1].kind == "WORD" \
                and out[head + 1].text not in _OBJECT_ENDS:
            head += 1
        if out[head].text in _PULLED_VALUES:
            out[i] = _SHOW
            continue
        raise AmbiguousRequest(
            f"'{token.text}' may mean take out or fetch here",
            expected="'remove <node name>' or 'list the <kind> in <node name>'")
    return out


# Where the object of "pull" ends, and the heads that make it a read: a value or a list.
_OBJECT_ENDS = frozenset({"of", "for", "on", "in", "under", "across", "anywhere", "from", "at",
                          "within", "by", "with", "whose", "that", "which", "below", "beneath",
                          "inside", "to", "and", "then"})
_PULLED_VALUES = frozenset({
    "list", "listing", "number", "numbers", "count", "total", "capacity", "capacities",
    "figure", "figures", "report", "breakdown", "tally", "inventory", "speed", "speeds", "sum",
    "average", "avg", "mean", "max", "maximum", "min", "minimum", "stats", "details", "data",
    "value", "values", "rundown", "overview"})


_THEN = _VOCABULARY_TOKENS["then"]


_CONDITION_LEADS = frozenset({"with", "once", "after", "when", "following", "upon"})
_REMOVAL_NOUNS = frozenset({"removal", "deletion", "decommissioning", "decommission"})
_THERE_WORDS = frozenset({"added", "there", "in", "exists"})  # "once it is in (place)"


# Words that say a change only inside a phrase: "get rid of X".
_PHRASE_HEADS = {"rid": frozenset({"REMOVE"})}


def _with_it_gone(tokens: list[Token]) -> list[Token]:
    """"Remove X; with it gone, list ...", "... and, once it's deleted, list ...", "...,
    following its removal, list ...", "Add N to A and, once it has been added, rank ...":
    the condition only says again the change just asked for, so it is read as "then". Only
    after a removal (an addition) verb, and only with "it" / "that" / "this" (an auxiliary
    between: "once it has been removed") and a word that says gone (added), or "its" and a
    noun of removal."""
    if not any(tokens[i - 1].text in _CONDITION_LEADS and tokens[i].text in _POINTED_GONE
               for i in range(1, len(tokens) - 1)):
        return tokens
    out = list(tokens)
    said_before = [frozenset()]  # the categories said before each token (which the loop,
    for token in tokens:  # going backwards, never changes)
        said_before.append(said_before[-1] | P.LEXICON.get(token.text, frozenset())
                           | _PHRASE_HEADS.get(token.text, frozenset()))
    for i in range(len(out) - 2, 0, -1):
        if out[i - 1].text not in _CONDITION_LEADS:
            continue
        said = said_before[i - 1]
        done = ("GONE" if said & {"REMOVE", "TAKE"} else "") + (" ADDED" if "ADD" in said else "")
        end = i + 1
        if out[i].text == "its" and out[end].text in _REMOVAL_NOUNS and "GONE" in done:
            out[i - 1:end + 1] = [_THEN]
            continue
        if not done or out[i].text not in ("it", "that", "this") or (
                out[i - 1].text == "with") != (out[end].text not in P.COPULAS | {"has"}):
            continue  # "with it gone", but "once it is gone"
        while end < len(out) - 1 and out[end].text in P.COPULAS | {"has"}:
            end += 1
        if not P.LEXICON.get(out[end].text, frozenset()).isdisjoint(done.split()):
            out[i - 1:end + 1] = [_THEN]
        elif out[end].text in _THERE_WORDS and "ADDED" not in done:
            raise AmbiguousRequest(  # "remove X; once it is added, ...": added when?
                f"'{out[i - 1].text} {out[i].text} ... {out[end].text}' follows no addition",
                expected="the change said once, then what to do after it")
    return out


_POINTED_GONE = frozenset({"it", "that", "this", "its"})  # what a condition above points with
_DECOMMISSION = _VOCABULARY_TOKENS["decommission"]


def _decom(tokens: list[Token]) -> list[Token]:
    """"Decom X": the shortening is a verb only before what it takes out (a name, or a kind
    and a name); elsewhere it may be the noun ("slated for decom") and stays unread."""
    out = list(tokens)
    for i, token in enumerate(out[:-1]):
        if token.kind == "WORD" and token.text in ("decom", "decomm"):
            j = i + 1 + _kind_phrase(out, i + 1)
            if j < len(out) and out[j].kind == "NAME":
                out[i] = _DECOMMISSION
    return out


_DEMONSTRATIVES = frozenset({"that", "this", "said", "same"})
_POINTERS = _DEMONSTRATIVES | {"the"}
_IT = _VOCABULARY_TOKENS["it"]
_ITS = _VOCABULARY_TOKENS["its"]


def _kind_phrase(tokens: list[Token], at: int) -> int:
    """How many tokens at ``at`` say a singular kind ("switch", "control domain"), or 0."""
    if at >= len(tokens) or tokens[at].text not in _SINGULAR_KIND_FIRST:
        return 0
    for length in _SINGULAR_KIND_LENGTHS:
        words = tokens[at:at + length]
        if len(words) == length and all(w.kind == "WORD" for w in words) \
                and tuple(w.text for w in words) in _SINGULAR_KINDS:
            return length
    return 0


def _typed_pronouns(tokens: list[Token]) -> tuple[list[Token], tuple[str, ...]]:
    """A node pointed back to by its kind ("that switch's children", "the switch's ports",
    "this port"): "its" / "it", and the kind. Every node a pronoun of the request stands for
    must have been called that kind by the request itself ("add port N to switch S, then rank
    that switch's children"), so a pronoun that could mean another node is refused, with or
    without a topology to look kinds up in. Not before a name ("that switch S" names S)."""
    out: list[Token] = []
    kinds: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        taken = 0
        length = _kind_phrase(tokens, i + 1) if token.kind == "WORD" and \
            token.text in _POINTERS else 0
        if length:
            end = i + 1 + length
            after = tokens[end] if end < len(tokens) else None
            possessive = after is not None and after.kind == "POSS"
            if possessive or (token.text in _DEMONSTRATIVES and (
                    after is None or after.kind == "PUNCT"
                    or (after.kind == "WORD" and after.text in _AFTER_PRONOUN))):
                kinds.append(P.KIND_WORDS[" ".join(t.text for t in tokens[i + 1:end])][0])
                out.append(_ITS if possessive else _IT)
                taken = length + 1 + (1 if possessive else 0)
        if taken:
            i += taken
        else:
            out.append(token)
            i += 1
    return out, tuple(dict.fromkeys(kinds))


_PHRASE_ENDS = frozenset({"-", "--", "from", "and", "then", "should", "must", "needs", "need",
                          "contain", "contains", "have", "has", "hold", "holds", "is", "in",
                          "by", "with", "having", "whose", "where", "which", "that"})


_OUTPUT_LABELS = frozenset({"output", "expected", "result", "deliverable", "returns"})
_RETURN = _VOCABULARY_TOKENS["return"]


def _output_label(tokens: list[Token]) -> list[Token]:
    """"... . Output: the updated graph.", "Expected: the modified graph returned.": a
    sentence labelled with what the answer should be is a Return clause ("return the
    updated graph"), read and checked as one."""
    out = list(tokens)
    for i in range(len(out) - 2, -1, -1):
        at = i + (out[i].text == "expected" and out[i + 1].text == "output")
        if (out[i].text in _OUTPUT_LABELS and (i == 0 or out[i - 1].text in _SENTENCE_ENDS)
                and at + 1 < len(out) and out[at + 1].text == ":"):
            out[i:at + 2] = [_RETURN]
    return out


def _kind_after_name(tokens: list[Token]) -> list[Token]:
    """A kind (or "node") said after a name and last in its phrase ("the ju1.a2.dom control
    domain", "the capacity of the S switch?", "delete the S node from the graph"): said
    before the name. Only before punctuation, the end or a word that ends the phrase ("from",
    "and", "should", "contain", ...), so "add to A a new switch N" keeps its kind with the new
    node."""
    out = list(tokens)
    for i in range(len(out) - 3, -1, -1):  # "S (agg block)", "S (the control domain)"
        if out[i].kind == "NAME" and out[i + 1].text == "(":
            start = i + 2 + (out[i + 2].text == "the")
            length = _kind_phrase(out, start)
            if length and start + length < len(out) and out[start + length].text == ")":
                out[i:start + length + 1] = [*out[start:start + length], out[i]]
        # "S, the superblock?", "ports in A, the agg block.": said as an apposition, last
        elif out[i].kind == "NAME" and out[i + 1].text == "," and out[i + 2].text == "the":
            length = _kind_phrase(out, i + 3)
            end = i + 3 + length
            if length and (end == len(out) or out[end].text in _SENTENCE_ENDS):
                out[i:end] = [*out[i + 3:end], out[i]]
    for i in range(len(out) - 2, -1, -1):
        if out[i].kind != "NAME":
            continue
        length = _kind_phrase(out, i + 1) or (
            1 if i + 1 < len(out) and out[i + 1].text in _NODE_NOUNS else 0)
        end = i + 1 + length
        if length and (end == len(out) or out[end].kind == "PUNCT"
                       or out[end].text in _PHRASE_ENDS or (
                           # "the S switch whose ...", "the P port to 10G": "the" before the
                           # name makes name and kind one phrase, unless a new node is named
                           i and out[i - 1].text == "the" and out[end].kind != "NAME"
                           and out[end].text not in ("named", "called"))):
            out[i:end] = [*out[i + 1:end], out[i]]
    return out


# Words after "that switch" that leave it a pronoun ("that switch has", "of that switch by ...").
_AFTER_PRONOUN = frozenset({"has", "have", "holds", "contains", "by", "and", "then", "to", "in",
                            "from", "is", "was", "should", "now", "afterwards", "after"})


_FOCUS_TAILS = sorted((tuple(t.split()) for t in P.FOCUS_TAILS), key=len, reverse=True)
_FOCUS_TAIL_FIRST = frozenset(t[0] for t in _FOCUS_TAILS)
_GERUNDS = frozenset(text.split()[0] for text, cats in P.LEXICON.items()
                     if text.split()[0].endswith("ing") and cats & _VERB_CATS)
_AFTER_TAIL = frozenset({",", "-", "--", ":"}) | _SENTENCE_ENDS


def _focus_said_last(tokens: list[Token]) -> list[Token]:
    """"Removing X is what I need", "Adding N to S comes first; then ...": a request said
    as a gerund, with a predicate that only says it is wanted (``P.FOCUS_TAILS``); the
    predicate goes and the gerund reads as the request. Only a sentence that starts with
    the gerund, and only a predicate that ends the sentence or a clause. A sentence that
    starts with a thing is read by :func:`_wanted_subject`."""
    out: list[Token] = []
    start = 0
    said = 0  # sentences so far
    for at, tok in enumerate(tokens + [Token("PUNCT", ".", ".")]):
        if not (tok.kind == "PUNCT" and tok.text in _SENTENCE_ENDS):
            continue
        sentence = tokens[start:at]
        if sentence:
            said += 1
            if sentence[0].text.lower() in _GERUNDS:
                sentence = _without_focus_tail(sentence, said)
            else:
                sentence = _wanted_subject(sentence)
        out += sentence + tokens[at:at + 1]
        start = at + 1
    return out


_WANTING_TAILS = sorted((tuple(t.split()) for t in P.FOCUS_TAILS
                         if t.startswith(("is what", "is all", "are what", "are all"))),
                        key=len, reverse=True)
_I_NEED = [_VOCABULARY_TOKENS["i"], _VOCABULARY_TOKENS["need"]]
_NOT_WANTED_SUBJECTS = frozenset({"what", "which", "how", "it", "there", "this", "that"})


def _wanted_subject(sentence: list[Token]) -> list[Token]:
    """"The capacity of port P is what I'm after": a thing said first and wanted last, read
    as "I need <the thing>". Only a predicate that ends the sentence, and only after a
    subject that is no question or pronoun."""
    words = [t.text for t in sentence]
    if not words or words[0] in _NOT_WANTED_SUBJECTS:
        return sentence
    for tail in _WANTING_TAILS:
        if len(words) > len(tail) and tuple(words[-len(tail):]) == tail:
            return _I_NEED + sentence[:-len(tail)]
    return sentence


_ORDINAL_STEPS = {"first": 1, "second": 2, "third": 3, "fourth": 4}


def _step_said(words: list[str], i: int) -> tuple[int, int] | None:
    """"is step two" / "is step 2" / "is the second step" at ``i``: (its number, its end)."""
    if words[i:i + 2] == ["is", "step"] and i + 2 < len(words):
        said = words[i + 2]
        number = int(said) if said.isdigit() else P.NUMBER_WORDS.get(said)
        return None if number is None else (number, i + 3)
    if words[i:i + 2] == ["is", "the"] and words[i + 3:i + 4] == ["step"]:
        number = _ORDINAL_STEPS.get(words[i + 2])
        return None if number is None else (number, i + 4)
    return None


def _without_focus_tail(sentence: list[Token], nth: int) -> list[Token]:
    """The ``nth`` sentence of a request (a gerund first) without its focus predicate. A
    predicate that numbers the step ("is step two") becomes a step label ("Step 2:") when
    the number is the sentence's own, as numbered steps are read."""
    words = [t.text.lower() for t in sentence]
    for i in range(1, len(words)):
        if words[i] not in _FOCUS_TAIL_FIRST:
            continue
        step = _step_said(words, i)
        if step is not None:
            number, end = step
            if number == nth and (end == len(words) or words[end] in _AFTER_TAIL):
                return [Token("WORD", "step", "step"), Token("NUM", str(nth), Decimal(nth)),
                        Token("PUNCT", ":", None)] + sentence[:i] + sentence[end:]
            return sentence
        for tail in _FOCUS_TAILS:
            end = i + len(tail)
            if tuple(words[i:end]) == tail and (end == len(words) or words[end] in _AFTER_TAIL):
                return sentence[:i] + sentence[end:]
    return sentence


_CLEFT_VERBS = frozenset({"needs", "need", "has", "have", "should", "must", "is", "are", "can",
                          "will", "ought", "requires", "require", "wants"})
_RELATIVES = frozenset({"that", "which", "who", "whose"})
# What the one asking says they want done to a cleft's focus: "It's X that I want listed".
_WANTED = tuple(tuple(p.split()) for p in (
    "i would like", "we would like", "i want", "we want", "i need", "we need", "i wish",
    "i would love"))
_MODALS = frozenset({"should", "must", "needs", "need", "has", "have", "ought", "will"})


# Verbs that say where a node is ("X, which sits in agg block A"), and "is a/an" that says
# what it is ("X, which is a switch in superblock S").
_PLACING_VERBS = frozenset({"sits", "sit", "lives", "live", "resides", "reside", "belongs",
                            "belong", "hangs", "hang", "falls", "fall", "located", "situated"})
# The prepositions that put a node inside another ("in agg block A", "on switch S").
_PLACING_PREPS = frozenset({"in", "on", "under", "within", "inside", "beneath", "below", "of"})
_PLACE_ENDS = frozenset({",", ".", "?", "!", ";", ")"})


def _kind_said(tokens: Sequence[Token], i: int) -> tuple[str | None, int]:
    """The kind said at ``i`` ("agg block", "switch", "EK_PORT") and where it ends; (None,
    ``i``) when no kind is said there."""
    if i < len(tokens) and tokens[i].kind == "KIND":
        return str(tokens[i].value), i + 1
    for size in (2, 1):
        said = P.KIND_WORDS.get(" ".join(t.text for t in tokens[i:i + size]))
        if said is not None and all(t.kind == "WORD" for t in tokens[i:i + size]):
            return said[0], i + size
    return None, i


class _Place(NamedTuple):
    """What a clause said of a named node states: the node is inside ``container`` (when
    said), of ``kind`` (when said), and the container of ``container_kind`` (when said)."""

    end: int
    container: str | None
    kind: str | None
    container_kind: str | None


def _place_said(tokens: Sequence[Token], i: int) -> _Place | None:
    """The place said from ``i`` on: "[the] [KIND] NAME2" after a preposition that puts a node
    inside another, or None."""
    if i >= len(tokens) or tokens[i].text not in _PLACING_PREPS:
        return None
    j = i + 1 + (i + 1 < len(tokens) and tokens[i + 1].text == "the")
    kind, j = _kind_said(tokens, j)
    if j < len(tokens) and tokens[j].kind == "NAME":
        return _Place(j + 1, str(tokens[j].value), None, kind)
    return None


def _relative_place(tokens: Sequence[Token], i: int) -> _Place | None:
    """A relative clause from ``i`` ("which", "that") saying where or what the node before it
    is: "which sits in agg block A", "which is located under A", "which is a port on S",
    "that is a switch"."""
    if i >= len(tokens) or tokens[i].text not in ("which", "that"):
        return None
    j = i + 1
    if j < len(tokens) and tokens[j].text in ("is", "'s"):
        j += 1
        if j < len(tokens) and tokens[j].text in ("a", "an"):
            kind, k = _kind_said(tokens, j + 1)
            if kind is None:
                return None
            place = _place_said(tokens, k)
            return _Place(k, None, kind, None) if place is None else place._replace(kind=kind)
    if j < len(tokens) and tokens[j].text in _PLACING_VERBS:
        j += 1
    elif j == i + 1:
        return None
    return _place_said(tokens, j)


_SAID_OF_A_NAME = frozenset({",", "("})  # what sets a place said of a name apart


def _without_places(tokens: list[Token], bare: bool) -> tuple[list[Token], list[_Place],
                                                               list[tuple[str, str]]]:
    """``tokens`` without the clauses said of a named node that state where it is or what it
    is, set apart by a comma or brackets ("S, which sits in agg block A,", "P (on switch S)"),
    and with ``bare`` also said right after the name ("S in agg block A"); the places they
    state, each as (name, container) and the kinds as (name, kind). A place is set apart
    only when the name says it (the container's name followed by a dot starts the node's):
    without a topology that is all there is to check it by, and with one it is checked too
    (:mod:`netmend.malt.validate`)."""
    kept: list[Token] = []
    places: list[tuple[str, str]] = []
    kinds: list[tuple[str, str]] = []
    i = 0
    n = len(tokens)
    while i < n:
        kept.append(tokens[i])
        if tokens[i].kind != "NAME" or i + 1 >= n:
            i += 1
            continue
        name = str(tokens[i].value)
        nxt = tokens[i + 1].text
        place = None
        closing = ""
        if nxt in (",", "("):
            place = _relative_place(tokens, i + 2)
            if place is None and (nxt == "(" or bare):
                place = _place_said(tokens, i + 2)
            closing = ")" if nxt == "(" else ","
        elif bare:
            place = _place_said(tokens, i + 1)
        if place is None or place.container is not None \
                and not name.startswith(place.container + "."):
            i += 1
            continue
        end = place.end
        if closing and end < n and tokens[end].text not in _PLACE_ENDS or nxt == "(" and (
                end >= n or tokens[end].text != ")"):
            i += 1
            continue
        if end < n and tokens[end].text == closing:
            end += 1
        if place.container is not None:
            places.append((name, place.container))
        kinds += [(said, kind) for said, kind in ((name, place.kind),
                                                 (place.container, place.container_kind))
                  if said is not None and kind is not None]
        i = end
    return kept, places, kinds


_LIST_JOINS = frozenset({",", "and", "&", "/", "+", "plus"})


def _refuse_both_miscounted(written: list[Token], text: str) -> None:
    """Refuse "both" said before a list of other than two names ("remove both A, B and C"):
    which of them were meant cannot be told. ("both" is otherwise a filler.)"""
    for i, token in enumerate(written):
        if token.text != "both" or i + 1 >= len(written) or written[i + 1].kind != "NAME":
            continue
        names, at = 1, i + 2
        while at + 1 < len(written) and written[at].text in _LIST_JOINS:
            at += 1 + (written[at].text == "," and written[at + 1].text == "and")
            if at >= len(written) or written[at].kind != "NAME":
                break
            names, at = names + 1, at + 1
        if names != 2:
            raise AmbiguousRequest(
                f"'both' is said before {names} name(s)", expected="'both' before two names, "
                "or the names without it", text=text)


_BEFORE_A_SET = frozenset({"the", "of", "these", "those", "its", "their"})


def _refuse_both_of_a_set(written: list[Token], text: str) -> None:
    """Refuse "both" said of a set a request reads or changes ("set both ports of S to
    10G"): it says the set has two nodes, which the set may not have."""
    for i, token in enumerate(written):
        if token.text != "both":
            continue
        at = i + 1
        while at < len(written) and written[at].text in _BEFORE_A_SET:
            at += 1
        if at < len(written) and (written[at].kind == "KIND"
                                  or written[at].text in _PLURAL_KIND_WORDS):
            raise AmbiguousRequest(
                "'both' says the set has two nodes, and it may have more or fewer",
                expected="'all' or 'every' before the set, or the two nodes by name", text=text)


def _refuse_said_of_a_name(tokens: list[Token], text: str) -> None:
    """Refuse a clause said of a named node after its name that is left once the places a
    name says are set apart (:func:`_without_places`): "remove S, which sits in rack R",
    "remove X, which is a spare": what it states could not be checked, and read alone it is
    a question of its own ("which sits in R?"). "Of the ports on S, which are below 10G?"
    asks."""
    for i in range(len(tokens) - 2):
        if tokens[i].kind == "NAME" and tokens[i + 1].text == "," \
                and tokens[i + 2].text in ("which", "who") and i + 3 < len(tokens) and (
                tokens[i + 3].text in _PLACING_VERBS or tokens[i + 3].text == "is"
                and i + 4 < len(tokens) and tokens[i + 4].text in ("a", "an")):
            raise UnknownRequest(
                f"'{' '.join(t.text for t in tokens[i + 2:i + 6])} ...' says where or what "
                f"{tokens[i].text} is in a way netmend cannot check (only a place its name "
                "says, or a kind); the request is refused rather than read without it",
                expected="the request without the clause",
                text=text)


def _it_cleft(tokens: list[Token]) -> list[Token]:
    """A cleft sentence said plainly: its focus (naming a node) goes where the rest of the
    sentence leaves a gap. "It's X that needs to go" -> "X needs to go"; "It's the children of
    A that I want listed" -> "I want the children of A listed"; "It's P whose capacity should
    be set to 10G" -> "P's capacity should be set to 10G"; "What should be deleted from the
    graph is X" -> "X should be deleted from the graph"."""
    if len(tokens) < 5:
        return tokens
    if tokens[0].text == "what" and tokens[1].text in _MODALS:
        return _what_cleft(tokens)
    if [t.text for t in tokens[:2]] != ["it", "is"]:
        return tokens
    rel = next((i for i, t in enumerate(tokens) if t.text in _RELATIVES), None)
    if rel is None or rel + 1 >= len(tokens) \
            or not any(t.kind == "NAME" for t in tokens[2:rel]) \
            or any(t.kind == "PUNCT" and t.text in _SENTENCE_ENDS for t in tokens[2:rel]):
        return tokens
    focus, rest = tokens[2:rel], tokens[rel + 1:]
    if not (focus[0].kind == "NAME" or focus[0].text in _PLACE_STARTS
            or _kind_phrase(focus, 0)):
        return tokens  # "it is necessary to list the ports of S whose ...": no cleft
    if tokens[rel].text == "whose":
        return [*focus, _POSS, *rest]
    if rest[0].text in _CLEFT_VERBS:
        return focus + rest
    wanted = next((w for w in _WANTED if tuple(t.text for t in rest[:len(w)]) == w), None)
    if wanted is None:
        return tokens
    return [*rest[:len(wanted)], *focus, *rest[len(wanted):]]


# What says a node is somewhere, after "where is P" or "where does P": "located", "live".
_BEING_AT = frozenset({"located", "situated", "sitting", "living", "placed", "hosted", "housed",
                       "found"})
_LIVING = frozenset({"live", "sit", "reside", "belong", "fall", "go"})
_WHERE_SEPARATORS = frozenset({",", "-", "--", ":", "->"})


def _where_it_is(sentence: list[Token], _after: bool = False) -> list[Token]:
    """"Where is P, which agg block?", "where does P live - what switch": where P is, asked as
    the node of one kind that P is in, said as "which agg block is P in". The kind is asked
    after the name and nothing else follows it; a kind said in the plural ("where is P,
    which switches?") is said so too, and no rule reads that, so it is refused."""
    words = [t.text for t in sentence]
    named = 2 + _kind_phrase(sentence, 2)  # "where does port P live"
    if len(words) < named + 3 or words[0] != "where" or words[1] not in ("is", "does") \
            or sentence[named].kind != "NAME":
        return sentence
    at = named + 1
    if words[at] in (_LIVING if words[1] == "does" else _BEING_AT):
        at += 1
    elif words[1] == "does":
        return sentence
    if at < len(words) and words[at] in _WHERE_SEPARATORS:
        at += 1
    if at < len(words) and words[at] in ("in", "under", "within"):
        at += 1  # "where is P - in which agg block"
    if at >= len(words) or words[at] not in ("which", "what"):
        return sentence
    kind, _number, length = _kind_words_at(sentence, at + 1)
    if not kind or at + 1 + length != len(sentence):
        return sentence
    return [sentence[at], *sentence[at + 1:at + 1 + length], Token("WORD", "is"),
            *sentence[2:named + 1], Token("WORD", "in")]


def _what_cleft(tokens: list[Token]) -> list[Token]:
    """"What should be deleted from the graph is X": the focus (the last part, naming a node
    and nothing after it) said first."""
    at = next((i for i in range(len(tokens) - 2, 1, -1) if tokens[i].text == "is"), None)
    if at is None:
        return tokens
    end = len(tokens) - (tokens[-1].text in _SENTENCE_ENDS)
    focus = tokens[at + 1:end]
    if not any(t.kind == "NAME" for t in focus) or any(t.kind == "NAME" for t in tokens[:at]) \
            or any(t.kind == "PUNCT" for t in focus):
        return tokens
    return [*focus, *tokens[1:at], *tokens[end:]]


_GREETINGS = frozenset({"hi", "hello", "hey", "morning", "afternoon", "evening"})
_ADDRESSING = _GREETINGS | {"dear", "ok", "okay", "yo", "good"}
_ADDRESS_ENDS = frozenset({",", ":", "!", "-"})


def _without_addressee(tokens: list[Token]) -> list[Token]:
    """"Hey Atlas, ...", "Hi Nkechi: ...", "Good morning Priya - ...": greetings, then one
    word the grammar does not know and a mark that sets it apart: whom the request is said
    to, never what it asks, so it goes with the greeting. A known word there ("Hi uplinks,
    ...") or more than one stays."""
    at = 0
    while at < len(tokens) and tokens[at].kind == "WORD" and tokens[at].text in _ADDRESSING:
        at += 1
    if at and at + 2 < len(tokens) and tokens[at].kind == "WORD" \
            and not _known(tokens[at].text) and tokens[at + 1].text in _ADDRESS_ENDS:
        return tokens[at + 2:]
    return tokens


_SPEAKERS = (("i", "am"), ("we", "are"))
_SPEAKER_ENDS = frozenset({"-", "--", ":", ","})
_ABOUT_SPEAKER = frozenset({"new", "here", "to", "this", "the", "still", "learning", "trying",
                            "understand", "work", "out", "just", "getting", "started", "with"})


def _without_speaker(tokens: list[Token]) -> list[Token]:
    """"I'm new here - ...", "Hi, I'm still learning the tool: ...": what the one asking says
    of themselves, first and set apart by a dash, colon or comma. Only words of being new
    or learning, or words the grammar does not know that name an occasion or its people
    ("we're the audit team"): any other ("we're sparing the optics") may say which nodes are
    meant, and a name, a number, a kind or a word that could say how or whether the request
    is meant would change it."""
    at = 0
    while at < len(tokens) and (tokens[at].text in _GREETINGS or tokens[at].text == ","):
        at += 1
    if tuple(t.text for t in tokens[at:at + 2]) not in _SPEAKERS:
        return tokens
    end = next((i for i in range(at + 2, len(tokens)) if tokens[i].text in _SPEAKER_ENDS), None)
    if end is None or end == at + 2 or end + 1 >= len(tokens):
        return tokens
    words = tokens[at + 2:end]
    if all(t.kind == "WORD" and (t.text in _ABOUT_SPEAKER or not _known(t.text)
                                 and t.text in context.OCCASION_NOUNS) for t in words):
        return tokens[end + 1:]
    return tokens


# A sentence that only asks for what the sentences before it asked ("Need it done by EOD.",
# "Could this be provided?", "Kindly make this change at your earliest convenience.", "It
# would be appreciated if this could be done."): the request said again, as a request.
_THE_ASKED = r"(?:it|this|that|this change|the change|this addition|this removal|this update)"
_AS_DONE = (r"(?:done|made|provided|actioned|carried out|completed|performed|implemented"
            r"|arranged|sorted)")
_ASKED_AGAIN = re.compile(
    r"(?:please |kindly |pls )*(?:"
    rf"(?:(?:i|we) )?(?:need|want|would like) {_THE_ASKED} {_AS_DONE}"
    rf"|(?:could|can|would|will|may) (?:you )?(?:please )?(?:have )?{_THE_ASKED} (?:please )?"
    rf"be {_AS_DONE}"
    rf"|(?:could you |can you |would you )?(?:please )?(?:do|make|action|complete|carry out"
    rf"|perform|implement|finish|arrange) {_THE_ASKED}"
    rf"|it would be appreciated if {_THE_ASKED} could be {_AS_DONE}"
    r"|(?:i |we )?need(?: it| this)?(?= by eod| by cob| by end of day| today| asap)"
    r")(?: please| pls)?(?: at your earliest convenience| when you can| as soon as possible"
    r"| asap| by eod| by cob| by end of day| today)?")
_ASKED_AGAIN_GATE = frozenset({"it", "this", "that", "eod", "cob", "day", "today", "asap"})
_ASKED_AGAIN_WORDS = frozenset({"need", "done", "made", "provided", "actioned", "carried",
                                "completed", "performed", "implemented", "arranged", "sorted",
                                "do", "make", "action", "complete", "perform", "implement",
                                "finish", "arrange"})


def _first_said(sentence: list[Token]) -> int | None:
    """Where the first word of ``sentence`` that is no filler and no comma is, if any."""
    return next((i for i, t in enumerate(sentence)
                 if t.text != "," and t.text not in _FILLER_WORDS), None)


def _a_verb(token: Token) -> bool:
    return token.kind == "WORD" and not P.LEXICON.get(token.text, frozenset()).isdisjoint(
        _VERB_CATS)


# How a speaker takes back what they began to say: "remove, I mean remove X".
_RESTARTS = (("i", "mean"), ("i", "meant"), ("mean",), ("or", "rather"), ("sorry",))
_LONGEST_RESTARTED = 4


def _without_restart(sentence: list[Token], _after: bool = False) -> list[Token]:
    """A sentence said again after a restart, as speech says it ("delete, I mean remove X",
    "show me, I mean list the ports of S", "remove, uh, remove X"): what was begun and taken
    back goes when it was only words of the grammar naming no node and no number, none
    saying how or whether the request is meant (so nothing it said could be lost), and a
    request's verb follows the restart, or when it was that verb said twice."""
    first = _first_said(sentence)
    comma = None if first is None else next(
        (i for i in range(first + 1, min(len(sentence), first + _LONGEST_RESTARTED + 1))
         if sentence[i].text == ","), None)
    if comma is None or not all(map(_taken_back, sentence[first:comma])):
        return sentence
    after = comma + 1
    while after < len(sentence) and (sentence[after].text == "," or sentence[after].text in
                                     P.HESITATIONS):
        after += 1  # "remove, uh, remove X"
    words = tuple(t.text for t in sentence[after:after + 2])
    restart = next((r for r in _RESTARTS if words[:len(r)] == r), None)
    said_twice = comma == first + 1 and words[:1] == (sentence[first].text,)
    if restart is None and not said_twice:
        return sentence
    after += len(restart or ())
    while after < len(sentence) and sentence[after].text == ",":
        after += 1
    if after >= len(sentence) or not _a_verb(sentence[after]):
        return sentence
    return [*sentence[:first], *sentence[after:]]


# What "this" is in a course's or a code review's frame: "for this part, can you ...",
# "... in this PR?".
_THIS_ITEMS = frozenset({"part", "question", "exercise", "task", "step", "section", "item",
                         "problem", "assignment"})
_THIS_CHANGES = frozenset({"change", "pr", "mr", "commit", "patch", "diff", "changeset"})
_ASKS_NEXT = frozenset({",", "can", "could", "would", "will", "please", "kindly"})


def _without_this_part(sentence: list[Token], _after: bool = False) -> list[Token]:
    """A sentence without the item of a sheet it is said for, first ("for this part can you
    ...", "For this question, ..."), and without the change under review it is said in, last
    ("... in this PR?"): neither says which nodes or what to do."""
    first = _first_said(sentence)
    if first is not None and [t.text for t in sentence[first:first + 2]] == ["for", "this"] \
            and first + 3 < len(sentence) and sentence[first + 2].text in _THIS_ITEMS and (
                sentence[first + 3].text in _ASKS_NEXT or _a_verb(sentence[first + 3])):
        rest = first + 3 + (sentence[first + 3].text == ",")
        sentence = [*sentence[:first], *sentence[rest:]]
    if len(sentence) > 3 and [t.text for t in sentence[-3:-1]] == ["in", "this"] \
            and sentence[-1].text in _THIS_CHANGES:
        sentence = sentence[:-3]
    return sentence


def _names_said_in_a_row(tokens: list[Token]) -> list[Token]:
    """New names listed as speech lists them, without commas ("add ports named x1 x2 and
    x3"): a list, said with commas, when the names (new ones: no dot) follow "named" or
    "called" and the last comes after "and"."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        out.append(tokens[i])
        if tokens[i].text in ("named", "called"):
            end = i + 1
            while end < len(tokens) and tokens[end].kind == "NAME" and "." not in tokens[end].text:
                end += 1
            if end - i > 2 and end + 1 < len(tokens) and tokens[end].text == "and" \
                    and tokens[end + 1].kind == "NAME" and "." not in tokens[end + 1].text:
                for name in tokens[i + 1:end - 1]:
                    out += [name, _LIST_COMMA]
                out.append(tokens[end - 1])
                i = end
                continue
        i += 1
    return out


# What "become" follows when English says it: "should become", "so it becomes".
_BECOMING = P.ASKING_MODALS | frozenset({"should", "must", "shall", "to", "it", "they", "so",
                                         "then", "now", "will"})


_CAPACITY_WORDS = frozenset({"capacity", "capacities"})


def _second_language_forms(tokens: list[Token]) -> list[Token]:
    """Forms of English as a second language said as English says them:
    - a value a capacity is to "become" ("make P capacity become 10 Gbps": to 10 Gbps);
    - a kind's "name" before the new name ("add port name np1": named np1);
    - "to" after a modal asking ("can you to remove X": can you remove X);
    - an operation said as a noun after "do" or "make" ("make the removal of X", "do the
      listing of the ports of S", "make the ranking of ...": remove X, list ..., rank ...);
    - "there is how many" (how many), "have in" after a kind ("how many ports have in S",
      "the switches that have in A": are in);
    - a noun before its adjective ("the capacity physical", "the capacity total");
    - "of" after a comparison or "after" ("below of 10 Gbps", "after of removing it");
    - a place verb in a question about which node holds another ("in what switch stays
      port P": is);
    - Nigerian Pidgin's "wey" (that) and "dey" (are, are in), and its "o" that ends a
      sentence ("remove it o"), which is no shortened "of"."""
    out: list[Token] = []
    i = 0
    n = len(tokens)
    while i < n:
        token = tokens[i]
        text = token.text
        after = tokens[i + 1] if i + 1 < n else None
        before = out[-1].text if out else ""
        if text in ("become", "becomes") and after is not None and after.kind == "NUM" \
                and before and before not in _BECOMING:  # ("... should become 40G" is read)
            out.append(_VOCABULARY_TOKENS["to"])
        elif text == "name" and before in P.KIND_WORDS and after is not None \
                and after.kind == "NAME":
            out.append(_VOCABULARY_TOKENS["named"])
        elif text == "to" and before in _ASKED_AFTER_MODAL and len(out) > 1 \
                and out[-2].text in P.ASKING_MODALS and after is not None and _a_verb(after):
            pass  # "can you to remove X"
        elif text in _LIGHT_VERBS and after is not None:
            at = i + 1 + (tokens[i + 1].text in ("the", "a", "an"))
            verb = _NOUN_VERBS.get(tokens[at].text) if at + 1 < n \
                and tokens[at + 1].text == "of" else None
            if verb is None:  # ("do the removal first": the removal asked before)
                out.append(token)
            else:
                out.append(_VOCABULARY_TOKENS[verb])
                i = at + 2
                continue
        elif text == "there" and after is not None and after.text in ("is", "are") \
                and i + 3 < n and tokens[i + 2].text == "how" and tokens[i + 3].text == "many":
            i += 2  # "there is how many ports in S"
            continue
        elif text in ("have", "has") and after is not None and after.text in _HAVE_IN \
                and (before in P.KIND_WORDS or before in ("that", "which")) and i + 2 < n \
                and (tokens[i + 2].kind == "NAME" or tokens[i + 2].text in _BEFORE_A_NODE):
            out.append(_VOCABULARY_TOKENS["are"])
        elif text in _CAPACITY_WORDS and after is not None and after.text in _AFTER_ITS_NOUN:
            out += [after, token]
            i += 2
            continue
        elif text == "of" and before in _OF_AFTER and after is not None and (
                after.kind == "NUM" or before == "after"):
            pass  # "below of 10 Gbps", "after of that"
        elif text in _PLACE_SAID and len(out) > 1 and before in P.KIND_WORDS \
                and out[-2].text in ("what", "which"):
            out.append(_VOCABULARY_TOKENS["is"])
        elif text in ("located", "situated") and len(out) > 2 and before == "is" \
                and out[-2].text in P.KIND_WORDS and out[-3].text in ("what", "which"):
            pass  # "in which switch is located port P"
        elif text == "put" and _capacity_follows(tokens, i + 1):
            out.append(_VOCABULARY_TOKENS["set"])  # "put the capacity of P at 25 Gbps"
        elif text == "cancel" and _from_the_graph_follows(tokens, i + 1):
            out.append(_VOCABULARY_TOKENS["remove"])  # "cancel X from the graph"
        elif text in _AFTER_DONE and _done_to_it(tokens, i + 1 + (
                after is not None and after.text == "of")):
            done = i + 1 + (after.text == "of")  # "after (of) removing it rank ...": a comma
            out += [token, tokens[done], tokens[done + 1], _LIST_COMMA]
            i = done + 2
            continue
        elif text == "of" and before == "is" and after is not None and after.text in (
                "which", "what"):
            out.append(_VOCABULARY_TOKENS["in"])  # "port P is of which switch?"
        elif text in ("get", "gets") and (before in P.KIND_WORDS or out and out[-1].kind == "NAME"
                                          ) and _asked_which(out):
            out.append(_VOCABULARY_TOKENS["have"])  # "which 2 switches get the most ports?"
        elif text == "to" and after is not None and after.text == "be" and i + 2 < n \
                and tokens[i + 2].kind == "NUM" and (before in _SET_OBJECT_ENDS
                                                     or out[-1].kind == "NAME") \
                and _said_in_sentence(out, _SETTING | {"make"}):
            out.append(token)  # "make the capacity of P to be 10 Gbps": to 10 Gbps
            i += 2
            continue
        elif text == "am" and before == "i" and after is not None and after.text in _WANTING:
            pass  # "I am need the list of ...": I need
        elif text in ("summary", "summed", "summarized") and after is not None \
                and after.text in _CAPACITY_WORDS:
            out.append(_VOCABULARY_TOKENS["total"])  # "the summary capacity of S's ports"
        elif text == "am" and out and out[-1].text not in _PERSONS and _an_order(out[-1]):
            out.append(_VOCABULARY_TOKENS["it"])  # Pidgin "count am": count it
        elif text in _LATER and len(out) > 1 and _an_order(out[-1]) \
                and out[-2].text in ("and", ","):
            out.insert(len(out) - 1, token)  # "and list afterwards X": and afterwards list X
        elif text == "wey":
            out.append(_VOCABULARY_TOKENS["that"])
        elif text == "dey":
            out.append(_VOCABULARY_TOKENS["are"])
            if after is not None and (after.kind == "NAME" or after.text in ("the", "switch",
                                                                             "agg", "block")):
                out.append(_VOCABULARY_TOKENS["in"])
        elif text == "of" and token.value == "o" and (after is None or after.kind == "PUNCT"):
            pass  # "remove it o."
        else:
            out.append(token)
        i += 1
    return out


# Texting's "2" (to), "4" (for) and "r" (are): "add port N 2 S", "port count 4 S", "which
# ports r under 10 Gbps".
_TEXTED = {"2": "to", "4": "for"}
_ARE_BEFORE = frozenset({"in", "under", "below", "above", "on", "there", "inside", "over"})


def _texted_forms(tokens: list[Token]) -> list[Token]:
    """Texting's short forms said as English says them: a bare "2" or "4" between a name and
    the node it goes to or is for ("add port new_p5 2 S", "port count 4 S": to, for), and "r"
    before where or how much ("which ports r under 10 Gbps": are). A number said before a
    kind ("add 2 ports to S") or after one ("add port 2 S") stays a number."""
    out = list(tokens)
    for i, token in enumerate(tokens):
        if token.kind == "NUM" and token.text in _TEXTED and 0 < i < len(tokens) - 1 \
                and (tokens[i - 1].kind == "NAME" or token.text == "4" and tokens[i - 1].text in (
                    "count", "number")) and _node_follows(tokens, i + 1):
            out[i] = _VOCABULARY_TOKENS[_TEXTED[token.text]]
        elif token.text == "r" and token.kind == "WORD" and i + 1 < len(tokens) \
                and tokens[i + 1].text in _ARE_BEFORE:
            out[i] = _VOCABULARY_TOKENS["are"]
    return out


def _node_follows(tokens: list[Token], at: int) -> bool:
    """Whether a node's name follows at ``at``, alone or after its kind ("sw S", "agg block A")."""
    while at < len(tokens) and (tokens[at].text in P.KIND_WORDS or tokens[at].kind == "KIND"):
        at += 1
    return at < len(tokens) and tokens[at].kind == "NAME"


def _last_sentence(out: list[Token]) -> list[Token]:
    """The sentence said last in ``out`` (all of it since the last sentence's end)."""
    return out[max((i + 1 for i, t in enumerate(out) if t.text in _SENTENCE_ENDS), default=0):]


def _said_in_sentence(out: list[Token], words: frozenset[str]) -> bool:
    """Whether the sentence said so far says one of ``words``."""
    return any(t.text in words for t in _last_sentence(out))


def _asked_which(out: list[Token]) -> bool:
    """Whether the sentence said so far asks which nodes: "which" or "what" said first."""
    sentence = _last_sentence(out)
    first = _first_said(sentence)
    return first is not None and sentence[first].text in ("which", "what")


def _capacity_follows(tokens: list[Token], at: int) -> bool:
    while at < len(tokens) and tokens[at].text in ("the", "physical"):
        at += 1
    return at < len(tokens) and tokens[at].text in _CAPACITY_WORDS


def _from_the_graph_follows(tokens: list[Token], at: int) -> bool:
    """Whether the sentence goes on to say "from the graph" (or "of the graph")."""
    for i in range(at, len(tokens) - 1):
        if tokens[i].text in _SENTENCE_ENDS:
            return False
        if tokens[i].text in ("from", "of"):
            j = i + 1 + (tokens[i + 1].text == "the")
            if j < len(tokens) and tokens[j].text in ("graph", "topology", "network"):
                return True
    return False


def _done_to_it(tokens: list[Token], at: int) -> bool:
    """Whether "removing it", "adding them" ... at ``at`` is followed by a request's verb
    with no comma between them."""
    return at + 2 < len(tokens) and tokens[at].text.endswith("ing") \
        and tokens[at + 1].text in _DONE_TO and (
            _an_order(tokens[at + 2]) or tokens[at + 2].text in _ASKER_OR_ASKED)


_AFTER_DONE = frozenset({"after", "once"})
_LATER = frozenset({"afterwards", "afterward", "then", "later"})
_DONE_TO = frozenset({"it", "them", "that", "this", "those", "these"})


# A value a capacity is set to, said with another preposition than "to" ("set the capacity of
# P at 25 Gbps", "update P for 10 Gbps", "put the capacity in 10 Gbps").
_SETTING = frozenset({"set", "change", "update", "modify", "adjust", "alter"})
_VALUE_LEADS = frozenset({"at", "for", "in", "on"})
# What the value follows, said of what is set ("... of P at 25 Gbps", "the capacity for 10
# Gbps"); never a verb ("P is running at 40G": how fast it runs, said as a reason).
_SET_OBJECT_ENDS = _CAPACITY_WORDS | frozenset({"value", "it", "them", "both", "cap", "caps"})


def _value_said_with(sentence: list[Token], _after: bool = False) -> list[Token]:
    """A sentence that sets a capacity and says its value after "at", "for", "in" or "on",
    with its unit: said with "to", when the sentence says no value with "to" already; and
    one that says the value before the capacity ("change to 40 Gbps the capacity of P"):
    the value said last."""
    sentence = _value_said_last(sentence)
    texts = [t.text for t in sentence]
    if _SETTING.isdisjoint(texts) or any(
            a == "to" and b.kind == "NUM" for a, b in zip(texts, sentence[1:], strict=False)):
        return sentence
    out = list(sentence)
    for i in range(1, len(sentence) - 1):
        if texts[i] in _VALUE_LEADS and sentence[i + 1].kind == "NUM" and i + 2 < len(sentence) \
                and sentence[i + 2].text in _UNIT_WORDS and (
                    sentence[i - 1].kind == "NAME" or texts[i - 1] in _SET_OBJECT_ENDS):
            out[i] = _VOCABULARY_TOKENS["to"]
    return out


def _value_said_last(sentence: list[Token]) -> list[Token]:
    """The value said last when it comes before the capacity of a list of ports ("change to
    40 Gbps the capacity of A and B"); of one node or a set, the grammar reads it as said."""
    for i in range(len(sentence) - 4):
        if sentence[i].text in _SETTING and sentence[i + 1].text == "to" \
                and sentence[i + 2].kind == "NUM" and sentence[i + 3].text in _UNIT_WORDS:
            at = i + 4 + (sentence[i + 4].text == "the")
            if at < len(sentence) and sentence[at].text in _CAPACITY_WORDS:
                end = next((j for j in range(at, len(sentence)) if sentence[j].text in (
                    ",", "and", "then") and not (j + 1 < len(sentence) and sentence[
                        j + 1].kind == "NAME")), len(sentence))
                if any(t.text in ("and", ",") for t in sentence[at:end]):  # (a list of ports)
                    return [*sentence[:i + 1], *sentence[i + 4:end], *sentence[i + 1:i + 4],
                            *sentence[end:]]
    return sentence


# Who is asked after a modal ("can you to ...").
_ASKED_AFTER_MODAL = frozenset({"you", "u", "ya", "ye"})
# Verbs that only carry an operation said as a noun: "make the removal of X".
_LIGHT_VERBS = frozenset({"do", "make", "give"})
_NOUN_VERBS = {"removal": "remove", "deletion": "delete", "elimination": "remove",
               "remove": "remove", "removing": "remove", "delete": "delete",
               "deleting": "delete", "adding": "add",
               "listing": "list", "list": "list", "count": "count", "counting": "count",
               "ranking": "rank", "rank": "rank", "sorting": "sort", "update": "update",
               "addition": "add", "creation": "create", "insertion": "insert"}
_HAVE_IN = frozenset({"in", "inside", "under", "within"})
_BEFORE_A_NODE = frozenset({"the", "agg", "switch", "domain", "block", "rack", "spine"})
_AFTER_ITS_NOUN = frozenset({"physical", "total", "average"})
_OF_AFTER = frozenset({"below", "above", "under", "over", "after"})
_PLACE_SAID = frozenset({"stays", "stay", "sits", "sit", "lives", "resides", "lies"})
_SECOND_LANGUAGE_WORDS = frozenset({
    "become", "becomes", "name", "to", "there", "have", "has", "capacity", "capacities", "of",
    "wey", "dey", "put", "cancel", "get", "gets", "am", "located", "situated", "summary",
    "summed", "summarized", *_LATER, *_PLACE_SAID, *_LIGHT_VERBS, *_AFTER_DONE})


# What comes before an order said as an infinitive: "After, to rank ...", "and to return".
_INFINITIVE_LEADS = frozenset({"after", "then", "and", "next", "also", "afterwards", "finally",
                               "first", ","})


def _infinitive_order(sentence: list[Token], _after: bool = False) -> list[Token]:
    """A sentence that orders by an infinitive, as speakers of Romance languages write it
    ("To remove X from the graph.", "After, to list the child nodes of S.", "To add port N to
    S and to return a graph."): the order said plainly. A purpose said before its request
    ("To remove X, list the ports of S first") stays as it is: every mark that parts the
    sentence must lead on to a next step or a name."""
    first = _first_said(sentence)
    if first is None:
        return sentence
    at = first
    while at < len(sentence) and (sentence[at].text in _INFINITIVE_LEADS or "THEN" in
                                   P.LEXICON.get(sentence[at].text, ()) or (
            sentence[at].text in ("that", "this") and sentence[at - 1].text == "after")):
        at += 1
    if at + 1 >= len(sentence) or sentence[at].text != "to" or not _an_order(sentence[at + 1]):
        return sentence
    for i in range(at + 2, len(sentence)):
        if sentence[i].text in _COMMAS and i + 1 < len(sentence) and not (
                sentence[i + 1].text in _NEXT_STEP or sentence[i + 1].kind == "NAME"
                or sentence[i + 1].text in ("ok", "okay", "please")):
            return sentence
    out = sentence[:at]
    for i in range(at + 1, len(sentence)):
        if not (sentence[i].text == "to" and sentence[i - 1].text in _INFINITIVE_LEADS
                and i + 1 < len(sentence) and _an_order(sentence[i + 1])):
            out.append(sentence[i])
    return out


def _an_order(token: Token) -> bool:
    """Whether ``token`` is a verb a request starts with, "return" among them."""
    return _a_verb(token) or "RETURN" in P.LEXICON.get(token.text, ())


# "Is necessary remove X", "is possible you add N to S?": a need, or a polite question,
# said without its "it" (as Romance languages leave it out).
_NEEDS_SAID = frozenset({"necessary", "needed", "important", "required", "essential"})
_NEED_LEADS = frozenset({"to", "that", "you", "u", "for"})


def _per_sentence_and_end(tokens: list[Token], rewrite: Callable[
        [list[Token], Token | None], tuple[list[Token], Token | None]]) -> list[Token]:
    """``tokens`` with each sentence and the mark that ends it (None: the text's end without
    one) rewritten by ``rewrite(sentence, end)``."""
    out: list[Token] = []
    start = 0
    for at, token in enumerate([*tokens, None]):
        if token is not None and token.text not in _SENTENCE_ENDS:
            continue
        sentence, end = rewrite(tokens[start:at], token)
        out += sentence + ([end] if end is not None else [])
        start = at + 1
    return out


def _topic_said_first(sentence: list[Token], end: Token | None
                      ) -> tuple[list[Token], Token | None]:
    """A sentence that opens on the node it is about ("About S, how many ports are there?",
    "About A. Add port N there ..."), as Japanese says the topic first: said as "regarding S,"
    (a heading of its own, "About A.", as "regarding A:"). "About" before anything but a
    node ("about 10 Gbps") stays, and so is refused."""
    first = _first_said(sentence)
    if first is None or sentence[first].text != "about":
        return sentence, end
    at = first + 1
    while at < len(sentence) and sentence[at].text in P.KIND_WORDS:
        at += 1
    if at >= len(sentence) or sentence[at].kind != "NAME" or (
            at + 1 < len(sentence) and sentence[at + 1].text not in (",", ":")):
        return sentence, end
    said = [*sentence[:first], _VOCABULARY_TOKENS["regarding"], *sentence[first + 1:]]
    return said, _COLON if at + 1 == len(sentence) and end is not None and end.text == "." \
        else end


_COLON = Token("PUNCT", ":")


def _need_said_without_it(sentence: list[Token], end: Token | None
                          ) -> tuple[list[Token], Token | None]:
    """A sentence that says a need, or asks whether something is possible, without its "it"
    (see ``_need_without_it``); a need asked as a question ("is necessary remove X?") asks
    whether, and stays as it is ("..., ok?" asks to be heard)."""
    asked = end is not None and end.text == "?" and not (
        sentence and sentence[-1].text in ("ok", "okay"))
    return _need_without_it(sentence, asked), end


def _need_without_it(sentence: list[Token], asked: bool) -> list[Token]:
    """A sentence that says a need, or asks whether something is possible, without its "it"
    ("Is necessary remove X", "Is possible you add N to S?"): said with it ("it is
    necessary to remove X", "is it possible to add N to S?"), unless the need is ``asked``."""
    first = _first_said(sentence)
    if first is not None and first + 2 < len(sentence) and sentence[first].text == "need" \
            and sentence[first + 1].text == "to" and _a_verb(sentence[first + 2]) and not asked:
        return [*sentence[:first], _VOCABULARY_TOKENS["i"], *sentence[first:]]  # "need to X"
    if first is None or first + 2 >= len(sentence) or sentence[first].text != "is":
        return sentence
    need = sentence[first + 1].text
    if need != "possible" and (need not in _NEEDS_SAID or asked):
        return sentence
    verb = first + 2
    while verb < len(sentence) and sentence[verb].text in _NEED_LEADS:
        verb += 1
    if verb >= len(sentence) or not _a_verb(sentence[verb]):
        return sentence
    said = "is it possible to" if need == "possible" else "it is necessary to"
    return [*sentence[:first], *map(_VOCABULARY_TOKENS.__getitem__, said.split()),
            *sentence[verb:]]


def _taken_back(token: Token) -> bool:
    """Whether a word begun and taken back may go with no loss: a word of the grammar or a
    filler, naming no node and no number, that says nothing of how or whether the request is
    meant ("hypothetical", "skip" and any word netmend does not know stay)."""
    return token.kind == "WORD" and (
        token.text in P.LEXICON or token.text in P.KIND_WORDS or token.text in _FILLER_WORDS
    ) and token.text not in P.HEDGES and token.text not in context.REHEARSALS


_SUBJECTLESS_MODALS = frozenset({"can", "could"})


def _modal_without_subject(sentence: list[Token], _after: bool = False) -> list[Token]:
    """A request asked with a modal and no one to do it ("Can help me add X?", "can remove X
    or not?", as English of East and South-East Asia often asks it): said to whom it is said
    to ("can you add X?"), and without the "or not" that asks it as a yes-or-no question."""
    first = _first_said(sentence)
    if first is None or sentence[first].text not in _SUBJECTLESS_MODALS \
            or first + 1 >= len(sentence) or not (
                sentence[first + 1].text == "help" or _a_verb(sentence[first + 1])):
        return sentence
    said = [*sentence[:first + 1], _VOCABULARY_TOKENS["you"], *sentence[first + 1:]]
    return said[:-2] if [t.text for t in said[-2:]] == ["or", "not"] else said


def _per_sentence(tokens: list[Token],
                  rewrite: Callable[[list[Token], bool], list[Token] | None]) -> list[Token]:
    """``tokens`` with each sentence rewritten by ``rewrite(sentence, after)`` (``after``: a
    sentence was kept before it), its end kept; a sentence rewritten to None goes with its
    end."""
    out: list[Token] = []
    start = 0
    for end, token in enumerate([*tokens, None]):
        if token is not None and token.text not in _SENTENCE_ENDS:
            continue
        said = rewrite(tokens[start:end], bool(out))
        if said is not None:
            out += said + tokens[end:end + 1]
        start = end + 1
    return out


def _without_story_frame(sentence: list[Token], _after: bool = False) -> list[Token]:
    """A sentence of a user story without its frame: the role it is said in, first ("As a
    capacity planner, I want ..."), and the benefit it is for, last ("..., so that the
    inventory is right", "... so we can plan"). Neither asks for anything: a role is a few
    words that name no node, number or word that could say how or whether; a benefit names
    no node and no number and says no next step."""
    if len(sentence) > 3 and sentence[0].text == "as" and sentence[1].text in _ROLE_ARTICLES:
        asker = next((i for i in range(2, min(len(sentence), 3 + _LONGEST_ROLE))
                      if sentence[i].text in _ASKERS), None)
        role = sentence[2:asker][:-1] if asker and sentence[asker - 1].text == "," else \
            sentence[2:asker]
        if asker and role and all(t.kind == "WORD" and t.text not in P.HEDGES
                                  and t.text not in context.CARRIES for t in role):
            sentence = sentence[asker:]
    for at in range(2, len(sentence) - 2):
        if sentence[at].text == "so" and (sentence[at + 1].text == "that" or (
                sentence[at + 1].text in _BENEFITED and sentence[at + 2].text in _BENEFIT_VERBS)):
            benefit = sentence[at + 1:]
            if not any(t.kind in ("NAME", "NUM") or t.text in _NEXT_STEP or t.text in
                       _NOT_A_BENEFIT or t.text in P.HEDGES or t.text in P.NUMBER_WORDS
                       for t in benefit) and not any(
                    x.cats & _SAYS_A_VALUE for x in lex(benefit)):
                return sentence[:at - (sentence[at - 1].text == ",")]
            break
    return sentence


def _which_graph(sentence: list[Token], after: bool) -> list[Token]:
    """A sentence without the clause that only says which graph it is about, before a comma:
    "Given the default topology, ...", "Using the topology provided, ...", "Starting from the
    reference graph, ...", "Using the modified graph, ...". A graph as it was before any change
    ("the default / initial / provided topology") is the graph only in the request's first
    sentence: said later, it would be the graph before the changes said first."""
    if not sentence or sentence[0].text not in _GRAPH_LEAD_FIRST:
        return sentence
    lead = next((len(said) for said in _GRAPH_LEADS
                 if [t.text for t in sentence[:len(said)]] == list(said)), 0)
    comma = next((i for i, t in enumerate(sentence) if t.text == ","), None)
    if not lead or comma is None or comma <= lead + 1:
        return sentence
    said = [t.text for t in sentence[lead:comma]]
    figure = next((i for i in range(len(said) - 1) if said[i] in ("in", "on") and said[i + 1]
                   in _FIGURES), len(said))  # "... shown in Figure 1"
    if figure < len(said) and not all(t.isdigit() or t in _FIGURES or t == "."
                                      for t in said[figure + 1:]):
        return sentence
    words = said[:figure]
    if sum(t in _GRAPH_NOUNS for t in words) != 1 or not all(
            t in _GIVEN_GRAPH or t in _GRAPH_AFTER or not after and t in _GRAPH_BEFORE
            for t in words):
        return sentence
    return sentence[comma + 1:]


_GRAPH_LEADS = (("given",), ("using",), ("starting", "from"), ("working", "from"),
                ("working", "on"), ("based", "on"), ("with",), ("on",), ("against",))
_GRAPH_LEAD_FIRST = frozenset(said[0] for said in _GRAPH_LEADS)
_GRAPH_NOUNS = frozenset({"topology", "graph", "network", "topo", "model"})
_FIGURES = frozenset({"figure", "fig", "diagram", "exhibit"})
# Words of the graph as it is after the changes said so far, and as it was before them.
_GRAPH_AFTER = frozenset({"updated", "modified", "resulting", "changed", "new", "current",
                          "latest"})
_GRAPH_BEFORE = frozenset({"default", "initial", "baseline", "starting", "unmodified",
                           "standard", "provided", "given", "reference", "original",
                           "supplied", "attached", "shown", "above", "below", "sample",
                           "example", "following"})


def _procedure_said(sentence: list[Token], after: bool) -> list[Token] | None:
    """A sentence of radio procedure around the request ("Copy?", "Confirm when done.",
    "Standing by.", "Execute.", "Over.", "Roger.") or one where someone says who speaks
    ("IC here.", "Shift lead here."): it says nothing of the request, and goes. "Stand by"
    (wait) and "Hold" are no procedure: they say the request is not to be done yet."""
    texts = [t.text for t in sentence]
    if texts and all(text in _PROCEDURE for text in texts) and " ".join(texts) not in (
            "stand by", "standby"):
        return None
    if not after and 1 < len(texts) <= _SPEAKER_WORDS + 1 and texts[-1] == "here" and all(
            text in _TEAM_WORDS or text in _WHO_SPEAKS for text in texts[:-1]):
        return None  # not "Uplinks here.": that may say which nodes
    return sentence


# The words of radio procedure, said as a sentence of their own.
_PROCEDURE = frozenset({"copy", "copied", "roger", "wilco", "over", "out", "execute",
                        "acknowledge", "ack", "confirm", "when", "done", "complete",
                        "completed", "standing", "by", "report", "back", "and", "affirmative",
                        "affirm", "understood", "how", "receipt", "once", "finished", ",",
                        "?", "!"})
_PROCEDURE_SAID = frozenset({"copy", "roger", "wilco", "over", "out", "execute", "acknowledge",
                             "confirm", "standing", "report", "affirmative", "here"})
_SPEAKER_WORDS = 3
_WHO_SPEAKS = frozenset({"ic", "lead", "shift", "commander", "incident", "bridge", "duty",
                         "manager", "oncall", "on-call", "noc", "soc", "desk", "the", "officer",
                         "engineer", "sre", "netops", "control"})


def _without_chase(sentence: list[Token], _after: bool = False) -> list[Token] | None:
    """A sentence without how the request is chased: a sentence that only complains it is
    not done yet ("Still waiting!!", "How many times do I have to ask?", "I shouldn't have
    to ask twice.", "This was promised last week.", "Please just do it.") or wishes well to
    close ("Have a good weekend!"), or a lead that only says it is asked again ("Following
    up AGAIN on ticket #5290:", "Asking for the third time:", "Third reminder:"). Each is a
    whole formula: "again", "not", "last" said otherwise stay, and refuse."""
    said = " ".join(t.text for t in sentence if t.text not in ("!", "?"))
    if _CHASED.fullmatch(said):
        return None
    lead = _CHASE_LEAD.match(said)
    if lead is None:
        return sentence
    words = len(lead.group(0).split())
    at = 0
    for _ in range(words):  # the lead's words, each a token of the sentence (no "!"/"?")
        while sentence[at].text in ("!", "?"):
            at += 1
        at += 1
    return sentence[at:] if at < len(sentence) else None


# A word every chase and closing wish says: the pass runs only when one is said.
_CHASE_WORDS = frozenset({"enjoy", "still", "times", "have", "promised", "due", "requested",
                          "where", "why", "anyone", "hello", "just", "not", "ugh", "sigh",
                          "seriously", "come", "following", "chasing", "checking", "bumping",
                          "asking", "pinging", "once", "one", "second", "third", "fourth",
                          "fifth", "nth", "umpteenth", "hundredth", "2nd", "3rd", "4th", "5th",
                          "6th"})
_TIMES_ASKED = r"(?:second|third|fourth|fifth|nth|umpteenth|hundredth|2nd|3rd|4th|5th|6th)"
_CHASE_LEAD = re.compile(
    rf"(?:(?:following up|chasing|checking in|bumping|asking|pinging)(?: (?:again|once more|"
    rf"yet again))?(?: (?:on )?(?:this|that|my request|the request|ticket(?: number)? \d+))?"
    rf"(?: (?:again|once more|yet again))?(?: for the {_TIMES_ASKED} time)?"
    rf"|(?:for the )?{_TIMES_ASKED} (?:time asking|time|reminder|request|ask|attempt)"
    rf"|once more|one more time|(?:please )?just do it(?: already)?)(?: (?::|-|,)(?= |$)|$)")
_CHASED = re.compile(
    r"(?:still (?:waiting|no answer|nothing|no reply|no response|no update|not done)"
    r"|how many times(?: (?:do|must) i (?:have to )?ask| have i asked)?"
    r"|i (?:should not|shouldn not) have to (?:ask|chase|remind you|follow up)(?: twice| again"
    r"| this| on this)?"
    r"|(?:this|it) was (?:promised|due|requested|asked for)(?: (?:last week|yesterday|days ago"
    r"|weeks ago|last month))?"
    r"|where is it|why is this (?:still )?(?:open|not done|taking so long)"
    r"|(?:hello )?anyone there|hello|(?:please )?just do it(?: already)?(?: please)?"
    r"|(?:it is |this is )?not (?:hard|complicated|difficult|rocket science)"
    r"|ugh|sigh|seriously|come on"
    # a wish to close with: "Have a good weekend!", "Thanks, have a nice day."
    r"|(?:(?:thanks|thank you|cheers|and) (?:, )?)?(?:have a|enjoy your) (?:good |nice |great "
    r"|lovely |wonderful )?(?:day|one|weekend|evening|week|shift|night|morning|afternoon))")


def _tool_checked(sentence: list[Token], _after: bool = False) -> list[Token]:
    """A step of a test plan read as what the tool is to do: "Check that the tool returns the
    agg block containing P", "..., then verify the tool lists the ports of S" -> "return
    ...", "... then list ...". Only the tool may be said to do it ("verify that X is
    removed" checks a state)."""
    return _rewritten(sentence, _checked)


def _checked(sentence: list[Token], start: int) -> tuple[int, list[Token]] | None:
    """How many tokens "check (that) the tool VERBs" that starts at ``start`` (first, or after
    ", ", "then", "and") reads, and the verb it says the tool is to do; None when none starts
    there."""
    if sentence[start].text not in _CHECKS or start and sentence[start - 1].text not in (
            ",", "then", "and"):
        return None
    at = start + 1 + (start + 1 < len(sentence) and sentence[start + 1].text == "that")
    at += at < len(sentence) and sentence[at].text == "the"
    if at + 1 >= len(sentence) or sentence[at].text not in _ANSWERERS:
        return None
    verb = sentence[at + 1].text
    base = next((verb[:-len(end)] for end in ("es", "s") if verb.endswith(end)
                 and verb[:-len(end)] in _CHECKED_VERBS), None)
    return None if base is None else (at + 2 - start, [_VOCABULARY_TOKENS[base]])


_CHECKS = frozenset({"check", "verify", "confirm", "ensure", "validate", "test"})
# What a tool is checked to do, in the words the grammar reads as a request's verb.
_CHECKED_VERBS = frozenset({
    "return", "list", "find", "compute", "calculate", "remove", "delete", "report", "add",
    "rank", "sort", "order", "count", "set", "update", "show", "give", "identify", "display",
    "create", "drop", "change"}) & frozenset(_VOCABULARY_TOKENS)


def _given_when_then(sentence: list[Token], _after: bool = False) -> list[Token]:
    """An acceptance criterion read as the request it states: "Given the current graph, When
    X is removed, Then the children of S are listed" -> "when X is removed, the children of S
    are listed". The "given" part may only say which graph (the current one); a "when" part
    that only says the work is done ("When the story is done") goes; a "then" part may say
    who answers ("Then the response lists ...") and what answers are given back ("... are
    returned ranked by capacity"), or that named nodes are gone ("Then X is no longer in the
    graph", "Then X has been removed"): that is their removal."""
    if not sentence or sentence[0].text != "given":
        return sentence
    when = next((i for i, t in enumerate(sentence) if t.text in ("when", "then")), None)
    if when is None or not all(t.text in _GIVEN_GRAPH for t in sentence[1:when]):
        return sentence
    then = next((i for i in range(when, len(sentence)) if sentence[i].text == "then"), None)
    if then is None:
        return sentence
    done = [t for t in sentence[when + 1:then] if t.text != ","]
    said = [] if sentence[when].text == "then" or all(t.text in _WORK_DONE for t in done) \
        else sentence[when:then]
    result = sentence[then + 1:]
    if result and result[0].text == "the":
        result = result[1:]
    if result and result[0].text in _ANSWERERS and len(result) > 1:
        verb = _ANSWERED_BY.get(result[1].text)
        if verb is None:
            return sentence
        result = [Token("WORD", verb, verb), *result[2:]]
    result = [t for i, t in enumerate(result) if not (
        t.text in _GIVEN_BACK and i and result[i - 1].text in P.COPULAS)]
    result = [t for t in result if t.text not in _GIVEN_BACK] if any(
        t.text == "ranked" for t in result) else result
    gone = _gone_from_graph(result)
    if gone is not None:
        result = [_VOCABULARY_TOKENS["remove"], *gone]
    return [*said, *result]


_GIVEN_GRAPH = frozenset({"the", "a", "current", "existing", "live", "present", "topology",
                          "graph", "network", "topo", "model", ",", "this", "our", "your"})
# A "when" that only says the work is done: "When the story is done", "When the change is
# applied", "When this ticket closes".
_WORK_DONE = frozenset({"the", "this", "that", "story", "ticket", "change", "work", "task",
                        "item", "is", "gets", "has", "been", "done", "complete", "completed",
                        "applied", "closes", "closed", "finished", "delivered", "merged",
                        "lands", "landed", "ships", "shipped", "deployed"})
_ANSWERERS = frozenset({"response", "result", "output", "answer", "reply", "system", "tool",
                        "service", "api", "agent"})
_ANSWERED_BY = {"lists": "list", "ranks": "rank", "returns": "return", "shows": "show",
                "gives": "give", "counts": "count", "reports": "report"}
# What says an answer is given back: "... are returned (ranked by capacity)".
_GIVEN_BACK = frozenset({"returned", "shown", "reported", "given", "provided"})


def _gone_from_graph(result: list[Token]) -> list[Token] | None:
    """The nodes a result says are gone ("X is no longer in the graph", "X and Y have all been
    removed", "port X is gone from the graph", "X no longer exists"), with the kind said of
    them; None when it says anything else."""
    said = next((i for i, t in enumerate(result) if not (
        t.kind == "NAME" or t.text in (",", "and") or t.text in P.KIND_WORDS)), len(result))
    if not any(t.kind == "NAME" for t in result[:said]):
        return None
    rest = [t.text for t in result[said:] if t.text not in _SENTENCE_ENDS]
    if rest[:1] and rest[0] in ("is", "are", "has", "have"):
        rest = rest[1:]
    return result[:said] if " ".join(rest) in _SAID_GONE else None


_GRAPH_SAID = ("", " in the graph", " in the topology", " in graph", " in it", " in the model")
_SAID_GONE = frozenset(
    f"{all_}{been}{done}{where}" for all_ in ("", "all ", "both ") for been in ("", "been ")
    for done in ("removed", "deleted", "gone", "taken out") for where in (
        "", " from the graph", " from the topology", " from it", " from graph")) | frozenset(
    f"no longer{what}{where}" for what in ("", " present", " exists") for where in _GRAPH_SAID
    if what or where) | frozenset(f"not{where} anymore" for where in _GRAPH_SAID if where)


_ROLE_ARTICLES = frozenset({"a", "an", "the", "one", "our"})
# What a benefit may not say: a value or a rate ("so that its capacity is ten gigabits"), a
# change ("so we can remove them later"), a time or a condition.
_SAYS_A_VALUE = frozenset({"NUM", "RATE", "NAME", "REMOVE", "TAKE", "REMOVAL", "ADD",
                           "ADDITION", "SET", "SETP", "NEW", "MAKE", "GIVE", "GONE", "ADDED",
                           "FOREACH", "EACHW", "PER", "PERNODE"})
_NOT_A_BENEFIT = frozenset({"if", "later", "once", "when", "before", "after", "first"})
_LONGEST_ROLE = 5
_BENEFITED = frozenset({"i", "we", "you", "they", "the", "our"})
_BENEFIT_VERBS = frozenset({"can", "could", "will", "know", "see", "get", "have", "may",
                            "might", "team", "planners", "planner"})


def _without_asked_again(tokens: list[Token]) -> list[Token]:
    """The request without a later sentence that only asks for it again (see
    ``_ASKED_AGAIN``); never the first sentence, which would leave nothing asked."""
    return _per_sentence(tokens, lambda sentence, after: None if after and _ASKED_AGAIN.fullmatch(
        " ".join(t.text for t in sentence if t.text != ",")) else sentence)


def _to_be_done(tokens: list[Token]) -> list[Token]:
    """A sentence that names what is to change, then "to be" and how, as a ticket's headline
    says it ("Handover: X to be removed from the graph.", "Physical capacity of P to be
    modified to 10G."): what "X is to be removed" says. Only when no verb comes before."""
    def said(sentence: list[Token], _after: bool) -> list[Token]:
        at = next((i for i in range(1, len(sentence) - 2) if sentence[i].text == "to"
                   and sentence[i + 1].text == "be"), None)
        if at is not None and any(t.kind == "NAME" for t in sentence[:at]) and not any(
                t.text in _TO_VERBS or t.text in P.COPULAS or t.text in P.ASKING_MODALS
                or t.text in _SHOULDS or t.kind == "PUNCT" for t in sentence[:at]) and not any(x.cats & _ACTIONS
                                                     for x in lex(sentence[:at])):
            return [*sentence[:at], _VOCABULARY_TOKENS["is"], *sentence[at:]]
        return sentence

    return _per_sentence(tokens, said)


_SHOULDS = frozenset({"should", "must", "shall"})
_ACTIONS = frozenset({"REMOVE", "TAKE", "ADD", "SET", "SETP", "ASK", "COUNT", "RANK", "MAKE",
                      "GIVE", "GET", "WANT"})


# Courtesy said around a request, as a small grammar of the frames politeness takes in many
# Englishes, and of the questions a forum post asks how to do what it wants done: each frame
# is a sequence of slots, a slot the words it may be; a slot "~soft" or "~manner" may stand
# any number of times, or none ("I'd really appreciate it", "would you mind awfully", "if
# you could possibly", "the best way to"). A frame is said again as the plain courtesy
# after "=>" (which the lexer reads), or as "?" when it asks how to do what follows; what
# follows is the request. Every frame says "you", "i", "we", "one" or "way" (and a sentence
# that only asks how, "how"): the pass runs only when one of them is said.
_SOFTENERS = frozenset({"really", "so", "ever", "very", "most", "awfully", "terribly",
                        "truly", "greatly", "hugely", "massively", "incredibly", "extremely",
                        "super", "possibly"})  # not "perhaps": it may offer, not ask
# How a way to do the request is qualified: "the best way to", "a clean way to".
_MANNERS = frozenset({"best", "easiest", "simplest", "cleanest", "quickest", "fastest",
                      "right", "proper", "correct", "recommended", "preferred", "clean",
                      "simple", "quick", "good", "easy", "safest", "standard", "usual",
                      "neat", "neatest", "nice", "nicest", "sane", "sanest"})
_REPEATED = {"~soft": _SOFTENERS, "~manner": _MANNERS}
_COURTESY_FRAMES = tuple(
    (tuple(_REPEATED.get(slot) or frozenset(slot.split("|")) for slot in frame.split()),
     None if plain == " ?" else [_VOCABULARY_TOKENS[word] for word in plain.split()])
    for frame, plain in (said.split(" =>") for said in (
        # "I'd (really) appreciate it if you could ...", "we would appreciate it if you ..."
        "i|we would|should|will ~soft appreciate it if|should you ~soft could|would|can|might"
        " ~soft => could you",
        "i|we would|should|will ~soft appreciate it if|should you ~soft => could you",
        # "I'd be (ever so) grateful if you could ...", "we would be obliged if you ..."
        "i|we would|should|will ~soft be ~soft grateful|obliged|thankful|glad|delighted"
        "|pleased if|should you ~soft could|would|can|might ~soft => could you",
        # "it would be (really) great / lovely / helpful if you could ..."
        "it would|will ~soft be ~soft appreciated|great|lovely|wonderful|brilliant|helpful"
        "|fab|fantastic|grand|awesome|amazing|ideal|perfect|good|nice|marvellous|marvelous"
        "|splendid if you ~soft could|would|can|might ~soft => could you",
        # "Could I trouble you to ...", "may I ask you to ..."
        "could|can|may|might i|we trouble|bother|ask you ~soft to ~soft => could you",
        # "would you (kindly) mind (awfully) ...ing"
        "would|do you ~soft mind ~soft => would you mind",
        # "I wonder / was wondering / wondered if you could (possibly) ..."
        "i|we wonder|wondered if|whether you ~soft could|would|can|might ~soft => could you",
        "i|we was|am|were|are wondering if|whether you ~soft could|would|can|might ~soft"
        " => could you",
        # "could you possibly ...": a softener said alone
        "could|would|can|will you ~soft => could you",
        # whether it can be done, asked as "can I ...?" is: "is there a clean way to ..."
        "is there a|an|any ~manner way to =>",
        # how to do it, asked: "How would I remove X?", "anyone know how to ...", "can
        # someone tell me the best way to ...", "what's the cleanest way to ..."
        "how do|would|can|could|should i|we|one => ?",
        "can|could|would|will someone|somebody|anyone|anybody|you tell|show me|us how to => ?",
        "can|could|would|will someone|somebody|anyone|anybody|you tell|show me|us the"
        " ~manner way to => ?",
        "does|do anyone|anybody|someone|somebody|you know how to => ?",
        "anyone|anybody|someone|somebody know|knows how to => ?",
        "does|do anyone|anybody|someone|somebody|you know the|a|any ~manner way to => ?",
        "anyone|anybody|someone|somebody know|knows the|a|any ~manner way to => ?",
        "what is the ~manner way to => ?",
    )))
_COURTESY_SAID = frozenset({"you", "i", "we", "one", "way", "how"})
# A sentence that only asks how to do what the one before it wants done: "How would I do
# that?", "What's the best way?", "Can someone tell me how?".
_DONE_THAT = r"(?: (?:to )?(?:do|achieve|accomplish) (?:that|this|it))?"
_A_WAY = rf"(?:(?:{'|'.join(sorted(_MANNERS))}) )*way{_DONE_THAT}"  # "(the) best way (to do it)"
_HOW_ALONE = re.compile(
    rf"(?:how (?:do|would|can|could|should) (?:i|we|one) (?:do|achieve|accomplish) (?:that"
    rf"|this|it)|what is the {_A_WAY}|(?:can|could|would) (?:someone|somebody|anyone|anybody"
    rf"|you) (?:tell|show) (?:me|us) how{_DONE_THAT}|is there a {_A_WAY}|(?:does )?(?:anyone"
    rf"|anybody|someone) know how{_DONE_THAT}|how)")


def _tldr(tokens: list[Token], at: int) -> tuple[int, list[Token]] | None:
    """How many tokens a "TL;DR" label that starts at ``at`` reads ("TL;DR:", "tl;dr -"),
    as nothing; None when none starts there."""
    if [t.text for t in tokens[at:at + 3]] != ["tl", ";", "dr"]:
        return None
    return 3 + (at + 3 < len(tokens) and tokens[at + 3].text in (":", "-", ",", ";")), []


def _courtesy_frame_end(sentence: list[Token], at: int
                        ) -> tuple[int, list[Token] | None] | None:
    """Where a frame of :data:`_COURTESY_FRAMES` that starts at ``at`` ends, and the plain
    courtesy it says (None: it asks how); None when none starts there, or the first that
    does says no more than the plain one (it is said plainly, or "could you" with no
    softener)."""
    texts = [t.text for t in sentence]
    for frame, plain in _COURTESY_FRAMES:
        i = at
        softened = False
        for slot in frame:
            if slot is _SOFTENERS or slot is _MANNERS:
                while i < len(texts) and texts[i] in slot:
                    i, softened = i + 1, True
            elif i < len(texts) and texts[i] in slot and sentence[i].kind == "WORD":
                i += 1
            else:
                break
        else:
            if i == len(sentence) or sentence[i].kind != "WORD" \
                    or plain is not None and texts[at:i] == [t.text for t in plain]:
                return None  # no request after it, or already said plainly
            if softened or i - at > len(plain or ()):
                return i, plain
    return None


def _courtesy_said_plainly(tokens: list[Token]) -> tuple[list[Token], bool]:
    """The request with the courtesy of each sentence said plainly (see
    :func:`_without_courtesy`), and whether a sentence asks how to do it."""
    asked_how = False

    def plain(sentence: list[Token], after: bool) -> list[Token] | None:
        nonlocal asked_how
        said, how = _without_courtesy(sentence, after)
        asked_how = asked_how or how
        return said

    return _per_sentence(tokens, plain), asked_how


def _without_courtesy(sentence: list[Token], after: bool) -> tuple[list[Token] | None, bool]:
    """A sentence with the courtesy of its request said plainly: a frame of
    :data:`_COURTESY_FRAMES` said first, or after a greeting or an apology's comma ("Hi, I'd
    really appreciate it if you could remove X" -> "Hi, could you remove X"), and without a
    moment asked for ("when you get a sec, ..."), and whether it asks how to do it ("how
    would I ...", "anyone know how to ...", or a later sentence or a last part set apart
    that only asks so: "How would I do that?", "..., what's the best way"). The softeners
    go only with a frame: "possibly remove X" alone stays a hedge."""
    if after and _HOW_ALONE.fullmatch(" ".join(t.text for t in sentence)):
        return None, True
    at = 0
    how = False
    while at < len(sentence):
        opens = at == 0 or sentence[at - 1].text in (",", ":", "-", "]", "but", "so")
        if opens and at and _HOW_ALONE.fullmatch(" ".join(t.text for t in sentence[at:])):
            return sentence[:at - 1], True  # "remove X - how would I do that"
        framed = _courtesy_frame_end(sentence, at) if opens else None
        if framed is not None:
            end, plain = framed
            how = how or plain is None
            plain = plain or []
            sentence = [*sentence[:at], *plain, *sentence[end:]]
            at += len(plain)
            continue
        end = _moment_end(sentence, at)
        if end is not None and (opens or end == len(sentence)):  # said last, or set apart
            sentence = [*sentence[:at], *sentence[end:]]
            continue
        at += 1
    return sentence, how


# Courtesy about time, said before or after a request: "when you have a moment", "whenever
# you get a sec", "when you've got a minute": done now, it is done in time.
_A_MOMENT = frozenset({"moment", "sec", "second", "minute", "min", "mo", "tick", "chance"})


def _moment_end(sentence: list[Token], at: int) -> int | None:
    """Where "when(ever) you have / get / find / have got a moment (spare)" that starts at
    ``at`` ends, its comma with it; None when there is none."""
    if sentence[at].text not in ("when", "whenever"):
        return None
    texts = [t.text for t in sentence]
    if texts[at:at + 2] not in (["when", "you"], ["whenever", "you"]):
        return None
    i = at + 2 + (texts[at + 2:at + 4] == ["have", "got"])
    if i >= len(texts) or texts[i] not in ("have", "get", "got", "find"):
        return None
    i += 1 + (texts[i + 1:i + 2] in (["a"], ["the"]))
    i += texts[i:i + 1] in (["spare"], ["free"], ["quick"])
    if texts[i:i + 1] not in ([m] for m in _A_MOMENT):
        return None
    i += 1 + (texts[i + 1:i + 2] in (["spare"], ["free"]))
    return i + (texts[i:i + 1] == [","])


# What someone else asking for the request says ("Audit wants the full list", "Procurement
# needs every port in A whose capacity exceeds 25G", "The auditors asked for ..."): the same
# as the asker's own "I want".
_WANTS = {("wants",): "want", ("needs",): "need", ("requires",): "need",
          ("asked", "for"): "want", ("has", "asked", "for"): "want",
          ("have", "asked", "for"): "want", ("is", "asking", "for"): "want",
          ("are", "asking", "for"): "want", ("would", "like"): "want",
          ("would", "be", "grateful", "for"): "want",
          # what someone asks us to do, relayed: the request itself ("ACME are asking us to
          # add port N to S", "the customer would like us to ...")
          **{(*lead, "us", "to"): "" for lead in (
              ("would", "like"), ("is", "asking"), ("are", "asking"), ("asked",),
              ("have", "asked"), ("has", "asked"), ("wants",), ("want",), ("needs",),
              ("need",))}}
_WANTS_FIRST = frozenset(said[0] for said in _WANTS)
# The words only such a want has ("is" and "has" say much else): the pass runs when one is said.
_WANTS_SAID = frozenset(word for said in _WANTS for word in said) - P.COPULAS - {
    "has", "have", "for", "would", "be", "us", "to"}
_SOMEONE_WORDS = 3


def _someone_wants(tokens: list[Token]) -> list[Token]:
    """A request that someone else wants, said first in a sentence: who wants it is one to
    three words the grammar does not know ("audit", "the finance team", "procurement"), so it
    names no node, kind or number."""
    def wanted(sentence: list[Token], _after: bool) -> list[Token]:
        first = 1 if sentence and sentence[0].text == "the" else 0
        for at in range(first + 1, min(first + _SOMEONE_WORDS, len(sentence) - 1) + 1):
            said = next((w for w in _WANTS if tuple(t.text for t in sentence[at:at + len(w)])
                         == w), None)
            if said is not None:
                if all(t.kind == "WORD" and not (_grammar_word(t.text) or _held(t.text))
                       for t in sentence[first:at]):
                    if not _WANTS[said]:
                        return sentence[at + len(said):]
                    return [_VOCABULARY_TOKENS["i"], _VOCABULARY_TOKENS[_WANTS[said]],
                            *sentence[at + len(said):]]
                break
            if sentence[at].text in _WANTS_FIRST:
                break
        return sentence

    return _per_sentence(tokens, wanted)


def _asked_by_someone(sentence: list[Token], _after: bool = False) -> list[Token]:
    """A request made by someone else in the words of minutes and work orders: "It is hereby
    requested that X be removed", "The Committee requests that ...", "The Network
    Operations function shall list ..." (as "I request that ...", "list ..."). Who asks is
    one to four words that name no node, kind, number or word of the grammar (a word of
    the graph, "network", may be one of them); what they shall do is a verb ("shall be",
    "shall not" stay as written)."""
    written = sentence
    sentence = [t for i, t in enumerate(written) if not (  # "is hereby instructed to"
        t.text == "hereby" and i and written[i - 1].text in ("is", "are"))]
    texts = [t.text for t in sentence]
    if texts[:2] == ["it", "is"]:
        at = 2
        if texts[at:at + 2] in ([m, "that"] for m in _MANDATED):
            return [_VOCABULARY_TOKENS["i"], _REQUEST, *_in_order_said(sentence[at + 1:])]
        return written
    first = 1 if texts[:1] == ["the"] else 0
    for at in range(first + 1, min(first + _REQUESTER_WORDS, len(sentence) - 1) + 1):
        if not _requester_word(sentence[at - 1]):
            break
        said = at + (texts[at] == "hereby")
        if said < len(texts) and texts[said] in _REQUESTS:
            return [_VOCABULARY_TOKENS["i"], _REQUEST, *_in_order_said(sentence[said + 1:])]
        for lead in _DIRECTED:
            verb = said + len(lead)
            if tuple(texts[said:verb]) == lead and verb < len(texts) \
                    and texts[verb] not in _NOT_A_VERB:
                return sentence[verb:]
    return written


def _in_order_said(asked: list[Token]) -> list[Token]:
    """What is requested in clauses said one after another ("that X be removed, and that the
    children of A thereafter be listed"), each later clause read as the next step ("and that
    then the children of A be listed"): the clauses are in the order they are done, and
    "thereafter" only says so again."""
    first = next((i for i, t in enumerate(asked) if t.text == "that"), 0)
    out = list(asked[:first + 1])
    for i, token in enumerate(asked[first + 1:], first + 1):
        if token.text in _SAID_AFTER:
            continue
        out.append(token)
        if token.text == "that" and asked[i - 1].text in ("and", ","):
            out.append(_THEN)
    return out


_SAID_AFTER = frozenset({"thereafter", "subsequently"})


def _requester_word(token: Token) -> bool:
    cats = P.LEXICON.get(token.text)
    return token.kind == "WORD" and token.text not in P.HEDGES \
        and token.text not in context.CARRIES and (
            cats is not None and cats <= {"GRAPH"} or not (_grammar_word(token.text)
                                                           or _held(token.text)))


_REQUEST = Token("WORD", "request", "request")
_MANDATED = ("requested", "required", "directed", "ordered", "resolved", "instructed",
             "mandated")
_REQUESTS = frozenset({"requests", "directs", "instructs", "orders", "resolves", "asks",
                       "mandates"})
_DIRECTED = (("shall",), ("is", "to"), ("is", "directed", "to"), ("is", "requested", "to"),
             ("is", "asked", "to"), ("is", "instructed", "to"), ("are", "requested", "to"),
             ("are", "asked", "to"), ("are", "directed", "to"))
_NOT_A_VERB = frozenset({"be", "have", "not", "never", "further", "also"})
_REQUESTER_WORDS = 4
_ASKED_BY_WORDS = _REQUESTS | {"shall", "hereby", "directed", "requested", "asked",
                                "instructed", "required", "ordered", "resolved"}


def _known(word: str) -> bool:
    """A word the grammar reads, or one that may change what is asked."""
    return _grammar_word(word) or word in _MANNER or _held(word) or word in _VOCABULARY


# What starts a next step after a slash ("rm X from graph asap / then # switches in D?").
_NEXT_STEP = frozenset({"then", "after", "afterwards", "and"})


def _without_bookkeeping(tokens: list[Token]) -> tuple[list[Token], list[Token]]:
    """The request without the bookkeeping a tracker or a case note puts around it, and what
    was left out: a part at either end or in brackets that says who, when and which ticket
    ("AI-4 (netops): ...", "... owner: @dchen, due Fri", "(retro AI-12, due 06/01)",
    "remediation item, due 03/14: ..."). Such a part holds a mark of bookkeeping (a ticket
    number, a mention, a date) and otherwise only words the grammar gives no meaning, plain
    numbers and prepositions: no word that could say which nodes are meant (a participle, a
    word of :data:`context.CARRIES`, a critical word) and no word of a request. A run of such
    parts goes whole only when one of them holds a mark; a heading before a colon goes with a
    run at the request's other end. Mentions anywhere else are left out."""
    if not any(_marks_books(tokens, i) for i in range(len(tokens))):
        return [t for t in tokens if t.kind != "MENTION"], []
    parts = _bookkeeping_parts(tokens)
    drop: set[int] = set()
    marked = [span for span, is_kept, mark in parts if is_kept and mark]
    for span, is_kept, mark in parts:
        if is_kept and (mark or span[0] == 0 and marked and tokens[span[1] - 1].text == ":"):
            drop.update(range(*span))
    kept = [t for i, t in enumerate(tokens) if i not in drop and t.kind != "MENTION"]
    if not any(t.kind != "PUNCT" for t in kept):
        return [t for t in tokens if t.kind != "MENTION"], []
    return kept, [tokens[i] for i in sorted(drop)]


def _marks_books(tokens: list[Token], at: int) -> bool:
    """Whether the token at ``at`` may mark bookkeeping (see :func:`_bookkeeping`): most
    requests hold none, and are left as they are at once."""
    token = tokens[at]
    kind, text = token.kind, token.text
    if kind == "WORD":
        return text in _DATE_WORDS or text in _LABEL_FIRST and _reference_end(tokens, at) is not None \
            or text in _ESTIMATE_LABELS and _estimate_label(tokens, at) is not None
    if kind == "NUM" and _estimate_end(tokens, at) is not None:
        return True
    if kind == "NAME":
        return "." not in text and (_DATE_PART.fullmatch(text) is not None or _TICKET.fullmatch(
            str(token.value or text)) is not None) or _DOTTED_TICKET.fullmatch(text) is not None
    return kind == "MENTION" or kind == "NUM" and text.startswith("-")


def _bookkeeping_parts(tokens: list[Token]) -> list[tuple[tuple[int, int], bool, bool]]:
    """The parts of ``tokens`` that bookkeeping may be: each span (with its boundary), whether
    it is one (at an end of the request, in a run of such parts, or in brackets), and whether
    it holds a mark of bookkeeping."""
    spans: list[tuple[int, int, bool]] = []  # start, end, bracketed
    start = 0
    depth_open = None
    for i, tok in enumerate(tokens):
        if tok.kind != "PUNCT" and not (tok.kind == "WORD" and tok.text in ("-", "--")):
            continue
        if tok.text == "(":
            if i > start:
                spans.append((start, i, False))
            start, depth_open = i, i
        elif tok.text == ")" and depth_open is not None:
            spans.append((start, i + 1, True))
            start, depth_open = i + 1, None
        elif depth_open is None and tok.text in _BOOKKEEPING_BOUNDS:
            spans.append((start, i + 1, False))
            start = i + 1
    if start < len(tokens):
        spans.append((start, len(tokens), False))
    judged = [((a, b), *_bookkeeping(tokens[a:b], bracketed or not a))
              for a, b, bracketed in spans]
    out = []
    for at, ((a, b), fits, mark) in enumerate(judged):
        bracketed = spans[at][2]
        at_start = all(judged[k][1] for k in range(at))
        at_end = all(judged[k][1] for k in range(at + 1, len(judged)))
        out.append(((a, b), fits and (bracketed or at_start or at_end), mark))
    # a run is one whole: a mark in one of its parts marks every part of it
    for run in (range(len(out)), range(len(out) - 1, -1, -1)):
        marked = False
        for k in run:
            if not out[k][1]:
                break
            marked = marked or out[k][2]
        for k in run:
            if not out[k][1]:
                break
            out[k] = (out[k][0], True, marked or out[k][2])
    return out


def _bookkeeping(part: list[Token], labelled: bool) -> tuple[bool, bool]:
    """Whether a part (its boundary included) may be bookkeeping, and whether it holds a mark
    of it (a ticket number, a mention, a date). A ticket number alone marks only a part in
    brackets, at the request's start or before a colon (``labelled``): said alone after a
    request, it may be a new name ("add a switch to A - SW-9")."""
    words = [t for t in part if not (t.kind == "PUNCT" or t.text in ("-", "--"))]
    if not words:
        return True, False
    if len(words) == 1 and part[-1].text == ")" and words[0].text in _STEP_LETTERS:
        return False, False  # "(a)": the mark of a step, read with the others
    mark = False
    labelled = labelled or part[-1].text == ":" or any(t.kind == "WORD" for t in words)
    at = 0
    while at < len(words):  # "case #884213", "ticket INC-2231": a reference is one mark
        end = _reference_end(words, at) if words[at].text in _LABEL_FIRST else None
        if end is None:  # "2 pts", "1 story point", "est 3": an estimate is one too
            end = _estimate_end(words, at)
        if end is None and part[-1].text in (":", ".") and _estimate_label(words, at) == len(
                words):  # "Story points:", "Est.": a label whose number follows
            end = len(words)
        if end is not None:
            words[at:end] = [_REFERENCE]
        at += 1
    for tok in words:
        if tok.kind == "MENTION" or tok is _REFERENCE or tok.text in _DATE_WORDS:
            mark = True
        elif tok.kind == "NAME":
            if _DATE_PART.fullmatch(tok.text):
                mark = True
            elif _TICKET.fullmatch(str(tok.value or tok.text)):
                mark = mark or labelled
            else:
                return False, False
        elif tok.kind == "NUM":
            if tok.text.startswith("-") and tok.text[1:].isdigit():
                mark = True  # "2024-05-02"
            elif not tok.text.isdigit():
                return False, False
        elif tok.kind != "WORD" or tok.text in P.HEDGES or tok.text in context.CARRIES or (
                len(tok.text) > 4 and tok.text.endswith(("ed", "ing"))
                and tok.text not in P.LEXICON):  # "flagged", "flapping"; not "regarding"
            return False, False
    lexed = lex([t for t in words if t.kind == "WORD" and t is not _REFERENCE
                 and t.text not in _DATE_WORDS])
    if not all(x.cats <= _BOOKKEEPING_CATS for x in lexed):
        return False, False
    return True, mark


# What an estimate of effort is counted in ("2 pts", "1 story point", "3 SP") and what labels
# one ("Estimate: 2", "Story points: 1", "Est. 1 pt").
_ESTIMATE_UNITS = frozenset({"pt", "pts", "point", "points", "sp", "sps", "mark", "marks"})
_ESTIMATE_LABELS = frozenset({"est", "estimate", "estimated", "story", "points", "sp"})
_ESTIMATE_WORDS = _ESTIMATE_UNITS | _ESTIMATE_LABELS
_ESTIMATE_LABEL_PHRASES = (("story", "points"), ("story", "point"), ("estimate",),
                           ("estimated",), ("est",), ("points",), ("sp",))


def _estimate_label(tokens: list[Token], at: int) -> int | None:
    """Where a label of an estimate that starts at ``at`` ends ("story points", "est")."""
    for phrase in _ESTIMATE_LABEL_PHRASES:
        end = at + len(phrase)
        if tuple(t.text for t in tokens[at:end]) == phrase and all(
                t.kind == "WORD" for t in tokens[at:end]):
            return end
    return None


def _estimate_end(tokens: list[Token], at: int) -> int | None:
    """Where an estimate of effort that starts at ``at`` ends: a whole number and its unit
    ("2 pts", "1 story point"), or a label and a whole number ("est 1", "estimate: 2")."""
    def number(i: int) -> bool:
        return i < len(tokens) and tokens[i].kind == "NUM" and tokens[i].text.isdigit()

    if number(at):
        i = at + 1 + (at + 1 < len(tokens) and tokens[at + 1].text == "story")
        if i < len(tokens) and tokens[i].kind == "WORD" and tokens[i].text in _ESTIMATE_UNITS:
            return i + 1
        return None
    label = _estimate_label(tokens, at)
    if label is None:
        return None
    i = label + (label < len(tokens) and tokens[label].text in (":", "=", "."))
    if not number(i):
        return None
    end = _estimate_end(tokens, i)
    return end if end is not None else i + 1


def _without_estimates(tokens: list[Token]) -> list[Token]:
    """``tokens`` without the estimates of effort they hold ("Story points: 1", "2 pts")."""
    if not any(t.text in _ESTIMATE_WORDS for t in tokens):
        return tokens

    def estimate(tokens: list[Token], at: int) -> tuple[int, list[Token]] | None:
        end = _estimate_end(tokens, at)
        return None if end is None else (end - at, [])

    return _rewritten(tokens, estimate)


def _reference_end(tokens: list[Token], at: int) -> int | None:
    """Where a ticket's reference that starts at ``at`` ends ("case #884213", "ticket
    INC-2231"): a label with an identifier in it; None when there is none."""
    end = _label_end(tokens, at)
    if end is None or not any(t.kind != "WORD" and _label_id(t) is not None
                              for t in tokens[at:end]):
        return None
    return end


_STEP_LETTERS = frozenset({"a", "b", "c", "d", "e", "f", "i", "ii", "iii", "iv", "v", "vi"})
_BOOKKEEPING_BOUNDS = frozenset({".", "!", "?", ";", ":", "-", "--", ","})
_REFERENCE = Token("MENTION", "#")  # a ticket's reference, read as one mark
# What words of bookkeeping may be to the grammar: unknown, a preposition, "owner", "item".
_BOOKKEEPING_CATS = frozenset({"UNK", "PARENT", "NODE", "FROM", "PER", "OF", "IN", "BY", "TO",
                               "LOOKAT", "ABOUT", "AND", "COMMA"})
# A ticket's or an action item's number ("INC-2231", "AI-4", "CHG#12", "RITM0012345", "Q3").
_TICKET = re.compile(r"[A-Za-z]{1,12}[-#]\d+(?:\.\d+)*|[A-Z]{1,12}\d+")
# A test's or a section's number with dots ("ATP-4.6.5", "TC-3.1"): no node is named so.
_DOTTED_TICKET = re.compile(r"[A-Za-z]{1,12}-\d+(?:\.\d+)+")
_DATE_PART = re.compile(r"/\d{1,4}(?:/\d{1,4})?")  # "03/14" is read as 03 and /14
# Days, months and deadlines said as bookkeeping ("due Fri", "due EOW").
_DATE_WORDS = frozenset({
    "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "monday",
    "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "jan", "feb", "mar",
    "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "january", "february",
    "march", "april", "june", "july", "august", "september", "october", "november",
    "december", "eod", "eow", "eom", "eoq", "cob", "eob"})
# What every mark of bookkeeping has: a word of a date, a mention's "@", a ticket's "-", a
# date's "/" or "-", capitals before digits ("RITM0012345", "Q3"), or a reference's number
# ("case #884213").
_BOOK_CHARS = re.compile(r"[-/@]|[A-Z]\d|\d{3}")


def _intent_said_plainly(tokens: list[Token]) -> list[Token]:
    """An intent said with "we will" / "I'll" as the request it is ("first we'll take X out"
    -> "first we take X out"), unless "will" goes on to say more than what is done next ("we
    will not ...", "we will be ...")."""
    return [t for i, t in enumerate(tokens) if not (
        t.text in ("will", "shall") and i and tokens[i - 1].text in ("we", "i")
        and i + 1 < len(tokens) and tokens[i + 1].kind == "WORD"
        and tokens[i + 1].text not in _AFTER_WILL_KEPT)]


_AFTER_WILL_KEPT = frozenset({"be", "have", "not", "never", "no", "need", "want", "see", "then"})


# The last words of the words for kinds ("switches", "blocks" of "agg blocks"), and the
# first of those said in two words ("agg" of "agg block").
_KIND_LAST = frozenset(text.split()[-1] for text in P.KIND_WORDS)
_KIND_FIRST_OF_TWO = frozenset(text.split()[0] for text in P.KIND_WORDS if " " in text)
# What may follow "the switches we have": the set's place, or the end of a part.
_AFTER_WE_HAVE = frozenset({"in", "on", "under", "across", "within", "inside", "at",
                            "throughout", "below", "beneath"})


def _without_we_have(tokens: list[Token]) -> list[Token]:
    """A set said with "we have" ("every switch we have across the network", "the ports
    that we've got on S", "all of the switches we have, across the graph"): the set itself,
    when nothing but its place or the end of a part follows ("the switches we have
    decommissioned" stays)."""
    out = list(tokens)
    i = len(out) - 2
    while i > 0:
        if out[i].text == "we" and out[i + 1].text == "have":
            start = i - (out[i - 1].text in ("that", "which"))
            end = i + 2 + (i + 2 < len(out) and out[i + 2].text == "got")
            after = out[end] if end < len(out) else None
            if start and (out[start - 1].kind == "KIND" or out[start - 1].text in _KIND_LAST) \
                    and (after is None or after.kind == "PUNCT" or after.text in _AFTER_WE_HAVE):
                del out[start:end]
                i = start
        i -= 1
    return out


_REMOVE_WORDS = frozenset(word for word, cats in P.LEXICON.items()
                          if "REMOVE" in cats and " " not in word)


def _then_in_a_removal(tokens: list[Token]) -> list[Token]:
    """A removal of names one after another with its verb said once ("Remove A, then B, then C
    from the graph", "delete A first, then B"): a list of names, removed in that order. Only
    in a sentence that opens on the verb, and only a "then" right before a name that ends a
    list item (no other word of its own: "remove A, then B's ports" stays)."""
    first = 1 if tokens and tokens[0].text in ("please", "kindly") else 0
    if len(tokens) <= first or tokens[first].text not in _REMOVE_WORDS:
        return tokens
    out: list[Token] = []
    for i, t in enumerate(tokens):
        if t.text in _SENTENCE_ENDS:
            return out + tokens[i:]
        after = tokens[i + 2].text if i + 2 < len(tokens) else "."
        if t.text == "then" and out and out[-1].text in (",", "and") and i + 1 < len(tokens) \
                and tokens[i + 1].kind == "NAME" and after in _ENDS_A_LISTED_NAME:
            if out[-1].text == "," and len(out) > 1 and out[-2].text == "first":
                del out[-2]  # "A first, then B"
            continue
        out.append(t)
    return out


_ENDS_A_LISTED_NAME = _SENTENCE_ENDS | frozenset({",", "and", "then", "from"})


def _may_it_get(tokens: list[Token]) -> list[Token]:
    """A request asked as whether a node may get something ("Can S get a new port called N?",
    "Could S have a new port N?") said as the statement it asks for ("S gets a new port
    called N"), when a sentence or a clause opens so ("Hi, could S ..."). Not "does S have
    ..." (whether it has) and not "would" (what would be)."""
    out: list[Token] = []
    for i, t in enumerate(tokens):
        if t.text in ("get", "have") and i > 1 and tokens[i - 1].kind == "NAME" \
                and tokens[i - 2].text in ("can", "could") \
                and (i == 2 or tokens[i - 3].text in _SENTENCE_ENDS or tokens[i - 3].text == ","):
            out[-2:] = [tokens[i - 1]]  # the modal goes, the name stays
            out.append(_VOCABULARY_TOKENS["gets"])
        else:
            out.append(t)
    return out


def _last_part(tokens: list[Token], bounds: frozenset[str]) -> tuple[int, int]:
    """Where the last part of ``tokens`` between ``bounds`` starts and ends (the bounds that
    close it left out)."""
    end = len(tokens)
    while end and tokens[end - 1].text in bounds:
        end -= 1
    start = end
    while start and tokens[start - 1].text not in bounds:
        start -= 1
    return start, end


def _without_delivery(tokens: list[Token]) -> list[Token]:
    """The request without a last clause or sentence that only asks for the answer to be
    sent ("count the ports in S and let me know", "..., and send me the number?", "... and
    send it over.", "Please reply with the total."): a verb of sending or telling, and then
    only words for the answer and whom it goes to (no node, kind, number or word of the
    grammar's own, which would ask something more: "and send me the ports of S")."""
    start, end = _last_part(tokens, _SENTENCE_ENDS)
    for at in range(start, end):
        word = tokens[at].text
        if not (word == "and" or at == start and at):
            continue
        rest = [t.text for t in tokens[at + (word == "and"):end]]
        while rest and rest[0] in _DELIVERY_LEADS:
            rest = rest[1:]
        verb = next((v for v in _DELIVERY_VERBS if tuple(rest[:len(v)]) == v), None)
        if verb is None or not all(w in _DELIVERY_WORDS for w in rest[len(verb):]):
            continue
        cut = at - 1 if word == "and" and tokens[at - 1].text == "," else at
        if cut > 0:
            return [*tokens[:cut], *tokens[end:]] if word == "and" else tokens[:at]
    return tokens


# "... and let me know", "... and send me the number", "Please reply with the total."
_DELIVERY_VERBS = tuple(sorted((tuple(v.split()) for v in (
    "let me know", "let us know", "send", "send back", "send over", "email", "e-mail", "mail",
    "reply", "respond", "get back to me", "get back to us", "report back", "tell me", "tell us",
    "say me", "say us",
    "forward", "post", "ping me", "message me", "drop me", "write back", "share", "pass along",
    "pass on", "confirm")), key=len, reverse=True))
_DELIVERY_FIRST = frozenset(verb[0] for verb in _DELIVERY_VERBS)
_DELIVERY_LEADS = frozenset({"please", "pls", "kindly", "just", "then", "also", ","})
_DELIVERY_WORDS = frozenset({
    "it", "them", "that", "this", "me", "us", "the", "a", "an", "result", "results", "number",
    "total", "count", "figure", "figures", "answer", "list", "output", "ranking", "value",
    "names", "over", "back", "along", "across", "with", "to", "for", "please", "thanks", "here",
    "resulting", "updated", "graph", "topology",
    "by", "email", "e-mail", "mail", "reply", "what", "you", "find", "get", "see", ",", "line",
    "note", "when", "done", "once"})


# What a mail client puts around a reply or a forward: "---- Forwarded message ----", the
# forwarded message's header fields, and the subject line before it ("Fwd: port add").
_RULE = re.compile(r"-{2,}|_{2,}|={2,}")
_FORWARDED = frozenset({"forwarded", "fwd", "fw"})
_HEADER_FIELDS = frozenset({"from", "to", "cc", "sent", "date", "subject"})
_SUBJECT_MARKS = frozenset({"fwd", "fw", "re"})


# What an earlier message may say that carries onto a request (a test, a condition, a time,
# "also"), not the words that point at something of its own ("that chassis", "those ports").
_QUOTE_CARRIES = context.CARRIES - {"that", "those", "these", "this", "one", "ones", "both",
                                    "which", "who", "where", "whose", "with", "without"}


def _history_quiet(history: str, steps: Sequence[ir.Step]) -> bool:
    """Whether the older messages of a thread say no word that may say how, whether or which
    (``P.HEDGES``, ``context.CARRIES``: "perhaps", "on hold", "except", "only"), so that the
    newest message is read without them; before a read of a set, words of what else and when
    ("anything else?", "when?") may be said."""
    words = re.findall(r"[a-z]+(?:'[a-z]+)?", history.lower())
    said = {*words, *map(" ".join, zip(words, words[1:], strict=False))}
    if not any(isinstance(step, ir.MUTATIONS) for step in steps):
        said -= _FLOW_OF_TALK  # no read hangs on them
    return said.isdisjoint(P.HEDGES) and said.isdisjoint(_QUOTE_CARRIES) and "n't" not in history


def _thread_quiet(newest: mail.Newest, steps: Sequence[ir.Step]) -> bool:
    """Whether what a thread's reply says around its newest message's text cannot pick some
    nodes of a set out, so that ``steps`` (reading or changing a set) are read without it:
    it says no kind ("Uplinks,"), it greets no one by a name alone ("Optics," may be a
    heading), its subject names only an occasion, and, before a change to a set, it says no
    word netmend does not know (a name may be a noun that picks some out)."""
    if newest.named_alone:
        return False  # "Optics,\n\nlist the ports of S": a noun set apart, as a heading
    named = {name.lower() for name in sections.NODE_NAME.findall(newest.said)}
    if not _subject_of_an_occasion(newest.subject, named):
        return False  # "Subject: dark optics": a subject may say which nodes are meant
    return not _may_pick_out(newest.aside, steps)


# Words of an older message about when and what else, not which ("anything else?", "next
# steps", "when?", "I'll wait", "after the window"): a read of a set is answered after them
# (a change is not: "wait until Friday" may be about it).
_FLOW_OF_TALK = frozenset({"else", "next", "when", "whenever", "wait", "after", "afterwards",
                           "before", "tomorrow", "tonight", "yesterday", "later", "soon",
                           "earlier", "until", "till", "again"})


def _subject_asks_no_more(subject: str, steps: Sequence[ir.Step]) -> bool:
    """Whether a message's subject set aside asks for nothing the reply does not ("Subject:
    Remove X" above "please remove X, then ..."; "Subject: remove Y" above "remove X" asks
    for more): a subject read as a request has only steps the reply has too."""
    said = _SUBJECT_LEAD.sub("", subject).strip()
    if not said:
        return True
    try:
        asked = parse_request(said).query.steps
    except QueryError:
        return True  # a topic ("spine decom"), judged as one by _subject_of_an_occasion
    return all(step in steps for step in asked)


# A subject's field and marks: "Subject: RE: FW: ".
_SUBJECT_LEAD = re.compile(r"(?im)^\s*(?:(?:" + "|".join(("subject", *mail.SUBJECT_MARKS))
                           + r")\s*(?:\[[^\]\n]*\])?\s*:\s*)+")


def _subject_of_an_occasion(subject: str, named: Set[str] = frozenset()) -> bool:
    """Whether a message's subject set aside names only an occasion, as a phrase set apart
    may (:func:`context.phrase_naming_nodes`): besides its marks and fields and a ticket's id
    ("NET-9700") and the nodes the request names (``named``, with a kind before one: "agg
    block ju1.a2.m2"), nothing, or words that end on one of an occasion ("spine decom",
    "port audit") and say nothing that may say how or whether; a node's short name ("s2c4",
    "p3") or any other noun ("dark optics") may say which nodes are meant."""
    words = [word.strip(".") for word in re.findall(r"[\w'./-]+", subject.lower())]
    said_of_named = set()  # a node the request names, and the kind said before it
    for at, word in enumerate(words):
        if word in named:
            said_of_named.add(at)
            if at and _a_kind(words[at - 1]):
                said_of_named.add(at - 1)
            if at > 1 and " ".join(words[at - 2:at]) in P.KIND_WORDS:
                said_of_named |= {at - 2, at - 1}
    words = [word for at, word in enumerate(words) if at not in said_of_named
             and word not in _SUBJECT_WORDS and not re.fullmatch(r"[a-z]+-\d+", word)]
    if not words:
        return True
    return not any(word in P.HEDGES or any(c.isdigit() for c in word) for word in words) and (
        words[-1] in context.OCCASION_NOUNS or words[-1].endswith(context.ACTIVITIES))


def _may_pick_out(aside: str, steps: Sequence[ir.Step]) -> bool:
    """Whether words set aside around a request (a greeting, a signature, a field of
    bookkeeping) may say which nodes of a set it reads or changes are meant: a kind ("Uplink
    team", "Note: uplinks") or a word that may say how or whether; before a change to a set,
    any word netmend does not know (a name may be a noun that picks some out)."""
    words = [word for word in (raw.strip(".'-") for raw in re.findall(r"[\w'.-]+", aside.lower()))
             if word and not any(c.isdigit() or c == "." for c in word)]  # no id: "NET-1234"
    if any(word in P.HEDGES or _a_kind(word) and not _modifies(words[i + 1:i + 2])
           for i, word in enumerate(words)):
        return True
    return _changes_a_set(steps) and any(
        word not in _OCCASION_OR_FAULT and word not in _SIGNOFF_WORDS
        and word not in _BOOKKEEPING_WORDS for word in words)


def _a_kind(word: str) -> bool:
    return word in P.KIND_WORDS or word.rstrip("s") in P.KIND_WORDS


def _modifies(after: list[str]) -> bool:
    """Whether a kind said before ``after`` (one word or none) only says what a noun after it
    is about ("port audit", "chassis pull", "port speeds"): a noun that is no kind and no
    word that may say how or whether. A kind said last ("uplinks", "spare ports") or before
    another ("uplink ports") may name nodes."""
    return bool(after) and not _a_kind(after[0]) and after[0] not in P.HEDGES


# Values of bookkeeping that say how urgent, never which: "Priority: high".
_BOOKKEEPING_WORDS = frozenset({"high", "medium", "low", "normal", "urgent", "routine", "asap",
                                "standard", "minor", "major"})


_SIGNOFF_WORDS = frozenset(word for closing in _SIGNOFFS for word in closing)
# What a subject before a request about a set may say: its fields and marks, and occasions.
_SUBJECT_WORDS = context.OCCASION_NOUNS | _SUBJECT_MARKS | {
    "subject", "re", "ref", "to", "from", "cc", "date", "sent", "aw", "sv"}


def _quiet(part: list[Token]) -> bool:
    """Whether ``part`` (what a mail client or an earlier message says around the request)
    could not change what is asked: no node name, no number and no word that may say how,
    whether or which (``P.HEDGES``, ``context.CARRIES``)."""
    return all(t.kind not in ("NAME", "NUM") or t.kind == "NAME" and "." not in t.text
               for t in part) and not any(
        t.kind == "WORD" and (t.text in P.HEDGES or t.text in _QUOTE_CARRIES) for t in part)


def _without_mail(tokens: list[Token]) -> list[Token]:
    """The request without what a mail client puts around it: the subject line and marker of
    a forward ("Fwd: decom ---- Forwarded message ---- From: Jen Subject: port add --") and
    the lines an earlier message is quoted in ("> On Tue, Priya wrote: > we still need the
    port."). Each goes only when it is :func:`_quiet`; a quoted line that could narrow or
    condition the request stays, and the request is read with it (or refused)."""
    out: list[Token] = []
    i, n = _after_subject(tokens), len(tokens)
    while i < n:
        token = tokens[i]
        if _RULE.fullmatch(token.text) and i + 1 < n and tokens[i + 1].text in _FORWARDED:
            end = i + 2 + (i + 2 < n and tokens[i + 2].text == "message")
            if end < n and _RULE.fullmatch(tokens[end].text):
                subject = next((at for at in range(len(out)) if out[at].text in _SUBJECT_MARKS
                                and at + 1 < len(out) and out[at + 1].text == ":"), None)
                if subject is not None and _quiet(out[subject:]):
                    del out[subject:]  # "Fwd: decom ----": the forward's subject
                i = _after_header(tokens, end + 1)
                continue
        if token.text == ">" and token.kind == "PUNCT" and (
                not out or out[-1].text in _SENTENCE_ENDS or out[-1].text == ":"):
            end = next((at for at in range(i + 1, n) if tokens[at].text in _SENTENCE_ENDS
                        or tokens[at].text == ">"), n)
            quoted = tokens[i + 1:end]
            if _quiet(quoted):
                i = end + (end < n and tokens[end].text in _SENTENCE_ENDS)
                continue
            i += 1  # the marker goes; what it quotes stays, to be read (or refused)
            continue
        out.append(token)
        i += 1
    return out


def _after_subject(tokens: list[Token]) -> int:
    """Where a subject line the request starts with ends ("Re: port expansion.", "RE: RE:
    spine audit.", "Fwd: RMA --"): marks, then words up to a sentence's end or a rule; 0 when
    there is none or it is not :func:`_quiet`."""
    at = 0
    while at + 1 < len(tokens) and tokens[at].text in _SUBJECT_MARKS and tokens[at + 1].text == ":":
        at += 2
    if not at:
        return 0
    end = next((j for j in range(at, len(tokens)) if tokens[j].text in _SENTENCE_ENDS
                or _RULE.fullmatch(tokens[j].text)), None)
    if end is None or end == at or not _quiet(_unnamed(tokens[at:end], tokens[end:])) or any(
            x.cats & _VERB_CATS for x in lex(tokens[at:end])):
        return 0
    return end + (tokens[end].text in _SENTENCE_ENDS)  # a rule may open a forward


def _unnamed(part: list[Token], rest: list[Token]) -> list[Token]:
    """``part`` (a heading, a subject line) without the node names ``rest`` says too ("Re:
    switch S. Kindly count its ports."): a heading may name what the request is about."""
    said = {t.text for t in rest if t.kind == "NAME"}
    return [t for t in part if not (t.kind == "NAME" and t.text in said)]


# A memo's header: "MEMO. To: Capacity Planning. From: Operations Manager. Date: 14 March.
# Subject: Port count." Who and when are bookkeeping; the subject is a subject line.
_MEMO_MARKS = frozenset({"memo", "memorandum"})
_MEMO_FIELDS = frozenset({"to", "from", "cc", "date", "subject", "re", "ref", "attn",
                          "attention"})
_SUBJECT_FIELDS = frozenset({"subject", "re", "ref"})
_NOUN_BEFORE = frozenset({"KIND", "CAP", "UNK"})  # "port count", "capacity change"


def _without_memo_header(tokens: list[Token]) -> list[Token]:
    """The request without a memo's header ("MEMO. To: X. From: Y. Subject: Z. Please ..."):
    an optional "Memo" and at least two fields, each a field's name, a colon and a value up
    to a sentence's end. Whom it is to and from is plain words (``_quiet``; a date may have
    numbers); a subject may name the nodes the request names too. The header stays whole
    when any field could change what is asked."""
    at = 0
    if tokens[0].text in _MEMO_MARKS:
        at = 1 + (len(tokens) > 1 and tokens[1].text in (".", ":", "-"))
    fields = 0
    while at + 1 < len(tokens) and tokens[at].text in _MEMO_FIELDS and tokens[at + 1].text == ":":
        end = next((j for j in range(at + 2, len(tokens)) if tokens[j].text in _SENTENCE_ENDS),
                   None)
        if end is None or end == at + 2:
            return tokens
        value = tokens[at + 2:end]
        if tokens[at].text in _SUBJECT_FIELDS:
            value = _unnamed(value, tokens[end:])
        elif tokens[at].text == "date":
            value = [t for t in value if t.kind != "NUM"]
        said = lex(value)
        if not _quiet(value) or any(x.cats & _VERB_CATS and not (
                x.text in context.OCCASION_NOUNS or x.text.endswith(context.ACTIVITIES)
                or i and said[i - 1].cats & _NOUN_BEFORE) for i, x in enumerate(said)):
            return tokens  # "Subject: port count query" is a subject, "Subject: count" no
        at, fields = end + 1, fields + 1
    if fields < 2 - (tokens[0].text in _MEMO_MARKS) or at >= len(tokens):
        return tokens
    return tokens[at:]


def _after_header(tokens: list[Token], at: int) -> int:
    """Where the header fields of a forwarded message ("From: Jen (capacity planning)
    Subject: port add --") end, from ``at``: each field's value runs to the next field or a
    rule ("--"), and all go only when each is :func:`_quiet`."""
    n, start = len(tokens), at
    while at + 1 < n and tokens[at].text in _HEADER_FIELDS and tokens[at + 1].text == ":":
        end = next((j for j in range(at + 2, n) if _RULE.fullmatch(tokens[j].text)
                    or tokens[j].text in _SENTENCE_ENDS or j + 1 < n
                    and tokens[j].text in _HEADER_FIELDS and tokens[j + 1].text == ":"), n)
        if not _quiet(tokens[at + 2:end]):
            return start
        at = end
    if at > start and at < n and (_RULE.fullmatch(tokens[at].text)
                                  or tokens[at].text in _SENTENCE_ENDS):
        at += 1
    return at


# What opens an apology: "sorry if this is obvious, but ...", "apologies for the noise."
_APOLOGIES = frozenset({"sorry", "apologies", "apologise", "apologize"})
_APOLOGY_ENDS = frozenset({",", ":", "-", "--"})
_BEFORE_APOLOGY = frozenset({"hi", "hello", "hey", "oh", "ah", "um", "ok", "okay", ","})


def _without_apology(sentence: list[Token], _after: bool) -> list[Token] | None:
    """A sentence without the apology it opens with ("Sorry if this is obvious, but which
    superblock ...", "Sorry to bug you - ...") or, when it is only an apology ("Sorry if I'm
    wording it oddly.", "Apologies for all the questions."), None. The apology says how the
    asker feels about asking: its "if" and the "but" after it condition nothing. It goes only
    when it names no node or number and has no other word that may say how or whether
    (:func:`_quiet`, with its "if")."""
    start = next((i for i, t in enumerate(sentence) if t.text not in _BEFORE_APOLOGY), 0)
    if start >= len(sentence) or sentence[start].text not in _APOLOGIES:
        return sentence
    end = next((i for i in range(start + 1, len(sentence))
                if sentence[i].text in _APOLOGY_ENDS), len(sentence))
    said = [t for t in sentence[start + 1:end] if t.text != "if"]
    if not _quiet(said) or any(x.cats & _VERB_CATS - {"WH"} for x in lex(said)):
        return sentence
    rest = sentence[end + 1:]
    if rest and rest[0].text == "but":
        rest = rest[1:]
    if _quiet(rest) and not any(x.cats & (_VERB_CATS | _BEFORE_NAME) for x in lex(rest)):
        rest = []  # "sorry, first week": the apology's reason
    return sentence[:start] + rest if rest or start else None


# When the answer is wanted, said with "before" or "by" ("... before lunch", "by Monday",
# "before the 3pm sync", "ahead of tomorrow's standup"): done now, the request meets it.
_DEADLINE_LEADS = frozenset({"before", "by", "ahead"})
_DEADLINES = context.TIMES | frozenset({
    "mon", "tue", "wed", "thu", "fri", "eom", "weekend", "standup", "stand-up", "sync", "call",
    "meeting", "review", "deadline", "cutoff", "cut-off", "clock", "am", "pm", "day", "week",
    "month", "shift", "handover", "huddle", "demo", "presentation", "cab", "scrum", "1:1",
    "retro", "sprint"})
_DEADLINE_WORDS = 7
# What a sentence that says when may say besides: "need (it)", "ideally", "please".
_WANTED_ALONE = frozenset({"WANT", "GET", "AUX", "MODAL", "IT", "COMMA"})


def _without_deadline(sentence: list[Token], _after: bool) -> list[Token]:
    """A sentence without when its answer is wanted: "before" or "by" and a time or an
    occasion of the day ("lunch", "Monday", "the 3pm sync", "tomorrow's standup", "end of
    day") up to a comma, a colon, a courtesy or the sentence's end. A time said otherwise
    ("tomorrow", "after the window") stays: it would date the request."""
    for at, token in enumerate(sentence):
        if token.text not in _DEADLINE_LEADS:
            continue
        start = at + 1 + (token.text == "ahead" and at + 1 < len(sentence)
                          and sentence[at + 1].text == "of")
        if token.text == "ahead" and start == at + 1:
            continue
        end = next((i for i in range(start, len(sentence))
                    if sentence[i].text in (",", ":", "-", "--")), len(sentence))
        # "by Friday if you can", "by noon please": a courtesy after it goes with it
        courtesy = next((k for k in range(start + 1, end) if not lex(sentence[k:end])), end)
        said = sentence[start:courtesy]
        if not said or len(said) > _DEADLINE_WORDS or not _a_deadline(said):
            continue
        before = sentence[:at]
        after = sentence[end + (end < len(sentence) and (not before or end + 1 == len(sentence))):]
        rest = before + after
        if all(x.cats <= _WANTED_ALONE for x in lex(rest)) and _quiet(rest):
            return None  # "Need it by EOD.": the sentence said only when
        return rest
    return sentence


def _a_deadline(said: list[Token]) -> bool:
    """Whether ``said`` is a time or an occasion of the day: plain words, numbers and a clock,
    the last a word of :data:`_DEADLINES` (or a clock), none of the grammar's verbs or kinds."""
    last = said[-1]
    if not (last.text in _DEADLINES or _TIME_OF_DAY.fullmatch(last.text) or last.kind == "NUM"
            and len(said) > 1 and said[-2].text in (":", "at")):
        return False
    if any(t.kind not in ("WORD", "NUM", "POSS", "PUNCT") and not (
            t.kind == "NAME" and _TIME_OF_DAY.fullmatch(t.text)) for t in said):
        return False
    return not any(x.cats & (_VERB_CATS | _BEFORE_NAME - {"NUM", "COMMA"}) or x.cats & _CRIT
                   and x.text not in _DEADLINES and x.text != "end" for x in lex(said))


def _normalized(tokens: list[Token], said: str | None = None
                ) -> tuple[list[Token], tuple[str, ...]]:
    """The token passes that read what the grammar does not (closings, labels, purposes, step
    numbers, call notation, kinds after names, "after"/"first" alone, "how much" of a kind,
    pronouns said with a kind), each run only when a word it looks for is there: most requests
    need none of them."""
    normalized, it_kinds, _ = _normalized_asking(tokens, said)
    return normalized, it_kinds


# What an answer is called after "make" as other languages say it ("make the count of the
# ports", "make me a ranking of", "make me the list"): "make" asks for it, as "give" does.
_MADE_ANSWERS = frozenset({"count", "ranking", "list", "listing", "classification", "sum",
                           "total", "average", "tally", "inventory", "sorting"})
_MADE_FOR = frozenset({"me", "us"})
_MADE_ARTICLES = frozenset(word for (word,) in _ARTICLES)


def _made_answer(tokens: list[Token]) -> list[Token]:
    """``tokens`` with "make" said "give" where what it makes is an answer (see
    ``_MADE_ANSWERS``); "make P 40G" and "make N a child of S" stay as said."""
    out = list(tokens)
    for i, token in enumerate(out):
        if token.text != "make":
            continue
        at = i + 1
        if at < len(out) and out[at].text in _MADE_FOR:
            at += 1
        if at < len(out) and out[at].text in _MADE_ARTICLES:
            at += 1
        if at < len(out) and out[at].text in _MADE_ANSWERS and at > i + 1:
            out[i] = Token("WORD", "give", "give")
    return out


def _normalized_asking(tokens: list[Token], said: str | None = None
                       ) -> tuple[list[Token], tuple[str, ...], bool]:
    """:func:`_normalized`, and whether the courtesy said asks how to do the request."""
    texts = {t.text for t in tokens}
    asked_how = False
    if not texts.isdisjoint(_DATE_WORDS) or not texts.isdisjoint(_ESTIMATE_WORDS) \
            or _BOOK_CHARS.search(
            " ".join(texts) if said is None else said):  # ``said``: the text, to look at once
        tokens, _ = _without_bookkeeping(tokens)
        texts = {t.text for t in tokens}
    if ">" in texts or "forwarded" in texts or tokens and tokens[0].text in _SUBJECT_MARKS:
        tokens = _without_mail(tokens)
        texts = {t.text for t in tokens}
    if tokens and (tokens[0].text in _MEMO_MARKS or tokens[0].text in _MEMO_FIELDS
                   and len(tokens) > 1 and tokens[1].text == ":"):
        tokens = _without_memo_header(tokens)
        texts = {t.text for t in tokens}
    if not texts.isdisjoint(_SIGNOFF_FIRST):
        tokens = _without_signoff(tokens)
    if not texts.isdisjoint(_APOLOGIES):
        tokens = _per_sentence(tokens, _without_apology)
    if not texts.isdisjoint(_DEADLINE_LEADS):
        tokens = _per_sentence(tokens, _without_deadline)
    tokens = _without_label(tokens)
    if not texts.isdisjoint(_LABEL_ENDS) and any(
            t.text in _SENTENCE_ENDS and u.text in _LABEL_FIRST
            for t, u in zip(tokens, tokens[1:], strict=False)):
        tokens = _per_sentence(tokens, lambda sentence, after: _without_label(sentence)
                               if after else sentence)  # "... Action item 1.2: ..."
    if "so" in texts or tokens and tokens[0].text == "as":
        tokens = _per_sentence(tokens, _without_story_frame)
    if "make" in texts:
        tokens = _made_answer(tokens)
    if "given" in texts:
        tokens = _per_sentence(tokens, _given_when_then)
    if not texts.isdisjoint(_CHASE_WORDS):
        tokens = _per_sentence(tokens, _without_chase)
    if not texts.isdisjoint(_PROCEDURE_SAID):
        tokens = _per_sentence(tokens, _procedure_said)
    if not texts.isdisjoint(_CHECKS) and not texts.isdisjoint(_ANSWERERS):
        tokens = _per_sentence(tokens, _tool_checked)
    if not texts.isdisjoint(_DELIVERY_FIRST):
        tokens = _without_delivery(tokens)
    if tokens and tokens[0].text == "dear":
        tokens = _without_salutation(tokens)
    if "will" in texts or "shall" in texts:
        tokens = _intent_said_plainly(tokens)
    if "then" in texts:
        tokens = _then_in_a_removal(tokens)
    if "we" in texts and "have" in texts:
        tokens = _without_we_have(tokens)
    if ("can" in texts or "could" in texts) and ("get" in texts or "have" in texts):
        tokens = _may_it_get(tokens)
    if "can" in texts or "could" in texts:
        tokens = _per_sentence(tokens, _modal_without_subject)
    if "mean" in texts or "," in texts:
        tokens = _per_sentence(tokens, _without_restart)
    if "this" in texts:
        tokens = _per_sentence(tokens, _without_this_part)
    if not texts.isdisjoint(_SECOND_LANGUAGE_WORDS):
        tokens = _second_language_forms(tokens)
    if not texts.isdisjoint(_SETTING) and ("to" in texts or not texts.isdisjoint(_VALUE_LEADS)):
        tokens = _per_sentence(tokens, _value_said_with)
    if "2" in texts or "4" in texts or "r" in texts:
        tokens = _texted_forms(tokens)
    if "to" in texts:
        tokens = _per_sentence(tokens, _infinitive_order)
    if "is" in texts or "need" in texts:
        tokens = _per_sentence_and_end(tokens, _need_said_without_it)
    if "about" in texts:
        tokens = _per_sentence_and_end(tokens, _topic_said_first)
    if "named" in texts or "called" in texts:
        tokens = _names_said_in_a_row(tokens)
    if "right" in texts:
        tokens = _without_discourse_right(tokens)
    if "am" in texts or "are" in texts:
        tokens = _without_speaker(tokens)
    if tokens and tokens[0].text in _ADDRESSING:
        tokens = _without_addressee(tokens)
    if "tl" in texts and "dr" in texts:  # "TL;DR: ...": what follows says it all
        tokens = _rewritten(tokens, _tldr)
    if not texts.isdisjoint(_COURTESY_SAID):
        tokens, asked_how = _courtesy_said_plainly(tokens)
    if not texts.isdisjoint(_WANTS_SAID):
        tokens = _someone_wants(tokens)
    if not texts.isdisjoint(_ASKED_BY_WORDS):
        tokens = _per_sentence(tokens, _asked_by_someone)
    if "to" in texts and "be" in texts:
        tokens = _to_be_done(tokens)
    if not texts.isdisjoint(_ASKED_AGAIN_WORDS) and not texts.isdisjoint(_ASKED_AGAIN_GATE):
        tokens = _without_asked_again(tokens)
    if not texts.isdisjoint(_FOCUS_TAIL_FIRST):
        tokens = _focus_said_last(tokens)
    if "it" in texts and not texts.isdisjoint(_RELATIVES) or tokens and tokens[0].text == "what":
        tokens = _it_cleft(tokens)
    if "where" in texts:
        tokens = _per_sentence(tokens, _where_it_is)
    if not texts.isdisjoint(_PURPOSE_FIRST):
        tokens = _without_purpose(tokens)
    if ")" in texts or " step" in " " + " ".join(texts) or (
            tokens and tokens[0].text == "1"):
        tokens = _without_step_numbers(tokens)
    if not texts.isdisjoint(_GRAPH_NOUNS) and "," in texts:  # after the steps are sentences
        tokens = _per_sentence(tokens, _which_graph)
    if "(" in texts:
        tokens = _call_notation(tokens)
    if not texts.isdisjoint(_SINGULAR_KIND_FIRST):
        tokens = _kind_after_name(tokens)
    if texts & _OUTPUT_LABELS and ":" in texts:
        tokens = _output_label(tokens)
    if "/" in texts and not texts.isdisjoint(_NEXT_STEP):  # "rm X / then count ...": a comma
        tokens = [_LIST_COMMA if t.text == "/" and i + 1 < len(tokens)
                  and tokens[i + 1].text in _NEXT_STEP else t for i, t in enumerate(tokens)]
    if "then" in texts and not texts.isdisjoint(_ARROWS):  # "remove X -> then list ...": "then"
        tokens = [t for i, t in enumerate(tokens) if not (
            t.text in _ARROWS and i + 1 < len(tokens) and tokens[i + 1].text == "then")]
    if "after" in texts or "first" in texts or "once" in texts:
        tokens = _after_alone(tokens)
    if not texts.isdisjoint(("terms", "capacity-wise", "speed-wise", "bandwidth-wise", "wise")):
        tokens = _capacity_said_again(tokens)
    if not texts.isdisjoint(_LATE_THENS) or "second" in texts:
        tokens = _then_said_late(tokens)
    if not texts.isdisjoint(_PROGRESSIVE) or "to" in texts and not texts.isdisjoint(
            ("please", "kindly")):
        tokens = _many_englishes(tokens)
    if "much" in texts:
        tokens = _how_much_of_a_kind(tokens)
    if not texts.isdisjoint(_CONDITION_LEADS) and not texts.isdisjoint(_POINTED_GONE):
        tokens = _with_it_gone(tokens)
    if "decom" in texts or "decomm" in texts:
        tokens = _decom(tokens)
    if not texts.isdisjoint(_PULLS):
        tokens = _pull(tokens)
    if tokens and tokens[0].text in ("by", "in"):
        tokens = _metric_said_first(tokens)
    if not texts.isdisjoint(_CARRIES):
        tokens = _carry_the_most(_how_much_carry(tokens))
    if "number" in texts:
        tokens = _number_of(tokens)
    if ("see" in texts or "view" in texts) and not texts.isdisjoint(_ASKERS):
        tokens = _can_i_see(tokens)
    if "put" in texts and "order" in texts:
        tokens = _put_in_order(tokens)
    if len(tokens) > 2 and (tokens[-2] if tokens[-1].kind == "PUNCT" else tokens[-1]
                            ).text in _ORDER_WORDS:
        tokens = _order_said_after(tokens)
    if "out" in texts and "of" in texts:
        tokens = _out_of_the_graph(tokens)
    if "anymore" in texts or "longer" in texts:
        tokens = _no_longer_in_the_graph(tokens)
    if "of" in texts and not texts.isdisjoint(_MADE):
        tokens = _answer_made_of(tokens)
    if "list" in texts:
        tokens = _list_of_said_first(tokens)
    if ("needs" in texts or "need" in texts) and not texts.isdisjoint(_DONE):
        tokens = _needs_doing(tokens)
    if not texts.isdisjoint(_UPDATES) and ("NUM" in {t.kind for t in tokens}
                                           or not texts.isdisjoint(P.NUMBER_WORDS)):
        tokens = _value_said_before(tokens)
    if not texts.isdisjoint(_HOLDS) and ("it" in texts or "them" in texts):
        tokens = _in_it_again(tokens)
    if "single" in texts or "sole" in texts or "one" in texts:
        tokens = _without_single(tokens)
    if "switch" in texts and not texts.isdisjoint(("which", "what")):
        tokens = _wh_switch_port(tokens)
    if "of" in texts and not texts.isdisjoint(("which", "what")):
        tokens = _kind_of_asked(tokens)
    if texts.isdisjoint(_POINTERS) or texts.isdisjoint(_SINGULAR_KIND_FIRST):
        return tokens, (), asked_how
    typed, it_kinds = _typed_pronouns(tokens)
    return typed, it_kinds, asked_how


def parse_request(text: str, *, shortcut: bool = True) -> Parsed:
    """Parse request text into a :class:`Parsed` (query + kind qualifiers); raise :class:`QueryError`.
    A request in the generator's own phrasing is read by :mod:`netmend.malt.templates` (the
    same answer, at once) unless ``shortcut`` is false."""
    if not isinstance(text, str) or not text.strip():
        raise IncompleteRequest("the request is empty",
                                expected="a request such as " + P.EXPECTED["remove"])
    generated = templates.read(text) if shortcut else None
    if generated is not None:  # the generator's own phrasing: what the parser would say
        return Parsed(ir.Query(generated.steps), generated.qualifiers)
    parsed = _parse_text(text)
    announced = _ANNOUNCED.search(text)
    if announced is not None and len(parsed.query.steps) != 2:
        raise AmbiguousRequest(  # "Two things: remove X." - where is the second?
            f"the request announces {announced.group()!r} but asks "
            f"{len(parsed.query.steps)} step(s)", expected="both steps, said in order",
            text=text)
    return parsed


# "Two things, in order: ...", "Two-step request: ...": the number of steps said before them.
_ANNOUNCED = re.compile(r"\btwo[- ](?:things|steps|step request|part request)\b", re.IGNORECASE)


def _parse_text(text: str) -> Parsed:
    try:
        return _parse_as_written(text)
    except QueryError as refusal:
        # "Remove X.\n\n-----Original Message-----\n...": what the newest message says
        newest = mail.newest_message(text)
        if newest is not None:
            with contextlib.suppress(QueryError):
                parsed = _parse_said(newest.said, text)
                steps = parsed.query.steps
                if _history_quiet(newest.history, steps) and _subject_asks_no_more(
                        newest.subject, steps) and (
                        all(map(_of_named, steps)) or _thread_quiet(newest, steps)):
                    return parsed
        # "[10:42] alice: remove X [10:42] bob: ok": what the requester said in a chat log
        logged = transcript.requester_text(text)
        if logged is not None:
            with contextlib.suppress(QueryError):
                return _parse_said(logged, text)
        # "Summary: Port count - S\nDescription: How many ports are in S?": a card's body (a
        # mail's subject is no title: a mail is read by the rules for mail above)
        titled = _under_title(text) if newest is None else None
        if titled is not None:
            return titled
        # "You are a topology assistant. Task: ... Output: ...": a prompt in sections
        try:
            prompt = sections.to_request(text)
        except sections.SectionError as exc:
            raise UnknownRequest(str(exc), expected="the request without it, or 'Task: "
                                 "<request>'", text=text) from None
        if prompt is None:
            raise
        try:
            parsed = _parse_said(prompt.request, text)
        except QueryError:
            raise refusal from None
        if not all(map(_of_named, parsed.query.steps)) and (
                prompt.named_aside or _may_pick_out(prompt.aside, parsed.query.steps)):
            raise AmbiguousRequest(
                "the prompt reads or changes a set of nodes and says something in a section "
                "set aside that may say which of them are meant",
                expected="the prompt without that section", text=text) from None
        return parsed


# A work item's title line: a tag ("[TOPO]", "[NETOPS-2210]") or a title's label first.
_TITLE_TAG = re.compile(r"\s*\[[^\]\n]{1,30}\]\s*")
_TITLE_LABEL = re.compile(r"\s*(?i:summary|title|card|card title|headline|story|"
                          r"ticket title|issue)\s*:\s*")


def _under_title(text: str) -> Parsed | None:
    """The request a work item's body asks, when its first line is a title that only names
    that request (:func:`titles.restates`); None otherwise."""
    first, _, body = text.strip().partition("\n")
    body = body.strip()
    if not body:
        return None
    tag = _TITLE_TAG.match(first)
    title = first[tag.end():] if tag else first
    label = _TITLE_LABEL.match(title)
    title = title[label.end():] if label else title
    try:
        parsed = _parse_as_written(body)
    except QueryError:
        return None
    # the title's words are weighed against the request's own, not its bookkeeping ("Labels:
    # spare" says nothing a title "Spare ports on S" may take as the request's)
    request = records.set_apart(body).request
    return parsed if titles.restates(title, request, parsed.query.steps) else None


# A text signed last after a dash, as a phone message or a field note is ("... - Raj, DH2",
# "... — Dee"): a capitalised name the grammar does not know ("- Test", "- Maybe" stay), and a
# place; weighed as words set aside.
_SIGNED = re.compile(r"[ \t]+[-–—][ \t]*([A-Z][a-z]{1,15})(?:[ \t]*,[ \t]*[A-Z0-9][A-Za-z0-9]{0,7})?"
                     r"[ \t]*\.?[ \t]*$")


def _says_how(word: str) -> bool:
    """Whether ``word`` is one the grammar reads, or one that may say how or whether."""
    return _known(word) or word in P.HEDGES or word in context.REHEARSALS


def _parse_as_written(text: str) -> Parsed:
    said, apart = worklog.split(text)  # "- [ ] 03:12Z OPEN INC-20417 remove X"
    signed = _SIGNED.search(said) if "-" in said or not said.isascii() else None
    if signed is not None and signed.start() and not _says_how(signed.group(1).lower()):
        said, apart = said[:signed.start()], f"{apart} {signed.group().strip(' -–—.')}".strip()
    parsed = _parse_record_or_said(said, text)
    _refuse_picked_out(apart, parsed.query.steps, text,
                       f"says who raised it ({apart!r}), which", "the request without it")
    return parsed


def _refuse_picked_out(aside: str, steps: Sequence[ir.Step], text: str, said: str,
                       expected: str) -> None:
    """Refuse a request that reads or changes a set of nodes when words set aside around it
    (``aside``, which the request ``said``) may say which of them are meant."""
    if aside and not all(map(_of_named, steps)) and _may_pick_out(aside, steps):
        raise AmbiguousRequest(f"the request reads or changes a set of nodes and {said} may "
                               "say which of them are meant", expected=expected, text=text)


def _parse_record_or_said(said: str, text: str) -> Parsed:
    if ":" in said:  # a request written as fields: "target: S; action: remove"
        try:
            fields = records.split_fields(said)
            record = None if fields is None else records.to_request(fields)
        except records.RecordError as exc:
            refusal: QueryError = UnknownRequest(
                str(exc), expected="fields such as 'target: <node name>; action: remove'",
                text=text)
            record = None
        else:
            if record is None:
                return _parse_said_apart(said, text)
            try:
                parsed = _parse_said(record, text)
            except QueryError as exc:
                refusal = exc
            else:
                _refuse_picked_out(" ".join(records.bookkeeping(said)), parsed.query.steps,
                                   text, _SAID_IN_A_FIELD, "the request without that field, or "
                                   "what picks the nodes out said as a filter netmend knows")
                return parsed
        # "Action: remove X; after that, count ...": a label and a sentence, not fields
        try:
            return _parse_said_apart(said, text)
        except QueryError:
            raise refusal from None
    return _parse_said(said, text)


_SAID_IN_A_FIELD = "a field of bookkeeping says something that"


def _parse_said_apart(said: str, text: str) -> Parsed:
    """:func:`_parse_said`, or, when that refuses, the request without its lines of
    bookkeeping ("Priority: P3", "Requested by: S. Haddad"), as long as what they say may
    not pick out which nodes of a set it reads or changes, and without the lines that say
    what it should come to ("Expected: ..."), as long as they only say it again."""
    try:
        return _parse_said(said, text)
    except QueryError as refusal:
        apart = records.set_apart(said)
        if apart.request == said or not apart.request:
            raise
        try:
            parsed = _parse_said(apart.request, text)
        except QueryError:
            raise refusal from None
    steps = parsed.query.steps
    _refuse_picked_out(" ".join(apart.values), steps, text, _SAID_IN_A_FIELD,
                       "the request without that field")
    for outcome in apart.outcomes:
        if not titles.restates(outcome, apart.request, steps, outcome=True):
            raise AmbiguousRequest(
                f"the request says it should come to {outcome!r}, which may say more than the "
                "request itself", expected="the request without that line", text=text)
    return parsed


# A request left in code: a comment's or docstring's marks, a to-do label, a commit's type
# ("// TODO: ...", "# FIXME(ops): ...", '"""Remove X."""', "feat(ju1.s1.dom): ...").
_CODE_OPENS = re.compile(
    r"""\s*(?:(?://+|/\*+|"{3}|'{3}|\#+)\s*)?
        (?:(?:TODO|FIXME|XXX|HACK|NOTE|todo|fixme)(?:\([^()]*\))?\s*:?\s+
         |(?:feat|fix|chore|refactor|docs|perf|ops|build)(?:\(([^()]*)\))?!?:\s+)""", re.VERBOSE)
# A commit's scope that names where in the code the change is, never which nodes.
_CODE_SCOPES = frozenset({"topo", "topology", "graph", "capacity", "network", "net", "netops",
                          "infra", "model", "inventory", "fabric", "config", "data"})
_CODE_FIRST = re.compile(r"\s*[/#\"'TFXHNtfcdprob]")
_CODE_MARKS = re.compile(r"""^\s*(?://+|/\*+|"{3}|'{3})\s*|\s*(?:\*/|"{3}|'{3})\s*$""")


def _without_code_comment(text: str) -> str:
    """``text`` without the marks a request left in code carries: a comment's or docstring's
    marks, and a to-do label or a commit's type before it. A commit's scope goes only when
    the request says it again ("feat(ju1.s1.dom): new switch sw2 in ju1.s1.dom")."""
    if not _CODE_FIRST.match(text) and text.rstrip()[-2:] not in ('""', "''", "*/"):
        return text
    opened = _CODE_OPENS.match(text)
    if opened is not None:
        scope = opened.group(1)
        rest = text[opened.end():]
        if scope is None or scope.strip() in rest or scope.strip().lower() in _CODE_SCOPES:
            text = rest
    hashed = _HASH_COMMENT.match(text)
    if hashed is not None and _comment_word(hashed.group(1).lower()):
        text = text[hashed.start(1):]
    return _CODE_MARKS.sub("", text)


# A comment's "#" before its words ("# remove X", "## next: ..."); "# ports in A" and "# of
# ports" are counts, so only a verb or a word that leads a step may follow the comment's "#".
_HASH_COMMENT = re.compile(r"^\s*#+\s+([A-Za-z']+)")
_COMMENT_LEADS = frozenset({"next", "then", "now", "first", "step", "let's", "lets", "finally",
                            "afterwards", "also"})


def _comment_word(word: str) -> bool:
    return word in _COMMENT_LEADS or not P.LEXICON.get(word, frozenset()).isdisjoint(_VERB_CATS)


# Emoji that only carry a mood, written as a chat writes them (":pray:", ":eyes:") or as
# pictures, and those that picture work on a network without saying which ("wrench",
# "bar_chart"): they say nothing of the request and are left out. Any other emoji stays (it
# may say no, stop, doubt, "whichever", a warning, or picture a change other than the one
# asked, as "scissors" or "wastebasket" would; a nervous ":sweat_smile:" is doubt), and the
# request is refused for it.
_MOODS = ("pray", "eyes", "fire", "rocket", "thumbsup", "+1", "tada", "heart", "raised_hands",
          "sparkles", "joy", "smile", "smiley", "grin", "slightly_smiling_face",
          "wave", "ok_hand", "muscle", "100", "zap", "coffee", "sunglasses", "clap",
          "partying_face", "star_struck", "handshake", "bow", "blush", "wink", "hugs",
          "heart_eyes", "saluting_face",
          "wrench", "hammer_and_wrench", "tools", "gear", "memo", "clipboard", "pushpin", "mag",
          "bar_chart", "chart_with_upwards_trend", "computer", "desktop_computer")
# A topic tag a feed puts on a post ("#netops", "#capacity"): whose feed or what topic, never
# which nodes; any other tag stays ("#ports" is the number of ports, "#uplinks" may say which).
_TOPIC_TAG = re.compile(r"(?<![\w#])#(?:netops|ops|network|networking|infra|capacity|topology|"
                        r"inventory|audit|maintenance|planning|capacityplanning|oncall|sre|noc|"
                        r"devops|datacenter|datacentre|dc|fabric|change|changes|cleanup)"
                        r"(?![\w-])", re.IGNORECASE)
_EMOJI_CODE = re.compile(r"(?<![\w:]):(" + "|".join(re.escape(m) for m in _MOODS)
                         + r"):(?![\w:])")
_EMOJI_PICTURES = re.compile(
    "(?:[\U0001F64F\U0001F440\U0001F525\U0001F680\U0001F44D\U0001F389\u2764"
    "\U0001F64C\u2728\U0001F602\U0001F642\U0001F604\U0001F44B\U0001F44C"
    "\U0001F4AA\U0001F4AF\u26A1\u2615\U0001F60E\U0001F44F\U0001F973\U0001F929"
    "\U0001F91D\U0001F647\U0001F60A\U0001F609\U0001F917\U0001F60D\U0001FAE1]"
    "[\U0001F3FB-\U0001F3FF]?\uFE0F?)")


# A tag Ulster and Scottish English put last only to stress what was said ("..., so it is",
# "..., so I am"): nothing may follow it.
_STRESS_TAG = re.compile(r",?\s+so (?:it is|it's|i am|i'm|they are|they're|we are|we're)"
                         r"\s*[.!]*\s*$", re.IGNORECASE)


# A post's place in a thread ("1/2 remove X 2/2 then count ...", "(1/3)"): each part of
# the thread is a sentence of its own.
_THREAD_NUMBER = re.compile(r"(?:^|(?<=\s))\(?([1-9])/([1-9])\)?(?=\s)")


def _without_thread_numbers(text: str) -> str:
    """``text`` with a thread's numbers as sentence ends, when it is numbered 1/n to n/n in
    order from its start and nothing else ("1/2 ... 2/2 ..."); as written otherwise (a
    number written so may be a value)."""
    if "/" not in text:
        return text
    found = list(_THREAD_NUMBER.finditer(text))
    if not found or found[0].start() != len(text) - len(text.lstrip()):
        return text
    parts = found[0].group(2)
    if [m.groups() for m in found] != [(str(i), parts) for i in range(1, int(parts) + 1)]:
        return text
    said = [text[m.end():n.start() if n else len(text)].strip()
            for m, n in zip(found, [*found[1:], None], strict=True)]
    return " ".join(part if part[-1:] in ".!?" else f"{part}." for part in said if part)


# Names listed a line each after a line that ends with a colon ("remove these:\n- X\n- Y"):
# at least two, each alone on its line (a bullet before it at most).
_LISTED_LINES = re.compile(
    r":[ \t]*((?:\n[ \t]*(?:[-*•][ \t]+)?[A-Za-z][\w.-]*\.?[ \t]*(?=\n|$)){2,})")
_LISTED_LINE = re.compile(r"\n[ \t]*(?:[-*•][ \t]+)?([A-Za-z][\w.-]*?)\.?[ \t]*(?=\n|$)")


def _lines_listed(text: str) -> str:
    """``text`` with names listed a line each after a colon said as a list in a sentence
    ("remove these from the graph:\n- X\n- Y\n- Z" -> "...: X, Y and Z."); a line of a list
    that is not one name leaves the text as written."""
    if ":\n" not in text and ": \n" not in text:
        return text

    def listed(found: re.Match) -> str:
        names = _LISTED_LINE.findall(found.group(1))
        if not all(_NAME_MARK.search(name) for name in names):
            return found.group()  # a word on a line of its own: "Thanks", "Dana"
        return ": " + ", ".join(names[:-1]) + " and " + names[-1] + "."

    return _LISTED_LINES.sub(listed, text)


def _without_stress_tag(text: str) -> str:
    return _STRESS_TAG.sub("", text) if " so " in text.lower() else text


def _without_topic_tags(text: str) -> str:
    return _TOPIC_TAG.sub(" ", text) if "#" in text else text


def _without_emoji(text: str) -> str:
    """``text`` without the emoji that only carry a mood (see ``_MOODS``), and without the
    faces and tildes East Asian chat ends a sentence on ("(^^)", "^_^", "please~"); a
    tilde before a number ("~10 Gbps": about) stays, and so is refused."""
    if ":" in text:
        text = _EMOJI_CODE.sub(" ", text)
    if not text.isascii():
        text = _EMOJI_PICTURES.sub(" ", text)
    if "^" in text or "~" in text:
        text = _KAOMOJI.sub(" ", text)
    return text


_KAOMOJI = re.compile(r"\(\^[_o.\-]?\^\)|(?<![\w^])\^[_\-]?\^(?![\w^])|(?<=[\w.!?)])~+(?=\s|$)")


_PERSONS = frozenset({"i", "we", "you", "u", "me", "us", "my", "our", "your"})
_TRAILING = frozenset({"like", "n", "&"})
# A tag that asks for a yes before acting: "remove X, ok?", "rm X k?".
_CONFIRMING = frozenset({"ok", "okay", "k", "kk", "alright", "cool", "fine", "good", "agreed",
                         "yes", "yeah", "yea", "sure"})
# Who asks whether to act, or proposes it: "should I ...", "shall we ...", "we could ...".
_WHETHER = frozenset({*((modal, who) for modal in ("should", "shall") for who in ("i", "we")),
                      *((who, modal) for who in ("i", "we") for modal in ("could", "might",
                                                                          "may"))})


# Words that say a request is asked of the one who reads it: "please ..., ok?", "I need that
# you ..., ok?", "can you ..., ok?" (its "ok?" asks to be heard, not whether).
_ASKED_OF_READER = frozenset({"please", "pls", "plz", "kindly", "you", "u", "need", "needed",
                              "necessary", "want", "must"})
# Who may follow "after removing it" before the request goes on ("... I want that you rank").
_ASKER_OR_ASKED = _PERSONS | _ASKED_OF_READER


def _asked_of_netmend(written: list[Token]) -> bool:
    """Whether a request ending on "ok?" is asked of its reader: "please", "kindly" or "you"
    said before it, and no first person who might act ("I remove X, ok?")."""
    said = {t.text for t in written}
    first = _first_said(written)
    ordered = first is not None and first + 1 < len(written) and written[first].text == "to" \
        and _an_order(written[first + 1])  # "To remove X, ok?": an order said as an infinitive
    return (ordered or not said.isdisjoint(_ASKED_OF_READER)) and "we" not in said and not any(
        t.text == "i" and _a_verb(u) and u.text not in _WANTING
        for t, u in zip(written, written[1:], strict=False))


_WANTING = frozenset({"need", "want", "would", "ask", "request", "require", "wish", "like"})


def _refuse_asked_whether(written: list[Token], text: str) -> None:
    """Refuse a request that asks whether to act ("should I remove X", "so like shall we
    drop X"), with a question mark or without one, proposes it ("we could remove X") or asks
    for a yes first ("remove X, ok?", unless it is asked of its reader: "please remove X,
    ok?"): advice is asked, or a plan said, not a change."""
    at = 0
    while at < len(written) and (written[at].text in P.FILLERS and written[at].text not in
                                 _PERSONS or written[at].text in ("like", ",")):
        at += 1
    said = tuple(t.text for t in written[at:at + 2])
    if said in _WHETHER:
        raise AmbiguousRequest(
            f"the request asks or proposes whether to act ({' '.join(said)} ...); netmend makes "
            "a change only when it is asked for", expected="the change itself, e.g. 'remove "
            "<node name>'", text=text)
    if written[-1].text == "?" and len(written) > 1 and written[-2].text in _CONFIRMING \
            and not (written[-2].text in ("ok", "okay", "yes") and _asked_of_netmend(written)):
        raise AmbiguousRequest(
            f"the request ends on '{written[-2].text}?': it asks whether to act",
            expected="the request without the question, e.g. 'remove <node name>'", text=text)


def _refuse_said_short(written: list[Token], text: str) -> None:
    """Refuse a request that names a node by the last part of a name it also says whole ("p2
    out: remove ju1.s1.s1c1.p2 ...", "s2c1 - ..."): is that one node said twice, or a node
    "p2" of its own?"""
    short = [t.text for t in written if t.kind == "NAME" and "." not in t.text]
    if not short:
        return
    whole = {t.text.rsplit(".", 1)[-1]: t.text for t in written
             if t.kind == "NAME" and "." in t.text.strip(".")}
    for name in short:
        if name in whole:
            raise AmbiguousRequest(
                f"{name!r} may be short for {whole[name]!r}, which the request names too",
                expected="each node named once, by its whole name", text=text)


# Words that start where a list's next item should be: "add ports A, B and to switch S".
_JOINTS = frozenset({"and", "or"})
_NOT_AN_ITEM = frozenset({"to", "on", "onto", "in", "into", "under", "from", "of", "at", "for",
                          "with"})


def _refuse_cut_short(written: list[Token], text: str) -> None:
    """Refuse a request that trails off ("... and also like", "rm X n"), or whose list of
    names stops at its "and" ("add ports A, B and to switch S": which is the third? A list
    of one name may go on so: "remove X and in the new graph count ...")."""
    for at in range(2, len(written) - 1):
        joint = written[at]
        if joint.text in _JOINTS and written[at - 1].kind == "NAME" \
                and written[at - 2].text == "," and written[at + 1].text in _NOT_AN_ITEM:
            raise IncompleteRequest(
                f"the list of names ends on {joint.text!r} before {written[at + 1].text!r}",
                expected="every name of the list, e.g. 'add ports A, B and C to switch S'",
                text=text)
    last = written[-1].text if written[-1].kind != "PUNCT" or len(written) < 2 else \
        written[-2].text
    if last not in _TRAILING:
        return
    words = [t.text for t in written[-4:] if t.kind != "PUNCT"]
    if len(written) > 2 and len(words) > 1 and (
            words[-1] == "like" and words[-2] in ("and", "also", "then", "plus")
            or words[-1] in ("n", "&")):
        raise IncompleteRequest(f"the request ends on {' '.join(words[-2:])!r}, which needs "
                                "something after it", expected="the rest of the request",
                                text=text)


# What is left out of a request's text, or said otherwise, before it is split into tokens, in
# order: a code comment's marks, mood emoji, a feed's topic tags, a tag that only stresses,
# a thread's numbers. Each looks for a character or a word it needs first.
_TEXT_PASSES = (_without_code_comment, _without_emoji, _without_topic_tags, _without_stress_tag,
                _without_thread_numbers, _lines_listed)


def _parse_said(said: str, text: str) -> Parsed:
    """:func:`parse_request` of ``said`` (the request as written, or the sentence a record
    stands for); ``text`` is what was written, for messages. What no rule reads may still
    be one change said in another order (:mod:`netmend.malt.slots`)."""
    for rewrite in _TEXT_PASSES:
        said = rewrite(said)
    written = tokenize(said, mentions=True)
    tokens, it_kinds, asked_how = _normalized_asking(written, said)
    tokens, places, kinds = _without_places(tokens, bare=False) if any(
        t.text in _SAID_OF_A_NAME for t in tokens) else (tokens, [], [])
    _refuse_said_of_a_name(tokens, text)
    if written:
        _refuse_asked_whether(written, text)
        _refuse_cut_short(written, text)
        _refuse_said_short(written, text)
    lowered = said.lower()
    says_both = "both" in lowered
    if says_both:
        _refuse_both_miscounted(written, text)
    try:
        parsed = _parse_normalized(tokens, it_kinds, text)
    except (UnknownRequest, IncompleteRequest) as refusal:
        # "list the ports of switch S in agg block A": a place said right after a name is
        # set apart only when the request cannot be read with it ("add port S.p9 in S")
        placed, more_places, more_kinds = _without_places(tokens, bare=True)
        if not more_places and not more_kinds:
            raise
        try:
            parsed = _parse_normalized(placed, it_kinds, text)
        except QueryError:
            raise refusal from None
        tokens, places, kinds = placed, places + more_places, kinds + more_kinds
    if places or kinds:
        parsed = dataclasses.replace(
            parsed, qualifiers=tuple(dict.fromkeys([*parsed.qualifiers, *kinds])),
            places=tuple(dict.fromkeys(places)))
    if parsed.unquantified:
        _, kept_apart = _without_bookkeeping(written)  # its words may pick nodes out too
        said_apart = [t for t in kept_apart if t.kind != "MENTION"]
        unknown = [x.text for x in lex([*said_apart, *tokens]) if x.cats & _UNKNOWN_CATS]
        if unknown:
            raise AmbiguousRequest(
                f"the request changes a set of nodes and says {' '.join(unknown)!r}, which "
                "netmend does not know: it may say which of them are meant",
                expected="'all' or 'every' before the set, or the request without those "
                "words", text=text)
    if "how" in lowered or "way" in lowered:  # every way of asking how says one of them
        _refuse_change_asked_how(parsed, asked_how, written, text)
    if not all(map(_of_named, parsed.query.steps)):
        _refuse_nodes_named_apart(_without_estimates(written), text, _without_chase)
        if says_both:
            _refuse_both_of_a_set(written, text)
    if any(isinstance(step, (ir.Add, ir.ForEachAdd)) and step.kind == K.CHASSIS
           for step in parsed.query.steps) and not any(
            t.kind == "KIND" and t.value == K.CHASSIS for t in written):
        raise AmbiguousRequest(
            "a new 'chassis' may be a switch (each switch of a MALT topology is a chassis "
            "too) or a node of kind EK_CHASSIS alone", expected="'switch' for a new "
            "EK_PACKET_SWITCH, or the kind written as EK_CHASSIS", text=text)
    counted = {step.metric.kind for step in parsed.query.steps
               if isinstance(step, ir.Top) and step.metric.name == "count"}
    if counted:
        _refuse_size_of_a_kind(written, counted, text)
    return parsed


# Superlatives of size (not of number): "the biggest ports" are the ports of most capacity.
_SIZE_SUPERLATIVES = frozenset({"biggest", "largest", "highest", "greatest", "max", "maximal",
                                "maximum", "peak", "top", "smallest", "lowest", "min",
                                "minimal", "minimum", "bottom"})


def _kind_words_at(tokens: list[Token], at: int) -> tuple[str, str, int]:
    """The kind said at ``at`` (an EK_ name, or words for one: "ports", "agg blocks"), its
    number (``SG``, ``PL``, ``SGPL``) and how many tokens say it; ("", "", 1) for none."""
    if tokens[at].kind == "KIND":
        return str(tokens[at].value), "PL", 1
    two = " ".join(t.text for t in tokens[at:at + 2])
    said, length = (two, 2) if at + 1 < len(tokens) and two in P.KIND_WORDS else (
        tokens[at].text, 1)
    kind, number = P.KIND_WORDS.get(said, ("", ""))
    return kind, number, length


# Words that make a kind a number of them: "the highest port count".
_COUNTS = frozenset({"count", "counts", "number", "numbers", "total", "tally", "quantity"})


def _refuse_size_of_a_kind(written: list[Token], counted: set[str], text: str) -> None:
    """Refuse a ranking by how many nodes of a kind there are (one of ``counted``) that was
    said with a superlative of size before that kind ("the switches with the biggest ports"):
    that may mean the ports' capacity, not their number ("the most ports")."""
    for i, token in enumerate(written[:-1]):
        if token.text not in _SIZE_SUPERLATIVES:
            continue
        kind, number, length = _kind_words_at(written, i + 1)
        after = written[i + 1 + length] if i + 1 + length < len(written) else None
        if kind in counted and "PL" in number and (after is None or after.text not in _COUNTS):
            raise AmbiguousRequest(
                f"{token.text!r} before {written[i + 1].text!r} may be said of their capacity or of "
                "how many there are", expected="'the most ports' (how many) or 'the highest "
                "total capacity'", text=text)


# What ends a sentence or a heading: a word written with a capital after any other token is
# someone's name ("Thanks, Lucia", "For the CFO").
_STARTS_A_PART = frozenset({".", "!", "?", ":", ";", "(", "[", "-", "--", "->"})


# What opens a purpose said last without a boundary: "for the audit", "before the window".
_PURPOSE_OPENS = frozenset({"for", "before"})
_WHAT_A_SET_ENDS_ON = frozenset({"graph", "topology", "network", "fabric", "capacity"})
# Fields whose value is someone: "From: Jen", "Owner: dchen".
_PERSON_FIELDS = frozenset({"from", "to", "cc", "by", "owner", "assignee", "requester",
                            "requestor", "approver"})
# Words that start a phrase of their own when written with a capital inside a sentence.
_OPENING = frozenset({"for", "the", "re", "regarding", "about"})


def _written_kind(written: list[Token], i: int) -> str:
    """A token's kind, with a word written with a capital after another token ``PROPER``
    (someone's name) or, when it may open a phrase ("For the uplinks"), ``OPENS``."""
    token = written[i]
    if token.text in _PURPOSE_OPENS and i and i + 1 < len(written) \
            and written[i + 1].text in _PURPOSE_ARTICLES and (
                written[i - 1].kind == "NAME" or written[i - 1].text in P.KIND_WORDS
                or written[i - 1].text in _WHAT_A_SET_ENDS_ON):
        return "OPENS"  # "... of S for the uplinks", "... in the graph before the uplinks"
    if token.kind == "WORD" and i > 1 and written[i - 1].text == ":" \
            and written[i - 2].text in _PERSON_FIELDS:
        return "PROPER"  # "From: jen", "owner: dchen"
    if token.kind != "WORD" or not i or written[i - 1].text in _STARTS_A_PART \
            or not str(token.value)[:1].isupper() or len(token.text) == 1:
        return token.kind  # a letter is no one's name: "Aisle C"
    return "OPENS" if token.text in _OPENING else "PROPER"


def _plain_word(token: Token) -> bool:
    return token.kind == "WORD" or token.kind == "NAME" and "." not in token.text


_RETURN_WORDS = frozenset({"return"})


def _may_hold_a_phrase_apart(written: list[Token]) -> bool:
    """Whether ``written`` may hold a phrase :func:`context.phrase_naming_nodes` returns, by a
    test on the tokens alone that holds whenever that one does: some part between the marks
    that set parts apart ends on a word that names no occasion, after words only (or names
    of no node) from the part's start or from a word that may open a phrase ("for", "before",
    or "The", "Re" with a capital: see :func:`_written_kind`)."""
    start = 0
    for end in [*(i for i, t in enumerate(written) if t.text in context.APART), len(written)]:
        if end - start > 1 and written[end - 1].text in ("here", "there"):
            end -= 1  # "Uplinks here."
        last = written[end - 1] if end > start else None
        if last is not None and _plain_word(last) and not {
                last.text, last.text.rsplit("-", 1)[-1]} & context.OCCASION_NOUNS:
            first = end - 1
            while first > start and _plain_word(written[first - 1]):
                first -= 1
            if first == start and written[start].text not in _RETURN_WORDS or any(
                    t.text in _PURPOSE_OPENS or t.text in _OPENING and str(
                        t.value)[:1].isupper() for t in written[first:end]):
                return True  # (a part that opens with "return" is a request of its own)
        start = end + 1
    return False


def _refuse_nodes_named_apart(written: list[Token], text: str, unsaid=None) -> None:
    """Refuse a request that reads or changes a set when a phrase set apart around it may say
    which of the nodes are meant (:func:`context.phrase_naming_nodes`: "Uplinks: list the
    ports of S", "... For the uplinks.", "count the ports of S (dark)"). ``unsaid``: a
    rewrite of a sentence without what says nothing of the request (a chase: "Still
    waiting!!"), tried when a phrase is found."""
    if not _may_hold_a_phrase_apart(written):
        return  # every part names something (the request's own), or names an occasion
    if unsaid is not None:
        kept = _per_sentence(written, unsaid)
        if kept != written:
            _refuse_nodes_named_apart(kept, text)
            return
    words = [(_written_kind(written, i), t.text) for i, t in enumerate(written)]
    phrase = context.phrase_naming_nodes(
        words, lambda i, j: [(x.cats, x.text) for x in lex(written[i:j])])
    if phrase is not None:
        raise AmbiguousRequest(
            f"the request reads or changes a set of nodes and says {phrase!r} apart from it, "
            "which may say which of them are meant", expected="the request without it, or "
            "what picks the nodes out said as a filter netmend knows", text=text)


_UNKNOWN_CATS = frozenset({"UNK", "HELD"})


def _parse_normalized(tokens: list[Token], it_kinds: tuple[str, ...], text: str) -> Parsed:
    """The request's normalized tokens read as said, or as what else they may be said as."""
    try:
        return _parse_ruled(tokens, it_kinds, text)
    except (UnknownRequest, IncompleteRequest):
        filled = _slot_filled(tokens, it_kinds, text)
        if filled is not None:
            return filled
        asked_how = False
        for kept, named_only, how in _said_otherwise(tokens):
            try:
                parsed: Parsed | None = _parse_ruled(kept, it_kinds, text)
            except (UnknownRequest, IncompleteRequest):
                parsed = _slot_filled(kept, it_kinds, text)
            if parsed is None:
                continue
            steps = parsed.query.steps
            changed_for_how = how and any(isinstance(step, ir.MUTATIONS) for step in steps)
            set_after_aside = not all(map(_of_named, steps)) if named_only is True else (
                named_only == _NO_SET_CHANGE and _changes_a_set(steps))
            if not (changed_for_how or set_after_aside):
                return parsed
            asked_how = asked_how or changed_for_how
        listed = _set_named_alone(tokens)
        if listed is not None:
            try:
                parsed = _parse_ruled(listed, it_kinds, text)
            except (UnknownRequest, IncompleteRequest):
                parsed = _slot_filled(listed, it_kinds, text)
            if parsed is not None and all(isinstance(step, ir.ListNodes)
                                          for step in parsed.query.steps):
                return parsed
        if asked_how:
            raise _change_asked_how(text) from None
        raise


def _change_asked_how(text: str) -> QueryError:
    return UnknownRequest("the request asks how a change is made; netmend makes a change only "
                          "when it is asked for", expected="the change itself, e.g. 'remove "
                          "<node name>'", text=text)


def _refuse_change_asked_how(parsed: Parsed, asked_how: bool, written: list[Token],
                             text: str) -> None:
    """Refuse a change whose request asks how to make it ("anyone know how to delete X?",
    "... What's the best way?"): a read asked so is shown, a change is not made. How may be
    asked in the sentences as read (``asked_how``) or as written (the passes before may have
    cut a sentence that asks it)."""
    if any(isinstance(step, ir.MUTATIONS) for step in parsed.query.steps) and (
            asked_how or _courtesy_said_plainly(written)[1]):
        raise _change_asked_how(text)


def _set_named_alone(tokens: list[Token]) -> list[Token] | None:
    """A set below a named node, named alone as the request ("Ports above 10 Gbps in A?", "All
    A ports with capacity above 10G."), as a request to list it; None when the request starts
    otherwise or names no node ("ports" alone says nothing of where).
    Only a list of nodes is read so (see :func:`_parse_said`)."""
    at = 1 if tokens and tokens[0].text in _SET_OPENERS else 0
    if at < len(tokens) and tokens[at].kind == "NAME":
        at += 1
    if at < len(tokens) and tokens[at].text in P.KIND_WORDS \
            and tokens[at].text not in _KIND_SG_WORDS and any(t.kind == "NAME" for t in tokens):
        return [_VOCABULARY_TOKENS["list"], *tokens]
    return None


_SET_OPENERS = frozenset({"all", "every", "any", "the"})


def _said_otherwise(tokens: list[Token]):
    """What a refused request may be read as instead, each with whether only steps about
    named nodes may be answered so, and whether it asks how (then a change may not be):
    without why it is asked ("We're reviewing spine headroom - could you ...", "remove X
    (dead PSU, RMA open)", "The linecard on X died, pull it out"), and a question whether something can be
    done asked as the request ("Can the children of A be ranked by capacity?", "Could X be
    deleted from the graph?", "can I remove X?", as "can we remove X?" always was: operators
    ask so for what they want done, and a change is answered on the request's own copy of
    the graph, written back only when the caller asks). "How do I see ...?" asks to be
    shown; "how do I delete X?" asks how, and is never read as the change."""
    written = tokens
    if ")" in {t.text for t in tokens}:  # "remove X (dead PSU, RMA open)."
        for start, end in reversed(context.asides(
                [(t.kind, t.text) for t in written],
                lambda i, j: [(x.cats, x.text) for x in lex(written[i:j])])):
            tokens = [*tokens[:start], *tokens[end:]]
    # an aside could pick nodes out of a set ("the ports of S (broken optics)"): only requests
    # about named nodes are read without one
    named_only = tokens is not written
    words = [(t.kind, t.text) for t in tokens]
    lexed = lambda i, j: [(x.cats, x.text) for x in lex(tokens[i:j])]  # noqa: E731
    span = context.request_span(words, lexed)
    kept = tokens if span is None else tokens[span[0]:span[1]]
    if span is not None or named_only:
        # a part that starts with a participle has no subject of its own: it may be said of
        # the request's nodes, picking some out ("list the ports of S - flagged down")
        said_of_nodes = span is not None and (_participle_first(tokens[:span[0]])
                                              or _participle_first(tokens[span[1]:]))
        if not (named_only or said_of_nodes) and span is not None and _may_say_which(
                _around(tokens, span)):
            yield kept, _NO_SET_CHANGE, False
        else:
            yield kept, named_only or said_of_nodes, False
    around = context.request_span(words, lexed, frozenset(t.text for t in tokens
                                                           if t.kind == "NAME"))
    named = _without_named_context(tokens, around)
    if named is not None and named != kept and around is not None:
        yield named, named_only or (_NO_SET_CHANGE if _may_say_which(
            _around(tokens, around)) else False), False
    for said in (tokens, kept) if span is not None else (tokens,):
        asked = _asked_as_possible(said)
        if asked is not None:
            yield asked, named_only, False
        how = _asked_how(said)
        if how is not None:
            yield how, named_only, True
    signed = _without_dash_signature(tokens)
    if signed is not None:
        yield signed, True, False  # a name could pick nodes out, as an aside may
    end = context.heading(words, lexed)  # "Quote prep: ..."
    if end is not None and end < len(tokens):
        yield tokens[end:], True, False  # a heading may pick nodes out, as an aside may
    noted = _without_note(tokens)
    if noted is not None:
        yield noted, True, False  # "remove X, bad optic": a note may pick nodes out too
    told = _without_story(tokens)
    if told is not None:
        yield told, True, False  # a story may say which nodes of a set are meant
    if any(t.kind == "WORD" and t.text in _DASHES for t in tokens[1:-1]) and not any(
            t.text in _SPEAKING for t in tokens):
        # "X out of the topo -- port count on S after that": a dash between two requests
        # ends the first, as a full stop would (each side is then read as a request); not
        # when someone says something ("we are retiring A - remove X": that is context)
        yield [_SEMICOLON if t.kind == "WORD" and t.text in _DASHES else t
               for t in tokens], False, False


_DASHES = frozenset({"-", "--"})
_SPEAKING = frozenset({"i", "we", "they", "he", "she", "you"})
_SEMICOLON = Token("PUNCT", ";")


# What sets a note on the hardware apart from the request: "remove X, bad optic", "linecard's
# dead -- delete X".
_NOTE_BOUNDS = frozenset({",", "-", "--", ";", "."})


def _without_story(tokens: list[Token]) -> list[Token] | None:
    """The request without the sentences that tell a story before it
    (:func:`context.is_story`: "We had packet loss on S during Friday's outage and I
    suspected a slow link. What is the capacity of S.p1?"); None when none does."""
    ends = [i for i, t in enumerate(tokens) if t.text in _SENTENCE_ENDS]
    start = 0
    for end in ends:
        rest = tokens[end + 1:]
        names = frozenset(t.text for t in rest if t.kind == "NAME")
        part = tokens[start:end]
        if not rest or not context.is_story([(t.kind, t.text) for t in part],
                                            [(x.cats, x.text) for x in lex(part)], names):
            break
        start = end + 1
    return tokens[start:] if start else None


def _without_note(tokens: list[Token]) -> list[Token] | None:
    """The request without a note on its hardware's state said last or first, set apart
    (:func:`context.is_note`); None when there is none."""
    end = len(tokens) - (bool(tokens) and tokens[-1].text in _SENTENCE_ENDS)
    bounds = [i for i in range(1, end) if tokens[i].text in _NOTE_BOUNDS]
    if not bounds:
        return None

    def noted(part: list[Token]) -> bool:
        return context.is_note([(t.kind, t.text) for t in part],
                               [(x.cats, x.text) for x in lex(part)])

    last, first = bounds[-1], bounds[0]
    if noted(tokens[last + 1:end]):
        return tokens[:last]
    if first + 1 < end and noted(tokens[:first]):
        return tokens[first + 1:]
    return None


# What a request read without its context may not be when that context may say which nodes
# of a set are meant (see :func:`_may_say_which`): a change to a set.
_NO_SET_CHANGE = "no set change"


def _may_say_which(part: list[Token]) -> bool:
    """Whether context set aside says a word netmend does not know other than one of an
    occasion, its people or its dates (``context.OCCASION_NOUNS``) or a fault ("X is dead"):
    such a word may name some of a set's nodes, and another may say they are kept ("we're
    retaining the uplinks", "the optics are staying"), so no change to a set is made
    without it."""
    return any(x.cats & {"UNK", "HELD"} and x.text not in _OCCASION_OR_FAULT
               or x.cats & _KIND_CATS and "NAME" not in x.cats for x in lex(part))


_OCCASION_OR_FAULT = context.OCCASION_NOUNS | context.FAULTS
_KIND_CATS = frozenset({"KIND", "KIND_SG", "KIND_PL"})  # "we racked a chassis": which?


def _around(tokens: list[Token], span: tuple[int, int]) -> list[Token]:
    """What is set aside around the request ``tokens[span[0]:span[1]]``."""
    return [*tokens[:span[0]], *tokens[span[1]:]]


def _changes_a_set(steps: Sequence[ir.Step]) -> bool:
    return any(isinstance(step, _SET_CHANGES) for step in steps)


def _participle_first(part: list[Token]) -> bool:
    """Whether ``part`` starts with a participle the grammar does not know that may be said
    of nodes ("flagged down", "flapping", "marked by monitoring"), not of what the asker is
    doing or needs ("trying to ...", "prepping for the review", "needed for the audit")."""
    words = [t for t in part if t.kind != "PUNCT" and t.text not in ("-", "--")]
    if not words or words[0].kind != "WORD" or words[0].text in P.LEXICON \
            or len(words[0].text) <= 4 or not words[0].text.endswith(("ed", "ing")):
        return False
    after = words[1].text if len(words) > 1 else None
    if after in P.COPULAS or after in ("has", "have", "had", "will", "would"):
        return False  # a subject, not a participle: "Ahmed is asking"
    if words[0].text.endswith("ing"):
        return after not in _ACTIVITY_NEXT  # "trying to", "prepping for", "doing a walk"
    return after != "for"  # "needed for the audit report"


# What follows a participle of the asker's activity: a purpose, or an object.
_ACTIVITY_NEXT = frozenset({"to", "for", "a", "an", "the", "some", "our", "my", "this"})


def _without_named_context(tokens: list[Token], span: tuple[int, int] | None
                           ) -> list[Token] | None:
    """The request without context that names nodes ("The linecard on X failed - remove it
    from the graph", "X lost its optic; what is the capacity of X?"): every node the context
    names is one the request names too, or the one node the request points back to with
    "it" / "its" before it names any. None when the context names another node."""
    if span is None:
        return None
    kept = tokens[span[0]:span[1]]
    aside = {t.text: t for t in (*tokens[:span[0]], *tokens[span[1]:]) if t.kind == "NAME"}
    missing = set(aside) - {t.text for t in kept if t.kind == "NAME"}
    if not missing:
        return kept
    if len(aside) > 1:
        return None  # which of them would "it" be?
    name = aside[missing.pop()]
    first = next((i for i, t in enumerate(kept) if t.kind == "NAME"), len(kept))
    said, pointed = _said_for_it(kept[:first], (name,), name)
    return [*said, *kept[first:]] if pointed else None


# Steps about one named node: an addition, removal, update or a node's value.
_NAMED_STEPS = (ir.Add, ir.Remove, ir.Update, ir.CapacityOf)


def _of_named(step: ir.Step) -> bool:
    """Whether ``step`` is about named nodes only, so that nothing said around the request
    could pick some of a set out: a step of :data:`_NAMED_STEPS`, or what holds a named node
    ("which agg block contains P": one answer per kind)."""
    return isinstance(step, _NAMED_STEPS) or (isinstance(step, ir.ListNodes)
                                              and step.nodes.axis == "ancestors")


_ASKERS = frozenset({"i", "we"})
# What the asker would do to be shown something: "can I see ...", "how do I get ...".
_SEE = frozenset({"see", "get", "have", "view", "find", "obtain", "pull", "check"})


def _asked_how(tokens: list[Token]) -> list[Token] | None:
    """"How do I see the ports of S?", "how can we list ...": asks how to be shown something,
    and showing it is the answer (the caller answers reads only: "how do I delete X?" asks
    how, and a change is never made for it)."""
    end = len(tokens) - (bool(tokens) and tokens[-1].text == "?")
    if end < 5 or tokens[0].text != "how" or tokens[1].text not in ("do", "can", "could",
                                                                    "would", "should") \
            or tokens[2].text not in _ASKERS:
        return None
    return [_SHOW, *tokens[4:end]] if tokens[3].text in _SEE else tokens[3:end]


_POSSIBLE = P.ASKING_MODALS
_ASKED_OF = frozenset({"you", "we", "i", "someone", "somebody", "anyone", "anybody", "u", "ya",
                       "one", "netmend", "they"})
_SHOULD = _VOCABULARY_TOKENS["should"]


def _asked_as_possible(tokens: list[Token]) -> list[Token] | None:
    """"Can the ports of S be listed?" as "the ports of S should be listed" (the modal moved
    before the first "be"), "Is it possible to have the list of ...?" as "have the list of
    ..."; None when the request is not asked so."""
    end = len(tokens) - (bool(tokens) and tokens[-1].text == "?")
    lead = next((len(said) for said in _POSSIBLE_LEADS if len(tokens) >= len(said) and all(
        word is None or t.text == word
        for word, t in zip(said, tokens[:len(said)], strict=True))), 0)
    if len(tokens) > 5 and tokens[0].text in _POSSIBLE and [t.text for t in tokens[1:3]] == [
            "it", "be"] and tokens[3].text in _MADE_KNOWN and (
                tokens[4].text in _WH_WORDS or tokens[4].text in ("to", "on", "in", "under")
                and tokens[5].text in _WH_WORDS):
        return tokens[4:end]  # "Could it be confirmed which agg block contains P?"
    if lead:  # "is it possible to ...", "would it be possible to ..."
        asked = tokens[lead:end]
        if asked and asked[0].text in ("have", "get", "see", "know"):
            asked = [_SHOW, *asked[1:]]  # "... to have the list of ...": to be shown it
        return asked
    if len(tokens) > 3 and tokens[0].text in _POSSIBLE and tokens[1].text in _ASKERS:
        # "Can I see the ports of S?", "can we get a list of ...": to be shown it
        return [_SHOW, *tokens[3:end]] if tokens[2].text in _SEE else tokens[2:end]
    if len(tokens) < 4 or tokens[0].text not in _POSSIBLE or tokens[1].text in _ASKED_OF:
        return None
    be = next((i for i, t in enumerate(tokens) if t.text == "be"), None)
    if be is None:  # "Can P have its capacity updated to 10G?"
        be = next((i for i, t in enumerate(tokens[:-1]) if t.text in ("have", "get")
                   and tokens[i + 1].text in ("its", "their")), None)
    if be is None or be < 2:
        return None
    return tokens[1:be] + [_SHOULD] + tokens[be:end]


# "Is it possible to ...", "Would it be possible to ..." (None: any modal), "Is possible to ...".
_POSSIBLE_LEADS = (("is", "it", "possible", "to"), (None, "it", "be", "possible", "to"),
                   ("is", "possible", "to"))
# What a question may be asked to be made known by: "could it be confirmed which ...".
_MADE_KNOWN = frozenset({"confirmed", "established", "determined", "indicated", "ascertained",
                         "stated", "verified", "checked", "clarified", "reported", "shown"})


_SENTENCE_JOINT = Lexeme(frozenset({"COMMA", "STOP"}), None, ".")  # a comma no list crosses


_THEN_WORDS = frozenset({"then", "afterwards", "after", "that", "and", "once", "done", "next",
                         "finally", "subsequently", "thereafter", "so", "also", "->", "=>",
                         ",", "-", "--", ":"})


def _slot_filled(tokens: list[Token], it_kinds: tuple[str, ...], text: str) -> Parsed | None:
    """``tokens`` read as one change by :func:`slots.change` or one question by
    :func:`slots.question`; or, split after a sentence's end or "then", as a change and then
    what follows, where slot filling reads at least one of the two parts (the change, or the
    question after it); None when none of these."""
    whole = _change(tokens, text) or _filled(tokens, text, read=True)
    if whole is not None:
        return whole
    # "With X removed, how many ...": a change said as a condition, then the question
    said_with = bool(tokens) and tokens[0].text.lower() == "with"
    for at, tok in enumerate(tokens):
        if said_with and tok.text == ",":
            said_with = False
            first = _change(tokens[1:at], text, condition=True)
            if first is not None and _grammar_reads(tokens[:at], it_kinds, text) is None:
                parsed = _then_read(first, tokens[at + 1:], it_kinds, text)
                if parsed is not None and len(parsed.query.steps) == len(
                        first.query.steps) + 1 and isinstance(parsed.query.steps[-1], ir.READS):
                    return parsed  # a condition, then one question (not another change)
            continue
        if not (tok.text in _SENTENCE_ENDS or tok.text.lower() == "then"):
            continue
        end = at + (tok.text in _SENTENCE_ENDS)  # a sentence's end is the change's own
        rest = end
        while rest < len(tokens) and tokens[rest].text.lower() in _THEN_WORDS:
            rest += 1
        if rest == len(tokens):
            return None
        read = _grammar_reads(tokens[:end], it_kinds, text)
        if read is None:  # a change only slots read, then a question either reads
            first = _change(tokens[:end], text)
            parsed = None if first is None else _then_read(first, tokens[rest:], it_kinds, text)
        elif all(isinstance(s, ir.MUTATIONS) for s in read.query.steps):
            question = _question_after(tokens[rest:], text)  # then a question only slots read
            parsed = None if question is None else _joined(read, question)
        else:
            parsed = None
        if parsed is not None:
            return parsed
    return None


def _then_read(first: Parsed, tokens: list[Token], it_kinds: tuple[str, ...],
               text: str) -> Parsed | None:
    """``first`` (one change) and then what ``tokens`` ask, read by the grammar (with
    ``first`` done: "it" is an addition's parent, conflicts are checked) or, as one
    question, by slot filling; None when they ask nothing more or neither reads them."""
    try:
        parsed: Parsed | None = _parse_tokens(tokens, it_kinds, text, done=first)
    except QueryError:
        question = _question_after(tokens, text)
        parsed = None if question is None else _joined(first, question)
    if parsed is None:
        return None
    return parsed if len(parsed.query.steps) > len(first.query.steps) else None


def _joined(first: Parsed, question: Parsed) -> Parsed | None:
    """A change and then a question, as one request; None when the steps clash."""
    steps = first.query.steps + question.query.steps
    if ir.conflict(steps) is not None:
        return None
    return Parsed(ir.Query(steps), tuple(dict.fromkeys(first.qualifiers + question.qualifiers)),
                  first.unquantified or question.unquantified)


def _question_after(tokens: list[Token], text: str) -> Parsed | None:
    """The one question ``tokens`` ask after a change, read by slot filling: "then" in it
    ("which nodes does A then contain?") says after the change, which it is."""
    return _filled([t for t in tokens if t.text.lower() != "then"], text, read=True)


def _grammar_reads(tokens: list[Token], it_kinds: tuple[str, ...], text: str) -> Parsed | None:
    try:
        return _parse_tokens(tokens, it_kinds, text)
    except QueryError:
        return None


def _change(tokens: list[Token], text: str, *, condition: bool = False) -> Parsed | None:
    return _filled(tokens, text, read=False, condition=condition)


_DO_SUPPORT = frozenset({"does", "do"})


def _filled(tokens: list[Token], text: str, *, read: bool,
            condition: bool = False) -> Parsed | None:
    """``tokens`` read as one change by :func:`slots.change` (as one question about one
    node by :func:`slots.question` when ``read``), or None."""
    written = [(t.kind, t.text.lower()) for t in tokens]
    if not (slots.said_now(written) if read else slots.asked(written)):
        return None
    lexemes: list[Lexeme] = []
    for sentence in _sentences(tokens):
        sentence, layout = _format_tail(sentence)
        analysis = _analyze(_shape_of(sentence))
        if layout is not None or analysis.says_new or analysis.dangling is not None and not (
                read and not _DO_SUPPORT.isdisjoint(t.text for t in sentence)):
            return None  # "set P to 10G extra": what the grammar refuses after parsing; a
            # question with "does" may end on its verb ("how much capacity does a port in A
            # have?"), one without it is cut short ("how many ports in A have")
        if analysis.return_at is not None and (
                _promised(sentence[analysis.return_at:], text) not in (None, "graph")
                or any(tok.kind in _NAMED or tok.kind == "POSS" or tok.text in _KIND_TEXTS
                       for tok in sentence[analysis.return_at:])):
            return None  # "... and return the graph's ports": a read, not the graph
        shape = _shape_of(sentence)
        if read and _says_graph(shape[:analysis.return_at]):
            return None  # "count all ports in the graph. S": a place said twice (a change
            # says the graph only as where it happens: "take X out of the graph")
        said = analysis.lexemes if analysis.dangling is None else _lex_shape(shape)
        lexemes += [_SENTENCE_JOINT] * bool(lexemes) + _written_apart(said, sentence)
    cats = [x.cats for x in lexemes]
    frame = slots.question(cats) if read else slots.change(cats, condition=condition)
    if frame is None or read and _below_where(frame, tokens):
        return None
    resolver = _Resolve(lexemes, text)
    steps, _ = resolver.steps(frame, None)
    return Parsed(ir.Query(tuple(steps)), tuple(dict.fromkeys(resolver.qualifiers)),
                  _unquantified(steps, lexemes))


def _below_where(frame: tuple, tokens: list[Token]) -> bool:
    """Whether a question's slot frame reads a set of nodes below a node, not filtered, from a
    request that says "where": "where can I find P, which switch?", "P - where, which agg
    block?" ask where P is (above it), and no rule read the "where"."""
    def below(part: object) -> bool:
        if not isinstance(part, tuple):
            return False
        if part[:1] == ("set",) and len(part) == 5:
            return part[3] != "ancestors" and not part[4] or below(part[1])
        return any(map(below, part))
    return any(t.text.lower() == "where" for t in tokens) and below(frame)


_GAP = Lexeme(frozenset({"GAP"}), None, "")  # no frame has it: its request is refused


def _written_apart(template, sentence: list[Token]) -> list[Lexeme]:
    """The sentence's lexemes, with a gap before a name whose kind lexeme was not written
    right before it ("a new port list of A": "list of" was dropped, and "port A" would read
    A as the port): slot filling reads a kind and a name as one node only when they were
    said together."""
    out = _materialize(template, sentence)
    for i in range(len(template) - 1, 0, -1):
        ref = template[i].value
        if "NAME" in out[i].cats and out[i - 1].cats & _KIND_NUMBER["SGPL"] and type(ref) is _Ref \
                and ref.start and sentence[ref.start - 1].text.lower() \
                != out[i - 1].text.split()[-1].lower():
            out.insert(i, _GAP)
    return out


def _parse_ruled(tokens: list[Token], it_kinds: tuple[str, ...], text: str) -> Parsed:
    """The request's tokens read by the grammar and the fallbacks around it (a reason said
    first, a question asked twice, a request restated)."""
    try:
        return _parse_tokens(tokens, it_kinds, text)
    except QueryError as exc:
        refusal = exc  # what is wrong with the request as said
    justified = _justified(tokens)
    if justified is not None:
        kept, name, gone, reason = justified
        try:
            parsed = _parse_tokens(kept, it_kinds, text)
        except QueryError:
            pass
        else:
            first = parsed.query.steps[0]
            if gone and not (isinstance(first, ir.Remove) and first.name == name):
                raise refusal  # "X is retired; count its ports": retired by whom, when?
            if _may_say_which(reason) and _changes_a_set(parsed.query.steps):
                raise refusal  # "The uplinks stay. Remove all ports of S", "S keeps its
                # uplinks, remove all its ports": a reason may say which nodes of a set are meant
            return parsed
    twice = _asked_twice(tokens, it_kinds, text)
    if twice is not None:
        return twice
    restated = _restatement(tokens) or _restated_within(tokens)
    if restated is None:
        raise refusal
    kept, verb = restated
    try:
        parsed = _parse_tokens(kept, it_kinds, text)
    except QueryError:
        raise refusal from None
    steps = parsed.query.steps
    if not any(isinstance(step, _RESTATED[verb]) for step in steps) or (
            verb in ("one", "nodes", "value") and not isinstance(steps[-1], _RESTATED[verb])):
        raise refusal
    return parsed


def _asked_twice(tokens: list[Token], it_kinds: tuple[str, ...], text: str) -> Parsed | None:
    """"What does A directly contain? List all of its child nodes.": a first sentence that
    names one node, then a second that asks the same of it by a pronoun. The request is the
    first sentence when both ask exactly the same; None otherwise (or when either fails)."""
    end = next((i for i, t in enumerate(tokens) if t.kind == "PUNCT"
                and t.text in _SENTENCE_ENDS), None)
    if end is None:
        return None
    first, second = tokens[:end], tokens[end + 1:]
    names = [t for t in first if t.kind == "NAME"]
    if len(names) != 1 or not any(t.text in ("it", "its") for t in second):
        return None
    said, _ = _said_for_it(second, (names[0],), names[0])
    try:
        asked, again = _parse_tokens(first, it_kinds, text), _parse_tokens(said, it_kinds, text)
    except QueryError:
        return None
    return asked if asked.query == again.query else None


# "..., please update it", "... - remove it", "Please list them all.": a last clause that
# only says again, with a pronoun, what the request already asks (its verb's kind of step
# must be among the request's steps, else the request is refused as it stands).
_RESTATED_VERBS = {"REMOVE": "remove", "TAKE": "remove", "ADD": "add", "SET": "set",
                   "ASK": "list", "COUNT": "count"}
_RESTATED = {"remove": (ir.Remove, ir.RemoveAll), "add": (ir.Add, ir.ForEachAdd),
             "set": (ir.Update, ir.UpdateAll), "count": (ir.Count,),
             "list": (ir.ListChildren, ir.ListNodes, ir.Rank, ir.Top), "any": ir.READS,
             "removed": (ir.Remove, ir.RemoveAll),
             "one": (ir.Top, ir.ListNodes), "nodes": (ir.ListChildren, ir.ListNodes, ir.Top),
             "value": (ir.CapacityOf, ir.Aggregate, ir.Count)}
# "..., which one is it?", "... - what is the total?": a question that only asks again what
# the request already reads (a question that asks something else, such as "how many?" after
# a list, is another request, and the request is refused as it stands)
_RESTATING_QUESTIONS = {
    ("need", "it"): "any", ("i", "need", "it"): "any", ("we", "need", "it"): "any",
    ("need", "that"): "any", ("i", "need", "that"): "any", ("we", "need", "that"): "any",
    ("provide", "the", "count"): "value", ("a", "count", "is", "requested"): "value",
    ("list", "every", "child", "node"): "nodes", ("list", "all", "child", "nodes"): "nodes",
    ("a", "list", "is", "requested"): "nodes", ("a", "complete", "listing", "is", "requested"): "nodes",
    ("a", "listing", "is", "requested"): "nodes",
    # the answer named alone, with what it would be ("A list would be great.", "Just the number
    # is fine.")
    ("a", "list"): "nodes", ("the", "list"): "nodes", ("the", "number"): "value",
    ("the", "count"): "value", ("the", "total"): "value", ("the", "figure"): "value",
    ("just", "the", "number"): "value", ("just", "the", "figure"): "value",
    ("which", "one", "is", "it"): "one", ("which", "is", "it"): "one", ("which", "one"): "one",
    ("which", "ones", "are", "they"): "nodes", ("which", "are", "they"): "nodes",
    ("what", "are", "they"): "nodes", ("which", "ones"): "nodes",
    ("what", "is", "it"): "value", ("what", "is", "that"): "value",
    ("the", "one"): "one", ("give", "me", "the", "one"): "one", ("the", "immediate", "ones"): "nodes",
    ("immediate", "ones"): "nodes", ("the", "direct", "ones"): "nodes",
    ("do", "the", "removal", "first"): "removed", ("go", "ahead", "and", "do", "the", "removal", "first"): "removed",
    ("what", "is", "the", "total"): "value"}
_RESTATING_PRONOUNS = (("its", "capacity"), ("its", "physical", "capacity"), ("their", "capacity"),
                       ("their", "capacities"), ("their", "physical", "capacity"), (), ("it",), ("them",), ("them", "all"), ("all", "of", "them"), ("that",),
                       ("this",), ("so",), ("it", "for", "me"), ("them", "for", "me"), ("all",),
                       ("both",), ("them", "both"), ("both", "of", "them"), ("those",),
                       ("them", "out"), ("them", "out", "for", "me"))
_RESTATING_LEADS = (("would", "you", "mind"), ("mind",), ("would", "you"), ("just",), ("please",), ("pls",), ("plz",), ("kindly",), ("can", "you"), ("could", "you"),
                    ("please", "go", "ahead", "and"), ("go", "ahead", "and"), ("and",),
                    ("then",), ("so", "please"),
                    *((modal, who) for modal in ("can", "could", "would", "will")
                      for who in ("someone", "somebody", "anyone", "anybody")))
_RESTATING_ENDS = (("please",), ("thanks",), ("thank", "you"), ("now",), ("as", "well"),
                   ("would", "be", "great"), ("would", "be", "helpful"), ("is", "fine"),
                   ("is", "enough"),
                   *((*lead, "the", noun) for lead in (("from",), ("out", "of"))
                     for noun in ("graph", "topology", "network")),
                   ("from", "graph"), ("from", "topology"))
_LEADS_LONGEST_FIRST = sorted(_RESTATING_LEADS, key=len, reverse=True)
_SEPARATORS = frozenset({",", ";", ".", ":", "-", "--", "!", "?"})
# Verbs that, said alone, ask for the answer to what was asked, whatever it is.
_ANSWERING = frozenset({"report", "advise", "confirm", "share", "provide", "answer"})


def _restatement(tokens: list[Token]) -> tuple[list[Token], str] | None:
    """The tokens without a last clause that only restates the request ("..., please update
    it"), and the kind of step that clause names; None when there is no such clause."""
    start, end = _last_part(tokens, _SEPARATORS)
    if start == 0:
        return None
    if tokens[start].text in ("and", "then"):
        start += 1  # "..., and then list them"
    words = [t.text for t in tokens[start:end]]
    words = _strip_words(words, _RESTATING_LEADS, front=True)
    words = _strip_words(words, _RESTATING_ENDS, front=False)
    if tuple(words) in _RESTATING_QUESTIONS:
        return tokens[:start - 1] + tokens[end:], _RESTATING_QUESTIONS[tuple(words)]
    wanted = _wanted_again(tokens[start:end]) if start < end \
        and tokens[start].text in _ASKERS else None
    if wanted is not None:
        return tokens[:start - 1] + tokens[end:], wanted
    if not words or tuple(words[1:]) not in _RESTATING_PRONOUNS:
        return None
    verb = _restated_verb(words[0])
    if verb is None:
        return None
    if len(words) == 1 and words[0] in _ANSWERING:  # "Capacity of P? Please report."
        verb = "any"
    return tokens[:start - 1] + tokens[end:], verb


# "... Maria needs the number for the inventory report." (someone's want is said as the
# asker's by then): the answer wanted again, by a pronoun or a noun for what it is, and the
# kind of step that noun names.
_WANTS_AGAIN = (("need",), ("want",), ("would", "like"), ("will", "need"))
_WANTED_AGAIN = {("it",): "any", ("them",): "any", ("this",): "any", ("that",): "any",
                 ("the", "answer"): "any", ("the", "number"): "value", ("the", "count"): "value",
                 ("the", "total"): "value", ("the", "figure"): "value", ("the", "value"): "value",
                 ("the", "list"): "nodes", ("the", "names"): "nodes", ("a", "list"): "nodes"}
# What the occasion a want is for may say: "for the inventory report", "by Friday", "before
# the 2pm call" (words of an occasion and nouns the grammar also reads as verbs).
_OCCASION_CATS = frozenset({"UNK", "HELD", "OF", "IN", "TO", "BY", "GRAPH", "RETURN", "CALL"}
                           ) | P.NOUN_VERBS
_OCCASION_LEADS = frozenset({"for", "by", "before"})
_TIME_OF_DAY = re.compile(r"\d{1,2}(?::\d{2})?(?:am|pm)", re.IGNORECASE)


def _wanted_again(clause: list[Token]) -> str | None:
    """The kind of step a last sentence such as "I need the number for the report" asks
    again (see ``_WANTED_AGAIN``), or None when it says anything else."""
    words = [t.text for t in clause]
    want = next((w for w in _WANTS_AGAIN if tuple(words[1:1 + len(w)]) == w), None)
    if want is None:
        return None
    rest = words[1 + len(want):]
    said = next((o for o in _WANTED_AGAIN if tuple(rest[:len(o)]) == o), None)
    if said is None:
        return None
    tail = [t for t in clause[1 + len(want) + len(said):] if not _TIME_OF_DAY.fullmatch(t.text)]
    if tail and not (tail[0].text in _OCCASION_LEADS and len(tail) > 1 and all(
            t.kind == "WORD" and (t.text not in P.CRITICAL or t.text in _REASON_DATES)
            for t in tail[1:]) and all(x.cats <= _OCCASION_CATS for x in lex(tail[1:]))):
        return None
    return _WANTED_AGAIN[said]


def _restated_verb(word: str) -> str | None:
    """The kind of step a verb that says a request again names ("remove", "list", ...)."""
    return next((_RESTATED_VERBS[c] for c in sorted(P.LEXICON.get(word, frozenset()))
                 if c in _RESTATED_VERBS), None)


def _restated_within(tokens: list[Token]) -> tuple[list[Token], str] | None:
    """"I think we need a new port N in A - could you add it and then count ...": a clause
    that says again, with a pronoun, the change the request already asks for, followed by
    the request's next step. The tokens without that clause, and the kind of step it names
    (see :func:`_restatement`); None when there is none."""
    for i, token in enumerate(tokens[:-3]):
        if token.text not in _SEPARATORS:
            continue
        words = [t.text for t in tokens[i + 1:i + 8]]
        lead = next((len(p) for p in _LEADS_LONGEST_FIRST if tuple(words[:len(p)]) == p), 0)
        at = i + 1 + lead
        if at + 2 >= len(tokens) or tokens[at + 1].text not in ("it", "them"):
            continue
        verb = _restated_verb(tokens[at].text)
        after = tokens[at + 2]
        if verb is None or verb == "list" or after.text not in ("and", ","):
            continue
        rest = tokens[at + 3:]
        if not rest or rest[0].text not in ("then", "afterwards", "after"):
            rest = [_THEN, *rest]
        return [*tokens[:i + 1], *rest], verb
    return None


_CLAUSE_MARKS = frozenset({",", ";", ".", ":", "-", "--", "!", "->"})
_POSS = Token("POSS", "'s")
_PRONOUNS = frozenset({"it", "its", "they", "them", "their", "this", "that", "these", "those",
                       "one", "ones"})
_OTHER_PRONOUNS = _PRONOUNS - {"it", "its", "one"}
_GONE_CATS = frozenset({"REMOVE", "TAKE", "GONE", "REMOVAL", "OUT", "AWAY"})


_REASON_LEADS = frozenset({"fyi", "btw", "so", "okay", "ok", "alright"})
_SUBJECTS_OF_REASON = frozenset({"we", "i", "they", "you", "are", "am", "have", "has", "had",
                                 "were", "was", "is", "be", "been", "being", "will", "would"})
# Words that make a reason a condition, a test or a supposition: the request would then not
# be meant as said (the words that say so of a purpose, and those of a condition).
_NOT_A_REASON = _MANNER | context.REHEARSALS | frozenset({
    "if", "suppose", "supposing", "assume", "assuming", "imagine", "say", "whether"})
# Modals that say what is to be done to a node ("X should be power-cycled, after which its
# ports are listed"), not how it is; only a node's going may be said so ("X should no longer
# be in the graph - delete it").
_MODALS_OF_A_STEP = context.OBLIGING | (P.ASKING_MODALS - {"would", "will"})


# What shapes an answer: an order, an extreme, a set, a depth, a comparison, an amount, a
# measure. A reason that says one ("smallest first, rank ...") is part of the request.
_SHAPES_ANSWER = frozenset({
    "MOST", "LEAST", "FIRST", "TOP", "BOTTOM", "ORDER_ASC", "ORDER_DESC", "DESC", "ALL",
    "EVERYTHING", "EACHW", "FOREACH", "DEEP", "DIRECT", "CHILD", "PARENT", "ANCESTOR", "AMONG",
    "ABOVE", "GE", "GT", "LE", "LT", "EQ", "POST_GE", "POST_LE", "UPTO", "ENDS", "STARTS",
    "NAME_N", "NUMBER", "AVG", "SUM", "ADDUP", "TOTALW", "PER", "PERNODE", "FASTER", "FASTEST",
    "SLOWER", "SLOWEST", "HOWFAST", "CAP", "CAP_SAID", "NEW"})
_REASON_DATES = frozenset({"yesterday", "today", "overnight", "tonight", "earlier"})


def _reason_words(words: list[str], named: bool = True) -> bool | None:
    """Whether words may be a reason's: None when not (a word that may change what is meant,
    a noun a pronoun could stand for, a verb that asks or changes something, a state said of
    no named node: "Broken: remove the ports of S" may pick the broken ones); else whether
    they say a node is gone ("decommissioned", "pulled", "out of service")."""
    gone = False
    for i, word in enumerate(words):
        if named and (word in P.JUSTIFYING_STATES
                      or (word == "no" and words[i + 1:i + 2] == ["longer"])
                      or (word == "not" and words[i + 1:i + 2] in (["needed"], ["required"],
                                                                   ["used"], ["in"]))):
            continue  # "X is no longer needed", "X is not needed anymore"
        pair = f"{word} {words[i + 1]}" if i + 1 < len(words) else ""
        if word in _REASON_DATES or (word in ("last", "this") and i + 1 < len(words)
                                     and words[i + 1] in context.DATE_NOUNS) \
                or (i and words[i - 1] in ("last", "this") and word in context.DATE_NOUNS):
            continue  # "X was decommissioned last week", "X is retired this quarter"
        if word in ("get", "gets", "getting", "got") and "GONE" in P.LEXICON.get(
                words[i + 1] if i + 1 < len(words) else "", frozenset()):
            continue  # "X is getting decommed": a passive, not a read
        if word in _MODALS_OF_A_STEP and not (
                words[i + 1:i + 3] == ["no", "longer"] or "not" in words[i + 1:i + 2]
                or any(P.LEXICON.get(w, frozenset()) & _GONE_CATS for w in words[i + 1:])):
            return None
        if (word in P.HEDGES or pair in P.HEDGES or word in _NOT_A_REASON
                or word in P.KIND_WORDS or word in _NODE_NOUNS or word in _PRONOUNS):
            return None
        cats = P.LEXICON.get(word, frozenset())
        if cats & _GONE_CATS:
            gone = True
        elif cats & _VERB_CATS:
            return None  # "X is added; ...", "X was counted, ...": a step, not a state
    return gone


# What a capacity or "new" may say which occasion of: "capacity planning", "capacity report".
_OCCASION_NOUNS = frozenset({"UNK", "HELD"}) | P.NOUN_VERBS


def _shapes_answer(clause: list[Token]) -> bool:
    """Whether a clause says how an answer is shaped ("smallest first", "low to high", "all
    of them"), read as the lexer reads its phrases: such a clause is part of the request. A
    capacity or "new" said before a word of the clause's own says which occasion ("capacity
    planning", "new here")."""
    lexed = lex(clause)
    for i, lexeme in enumerate(lexed):
        if "UNK" in lexeme.cats and "-" in lexeme.text and any(
                P.LEXICON.get(part, frozenset()) & _SHAPES_ANSWER or part in P.KIND_WORDS
                for part in lexeme.text.split("-")):
            return True  # "capacity-wise", "port-by-port"
        if lexeme.cats & _SHAPES_ANSWER and not (
                lexeme.cats & {"CAP", "NEW"} and i + 1 < len(lexed)
                and lexed[i + 1].cats <= _OCCASION_NOUNS):
            return True
    return False


# Adverbs that say how the asker feels about what they say, never how or whether it is done
# ("Seriously, remove X", "Frankly, ..."): a lone one said first may go as a reason would.
# ("actually", "basically", "really" are fillers, gone before any reason is looked for)
_STANCE = frozenset({"frankly", "honestly", "seriously", "obviously", "clearly", "evidently",
                     "apparently", "unfortunately", "fortunately", "luckily", "sadly",
                     "admittedly", "literally", "essentially", "personally", "naturally",
                     "understandably", "surprisingly", "interestingly", "importantly",
                     "genuinely", "truly"})


def _justified(tokens: list[Token]) -> tuple[list[Token], str | None, bool, list[Token]] | None:
    """A reason said first, then the request: "X is dead, take it out of the graph", "fyi
    we're decommissioning X, so yank it", "I'm filling in an inventory sheet - how many ports
    does A have?". The reason is the first clause (up to a comma, dash, colon or full stop,
    and a "so" after it); it says how one named node is, or what we do to it, and the request
    points back to that node with "it" / "its"; or it names no node and the request needs
    nothing from it. Returns the request (the node said for its pronoun), the node's name
    (None when the reason names none), whether the reason says the node is gone (then
    the request must remove that node first), and the reason. None when the reason says more: a second node,
    a noun a pronoun could stand for ("X has a bad port; remove it"), a number, a verb that
    asks or changes something, or a word that may change what is meant (a negation, a
    condition, a time, a test)."""
    end = next((i for i, t in enumerate(tokens) if t.text in _CLAUSE_MARKS), None)
    if not end or end + 1 >= len(tokens):
        return None
    clause, rest = tokens[:end], tokens[end + 1:]
    if rest[0].text == "so":
        rest = rest[1:]
    while clause and clause[0].text in _REASON_LEADS:
        clause = clause[1:]
    names = [i for i, t in enumerate(clause) if t.kind == "NAME"]
    if any(t.kind not in ("WORD", "NAME") for t in clause) or len(names) > 1 or not clause \
            or _shapes_answer(clause):
        return None  # a number, a kind, a second name, an order
    if len(clause) == 1 and clause[0].text not in P.LEXICON \
            and clause[0].text not in _STANCE and _HELD_FORM.fullmatch(clause[0].text):
        return None  # "Conditionally, remove X", "Optionally, ...": a manner, not a reason
    if not names:
        gone = _reason_words([t.text for t in clause], named=False)
        if gone is None or gone or any(t.text in ("it", "its") for t in rest):
            return None
        return rest, None, False, clause
    at = names[0]
    name, before, after = clause[at], clause[:at], clause[at + 1:]
    words = [t.text for t in before]
    said = " ".join(words)
    kind = max((k for k in P.KIND_WORDS if said == k or said.endswith(f" {k}")), key=len,
               default=None)
    head = words[:len(words) - len(kind.split())] if kind else words
    while head and head[-1] in P.DETERMINERS:
        head.pop()
    if head and not (head[0] in _SUBJECTS_OF_REASON and len(head) <= 4):
        return None  # only "the", a kind, or "we're decommissioning" may come before it
    gone = _reason_words([*head, *(t.text for t in after)])
    if gone is None or (not after and not head):
        return None
    if any(t.kind == "WORD" and t.text in _OTHER_PRONOUNS for t in rest):
        return None  # "them", "that": which?
    kind_words = before[len(before) - len(kind.split()):] if kind else []
    replaced, pointed = _said_for_it(rest, (*kind_words, name), name)
    if not pointed:
        return None  # nothing points back: the first clause is not part of the request
    return replaced, str(name.value), gone, clause


def _said_for_it(tokens: list[Token], it: tuple[Token, ...], name: Token
                 ) -> tuple[list[Token], bool]:
    """``tokens`` with ``it`` said for "it" and the name's possessive for "its", and whether
    there was one to replace."""
    out: list[Token] = []
    pointed = False
    for token in tokens:
        if token.kind == "WORD" and token.text in ("it", "its"):
            out.extend(it if token.text == "it" else (name, _POSS))
            pointed = True
        else:
            out.append(token)
    return out, pointed


def _strip_words(words: list[str], phrases, *, front: bool) -> list[str]:
    for phrase in sorted(phrases, key=len, reverse=True):
        n = len(phrase)
        if front and tuple(words[:n]) == phrase:
            return words[n:]
        if not front and n < len(words) and tuple(words[-n:]) == phrase:
            return words[:-n]
    return words


def _parse_tokens(tokens: list[Token], it_kinds: tuple[str, ...], text: str,
                  done: Parsed | None = None) -> Parsed:
    """``tokens`` read by the grammar; ``done`` is what an earlier part of the request asked
    (one change), which the steps read here follow ("it" is an addition's parent)."""
    steps: list[ir.Step] = list(done.query.steps) if done else []
    promises: list[str] = []
    qualifiers: list[tuple[str, str]] = list(done.qualifiers) if done else []
    focus: str | None = None
    pending_condition = False
    hypothetical = False
    placed: str | None = None  # where an earlier change said it happens ("add N to A")
    unquantified = done is not None and done.unquantified
    if done is not None and isinstance(done.query.steps[0], ir.Add):
        focus = placed = Place(done.query.steps[0].parent)
    placed_now: str | None = None
    for sentence in _sentences(tokens):
        sentence, layout = _format_tail(sentence)
        if layout is not None:
            promises.append(layout)
            if not sentence:
                continue
        analysis = _analyze(_shape_of(sentence))
        if analysis.return_at is not None and any(
                tok.kind in _NAMED or tok.kind == "POSS" or tok.text in _KIND_TEXTS
                for tok in sentence[analysis.return_at:]):
            sentence = _return_as_read(sentence, analysis.return_at, text)
            analysis = _analyze(_shape_of(sentence))
        if analysis.return_at is not None:
            promise = _return_promise(sentence[analysis.return_at:], text)
            if promise is not None:
                promises.append(promise)
        if analysis.dangling is not None:
            words = " ".join(t.text for t in sentence)
            raise IncompleteRequest(
                f"{words!r} ends on {analysis.dangling!r}, which needs something after it",
                expected=P.EXPECTED["any"], text=text)
        if not analysis.lexemes:
            continue
        variant, frames = _materialize(analysis.lexemes, sentence), analysis.frames
        if not frames:
            raise _diagnose(variant, text)
        if analysis.reported:
            raise UnknownRequest("the request says a change was made or may be made, not that "
                                 "it should be: netmend makes changes it is asked for",
                                 expected=P.EXPECTED["any"], text=text)
        if analysis.says_new:
            # "list the new ports of S": which ones are new is not something netmend knows
            raise UnknownRequest("'new' (or 'extra', 'another') here is not about a node being "
                                 "added: it picks nodes out or changes an amount, which netmend "
                                 "does not model",
                                 expected=P.EXPECTED["any"], text=text)
        readings: list[tuple[list[ir.Step], tuple, str | None]] = []
        errors: list[QueryError] = []
        for frame in frames:
            resolver = _Resolve(variant, text, analysis.says_graph, analysis.says_total)
            resolver.placed = placed
            resolver.it_kinds = it_kinds
            resolver.said_kinds = frozenset(qualifiers)
            try:
                found, new_focus = _resolve_sentence(resolver, frame, focus, bool(steps))
            except QueryError as exc:
                errors.append(exc)
                continue
            if analysis.depth is not None and not _goes(found, analysis.depth):
                errors.append(AmbiguousRequest(
                    f"the request says a set goes to the {analysis.depth} of a node, and what "
                    "it asks does not (or not only)", expected="'all ports under <node name>' or "
                    "'the child nodes of <node name>'", text=text))
                continue
            if analysis.each_read and any(isinstance(s, _FOLDS) and not _per_node(s)
                                          for s in found):
                # "the total capacity of each switch": one answer per switch, not one in all
                errors.append(AmbiguousRequest(
                    "'each' asks for one answer per node, and this reading answers one value "
                    "or list for the whole set", expected="'all' for the whole set, or one "
                    "node by name", text=text))
                continue
            reading = (found, tuple(resolver.qualifiers), new_focus)
            if reading not in readings:
                readings.append(reading)
                placed_now = resolver.placed
        if not readings:
            raise errors[0]
        if len({tuple(r[0]) for r in readings}) > 1:
            raise AmbiguousRequest(
                f"{' '.join(x.text for x in variant)!r} can be read in more than one way",
                expected="a more specific request", text=text)
        found, quals, focus = readings[0]
        unquantified = unquantified or _unquantified(found, variant)
        steps += found
        qualifiers += quals
        placed = placed or placed_now
        hypothetical = hypothetical or analysis.says_would
        pending_condition = all(group[2] is None for group in frames[0])
    if pending_condition:
        raise IncompleteRequest("'if ...' or 'after ...' needs a request to do afterwards",
                                expected="'after removing X, list the child nodes of Y'",
                                text=text)
    if hypothetical and not any(isinstance(s, ir.MUTATIONS) for s in steps):
        raise IncompleteRequest("'would' asks what would hold after a change, and the request "
                                "says no change", expected="'how many ports would S have if X "
                                "were removed'", text=text)
    if not steps:
        raise IncompleteRequest("the request asks for nothing to be done",
                                expected="a request such as " + P.EXPECTED["list"], text=text)
    reads = [s for s in steps if isinstance(s, ir.READS)]
    if len(reads) > 1:
        raise AmbiguousRequest("the request asks more than one question",
                               expected="at most one question, as the last step", text=text)
    if reads and not isinstance(steps[-1], ir.READS):
        raise AmbiguousRequest("the request asks a question before its last change",
                               expected="the question as the last step", text=text)
    clash = ir.conflict(tuple(steps))
    if clash is not None:
        raise QueryError(f"the request contradicts itself: {clash}", expected="each node "
                         "changed once, and no step on a node an earlier step removes", text=text)
    try:
        query = ir.Query(tuple(steps))
    except ValueError as exc:
        raise UnknownRequest(str(exc), expected=P.EXPECTED["any"], text=text) from None
    for promise in promises:
        if promise in _LAYOUTS:
            if not isinstance(query.steps[-1], _LAYOUTS[promise]):
                raise AmbiguousRequest(
                    f"the request says its answer is a list of {_LAYOUT_TEXT[promise]}, which "
                    f"is not what it computes", expected="no layout, or one that fits "
                    "(names for a list of nodes, (name, capacity) for a ranking)", text=text)
        elif promise != query.answer_type:
            raise AmbiguousRequest(
                f"the request computes a {query.answer_type} answer but says it returns a {promise}",
                expected=f"'return a {query.answer_type}' or no return clause", text=text)
    return Parsed(query, tuple(dict.fromkeys(qualifiers)), unquantified)


_LAYOUTS = {"names": (ir.ListChildren, ir.ListNodes), "pairs": (ir.Rank, ir.Top)}
_LAYOUT_TEXT = {"names": "names", "pairs": "(name, value) pairs"}


_DEEP_READS = (ir.Count,)  # "count the ports in A": every port below A
_DIRECT_READS = (ir.ListChildren, ir.Rank)  # "the child nodes of A": one level down


def _goes(steps: list[ir.Step], depth: str) -> bool:
    """Whether every set ``steps`` read goes ``depth`` deep (``children`` or ``descendants``),
    and there is at least one."""
    axes = [s.nodes.axis for s in steps if isinstance(getattr(s, "nodes", None), ir.Select)]
    fixed = _DEEP_READS if depth == "descendants" else _DIRECT_READS
    other = _DIRECT_READS if depth == "descendants" else _DEEP_READS
    said = axes + [depth for s in steps if isinstance(s, fixed)]
    return bool(said) and all(axis == depth for axis in said) and not any(
        isinstance(s, other) for s in steps)


def _per_node(step: ir.Step) -> bool:
    """A read that answers each node of a set with its own number (a top-k with no limit)."""
    return isinstance(step, ir.Top) and step.limit is None


def _resolve_sentence(resolver: _Resolve, frame: tuple, focus: str | None,
                      changed: bool = False) -> tuple[list[ir.Step], str | None]:
    steps: list[ir.Step] = []
    for group in frame:
        _, before, clause, *order = group
        topic = None
        resolver.topic = resolver.locus = None
        if order == ["in total"] and not resolver.says_total:
            # "for each switch, how many ports would there be if one were added to it": per
            # switch, or in all? Only "in total" (or "in the graph") says which.
            raise AmbiguousRequest("'for each ...' with one count could ask one count per node "
                                   "or the total", expected="'in total' or 'in the graph'",
                                   text=resolver.text)
        if order == ["after a change"]:
            if not (changed or before or any(not isinstance(s, ir.READS) for s in steps)):
                raise IncompleteRequest(
                    "'then' follows no change", expected="a change first, e.g. 'remove X; how "
                    "many ports are there then?'", text=resolver.text)
        elif order and focus is None:
            # "How many ports does S have after N is added to it?": "it" is S
            antecedent = _first_node(clause)
            focus = None if antecedent is None else resolver.name(antecedent, None)
        for change in before:
            if change[0] == "focus":  # "For agg block A, ...": A is what the rest is about
                said = change[1]
                if said[0] == "locus":  # "Under A, ...": a place, too
                    topic = focus = resolver.locus = Locus(resolver.name(said[1], focus))
                else:
                    topic = focus = Topic(resolver.name(said, focus))
                resolver.topic = topic
                references = resolver.references
                continue
            found, new_focus = resolver.steps(change, focus)
            # a said topic stays what the request is about through a condition on something
            # else ("under A, how many switches would there be if S were removed?")
            focus = focus if isinstance(focus, Topic) and new_focus is None else new_focus
            steps += found
        if clause is None:  # "If X is removed." : what to do then comes next
            continue
        found, new_focus = resolver.steps(clause, focus)
        if topic is not None and resolver.references == references:
            raise AmbiguousRequest(
                f"the request starts with {topic!r} but then never refers to it",
                expected="'its' or no place in the rest, e.g. 'for agg block A, rank its "
                "children by capacity'", text=resolver.text)
        steps += found
        focus = new_focus if new_focus is not None else focus
    return steps, focus


def _first_node(frame: object) -> Frame | None:
    """The first node a frame names (depth first, as written)."""
    if isinstance(frame, tuple):
        if len(frame) == 3 and frame[0] == "node":
            return frame
        for part in frame:
            found = _first_node(part)
            if found is not None:
                return found
    return None


def parse(text: str) -> ir.Query:
    """Parse request text into a :class:`~netmend.malt.ir.Query`; raise :class:`QueryError`.

    >>> parse("Remove ju1.a1.m1.s2c1 from the graph. Return a graph.")
    Query(steps=(Remove(name='ju1.a1.m1.s2c1'),))
    >>> parse("how many ports are in ju1.a1.m1?").steps
    (Count(kind='EK_PORT', container='ju1.a1.m1'),)
    """
    return parse_request(text).query


# ---------------------------------------------------------------- refusals

_VERBS = {"ADD": "add", "REMOVE": "remove", "TAKE": "remove", "SET": "update", "MAKE": "update",
          "GIVE": "add", "ASK": "list", "COUNT": "count", "RANK": "rank", "SUMV": "value",
          "FOREACH": "for_each_add", "WH": "list", "HOWMANY": "count", "HOWMUCH": "value",
          "HOWFAST": "value"}


def _diagnose(lexemes: list[Lexeme], text: str) -> QueryError:
    """Why a sentence has no parse, as the most useful refusal."""
    words = " ".join(x.text for x in lexemes)
    critical = [x.text for x in lexemes if "CRIT" in x.cats]
    if critical:
        return UnknownRequest(
            f"{critical[0]!r} would change what is asked (a negation, exception, restriction, "
            "order or hedge netmend does not model), so the request is refused rather than "
            "read without it", expected=P.EXPECTED["any"], text=text)
    ops = [_VERBS[c] for x in lexemes for c in sorted(x.cats) if c in _VERBS]
    op = ops[0] if ops else None
    if op is None:
        return UnknownRequest(f"{words!r} is not a request netmend knows",
                              expected=P.EXPECTED["any"], text=text)
    held = [x.text for x in lexemes if "HELD" in x.cats]
    if held:
        return UnknownRequest(
            f"{held[0]!r} may change what is asked (a word netmend knows only as part of a "
            "phrase, a shortening, or a negated, ordering or manner word), so the request is "
            "refused rather than read without it", expected=P.EXPECTED[op], text=text)
    unknown = [x.text for x in lexemes if "UNK" in x.cats]
    if unknown:
        return UnknownRequest(f"cannot understand {words!r}: {unknown[0]!r} is not a word "
                              "netmend knows here", expected=P.EXPECTED[op], text=text)
    has = {c for x in lexemes for c in x.cats}
    if op == "rank" and "CAP" not in has and "KIND_PL" not in has:
        return IncompleteRequest(f"{words!r} does not say what to rank by",
                                 expected=P.EXPECTED["rank"], text=text)
    if op == "update" and not has & {"NUM", "RATE"}:
        return IncompleteRequest(f"{words!r} gives no value", expected=P.EXPECTED["update"],
                                 text=text)
    if "NAME" not in has and not (has & {"KIND", "GRAPH"} and op in ("count", "list")):
        return IncompleteRequest(f"{words!r} names no node", expected=P.EXPECTED[op], text=text)
    return UnknownRequest(f"cannot understand {words!r}", expected=P.EXPECTED[op], text=text)
