"""What the admin tiers cost: probe matrix and full connectivity with and without admin policies.

The seeded cluster of ``bench_k8s_probe.py`` (pods, Services, NetworkPolicies)
is measured as it is, then with admin policies on top: ClusterNetworkPolicies
in both tiers (namespace and pod subjects, Accept/Deny/Pass, port ranges,
named ports, networks) and the BaselineAdminNetworkPolicy. It prints each
wall time and the ratio tiered / NetworkPolicy-only, and how many probes the
admin tiers changed (so the run is known to exercise them).

    .venv/bin/python benchmarks/bench_k8s_tiers.py [--pods 1000] [--policies 500] [--admin 40] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from netmend.k8s.model import (
    NAMESPACE_NAME_LABEL,
    AdminPeer,
    AdminPolicy,
    AdminPort,
    AdminRule,
    AdminSubject,
    LabelSelector,
    NamespacedPods,
)
from netmend.k8s.probe import Prober
from netmend.k8s.semantics import Simulator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_k8s_probe import NAMESPACES, make_cluster, probe_set  # noqa: E402


def admin_policies(n: int, seed: int) -> tuple[AdminPolicy, ...]:
    rng = random.Random(seed)

    def ns_sel() -> LabelSelector:
        return LabelSelector((("team", f"t{rng.randrange(3)}"),))

    def app_pods() -> NamespacedPods:
        return NamespacedPods(ns_sel(), LabelSelector((("app", f"app{rng.randrange(100)}"),)))

    def peer(egress: bool) -> AdminPeer:
        kind = rng.random()
        if egress and kind < 0.2:
            return AdminPeer(networks=(rng.choice(("10.244.0.0/20", "10.244.2.0/24", "0.0.0.0/0")),))
        if kind < 0.6:
            return AdminPeer(pods=app_pods())
        return AdminPeer(namespaces=ns_sel())

    def ports(named_ok: bool):
        kind = rng.random()
        if kind < 0.3:
            return None
        if kind < 0.6:
            return (AdminPort("TCP", 80, 80), AdminPort("TCP", 9100, 9100))
        if kind < 0.8 or not named_ok:
            low = rng.randrange(1000, 9000)
            return (AdminPort("TCP", low, low + rng.randrange(1, 2000)),)
        return (AdminPort(named="http"),)

    def rules(egress: bool, actions):
        out = []
        for _ in range(rng.randint(1, 4)):
            peers = tuple(peer(egress) for _ in range(rng.randint(1, 3)))
            named_ok = all(p.networks is None for p in peers)
            action = rng.choice(actions)
            out.append(AdminRule(action, peers, ports(named_ok), written_action=action))
        return tuple(out)

    out = []
    for i in range(n):
        tier = "Admin" if i % 3 else "Baseline"
        subject = AdminSubject(namespaces=ns_sel()) if rng.random() < 0.5 else AdminSubject(pods=app_pods())
        out.append(AdminPolicy(
            kind="ClusterNetworkPolicy", name=f"cnp{i}", tier=tier, priority=rng.randrange(0, 50), subject=subject,
            ingress=rules(False, ("Accept", "Deny", "Pass")), egress=rules(True, ("Accept", "Deny", "Pass")),
            api_version="policy.networking.k8s.io/v1alpha2",
        ))
    dns = AdminRule("Accept", (AdminPeer(namespaces=LabelSelector(((NAMESPACE_NAME_LABEL, "kube-system"),))),),
                    (AdminPort("UDP", 53, 53),), written_action="Allow")
    out.append(AdminPolicy(
        kind="BaselineAdminNetworkPolicy", name="default", tier="Baseline", priority=0,
        subject=AdminSubject(namespaces=LabelSelector()), egress=(dns,),
        ingress=(AdminRule("Deny", (AdminPeer(namespaces=LabelSelector((("team", "t0"),))),), None, written_action="Deny"),),
        api_version="policy.networking.k8s.io/v1alpha1",
    ))
    return tuple(out)


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=1000)
    parser.add_argument("--policies", type=int, default=500)
    parser.add_argument("--admin", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    plain = make_cluster(args.pods, args.policies, args.seed)
    tiered = plain.with_admin_policies(admin_policies(args.admin, args.seed))
    probes = probe_set(plain)
    rows = []
    results = {}
    for label, cluster in (("NetworkPolicy only", plain), (f"+ {len(tiered.admin_policies)} admin policies", tiered)):
        t_probe, matrix = timed(lambda c=cluster: Prober(c, probes, dns=True).run())
        t_conn, conns = timed(lambda c=cluster: Simulator(c).snapshot().connectivity())
        results[label] = (matrix, conns)
        rows.append((label, t_probe, t_conn, len(conns)))
    print(f"cluster: {args.pods} pods in {NAMESPACES} namespaces, {args.policies} NetworkPolicies, seed {args.seed}")
    print(f"{'':32} {'probe matrix':>14} {'connectivity':>14} {'allowed pairs':>14}")
    for label, t_probe, t_conn, pairs in rows:
        print(f"{label:32} {t_probe:13.3f}s {t_conn:13.3f}s {pairs:14d}")
    (m0, _), (m1, _) = results.values()
    moved = sum(v0 != v1 for (_, c0), (_, c1) in zip(m0.rows, m1.rows, strict=True)
                for (_, v0), (_, v1) in zip(c0, c1, strict=True))
    print(f"ratio tiered / NetworkPolicy only: probe matrix {rows[1][1] / rows[0][1]:.2f}x, "
          f"connectivity {rows[1][2] / rows[0][2]:.2f}x; probes the admin tiers change: {moved} of {m0.count(True) + m0.count(False)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
