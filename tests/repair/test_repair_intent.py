"""Intent documents and intents from feedback."""

from __future__ import annotations

import pytest

from netmend.k8s import Matrix, Mismatch
from netmend.repair.errors import IntentError, ModelContradiction
from netmend.repair.intent import (
    intent_from_feedback,
    intent_from_stated,
    parse_intent,
    with_probes,
)

CURRENT = Matrix.from_dict({"web": {"db:5432": False, "cache:6379": True}, "job": {"db:5432": True}})


@pytest.mark.parametrize(
    "doc",
    [
        {"web": {"db:5432": True}},
        {"allow": ["web -> db:5432"]},
        {"allow": ["web \u2192 db:5432"], "deny": []},
        [{"source": "web", "target": "db:5432", "allowed": True}],
    ],
)
def test_every_document_shape_states_the_same_probe(doc):
    assert parse_intent(doc).to_dict() == {"web": {"db:5432": True}}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"allow": ["web db:5432"]}, "expected 'source -> service:port'"),
        ({"web": {"db:5432": "yes"}}, "true/false"),
        ({"web": ["db:5432"]}, "expected a mapping"),
        ([{"source": "web"}], "true/false"),
        ("web -> db", "expected a mapping or a list"),
        ({"web": {"db": True}}, "service"),
        ({}, "states no probe"),
    ],
)
def test_bad_documents_say_what_was_expected(doc, message):
    with pytest.raises(IntentError, match=message):
        parse_intent(doc, "intent.yaml")


def test_feedback_flips_reported_probes_and_keeps_the_rest():
    intent = intent_from_feedback(CURRENT, [Mismatch("web", "db:5432", True, False)])
    assert intent.desired.to_dict() == {"web": {"db:5432": True, "cache:6379": True}, "job": {"db:5432": True}}
    assert intent.stated == {("web", "db:5432")}
    assert intent.changes(CURRENT) == (Mismatch("web", "db:5432", True, False),)


def test_an_observation_the_model_contradicts_is_refused():
    with pytest.raises(ModelContradiction, match="observed False, model says True") as info:
        intent_from_feedback(CURRENT, [Mismatch("web", "cache:6379", True, False)])
    assert info.value.contradictions == (("web", "cache:6379", False, True),)


def test_unknown_probes_are_refused():
    with pytest.raises(IntentError, match="not in the probe set"):
        intent_from_feedback(CURRENT, [Mismatch("web", "mail:25", True, False)])
    with pytest.raises(IntentError, match="not in the probe set"):
        intent_from_stated(CURRENT, Matrix.from_dict({"job": {"cache:6379": False}}))
    extended = with_probes(CURRENT.probes(), [("job", "cache:6379"), ("new", "db:5432")])
    assert extended[-1] == ("new", ("db:5432",)) and "cache:6379" in extended[1][1]


@pytest.mark.parametrize(
    ("data", "first", "second"),
    [
        ({"allow": ["web -> db:5432"], "deny": ["cache -> db:5432", "web  ->  db:5432"]}, "allow[0]", "deny[1]"),
        ([{"source": "web", "target": "db:5432", "allowed": False},
          {"source": "web", "target": "db:5432", "allowed": True}], "[0]", "[1]"),
    ],
)  # fmt: skip
def test_a_probe_stated_both_ways_is_a_typed_error_naming_both(data, first, second):
    from netmend.repair.errors import IntentContradictionError

    with pytest.raises(IntentContradictionError) as caught:
        parse_intent(data, "intent.yaml")
    assert (caught.value.first, caught.value.second) == (first, second)
    assert f"intent.yaml: {first} and {second} contradict: web" in str(caught.value)


def test_a_probe_stated_twice_the_same_way_is_fine():
    assert parse_intent({"allow": ["web -> db:5432", "web -> db:5432"]}).to_dict() == {"web": {"db:5432": True}}
