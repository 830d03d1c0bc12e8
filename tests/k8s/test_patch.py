"""Patches: unit cases, and the real ``kubectl patch --local`` as an oracle."""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from k8s_strategies import policies

from netmend.k8s import (
    ManifestError,
    PatchError,
    apply_patch,
    demo_cluster,
    demo_policies,
    parse_policy,
    patch_cluster,
    policy_to_dict,
)

CART = next(p for p in demo_policies() if p.name == "cartservice")

# (patch type, patch): a table of edits a repair would make, and mistakes.
CASES = [
    ("json", [{"op": "replace", "path": "/spec/ingress/0/ports/0/port", "value": 7071}]),
    ("json", [{"op": "remove", "path": "/spec/ingress/0"}]),
    ("json", [{"op": "remove", "path": "/spec/ingress/0/from/1"}]),
    ("json", [{"op": "add", "path": "/spec/ingress/0/from/-", "value": {"podSelector": {"matchLabels": {"app": "x"}}}}]),
    ("json", [{"op": "add", "path": "/spec/ingress/-", "value": {"ports": [{"port": 1, "endPort": 9}]}}]),
    ("json", [{"op": "replace", "path": "/spec/ingress/0/ports/0/protocol", "value": "UDP"}]),
    ("json", [{"op": "test", "path": "/spec/ingress/0/ports/0/port", "value": 7070}, {"op": "replace", "path": "/spec/ingress/0/ports/0/port", "value": 1}]),
    ("json", [{"op": "test", "path": "/spec/ingress/0/ports/0/port", "value": 1}]),
    ("json", [{"op": "remove", "path": "/spec/egress/3"}]),
    ("json", [{"op": "replace", "path": "/spec/nosuch/0", "value": 1}]),
    ("json", [{"op": "move", "from": "/spec/ingress/0/from/0", "path": "/spec/ingress/0/from/-"}]),
    ("json", [{"op": "copy", "from": "/spec/ingress/0", "path": "/spec/ingress/1"}]),
    ("json", [{"op": "add", "path": "/spec/ingress/0/ports/0/port", "value": "grpc"}]),
    ("json", [{"op": "replace", "path": "/spec/policyTypes", "value": ["Egress"]}]),
    ("json", [{"op": "remove", "path": "/spec/policyTypes"}]),
    ("json", [{"op": "replace", "path": "/spec/ingress/0/ports/0/port", "value": 0}]),
    ("merge", {"spec": {"ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "frontend"}}}]}]}}),
    ("merge", {"spec": {"ingress": None}}),
    ("merge", {"spec": {"podSelector": {"matchLabels": {"tier": "x"}}}}),
    ("merge", {"spec": {"podSelector": {"matchLabels": {"app": None}}}}),
    ("merge", {"metadata": {"labels": {"owner": "ops"}}}),
    ("strategic", {"spec": {"egress": [{"to": [{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.1.0.0/16"]}}]}]}}),
    ("strategic", {"spec": {"ingress": [{"ports": [{"port": 7070}]}], "policyTypes": ["Ingress"]}}),
    ("strategic", {"spec": {"podSelector": {"$patch": "replace", "matchLabels": {"x": "y"}}}}),
    ("strategic", {"spec": {"podSelector": {"$patch": "delete"}}}),
    ("strategic", {"spec": {"ingress": [{"$patch": "replace", "ports": []}]}}),
    ("strategic", {"spec": {"ingress": [{"ports": [{"port": 70000}]}]}}),
    ("strategic", {"spec": {"ingres": []}}),
    ("strategic", {"metadata": {"name": "renamed"}}),
]  # fmt: skip


# Empty forms the model does not keep apart from absence (they mean the same).
_EMPTY_MEANS_ABSENT = frozenset(
    {"matchLabels", "matchExpressions", "except", "labels", "annotations"}
)


def canonical(obj):
    """``obj`` without the empty fields listed above."""
    if isinstance(obj, dict):
        return {
            k: canonical(v)
            for k, v in obj.items()
            if not (k in _EMPTY_MEANS_ABSENT and v in ({}, []))
        }
    if isinstance(obj, list):
        return [canonical(v) for v in obj]
    return obj


def ours(policy, patch_type, patch):
    try:
        return policy_to_dict(apply_patch(policy, patch, patch_type))
    except PatchError:
        return None


def kubectl_patch(kubectl, tmp_path, policy, patch_type, patch):
    """The patched object per kubectl, or None when kubectl refuses or the result is no valid policy."""
    source = tmp_path / "policy.yaml"
    source.write_text(yaml.safe_dump(policy_to_dict(policy)), encoding="utf-8")
    proc = subprocess.run(
        [
            kubectl,
            "patch",
            "--local",
            "-f",
            str(source),
            f"--type={patch_type}",
            "-p",
            json.dumps(patch),
            "-o",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if proc.returncode != 0:
        return None
    result = json.loads(proc.stdout)
    # A missing spec or podSelector is the empty selector; the model always writes it.
    spec = result.setdefault("spec", {})
    if isinstance(spec, dict):
        spec.setdefault("podSelector", {})
    try:
        parsed = parse_policy(result)
    except ManifestError:
        return None  # kubectl --local does not validate; the API server would refuse it
    return canonical(result) if parsed.key == policy.key else None


@pytest.mark.needs_kubectl
@pytest.mark.parametrize(
    ("patch_type", "patch"), CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)]
)
def test_patch_agrees_with_kubectl(kubectl, tmp_path, patch_type, patch):
    assert ours(CART, patch_type, patch) == kubectl_patch(
        kubectl, tmp_path, CART, patch_type, patch
    )


def _random_json_patch(draw_policy):
    doc = policy_to_dict(draw_policy)
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{path}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}/{i}")

    walk(doc["spec"], "/spec")
    return paths


@st.composite
def policy_and_json_patch(draw):
    policy = draw(policies("web"))
    paths = _random_json_patch(policy)
    op = draw(st.sampled_from(("remove", "replace", "add", "test", "copy", "move")))
    path = draw(st.sampled_from(paths))
    value = draw(st.sampled_from([[], {}, "TCP", "UDP", 80, "http", [{}], {"port": 53}, None]))
    if op in ("copy", "move"):
        patch = [{"op": op, "from": draw(st.sampled_from(paths)), "path": path}]
    elif op == "remove":
        patch = [{"op": op, "path": path}]
    else:
        patch = [{"op": op, "path": path, "value": value}]
    return policy, patch


@pytest.mark.needs_kubectl
@settings(max_examples=40, derandomize=True, database=None, deadline=None)
@given(case=policy_and_json_patch())
def test_random_json_patches_agree_with_kubectl(kubectl, tmp_path_factory, case):
    policy, patch = case
    tmp = tmp_path_factory.mktemp("patch")
    assert ours(policy, "json", patch) == kubectl_patch(kubectl, tmp, policy, "json", patch)


def test_json_patch_returns_a_new_policy_and_keeps_the_old():
    patched = apply_patch(
        CART, [{"op": "replace", "path": "/spec/ingress/0/ports/0/port", "value": 1}], "json"
    )
    assert patched.ingress[0].ports[0].port == 1
    assert CART.ingress[0].ports[0].port == 7070


@pytest.mark.parametrize(
    ("patch_type", "patch", "message"),
    [
        ("json", [{"op": "test", "path": "/spec/policyTypes/0", "value": "Egress"}], "test"),
        ("json", [{"op": "remove", "path": "/spec/egress/5"}], "JSON patch failed"),
        ("json", {"op": "remove"}, "list of operations"),
        ("json", [{"path": "/spec"}], "JSON patch"),
        ("merge", [], "JSON object"),
        (
            "strategic",
            {"spec": {"ingress": [{"ports": [{"port": "Not A Name"}]}]}},
            "spec.ingress\\[0\\].ports\\[0\\].port",
        ),
        ("strategic", {"metadata": {"namespace": "other"}}, "cannot rename"),
        ("strategic", {"spec": {"$setElementOrder/ingress": []}}, "directive"),
        ("xml", {}, "expected one of json, merge, strategic"),
    ],
)
def test_patch_errors_are_typed(patch_type, patch, message):
    with pytest.raises(PatchError, match=message):
        apply_patch(CART, patch, patch_type)


def test_patch_text_may_be_json_or_yaml():
    as_json = apply_patch(CART, '{"spec": {"policyTypes": ["Ingress"]}}', "merge")
    as_yaml = apply_patch(CART, "spec:\n  policyTypes: [Ingress]\n", "merge")
    assert as_json == as_yaml and as_json.effective_types == ("Ingress",)


def test_patch_cluster_leaves_the_cluster_untouched_on_error():
    cluster = demo_cluster()
    with pytest.raises(PatchError):
        patch_cluster(cluster, "cartservice", [{"op": "remove", "path": "/spec/nosuch"}], "json")
    with pytest.raises(PatchError, match="no NetworkPolicy default/nosuch"):
        patch_cluster(cluster, "nosuch", {}, "merge")
    patched = patch_cluster(cluster, "cartservice", {"spec": {"ingress": []}}, "merge")
    assert patched.policy("cartservice").ingress == ()
    assert cluster.policy("cartservice") == CART
    assert [p.name for p in patched.policies] == [p.name for p in cluster.policies]


@st.composite
def policy_and_merge_patch(draw):
    policy = draw(policies("web"))
    donor = policy_to_dict(draw(policies("web")))["spec"]
    spec_patch = {}
    for key in draw(
        st.sets(st.sampled_from(("podSelector", "policyTypes", "ingress", "egress")), min_size=1)
    ):
        spec_patch[key] = draw(
            st.sampled_from([None, donor.get(key), {"matchLabels": {"app": None}}])
        )
    return policy, {"spec": spec_patch}


@pytest.mark.needs_kubectl
@settings(max_examples=25, derandomize=True, database=None, deadline=None)
@given(case=policy_and_merge_patch(), patch_type=st.sampled_from(("merge", "strategic")))
def test_random_merge_patches_agree_with_kubectl(kubectl, tmp_path_factory, case, patch_type):
    policy, patch = case
    tmp = tmp_path_factory.mktemp("patch")
    assert ours(policy, patch_type, patch) == kubectl_patch(kubectl, tmp, policy, patch_type, patch)
