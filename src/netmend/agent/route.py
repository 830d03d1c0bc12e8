"""The Route part of the agent: NetArena Route prompts in, one bare JSON object out."""

from __future__ import annotations

import json

from netmend.route.participant import decide_parsed
from netmend.route.prompt import MARKER, PromptError, RoutePrompt, parse_prompt


def _parsed(text: str) -> RoutePrompt | None:
    if MARKER not in text:  # most requests are not Route turns: skip the refusal
        return None
    try:
        return parse_prompt(text)
    except PromptError:
        return None


def is_netarena_route_prompt(text: str) -> bool:
    """Whether ``text`` is a NetArena Route turn (a pingall after ``Pingall result:``)."""
    return _parsed(text) is not None


def _reply(prompt: RoutePrompt) -> str:
    """A prompt whose pingall names no router network still gets a JSON object
    (the evaluator retries anything else forever): no command, and why."""
    try:
        return decide_parsed(prompt).text()
    except PromptError as exc:
        return json.dumps({"machine": "", "command": "", "why": f"refused: {exc}"})


def respond_route(text: str) -> str:
    """The reply to one Route turn: ``{"machine", "command", "why"}`` and nothing else."""
    try:
        prompt = parse_prompt(text)
    except PromptError as exc:
        return json.dumps({"machine": "", "command": "", "why": f"refused: {exc}"})
    return _reply(prompt)


def route_reply(text: str) -> str | None:
    """The reply to ``text`` if it is a Route turn, else ``None`` (the prompt is parsed once)."""
    prompt = _parsed(text)
    return None if prompt is None else _reply(prompt)
