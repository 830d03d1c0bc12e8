"""The HTTP surface: routes, card, limits, error framing, responder failures."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.serve import ConnectionLimits, Limits, background_server, make_app

from .serve_helpers import echo, message_request, raw_exchange, sse_payload

SSE_ACCEPT = {"Accept": "text/event-stream"}


@pytest.fixture(scope="module")
def echo_url():
    with background_server(make_app(echo)) as url:
        yield url


def _post(url, payload, headers=None, **kwargs):
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return httpx.post(url, content=body, headers={"Content-Type": "application/json", **(headers or {})}, **kwargs)


# --- card and routes ----------------------------------------------------------


@pytest.mark.parametrize("path", [".well-known/agent-card.json", ".well-known/agent.json"])
def test_card_is_served_at_both_well_known_paths(echo_url, path):
    response = httpx.get(echo_url + path)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json()["url"] == echo_url
    assert response.json()["capabilities"]["streaming"] is True


def test_head_on_the_card_sends_headers_only(echo_url):
    response = httpx.head(echo_url + ".well-known/agent-card.json")
    assert response.status_code == 200
    assert int(response.headers["content-length"]) > 100
    assert response.content == b""


def test_without_a_card_url_the_card_follows_the_host_the_client_used():
    # What a wildcard bind needs; a Host that is not host[:port] falls back to
    # the local address the client reached.
    with background_server(make_app(echo, card_url=None)) as url:
        port = urlsplit(url).port
        card_path = url + ".well-known/agent-card.json"
        assert httpx.get(card_path, headers={"Host": f"agent.example:{port}"}).json()["url"] == (
            f"http://agent.example:{port}/"
        )
        bad = httpx.get(card_path, headers={"Host": "evil/path?x"}).json()["url"]
        assert bad == f"http://127.0.0.1:{port}/"


def test_explicit_card_url_path_also_takes_requests():
    app = make_app(echo, card_url="http://agent.example:9009/a2a/")
    with background_server(app) as url:
        card = httpx.get(url + ".well-known/agent-card.json").json()
        assert card["url"] == "http://agent.example:9009/a2a/"
        for path in ("a2a/", "a2a", ""):
            reply = _post(url + path, message_request()).json()
            assert reply["result"]["parts"][0]["text"] == "echo: hello"


@pytest.mark.parametrize(
    ("method", "path", "status", "allow"),
    [
        ("GET", "", 405, "POST"),
        ("PUT", "", 405, "POST"),
        ("POST", ".well-known/agent-card.json", 405, "GET, HEAD"),
        ("GET", "elsewhere", 404, None),
        ("POST", "elsewhere", 404, None),
    ],
)
def test_wrong_routes_and_methods_are_refused(echo_url, method, path, status, allow):
    response = httpx.request(method, echo_url + path)
    assert response.status_code == status
    assert response.headers.get("allow") == allow
    assert response.text.strip()


# --- replies and error framing ----------------------------------------------


def test_send_gets_json_and_stream_gets_one_sse_event(echo_url):
    send = _post(echo_url, message_request("message/send", "abc"))
    assert send.headers["content-type"] == "application/json"
    assert send.json()["result"]["parts"] == [{"kind": "text", "text": "echo: abc"}]
    stream = _post(echo_url, message_request("message/stream", "abc"), SSE_ACCEPT)
    assert stream.headers["content-type"] == "text/event-stream"
    assert stream.headers["cache-control"] == "no-store"
    assert int(stream.headers["content-length"]) == len(stream.content)
    task = sse_payload(stream.content)["result"]
    assert task["status"]["state"] == "completed"
    assert task["artifacts"][-1]["parts"][0]["text"] == "echo: abc"


def test_v10_methods_need_the_version_header(echo_url):
    without = _post(echo_url, message_request("SendMessage")).json()
    assert without["error"]["code"] == -32009
    with_header = _post(echo_url, message_request("SendMessage"), {"A2A-Version": "1.0"}).json()
    assert with_header["result"]["message"]["parts"] == [{"text": "echo: hello"}]


@pytest.mark.parametrize(
    ("body", "headers", "code", "streamed"),
    [
        (b"{not json", {}, -32700, False),
        (b"{not json", SSE_ACCEPT, -32700, True),
        (b"[]", {}, -32600, False),
        (json.dumps({**message_request(), "method": "nope"}).encode(), {}, -32601, False),
        (json.dumps({**message_request("message/stream"), "params": {}}).encode(), {}, -32602, True),
        (json.dumps(message_request("message/stream")).encode(), {"A2A-Version": "7.0"}, -32009, True),
    ],
)
def test_errors_are_framed_as_the_client_expects(echo_url, body, headers, code, streamed):
    response = _post(echo_url, body, headers)
    assert response.status_code == 200
    if streamed:
        assert response.headers["content-type"] == "text/event-stream"
        payload = sse_payload(response.content)
    else:
        assert response.headers["content-type"] == "application/json"
        payload = response.json()
    assert payload["error"]["code"] == code
    assert payload["error"]["message"]


def test_a_notification_gets_no_reply_and_is_not_answered():
    calls = []
    with background_server(make_app(lambda text: calls.append(text) or "x")) as url:
        notification = {k: v for k, v in message_request().items() if k != "id"}
        response = _post(url, notification)
        assert (response.status_code, response.content) == (204, b"")
        assert calls == []


def _boom(text: str) -> str:
    raise ValueError("no luck")


@pytest.mark.parametrize(
    ("responder", "fragment"),
    [(_boom, "ValueError"), (lambda t: "", "no reply text"), (lambda t: "  \n", "no reply text"), (lambda t: None, "no reply text")],
)
def test_responder_failures_become_internal_errors_and_the_server_lives_on(responder, fragment, caplog):
    with background_server(make_app(responder)) as url:
        for method in ("message/send", "message/stream"):
            response = _post(url, message_request(method))
            payload = sse_payload(response.content) if "stream" in method else response.json()
            assert payload["error"]["code"] == -32603
            assert fragment in payload["error"]["message"]
            assert payload["id"] == "r1"
        assert httpx.get(url + ".well-known/agent-card.json").status_code == 200


# --- limits ---------------------------------------------------------------------


def test_a_declared_oversized_body_is_refused_before_reading():
    with background_server(make_app(echo, limits=Limits(max_body_bytes=1000))) as url:
        parts = urlsplit(url)
        head = (
            f"POST / HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 5000000\r\n\r\n"
        ).encode()
        reply = raw_exchange(url, head)
        assert reply.startswith(b"HTTP/1.1 413 ")
        assert b"connection: close" in reply.lower()
        assert b'"code":-32600' in reply and b"1000-byte limit" in reply


def test_an_oversized_chunked_body_is_refused():
    with background_server(make_app(echo, limits=Limits(max_body_bytes=1000))) as url:
        def chunks():
            for _ in range(10):
                yield b" " * 300

        response = httpx.post(url, content=chunks())
        assert response.status_code == 413
        assert response.json()["error"]["code"] == -32600


def test_body_bytes_in_flight_are_bounded():
    limits = Limits(max_body_bytes=10_000, max_buffered_body_bytes=100)
    with background_server(make_app(echo, limits=limits)) as url:
        response = _post(url, message_request(text="x" * 500))
        assert response.status_code == 503
        assert "busy" in response.json()["error"]["message"]
        # A body within the budget still works: the refused bytes were released.
        small = _post(url, b'{"jsonrpc":"2.0","id":1,"method":"x"}')
        assert small.json()["error"]["code"] == -32601


def test_a_body_that_stalls_gets_408():
    with background_server(make_app(echo, limits=Limits(body_timeout_s=0.3))) as url:
        parts = urlsplit(url)
        head = f"POST / HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Length: 100\r\n\r\n{{".encode()
        started = time.monotonic()
        reply = raw_exchange(url, head)
        assert reply.startswith(b"HTTP/1.1 408 ")
        assert time.monotonic() - started < 3


def test_oversized_headers_get_431():
    with background_server(make_app(echo), limits=ConnectionLimits(max_header_bytes=2048)) as url:
        response = httpx.get(url + ".well-known/agent-card.json", headers={"X-Big": "a" * 4096})
        assert response.status_code == 431
        assert httpx.get(url + ".well-known/agent-card.json").status_code == 200


@pytest.mark.parametrize("sent", [b"", b"POST / HTTP/1.1\r\nHost: x\r\n"])
def test_silent_or_half_open_connections_are_closed(sent):
    with background_server(make_app(echo), limits=ConnectionLimits(header_timeout_s=0.3)) as url:
        parts = urlsplit(url)
        with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
            sock.sendall(sent)
            started = time.monotonic()
            assert sock.recv(1024) == b""  # closed by the server, not by our timeout
            assert time.monotonic() - started < 3


# --- property: whatever arrives, exactly one well-formed response leaves -------


def _drive(app, body: bytes, headers: list[tuple[bytes, bytes]], chunk: int) -> list[dict]:
    """Call the ASGI app directly with ``body`` split into ``chunk``-byte pieces."""
    pieces = [body[i : i + chunk] for i in range(0, len(body), chunk)] or [b""]
    incoming = [
        {"type": "http.request", "body": piece, "more_body": i < len(pieces) - 1}
        for i, piece in enumerate(pieces)
    ]
    sent: list[dict] = []

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers, "server": ("127.0.0.1", 9)}
    asyncio.run(app(scope, receive, send))
    return sent


_header_choices = st.lists(
    st.sampled_from(
        [(b"accept", b"text/event-stream"), (b"a2a-version", b"1.0"), (b"a2a-version", b"0.3"),
         (b"a2a-version", b"banana"), (b"accept", b"*/*")]
    ),
    max_size=3,
)
_bodies = st.one_of(
    st.binary(max_size=500),
    st.sampled_from([json.dumps(message_request(m)).encode() for m in
                     ("message/send", "message/stream", "SendMessage", "SendStreamingMessage", "tasks/get")]),
)


@settings(max_examples=150, deadline=None)
@given(body=_bodies, headers=_header_choices, chunk=st.integers(1, 64), fails=st.booleans())
def test_every_request_gets_exactly_one_well_formed_response(body, headers, chunk, fails):
    responder = _boom if fails else echo
    app = make_app(responder, limits=Limits(max_body_bytes=400))
    sent = _drive(app, body, headers, chunk)
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    status, reply = sent[0]["status"], sent[1]["body"]
    content_type = dict(sent[0]["headers"]).get(b"content-type")
    assert status in (200, 204, 413)
    if status == 204:
        assert reply == b""
        return
    payload = sse_payload(reply) if content_type == b"text/event-stream" else json.loads(reply)
    assert payload["jsonrpc"] == "2.0"
    assert ("result" in payload) != ("error" in payload)
    if "error" in payload:
        assert payload["error"]["message"]
    assert app._buffered == 0  # every reserved body byte was released


def test_a_cancelled_request_gives_its_body_bytes_back():
    app = make_app(echo)
    calls = 0

    async def receive():
        nonlocal calls
        calls += 1
        if calls == 1:
            return {"type": "http.request", "body": b"x" * 100, "more_body": True}
        raise asyncio.CancelledError  # e.g. the server shutting down mid-body

    async def send(message):
        raise AssertionError("no response is expected")

    scope = {"type": "http", "method": "POST", "path": "/", "headers": []}
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(app(scope, receive, send))
    assert app._buffered == 0
