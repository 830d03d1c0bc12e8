"""Request text -> :class:`~netmend.malt.ir.Query`.

The pipeline, each stage a small pure function:

1. :func:`tokenize`: names (dotted, quoted, with digits or underscores),
   kinds (``EK_PORT``), numbers with units, words, punctuation.
2. sentences split on ``. ; ? !``; clauses split on "then", "and", commas
   before a verb, and "after <verb>ing" (which moves its clause first).
3. :func:`_symbolize`: words become grammar symbols through the tables in
   :mod:`netmend.malt.phrasing` (longest phrase first); fillers are dropped;
   any other word is refused.
4. each clause must match exactly one operation's shapes in
   :data:`~netmend.malt.phrasing.CLAUSES`.

Nothing is guessed: an unknown word, a clause no shape fits, a missing kind,
two conflicting kinds, or a ``Return ...`` promise that contradicts the
request raise a :class:`QueryError` whose ``expected`` says what would work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from netmend.malt import ir
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


@dataclass(frozen=True)
class Token:
    kind: str  # NAME, KIND, NUM, WORD, PUNCT, POSS
    text: str
    value: object = None


_UNIT_ALT = "|".join(sorted((re.escape(u) for u in P.UNITS), key=len, reverse=True))
_TOKEN_RE = re.compile(
    rf"""
    \s*(?:
    (?P<lets>\blet's\b)
  | (?P<contraction>(?<=[A-Za-z])(?:'d|'ll|'re|'ve|'m|n't)\b)
  | (?P<poss>(?<=[\w'"])'s\b)
  | (?P<quoted>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`|‘[^’]*’|“[^”]*”)
  | (?P<num>[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:\s*(?:{_UNIT_ALT}))?(?!\w|\.\w))
  | (?P<word>[A-Za-z0-9_\-/]+(?:\.[A-Za-z0-9_\-/]+)*)
  | (?P<punct>[.,;:?!])
  | (?P<bad>\S)
    )""",
    re.VERBOSE | re.IGNORECASE,
)
_ANY_REQUEST = ("an add, remove, list, rank, count, update or for-each request, e.g. "
                + P.EXPECTED["list"])
_KIND_RE = re.compile(r"EK_[A-Z_]+")
_NAME_MARK = re.compile(r"[0-9._]")
_NEW_NAME_KIND = re.compile(r"new_(EK_[A-Z_]+?)_\d+$")


def _unquote(raw: str) -> str:
    body = raw[1:-1]
    if raw[0] in "'\"":
        body = re.sub(r"\\(.)", r"\1", body)
    return body


def _number(text: str) -> int | float:
    match = re.match(r"([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(.*)$", text)
    assert match is not None
    number_text, unit = match.groups()
    value = float(number_text) if any(c in number_text for c in ".eE") else int(number_text)
    if unit:
        value = value * P.UNITS[unit.lower()]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value


def tokenize(text: str) -> list[Token]:
    """Split request text into tokens; refuse characters that cannot be part of a request."""
    tokens: list[Token] = []
    # One C-level scan; every non-space character matches some group ("bad" at worst),
    # so nothing is skipped silently.
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        raw = m.group(kind)
        if kind == "bad":
            raise UnknownRequest(
                f"unexpected character {raw!r} at position {m.start(kind)}",
                expected="words, node names, numbers and punctuation",
                text=text,
            )
        if kind == "lets":
            tokens += [Token("WORD", "let"), Token("WORD", "us")]
        elif kind == "contraction":
            tokens.append(Token("WORD", P.CONTRACTIONS[raw.lower()]))
        elif kind == "poss":
            tokens.append(Token("POSS", raw))
        elif kind == "quoted":
            name = _unquote(raw)
            if not name:
                raise IncompleteRequest("an empty quoted name", expected="a node name", text=text)
            tokens.append(Token("NAME", raw, name))
        elif kind == "num":
            tokens.append(Token("NUM", raw, _number(raw)))
        elif kind == "punct":
            tokens.append(Token("PUNCT", raw))
        else:
            tokens.append(_classify_word(raw))
    return tokens


@lru_cache(maxsize=8192)  # pure, and most words recur from request to request
def _classify_word(raw: str) -> Token:
    if raw.startswith("EK_") and _KIND_RE.fullmatch(raw):
        if raw not in K.ENTITY_KINDS:
            raise UnknownRequest(
                f"unknown entity kind {raw!r}", expected="one of " + ", ".join(K.ENTITY_KINDS)
            )
        return Token("KIND", raw, raw)
    lower = raw.lower()
    if lower in _VOCABULARY:
        return Token("WORD", lower)
    if _NAME_MARK.search(raw):
        return Token("NAME", raw, raw)
    return Token("WORD", lower)


# ---------------------------------------------------------------- symbols

_PHRASE_SYMBOLS: dict[tuple[str, ...], tuple[str, object]] = {}
for _text, _symbol in P.PHRASES.items():
    _PHRASE_SYMBOLS[tuple(_text.split())] = (_symbol, None)
for _text, _kind in P.KIND_WORDS.items():
    _PHRASE_SYMBOLS[tuple(_text.split())] = ("KIND", _kind)
# first word -> the lengths of the phrases starting with it, longest first
_PHRASE_LENGTHS: dict[str, tuple[int, ...]] = {}
for _words in _PHRASE_SYMBOLS:
    _PHRASE_LENGTHS[_words[0]] = tuple(
        sorted({len(_words), *_PHRASE_LENGTHS.get(_words[0], ())}, reverse=True))
_VOCABULARY = frozenset(word for words in _PHRASE_SYMBOLS for word in words) | P.FILLERS


@dataclass(frozen=True)
class Symbol:
    name: str
    value: object = None
    text: str = ""


def _symbolize(tokens: list[Token], source: str) -> list[Symbol]:
    """Tokens of one sentence -> grammar symbols (phrases matched longest first, fillers dropped)."""
    out: list[Symbol] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.kind in ("NAME", "NUM", "KIND", "POSS"):
            out.append(Symbol(tok.kind, tok.value, tok.text))
            i += 1
            continue
        if tok.kind == "PUNCT":
            if tok.text == ",":
                out.append(Symbol("COMMA", None, ","))
            i += 1
            continue
        for length in _PHRASE_LENGTHS.get(tok.text, ()):
            window = tokens[i : i + length]
            if len(window) < length or any(t.kind != "WORD" for t in window):
                continue
            key = tuple(t.text for t in window)
            if key in _PHRASE_SYMBOLS:
                name, value = _PHRASE_SYMBOLS[key]
                if name == "RETURN":
                    # "Return ..." promises an answer shape in free words: keep them as text.
                    words = " ".join(t.text.lower() for t in tokens[i:])
                    out.append(Symbol("RETURN", None, words))
                    return out
                out.append(Symbol(name, value, " ".join(key)))
                i += length
                break
        else:
            if tok.text in P.FILLERS:
                i += 1
                continue
            if tok.text in P.GERUNDS:
                out.append(Symbol(P.PHRASES[P.GERUNDS[tok.text]], None, tok.text))
                i += 1
                continue
            raise UnknownRequest(f"unknown word {tok.text!r}", expected=_ANY_REQUEST, text=source)
    return out


# ---------------------------------------------------------------- clause shapes


@dataclass(frozen=True)
class _Sym:
    name: str
    slot: str | None


@dataclass(frozen=True)
class _Opt:
    body: tuple


@dataclass(frozen=True)
class _Alt:
    options: tuple[tuple, ...]


def _parse_shape(shape: str) -> tuple:
    tokens = re.findall(r"\[|\]|\(|\)|\||[A-Z_]+(?::[a-z_0-9]+)?", shape)
    pos = 0

    def sequence(stop: set[str]) -> tuple:
        nonlocal pos
        items: list = []
        while pos < len(tokens) and tokens[pos] not in stop:
            tok = tokens[pos]
            pos += 1
            if tok == "[":
                items.append(_Opt(sequence({"]"})))
                pos += 1
            elif tok == "(":
                options = [sequence({"|", ")"})]
                while tokens[pos] == "|":
                    pos += 1
                    options.append(sequence({"|", ")"}))
                pos += 1
                items.append(_Alt(tuple(options)))
            else:
                name, _, slot = tok.partition(":")
                items.append(_Sym(name, slot or None))
        return tuple(items)

    result = sequence(set())
    return result


@cache
def _shapes() -> dict[str, tuple[tuple, ...]]:
    return {op: tuple(_parse_shape(s) for s in shapes) for op, shapes in P.CLAUSES.items()}


def _match(items: tuple, symbols: list[Symbol], pos: int, bound: dict) -> list[tuple[int, dict]]:
    """All ways ``items`` can match ``symbols`` from ``pos``: (end position, bindings)."""
    if not items:
        return [(pos, bound)]
    head, rest = items[0], items[1:]
    results: list[tuple[int, dict]] = []
    if isinstance(head, _Sym):
        if pos < len(symbols) and symbols[pos].name == head.name:
            new = bound
            if head.slot:
                new = {**bound, head.slot: symbols[pos]}
            results += _match(rest, symbols, pos + 1, new)
    elif isinstance(head, _Opt):
        for end, new in _match(head.body, symbols, pos, bound):
            results += _match(rest, symbols, end, new)
        results += _match(rest, symbols, pos, bound)
    else:
        for option in head.options:
            for end, new in _match(option, symbols, pos, bound):
                results += _match(rest, symbols, end, new)
    return results


@cache
def _first_symbols() -> dict[str, frozenset[str]]:
    """For each operation, the symbols its shapes can start with (to try only the plausible ones)."""

    def starts(items: tuple) -> set[str]:
        if not items:
            return set()
        head = items[0]
        if isinstance(head, _Sym):
            return {head.name}
        if isinstance(head, _Opt):
            return starts(head.body) | starts(items[1:])
        return set().union(*(starts(option + items[1:]) for option in head.options))

    return {op: frozenset().union(*(starts(shape) for shape in shapes))
            for op, shapes in _shapes().items()}


def _ops_for(clause: list[Symbol]) -> list[str]:
    first = clause[0].name if clause else None
    return [op for op, heads in _first_symbols().items() if first in heads]


def _full_matches(op: str, symbols: list[Symbol]) -> list[dict]:
    found: list[dict] = []
    for shape in _shapes()[op]:
        for end, bound in _match(shape, symbols, 0, {}):
            if end == len(symbols):
                values = {k: v.value for k, v in bound.items()}
                if values not in found:
                    found.append(values)
    return found


# ---------------------------------------------------------------- clauses and sentences


def _sentences(tokens: list[Token]) -> list[list[Token]]:
    sentences: list[list[Token]] = [[]]
    for tok in tokens:
        if tok.kind == "PUNCT" and tok.text in ".;?!:":
            if sentences[-1]:
                sentences.append([])
        else:
            sentences[-1].append(tok)
    return [s for s in sentences if s]


_PREFIX_WORDS = tuple(tuple(p.split()) for p in P.PREFIXES)
_SUFFIX_WORDS = tuple(tuple(p.split()) for p in P.SUFFIXES)


_PREFIX_STARTS = frozenset(parts[0] for parts in _PREFIX_WORDS)
_SUFFIX_ENDS = frozenset(parts[-1] for parts in _SUFFIX_WORDS) | {","}


def _strip_politeness(sentence: list[Token]) -> list[Token]:
    """Drop politeness and framing ("could you please", "thanks") from a sentence's ends."""
    if (sentence[0].text.lower() not in _PREFIX_STARTS
            and sentence[-1].text.lower() not in _SUFFIX_ENDS):
        return sentence  # the common case: nothing to strip
    words = sentence
    changed = True
    while changed and words:
        changed = False
        lowered = tuple(t.text.lower() if t.kind == "WORD" else None for t in words)
        for parts in _PREFIX_WORDS:
            if lowered[: len(parts)] == parts and len(words) > len(parts):
                words, lowered, changed = words[len(parts):], lowered[len(parts):], True
                break
        while words and words[-1].kind == "PUNCT" and words[-1].text == ",":
            words, lowered, changed = words[:-1], lowered[:-1], True
        for parts in _SUFFIX_WORDS:
            if len(words) > len(parts) and lowered[-len(parts):] == parts:
                words, changed = words[: -len(parts)], True
                break
    return words


def _clauses(symbols: list[Symbol]) -> list[list[Symbol]]:
    """Split one sentence's symbols into clauses in execution order."""
    # "after <verb>ing X": the after-part runs first.
    if symbols and symbols[0].name == "AFTER":
        rest = symbols[1:]
        for i in range(1, len(rest)):
            if rest[i].name in P.VERBS and rest[i - 1].name in ("COMMA", "THEN", "NAME", "NUM"):
                return _clauses(rest[:i]) + _clauses(rest[i:])
        raise IncompleteRequest("'after ...' needs a request to do afterwards",
                                expected="'after removing X, list the child nodes of Y'")
    for i, sym in enumerate(symbols):
        if sym.name == "AFTER" and i + 1 < len(symbols) and symbols[i + 1].name in P.VERBS:
            return _clauses(symbols[i + 1 :]) + _clauses(symbols[:i])
    clauses: list[list[Symbol]] = [[]]
    for i, sym in enumerate(symbols):
        following = symbols[i + 1].name if i + 1 < len(symbols) else None
        current = clauses[-1]
        # "for each X," opens a clause that its "add" completes.
        has_verb = any(s.name in P.VERBS and s.name != "FOREACH" for s in current)
        if sym.name in ("THEN", "COMMA") and following in P.VERBS and has_verb:
            clauses.append([])
            continue
        if (sym.name in ("THEN", "COMMA") and following == "NAME" and current
                and current[0].name == "REMOVE" and current[-1].name == "NAME"):
            # "remove A, B and C": one removal per name.
            clauses.append([current[0]])
            continue
        if sym.name in P.VERBS and has_verb:
            clauses.append([sym])
            continue
        current.append(sym)
    return [[s for s in c if s.name not in ("COMMA", "THEN")] for c in clauses if c]


def _return_promise(clause: list[Symbol]) -> str | None:
    promised = set()
    for sym in clause:
        for word in str(sym.text).lower().split():
            if word in P.RETURN_WORDS:
                promised.add(P.RETURN_WORDS[word])
    for answer in ("graph", "list", "text"):
        if answer in promised:
            return answer
    return None


def _step(op: str, b: dict, clause_text: str) -> ir.Step:
    if op == "add":
        kinds = {k for k in (b.get("kind"), b.get("kind2")) if k}
        named = _NEW_NAME_KIND.match(b["name"])
        if named and named.group(1) in K.ENTITY_KINDS and not kinds:
            kinds = {named.group(1)}
        if len(kinds) > 1:
            raise AmbiguousRequest(f"the new node is given two kinds ({', '.join(sorted(kinds))})",
                                   expected="one kind for the new node", text=clause_text)
        if not kinds:
            raise IncompleteRequest(f"the kind of new node {b['name']!r} is not given",
                                    expected=P.EXPECTED["add"], text=clause_text)
        return ir.Add(b["name"], kinds.pop(), b["parent"])
    if op == "remove":
        return ir.Remove(b["name"])
    if op == "list":
        return ir.ListChildren(b["parent"])
    if op == "rank":
        return ir.Rank(b["parent"])
    if op == "count":
        return ir.Count(b["kind"], b.get("container"))
    if op == "update":
        return ir.Update(b["name"], b["value"])
    if op == "for_each_add":
        if not b.get("kind"):
            raise IncompleteRequest("the kind of node to add to each one is not given",
                                    expected=P.EXPECTED["for_each_add"], text=clause_text)
        return ir.ForEachAdd(b["parent_kind"], b["kind"])
    raise AssertionError(op)


@dataclass(frozen=True)
class Parsed:
    """A parsed request: the query, plus the kind qualifiers the text attached to names."""

    query: ir.Query
    qualifiers: tuple[tuple[str, str], ...]  # (name, kind the text says it is)


def parse_request(text: str) -> Parsed:
    """Parse request text into a :class:`Parsed` (query + kind qualifiers); raise :class:`QueryError`."""
    if not isinstance(text, str) or not text.strip():
        raise IncompleteRequest("the request is empty", expected="a request such as "
                                + P.EXPECTED["remove"])
    tokens = tokenize(text)
    steps: list[ir.Step] = []
    promises: list[str] = []
    qualifiers: list[tuple[str, str]] = []
    for sentence in _sentences(tokens):
        sentence = _strip_politeness(sentence)
        symbols = _symbolize(sentence, text)
        for clause in _clauses(symbols):
            clause_text = " ".join(str(s.text) for s in clause)
            if clause and clause[0].name == "RETURN":
                promise = _return_promise(clause)
                if promise is None:
                    raise UnknownRequest(f"cannot tell what {clause_text!r} should return",
                                         expected="'return a graph', 'return a list' or "
                                         "'return the count'", text=text)
                promises.append(promise)
                continue
            candidates = {op: _full_matches(op, clause) for op in _ops_for(clause)}
            matched = {op: found for op, found in candidates.items() if found}
            if not matched:
                raise _no_match(clause, clause_text, text)
            if len(matched) > 1 or len(next(iter(matched.values()))) > 1:
                raise AmbiguousRequest(f"{clause_text!r} can be read in more than one way",
                                       expected="a more specific request", text=text)
            op, (binding,) = next(iter(matched.items()))
            steps.append(_step(op, binding, clause_text))
            for name_slot, kind_slot in (("parent", "parent_kind"), ("container", "container_kind"),
                                         ("name", "kind")):
                if op == "add" and name_slot == "name":
                    continue  # the kind of the NEW node, not a claim about an existing one
                if binding.get(name_slot) and binding.get(kind_slot):
                    qualifiers.append((binding[name_slot], binding[kind_slot]))
    if not steps:
        raise IncompleteRequest("the request asks for nothing to be done",
                                expected="a request such as " + P.EXPECTED["list"], text=text)
    reads = [s for s in steps if isinstance(s, ir.READS)]
    if len(reads) > 1:
        raise AmbiguousRequest("the request asks more than one question",
                               expected="at most one count, list or rank, as the last step",
                               text=text)
    if reads and not isinstance(steps[-1], ir.READS):
        raise AmbiguousRequest("the request asks a question before its last change",
                               expected="the count, list or rank as the last step", text=text)
    query = ir.Query(tuple(steps))
    for promise in promises:
        if promise != query.answer_type:
            raise AmbiguousRequest(
                f"the request computes a {query.answer_type} answer but says it returns a {promise}",
                expected=f"'return a {query.answer_type}' or no return clause", text=text)
    return Parsed(query, tuple(qualifiers))


def parse(text: str) -> ir.Query:
    """Parse request text into a :class:`~netmend.malt.ir.Query`; raise :class:`QueryError`.

    >>> parse("Remove ju1.a1.m1.s2c1 from the graph. Return a graph.")
    Query(steps=(Remove(name='ju1.a1.m1.s2c1'),))
    >>> parse("how many ports are in ju1.a1.m1?").steps
    (Count(kind='EK_PORT', container='ju1.a1.m1'),)
    """
    return parse_request(text).query


def _no_match(clause: list[Symbol], clause_text: str, text: str) -> QueryError:
    verbs = {"ADD": "add", "REMOVE": "remove", "LIST": "list", "COUNT": "count", "RANK": "rank",
             "UPDATE": "update", "FOREACH": "for_each_add"}
    op = verbs.get(clause[0].name) if clause else None
    if op == "add" and any(s.name == "TOEACH" for s in clause):
        op = "for_each_add"
    if op is None:
        return UnknownRequest(f"{clause_text!r} is not a request netmend knows",
                              expected=_ANY_REQUEST, text=text)
    if op in ("rank",) and not any(s.name == "CAPACITY" for s in clause):
        return IncompleteRequest(f"{clause_text!r} does not say what to rank by",
                                 expected=P.EXPECTED["rank"], text=text)
    if not any(s.name == "NAME" for s in clause) and op not in ("count", "for_each_add"):
        return IncompleteRequest(f"{clause_text!r} names no node", expected=P.EXPECTED[op],
                                 text=text)
    return UnknownRequest(f"cannot understand {clause_text!r}", expected=P.EXPECTED[op], text=text)
