"""Live lab timings: setup, full probe matrix, and rule-change latency.

Two clusters: the built-in Online Boutique demo (13 pods, NetArena's 92
probes) and a synthetic 100-workload cluster (one pod and one service each,
every workload admitting three others; 9,900 probes). For each:

* **setup**: ``Lab.start`` (sandbox, namespaces, links, NAT, DNS, listeners,
  first rulesets) until the lab answers;
* **matrix**: one full probe matrix by in-process sockets (and by ``nc`` for
  the demo), with DNS;
* **rule change**: applying a policy set that differs in ONE pod (the whole
  round trip: effective view, compilation, one ``nft -f``), and whether the
  very next probe sees the new verdict.

Denied packets are dropped (``--deny drop``, a CNI's behaviour: each wave of
denied probes costs the probe timeout) or rejected (``--deny reject``).
Needs root or user namespaces, iproute2, nftables and netcat-openbsd.

Usage: ``python benchmarks/bench_lab.py [--deny drop|reject] [--toggles N] [--skip-large]``
"""

from __future__ import annotations

import argparse
import statistics
import time

from netmend.k8s import (
    Cluster,
    ContainerPort,
    LabelSelector,
    NetworkPolicy,
    Peer,
    Pod,
    PolicyPort,
    Rule,
    Service,
    ServicePort,
    build_cluster,
    demo_cluster,
    demo_expected,
    with_kube_dns,
)
from netmend.lab.lab import Lab

WORKLOADS = 100
ADMITTED = 3  # each workload admits this many others


def _app(i: int) -> str:
    return f"w{i:03d}"


def large_cluster(count: int = WORKLOADS) -> Cluster:
    """``count`` workloads; workload i admits i+1..i+ADMITTED (mod count) on TCP 8080."""
    objects = []
    for i in range(count):
        labels = (("app", _app(i)),)
        objects.append(
            Pod(name=f"{_app(i)}-0", labels=labels, ports=(ContainerPort(8080),), workload=_app(i))
        )
        objects.append(Service(name=_app(i), selector=labels, ports=(ServicePort(80, 8080),)))
        peers = tuple(
            Peer(pod_selector=LabelSelector(match_labels=(("app", _app((i + k) % count)),)))
            for k in range(1, ADMITTED + 1)
        )
        objects.append(
            NetworkPolicy(
                name=_app(i),
                pod_selector=LabelSelector(match_labels=labels),
                policy_types=("Ingress", "Egress"),
                ingress=(Rule(peers=peers, ports=(PolicyPort(port=8080),)),),
                egress=(Rule(),),
            )
        )
    return build_cluster(with_kube_dns(objects))


def large_probes(count: int = WORKLOADS) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(
        (_app(i), tuple(f"{_app(j)}:80" for j in range(count) if j != i)) for i in range(count)
    )


def rule_change(lab: Lab, source: str, target: str, toggles: int) -> tuple[list[float], int]:
    """Apply times of policy sets flipping ``source -> target``, and how often the very
    next probe already saw the flip."""
    base = lab.cluster.policies
    selector = (("app", target.split(":")[0]),)
    opened = tuple(p for p in base if p.pod_selector.match_labels != selector)
    times, seen = [], 0
    for n in range(toggles):
        policies, want = (opened, True) if n % 2 == 0 else (base, False)
        started = time.monotonic()
        changed = lab.apply(policies)
        times.append(time.monotonic() - started)
        assert len(changed) == 1, changed
        seen += lab.probe(((source, (target,)),), timeout=0.2).records[0].ok == want
    return times, seen


def bench(label: str, cluster: Cluster, probes, deny: str, toggles: int, nc: bool) -> None:
    started = time.monotonic()
    with Lab.start(cluster, tied=True, deny=deny) as lab:
        setup = time.monotonic() - started
        cells = sum(len(t) for _, t in probes)
        started = time.monotonic()
        matrix = lab.probe(probes).matrix
        socket_s = time.monotonic() - started
        line = (
            f"{label}: {len(lab.plan.pods)} pods, {cells} probes ({matrix.count(True)} open), "
            f"deny={deny}\n  setup {setup:.2f} s\n  matrix by sockets {socket_s:.2f} s"
        )
        if nc:
            started = time.monotonic()
            lab.probe(probes, mode="nc")
            line += f"\n  matrix by nc {time.monotonic() - started:.2f} s"
        source, targets = probes[0]
        denied = next(t for t in targets if not matrix.get(source, t))
        times, seen = rule_change(lab, source, denied, toggles)
        line += (
            f"\n  rule change (one pod re-applied): median {statistics.median(times) * 1000:.0f} ms,"
            f" max {max(times) * 1000:.0f} ms; the next probe saw it {seen}/{len(times)} times"
        )
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deny", choices=("drop", "reject"), default="drop")
    parser.add_argument("--toggles", type=int, default=10)
    parser.add_argument("--skip-large", action="store_true", help="only the demo")
    args = parser.parse_args()
    bench("demo", demo_cluster(), demo_expected().probes(), args.deny, args.toggles, nc=True)
    if not args.skip_large:
        bench(
            f"{WORKLOADS} workloads",
            large_cluster(),
            large_probes(),
            args.deny,
            args.toggles,
            nc=False,
        )


if __name__ == "__main__":
    main()
