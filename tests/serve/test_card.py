"""The agent card, checked against the a2a-sdk 0.3.22 card model."""

from __future__ import annotations

import json

from a2a.types import AgentCard, TransportProtocol

from netmend import __version__
from netmend.serve.card import CARD_PATHS, agent_card, card_bytes


def test_card_validates_as_a_0_3_agent_card():
    card = AgentCard.model_validate(agent_card("http://agent.test:9009/"))
    assert card.url == "http://agent.test:9009/"
    assert card.preferred_transport == TransportProtocol.jsonrpc.value
    assert card.protocol_version == "0.3.0"
    assert card.capabilities.streaming is True
    assert card.capabilities.push_notifications is False
    assert card.version == __version__


def test_card_names_both_skills():
    skills = {skill["id"]: skill for skill in agent_card("http://x/")["skills"]}
    assert set(skills) == {"malt-capacity-planning", "k8s-networkpolicy-repair"}
    assert "process_graph" in skills["malt-capacity-planning"]["description"]
    assert "kubectl" in skills["k8s-networkpolicy-repair"]["description"]


def test_card_declares_1_0_and_0_3_interfaces_at_the_same_url():
    interfaces = agent_card("http://x:1/")["supportedInterfaces"]
    assert [(i["protocolBinding"], i["protocolVersion"], i["url"]) for i in interfaces] == [
        ("JSONRPC", "1.0", "http://x:1/"),
        ("JSONRPC", "0.3", "http://x:1/"),
    ]


def test_card_bytes_are_compact_deterministic_json():
    assert card_bytes("http://x/") == card_bytes("http://x/")
    assert json.loads(card_bytes("http://x/")) == agent_card("http://x/")
    assert b"\n" not in card_bytes("http://x/")


def test_cards_do_not_share_mutable_parts():
    first = agent_card("http://x/")
    first["skills"][0]["tags"].append("mutated")
    assert "mutated" not in agent_card("http://x/")["skills"][0]["tags"]


def test_card_paths_are_the_current_and_the_legacy_well_known_paths():
    assert CARD_PATHS == ("/.well-known/agent-card.json", "/.well-known/agent.json")
