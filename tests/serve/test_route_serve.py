"""``netmend serve`` answers NetArena Route prompts as the evaluator reads them: a bare JSON object."""

from __future__ import annotations

import asyncio
import json

from netmend.assess.route.envelopes import PROMPT_TYPES, wrap

from .serve_helpers import ask_like_the_evaluator
from .test_cli import netmend_serve

PINGALL = "p83_h1 -> X p83_r0 \np83_h2 -> X p83_r0 \np83_r0 -> p83_h1 p83_h2 \n*** Results: 33% dropped (4/6 received)\n"


def test_every_route_envelope_gets_one_bare_json_object_over_both_methods():
    prompts = [wrap(f"Pingall result:\n{PINGALL}\n", kind) for kind in PROMPT_TYPES]
    with netmend_serve() as (url, _):
        for streaming in (True, False):
            replies = asyncio.run(ask_like_the_evaluator(url, prompts, streaming=streaming))
            for kind, reply in zip(PROMPT_TYPES, replies, strict=True):
                data = json.loads(reply)  # no fences, no prose: the evaluator's json.loads
                assert isinstance(data, dict) and data["machine"] == "p83_r0", kind
                assert isinstance(data["command"], str) and "ping" not in data["command"], kind
            assert len({json.loads(r)["command"] for r in replies}) == 1  # the envelope does not matter
