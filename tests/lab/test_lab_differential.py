"""Differential: on random small clusters, the kernel's verdicts equal the engine's (DNS on and off)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from k8s_strategies import namespaces, pods, policies

from netmend.k8s import (
    Cluster,
    Prober,
    Service,
    ServicePort,
    as_list,
    build_cluster,
    compare,
    demo_cluster,
    kube_dns_objects,
    parse_object,
    to_dict,
)
from netmend.lab.lab import Lab

pytestmark = pytest.mark.needs_root_net
DISAGREEMENTS = Path(__file__).parent / "data" / "disagreements"
EXAMPLES = int(os.environ.get("NETMEND_LAB_EXAMPLES", "12"))
# A service port whose named target no pod has: no endpoint, in the lab and the engine.
MISSING_TARGET = ServicePort(port=9999, target_port="absent")


def _service_of(pod) -> Service:
    ports = [ServicePort(port=7000, target_port=7000), MISSING_TARGET]
    for k, cport in enumerate(p for p in pod.ports if p.protocol == "TCP"):
        ports.append(ServicePort(port=8000 + k, target_port=cport.name or cport.port))
    return Service(
        name=pod.name,
        namespace=pod.namespace,
        selector=(("lab-pod", pod.name),),
        ports=tuple(ports),
    )


@st.composite
def lab_clusters(draw) -> Cluster:
    """2-4 pods, each the only endpoint of its own service, 0-3 random policies, kube-dns."""
    count = draw(st.integers(2, 4))
    members = []
    for i in range(count):
        pod = draw(pods(i))
        members.append(replace(pod, labels=tuple(sorted((*pod.labels, ("lab-pod", pod.name))))))
    objects = [
        *draw(namespaces()),
        *members,
        *(_service_of(p) for p in members),
        *(draw(policies(f"pol{i}")) for i in range(draw(st.integers(0, 3)))),
        *(o for o in kube_dns_objects() if type(o).__name__ != "Namespace"),
    ]
    return build_cluster(objects)


def probe_set(cluster: Cluster) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every workload to every TCP port of every other workload's service."""
    out = []
    for pod in cluster.pods:
        if pod.namespace == "kube-system":
            continue
        targets = tuple(
            f"{svc.name}.{svc.namespace}:{port.port}"
            for svc in cluster.services
            if svc.namespace != "kube-system" and svc.name != pod.workload
            for port in svc.ports
        )
        out.append((pod.workload, targets))
    return tuple(out)


def to_fixture(cluster: Cluster) -> dict:
    """A cluster as a saved disagreement (``kubectl get -o json`` List)."""
    objects = [*cluster.namespaces, *cluster.pods, *cluster.services, *cluster.policies, *cluster.admin_policies]
    return {"cluster": as_list(to_dict(o) for o in objects)}


def from_fixture(data: dict) -> Cluster:
    return build_cluster(parse_object(item) for item in data["cluster"]["items"])


def check(lab: Lab, cluster: Cluster) -> None:
    """DNS on (names resolved by the cluster DNS), then off (ClusterIPs dialed), so that
    egress rules are exercised even where they cut DNS."""
    lab.rebuild(cluster)
    probes = probe_set(cluster)
    differ = []
    for dns in (True, False):
        live = lab.probe(probes, dns=dns, timeout=0.5).matrix
        engine = Prober(cluster, probes, dns=dns).run()
        differ += [f"dns={'on' if dns else 'off'}: {m}" for m in compare(engine, live)]
    if differ:
        DISAGREEMENTS.mkdir(parents=True, exist_ok=True)
        text = json.dumps(to_fixture(cluster), indent=1, sort_keys=True)
        path = DISAGREEMENTS / f"cluster-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"
        path.write_text(text)
        pytest.fail(f"lab and engine differ (saved {path.name}): {differ}")


@pytest.fixture(scope="module")
def small_lab(lab_ok):
    with Lab.start(demo_cluster(), tied=True, deny="reject") as lab:
        yield lab


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(cluster=lab_clusters())
def test_random_clusters_agree_with_the_engine(small_lab, cluster):
    check(small_lab, cluster)


def test_saved_cluster_disagreements_now_agree(small_lab):
    for path in sorted(DISAGREEMENTS.glob("cluster-*.json")) if DISAGREEMENTS.exists() else ():
        check(small_lab, from_fixture(json.loads(path.read_text())))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(cluster=lab_clusters())
def test_a_saved_disagreement_replays_the_same_cluster(cluster):
    assert from_fixture(json.loads(json.dumps(to_fixture(cluster)))) == cluster
