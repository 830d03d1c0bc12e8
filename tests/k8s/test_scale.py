"""The class matrix against the pod-level engine, and its incremental re-check.

The oracle is :meth:`Snapshot.connections` (pod by pod, a different
algorithm over the same model): on random small clusters every ordered pod
pair must get the same port set. Incremental updates must equal a full
recomputation of the edited policy set.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from admin_strategies import admin_policies, tiered_clusters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from k8s_strategies import (
    NAMESPACES,
    POD_LABELS,
    PORT_NAMES,
    PROTOCOLS,
    clusters,
    container_ports,
    namespaces,
    peers,
    policies,
    selectors,
)

from netmend.k8s.admin import admin_policy_to_dict, parse_admin_policy
from netmend.k8s.cluster import build_cluster
from netmend.k8s.model import (
    AdminPolicy,
    AdminSubject,
    Cluster,
    LabelSelector,
    NetworkPolicy,
    Pod,
    PolicyPort,
    Rule,
)
from netmend.k8s.scale import ScaleError, analyze, edge_points
from netmend.k8s.semantics import Semantics, Simulator
from netmend.k8s.synthetic import SyntheticError, admin_change, policy_change, synthetic_cluster

BOTH_SEMANTICS = (Semantics(ipblock_selects_pods=True), Semantics(ipblock_selects_pods=False))
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pod_disagreements(cluster: Cluster, matrix, semantics: Semantics, limit: int = 5) -> list[str]:
    snap = Simulator(cluster, semantics).snapshot()
    out = []
    pods = cluster.pods
    for i, j in itertools.permutations(range(len(pods)), 2):
        ours, oracle = matrix.connections(i, j), snap.connections(i, j)
        if ours != oracle:
            out.append(f"{pods[i].key} -> {pods[j].key}: classes {ours}, pods {oracle}")
            if len(out) >= limit:
                break
    return out


def reported_cells_are_the_changed_cells(before, after, update) -> None:
    """``update.cells`` (and their before/after masks) are exactly the class pairs that moved."""
    if update.full_recompute:
        return
    moved = (before.reach != after.reach).any(axis=-1)
    assert {tuple(c) for c in update.cells.tolist()} == set(zip(*map(list, moved.nonzero()), strict=True))
    for k, (src, dst) in enumerate(update.cells.tolist()):
        assert (update.before[k] == before.reach[src, dst]).all()
        assert (update.after[k] == after.reach[src, dst]).all()


def matrices_disagree(a, b, n_pods: int, limit: int = 5) -> list[str]:
    out = []
    for i, j in itertools.permutations(range(n_pods), 2):
        if a.connections(i, j) != b.connections(i, j):
            out.append(f"{i} -> {j}: {a.connections(i, j)} vs {b.connections(i, j)}")
            if len(out) >= limit:
                break
    return out


@PROPERTY
@given(cluster=clusters(max_pods=8, max_policies=5), ipblocks_hold_pods=st.booleans())
def test_class_matrix_equals_pod_engine(cluster, ipblocks_hold_pods):
    semantics = Semantics(ipblock_selects_pods=ipblocks_hold_pods)
    matrix = analyze(cluster, semantics)
    assert not pod_disagreements(cluster, matrix, semantics)


named_ports = st.builds(
    PolicyPort, protocol=st.sampled_from((None, *PROTOCOLS)), port=st.sampled_from(PORT_NAMES)
)


@st.composite
def named_port_clusters(draw) -> Cluster:
    """Clusters where rules name ports often and pods resolve names differently.

    The general strategy rarely lines a rule's named port up with a pod
    exposing that name on the rule's protocol; here most rules name ports.
    """
    n_pods = draw(st.integers(2, 6))
    pod_objs = [
        Pod(
            name=f"pod{i}",
            namespace=draw(st.sampled_from(NAMESPACES)),
            labels=tuple(sorted(draw(st.dictionaries(st.sampled_from(sorted(POD_LABELS)),
                                                     st.sampled_from(("web", "db", "front")),
                                                     max_size=1)).items())),
            ports=draw(container_ports),
        )
        for i in range(n_pods)
    ]  # fmt: skip
    rules = st.builds(
        Rule,
        peers=st.one_of(st.none(), st.none(), st.lists(peers, min_size=1, max_size=2).map(tuple)),
        ports=st.lists(
            st.one_of(named_ports, named_ports, st.builds(PolicyPort, protocol=st.just("TCP"),
                                                          port=st.sampled_from((53, 80, 8080)))),
            min_size=1, max_size=3,
        ).map(tuple),
    )  # fmt: skip
    pols = [
        NetworkPolicy(
            name=f"pol{i}",
            namespace=draw(st.sampled_from(NAMESPACES)),
            pod_selector=draw(st.one_of(st.just(LabelSelector()), selectors(POD_LABELS))),
            policy_types=draw(st.sampled_from((("Ingress",), ("Egress",), ("Ingress", "Egress")))),
            ingress=tuple(draw(st.lists(rules, max_size=2))),
            egress=tuple(draw(st.lists(rules, max_size=2))),
        )
        for i in range(draw(st.integers(1, 3)))
    ]
    return build_cluster([*draw(namespaces()), *pod_objs, *pols])


@PROPERTY
@given(cluster=named_port_clusters())
def test_named_ports_resolve_like_the_pod_engine(cluster):
    matrix = analyze(cluster)
    assert not pod_disagreements(cluster, matrix, Semantics())


@PROPERTY
@given(
    cluster=tiered_clusters(max_pods=6, max_policies=3, max_admin=4),
    ipblocks_hold_pods=st.booleans(),
)
def test_admin_tiers_and_host_network_like_the_pod_engine(cluster, ipblocks_hold_pods):
    semantics = Semantics(ipblock_selects_pods=ipblocks_hold_pods)
    matrix = analyze(cluster, semantics)
    assert not pod_disagreements(cluster, matrix, semantics)


@PROPERTY
@given(data=st.data())
def test_admin_policy_edits_incremental_equals_full(data):
    cluster = data.draw(tiered_clusters(max_pods=6, max_policies=2, max_admin=3))
    matrix = analyze(cluster)
    for step in range(data.draw(st.integers(1, 4))):
        admins = cluster.admin_policies
        kind = data.draw(st.sampled_from(("replace", "remove", "add") if admins else ("add",)))
        new = data.draw(admin_policies(10 + step)) if kind != "remove" else None
        old = data.draw(st.sampled_from(admins)) if kind != "add" else None
        if kind == "replace":
            new = AdminPolicy(**{**new.__dict__, "name": old.name, "kind": old.kind})
        if kind == "add" and any(a.key == new.key for a in admins):
            continue
        before = matrix.copy()
        update = matrix.update(old, new)
        reported_cells_are_the_changed_cells(before, matrix, update)
        kept = tuple(a for a in admins if old is None or a.key != old.key)
        cluster = cluster.with_admin_policies(kept + ((new,) if new is not None else ()))
        assert matrix.current_admin_policies() == cluster.admin_policies
        assert matrix.disagreements(analyze(cluster)) == 0, update.reason
        assert not pod_disagreements(cluster, matrix, Semantics())


@st.composite
def edits(draw, cluster: Cluster):
    """An edit of ``cluster``'s policies: (old, new), one side maybe None."""
    names = [p.name for p in cluster.policies]
    kind = draw(st.sampled_from(("replace", "remove", "add") if names else ("add",)))
    if kind == "add":  # a name no policy has, even after earlier edits removed some
        fresh = next(f"added{i}" for i in itertools.count() if f"added{i}" not in names)
        return None, draw(policies(fresh))
    old = draw(st.sampled_from(cluster.policies))
    if kind == "remove":
        return old, None
    new = draw(policies(old.name))
    return old, NetworkPolicy(**{**new.__dict__, "namespace": old.namespace})


@PROPERTY
@given(data=st.data(), ipblocks_hold_pods=st.booleans())
def test_incremental_update_equals_full_recompute(data, ipblocks_hold_pods):
    semantics = Semantics(ipblock_selects_pods=ipblocks_hold_pods)
    cluster = data.draw(clusters(max_pods=8, max_policies=4))
    matrix = analyze(cluster, semantics)
    for _ in range(data.draw(st.integers(1, 3))):
        old, new = data.draw(edits(cluster))
        update = matrix.update(old, new)
        kept = tuple(p for p in cluster.policies if old is None or p.key != old.key)
        cluster = cluster.with_policies(kept + ((new,) if new is not None else ()))
        assert matrix.current_policies() == cluster.policies
        full = analyze(cluster, semantics)
        assert not matrices_disagree(matrix, full, len(cluster.pods)), update.reason
        assert not pod_disagreements(cluster, matrix, semantics)


def test_update_reports_the_cells_that_changed():
    s = synthetic_cluster(pods=300, namespaces=8, policies=40, seed=3)
    matrix = analyze(s.cluster)
    before = matrix.copy()
    policy = next(p for p in s.cluster.policies if p.name.startswith("default-deny-ingress"))
    update = matrix.update(policy, None)
    assert not update.full_recompute
    assert update.columns and not update.rows  # an ingress-only policy: columns only
    changed = {(s_, d) for s_, d, _, _ in update.changes()}
    n = matrix.index.size
    for src, dst in itertools.product(range(n), range(n)):
        differs = before.class_connections(src, dst) != matrix.class_connections(src, dst)
        assert differs == ((src, dst) in changed)
    for src, dst, old, new in update.changes(limit=20):
        assert before.class_connections(src, dst) == old
        assert matrix.class_connections(src, dst) == new
    assert update.pod_pairs_gaining > 0 and update.pod_pairs_losing == 0


def test_new_port_boundary_rebuilds_and_says_why():
    s = synthetic_cluster(pods=200, namespaces=6, policies=20, seed=4)
    matrix = analyze(s.cluster)
    old = next(p for p in s.cluster.policies if p.ingress)
    new = NetworkPolicy(**{**old.__dict__, "ingress": (Rule(ports=(PolicyPort("TCP", 12345),)),)})
    update = matrix.update(old, new)
    assert update.full_recompute and "12345" in update.reason
    cluster = s.cluster.with_policy(new)
    assert not pod_disagreements(cluster, matrix, Semantics(), limit=1)


def test_bad_updates_are_refused_and_change_nothing():
    s = synthetic_cluster(pods=100, namespaces=5, policies=10, seed=5)
    matrix = analyze(s.cluster)
    reach = matrix.reach.copy()
    existing = s.cluster.policies[3]
    stranger = NetworkPolicy(name="nobody", namespace=existing.namespace)
    with pytest.raises(ScaleError, match="not a current policy"):
        matrix.update(stranger, None)
    with pytest.raises(ScaleError, match="exists already"):
        matrix.update(None, existing)
    with pytest.raises(ScaleError, match="keeps the policy's key"):
        matrix.update(existing, stranger)
    with pytest.raises(ScaleError, match="old or a new"):
        matrix.update(None, None)
    assert (matrix.reach == reach).all()


@pytest.mark.parametrize("semantics", BOTH_SEMANTICS, ids=("ipblock-pods", "ipblock-external"))
def test_synthetic_cluster_matrix_equals_pod_engine(semantics):
    s = synthetic_cluster(pods=500, namespaces=10, policies=80, seed=11)
    matrix = analyze(s.cluster, semantics)
    snap = Simulator(s.cluster, semantics).snapshot()
    # One pod per class pair is enough for the pod engine (its own classes are finer).
    reps = [cl.pods for cl in matrix.index.classes]
    for a, b in itertools.product(range(len(reps)), repeat=2):
        for i in reps[a][:2]:
            for j in reps[b][:2]:
                if i != j:
                    assert matrix.connections(i, j) == snap.connections(i, j), (i, j)


def test_summary_counts_pod_pairs_exactly():
    s = synthetic_cluster(pods=120, namespaces=5, policies=25, seed=2)
    matrix = analyze(s.cluster)
    snap = Simulator(s.cluster).snapshot()
    pairs = [snap.connections(i, j) for i, j in itertools.permutations(range(120), 2)]
    summary = matrix.summary()
    assert summary.connected_pod_pairs == sum(1 for p in pairs if p)
    assert summary.open_pod_pairs == sum(1 for p in pairs if p.is_all())
    assert summary.pods == 120 and summary.policies == 25


def test_synthetic_edits_incremental_equals_full():
    s = synthetic_cluster(pods=600, namespaces=12, policies=90, seed=8)
    matrix = analyze(s.cluster)
    tables = {d: len(rows.table) for d, rows in matrix._rows.items()}
    current = s.cluster.policies
    for seed in range(200):
        change = policy_change(s, current, seed)
        matrix.update(change.old, change.new)
        kept = tuple(p for p in current if change.old is None or p.key != change.old.key)
        current = tuple(sorted(kept + ((change.new,) if change.new else ()), key=lambda p: p.key))
    full = analyze(s.cluster.with_policies(current))
    assert matrix.disagreements(full) == 0
    # Rows of profiles no class uses any more were reused, not piled up.
    assert {d: len(rows.table) for d, rows in matrix._rows.items()} == tables
    # ... and the comparison itself can fail: one cell flipped is one disagreement.
    matrix.reach[0, 1] ^= matrix.reach[0, 1] | 1
    assert matrix.disagreements(full) >= 1


def test_synthetic_cluster_is_seeded_and_shaped():
    a = synthetic_cluster(pods=2000, namespaces=40, policies=300, seed=9)
    assert a == synthetic_cluster(pods=2000, namespaces=40, policies=300, seed=9)
    assert a != synthetic_cluster(pods=2000, namespaces=40, policies=300, seed=10)
    c = a.cluster
    assert (len(c.pods), len(c.namespaces), len(c.policies)) == (2000, 40, 300)
    assert len({p.ip for p in c.pods}) == 2000
    rules = [r for p in c.policies for d in p.effective_types for r in p.rules(d)]
    peers = [peer for r in rules for peer in r.peers or ()]
    ports = [port for r in rules for port in r.ports or ()]
    assert any(p.pod_selector == LabelSelector() and not p.ingress for p in c.policies)
    assert any(peer.ip_block and peer.ip_block.excepts for peer in peers)
    assert any(peer.namespace_selector and peer.pod_selector for peer in peers)
    assert any(
        peer.namespace_selector and peer.namespace_selector.match_expressions for peer in peers
    )
    assert any(isinstance(port.port, str) for port in ports)
    assert any(port.end_port for port in ports)
    assert any("Egress" in p.effective_types for p in c.policies)


def test_synthetic_shape_errors_are_typed():
    with pytest.raises(SyntheticError, match="namespaces"):
        synthetic_cluster(pods=100, namespaces=2, policies=1)
    with pytest.raises(SyntheticError, match="pods"):
        synthetic_cluster(pods=10, namespaces=50, policies=1)


@pytest.mark.needs_nca
def test_small_synthetic_cluster_agrees_with_nca(nca, tmp_path):
    # NCA reads ipBlocks as outside addresses only; compare pod pairs under that reading.
    from netmend.k8s.nca import run_nca

    semantics = Semantics(ipblock_selects_pods=False)
    s = synthetic_cluster(pods=150, namespaces=10, policies=70, seed=21)
    matrix = analyze(s.cluster, semantics)
    (theirs,) = run_nca(nca, [s.cluster], tmp_path)
    pods = s.cluster.pods
    diffs = [
        f"{pods[i].key} -> {pods[j].key}: ours {matrix.connections(i, j)}, "
        f"NCA {theirs.pod_pair(pods[i].key, pods[j].key)}"
        for i, j in itertools.permutations(range(len(pods)), 2)
        if matrix.connections(i, j) != theirs.pod_pair(pods[i].key, pods[j].key)
    ]
    assert not diffs, "\n".join(diffs[:5])


def test_synthetic_admin_tiers_match_pod_engine_and_edit_incrementally():
    s = synthetic_cluster(pods=400, namespaces=10, policies=60, seed=3, admin_policies=30)
    assert len(s.cluster.admin_policies) == 30
    matrix = analyze(s.cluster)
    snap = Simulator(s.cluster).snapshot()
    reps = [cl.pods[:2] for cl in matrix.index.classes]
    for a, b in itertools.product(reps, repeat=2):
        for i in a:
            for j in b:
                if i != j:
                    assert matrix.connections(i, j) == snap.connections(i, j), (i, j)
    admins = s.cluster.admin_policies
    for seed in range(20):
        old, new = admin_change(admins, seed)
        before = matrix.copy()
        update = matrix.update(old, new)
        assert not update.full_recompute
        reported_cells_are_the_changed_cells(before, matrix, update)
        admins = tuple(sorted((*(a for a in admins if a.key != old.key), new), key=lambda a: a.key))
        if seed % 5 == 4:
            assert matrix.disagreements(analyze(s.cluster.with_admin_policies(admins))) == 0
    assert matrix.disagreements(analyze(s.cluster.with_admin_policies(admins))) == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_admin_edits_on_a_synthetic_cluster_equal_a_full_recompute(data):
    """Random admin policies (any tier, action, peers, ports) removed, added back and
    swapped on a cluster with NetworkPolicies, named ports and many classes, mixed with
    NetworkPolicy edits so the two incremental paths share the rows they keep. The pool
    is in the cluster at first, so the classes separate what it reads and the edits
    patch the matrix rather than rebuild it."""
    s = synthetic_cluster(pods=120, namespaces=6, policies=20, seed=data.draw(st.integers(0, 3)),
                          admin_policies=6)  # fmt: skip
    pool = data.draw(st.lists(admin_policies(50), min_size=1, max_size=4))
    pool = [AdminPolicy(**{**p.__dict__, "name": f"pool{k}"}) if p.name != "default" else p
            for k, p in enumerate(pool)]  # fmt: skip
    pool = list({p.key: p for p in pool}.values())
    cluster = s.cluster.with_admin_policies((*s.cluster.admin_policies, *pool))
    matrix = analyze(cluster)
    patched = 0
    for _ in range(data.draw(st.integers(1, 6))):
        admins = cluster.admin_policies
        current = {a.key: a for a in admins}
        present = [current[p.key] for p in pool if p.key in current]
        absent = [p for p in pool if p.key not in current]
        kinds = ["synthetic", "np", *(["remove", "replace"] if present else []),
                 *(["add"] if absent else [])]  # fmt: skip
        kind = data.draw(st.sampled_from(kinds))
        if kind == "np":
            change = policy_change(s, cluster.policies, seed=data.draw(st.integers(0, 10**6)))
            old, new = change.old, change.new
            kept = tuple(p for p in cluster.policies if old is None or p.key != old.key)
            after = cluster.with_policies(kept + ((new,) if new is not None else ()))
        else:
            if kind == "synthetic":  # every shape, rule-less pool policies included
                old, new = admin_change(admins, data.draw(st.integers(0, 10**6)))
            elif kind == "remove":
                old, new = data.draw(st.sampled_from(present)), None
            elif kind == "add":
                old, new = None, data.draw(st.sampled_from(absent))
            else:
                old = data.draw(st.sampled_from(present))
                other = data.draw(st.sampled_from(pool))
                new = AdminPolicy(**{**other.__dict__, "name": old.name, "kind": old.kind})
            kept = tuple(a for a in admins if old is None or a.key != old.key)
            after = cluster.with_admin_policies(kept + ((new,) if new is not None else ()))
        before = matrix.copy()
        update = matrix.update(old, new)
        patched += not update.full_recompute
        reported_cells_are_the_changed_cells(before, matrix, update)
        cluster = after
        assert matrix.disagreements(analyze(cluster)) == 0, (kind, update.reason)



@settings(max_examples=200, deadline=None)
@given(policy=admin_policies(0), seed=st.integers(0, 10**6),
       shape=st.sampled_from(("as-drawn", "no-ingress", "no-egress", "no-rules")))  # fmt: skip
def test_admin_change_edits_every_admin_policy_shape_into_a_valid_policy(policy, seed, shape):
    """Any kind, tier, action and rule lists (none, one direction only): the edit is a
    different policy of the same kind and name that the loader reads back as written."""
    if shape in ("no-ingress", "no-rules"):
        policy = replace(policy, ingress=())
    if shape in ("no-egress", "no-rules"):
        policy = replace(policy, egress=())
    old, new = admin_change((policy,), seed)
    assert old == policy
    assert (new.kind, new.name, new.tier) == (old.kind, old.name, old.tier)
    assert new != old
    if old.kind == "BaselineAdminNetworkPolicy":
        assert new.priority == old.priority == 0
    written = admin_policy_to_dict(new)
    back = parse_admin_policy(written)
    assert admin_policy_to_dict(back) == written
    assert (back.priority, back.ingress != (), back.egress != ()) == (new.priority, new.ingress != (), new.egress != ())
    assert [r.action for d in ("Ingress", "Egress") for r in back.rules(d)] == [
        r.action for d in ("Ingress", "Egress") for r in new.rules(d)
    ]


def test_admin_change_on_a_rule_less_policy_adds_a_rule_and_updates_incrementally():
    s = synthetic_cluster(pods=120, namespaces=6, policies=20, seed=1, admin_policies=6)
    bare = [AdminPolicy(kind=kind, name="default" if kind == "BaselineAdminNetworkPolicy" else "bare",
                        tier=tier, priority=0 if kind == "BaselineAdminNetworkPolicy" else 7,
                        subject=AdminSubject(namespaces=LabelSelector()))
            for kind, tier in (("ClusterNetworkPolicy", "Admin"), ("AdminNetworkPolicy", "Admin"),
                               ("BaselineAdminNetworkPolicy", "Baseline"))]  # fmt: skip
    for policy in bare:
        cluster = s.cluster.with_admin_policies((*s.cluster.admin_policies, policy))
        matrix = analyze(cluster)
        for seed in range(8):
            old, new = admin_change((policy,), seed)
            assert new != old
            if new.priority == old.priority:
                assert len(new.ingress) + len(new.egress) == 1
            probe = matrix.copy()
            probe.update(old, new)
            kept = tuple(a for a in cluster.admin_policies if a.key != old.key)
            assert probe.disagreements(analyze(cluster.with_admin_policies((*kept, new)))) == 0

def outside_disagreements(cluster: Cluster, matrix, semantics: Semantics) -> list[str]:
    snap = Simulator(cluster, semantics).snapshot()
    return [
        f"{pod.key} -> {edge}: classes {matrix.outside_connections(i, k)}, pods {theirs}"
        for i, pod in enumerate(cluster.pods)
        for k, edge in enumerate(matrix.edges)
        if matrix.outside_connections(i, k) != (theirs := snap.connections_external(i, edge, "Egress"))
    ][:5]


@PROPERTY
@given(data=st.data(), ipblocks_hold_pods=st.booleans())
def test_egress_to_outside_points_equals_the_pod_engine_and_follows_edits(data, ipblocks_hold_pods):
    """Every region of outside address space the ipBlocks and admin networks cut, before and
    after NetworkPolicy and admin policy edits."""
    semantics = Semantics(ipblock_selects_pods=ipblocks_hold_pods)
    cluster = data.draw(st.one_of(clusters(max_pods=6, max_policies=4),
                                  tiered_clusters(max_pods=6, max_policies=3, max_admin=3)))  # fmt: skip
    edges = edge_points(cluster)
    assert edges and len(set(edges)) == len(edges)
    matrix = analyze(cluster, semantics, edges)
    assert not outside_disagreements(cluster, matrix, semantics)
    for step in range(data.draw(st.integers(1, 3))):
        if data.draw(st.booleans()) or not cluster.admin_policies:
            old, new = data.draw(edits(cluster))
            kept = tuple(p for p in cluster.policies if old is None or p.key != old.key)
            cluster = cluster.with_policies(kept + ((new,) if new is not None else ()))
        else:
            old = data.draw(st.sampled_from(cluster.admin_policies))
            new = data.draw(st.one_of(st.none(), admin_policies(30 + step)))
            if new is not None:
                new = AdminPolicy(**{**new.__dict__, "name": old.name, "kind": old.kind})
            kept = tuple(a for a in cluster.admin_policies if a.key != old.key)
            cluster = cluster.with_admin_policies(kept + ((new,) if new is not None else ()))
        update = matrix.update(old, new)
        assert matrix.edges == edges
        assert not outside_disagreements(cluster, matrix, semantics), update.reason


def test_edge_points_stand_for_every_region_and_skip_pod_addresses():
    s = synthetic_cluster(pods=300, namespaces=8, policies=40, seed=3, admin_policies=12)
    edges = edge_points(s.cluster)
    pod_ips = {p.ip for p in s.cluster.pods}
    assert edges and not set(edges) & pod_ips
    assert "169.254.169.254" in edges  # the metadata guard rail's network is a region of its own
    matrix = analyze(s.cluster, edges=edges)
    assert not outside_disagreements(s.cluster, matrix, Semantics())
