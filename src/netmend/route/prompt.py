"""NetArena Route prompts: the newest pingall and the turns before it.

Every prompt ends with the newest pingall after a ``Pingall result:`` line;
before it, within the evaluator's context window, come the earlier turns:
each a pingall block, then ``Machine:``, ``Command:`` (possibly several
lines long), ``Packet Loss:`` (and ``Elapsed Time:``), then, when the
command ran, ``Command Output:`` and its output. Worked examples in few-shot envelopes carry pingall text too, but
never after a ``Pingall result:`` line, so they are never read as state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from netmend.route.pingall import Pingall, PingallError

MARKER = "Pingall result:"
# A command may span lines (a long program's text inside its quotes).
_ENTRY = re.compile(
    r"^Machine: (?P<machine>.*?)[ \t]*\nCommand: (?P<command>(?s:.*?))[ \t]*\nPacket Loss: (?P<loss>\d+)%",
    re.MULTILINE,
)
_OUTPUT = re.compile(r"^Command Output:[ \t]*\n", re.MULTILINE)


class PromptError(ValueError):
    """A prompt that is not a NetArena Route turn."""


@dataclass(frozen=True)
class Turn:
    """One earlier turn: what was asked to run, the loss before it, and its output if it ran."""

    machine: str
    command: str
    loss: int
    output: str | None


@dataclass(frozen=True)
class RoutePrompt:
    pingall: Pingall
    turns: tuple[Turn, ...]


def is_route_prompt(text: str) -> bool:
    """Whether ``text`` is a NetArena Route turn (ends with a pingall after the marker)."""
    try:
        parse_prompt(text)
    except PromptError:
        return False
    return True


def parse_prompt(text: str) -> RoutePrompt:
    """The newest pingall and the earlier turns of a Route prompt."""
    if not isinstance(text, str) or MARKER not in text:
        raise PromptError(f"no {MARKER!r} line: not a NetArena Route prompt")
    chunks = text.replace("\r\n", "\n").split(MARKER)[1:]
    try:
        pingall = Pingall.parse(chunks[-1])
    except PingallError as exc:
        raise PromptError(f"the newest pingall does not parse: {exc}") from None
    turns = []
    for chunk in chunks[:-1]:
        entry = _ENTRY.search(chunk)
        if entry is None:
            continue
        rest = chunk[entry.end() :]
        output = _OUTPUT.search(rest)
        turns.append(
            Turn(
                entry["machine"],
                entry["command"],
                int(entry["loss"]),
                rest[output.end() :].rstrip("\n") if output else None,
            )
        )
    return RoutePrompt(pingall, tuple(turns))
