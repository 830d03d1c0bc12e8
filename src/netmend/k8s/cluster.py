"""Assemble model objects into a :class:`Cluster`: namespaces, IPs, uniqueness."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import replace

from netmend.k8s.errors import ManifestError
from netmend.k8s.manifest import ModelObject, Skipped
from netmend.k8s.model import (
    NAMESPACE_NAME_LABEL,
    AdminPolicy,
    Cluster,
    ContainerPort,
    Namespace,
    NetworkPolicy,
    Pod,
    Service,
    ServicePort,
    labels_of,
)

# Pods without an IP get one from here, in (namespace, name) order; past the
# first /24 the numbering simply carries on into 10.244.1.0 and beyond.
POD_NETWORK = ipaddress.ip_network("10.244.0.0/16")
SERVICE_NETWORK = ipaddress.ip_network("10.96.0.0/12")
# 10.96.0.1 is the API server's own service and 10.96.0.10 kube-dns by convention.
KUBE_DNS_IP = "10.96.0.10"
_RESERVED_SERVICE_IPS = frozenset({"10.96.0.1", KUBE_DNS_IP})
KUBE_DNS_NAMESPACE = "kube-system"
KUBE_DNS_SERVICE = "kube-dns"
KUBE_DNS_LABELS = (("k8s-app", "kube-dns"),)
# The address a client outside the cluster arrives from when a NodePort or
# LoadBalancer Service has externalTrafficPolicy Cluster: kube-proxy SNATs it to
# the receiving node (a kind node's address; the model has one node).
NODE_ADDRESS = "172.18.0.2"


def build_cluster(objects: Iterable[ModelObject | Skipped]) -> Cluster:
    """Build a cluster from parsed objects.

    Namespaces referenced but not declared are created (with the name label),
    pods without an IP get one from 10.244.0.0/16 and services without a
    ClusterIP one from 10.96.0.0/12, deterministically in key order.
    Two objects of the same kind and ``namespace/name`` are refused.

    Examples
    --------
    >>> c = build_cluster([Pod(name="a"), Pod(name="b")])
    >>> [(p.name, p.ip) for p in c.pods], [n.name for n in c.namespaces]
    ([('a', '10.244.0.2'), ('b', '10.244.0.3')], ['default'])
    """
    seen: dict[tuple[str, str], ModelObject] = {}
    for obj in objects:
        if isinstance(obj, Skipped):
            continue
        kind = obj.kind if isinstance(obj, AdminPolicy) else type(obj).__name__
        key = obj.name if isinstance(obj, Namespace) else obj.key
        if (kind, key) in seen:
            raise ManifestError("", "metadata.name", f"one {kind} named {key}", key)
        seen[(kind, key)] = obj
    namespaces = {o.name: o for o in seen.values() if isinstance(o, Namespace)}
    pods = sorted((o for o in seen.values() if isinstance(o, Pod)), key=lambda p: p.key)
    services = sorted((o for o in seen.values() if isinstance(o, Service)), key=lambda s: s.key)
    policies = [o for o in seen.values() if isinstance(o, NetworkPolicy)]
    admin = tuple(o for o in seen.values() if isinstance(o, AdminPolicy))
    for obj in (*pods, *services, *policies):
        if obj.namespace not in namespaces:
            namespaces[obj.namespace] = Namespace(
                name=obj.namespace, labels=((NAMESPACE_NAME_LABEL, obj.namespace),)
            )
    cluster = Cluster(
        namespaces=tuple(namespaces[n] for n in sorted(namespaces)),
        pods=_assign_pod_ips(pods),
        services=_assign_cluster_ips(services),
    )
    return cluster.with_policies(tuple(policies)).with_admin_policies(admin)


def _assign_pod_ips(pods: list[Pod]) -> tuple[Pod, ...]:
    used = {p.ip for p in pods if p.ip}
    free = (str(ip) for ip in POD_NETWORK.hosts() if ip.packed[-1] not in (0, 1, 255))
    out = []
    for pod in pods:
        if not pod.ip and pod.host_network:
            pod = replace(pod, ip=NODE_ADDRESS)  # a hostNetwork pod has its node's address
        elif not pod.ip:
            ip = next(free)
            while ip in used:
                ip = next(free)
            pod = replace(pod, ip=ip)
        out.append(pod)
    return tuple(out)


def _assign_cluster_ips(services: list[Service]) -> tuple[Service, ...]:
    used = {s.cluster_ip for s in services if s.cluster_ip} | _RESERVED_SERVICE_IPS
    free = (str(ip) for ip in SERVICE_NETWORK.hosts() if str(ip) not in used)
    out = []
    for svc in services:
        if not svc.cluster_ip:
            is_dns = (svc.namespace, svc.name) == (KUBE_DNS_NAMESPACE, KUBE_DNS_SERVICE)
            svc = replace(svc, cluster_ip=KUBE_DNS_IP if is_dns else next(free))
        out.append(svc)
    return tuple(out)


def kube_dns_objects() -> tuple[ModelObject, ...]:
    """The standard kube-dns of a cluster: namespace, CoreDNS pod, service."""
    return (
        Namespace(
            name=KUBE_DNS_NAMESPACE, labels=labels_of({NAMESPACE_NAME_LABEL: KUBE_DNS_NAMESPACE})
        ),
        Pod(
            name="coredns-0",
            namespace=KUBE_DNS_NAMESPACE,
            labels=KUBE_DNS_LABELS,
            ports=(
                ContainerPort(port=53, protocol="UDP", name="dns"),
                ContainerPort(port=53, protocol="TCP", name="dns-tcp"),
                ContainerPort(port=9153, protocol="TCP", name="metrics"),
            ),
            workload="coredns",
        ),
        Service(
            name=KUBE_DNS_SERVICE,
            namespace=KUBE_DNS_NAMESPACE,
            selector=KUBE_DNS_LABELS,
            ports=(
                ServicePort(port=53, target_port=53, protocol="UDP", name="dns"),
                ServicePort(port=53, target_port=53, protocol="TCP", name="dns-tcp"),
                ServicePort(port=9153, target_port=9153, protocol="TCP", name="metrics"),
            ),
            cluster_ip=KUBE_DNS_IP,
        ),
    )


def has_kube_dns(cluster: Cluster) -> bool:
    """Whether the cluster has the ``kube-system/kube-dns`` service."""
    return any(
        (s.namespace, s.name) == (KUBE_DNS_NAMESPACE, KUBE_DNS_SERVICE) for s in cluster.services
    )


def with_kube_dns(objects: Iterable[ModelObject | Skipped]) -> list[ModelObject | Skipped]:
    """``objects`` plus the standard kube-dns objects that are missing from them.

    Every real cluster runs kube-dns; manifests of an application rarely
    carry it, yet DNS modelling needs its pod.
    """
    objects = list(objects)
    present = {
        (type(o).__name__, o.name if isinstance(o, Namespace) else o.key)
        for o in objects
        if not isinstance(o, Skipped)
    }
    if ("Service", f"{KUBE_DNS_NAMESPACE}/{KUBE_DNS_SERVICE}") in present:
        return objects
    for obj in kube_dns_objects():
        key = obj.name if isinstance(obj, Namespace) else obj.key
        if (type(obj).__name__, key) not in present:
            objects.append(obj)
    return objects
