"""The four prompt envelopes of a Route turn, in our own words.

They keep what participants rely on: the instructions (a router with a
name prefix, the reply as a JSON object with ``machine`` and ``command``, no
ping, no sudo), optional worked examples whose pingalls are NOT preceded by
``Pingall result:``, and a closing line followed by the context: the earlier
turns' log and the newest pingall block.
"""

from __future__ import annotations

from netmend.assess.malt.envelopes import PROMPT_TYPES, PromptType

__all__ = ["PROMPT_TYPES", "wrap"]

_BASE = """
Act as a network engineer: find why a small routed network is broken and repair it.

A Mininet network has a Linux router r0 with a fault on it, so some nodes cannot reach others.
Repair it until every pair in the pingall succeeds, without breaking pairs that already work.
Look before you change things; change only what is wrong.

Answer with a JSON object holding the keys 'machine' and 'command': one command per answer,
since commands run one after another.

Notes:
- Node names carry a prefix (for example 'p29_r0', 'p29_h1', 'p29_r0-eth1'); it can be any prefix.
- No 'sudo', no 'vtysh', and no ping commands: the pingall is given to you.

Each turn you get the newest pingall, with your earlier commands and what they printed.
"""

_STEP_BY_STEP = "Reason step by step before you answer."
_EXAMPLES_INTRO = "Some pingalls and the commands that repaired them:"
_EXAMPLES = (
    (
        "p29_h1 -> X p29_r0 \np29_h2 -> X p29_r0 \np29_r0 -> p29_h1 p29_h2 \n*** Results: 33% dropped (4/6 received)",
        "machine: p29_r0\ncommand: sysctl -w net.ipv4.ip_forward=1",
    ),
    (
        "p29_h1 -> X X \np29_h2 -> X p29_r0 \np29_r0 -> X p29_h2 \n*** Results: 66% dropped (2/6 received)",
        "machine: p29_r0\ncommand: ip link set dev p29_r0-eth1 up",
    ),
)
_CLOSING = "Begin now. The connectivity so far:\n"


def wrap(context: str, prompt_type: str = PromptType.ZEROSHOT_BASE) -> str:
    """The whole prompt for ``context`` (earlier turns, then ``Pingall result:`` and the pingall)."""
    kind = PromptType(prompt_type)
    examples = [f"\nExample pingall:\n{q}\n\nAnswer:\n{a}\n" for q, a in _EXAMPLES]
    closing = _CLOSING + context
    if kind is PromptType.ZEROSHOT_COT:
        return "\n".join([_BASE, _STEP_BY_STEP, closing])
    if kind is PromptType.FEWSHOT_COT:
        return "\n".join([_BASE, _EXAMPLES_INTRO, *examples, closing])
    if kind is PromptType.FEWSHOT_BASE:
        return "\n".join([_BASE, *examples, closing])
    return _BASE + closing
