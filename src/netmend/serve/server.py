"""Run the A2A application on uvicorn (httptools parser, uvloop event loop).

This is the I/O edge: sockets, the event loop, connection timeouts. The
measured choice of stack is recorded in ``../shared/docs/a2a-wire.md``: a raw
ASGI app on uvicorn with httptools and uvloop sits within a few hundredths of
a millisecond of a hand-written asyncio server.
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})
# An ASGI 3 application, such as the one :func:`netmend.serve.make_app` builds.
ASGIApp = Callable[..., Awaitable[None]]


@dataclass(frozen=True)
class ConnectionLimits:
    """Per-connection bounds enforced below the application.

    Attributes
    ----------
    header_timeout_s
        Longest time a connection may take to deliver a request's headers
        (counted from connect, or from the first byte of a later request);
        a silent or half-open client is disconnected after it.
    max_header_bytes
        Largest request line plus headers; a larger request is refused with 431.
    keep_alive_s
        Idle time before a kept-alive connection is closed. Longer than the
        5 s after which httpx drops idle connections itself, so the client,
        not the server, ends an idle connection and never races a close.
    max_connections
        Open connections at once; past it requests get 503.
    """

    header_timeout_s: float = 10.0
    max_header_bytes: int = 64 * 1024
    keep_alive_s: int = 75
    max_connections: int = 4096


class _GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol plus a header deadline and a header size cap.

    uvicorn bounds idle kept-alive connections but not a request whose headers
    never finish, so a half-open client would hold its connection forever.
    """

    limits = ConnectionLimits()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_bytes = 0
        self._header_deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm_header_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_deadline()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_bytes = 0
        self._arm_header_deadline()

    def on_url(self, url: bytes) -> None:
        self._count_header_bytes(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_header_bytes(len(name) + len(value))
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm_header_deadline()
        super().on_headers_complete()

    def _count_header_bytes(self, size: int) -> None:
        self._header_bytes += size
        if self._header_bytes > self.limits.max_header_bytes:
            # Aborts parsing; uvicorn then calls send_400_response, below.
            raise ValueError("request headers too large")

    def send_400_response(self, msg: str) -> None:
        if self._header_bytes <= self.limits.max_header_bytes:
            super().send_400_response(msg)
            return
        body = b"request headers too large\n"
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n"
            b"connection: close\r\n\r\n" + body
        )
        self.transport.close()

    def _arm_header_deadline(self) -> None:
        if self._header_deadline is None:
            self._header_deadline = self.loop.call_later(
                self.limits.header_timeout_s, self._on_header_deadline
            )

    def _disarm_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _on_header_deadline(self) -> None:
        self._header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def _protocol_class(limits: ConnectionLimits) -> type[HttpToolsProtocol]:
    return type("GuardedHttpToolsProtocol", (_GuardedHttpToolsProtocol,), {"limits": limits})


def bind(host: str, port: int) -> socket.socket:
    """Open the listening socket (port 0 picks a free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # The IPv6 wildcard also takes IPv4 clients where the kernel allows it.
    dualstack = host == "::" and socket.has_dualstack_ipv6()
    return socket.create_server(
        (host, port), family=family, backlog=2048, dualstack_ipv6=dualstack
    )


def default_card_url(host: str, port: int) -> str | None:
    """``http://HOST:PORT/``, or ``None`` for a wildcard host, whose address no
    client can use: the card's URL is then taken from each request's Host."""
    if host in WILDCARD_HOSTS:
        return None
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        return f"http://{host}:{port}/"
    return f"http://[{host}]:{port}/" if literal.version == 6 else f"http://{host}:{port}/"


def _config(app: ASGIApp, limits: ConnectionLimits) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        loop="auto",  # uvloop when installed
        http=_protocol_class(limits),
        ws="none",
        lifespan="off",
        access_log=False,
        log_level="warning",
        proxy_headers=False,
        server_header=False,
        timeout_keep_alive=limits.keep_alive_s,
        limit_concurrency=limits.max_connections,
        timeout_graceful_shutdown=5,
    )


def tune_collector() -> None:
    """Garbage collection for a request/response server.

    What exists before serving (the app, its warmed caches) lives as long as
    the server, so it is frozen out of collections; a request leaves no
    cycles behind, so the young generation may grow to thousands of objects
    between collections instead of collecting every few hundred allocations.
    """
    gc.collect()
    gc.freeze()
    first, *rest = gc.get_threshold()
    gc.set_threshold(max(first, 20_000), *rest)


def serve(app: ASGIApp, sock: socket.socket, limits: ConnectionLimits | None = None) -> None:
    """Serve ``app`` on the bound ``sock`` until SIGINT or SIGTERM (collector tuned first)."""
    tune_collector()
    uvicorn.Server(_config(app, limits or ConnectionLimits())).run(sockets=[sock])


@contextmanager
def background_server(
    app: ASGIApp, *, host: str = "127.0.0.1", limits: ConnectionLimits | None = None
) -> Iterator[str]:
    """Run ``app`` on a free loopback port in a thread; yield its base URL.

    For embedding and tests. The server stops when the block exits.
    """
    sock = bind(host, 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(_config(app, limits or ConnectionLimits()))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the A2A server thread exited during startup")
            time.sleep(0.01)
        yield default_card_url(host, port) or f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
