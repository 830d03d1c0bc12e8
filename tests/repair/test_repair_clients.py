"""The task-text client extractor on a corpus of independent wordings.

Every sentence of ``data/client_sentences.yaml`` is scored: a client bound to
what a careful reader binds is *right*, one left unmodelled is *refused*
(allowed: a repair then holds what any outside address reaches), anything
else is *wrong*. Wrong bindings must be zero on both parts; the tuning part
must also be read fully. The held-back part's accuracy is printed by
``python -m tests.repair.test_repair_clients`` and only bounded below here.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest
import yaml

from netmend.repair.clients import Client, extract_clients

CORPUS = yaml.safe_load((Path(__file__).parent / "data" / "client_sentences.yaml").read_text(encoding="utf-8"))
TUNING = [s for s in CORPUS["sentences"] if s.get("part", "tuning") == "tuning"]
HELD_BACK = [s for s in CORPUS["sentences"] if s.get("part") == "held-back"]


def _spec(text: str) -> tuple[frozenset, frozenset]:
    nets, _, holes = str(text).partition(" except ")
    def norm(part: str) -> frozenset:
        return frozenset(str(ipaddress.ip_network(p.strip(), strict=False)) for p in part.split(",") if p.strip())
    return norm(nets), norm(holes)


def _of(client: Client) -> tuple[frozenset, frozenset]:
    return frozenset(client.networks), frozenset(client.excepts)


def score(entry: dict) -> dict[str, list[str]]:
    """``{"right": [...], "refused": [...], "wrong": [...]}`` of one sentence."""
    found = extract_clients(entry["text"], CORPUS["exclude"])
    want = {str(k): _spec(v) for k, v in (entry.get("want") or {}).items()}
    out: dict[str, list[str]] = {"right": [], "refused": [], "wrong": []}
    for client in found.found:
        if client.name in want and _of(client) == want[client.name]:
            out["right"].append(client.name)
        else:
            out["wrong"].append(f"{client.name} -> {client.networks} except {client.excepts}")
    for name in want:
        if found.client(name) is None:
            out["refused"].append(name)
    unmodelled = {n for n, _ in found.unmodelled}
    for name in entry.get("refuse") or []:
        if name in unmodelled:
            out["right"].append(name)
        elif found.client(str(name)) is None:
            out["wrong"].append(f"{name}: neither bound nor reported unmodelled")
    return out


def totals(entries) -> dict[str, int]:
    sums = {"right": 0, "refused": 0, "wrong": 0}
    for entry in entries:
        for key, names in score(entry).items():
            sums[key] += len(names)
    return sums


@pytest.mark.parametrize("entry", TUNING, ids=[e["text"][:50] for e in TUNING])
def test_tuning_sentences_are_read_exactly(entry):
    got = score(entry)
    assert not got["wrong"] and not got["refused"], got


@pytest.mark.parametrize("entry", HELD_BACK, ids=[e["text"][:50] for e in HELD_BACK])
def test_held_back_sentences_never_bind_wrongly(entry):
    assert not score(entry)["wrong"], score(entry)


def test_held_back_accuracy_is_reported_and_bounded():
    sums = totals(HELD_BACK)
    assert sums["wrong"] == 0
    assert sums["right"] / sum(sums.values()) >= 0.6, sums


def test_the_corpus_is_split_and_large_enough():
    assert len(TUNING) >= 30 and len(HELD_BACK) >= 30


def test_a_cidr_a_workload_accepts_is_intent_not_a_client():
    found = extract_clients("The portal accepts 192.0.2.0/24 except 192.0.2.192/26.", ["portal"])
    assert found.found == () and found.intent == ("192.0.2.0/24",)
    assert set(found.networks) == {"192.0.2.0/24", "192.0.2.192/26"}


def test_a_probe_source_written_plainly_is_a_name():
    text = "The partner at 203.0.113.7 calls in; the auditor has no fixed address."
    found = extract_clients(text, sources=["partner", "auditor"])
    assert found.as_dict() == {"partner": "203.0.113.7"}
    assert [n for n, _ in found.unmodelled] == ["auditor"]


def test_a_name_given_two_addresses_is_refused():
    found = extract_clients("`x` (192.0.2.1) calls in. Later `x` (192.0.2.2) calls again.")
    assert found.found == () and found.unmodelled[0][0] == "x"


if __name__ == "__main__":
    for part, entries in (("tuning", TUNING), ("held-back", HELD_BACK)):
        sums = totals(entries)
        print(part, len(entries), "sentences", sums, f"accuracy {sums['right'] / max(1, sum(sums.values())):.0%}")
