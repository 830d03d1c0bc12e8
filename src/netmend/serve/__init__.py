"""``netmend serve``: the A2A participant server.

The protocol is a thin edge around one injected function, ``responder(text) ->
reply text``:

* :mod:`netmend.serve.protocol` parses JSON-RPC / A2A requests and renders
  replies (pure);
* :mod:`netmend.serve.card` builds the agent card (pure);
* :mod:`netmend.serve.app` is the ASGI application (routing, limits);
* :mod:`netmend.serve.server` runs it on uvicorn (sockets, timeouts).
"""

from netmend.serve.app import A2AApp, Limits, Responder, make_app
from netmend.serve.card import CARD_PATHS, agent_card
from netmend.serve.server import ConnectionLimits, background_server, bind, default_card_url, serve

__all__ = [
    "CARD_PATHS",
    "A2AApp",
    "ConnectionLimits",
    "Limits",
    "Responder",
    "agent_card",
    "background_server",
    "bind",
    "default_card_url",
    "make_app",
    "serve",
]
