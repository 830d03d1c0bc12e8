"""The agent: one entry point from request text to reply text, no protocol inside.

:func:`respond` routes NetArena K8s prompts to the K8s repairer and
everything else to the MALT compiler; whatever cannot be answered gets a
clear refusal in words. It never raises for bad input.
"""

from __future__ import annotations

from netmend.agent.malt import respond_malt


def _k8s_route():
    try:
        from netmend.agent import k8s
    except ImportError:  # the K8s route is optional in a partial install
        return None
    return k8s


def respond(text: str) -> str:
    """The reply to one request text (a NetArena MALT or K8s prompt, or a plain request)."""
    if not isinstance(text, str) or not text.strip():
        return "I received an empty request. Send a MALT request or a NetArena K8s prompt.\n"
    k8s = _k8s_route()
    if k8s is not None and k8s.is_k8s_prompt(text):
        return k8s.respond_k8s(text)
    return respond_malt(text)
