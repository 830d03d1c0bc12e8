"""Full connectivity matrix and incremental re-check at 100k-pod scale.

A seeded synthetic cluster (default: 100,000 pods in 1,000 namespaces with
10,000 NetworkPolicies and 100 ClusterNetworkPolicies in the Admin and
Baseline tiers, see ``netmend.k8s.synthetic``) goes through:

- full analysis: pod classes, port atoms and the exact class-to-class
  connectivity matrix (``netmend.k8s.scale.analyze``), then its summary
  (ordered pod pairs connected, fully open);
- incremental re-check: ``--changes`` random policy edits (port, peer,
  rule added or dropped, selector, policy types, policy removed or added;
  every fifth one an admin policy's priority or first action, timed apart), each applied
  with ``ClassMatrix.update`` and timed;
- peak memory: the process's peak resident set size (``ru_maxrss``), which
  includes the generator and the interpreter.

Each figure is printed beside its goal (full <= 10 s; incremental <= 100 ms
at the 95th percentile, NetworkPolicy and admin edits apart; memory <= 4 GB).
Times are wall clock and, in brackets, the process's CPU time (the two differ
when other work shares the cores). With ``--verify``
the edited matrix is compared with a fresh full analysis of the edited
policy set; with ``--baseline`` (default for up to 3,000 pods) the pod-level
engine's ``Snapshot.connectivity()`` is timed on the same cluster for a
side-by-side ratio.

    .venv/bin/python benchmarks/bench_k8s_scale.py [--pods 100000] [--namespaces 1000]
        [--policies 10000] [--admin-policies 100] [--seed 1] [--changes 100] [--verify]
        [--baseline]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time

from netmend.k8s.scale import analyze, edge_points
from netmend.k8s.semantics import Simulator
from netmend.k8s.synthetic import admin_change, policy_change, synthetic_cluster

GOAL_FULL_S, GOAL_INCREMENTAL_MS, GOAL_MEMORY_GB = 10.0, 100.0, 4.0


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (1 << 20)  # KiB on Linux


def verdict(value: float, goal: float) -> str:
    return "meets goal" if value <= goal else "MISSES goal"


def outside_disagreements(mine, theirs) -> int:
    """Pod groups and outside points whose egress differs between two matrices."""
    import numpy as np

    pairs = np.unique(np.stack([mine.index.class_of, theirs.index.class_of], axis=1), axis=0)
    return sum(
        mine.atoms.portset(mine.codec.decode(mine.outside[a, k]))
        != theirs.atoms.portset(theirs.codec.decode(theirs.outside[b, k]))
        for a, b in pairs.tolist()
        for k in range(len(mine.edges))
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=100_000)
    parser.add_argument("--namespaces", type=int, default=1_000)
    parser.add_argument("--policies", type=int, default=10_000)
    parser.add_argument("--admin-policies", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--verify", action="store_true", help="compare with a full recompute")
    parser.add_argument("--outside", action=argparse.BooleanOptionalAction, default=True,
                        help="also egress to one point per outside region the CIDRs cut (default on)")
    parser.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=None)
    args = parser.parse_args()

    synthetic, t_gen, _ = timed(
        lambda: synthetic_cluster(
            args.pods, args.namespaces, args.policies, args.seed, args.admin_policies
        )
    )
    cluster = synthetic.cluster
    rss_before = peak_rss_gb()
    print(
        f"cluster: {len(cluster.pods)} pods, {len(cluster.namespaces)} namespaces, "
        f"{len(cluster.policies)} NetworkPolicies, {len(cluster.admin_policies)} admin policies "
        f"(seed {args.seed}), generated in {t_gen:.2f} s"
    )

    edges = edge_points(cluster) if args.outside else ()
    matrix, t_full, c_full = timed(lambda: analyze(cluster, edges=edges))
    summary, t_sum, _ = timed(matrix.summary)
    print(
        f"classes: {summary.classes}, port atoms: {summary.atoms}, "
        f"matrix {summary.classes}x{summary.classes} cells of {matrix.codec.dtype.__name__}"
        f" x{matrix.codec.words}"
    )
    if edges:
        print(f"outside: egress to {len(edges)} points, one per region the ipBlocks and networks cut")
    print(
        f"full analysis:  {t_full:8.2f} s   ({c_full:.2f} s CPU)   goal <= {GOAL_FULL_S:g} s"
        f"   {verdict(t_full, GOAL_FULL_S)}"
    )
    print(
        f"  summary in {t_sum:.2f} s: {summary.connected_pod_pairs} ordered pod pairs connected, "
        f"{summary.open_pod_pairs} fully open"
    )

    current, admins = cluster.policies, cluster.admin_policies
    patched: list[tuple[float, float]] = []
    patched_admin: list[tuple[float, int]] = []
    rebuilt: list[tuple[float, str]] = []
    kinds: dict[str, int] = {}
    cells = gaining = losing = admin_cells = 0
    for k in range(args.changes):
        seed = args.seed * 1_000_003 + k
        if admins and k % 5 == 4:
            old, new = admin_change(admins, seed)
            subjects = int(matrix.index.admin_subject(old.subject).sum())
            update, t_upd, c_upd = timed(lambda o=old, n=new: matrix.update(o, n))
            admins = tuple(a for a in admins if a.key != old.key) + (new,)
            kinds["admin"] = kinds.get("admin", 0) + 1
        else:
            change = policy_change(synthetic, current, seed=seed)
            update, t_upd, c_upd = timed(lambda c=change: matrix.update(c.old, c.new))
            kept = tuple(p for p in current if change.old is None or p.key != change.old.key)
            current = kept + ((change.new,) if change.new is not None else ())
            kinds[change.kind] = kinds.get(change.kind, 0) + 1
        if update.full_recompute:
            rebuilt.append((t_upd, update.reason))
            continue
        if admins and k % 5 == 4:
            patched_admin.append((t_upd, subjects, c_upd))
            admin_cells += update.changed_cells
            continue
        patched.append((t_upd, c_upd))
        cells += update.changed_cells
        gaining += update.pod_pairs_gaining
        losing += update.pod_pairs_losing
    if patched:
        walls = sorted(w * 1e3 for w, _ in patched)
        median, worst = statistics.median(walls), walls[-1]
        p95 = walls[min(len(walls) - 1, int(0.95 * len(walls)))]
        cpu = statistics.median(c * 1e3 for _, c in patched)
        print(
            f"incremental:    {median:8.2f} ms  ({cpu:.2f} ms CPU) median of {len(patched)} "
            "NetworkPolicy edits, "
            f"p95 {p95:.2f} ms, max {worst:.2f} ms   goal <= {GOAL_INCREMENTAL_MS:g} ms"
            f"   {verdict(p95, GOAL_INCREMENTAL_MS)} (p95)"
        )
        print(
            "  edits: "
            + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
            + f"; {cells} class pairs changed by NetworkPolicy edits, {gaining} pod pairs gained and {losing} lost"
            " connections"
        )
    if patched_admin:
        walls = sorted(w * 1e3 for w, _, _ in patched_admin)
        cpus = sorted(c * 1e3 for _, _, c in patched_admin)
        touched = sorted(t for _, t, _ in patched_admin)
        median, worst = statistics.median(walls), walls[-1]
        p95 = walls[min(len(walls) - 1, int(0.95 * len(walls)))]
        cpu95 = cpus[min(len(cpus) - 1, int(0.95 * len(cpus)))]
        print(
            f"admin edits:    {median:8.2f} ms  ({statistics.median(cpus):.2f} ms CPU, p95 {cpu95:.2f})"
            f" median of {len(walls)} admin policy edits, "
            f"p95 {p95:.2f} ms, max {worst:.2f} ms   goal <= {GOAL_INCREMENTAL_MS:g} ms"
            f"   {verdict(p95, GOAL_INCREMENTAL_MS)} (p95)"
        )
        print(
            f"  their subjects: {touched[0]}..{touched[-1]} of {summary.classes} classes"
            f" (whole namespaces); {admin_cells} class pairs changed"
        )
    for t_upd, reason in rebuilt:
        print(f"  rebuilt instead of patched ({t_upd:.2f} s): {reason}")

    peak = peak_rss_gb()
    print(
        f"peak memory:    {peak:8.2f} GB  (after generating the cluster: {rss_before:.2f} GB)"
        f"   goal <= {GOAL_MEMORY_GB:g} GB   {verdict(peak, GOAL_MEMORY_GB)}"
    )

    if args.verify:
        fresh, t_fresh, _ = timed(
            lambda: analyze(cluster.with_policies(current).with_admin_policies(admins), edges=edges)
        )
        bad, t_cmp, _ = timed(lambda: matrix.disagreements(fresh))
        bad += outside_disagreements(matrix, fresh)
        print(
            f"verify: edited matrix vs full recompute ({t_fresh:.2f} s): {bad} disagreeing cells"
            f" (class pairs and outside points)"
            f" (compared in {t_cmp:.2f} s)"
        )
        if bad:
            return 1

    baseline = args.baseline if args.baseline is not None else len(cluster.pods) <= 3000
    if baseline:
        snap_pairs, t_pods, _ = timed(lambda: Simulator(cluster).snapshot().connectivity())
        _, t_small, _ = timed(lambda: analyze(cluster))
        print(
            f"pod-level engine Snapshot.connectivity(): {t_pods:.2f} s ({len(snap_pairs)} pairs); "
            f"class matrix {t_small:.2f} s; ratio {t_pods / t_small:.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
