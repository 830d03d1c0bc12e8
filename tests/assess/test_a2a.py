"""The A2A path against a local A2A server (netmend serve's ASGI app on loopback)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("a2a", reason="the A2A client extra (a2a-sdk) is not installed")

from netmend.agent import respond  # noqa: E402
from netmend.assess.a2a_client import A2AAgent, A2AConnectionError  # noqa: E402
from netmend.assess.malt.run import MaltAssessment, assess_malt  # noqa: E402
from netmend.serve import background_server, make_app  # noqa: E402


def test_assess_an_a2a_agent(small_graph) -> None:
    with background_server(make_app(respond)) as url:
        config = MaltAssessment(per_type=2, seed=6, agent_url=url,
                                prompt_types=("fewshot_cot", "zeroshot_base"))
        run = assess_malt(small_graph, config)
    assert run.summary["n"] == 40 and not run.failures, [f.record for f in run.failures]
    assert all(r.latency_s > 0 for r in run.results)
    # The reply sizes are those of the reply text the client extracts: the same as in process.
    local = assess_malt(small_graph, MaltAssessment(per_type=2, seed=6, prompt_types=(
        "fewshot_cot", "zeroshot_base"), workers=1))
    assert [r.reply_bytes for r in run.results] == [r.reply_bytes for r in local.results]
    assert run.summary["reply_bytes"] == local.summary["reply_bytes"]
    assert run.summary["reply_bytes"]["n"] == 40


def _nonsense(text: str) -> str:
    return "I cannot help with that."


def test_an_a2a_agent_that_answers_badly_fails_its_tasks(small_graph) -> None:
    with background_server(make_app(_nonsense)) as url:
        run = assess_malt(small_graph, MaltAssessment(per_type=1, seed=1, agent_url=url))
    assert len(run.failures) == 10
    assert all("no 'def process_graph'" in r.record["Error"] for r in run.failures)


def test_the_client_reads_the_reply_text() -> None:
    async def ask() -> tuple:
        async with A2AAgent(url) as agent:
            return await agent.ask("hello")

    with background_server(make_app(lambda text: f"echo: {text}")) as url:
        assert asyncio.run(ask()) == ("echo: hello", "")


def test_an_unreachable_agent_is_a_clear_error(small_graph) -> None:
    with background_server(make_app(respond)) as url:
        pass  # the server is gone once the block ends
    with pytest.raises(A2AConnectionError, match="cannot reach"):
        assess_malt(small_graph, MaltAssessment(per_type=1, agent_url=url))
