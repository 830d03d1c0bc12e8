"""Tiny cluster builders for truth-table tests."""

from __future__ import annotations

from netmend.k8s.cluster import build_cluster
from netmend.k8s.manifest import parse_policy
from netmend.k8s.model import NAMESPACE_NAME_LABEL, ContainerPort, Namespace, Pod, labels_of
from netmend.k8s.semantics import DEFAULT_SEMANTICS, Semantics, Simulator, Snapshot


def pod(name, ns="default", ip="", ports=(), **labels):
    return Pod(
        name=name,
        namespace=ns,
        labels=labels_of(labels),
        ip=ip,
        ports=tuple(ContainerPort(port=p, protocol=proto, name=n) for n, p, proto in ports),
        workload=name,
    )


def namespace(name, **labels):
    return Namespace(name=name, labels=labels_of({**labels, NAMESPACE_NAME_LABEL: name}))


def policy(name, spec, ns="default"):
    """A policy from a spec dict, as a manifest would carry it."""
    return parse_policy(
        {
            "apiVersion": "networking.k8s.io/v1",
            "kind": "NetworkPolicy",
            "metadata": {"name": name, "namespace": ns},
            "spec": spec,
        }
    )


def snapshot(objects, semantics: Semantics = DEFAULT_SEMANTICS) -> tuple[Snapshot, dict[str, int]]:
    """Snapshot of a cluster and its pod index by ``name`` (pod names are unique here)."""
    cluster = build_cluster(objects)
    sim = Simulator(cluster, semantics)
    return sim.snapshot(), {p.name: i for i, p in enumerate(cluster.pods)}
