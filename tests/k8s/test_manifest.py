"""Manifests to model and back: field-precise errors, round trips, workloads."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from k8s_strategies import policies

from netmend.k8s import (
    ManifestError,
    build_cluster,
    parse_object,
    parse_policy,
    policy_to_dict,
    to_dict,
)
from netmend.k8s.manifest import Skipped


def netpol(spec, **meta):
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": "p", **meta},
        "spec": spec,
    }


@settings(derandomize=True, database=None)
@given(policy=policies("p"))
def test_policy_round_trip(policy):
    assert parse_policy(policy_to_dict(policy)) == policy


@pytest.mark.parametrize(
    ("spec", "field", "expected"),
    [
        ({"podSelector": {}, "ingres": []}, "spec.ingres", "one of the fields"),
        ({"podSelector": {"matchLabels": {"app": 1}}}, "spec.podSelector.matchLabels.app", "a label value"),
        ({"podSelector": {"matchLabels": {"app": "a b"}}}, "spec.podSelector.matchLabels.app", "a label value"),
        ({"podSelector": {"matchLabels": {"-app": "a"}}}, "spec.podSelector.matchLabels.-app", "a label key"),
        ({"podSelector": {"matchExpressions": [{"key": "a", "operator": "In", "values": ["x" * 64]}]}}, "spec.podSelector.matchExpressions[0].values[0]", "a label value"),
        ({"podSelector": {"matchExpressions": [{"key": "bad key", "operator": "Exists"}]}}, "spec.podSelector.matchExpressions[0].key", "a label key"),
        ({"podSelector": {"matchExpressions": [{"key": "a", "operator": "Is"}]}}, "spec.podSelector.matchExpressions[0].operator", "one of In"),
        ({"podSelector": {"matchExpressions": [{"key": "a", "operator": "In"}]}}, "spec.podSelector.matchExpressions[0].values", "non-empty list"),
        ({"podSelector": {"matchExpressions": [{"key": "a", "operator": "Exists", "values": ["x"]}]}}, "spec.podSelector.matchExpressions[0].values", "no values"),
        ({"podSelector": {}, "policyTypes": ["ingress"]}, "spec.policyTypes[0]", "'Ingress' or 'Egress'"),
        ({"podSelector": {}, "policyTypes": ["Ingress", "Ingress"]}, "spec.policyTypes[1]", "no repeated"),
        ({"podSelector": {}, "ingress": {}}, "spec.ingress", "a list"),
        ({"podSelector": {}, "ingress": [{"to": []}]}, "spec.ingress[0].to", "one of the fields from, ports"),
        ({"podSelector": {}, "egress": [{"to": [{}]}]}, "spec.egress[0].to[0]", "a peer with"),
        ({"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8"}, "podSelector": {}}]}]}, "spec.ingress[0].from[0]", "ipBlock alone"),
        ({"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0/8"}}]}]}, "spec.ingress[0].from[0].ipBlock.cidr", "a CIDR"),
        ({"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["11.0.0.0/16"]}}]}]}, "spec.ingress[0].from[0].ipBlock.except[0]", "strictly inside"),
        ({"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.0.0.0/8"]}}]}]}, "spec.ingress[0].from[0].ipBlock.except[0]", "strictly inside"),
        ({"podSelector": {}, "ingress": [{"ports": [{"port": 0}]}]}, "spec.ingress[0].ports[0].port", "1..65535"),
        ({"podSelector": {}, "ingress": [{"ports": [{"port": "80"}]}]}, "spec.ingress[0].ports[0].port", "port name"),
        ({"podSelector": {}, "ingress": [{"ports": [{"port": True}]}]}, "spec.ingress[0].ports[0].port", "1..65535"),
        ({"podSelector": {}, "ingress": [{"ports": [{"port": 80, "protocol": "tcp"}]}]}, "spec.ingress[0].ports[0].protocol", "one of TCP"),
        ({"podSelector": {}, "ingress": [{"ports": [{"port": "http", "endPort": 90}]}]}, "spec.ingress[0].ports[0].endPort", "no endPort unless"),
        ({"podSelector": {}, "ingress": [{"ports": [{"port": 80, "endPort": 79}]}]}, "spec.ingress[0].ports[0].endPort", "80..65535"),
        ({"podSelector": {}, "ingress": [{"ports": [{"endPort": 79}]}]}, "spec.ingress[0].ports[0].endPort", "no endPort unless"),
    ],
)  # fmt: skip
def test_policy_errors_point_at_the_field(spec, field, expected):
    with pytest.raises(ManifestError) as info:
        parse_policy(netpol(spec), "file.yaml#3")
    assert info.value.field == field
    assert expected in info.value.expected
    assert str(info.value).startswith(f"file.yaml#3: {field}: expected ")


def test_policy_envelope_errors():
    with pytest.raises(ManifestError, match="apiVersion: expected 'networking.k8s.io/v1'"):
        parse_policy({**netpol({}), "apiVersion": "v1"})
    with pytest.raises(ManifestError, match="metadata.name: expected a string, missing"):
        parse_policy({**netpol({}), "metadata": {}})
    with pytest.raises(ManifestError, match="expected a mapping"):
        parse_object(["not", "an", "object"])
    with pytest.raises(ManifestError, match="metadata.name: expected a lowercase DNS name"):
        parse_policy({**netpol({}), "metadata": {"name": "Web_Policy"}})
    with pytest.raises(ManifestError, match="metadata.namespace: expected a lowercase DNS name"):
        parse_policy({**netpol({}), "metadata": {"name": "p", "namespace": "Shop"}})
    ok = parse_policy(
        netpol({"podSelector": {"matchLabels": {"app.kubernetes.io/name": "web", "empty": ""}}})
    )
    assert dict(ok.pod_selector.match_labels) == {"app.kubernetes.io/name": "web", "empty": ""}


def test_spec_without_pod_selector_selects_everything():
    assert parse_policy(netpol({"policyTypes": ["Ingress"]})).pod_selector.is_empty


def test_workloads_contribute_their_pod_template():
    for kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"):
        pod = parse_object(
            {
                "apiVersion": "apps/v1",
                "kind": kind,
                "metadata": {"name": "web", "namespace": "shop", "labels": {"ignored": "yes"}},
                "spec": {
                    "template": {
                        "metadata": {"labels": {"app": "web"}},
                        "spec": {
                            "containers": [
                                {"name": "c", "ports": [{"containerPort": 80, "name": "http"}]}
                            ]
                        },
                    }
                },
            }
        )
        assert (pod.name, pod.namespace, pod.workload, pod.labels) == (
            "web-0",
            "shop",
            "web",
            (("app", "web"),),
        )
        assert [(p.name, p.port, p.protocol) for p in pod.ports] == [("http", 80, "TCP")]


def test_jobs_and_cronjobs_contribute_their_pod_template():
    template = {"metadata": {"labels": {"app": "backup"}}, "spec": {"containers": [{"name": "c"}]}}
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "backup"}, "spec": {"template": template}}
    cron = {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": "backup"},
        "spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": template}}},
    }
    for obj in (job, cron):
        pod = parse_object(obj)
        assert (pod.workload, pod.labels) == ("backup", (("app", "backup"),))
    with pytest.raises(ManifestError, match="jobTemplate.spec.template"):
        parse_object({**cron, "spec": {"template": template}}, "x.yaml")


def test_container_port_errors_point_at_the_field():
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {"template": {"spec": {"containers": [{"ports": [{"containerPort": 99999}]}]}}},
    }
    with pytest.raises(ManifestError) as info:
        parse_object(deployment, "d.yaml")
    assert info.value.field == "spec.template.spec.containers[0].ports[0].containerPort"


def test_service_defaults_and_named_target_port():
    svc = parse_object(
        {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {"name": "web"},
            "spec": {
                "selector": {"app": "web"},
                "ports": [{"port": 80}, {"port": 443, "targetPort": "https", "protocol": "TCP"}],
            },
        }
    )
    assert [(p.port, p.target_port, p.protocol) for p in svc.ports] == [
        (80, 80, "TCP"),
        (443, "https", "TCP"),
    ]
    assert svc.selector == (("app", "web"),)


def test_pod_workload_comes_from_its_controller():
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": "frontend-7d9f8c6b5-x2x9q",
            "labels": {"app": "frontend", "pod-template-hash": "7d9f8c6b5"},
            "ownerReferences": [
                {"kind": "ReplicaSet", "name": "frontend-7d9f8c6b5", "controller": True}
            ],
        },
        "spec": {"containers": []},
    }
    assert parse_object(pod).workload == "frontend"
    pod["metadata"]["ownerReferences"] = [{"kind": "StatefulSet", "name": "db", "controller": True}]
    assert parse_object(pod).workload == "db"
    del pod["metadata"]["ownerReferences"]
    assert parse_object(pod).workload == "frontend-7d9f8c6b5-x2x9q"


def test_other_kinds_are_skipped_not_guessed():
    obj = parse_object(
        {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "sa"}}, "x.yaml"
    )
    assert obj == Skipped(source="x.yaml", kind="ServiceAccount", name="sa")


def test_build_cluster_assigns_addresses_deterministically_and_refuses_duplicates():
    objs = [
        parse_object(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "b"},
                "spec": {"containers": []},
                "status": {"podIP": "10.244.0.2"},
            }
        ),
        parse_object(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "a"},
                "spec": {"containers": []},
            }
        ),
        parse_object(
            {
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": {"name": "s"},
                "spec": {"ports": [{"port": 1}]},
            }
        ),
    ]
    cluster = build_cluster(objs)
    assert [(p.name, p.ip) for p in cluster.pods] == [("a", "10.244.0.3"), ("b", "10.244.0.2")]
    assert cluster.services[0].cluster_ip == "10.96.0.2"
    assert build_cluster(reversed(objs)) == cluster
    with pytest.raises(ManifestError, match="one Pod named default/a"):
        build_cluster([*objs, objs[1]])


def test_to_dict_round_trips_every_kind():
    cluster = build_cluster(
        [
            parse_object(
                {
                    "apiVersion": "v1",
                    "kind": "Namespace",
                    "metadata": {"name": "shop", "labels": {"t": "x"}},
                }
            ),
            parse_object(
                {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": "a", "namespace": "shop"},
                    "spec": {
                        "containers": [
                            {"ports": [{"containerPort": 5, "name": "x", "protocol": "UDP"}]}
                        ]
                    },
                }
            ),
            parse_object(
                {
                    "apiVersion": "v1",
                    "kind": "Service",
                    "metadata": {"name": "s", "namespace": "shop"},
                    "spec": {
                        "selector": {},
                        "ports": [{"port": 1, "targetPort": "x", "protocol": "UDP"}],
                    },
                }
            ),
        ]
    )
    for obj in (*cluster.namespaces, *cluster.pods, *cluster.services):
        assert parse_object(to_dict(obj), default_namespace="elsewhere") == obj
