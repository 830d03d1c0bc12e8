"""Plan ranking: among verified plans, the one that restores the intended policies.

The probes cannot tell these plans apart; the intended policies can (the
assessment's whole-matrix check, :mod:`netmend.assess.k8s.intent`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from netmend.assess.k8s.harness import fuzz_tasks, run_task
from netmend.assess.k8s.run import setup_of
from netmend.repair.participant import decide

APPS = Path(__file__).parents[1] / "k8s" / "apps"


def _restored(app: str, families: list[str], per_type: int = 3) -> list[tuple[str, bool, tuple[str, ...]]]:
    setup = setup_of(str(APPS / app))
    out = []
    for task in fuzz_tasks(setup, per_type, 0, families):
        result = run_task(setup, task, lambda prompt, s=setup: decide(prompt, s.base).reply())
        assert result.success and result.safe, task.task_id
        out.append((task.task_id, bool(result.intent_restored), result.intent_diff))
    assert out, f"no {families} task in {app}"
    return out


@pytest.mark.parametrize(
    ("app", "family"),
    [
        # an except dropped: the named except restored, not the cidr shrunk to the probed client
        ("tiny-shop", "ipblock-except-changed"),
        ("iot", "ipblock-except-changed"),
        # a DNS rule's label key misspelt: the key restored, not a second DNS rule appended
        ("iot", "label-key"),
        ("iot", "peer-namespace-dropped"),
        # DNS's port changed: the stray port entry goes, not a second DNS rule beside it
        ("tiny-shop", "port-number"),
        ("bank", "port-number"),
        # a port range cut or lost: the range the task text names restored whole
        ("bank", "end-port-shrunk"),
        ("bank", "end-port-dropped"),
        ("bank", "rule-ports-dropped"),
        # an ipBlock peer lost: the network the task names, with its except, not the client's /32
        ("bank", "peer-removed"),
        ("tiny-shop", "rule-peers-dropped"),
    ],
)
def test_the_plan_restores_the_intended_policies(app, family):
    for task_id, restored, diff in _restored(app, [family]):
        assert restored, f"{task_id}: {diff}"
