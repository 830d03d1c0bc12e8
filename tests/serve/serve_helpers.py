"""Shared helpers for the server tests: requests, responders, a raw socket."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit


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

