"""Probe-matrix speed at scale, side by side with IBM network-config-analyzer.

A seeded random cluster (1,000 pods in 10 namespaces, 100 apps each with a
Service, 500 NetworkPolicies using every selector and port form) goes
through:

- ours, probe matrix: every pod's workload to every ``service:port``
  (DNS modelled), compiled from scratch;
- ours, full connectivity: the allowed (protocol, port) set of every ordered
  pod pair, the same answer NCA computes;
- NCA's connectivity map of the same namespaces, pods and policies.

It prints each wall time and the ratios (goal: ours >= 10x faster than NCA).

    .venv/bin/python benchmarks/bench_k8s_probe.py [--pods 1000] [--policies 500] [--seed 7] [--nca PATH]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from netmend.k8s.cluster import build_cluster, kube_dns_objects
from netmend.k8s.model import (
    NAMESPACE_NAME_LABEL,
    ContainerPort,
    IPBlock,
    LabelSelector,
    Namespace,
    NetworkPolicy,
    Peer,
    Pod,
    PolicyPort,
    Requirement,
    Rule,
    Service,
    ServicePort,
    labels_of,
)
from netmend.k8s.probe import Prober
from netmend.k8s.semantics import Semantics, Simulator

ROOT = Path(__file__).resolve().parents[1]
APPS, NAMESPACES, TIERS = 100, 10, ("web", "api", "db")


def make_cluster(n_pods: int, n_policies: int, seed: int):
    rng = random.Random(seed)
    namespaces = [
        Namespace(f"ns{i}", labels_of({NAMESPACE_NAME_LABEL: f"ns{i}", "team": f"t{i % 3}"}))
        for i in range(NAMESPACES)
    ]
    app_ns = {a: f"ns{a % NAMESPACES}" for a in range(APPS)}
    app_port = {a: rng.choice((80, 8080, 9000 + a)) for a in range(APPS)}
    pods = []
    for i in range(n_pods):
        app = i % APPS
        ports = [ContainerPort(app_port[app], "TCP", "http"), ContainerPort(9100, "TCP", "metrics")]
        pods.append(
            Pod(
                name=f"app{app}-{i // APPS}",
                namespace=app_ns[app],
                labels=labels_of({"app": f"app{app}", "tier": TIERS[app % 3]}),
                ports=tuple(ports),
                workload=f"app{app}-{i // APPS}",
            )
        )
    services = [
        Service(
            name=f"app{a}",
            namespace=app_ns[a],
            selector=(("app", f"app{a}"),),
            ports=(ServicePort(80, "http" if a % 2 else app_port[a], "TCP", "web"),),
        )
        for a in range(APPS)
    ]

    def app_selector() -> LabelSelector:
        if rng.random() < 0.3:
            picked = tuple(sorted({f"app{rng.randrange(APPS)}" for _ in range(3)}))
            return LabelSelector(match_expressions=(Requirement("app", "In", picked),))
        return LabelSelector(match_labels=(("app", f"app{rng.randrange(APPS)}"),))

    def peer() -> Peer:
        kind = rng.random()
        if kind < 0.5:
            return Peer(pod_selector=app_selector())
        if kind < 0.7:
            return Peer(namespace_selector=LabelSelector((("team", f"t{rng.randrange(3)}"),)))
        if kind < 0.9:
            return Peer(
                pod_selector=LabelSelector((("tier", rng.choice(TIERS)),)),
                namespace_selector=LabelSelector((("team", f"t{rng.randrange(3)}"),)),
            )
        return Peer(ip_block=IPBlock("10.0.0.0/8", ("10.244.0.0/16",)))

    def port() -> PolicyPort:
        kind = rng.random()
        if kind < 0.5:
            return PolicyPort("TCP", rng.choice((80, 8080, 9100)))
        if kind < 0.7:
            return PolicyPort(None, "http")
        if kind < 0.9:
            low = rng.randrange(1000, 60000)
            return PolicyPort("TCP", low, low + rng.randrange(1, 500))
        return PolicyPort("UDP", 53)

    policies = []
    for i in range(n_policies):
        ingress = tuple(
            Rule(
                peers=tuple(peer() for _ in range(rng.randint(1, 3))),
                ports=tuple(port() for _ in range(rng.randint(1, 2))),
            )
            for _ in range(rng.randint(1, 2))
        )
        egress = None
        if rng.random() < 0.3:
            dns = Rule(
                peers=(
                    Peer(
                        namespace_selector=LabelSelector(((NAMESPACE_NAME_LABEL, "kube-system"),))
                    ),
                ),
                ports=(PolicyPort("UDP", 53),),
            )
            egress = (dns, Rule(peers=(peer(),), ports=(port(),)))
        policies.append(
            NetworkPolicy(
                name=f"pol{i}",
                namespace=f"ns{rng.randrange(NAMESPACES)}",
                pod_selector=app_selector(),
                policy_types=("Ingress", "Egress") if egress else ("Ingress",),
                ingress=ingress,
                egress=egress,
            )
        )
    return build_cluster([*namespaces, *kube_dns_objects(), *pods, *services, *policies])


def probe_set(cluster):
    targets = [
        f"{s.name}.{s.namespace}:{s.ports[0].port}"
        for s in cluster.services
        if s.namespace != "kube-system"
    ]
    return [
        (f"{p.namespace}/{p.workload}", targets)
        for p in cluster.pods
        if p.namespace != "kube-system"
    ]


def demo_resimulation(rounds: int = 2000) -> tuple[float, float]:
    """Microseconds per demo probe run: unchanged policies, and after a fresh edit each time."""
    from dataclasses import replace

    from netmend.k8s import demo_expected, demo_policies, demo_workloads

    prober = Prober(demo_workloads(), demo_expected().probes())
    policies = demo_policies()
    _, same = timed(lambda: [prober.run(policies) for _ in range(rounds)])
    edited = [
        tuple(
            replace(p, annotations=(("edit", str(k)),)) if p.name == "cartservice" else p
            for p in policies
        )
        for k in range(rounds)
    ]
    _, fresh = timed(lambda: [prober.run(e) for e in edited])
    return same / rounds * 1e6, fresh / rounds * 1e6


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=1000)
    parser.add_argument("--policies", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--nca", type=Path, default=ROOT / ".venv-nca" / "bin" / "nca")
    args = parser.parse_args()

    same, fresh = demo_resimulation()
    print(
        f"ours: demo 10-source probe matrix re-run in {same:.0f} us ({fresh:.0f} us after a policy edit)"
    )

    cluster = make_cluster(args.pods, args.policies, args.seed)
    probes = probe_set(cluster)
    n_probes = sum(len(t) for _, t in probes)

    matrix, t_probe = timed(lambda: Prober(cluster, probes, dns=True).run())
    print(
        f"ours: probe matrix {len(probes)} sources x {len(probes[0][1])} targets = {n_probes} probes "
        f"({matrix.count(True)} reachable) in {t_probe:.2f} s"
    )

    def full_connectivity():
        snap = Simulator(cluster, Semantics(ipblock_selects_pods=False)).snapshot()
        pods = cluster.pods
        return {(pods[i].key, pods[j].key): conns for (i, j), conns in snap.connectivity().items()}

    ours, t_full = timed(full_connectivity)
    print(
        f"ours: full connectivity of {len(cluster.pods)} pods "
        f"({len(ours)} connected ordered pairs) in {t_full:.2f} s"
    )

    if not args.nca.is_file():
        print(f"NCA not found at {args.nca}: run .ci/run (it creates .venv-nca) for the comparison")
        return 0
    from netmend.k8s.nca import run_nca

    with tempfile.TemporaryDirectory() as work:
        (result,), t_nca = timed(lambda: run_nca(args.nca, [cluster], work, timeout=3600))
    agree = "identical to ours" if result.pods == ours else "DIFFERENT from ours"
    print(
        f"NCA:  connectivity map ({len(result.pods)} connected ordered pairs, {agree}) in {t_nca:.2f} s"
    )
    print(f"ratio NCA / ours probe matrix:      {t_nca / t_probe:8.1f}x  (goal >= 10x)")
    print(f"ratio NCA / ours full connectivity: {t_nca / t_full:8.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
