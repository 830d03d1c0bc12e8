"""Conformance with the official A2A clients.

* a2a-sdk 0.3.22, the NetArena evaluator's client, driven the way the
  evaluator drives it (card resolver, ``ClientFactory``, per-request timeout
  60, text taken from the last artifact or from the message);
* a2a-sdk 1.x in its own virtualenv (``.venv-a2a1``, made by ``.ci/run``),
  through ``a2a1_client.py``.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import httpx
import pytest
from a2a.client import A2ACardResolver
from a2a.client.errors import A2AClientJSONRPCError

from netmend.serve import background_server, make_app

from .serve_helpers import ask_like_the_evaluator, echo

HERE = Path(__file__).resolve().parent
A2A1_PYTHON = HERE.parents[1] / ".venv-a2a1" / "bin" / "python"


class _ConnectionCounter:
    """ASGI wrapper recording the client address of every request."""

    def __init__(self, app):
        self.app, self.clients = app, []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST":
            self.clients.append(tuple(scope["client"]))
        await self.app(scope, receive, send)


@pytest.mark.parametrize("streaming", [True, False])
def test_evaluator_client_gets_every_reply(streaming):
    texts = ["first", "x" * 50_000, "multi\nline ```python\ndef f(): pass\n```", "ünïcødé ✓"]
    with background_server(make_app(echo)) as url:
        replies = asyncio.run(ask_like_the_evaluator(url, texts, streaming=streaming))
    assert replies == [echo(text) for text in texts]


@pytest.mark.parametrize("streaming", [True, False])
def test_evaluator_client_keeps_one_connection(streaming):
    counter = _ConnectionCounter(make_app(echo))
    with background_server(counter) as url:
        asyncio.run(ask_like_the_evaluator(url, [f"q{i}" for i in range(5)], streaming=streaming))
    assert len(counter.clients) == 5
    assert len(set(counter.clients)) == 1, counter.clients


def test_evaluator_client_sees_a_json_rpc_error_not_a_broken_stream():
    def failing(text: str) -> str:
        raise RuntimeError("boom")

    with background_server(make_app(failing)) as url, pytest.raises(A2AClientJSONRPCError) as caught:
        asyncio.run(ask_like_the_evaluator(url, ["q"], streaming=True))
    assert caught.value.error.code == -32603


def test_card_resolves_through_the_sdk_resolver_with_the_advertised_url():
    app = make_app(echo, card_url="http://agent.example:9009/")

    async def resolve(url):
        async with httpx.AsyncClient() as http:
            return await A2ACardResolver(httpx_client=http, base_url=url).get_agent_card()

    with background_server(app) as url:
        card = asyncio.run(resolve(url))
    assert card.url == "http://agent.example:9009/"
    assert card.capabilities.streaming
    assert [skill.id for skill in card.skills] == ["malt-capacity-planning", "k8s-networkpolicy-repair"]


@pytest.fixture(scope="module")
def a2a1_python() -> Path:
    if not A2A1_PYTHON.exists():
        pytest.skip("no .venv-a2a1 (made by .ci/run) holding the a2a-sdk 1.x client")
    probe = subprocess.run(
        [str(A2A1_PYTHON), "-c", "import a2a.client, a2a.types"], capture_output=True, timeout=60
    )
    if probe.returncode != 0:
        pytest.skip(".venv-a2a1 exists but a2a-sdk 1.x does not import there")
    return A2A1_PYTHON


@pytest.mark.needs_a2a1
@pytest.mark.parametrize(("mode", "event"), [("stream", "task:TASK_STATE_COMPLETED"), ("send", "message")])
def test_a2a_1x_client_round_trip(a2a1_python, mode, event):
    with background_server(make_app(echo)) as url:
        result = subprocess.run(
            [str(a2a1_python), str(HERE / "a2a1_client.py"), url, mode, "from 1.x"],
            capture_output=True, text=True, timeout=120, check=False,
        )
    assert result.returncode == 0, result.stderr[-2000:]
    outcome = json.loads(result.stdout)
    assert outcome == {"versions": ["1.0", "0.3"], "events": [event], "reply": echo("from 1.x")}
