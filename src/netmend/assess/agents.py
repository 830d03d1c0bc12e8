"""The agent an assessment puts its prompts to: netmend in process, or any A2A agent by URL."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

Agent = Callable[[str], "str | None"]


def in_process_agent() -> Agent:
    """The agent's own entry point (the route a served agent takes)."""
    from netmend.agent import respond

    return respond


@contextlib.contextmanager
def chosen_agent(agent: Agent | None, url: str | None) -> Iterator[Agent]:
    """``agent`` when given, else the A2A agent at ``url`` (closed afterwards), else netmend in process."""
    if agent is not None:
        yield agent
        return
    if not url:
        yield in_process_agent()
        return
    from netmend.assess.a2a_client import SyncA2A

    remote = SyncA2A(url)
    try:
        yield remote
    finally:
        remote.close()
