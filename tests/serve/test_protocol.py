"""JSON-RPC parsing and A2A rendering, without sockets."""

from __future__ import annotations

import itertools
import json

import pytest
from a2a.types import (
    JSONRPCErrorResponse,
    SendMessageSuccessResponse,
    SendStreamingMessageSuccessResponse,
)
from hypothesis import given
from hypothesis import strategies as st

from netmend.serve.protocol import (
    METHODS,
    Dialect,
    ErrorCode,
    MessageRequest,
    Notification,
    RpcError,
    negotiate_version,
    parse_request,
    render_error,
    render_reply,
    render_reply_generic,
)


def _v03(method="message/send", *, parts=None, **message_extra):
    message = {
        "kind": "message",
        "messageId": "m1",
        "role": "user",
        "parts": parts if parts is not None else [{"kind": "text", "text": "hello"}],
        **message_extra,
    }
    return {
        "jsonrpc": "2.0",
        "id": "r1",
        "method": method,
        "params": {"configuration": {"acceptedOutputModes": [], "blocking": True}, "message": message},
    }


def _v10(method="SendMessage", *, parts=None):
    message = {"messageId": "m1", "role": "ROLE_USER", "parts": parts or [{"text": "hello"}]}
    return {"jsonrpc": "2.0", "id": 7, "method": method, "params": {"message": message, "configuration": {}}}


def _parse(payload, *, version=None, wants_stream=False):
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return parse_request(body, version_header=version, wants_stream=wants_stream)


def _error(payload, **kwargs) -> RpcError:
    with pytest.raises(RpcError) as caught:
        _parse(payload, **kwargs)
    return caught.value


def _ids():
    counter = itertools.count(1)
    return lambda: f"id-{next(counter)}"


# --- well-formed requests -------------------------------------------------


def test_evaluator_request_bytes_parse_to_the_user_text():
    # The exact body the evaluator's a2a-sdk 0.3.22 client sends (a2a-wire.md, section 3).
    body = (
        b'{"id":"ff70b66d-33d4-4f41-ad68-5840f5057cc8","jsonrpc":"2.0","method":"message/stream",'
        b'"params":{"configuration":{"acceptedOutputModes":[],"blocking":true},"message":{"kind":'
        b'"message","messageId":"42ecc8f84d0641e4959146307265c26d","parts":[{"kind":"text","text":'
        b'"What is 6*7?"}],"role":"user"}}}'
    )
    request = parse_request(body, version_header=None, wants_stream=True)
    assert request == MessageRequest(
        "ff70b66d-33d4-4f41-ad68-5840f5057cc8", Dialect.V0_3, True, "What is 6*7?", None
    )


@pytest.mark.parametrize(
    ("payload", "version", "dialect", "streaming"),
    [
        (_v03("message/send"), None, Dialect.V0_3, False),
        (_v03("message/stream"), "0.3", Dialect.V0_3, True),
        (_v10("SendMessage"), "1.0", Dialect.V1_0, False),
        (_v10("SendStreamingMessage"), "1.0.1", Dialect.V1_0, True),
    ],
)
def test_each_message_method_maps_to_its_dialect(payload, version, dialect, streaming):
    request = _parse(payload, version=version)
    assert (request.dialect, request.streaming, request.text) == (dialect, streaming, "hello")


def test_text_parts_are_joined_and_other_parts_skipped():
    parts = [
        {"kind": "text", "text": "first"},
        {"kind": "data", "data": {"a": 1}},
        {"text": "second"},  # the kind discriminator may be omitted
    ]
    assert _parse(_v03(parts=parts)).text == "first\nsecond"
    v10_parts = [{"text": "a"}, {"data": {"x": 1}}, {"text": "b"}]
    assert _parse(_v10(parts=v10_parts), version="1.0").text == "a\nb"


def test_context_id_is_kept():
    assert _parse(_v03(contextId="ctx-9")).context_id == "ctx-9"


def test_a_request_without_id_is_a_notification():
    payload = _v03()
    del payload["id"]
    assert _parse(payload) == Notification("message/send")


def test_integer_and_null_ids_are_accepted():
    payload = _v03()
    for request_id in (0, 12, None):
        payload["id"] = request_id
        assert _parse(payload).request_id == request_id


# --- every error code -----------------------------------------------------


@pytest.mark.parametrize("body", [b"{", b"not json", b"\xff\xfe", b""])
def test_unparsable_body_is_a_parse_error(body):
    error = _error(body)
    assert (error.code, error.request_id) == (ErrorCode.PARSE_ERROR, None)


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda p: [p], "batch"),
        (lambda p: "text", "str"),
        (lambda p: {**p, "jsonrpc": "1.0"}, "jsonrpc"),
        (lambda p: {k: v for k, v in p.items() if k != "jsonrpc"}, "jsonrpc"),
        (lambda p: {**p, "method": 5}, "method"),
        (lambda p: {**p, "id": True}, "id"),
        (lambda p: {**p, "id": {"a": 1}}, "id"),
        (lambda p: {**p, "params": "x"}, "params"),
    ],
)
def test_malformed_envelopes_are_invalid_requests(mutate, fragment):
    error = _error(mutate(_v03()))
    assert error.code == ErrorCode.INVALID_REQUEST
    assert fragment in error.message


def test_unknown_method_is_method_not_found_and_names_the_alternatives():
    error = _error({**_v03(), "method": "message/sendd"})
    assert error.code == ErrorCode.METHOD_NOT_FOUND
    assert error.request_id == "r1"
    assert "message/send" in error.message and "SendMessage" in error.message


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        (None, "'params'"),
        ([], "'params'"),
        ({}, "'params.message'"),
        ({"message": "hi"}, "'params.message'"),
        ({"message": {"kind": "task", "messageId": "m", "role": "user", "parts": [{"text": "x"}]}}, "kind"),
        ({"message": {"role": "user", "parts": [{"text": "x"}]}}, "messageId"),
        ({"message": {"messageId": "", "role": "user", "parts": [{"text": "x"}]}}, "messageId"),
        ({"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}]}}, "role"),
        ({"message": {"messageId": "m", "role": "user", "parts": []}}, "parts"),
        ({"message": {"messageId": "m", "role": "user", "parts": ["x"]}}, "parts[0]"),
        ({"message": {"messageId": "m", "role": "user", "parts": [{"kind": "image"}]}}, "kind"),
        ({"message": {"messageId": "m", "role": "user", "parts": [{"kind": "text", "text": 3}]}}, "text"),
        ({"message": {"messageId": "m", "role": "user", "contextId": 5, "parts": [{"text": "x"}]}}, "contextId"),
        (
            {"message": {"messageId": "m", "role": "user", "parts": [{"text": "x"}]}, "configuration": []},
            "configuration",
        ),
        (
            {
                "message": {"messageId": "m", "role": "user", "parts": [{"text": "x"}]},
                "configuration": {"acceptedOutputModes": "text"},
            },
            "acceptedOutputModes",
        ),
    ],
)
def test_bad_params_are_invalid_params(params, fragment):
    payload = {"jsonrpc": "2.0", "id": "p", "method": "message/send"}
    if params is not None:
        payload["params"] = params
    error = _error(payload)
    assert (error.code, error.request_id) == (ErrorCode.INVALID_PARAMS, "p")
    assert fragment in error.message


def test_v10_part_must_hold_exactly_one_content_member():
    error = _error(_v10(parts=[{"text": "a", "data": {}}]), version="1.0")
    assert error.code == ErrorCode.INVALID_PARAMS
    assert "exactly one" in error.message


def test_message_without_text_is_content_type_not_supported():
    error = _error(_v03(parts=[{"kind": "data", "data": {"a": 1}}]))
    assert error.code == ErrorCode.CONTENT_TYPE_NOT_SUPPORTED


def test_output_modes_without_text_are_content_type_not_supported():
    payload = _v03()
    payload["params"]["configuration"]["acceptedOutputModes"] = ["image/png"]
    assert _error(payload).code == ErrorCode.CONTENT_TYPE_NOT_SUPPORTED
    payload["params"]["configuration"]["acceptedOutputModes"] = ["image/png", "text/plain"]
    assert _parse(payload).text == "hello"


def test_a_task_id_is_refused_because_no_tasks_are_kept():
    error = _error(_v03(taskId="t-1"))
    assert error.code == ErrorCode.TASK_NOT_FOUND
    assert "t-1" in error.message


@pytest.mark.parametrize(
    ("method", "version", "code"),
    [
        ("tasks/get", None, ErrorCode.TASK_NOT_FOUND),
        ("tasks/resubscribe", None, ErrorCode.TASK_NOT_FOUND),
        ("tasks/pushNotificationConfig/set", None, ErrorCode.PUSH_NOTIFICATION_NOT_SUPPORTED),
        ("agent/getAuthenticatedExtendedCard", None, ErrorCode.EXTENDED_CARD_NOT_CONFIGURED),
        ("GetTask", "1.0", ErrorCode.TASK_NOT_FOUND),
        ("CreateTaskPushNotificationConfig", "1.0", ErrorCode.PUSH_NOTIFICATION_NOT_SUPPORTED),
        ("GetExtendedAgentCard", "1.0", ErrorCode.EXTENDED_CARD_NOT_CONFIGURED),
    ],
)
def test_protocol_methods_of_a_stateless_agent_get_typed_refusals(method, version, code):
    error = _error({"jsonrpc": "2.0", "id": 1, "method": method, "params": {"id": "t"}}, version=version)
    assert error.code == code
    assert error.streaming == METHODS[method].streaming


# --- A2A-Version header rules ---------------------------------------------


@pytest.mark.parametrize(("header", "dialect"), [(None, Dialect.V0_3), ("", Dialect.V0_3), (" 0.3 ", Dialect.V0_3), ("0.3.0", Dialect.V0_3), ("1.0", Dialect.V1_0), ("1.0.5", Dialect.V1_0)])
def test_version_header_negotiation(header, dialect):
    assert negotiate_version(header) is dialect


@pytest.mark.parametrize("header", ["2.0", "0.2", "1", "1.0.0.0", "v1.0", "latest"])
def test_unknown_versions_are_not_supported(header):
    with pytest.raises(RpcError) as caught:
        negotiate_version(header)
    assert caught.value.code == ErrorCode.VERSION_NOT_SUPPORTED


def test_v10_method_without_version_header_is_refused_like_the_sdk():
    error = _error(_v10("SendMessage"))
    assert (error.code, error.request_id) == (ErrorCode.VERSION_NOT_SUPPORTED, 7)
    assert "A2A-Version: 1.0" in error.message


def test_v03_method_under_a_1_0_header_is_refused():
    error = _error(_v03("message/stream"), version="1.0")
    assert error.code == ErrorCode.VERSION_NOT_SUPPORTED
    assert error.streaming


def test_unsupported_header_on_a_known_method_keeps_the_request_id():
    error = _error(_v03("message/stream"), version="3.1")
    assert (error.code, error.request_id, error.streaming) == (ErrorCode.VERSION_NOT_SUPPORTED, "r1", True)


# --- rendering, checked against the a2a-sdk 0.3.22 response models ---------


def test_v03_send_reply_is_an_agent_message_the_sdk_accepts():
    body = render_reply(_parse(_v03()), "the answer", new_id=_ids())
    response = SendMessageSuccessResponse.model_validate_json(body)
    assert response.id == "r1"
    assert response.result.kind == "message" and response.result.role.value == "agent"
    assert response.result.parts[0].root.text == "the answer"


def test_v03_stream_reply_is_one_sse_event_with_a_completed_task():
    body = render_reply(_parse(_v03("message/stream", contextId="c7")), "the answer", new_id=_ids())
    assert body.startswith(b"data: ") and body.endswith(b"\n\n") and body.count(b"\n") == 2
    response = SendStreamingMessageSuccessResponse.model_validate_json(body[len(b"data: ") :])
    task = response.result
    assert (task.kind, task.status.state.value, task.context_id) == ("task", "completed", "c7")
    assert [p.root.text for p in task.artifacts[-1].parts] == ["the answer"]


def test_v10_replies_wrap_message_and_task():
    ids = _ids()
    send = json.loads(render_reply(_parse(_v10(), version="1.0"), "x", new_id=ids))
    assert send["result"]["message"]["role"] == "ROLE_AGENT"
    assert send["result"]["message"]["parts"] == [{"text": "x"}]
    stream = render_reply(_parse(_v10("SendStreamingMessage"), version="1.0"), "y", new_id=ids)
    task = json.loads(stream[len(b"data: ") :])["result"]["task"]
    assert task["status"] == {"state": "TASK_STATE_COMPLETED"}
    assert task["artifacts"][0]["parts"] == [{"text": "y"}]


def test_rendering_is_deterministic_given_the_ids():
    request = _parse(_v03("message/stream"))
    assert render_reply(request, "z", new_id=_ids()) == render_reply(request, "z", new_id=_ids())


def test_errors_render_as_json_or_as_an_sse_event():
    plain = render_error(RpcError(ErrorCode.METHOD_NOT_FOUND, "nope", request_id="1"))
    parsed = JSONRPCErrorResponse.model_validate_json(plain)
    assert (parsed.error.code, parsed.error.message, parsed.id) == (-32601, "nope", "1")
    framed = render_error(RpcError(ErrorCode.PARSE_ERROR, "bad", streaming=True))
    assert framed == b'data: {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}\n\n'


# --- properties -------------------------------------------------------------


@given(st.binary(max_size=300))
def test_any_bytes_either_parse_or_raise_a_typed_error(body):
    try:
        parse_request(body, version_header=None, wants_stream=False)
    except RpcError as error:
        assert error.code in set(ErrorCode)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)


@given(
    st.fixed_dictionaries(
        {"jsonrpc": st.just("2.0"), "id": st.text(max_size=4), "method": st.sampled_from(sorted(METHODS))},
        optional={"params": _json},
    ),
    st.sampled_from([None, "0.3", "1.0", "9.9"]),
)
def test_any_json_envelope_either_parses_or_raises_a_typed_error(payload, version):
    try:
        parse_request(json.dumps(payload).encode(), version_header=version, wants_stream=False)
    except RpcError as error:
        assert error.request_id == payload["id"]


@given(st.text(min_size=1))
def test_reply_text_survives_the_round_trip(text):
    for payload, version in ((_v03("message/stream"), None), (_v10(), "1.0")):
        request = _parse(payload, version=version)
        body = render_reply(request, text, new_id=_ids())
        if request.streaming:
            assert body.count(b"\n") == 2  # one SSE line, whatever the text holds
            body = body[len(b"data: ") :]
        result = json.loads(body)["result"]
        reply = result["artifacts"][0] if "artifacts" in result else result["message"]
        assert reply["parts"][0]["text"] == text


@given(
    st.sampled_from(list(Dialect)), st.booleans(),
    st.one_of(st.none(), st.integers(), st.text(max_size=12)),
    st.one_of(st.none(), st.text(max_size=12)), st.text(max_size=60),
)
def test_the_scaffolded_reply_is_the_serialized_reply_byte_for_byte(
        dialect, streaming, request_id, context_id, text):
    request = MessageRequest(request_id, dialect, streaming, "question", context_id)
    def awkward_ids():  # ids with a % and a quote in them, drawn in order
        numbers = itertools.count()
        return lambda: f"id-{next(numbers)}-%s\""

    assert render_reply(request, text, new_id=awkward_ids()) == render_reply_generic(
        request, text, new_id=awkward_ids())
