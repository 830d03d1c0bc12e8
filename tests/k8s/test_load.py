"""Reading files and directories: multi-document YAML, kubectl JSON, errors."""

from __future__ import annotations

import json

import pytest
import yaml
from k8s_oracles import DATA

from netmend.k8s import ManifestError, as_list, demo_cluster, load_cluster, read_policies, to_dict
from netmend.k8s.manifest import pod_to_dict


def _write_demo(tmp_path):
    cluster = demo_cluster()
    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "pods.yaml").write_text(
        yaml.safe_dump_all(
            [to_dict(o) for o in (*cluster.namespaces, *cluster.pods, *cluster.services)]
        ),
        encoding="utf-8",
    )
    (tmp_path / "apps" / "notes.txt").write_text("not a manifest", encoding="utf-8")
    (tmp_path / "policies.json").write_text(
        json.dumps(as_list(to_dict(p) for p in cluster.policies)), encoding="utf-8"
    )
    return cluster


def test_directory_of_yaml_plus_kubectl_json_list_rebuilds_the_cluster(tmp_path):
    cluster = _write_demo(tmp_path)
    loaded = load_cluster([tmp_path / "apps"], [tmp_path / "policies.json"])
    assert loaded == cluster


def test_kube_dns_is_added_when_missing(tmp_path):
    (tmp_path / "pod.json").write_text(
        json.dumps(pod_to_dict(demo_cluster().pods[1])), encoding="utf-8"
    )
    with_dns = load_cluster([tmp_path / "pod.json"])
    assert {s.key for s in with_dns.services} == {"kube-system/kube-dns"}
    assert {s.key for s in load_cluster([tmp_path / "pod.json"], kube_dns=False).services} == set()


def test_policies_path_must_hold_only_policies(tmp_path):
    _write_demo(tmp_path)
    with pytest.raises(
        ManifestError, match=r"pods\.yaml: kind: expected NetworkPolicy .*got 'Namespace'"
    ):
        read_policies([tmp_path / "apps"])


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.yaml", "kind: [unclosed\n", "line 2, column 1: expected valid YAML"),
        ("bad.json", '{"kind": ', "line 1, column 10: expected valid JSON"),
        ("nokind.yaml", "apiVersion: v1\nmetadata: {name: x}\n", "kind: expected a string, missing"),
        ("two.yaml", "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: []}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {containers: 3}\n", "two.yaml#1: spec.containers: expected a list"),
        ("list.json", json.dumps({"kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}, "spec": {"containers": []}, "status": {"podIP": "nope"}}]}), "list.json:items[0]: status.podIP: expected an IP address"),
    ],
)  # fmt: skip
def test_errors_name_file_and_position(tmp_path, name, text, message):
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError) as info:
        load_cluster([tmp_path / name])
    assert message in str(info.value)
    assert str(tmp_path / name) in str(info.value)


def test_missing_path_is_an_error(tmp_path):
    with pytest.raises(ManifestError, match="an existing file or directory"):
        load_cluster([tmp_path / "nope"])


def test_policy_as_a_server_prints_it_reads_as_the_demo_policy():
    (policy,) = read_policies([DATA / "kubectl-get-netpol.json"])
    demo = demo_cluster().policy("cartservice")
    assert (policy.pod_selector, policy.policy_types, policy.ingress, policy.egress) == (
        demo.pod_selector,
        demo.policy_types,
        demo.ingress,
        demo.egress,
    )
    assert "kubectl.kubernetes.io/last-applied-configuration" in dict(policy.annotations)
