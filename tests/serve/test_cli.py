"""``netmend serve`` end to end: the real agent behind the real CLI, called
the way the NetArena evaluator calls it."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import subprocess
import sys

import httpx
import pytest
from click.testing import CliRunner

from netmend.assess.malt.envelopes import PROMPT_TYPES, build_prompt
from netmend.cli import main

from .serve_helpers import ask_like_the_evaluator


@contextlib.contextmanager
def netmend_serve(*args: str):
    """Run ``netmend serve --port 0 ARGS``; yield the base URL it listens on."""
    process = subprocess.Popen(
        [sys.executable, "-m", "netmend", "serve", "--port", "0", *args],
        stderr=subprocess.PIPE, text=True,
    )
    try:
        line = process.stderr.readline()
        found = re.search(r"listening on .*:(\d+); card URL: (.*)$", line)
        assert found, f"unexpected first line from netmend serve: {line!r}"
        yield f"http://127.0.0.1:{found.group(1)}/", found.group(2)
    finally:
        process.terminate()
        # uvicorn shuts down gracefully, then re-raises the signal it caught.
        assert process.wait(timeout=10) in (0, -signal.SIGTERM)
        assert "Traceback" not in process.stderr.read()


@pytest.fixture(scope="module")
def served():
    with netmend_serve("--host", "127.0.0.1") as (url, card_url):
        yield url, card_url


def test_card_url_defaults_to_host_and_port(served):
    url, card_url = served
    assert card_url == url
    assert httpx.get(url + ".well-known/agent-card.json").json()["url"] == url


def test_every_malt_envelope_gets_a_process_graph_fence(served):
    url, _ = served
    request = "Remove ju1.a1.m1.s2c1.p3 from the graph. Return a graph."
    prompts = [build_prompt(request, kind) for kind in PROMPT_TYPES]
    replies = asyncio.run(ask_like_the_evaluator(url, prompts, streaming=True))
    for kind, reply in zip(PROMPT_TYPES, replies, strict=True):
        assert reply is not None, kind
        assert re.search(r"```python\n.*def process_graph\(\w+\):", reply, re.DOTALL), kind
    assert len(set(replies)) == 1  # the envelope does not change the answer


def test_what_the_agent_cannot_handle_gets_a_clear_text_refusal(served):
    url, _ = served
    replies = asyncio.run(ask_like_the_evaluator(url, ["Paint the spine blocks purple.", " "], streaming=False))
    for reply in replies:
        assert reply and reply.strip()
        assert "def process_graph" not in reply


def test_k8s_prompts_are_answered():
    pytest.importorskip("netmend.agent.k8s", reason="the K8s route of netmend.agent is not installed")
    from netmend.repair.netarena import build_prompt as build_k8s_prompt

    with netmend_serve() as (url, _):
        (reply,) = asyncio.run(ask_like_the_evaluator(url, [build_k8s_prompt("")], streaming=True))
    assert reply and "```" in reply


def test_wildcard_host_advertises_the_address_the_client_used():
    with netmend_serve("--host", "0.0.0.0") as (url, card_url):
        assert "wildcard" in card_url
        assert httpx.get(url + ".well-known/agent-card.json").json()["url"] == url


def test_explicit_card_url_is_advertised():
    with netmend_serve("--card-url", "http://participant:9009/") as (url, card_url):
        assert card_url == "http://participant:9009/"
        assert httpx.get(url + ".well-known/agent.json").json()["url"] == "http://participant:9009/"


@pytest.mark.parametrize("bad", ["participant:9009", "ftp://x/", "http:///nohost"])
def test_a_bad_card_url_is_refused_with_the_expected_form(bad):
    result = CliRunner().invoke(main, ["serve", "--card-url", bad])
    assert result.exit_code == 2
    assert "expected an absolute http(s) URL" in result.output


def test_a_busy_port_is_a_clear_error():
    with netmend_serve("--host", "127.0.0.1") as (url, _):
        port = url.rsplit(":", 1)[1].strip("/")
        result = CliRunner().invoke(main, ["serve", "--port", port])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
