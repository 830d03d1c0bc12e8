"""Fuzzing the JSON-RPC endpoint: whatever body arrives, no 5xx and no exception.

Bodies are drawn from several families a hostile or broken client may send:
nesting far past the decoder's recursion limit, huge strings in any field, a
valid request with any member replaced by a value of the wrong type, valid
requests cut short or with bytes flipped, and plain binary. Each is sent to
the ASGI application (fast, many examples) with the real agent as responder;
a few of the worst also go over a real socket through uvicorn.
"""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from netmend.agent import respond
from netmend.serve import Limits, background_server, make_app

from .serve_helpers import message_request, sse_payload
from .test_app import _drive

LIMIT = 1 << 20  # a 1 MiB body limit keeps the huge cases quick
APP = make_app(respond, limits=Limits(max_body_bytes=LIMIT))

_METHODS = ("message/send", "message/stream", "SendMessage", "SendStreamingMessage")
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)
)
_WRONG = st.one_of(
    _SCALARS,
    st.lists(_SCALARS, max_size=3),
    st.dictionaries(st.text(max_size=5), _SCALARS, max_size=3),
)


def _nested(depth: int, opener: str) -> str:
    closer = {"[": "]", "{": "}"}[opener]
    if opener == "[":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + closer * depth


@st.composite
def deep_bodies(draw) -> bytes:
    """A valid request with some member replaced by very deeply nested JSON."""
    depth = draw(st.sampled_from([50, 1_000, 5_000, 100_000]))
    inner = _nested(depth, draw(st.sampled_from(["[", "{"])))
    request = message_request(draw(st.sampled_from(_METHODS)))
    where = draw(st.sampled_from(["body", "params", "message", "parts", "text", "id"]))
    if where == "body":
        return inner.encode()
    marker = "\u0000MARK\u0000"
    target = {"params": ("params",), "message": ("params", "message"),
              "parts": ("params", "message", "parts"), "id": ("id",)}.get(where)
    if target is None:  # the text of the first part
        parts = request["params"]["message"]["parts"]
        parts[0]["text"] = marker
    else:
        holder = request
        for key in target[:-1]:
            holder = holder[key]
        holder[target[-1]] = marker
    return json.dumps(request).replace(json.dumps(marker), inner).encode()


@st.composite
def huge_string_bodies(draw) -> bytes:
    """A request whose text, id, method or an unknown member is a huge string."""
    size = draw(st.sampled_from([10_000, 200_000, LIMIT - 1_000]))
    filler = draw(st.sampled_from(["a", "\"", "'", "ju1.", "remove x ", "\\u00e9", "(", " "]))
    value = (filler * (size // len(filler) + 1))[:size]
    request = message_request(draw(st.sampled_from(_METHODS)))
    where = draw(st.sampled_from(["text", "id", "method", "messageId", "extra"]))
    if where == "text":
        request["params"]["message"]["parts"][0]["text"] = value
    elif where == "messageId":
        request["params"]["message"]["messageId"] = value
    elif where == "extra":
        request["params"]["extra"] = value
    else:
        request[where] = value
    return json.dumps(request).encode()


_PATHS = (
    ("id",), ("jsonrpc",), ("method",), ("params",), ("params", "message"),
    ("params", "message", "kind"), ("params", "message", "role"),
    ("params", "message", "messageId"), ("params", "message", "parts"),
    ("params", "message", "contextId"), ("params", "message", "taskId"),
    ("params", "configuration"), ("params", "configuration", "acceptedOutputModes"),
)


@st.composite
def wrong_type_bodies(draw) -> bytes:
    """A valid request with one member replaced by a value of an arbitrary type."""
    request = message_request(draw(st.sampled_from(_METHODS)))
    path = draw(st.sampled_from(_PATHS))
    holder = request
    for key in path[:-1]:
        holder = holder.setdefault(key, {}) if isinstance(holder, dict) else holder
    if isinstance(holder, dict):
        holder[path[-1]] = draw(_WRONG)
    params = request.get("params")
    message = params.get("message") if isinstance(params, dict) else None
    if draw(st.booleans()) and isinstance(message, dict):
        parts = message.get("parts")
        if isinstance(parts, list) and parts:
            parts[0] = draw(_WRONG) if draw(st.booleans()) else {"kind": "text", "text": draw(_WRONG)}
    return json.dumps(request).encode()


@st.composite
def damaged_bodies(draw) -> bytes:
    """A valid request cut short or with some bytes overwritten."""
    body = bytearray(json.dumps(message_request(draw(st.sampled_from(_METHODS)))).encode())
    if draw(st.booleans()):
        return bytes(body[: draw(st.integers(0, len(body)))])
    for _ in range(draw(st.integers(1, 4))):
        body[draw(st.integers(0, len(body) - 1))] = draw(st.integers(0, 255))
    return bytes(body)


BODIES = st.one_of(
    deep_bodies(), huge_string_bodies(), wrong_type_bodies(), damaged_bodies(),
    st.binary(max_size=2_000),
)
HEADERS = st.lists(
    st.sampled_from([(b"accept", b"text/event-stream"), (b"a2a-version", b"1.0"),
                     (b"a2a-version", b"0.3"), (b"a2a-version", b"\xff\x00")]),
    max_size=2,
)


def _check(status: int, headers: dict, body: bytes) -> None:
    assert status < 500, (status, body[:300])
    assert status in (200, 204, 413), (status, body[:300])
    if status == 204:
        return
    content_type = headers.get(b"content-type", b"")
    payload = sse_payload(body) if content_type.startswith(b"text/event-stream") else json.loads(body)
    assert payload["jsonrpc"] == "2.0"
    assert ("result" in payload) != ("error" in payload)
    if "error" in payload:
        assert payload["error"]["code"] in (-32700, -32600, -32601, -32602, -32603, -32001,
                                            -32003, -32005, -32007, -32009)
        assert len(payload["error"]["message"]) < 1_000  # an error never echoes a huge body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@given(body=BODIES, headers=HEADERS)
def test_no_body_gets_a_server_error(body, headers):
    sent = _drive(APP, body, headers, chunk=1 << 16)
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    _check(sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"])
    assert APP._buffered == 0


@pytest.mark.parametrize("body", [
    b"[" * 200_000 + b"]" * 200_000,
    json.dumps(message_request()).replace('"hello"', "[" * 50_000 + "]" * 50_000).encode(),
    json.dumps(message_request("message/stream", text="\"a" * 200_000)).encode(),
    b"\xff\xfe\x00garbage",
    b'{"jsonrpc":"2.0","id":' + b"9" * 5_000 + b',"method":"message/send"}',
], ids=["deep-array", "deep-text", "huge-quoted-text", "binary", "huge-integer"])
def test_no_body_gets_a_server_error_over_the_wire(body):
    with background_server(make_app(respond)) as url:
        for accept in ("application/json", "text/event-stream"):
            response = httpx.post(url, content=body, timeout=30,
                                  headers={"Content-Type": "application/json", "Accept": accept})
            _check(response.status_code, {k.encode(): v.encode() for k, v in response.headers.items()},
                   response.content)
