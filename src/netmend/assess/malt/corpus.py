"""Paraphrase corpora: does a freely phrased request get the same answer as its plain phrasing?

A corpus pairs paraphrases with a canonical (plain) phrasing of the same
request, and lists negatives that must be refused. Each paraphrase is judged
against its canonical on a topology:

* ``same``: both are understood and give the same answer: equal ``data``
  (lists in the same order), the same requested change and the same
  committed change;
* ``refused``: the paraphrase is refused (a safe outcome, but a miss);
* ``wrong``: the paraphrase is understood but answers differently (never acceptable);
* ``bad-canonical``: the canonical itself is refused, so the pair says nothing.

Accepted file shapes (YAML), so corpora written elsewhere load as they are:

* a mapping with ``groups`` (each ``{canonical, paraphrases: [...]}``), and/or
  ``pairs`` (each ``{paraphrase, canonical}``), and ``negatives`` (strings, or
  mappings with ``text``);
* a list mixing such groups, pairs (``{paraphrase, canonical}``, also spelled
  ``{text, same_as}`` or ``{request, canonical}``) and negatives
  (``{negative: text}`` or ``{text, refuse: true}``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from netmend.malt.parser import QueryError, parse_request
from netmend.malt.planner import Plan, diff, plan
from netmend.malt.validate import validate


class CorpusError(ValueError):
    """A corpus file that cannot be read; the message says what was expected."""


@dataclass(frozen=True)
class Pair:
    paraphrase: str
    canonical: str


@dataclass(frozen=True)
class Corpus:
    pairs: tuple[Pair, ...]
    negatives: tuple[str, ...]


_PARAPHRASE_KEYS = ("paraphrase", "text", "request", "say", "variant")
_CANONICAL_KEYS = ("canonical", "same_as", "plain", "reference")


def _first(item: dict, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in item:
            return item[key]
    return None


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CorpusError(f"{where}: expected a non-empty string, got {value!r}")
    return value


def _items(entries: Iterable[Any], where: str, pairs: list[Pair], negatives: list[str]) -> None:
    for index, item in enumerate(entries):
        at = f"{where}[{index}]"
        if isinstance(item, str):
            if not where.endswith("negatives"):
                raise CorpusError(f"{at}: a bare string is only allowed under 'negatives'")
            negatives.append(item)
            continue
        if not isinstance(item, dict):
            raise CorpusError(f"{at}: expected a mapping, got {type(item).__name__}")
        if where.endswith("negatives") or "negative" in item or item.get("refuse") is True:
            value = item.get("negative", item.get("text"))
            negatives.append(_text(value, at))
            continue
        canonical = _first(item, _CANONICAL_KEYS)
        if "paraphrases" in item:
            group = item["paraphrases"]
            if not isinstance(group, list):
                raise CorpusError(f"{at}.paraphrases: expected a list")
            for j, text in enumerate(group):
                pairs.append(Pair(_text(text, f"{at}.paraphrases[{j}]"), _text(canonical, at)))
            continue
        paraphrase = _first(item, _PARAPHRASE_KEYS)
        if paraphrase is None or canonical is None:
            raise CorpusError(f"{at}: expected a paraphrase and a canonical phrasing "
                              f"(keys {_PARAPHRASE_KEYS[0]!r} and {_CANONICAL_KEYS[0]!r})")
        pairs.append(Pair(_text(paraphrase, at), _text(canonical, at)))


def load_corpus(text: str) -> Corpus:
    """Read a corpus from YAML text (see the module docstring for the shapes)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CorpusError(f"not valid YAML: {exc}") from None
    pairs: list[Pair] = []
    negatives: list[str] = []
    if isinstance(data, dict):
        unknown = set(data) - {"groups", "pairs", "negatives"}
        if unknown:
            raise CorpusError(f"unknown top-level key(s) {sorted(unknown)}; expected 'groups', "
                              "'pairs' and 'negatives'")
        for key in ("groups", "pairs", "negatives"):
            entries = data.get(key) or []
            if not isinstance(entries, list):
                raise CorpusError(f"{key}: expected a list")
            _items(entries, key, pairs, negatives)
    elif isinstance(data, list):
        _items(data, "corpus", pairs, negatives)
    else:
        raise CorpusError("expected a mapping (groups / pairs / negatives) or a list")
    return Corpus(tuple(pairs), tuple(negatives))


@dataclass(frozen=True)
class Outcome:
    """One judged entry: its verdict and, for misses, why."""

    text: str
    canonical: str | None
    verdict: str  # same, refused, wrong, bad-canonical; for negatives: refused, accepted
    detail: str = ""


@dataclass
class CorpusReport:
    pairs: list[Outcome] = field(default_factory=list)
    negatives: list[Outcome] = field(default_factory=list)

    def counts(self) -> dict[str, Any]:
        pair_counts = Counter(o.verdict for o in self.pairs)
        negative_counts = Counter(o.verdict for o in self.negatives)
        judged = sum(pair_counts[v] for v in ("same", "refused", "wrong"))
        return {
            "paraphrases": len(self.pairs),
            "same": pair_counts["same"],
            "refused": pair_counts["refused"],
            "wrong": pair_counts["wrong"],
            "bad_canonical": pair_counts["bad-canonical"],
            "same_rate": pair_counts["same"] / judged if judged else 1.0,
            "negatives": len(self.negatives),
            "negatives_refused": negative_counts["refused"],
            "negatives_accepted": negative_counts["accepted"],
        }

    @property
    def ok(self) -> bool:
        counts = self.counts()
        return not counts["wrong"] and not counts["negatives_accepted"]


def _answer(text: str, graph: Any) -> tuple[Plan | None, str]:
    try:
        parsed = parse_request(text)
        validate(parsed, graph)
    except QueryError as exc:
        return None, f"{exc.code}: {exc}"
    return plan(parsed.query, graph), ""


def _signature(p: Plan, graph: Any) -> tuple:
    data = p.data if p.answer_type != "graph" else None
    return (p.answer_type, repr(data), diff(graph, p.requested_graph), p.change)


def evaluate(corpus: Corpus, graph: Any) -> CorpusReport:
    """Judge every pair and negative of ``corpus`` on ``graph`` (left unchanged)."""
    report = CorpusReport()
    canonical_cache: dict[str, tuple[Plan | None, str]] = {}
    for pair in corpus.pairs:
        if pair.canonical not in canonical_cache:
            canonical_cache[pair.canonical] = _answer(pair.canonical, graph)
        expected, why = canonical_cache[pair.canonical]
        if expected is None:
            report.pairs.append(Outcome(pair.paraphrase, pair.canonical, "bad-canonical", why))
            continue
        got, problem = _answer(pair.paraphrase, graph)
        if got is None:
            report.pairs.append(Outcome(pair.paraphrase, pair.canonical, "refused", problem))
        elif _signature(got, graph) == _signature(expected, graph):
            report.pairs.append(Outcome(pair.paraphrase, pair.canonical, "same"))
        else:
            detail = f"understood as {got.query.steps}, the canonical as {expected.query.steps}"
            report.pairs.append(Outcome(pair.paraphrase, pair.canonical, "wrong", detail))
    for text in corpus.negatives:
        got, problem = _answer(text, graph)
        if got is None:
            report.negatives.append(Outcome(text, None, "refused", problem))
        else:
            report.negatives.append(Outcome(text, None, "accepted", f"understood as "
                                            f"{got.query.steps}"))
    return report


def render(report: CorpusReport, *, show: int = 50) -> str:
    """A short human report: the counts, then the misses."""
    c = report.counts()
    lines = [
        f"paraphrases {c['paraphrases']}: same {c['same']}, refused {c['refused']}, "
        f"wrong {c['wrong']}, bad canonical {c['bad_canonical']}; "
        f"same answer {c['same_rate']:.1%} of those judged",
        f"negatives {c['negatives']}: refused {c['negatives_refused']}, "
        f"accepted {c['negatives_accepted']}",
    ]
    misses = [o for o in report.pairs if o.verdict != "same"] + [
        o for o in report.negatives if o.verdict != "refused"]
    order = {"wrong": 0, "accepted": 1, "bad-canonical": 2, "refused": 3}
    misses.sort(key=lambda o: order[o.verdict])
    for outcome in misses[:show]:
        against = f" (canonical: {outcome.canonical})" if outcome.canonical else ""
        lines.append(f"  [{outcome.verdict}] {outcome.text}{against}")
        if outcome.detail:
            lines.append(f"      {outcome.detail[:300]}")
    if len(misses) > show:
        lines.append(f"  ... and {len(misses) - show} more")
    return "\n".join(lines)
