"""Synthetic microservice applications shaped like the demo, of any size.

``n`` workloads ``svc-000``..., each a Deployment-like pod labelled
``app=<name>`` with one named container port and a Service; every workload
after the first few is called by one to three earlier ones (a DAG, like a
request fan-out). Each workload has the demo's policy shape: ingress from
its callers on its pod port, egress allow-all. The expected matrix holds
every workload -> every other service, true exactly along call edges.
Deterministic for a given (n, seed).
"""

from __future__ import annotations

import random

from netmend.assess.k8s.harness import Setup, derive_facts
from netmend.k8s import Matrix, build_cluster, kube_dns_objects
from netmend.k8s.model import ContainerPort, Pod, Service, ServicePort


def synthetic_setup(n: int, seed: int = 0) -> Setup:
    """A synthetic application of ``n`` workloads (n >= 3)."""
    if n < 3:
        raise ValueError(f"a synthetic application needs at least 3 workloads, got {n}")
    rng = random.Random(f"netmend-synthetic:{n}:{seed}")
    names = [f"svc-{i:03d}" for i in range(n)]
    ports = {name: 8000 + i for i, name in enumerate(names)}
    callers: dict[str, list[str]] = {name: [] for name in names}
    for i, name in enumerate(names[1:], start=1):
        callers[name] = sorted(rng.sample(names[:i], min(i, rng.randint(1, 3))))
    objects = list(kube_dns_objects())
    for name in names:
        labels = (("app", name),)
        objects.append(Pod(name=f"{name}-0", labels=labels, ports=(ContainerPort(ports[name], name="http"),), workload=name))
        objects.append(Service(name=name, selector=labels, ports=(ServicePort(80, ports[name]),)))
    manifests = {}
    for name in names:
        ingress = []
        if callers[name]:
            ingress.append(
                {
                    "from": [{"podSelector": {"matchLabels": {"app": c}}} for c in callers[name]],
                    "ports": [{"port": ports[name], "protocol": "TCP"}],
                }
            )
        manifests[name] = {
            "apiVersion": "networking.k8s.io/v1",
            "kind": "NetworkPolicy",
            "metadata": {"name": name, "namespace": "default"},
            "spec": {
                "podSelector": {"matchLabels": {"app": name}},
                "policyTypes": ["Ingress", "Egress"],
                "ingress": ingress,
                "egress": [{}],
            },
        }
    base = build_cluster(objects)
    expected = Matrix.from_dict(
        {src: {f"{dst}:80": src in callers[dst] for dst in names if dst != src} for src in names}
    )
    return Setup(base, manifests, expected, derive_facts(base, manifests, expected))
