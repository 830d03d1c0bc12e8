"""The A2A agent card: one document valid for A2A 0.3 and 1.0 clients.

Pure: the card is a function of the URL it advertises and the package version.

A 0.3 client (the NetArena evaluator's a2a-sdk 0.3.22) reads ``url``,
``preferredTransport``, ``protocolVersion`` and ``capabilities.streaming``; it
POSTs to ``url``, so that URL must be reachable from the client. A 1.x client
reads ``supportedInterfaces`` and picks the 1.0 entry. Each side ignores the
other's keys.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from netmend import __version__

CARD_PATHS = ("/.well-known/agent-card.json", "/.well-known/agent.json")

_SKILLS: tuple[dict[str, Any], ...] = (
    {
        "id": "malt-capacity-planning",
        "name": "MALT capacity planning",
        "description": (
            "Answers capacity-planning requests over a MALT data-center topology "
            "(add, remove, update, list, rank and count nodes) with one Python "
            "function `process_graph(graph_data)` in a fenced block. The function "
            "returns the requested data exactly and commits only a graph that keeps "
            "the topology's safety rules (hierarchy, port capacities, no orphans). "
            "Requests it cannot parse are refused in plain text, never guessed."
        ),
        "tags": ["malt", "networkx", "capacity-planning", "data-center", "safety"],
        "examples": [
            "Count the EK_PORT in ju1.a1.m1.s2c1. Return the count number as text.",
            "Remove ju1.a2.m3.s2c4.p7 from the graph. Return a graph.",
        ],
        "inputModes": ["text/plain"],
        "outputModes": ["text/plain"],
    },
    {
        "id": "k8s-networkpolicy-repair",
        "name": "Kubernetes NetworkPolicy repair",
        "description": (
            "Repairs Kubernetes NetworkPolicies that break or over-open traffic "
            "between microservices: it models the policies' allowed connections, "
            "compares them with the intended reachability and answers with the next "
            "kubectl command in a fenced block, one safe step at a time."
        ),
        "tags": ["kubernetes", "networkpolicy", "repair", "kubectl", "safety"],
        "examples": [
            "Pods of frontend can no longer reach cartservice on port 7070; fix the policies."
        ],
        "inputModes": ["text/plain"],
        "outputModes": ["text/plain"],
    },
)


def agent_card(url: str) -> dict[str, Any]:
    """Return the agent card advertising the JSON-RPC endpoint at ``url``.

    Examples
    --------
    >>> card = agent_card("http://127.0.0.1:9009/")
    >>> card["url"], card["preferredTransport"], card["capabilities"]["streaming"]
    ('http://127.0.0.1:9009/', 'JSONRPC', True)
    >>> [i["protocolVersion"] for i in card["supportedInterfaces"]]
    ['1.0', '0.3']
    """
    return {
        "name": "netmend",
        "description": (
            "Deterministic, safety-aware network-repair agent: MALT capacity planning "
            "and Kubernetes NetworkPolicy repair, answered by exact modelling and "
            "verification rather than by a language model."
        ),
        "url": url,
        "version": __version__,
        "protocolVersion": "0.3.0",
        "preferredTransport": "JSONRPC",
        "supportedInterfaces": [
            {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
        ],
        "capabilities": {"streaming": True, "pushNotifications": False},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": copy.deepcopy(list(_SKILLS)),
    }


def card_bytes(url: str) -> bytes:
    """The card as the compact JSON body served at :data:`CARD_PATHS`."""
    return json.dumps(agent_card(url), separators=(",", ":")).encode()
