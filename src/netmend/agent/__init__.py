"""The agent: one entry point from request text to reply text, no protocol inside.

:func:`respond` routes NetArena K8s prompts to the K8s repairer, Route prompts
to the router repairer (:mod:`netmend.route`) and
everything else to the MALT compiler; whatever cannot be answered gets a
clear refusal in words. It never raises for bad input.
"""

from __future__ import annotations

from netmend.agent.k8s import is_k8s_prompt, respond_k8s
from netmend.agent.malt import respond_malt, warm_malt
from netmend.agent.route import route_reply


def respond(text: str) -> str:
    """The reply to one request text (a NetArena MALT, K8s or Route prompt, or a plain request)."""
    if not isinstance(text, str) or not text or text.isspace():  # (no stripped copy)
        return "I received an empty request. Send a MALT request or a NetArena K8s prompt.\n"
    if is_k8s_prompt(text):
        return respond_k8s(text)
    reply = route_reply(text)
    return respond_malt(text) if reply is None else reply


def warm() -> None:
    """Build every cache the first answer would otherwise pay for (call before serving or timing)."""
    warm_malt()
