"""Emission: quoting, banned substrings, and the real kubectl as an oracle.

Every emitted patch, run by the real ``kubectl patch --local -f FILE
--type=json -p ... -o json``, must give the same object as the model's own
patch application (the versioned binary beside the wrapper: no network).
"""

from __future__ import annotations

import json
import shlex
import subprocess

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from repair_helpers import broken, repair_towards_expected

from netmend.assess.k8s.inject import FAMILIES, draw_task
from netmend.k8s.patch import patch_document
from netmend.repair.edits import AddRule, PeerSpec, PortSpec, apply_ops
from netmend.repair.emit import patch_command, plan_command, quote
from netmend.repair.netarena import BANNED_SUBSTRINGS, banned_in
from netmend.repair.planner import _patches


@given(st.text(alphabet="abhsuodt-_.'\" ", min_size=1, max_size=30))
@settings(max_examples=200)
def test_quote_round_trips_and_never_shows_a_banned_substring(word):
    quoted = quote(word)
    assert shlex.split(quoted) == [word]
    assert not banned_in(quoted)


def test_label_values_with_banned_words_are_emitted_safely():
    edit = AddRule("default", "web", "Ingress", peers=(PeerSpec((("app", "bash-sudo"),)),), ports=(PortSpec(80),))
    obj = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "web", "namespace": "default"},
           "spec": {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": []}}
    (patch,) = _patches({"default/web": obj}, [edit])
    line = patch_command(patch)
    assert not any(b in line for b in BANNED_SUBSTRINGS)
    words = shlex.split(line)
    assert json.loads(words[-1])[0]["value"]["from"][0]["podSelector"]["matchLabels"]["app"] == "bash-sudo"


def _family_plans(setup):
    for family in FAMILIES:
        for index in range(3):
            task = draw_task(family, index, 11, setup.manifests, setup.facts)
            _, obs = broken(setup, *task.injections)
            plan, _ = repair_towards_expected(setup, obs)
            yield family, plan


@pytest.mark.needs_kubectl
def test_emitted_patches_give_the_same_objects_under_the_real_kubectl(setup, kubectl, tmp_path):
    checked = 0
    for family, plan in _family_plans(setup):
        line = plan_command(plan)
        assert not banned_in(line)
        commands = line.split(" && ")
        assert len(commands) == len(plan.patches)
        for command, patch in zip(commands, plan.patches, strict=True):
            words = shlex.split(command)
            assert words[:3] == ["kubectl", "patch", "networkpolicy"]
            assert words[words.index("--type=json") + 2] == json.dumps(list(patch.ops), separators=(",", ":"))
            path = tmp_path / f"{patch.name}.yaml"
            path.write_text(yaml.safe_dump(patch.before), encoding="utf-8")
            done = subprocess.run(
                [kubectl, "patch", "--local", "-f", str(path), "--type=json", "-p", words[-1], "-o", "json"],
                capture_output=True, text=True, timeout=60, check=False,
            )
            assert done.returncode == 0, f"{family}: {done.stderr}"
            engine = patch_document(patch.before, words[-1], "json")  # the engine's own application
            assert json.loads(done.stdout) == engine == apply_ops(patch.before, list(patch.ops)) == patch.after
            checked += 1
    assert checked >= len(FAMILIES)


@pytest.mark.needs_kubectl
def test_a_stale_test_guard_makes_the_real_kubectl_refuse(setup, kubectl, tmp_path):
    _, plan = next(p for p in _family_plans(setup) if any(op["op"] == "test" for op in p[1].patches[0].ops))
    patch = plan.patches[0]
    changed = json.loads(json.dumps(patch.before))
    changed["spec"]["policyTypes"] = ["Ingress", "Egress"]
    field = next(op["path"] for op in patch.ops if op["op"] == "test").split("/")[2]
    changed["spec"][field] = [{"ports": [{"port": 1, "protocol": "TCP"}]}] + changed["spec"][field]
    path = tmp_path / "stale.yaml"
    path.write_text(yaml.safe_dump(changed), encoding="utf-8")
    done = subprocess.run(
        [kubectl, "patch", "--local", "-f", str(path), "--type=json", "-p", json.dumps(list(patch.ops)), "-o", "json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode != 0
