"""A standard A2A client for putting prompts to any agent, as the NetArena evaluator does.

It uses the a2a-sdk (optional extra ``a2a``) exactly as the evaluator does:
fetch the public agent card, build a client with ``streaming=True`` on a shared
``httpx.AsyncClient`` (60 s timeout), send one user text message per prompt,
keep the LAST event of the stream and take its text: a message's text and
data parts, or a task's last artifact (its text parts), else the latest agent
message in the task's history.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

DEFAULT_TIMEOUT_S = 60.0


class A2AUnavailable(RuntimeError):
    """The optional A2A client libraries are not installed."""


class A2AConnectionError(RuntimeError):
    """The agent's card could not be fetched or the client could not be built."""


def _sdk() -> Any:
    try:
        import httpx
        from a2a import client as a2a_client
        from a2a import types as a2a_types
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise A2AUnavailable(
            "talking to an A2A agent needs the optional A2A client: "
            "pip install 'netmend[a2a]' (a2a-sdk 0.3.22 and httpx)"
        ) from exc
    return httpx, a2a_client, a2a_types


def _merge_parts(parts: Any, types: Any) -> str:
    chunks = []
    for part in parts:
        root = part.root
        if isinstance(root, types.TextPart):
            chunks.append(root.text)
        elif isinstance(root, types.DataPart):
            chunks.append(json.dumps(root.data, indent=2))
    return "\n".join(chunks)


def reply_text(event: Any, types: Any) -> str | None:
    """The evaluator's reading of the last stream event: a message, or a ``(task, update)`` pair."""
    if isinstance(event, types.Message):
        return _merge_parts(event.parts, types)
    if isinstance(event, tuple) and event and isinstance(event[0], types.Task):
        task = event[0]
        if task.artifacts:
            last = task.artifacts[-1]
            texts = [part.root.text for part in last.parts if isinstance(part.root, types.TextPart)]
            return "\n".join(texts).strip()
        for message in reversed(task.history or []):
            if message.role == types.Role.agent:
                text = _merge_parts(message.parts, types)
                if text:
                    return text
    return None


class A2AAgent:
    """An async context manager holding one connection to an A2A agent.

    >>> async def demo(url):  # doctest: +SKIP
    ...     async with A2AAgent(url) as agent:
    ...         return await agent.ask("List all the child nodes of ju1.a1.m1. ...")
    """

    def __init__(self, url: str, timeout_s: float = DEFAULT_TIMEOUT_S):
        self.url = url
        self.timeout_s = timeout_s
        self._http: Any = None
        self._client: Any = None
        self._types: Any = None
        self.card: Any = None

    async def __aenter__(self) -> A2AAgent:
        httpx, a2a_client, self._types = _sdk()
        self._http = httpx.AsyncClient(timeout=self.timeout_s)
        try:
            resolver = a2a_client.A2ACardResolver(httpx_client=self._http, base_url=self.url)
            self.card = await resolver.get_agent_card()
            config = a2a_client.ClientConfig(httpx_client=self._http, streaming=True)
            self._client = a2a_client.ClientFactory(config).create(self.card)
        except Exception as exc:
            await self._http.aclose()
            raise A2AConnectionError(f"cannot reach the A2A agent at {self.url}: {exc}") from exc
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self._http.aclose()

    async def ask(self, text: str) -> tuple[str | None, str]:
        """Send ``text``; returns ``(reply text or None, problem)``. Never raises for agent errors."""
        types = self._types
        message = types.Message(
            kind="message",
            role=types.Role.user,
            parts=[types.Part(types.TextPart(kind="text", text=text))],
            message_id=uuid.uuid4().hex,
        )
        last = None
        try:
            async for event in self._client.send_message(message):
                last = event
        except Exception as exc:
            return None, f"the agent call failed: {type(exc).__name__}: {exc}"
        reply = reply_text(last, types)
        if reply is None:
            return None, "the agent's reply held no text"
        return reply, ""


class SyncA2A:
    """A blocking wrapper around :class:`A2AAgent` for the rooms whose loops are synchronous."""

    def __init__(self, url: str):
        self._loop = asyncio.new_event_loop()
        self._agent = A2AAgent(url)
        try:
            self._loop.run_until_complete(self._agent.__aenter__())
        except BaseException:
            self._loop.close()
            raise

    def __call__(self, prompt: str) -> str | None:
        reply, _problem = self._loop.run_until_complete(self._agent.ask(prompt))
        return reply

    def close(self) -> None:
        """Close the connection and the private event loop."""
        try:
            self._loop.run_until_complete(self._agent.__aexit__(None, None, None))
        finally:
            self._loop.close()
