"""JSON-RPC 2.0 and A2A message shapes: parse a request body, render the reply.

Pure: bytes and header values in, typed values or bytes out. No sockets, no
clocks, no randomness (identifiers come from an injected ``new_id``).

Two dialects share one endpoint. The JSON-RPC method name picks the dialect
(A2A 0.3 ``message/send``, ``message/stream``; A2A 1.0 ``SendMessage``,
``SendStreamingMessage``) and the ``A2A-Version`` header must agree with it:
an absent header means 0.3, as the A2A 1.0 specification prescribes.

Reply shapes, chosen on measurements of the evaluator's a2a-sdk 0.3.22 client
(see ``../shared/docs/a2a-wire.md``):

* non-streaming: one agent Message holding the reply text;
* streaming: ONE server-sent event holding a completed Task whose single
  artifact is the reply text. A streamed Message would make that client drop
  its connection after every call; a finished Task stream is read to its end,
  so the connection is kept.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class Dialect(enum.Enum):
    """The A2A protocol version a request is spoken in."""

    V0_3 = "0.3"
    V1_0 = "1.0"


class ErrorCode(enum.IntEnum):
    """JSON-RPC 2.0 and A2A error codes this server emits."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    TASK_NOT_FOUND = -32001
    PUSH_NOTIFICATION_NOT_SUPPORTED = -32003
    CONTENT_TYPE_NOT_SUPPORTED = -32005
    EXTENDED_CARD_NOT_CONFIGURED = -32007
    VERSION_NOT_SUPPORTED = -32009


RequestId = str | int | None


class RpcError(Exception):
    """A request that gets a JSON-RPC error object instead of a result.

    Parameters
    ----------
    code
        The JSON-RPC or A2A error code.
    message
        What was wrong and what was expected, for the client's user.
    request_id
        The request's ``id`` when it could be read, else ``None``.
    streaming
        Whether the error goes back as a server-sent event (the client asked
        for a stream) rather than as a plain JSON body.
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        request_id: RequestId = None,
        streaming: bool = False,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id
        self.streaming = streaming


@dataclass(frozen=True)
class MessageRequest:
    """A well-formed request carrying one user message to answer."""

    request_id: RequestId
    dialect: Dialect
    streaming: bool
    text: str
    context_id: str | None


@dataclass(frozen=True)
class Notification:
    """A request without ``id``: JSON-RPC 2.0 forbids any reply to it."""

    method: str


@dataclass(frozen=True)
class _Method:
    dialect: Dialect
    streaming: bool
    # None for methods that carry a message; otherwise the typed refusal of a
    # stateless agent (it keeps no tasks, pushes nothing, has no extended card).
    refusal: tuple[ErrorCode, str] | None = None


_NO_TASKS = (
    ErrorCode.TASK_NOT_FOUND,
    "task not found: this agent keeps no tasks; every reply arrives complete in the "
    "response to its message",
)
_NO_PUSH = (
    ErrorCode.PUSH_NOTIFICATION_NOT_SUPPORTED,
    "push notifications are not supported (agent card capabilities.pushNotifications is false)",
)
_NO_EXTENDED_CARD = (
    ErrorCode.EXTENDED_CARD_NOT_CONFIGURED,
    "this agent has no authenticated extended card; the public card is all there is",
)

_V03, _V10 = Dialect.V0_3, Dialect.V1_0

METHODS: Mapping[str, _Method] = {
    "message/send": _Method(_V03, False),
    "message/stream": _Method(_V03, True),
    "tasks/get": _Method(_V03, False, _NO_TASKS),
    "tasks/cancel": _Method(_V03, False, _NO_TASKS),
    "tasks/resubscribe": _Method(_V03, True, _NO_TASKS),
    "tasks/pushNotificationConfig/set": _Method(_V03, False, _NO_PUSH),
    "tasks/pushNotificationConfig/get": _Method(_V03, False, _NO_PUSH),
    "tasks/pushNotificationConfig/list": _Method(_V03, False, _NO_PUSH),
    "tasks/pushNotificationConfig/delete": _Method(_V03, False, _NO_PUSH),
    "agent/getAuthenticatedExtendedCard": _Method(_V03, False, _NO_EXTENDED_CARD),
    "SendMessage": _Method(_V10, False),
    "SendStreamingMessage": _Method(_V10, True),
    "GetTask": _Method(_V10, False, _NO_TASKS),
    "CancelTask": _Method(_V10, False, _NO_TASKS),
    "SubscribeToTask": _Method(_V10, True, _NO_TASKS),
    "CreateTaskPushNotificationConfig": _Method(_V10, False, _NO_PUSH),
    "GetTaskPushNotificationConfig": _Method(_V10, False, _NO_PUSH),
    "ListTaskPushNotificationConfigs": _Method(_V10, False, _NO_PUSH),
    "DeleteTaskPushNotificationConfig": _Method(_V10, False, _NO_PUSH),
    "GetExtendedAgentCard": _Method(_V10, False, _NO_EXTENDED_CARD),
}

# Per dialect: the role values a message may carry, and the output modes that
# accept plain text (an empty list accepts everything).
_ROLES = {_V03: ("user", "agent"), _V10: ("ROLE_USER", "ROLE_AGENT")}
_TEXT_OUTPUT_MODES = frozenset({"text", "text/plain", "text/*", "*/*"})
# A 1.0 Part holds exactly one of these content members.
_V10_PART_CONTENT = ("text", "raw", "url", "data")
_V03_PART_KINDS = ("text", "file", "data")


def negotiate_version(header: str | None) -> Dialect:
    """Map an ``A2A-Version`` header value to a dialect.

    An absent or empty header means 0.3. Only major and minor count, so
    ``1.0.2`` is 1.0.

    Raises
    ------
    RpcError
        VERSION_NOT_SUPPORTED for any other version.
    """
    value = (header or "").strip()
    if not value:
        return _V03
    parts = value.split(".")
    if len(parts) in (2, 3) and all(p.isdigit() for p in parts):
        major_minor = f"{int(parts[0])}.{int(parts[1])}"
        for dialect in Dialect:
            if dialect.value == major_minor:
                return dialect
    raise RpcError(
        ErrorCode.VERSION_NOT_SUPPORTED,
        f"A2A version {value!r} is not supported: this agent speaks 0.3 and 1.0",
    )


def parse_request(
    body: bytes, *, version_header: str | None, wants_stream: bool
) -> MessageRequest | Notification:
    """Validate one JSON-RPC request body and extract the user's text.

    Parameters
    ----------
    body
        The raw HTTP request body.
    version_header
        The ``A2A-Version`` header value, or ``None`` when absent.
    wants_stream
        Whether the client accepts ``text/event-stream``; decides how errors
        are framed before the method is known.

    Raises
    ------
    RpcError
        With the JSON-RPC or A2A code that names what was wrong.
    """
    try:
        envelope = json.loads(body)
    except (UnicodeDecodeError, ValueError) as exc:
        raise RpcError(
            ErrorCode.PARSE_ERROR,
            f"request body is not valid UTF-8 JSON: {_clip(str(exc))}",
            streaming=wants_stream,
        ) from None
    except RecursionError:
        # The decoder recurses once per nesting level; no A2A request nests deeply.
        raise RpcError(
            ErrorCode.PARSE_ERROR,
            "request body nests arrays or objects too deeply to parse; an A2A request "
            "needs only a few levels",
            streaming=wants_stream,
        ) from None
    if not isinstance(envelope, dict):
        what = "a batch (JSON array)" if isinstance(envelope, list) else type(envelope).__name__
        raise RpcError(
            ErrorCode.INVALID_REQUEST,
            f"expected one JSON-RPC request object, got {what}; batches are not supported",
            streaming=wants_stream,
        )
    request_id = envelope.get("id")
    method_name, params = envelope.get("method"), envelope.get("params")
    # bool is an int subclass, but it is not a valid JSON-RPC id.
    bad_id = isinstance(request_id, bool) or not isinstance(request_id, str | int | None)
    envelope_checks = (
        (bad_id, "'id' must be a string, an integer or null"),
        (envelope.get("jsonrpc") != "2.0", "'jsonrpc' must be exactly \"2.0\""),
        (not isinstance(method_name, str), "'method' must be a string"),
        (params is not None and not isinstance(params, dict | list), "'params' must be an object when present"),
    )
    for failed, problem in envelope_checks:
        if failed:
            raise RpcError(
                ErrorCode.INVALID_REQUEST,
                problem,
                request_id=None if bad_id else request_id,
                streaming=wants_stream,
            )
    if "id" not in envelope:
        return Notification(method_name)

    method = METHODS.get(method_name)
    if method is None:
        raise RpcError(
            ErrorCode.METHOD_NOT_FOUND,
            f"method {_clip(repr(method_name))} not found; send one of message/send, message/stream "
            "(A2A 0.3) or SendMessage, SendStreamingMessage (A2A 1.0)",
            request_id=request_id,
            streaming=wants_stream,
        )
    streaming = method.streaming
    try:
        dialect = negotiate_version(version_header)
    except RpcError as exc:
        exc.request_id, exc.streaming = request_id, streaming
        raise
    if dialect is not method.dialect:
        raise RpcError(
            ErrorCode.VERSION_NOT_SUPPORTED,
            f"method {_clip(repr(method_name))} belongs to A2A {method.dialect.value} but the request "
            f"speaks A2A {dialect.value} (header A2A-Version: {version_header or 'absent'}); "
            f"send A2A-Version: {method.dialect.value}",
            request_id=request_id,
            streaming=streaming,
        )
    if method.refusal is not None:
        code, message = method.refusal
        raise RpcError(code, message, request_id=request_id, streaming=streaming)
    try:
        text, context_id = _read_params(params, dialect)
    except _ParamsError as exc:
        raise RpcError(
            exc.code, str(exc), request_id=request_id, streaming=streaming
        ) from None
    return MessageRequest(request_id, dialect, streaming, text, context_id)


class _ParamsError(ValueError):
    def __init__(self, message: str, code: ErrorCode = ErrorCode.INVALID_PARAMS) -> None:
        super().__init__(message)
        self.code = code


def _read_params(params: Any, dialect: Dialect) -> tuple[str, str | None]:
    """Return the message's text and context id, or raise ``_ParamsError``."""
    if not isinstance(params, dict):
        raise _ParamsError("'params' must be an object holding 'message'")
    message = params.get("message")
    if not isinstance(message, dict):
        raise _ParamsError("'params.message' must be an object")
    if dialect is _V03 and message.get("kind", "message") != "message":
        raise _ParamsError("'params.message.kind' must be \"message\"")
    message_id = message.get("messageId")
    if not isinstance(message_id, str) or not message_id:
        raise _ParamsError("'params.message.messageId' must be a non-empty string")
    roles = _ROLES[dialect]
    if message.get("role") not in roles:
        raise _ParamsError(f"'params.message.role' must be one of {', '.join(roles)}")
    for key in ("contextId", "taskId"):
        if key in message and not isinstance(message[key], str | None):
            raise _ParamsError(f"'params.message.{key}' must be a string")
    if message.get("taskId"):
        raise _ParamsError(
            f"task {_clip(repr(message['taskId']))} not found: this agent keeps no tasks; "
            "send the message without taskId to start a new one",
            ErrorCode.TASK_NOT_FOUND,
        )
    parts = message.get("parts")
    if not isinstance(parts, list) or not parts:
        raise _ParamsError("'params.message.parts' must be a non-empty list")
    texts = [_part_text(part, i, dialect) for i, part in enumerate(parts)]
    _check_output_modes(params.get("configuration"))
    text_parts = [t for t in texts if t is not None]
    if not text_parts:
        raise _ParamsError(
            "the message has no text part; this agent reads text only",
            ErrorCode.CONTENT_TYPE_NOT_SUPPORTED,
        )
    return "\n".join(text_parts), message.get("contextId") or None


def _part_text(part: Any, index: int, dialect: Dialect) -> str | None:
    """The text of one part, ``None`` for a well-formed non-text part."""
    where = f"'params.message.parts[{index}]'"
    if not isinstance(part, dict):
        raise _ParamsError(f"{where} must be an object")
    if dialect is _V03:
        # The kind discriminator may be omitted; a 'text' member then decides.
        kind = part.get("kind", "text" if "text" in part else None)
        if kind not in _V03_PART_KINDS:
            raise _ParamsError(f"{where}.kind must be one of {', '.join(_V03_PART_KINDS)}")
        is_text = kind == "text"
    else:
        present = [key for key in _V10_PART_CONTENT if key in part]
        if len(present) != 1:
            raise _ParamsError(
                f"{where} must hold exactly one of {', '.join(_V10_PART_CONTENT)}"
            )
        is_text = present[0] == "text"
    if not is_text:
        return None
    text = part.get("text")
    if not isinstance(text, str):
        raise _ParamsError(f"{where}.text must be a string")
    return text


def _check_output_modes(configuration: Any) -> None:
    if configuration is None:
        return
    if not isinstance(configuration, dict):
        raise _ParamsError("'params.configuration' must be an object")
    modes = configuration.get("acceptedOutputModes")
    if modes is None:
        return
    if not isinstance(modes, list) or not all(isinstance(m, str) for m in modes):
        raise _ParamsError("'params.configuration.acceptedOutputModes' must be a list of strings")
    if modes and not _TEXT_OUTPUT_MODES.intersection(m.lower() for m in modes):
        raise _ParamsError(
            f"none of the accepted output modes {modes} takes plain text; "
            "this agent replies in text/plain",
            ErrorCode.CONTENT_TYPE_NOT_SUPPORTED,
        )


def _clip(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters, so an error never echoes a huge body back."""
    return text if len(text) <= limit else text[:limit] + "..."


def render_reply(request: MessageRequest, text: str, *, new_id: Callable[[], str]) -> bytes:
    """Serialize the agent's reply ``text`` in the request's dialect and framing.

    The same bytes as :func:`render_reply_generic`, from a scaffold rendered once per
    dialect and framing: only the request id, the new identifiers and the text are
    encoded per reply (each with ``json.dumps``), not the whole envelope.
    """
    scaffold, id_count = _SCAFFOLDS[request.dialect, request.streaming]
    context_id = request.context_id or new_id()
    fields = {"rid": _dumps(request.request_id), "ctx": _dumps(context_id), "text": _dumps(text)}
    for number in range(id_count):
        fields[f"id{number}"] = _dumps(new_id())
    return (scaffold % fields).encode("ascii")


def render_reply_generic(request: MessageRequest, text: str, *,
                         new_id: Callable[[], str]) -> bytes:
    """:func:`render_reply` built as one object and serialized whole (its scaffolds are
    made from this)."""
    context_id = request.context_id or new_id()
    if request.streaming:
        result: dict[str, Any] = _completed_task(request.dialect, text, context_id, new_id)
    else:
        result = _agent_message(request.dialect, text, context_id, new_id)
    if request.dialect is _V10:
        result = {"task" if request.streaming else "message": result}
    return _frame({"jsonrpc": "2.0", "id": request.request_id, "result": result}, request.streaming)


_dumps = json.JSONEncoder().encode  # compact for a scalar: no separators are written


def _scaffold(dialect: Dialect, streaming: bool) -> tuple[str, int]:
    """The reply of one dialect and framing as a ``%``-format over ``rid``, ``ctx``,
    ``text`` and ``id0``, ``id1``, ... (the new identifiers, in the order drawn)."""
    slots = iter(range(16))
    marks: list[str] = []

    def mark() -> str:
        marks.append(f"@@id{next(slots)}@@")
        return marks[-1]

    request = MessageRequest("@@rid@@", dialect, streaming, "@@text@@", "@@ctx@@")
    text = render_reply_generic(request, "@@text@@", new_id=mark).decode("ascii")
    text = text.replace("%", "%%")
    for name in ("rid", "ctx", "text", *(f"id{n}" for n in range(len(marks)))):
        quoted = f'"@@{name}@@"'
        if text.count(quoted) != 1:
            raise AssertionError(f"the {dialect.value} reply scaffold must hold {name} once")
        text = text.replace(quoted, f"%({name})s")
    if "@@" in text:
        raise AssertionError("a reply scaffold kept a marker")
    return text, len(marks)


def render_error(error: RpcError) -> bytes:
    """Serialize a JSON-RPC error response, framed as the client expects."""
    payload = {
        "jsonrpc": "2.0",
        "id": error.request_id,
        "error": {"code": int(error.code), "message": error.message},
    }
    return _frame(payload, error.streaming)


def _agent_message(
    dialect: Dialect, text: str, context_id: str, new_id: Callable[[], str]
) -> dict[str, Any]:
    if dialect is _V03:
        return {
            "kind": "message",
            "role": "agent",
            "messageId": new_id(),
            "contextId": context_id,
            "parts": [{"kind": "text", "text": text}],
        }
    return {
        "messageId": new_id(),
        "contextId": context_id,
        "role": "ROLE_AGENT",
        "parts": [{"text": text}],
    }


def _completed_task(
    dialect: Dialect, text: str, context_id: str, new_id: Callable[[], str]
) -> dict[str, Any]:
    if dialect is _V03:
        return {
            "kind": "task",
            "id": new_id(),
            "contextId": context_id,
            "status": {"state": "completed"},
            "artifacts": [
                {"artifactId": new_id(), "name": "reply", "parts": [{"kind": "text", "text": text}]}
            ],
        }
    return {
        "id": new_id(),
        "contextId": context_id,
        "status": {"state": "TASK_STATE_COMPLETED"},
        "artifacts": [{"artifactId": new_id(), "name": "reply", "parts": [{"text": text}]}],
    }


def _frame(payload: dict[str, Any], streaming: bool) -> bytes:
    # Compact JSON never contains a raw newline, so one ``data:`` line holds it.
    data = json.dumps(payload, separators=(",", ":")).encode()
    return b"data: " + data + b"\n\n" if streaming else data


_SCAFFOLDS = {(dialect, streaming): _scaffold(dialect, streaming)
              for dialect in Dialect for streaming in (False, True)}
