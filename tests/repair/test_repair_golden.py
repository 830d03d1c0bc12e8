"""Golden repairs: one broken demo state per error family and per pairing.

``data/golden_plans.yaml`` holds, per case, the injections and the expected
minimal plan (edit descriptions and the emitted command line). Set
NETMEND_REGEN_GOLDEN=1 to rewrite the file after a deliberate change, then
review its diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from repair_helpers import broken, repair_towards_expected

from netmend.assess.k8s.inject import FAMILIES, Injection, draw_task
from netmend.repair.emit import plan_command

GOLDEN = Path(__file__).parent / "data" / "golden_plans.yaml"
# Cases beyond one draw per family: same-policy pairs, collateral, DNS off.
EXTRA = [
    ("same policy: remove_ingress+change_port", [Injection("remove_ingress", "shippingservice"), Injection("change_port", "shippingservice", port=4242)], True),
    ("same policy: change_port+change_protocol", [Injection("change_port", "emailservice", port=1234), Injection("change_protocol", "emailservice", protocol="SCTP")], True),
    ("same policy: add_ingress+remove_ingress", [Injection("remove_ingress", "cartservice"), Injection("add_ingress", "cartservice", apps=("adservice", "loadgenerator"))], True),
    ("add_egress with collateral (egress to frontend)", [Injection("add_egress", "cartservice", apps=("frontend", "emailservice"))], True),
    ("add_egress, DNS not modelled", [Injection("add_egress", "frontend", apps=("adservice", "cartservice"))], False),
    ("add_egress to a target, DNS not modelled", [Injection("add_egress", "cartservice", apps=("adservice", "emailservice"))], False),
]


def _cases(setup):
    out = []
    for family in FAMILIES:
        task = draw_task(family, 0, 7, setup.manifests, setup.facts)
        out.append((family, list(task.injections), True))
    return out + EXTRA


def _solve(setup, injections, dns):
    _, obs = broken(setup, *injections)
    plan, _ = repair_towards_expected(setup, obs, dns=dns)
    return {"edits": [e.describe() for e in plan.edits], "command": plan_command(plan)}


def _load():
    return {c["name"]: c for c in yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))}


def test_golden_file_covers_every_family_and_extra_case(setup):
    names = [name for name, _, _ in _cases(setup)]
    if os.environ.get("NETMEND_REGEN_GOLDEN"):
        cases = []
        for name, injections, dns in _cases(setup):
            cases.append({"name": name, "dns": dns, "injections": [i.as_dict() for i in injections], **_solve(setup, injections, dns)})
        GOLDEN.write_text(yaml.safe_dump(cases, sort_keys=False, width=10_000), encoding="utf-8")
    assert list(_load()) == names


@pytest.mark.parametrize("index", range(len(FAMILIES) + len(EXTRA)))
def test_golden_plan(setup, index):
    name, _, _ = _cases(setup)[index]
    case = _load()[name]
    injections = [
        Injection(d["type"], d["policy"], tuple(d.get("app", ())), d.get("new_port"), d.get("new_protocol"))
        for d in case["injections"]
    ]
    assert _solve(setup, injections, case["dns"]) == {"edits": case["edits"], "command": case["command"]}
