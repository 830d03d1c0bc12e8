"""Time of ``k8s check`` and ``k8s diff`` on a synthetic application, beside brute force.

The application has N services (one Deployment, Service and NetworkPolicy
each; ``netmend.assess.k8s.synthetic``), R replica pods per workload. Timed,
best of --repeat:

- check of its expected matrix (every cell an assertion, probed like ``k8s probe``);
- check of one wildcard assertion over every pod pair (``deny * -> *`` on one port),
  beside the same answer asked of the engine pair by pair;
- diff of the policies against a copy with one policy changed, beside brute force
  over every pod pair and a grid of ports.

    .venv/bin/python benchmarks/bench_k8s_check.py [--services 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from netmend.assess.k8s.synthetic import synthetic_setup
from netmend.k8s.check import check
from netmend.k8s.cluster import build_cluster
from netmend.k8s.intent_code import assertions_from_cells, parse_intent_code
from netmend.k8s.manifest import parse_policy
from netmend.k8s.policydiff import diff_policy_sets
from netmend.k8s.semantics import Simulator

GRID = [(proto, port) for proto in ("TCP", "UDP") for port in (53, 80, 443, 5432, 8080, 9000)]


def _best(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - started)
    return best * 1000, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", type=int, default=200)
    parser.add_argument("--replicas", type=int, default=3, help="pods per workload")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    setup = synthetic_setup(args.services)
    base = setup.base
    pods = [replace(p, name=f"{p.name}-r{k}", ip="") for p in base.pods
            for k in range(args.replicas if p.namespace != "kube-system" else 1)]
    cluster = build_cluster([*base.namespaces, *pods, *base.services,
                             *(parse_policy(obj) for obj in setup.manifests.values())])
    print(f"synthetic app: {args.services} services, {len(cluster.pods)} pods ({args.replicas} per workload), "
          f"{len(cluster.policies)} policies")

    cells = tuple((s, t, v) for s, row in setup.expected.rows for t, v in row)
    matrix = assertions_from_cells(cells)
    ms, results = _best(lambda: check(cluster, matrix, dns=True), args.repeat)
    print(f"check, expected matrix: {len(cells)} assertions in {ms:.1f} ms "
          f"({sum(r.holds for r in results)} hold)")

    wildcard = parse_intent_code({"assertions": [{"deny": {"from": {"namespace": "*"}, "to": {"namespace": "*"},
                                                           "ports": [5432]}}]}).assertions
    ms_check, (result,) = _best(lambda: check(cluster, wildcard, dns=False), args.repeat)

    def brute() -> int:
        snap = Simulator(cluster).snapshot()
        chosen = [i for i, p in enumerate(cluster.pods) if p.namespace != "kube-system"]
        return sum(snap.allowed(i, j, "TCP", 5432) for i in chosen for j in chosen if i != j)

    ms_brute, failing = _best(brute, args.repeat)
    assert failing == result.failing, (failing, result.failing)
    print(f"check, deny * -> * on TCP 5432 ({result.checked} pairs): {ms_check:.1f} ms; "
          f"pair by pair {ms_brute:.1f} ms; ratio {ms_brute / ms_check:.1f}x")

    old = list(cluster.policies)
    changed = replace(old[0], ingress=None, egress=None, policy_types=("Ingress", "Egress"))
    new = [changed, *old[1:]]
    ms_diff, diff = _best(lambda: diff_policy_sets(cluster, old, new), args.repeat)

    def brute_diff() -> int:
        sim = Simulator(cluster)
        a, b = sim.snapshot(tuple(old)), sim.snapshot(tuple(new))
        n = len(cluster.pods)
        return sum(1 for i in range(n) for j in range(n) if i != j
                   and any(a.allowed(i, j, p, q) != b.allowed(i, j, p, q) for p, q in GRID))

    ms_brute_diff, pairs = _best(brute_diff, args.repeat)
    print(f"diff, one policy emptied: {len(diff.rows)} rows in {ms_diff:.1f} ms; "
          f"brute force over {len(GRID)} ports per pair {ms_brute_diff:.1f} ms ({pairs} pairs change); "
          f"ratio {ms_brute_diff / ms_diff:.1f}x")


if __name__ == "__main__":
    main()
