"""The ASGI application: routing, request limits and the call into the responder.

A raw ASGI callable rather than a web framework: on this request path every
layer costs latency the evaluator measures, and the protocol is small enough
that routing, limits and framing fit in this module.

The responder (``text -> reply text``) is injected, so the same stack serves
the real agent, a test double, or the benchmark's instant null responder. It is
CPU-bound and fast (a few tenths of a millisecond), so it runs inline on the
event loop: measured with the evaluator's client, a thread hop added about
0.07 ms to the median call, and the GIL would serialise the work anyway.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from netmend.serve.card import CARD_PATHS, card_bytes
from netmend.serve.protocol import (
    ErrorCode,
    MessageRequest,
    Notification,
    RpcError,
    parse_request,
    render_error,
    render_reply,
)

Responder = Callable[[str], str]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

_log = logging.getLogger("netmend.serve")

_JSON = b"application/json"
_SSE = b"text/event-stream"
# A Host header we are willing to echo into the card: a DNS name or IPv4
# address, or a bracketed IPv6 literal, with an optional port.
_HOST_HEADER = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$")


@dataclass(frozen=True)
class Limits:
    """Bounds that keep one client from hurting the others.

    Attributes
    ----------
    max_body_bytes
        Largest request body accepted; larger ones get HTTP 413.
    body_timeout_s
        Longest wait for a request body to arrive in full; slower ones get 408.
    max_buffered_body_bytes
        Body bytes held at once across all requests in flight; past it new
        bodies get 503, so memory stays bounded under any load.
    """

    max_body_bytes: int = 4 * 1024 * 1024
    body_timeout_s: float = 30.0
    max_buffered_body_bytes: int = 64 * 1024 * 1024


class _Refusal(Exception):
    """An HTTP-level refusal sent before the JSON-RPC request could be read."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class _Held:
    """Body bytes one request holds against the app-wide budget."""

    bytes: int = 0


# Identifiers for tasks, messages and artifacts: random version-4 UUIDs, drawn from a
# generator seeded once from the OS (and again in a forked child) rather than one OS call
# each: ``uuid.uuid4()`` reads ``os.urandom`` every time, three times a reply. They only
# need to be unique, not secret.
_ids = random.Random()
os.register_at_fork(after_in_child=_ids.seed)
_VERSION_4 = ~(0xF000 << 64) & ~(0xC000 << 48) & ((1 << 128) - 1)
_VERSION_4_BITS = (0x4000 << 64) | (0x8000 << 48)


def _new_uuid() -> str:
    value = "%032x" % (_ids.getrandbits(128) & _VERSION_4 | _VERSION_4_BITS)
    return f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"


class A2AApp:
    """ASGI application serving the agent card and the JSON-RPC endpoint.

    Parameters
    ----------
    responder
        Maps the user's text to the reply text. Exceptions and empty replies
        become JSON-RPC internal errors, never a dropped connection.
    card_url
        The URL advertised in the card, where clients send JSON-RPC. ``None``
        derives it per request from the ``Host`` header the client used (so a
        server bound to a wildcard address advertises a reachable URL).
    limits
        Request size and time bounds.
    new_id
        Source of task, message and context identifiers.
    """

    def __init__(
        self,
        responder: Responder,
        *,
        card_url: str | None = None,
        limits: Limits | None = None,
        new_id: Callable[[], str] = _new_uuid,
    ) -> None:
        self._responder = responder
        self._limits = limits or Limits()
        self._new_id = new_id
        self._card = card_bytes(card_url) if card_url else None
        card_path = urlsplit(card_url).path if card_url else "/"
        # The card URL's path, with or without its trailing slash, and the root.
        self._rpc_paths = frozenset({"/", card_path or "/", card_path.rstrip("/") or "/"})
        self._buffered = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        if path in CARD_PATHS:
            if method in ("GET", "HEAD"):
                body = self._card or card_bytes(_derived_card_url(scope))
                await _respond(send, 200, _JSON, body, head=method == "HEAD")
            else:
                await _respond_plain(send, 405, "use GET for the agent card", allow=b"GET, HEAD")
        elif path in self._rpc_paths:
            if method == "POST":
                await self._rpc(scope, receive, send)
            else:
                await _respond_plain(send, 405, "send JSON-RPC requests with POST", allow=b"POST")
        else:
            await _respond_plain(send, 404, f"no resource at {path}")

    async def _rpc(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        wants_stream = _SSE in headers.get(b"accept", b"")
        held = _Held()
        try:
            try:
                body = await self._read_body(receive, headers.get(b"content-length"), held)
            except _Refusal as refusal:
                error = RpcError(ErrorCode.INVALID_REQUEST, refusal.message, streaming=wants_stream)
                # The rest of the body was not read: the connection cannot be reused.
                await _respond(
                    send, refusal.status, _SSE if wants_stream else _JSON, render_error(error),
                    close=True,
                )
                return
            if body is None:
                return  # the client went away
            version = headers.get(b"a2a-version")
            try:
                request = parse_request(
                    body,
                    version_header=None if version is None else version.decode("latin-1"),
                    wants_stream=wants_stream,
                )
                if isinstance(request, Notification):
                    await _respond(send, 204, None, b"")
                    return
                payload = self._answer(request)
                streaming = request.streaming
            except RpcError as error:
                payload, streaming = render_error(error), error.streaming
            except Exception:
                # A body the protocol layer failed to classify is still the client's
                # malformed request, never a server error: answer it as one.
                _log.exception("could not classify a request body")
                error = RpcError(
                    ErrorCode.INVALID_REQUEST,
                    "the request body could not be read as a JSON-RPC request",
                    streaming=wants_stream,
                )
                payload, streaming = render_error(error), error.streaming
            await _respond(send, 200, _SSE if streaming else _JSON, payload)
        finally:
            # Whatever ended the request (even a cancellation), its bytes go back.
            self._buffered -= held.bytes

    def _answer(self, request: MessageRequest) -> bytes:
        try:
            reply = self._responder(request.text)
        except Exception as exc:
            _log.exception("the responder failed on request %r", request.request_id)
            raise RpcError(
                ErrorCode.INTERNAL_ERROR,
                f"the agent failed while answering this request ({type(exc).__name__})",
                request_id=request.request_id,
                streaming=request.streaming,
            ) from None
        if not isinstance(reply, str) or not reply or reply.isspace():
            _log.error("the responder returned no text for request %r", request.request_id)
            raise RpcError(
                ErrorCode.INTERNAL_ERROR,
                "the agent produced no reply text for this request",
                request_id=request.request_id,
                streaming=request.streaming,
            )
        return render_reply(request, reply, new_id=self._new_id)

    async def _read_body(
        self, receive: Receive, content_length: bytes | None, held: _Held
    ) -> bytes | None:
        """Read the whole body within the limits, counting its bytes in ``held``
        and in the app-wide total; ``None`` if the client disconnected."""
        limit = self._limits.max_body_bytes
        if content_length is not None:
            if not content_length.isdigit():
                raise _Refusal(400, "Content-Length must be a decimal byte count")
            if int(content_length) > limit:
                raise _Refusal(413, f"request body exceeds the {limit}-byte limit")
        chunks: list[bytes] = []
        try:
            async with asyncio.timeout(self._limits.body_timeout_s):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    held.bytes += len(chunk)
                    self._buffered += len(chunk)
                    if held.bytes > limit:
                        raise _Refusal(413, f"request body exceeds the {limit}-byte limit")
                    if self._buffered > self._limits.max_buffered_body_bytes:
                        raise _Refusal(503, "server busy: too many request bytes in flight")
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            raise _Refusal(
                408, f"request body did not arrive within {self._limits.body_timeout_s:g} s"
            ) from None


def make_app(
    responder: Responder,
    *,
    card_url: str | None = None,
    limits: Limits | None = None,
    new_id: Callable[[], str] = _new_uuid,
) -> A2AApp:
    """Build the A2A participant application around ``responder``.

    See :class:`A2AApp` for the parameters.
    """
    return A2AApp(responder, card_url=card_url, limits=limits, new_id=new_id)


def _headers(scope: Scope) -> dict[bytes, bytes]:
    """Request headers by lower-case name; repeated headers are joined by commas
    (httpx-sse sends ``Accept`` twice)."""
    found: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        found[name] = found[name] + b"," + value if name in found else value
    return found


def _derived_card_url(scope: Scope) -> str:
    host = _headers(scope).get(b"host", b"").decode("latin-1")
    if not _HOST_HEADER.match(host):
        address, port = scope.get("server") or ("127.0.0.1", 80)
        host = f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
    return f"http://{host}/"


async def _respond(
    send: Send,
    status: int,
    content_type: bytes | None,
    body: bytes,
    *,
    close: bool = False,
    head: bool = False,
    allow: bytes | None = None,
) -> None:
    headers = [(b"content-length", str(len(body)).encode())] if status != 204 else []
    if content_type is not None:
        headers.append((b"content-type", content_type))
    if content_type == _SSE:
        headers.append((b"cache-control", b"no-store"))
    if allow is not None:
        headers.append((b"allow", allow))
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else body})


async def _respond_plain(send: Send, status: int, message: str, *, allow: bytes | None = None) -> None:
    await _respond(
        send, status, b"text/plain; charset=utf-8", (message + "\n").encode(), allow=allow
    )


async def _lifespan(receive: Receive, send: Send) -> None:
    """Acknowledge ASGI lifespan events: this app holds no resources."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
