"""Shared helpers for the server tests: requests, responders, a raw socket."""

from __future__ import annotations

import json
import socket
import uuid
from urllib.parse import urlsplit

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.client.middleware import ClientCallContext
from a2a.types import Message, Part, Role, TextPart


def echo(text: str) -> str:
    """A trivial responder: the reply names the text it answered."""
    return f"echo: {text}"


def message_request(method: str = "message/send", text: str = "hello", request_id="r1") -> dict:
    """A JSON-RPC request in the evaluator's 0.3 shape (or 1.0 for 1.0 methods)."""
    if "/" in method:
        message = {"kind": "message", "messageId": "m1", "role": "user",
                   "parts": [{"kind": "text", "text": text}]}
        params = {"configuration": {"acceptedOutputModes": [], "blocking": True}, "message": message}
    else:
        params = {"message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": text}]}}
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def sse_payload(body: bytes) -> dict:
    """The JSON of the single ``data:`` event of an SSE body."""
    assert body.startswith(b"data: ") and body.endswith(b"\n\n"), body[:200]
    return json.loads(body[len(b"data: ") : -2])


def raw_exchange(url: str, data: bytes, *, timeout: float = 5.0) -> bytes:
    """Send raw bytes to the server at ``url`` and read until it closes."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def evaluator_text(event) -> str | None:
    """What NetArena's AgentClient extracts from the last event."""
    if isinstance(event, Message):
        return "\n".join(p.root.text for p in event.parts if isinstance(p.root, TextPart))
    task, _update = event
    if task.artifacts:
        last = task.artifacts[-1]
        return "\n".join(p.root.text for p in last.parts if isinstance(p.root, TextPart)).strip()
    return None


async def ask_like_the_evaluator(base_url: str, texts: list[str], *, streaming: bool) -> list[str | None]:
    """Send each text in turn with a2a-sdk 0.3.22 as NetArena's AgentClient does."""
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(httpx_client=http, base_url=base_url).get_agent_card()
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=streaming)).create(card)
        context = ClientCallContext(state={"http_kwargs": {"timeout": 60}})
        replies = []
        for text in texts:
            message = Message(
                kind="message", role=Role.user, message_id=uuid.uuid4().hex,
                parts=[Part(TextPart(kind="text", text=text))],
            )
            last = None
            async for event in client.send_message(message, context=context):
                last = event
            replies.append(evaluator_text(last))
        return replies
