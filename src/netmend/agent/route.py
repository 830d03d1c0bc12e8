"""The Route part of the agent: NetArena Route prompts in, one bare JSON object out."""

from __future__ import annotations

import json

from netmend.route.participant import decide
from netmend.route.prompt import MARKER, PromptError, is_route_prompt


def is_netarena_route_prompt(text: str) -> bool:
    """Whether ``text`` is a NetArena Route turn (a pingall after ``Pingall result:``)."""
    return MARKER in text and is_route_prompt(text)  # most requests are not: skip the refusal


def respond_route(text: str) -> str:
    """The reply to one Route turn: ``{"machine", "command", "why"}`` and nothing else.

    A prompt whose pingall names no router network still gets a JSON object
    (the evaluator retries anything else forever): no command, and why.
    """
    try:
        return decide(text).text()
    except PromptError as exc:
        return json.dumps({"machine": "", "command": "", "why": f"refused: {exc}"})
