"""The K8s route of the agent: NetArena K8s prompts in, one fenced command out."""

from __future__ import annotations

from netmend.k8s import demo_workloads
from netmend.repair.netarena import ONLINE_BOUTIQUE_DESCRIPTION, is_netarena_k8s_prompt, task_text
from netmend.repair.participant import decide


def is_k8s_prompt(text: str) -> bool:
    """Whether ``text`` is a NetArena K8s turn (the harness's status marker and policy talk)."""
    return is_netarena_k8s_prompt(text)


def respond_k8s(prompt: str) -> str:
    """The reply to one NetArena K8s turn: a read first, then the verified repair.

    NetArena's application is Online Boutique; when the task text is its
    description, its workloads stand in for the cluster's if the cluster's
    reads cannot list pods and services. Another application gets no stand-in.
    """
    known = demo_workloads() if ONLINE_BOUTIQUE_DESCRIPTION.strip() in task_text(prompt) else None
    return decide(prompt, known).reply()
