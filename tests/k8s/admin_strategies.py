"""Hypothesis strategies for admin policies, and a naive reference reading of the tiers.

The reference evaluates the API reference's order literally on the model
objects (no compilation, no index, no port sets), so the engine's compiled
answers can be compared against it.
"""

from __future__ import annotations

import ipaddress
from dataclasses import replace

from hypothesis import strategies as st
from k8s_strategies import (
    NAMESPACES,
    NS_LABELS,
    POD_LABELS,
    PORT_NAMES,
    container_ports,
    label_sets,
    namespaces,
    policies,
    selectors,
)

from netmend.k8s.cluster import build_cluster
from netmend.k8s.model import (
    AdminPeer,
    AdminPolicy,
    AdminPort,
    AdminRule,
    AdminSubject,
    Cluster,
    NamespacedPods,
    Pod,
    labels_of,
)

NETWORKS = ("10.244.0.0/16", "10.244.0.0/30", "10.244.0.4/31", "0.0.0.0/0", "192.168.0.0/16", "172.18.0.0/16")

namespaced = st.builds(NamespacedPods, namespace_selector=selectors(NS_LABELS), pod_selector=selectors(POD_LABELS))
subjects = st.one_of(
    st.builds(AdminSubject, namespaces=selectors(NS_LABELS)),
    st.builds(AdminSubject, pods=namespaced),
)
selector_peers = st.one_of(
    st.builds(AdminPeer, namespaces=selectors(NS_LABELS)),
    st.builds(AdminPeer, pods=namespaced),
)
egress_peers = st.one_of(
    selector_peers,
    st.lists(st.sampled_from(NETWORKS), min_size=1, max_size=2, unique=True).map(lambda n: AdminPeer(networks=tuple(n))),
)
numeric_ports = st.one_of(
    st.tuples(st.sampled_from(("TCP", "UDP", "SCTP")), st.sampled_from((53, 80, 443, 8080, 9090))).map(
        lambda t: AdminPort(protocol=t[0], start=t[1], end=t[1])
    ),
    st.tuples(st.sampled_from(("TCP", "UDP")), st.sampled_from((1, 53, 80, 443)), st.integers(1, 9000)).map(
        lambda t: AdminPort(protocol=t[0], start=t[1], end=min(65535, t[1] + t[2]))
    ),
)
named_ports = st.sampled_from(PORT_NAMES).map(lambda n: AdminPort(named=n))


@st.composite
def admin_rules(draw, direction: str, actions: tuple[str, ...]):
    peers = draw(st.lists(selector_peers if direction == "Ingress" else egress_peers, min_size=1, max_size=3))
    ports_kind = draw(st.sampled_from(("none", "numeric", "named")))
    if ports_kind == "named" and any(p.networks is not None for p in peers):
        ports_kind = "numeric"  # the API refuses named ports beside networks
    if ports_kind == "none":
        ports = None
    else:
        items = numeric_ports if ports_kind == "numeric" else st.one_of(numeric_ports, named_ports)
        ports = tuple(draw(st.lists(items, min_size=1, max_size=3)))
    action = draw(st.sampled_from(actions))
    return AdminRule(action=action, peers=tuple(peers), ports=ports, name=draw(st.sampled_from(("", "r"))),
                     written_action=action)


@st.composite
def admin_policies(draw, index: int):
    kind = draw(st.sampled_from(("ClusterNetworkPolicy", "AdminNetworkPolicy", "BaselineAdminNetworkPolicy")))
    if kind == "ClusterNetworkPolicy":
        tier = draw(st.sampled_from(("Admin", "Baseline")))
        actions = ("Accept", "Deny", "Pass")
    elif kind == "AdminNetworkPolicy":
        tier, actions = "Admin", ("Accept", "Deny", "Pass")
    else:
        tier, actions = "Baseline", ("Accept", "Deny")
    ingress = tuple(draw(st.lists(admin_rules("Ingress", actions), max_size=3)))
    egress = tuple(draw(st.lists(admin_rules("Egress", actions), max_size=3)))
    if kind != "ClusterNetworkPolicy":  # v1alpha1 spells Accept as Allow
        ingress = tuple(replace(r, written_action="Allow" if r.action == "Accept" else r.action) for r in ingress)
        egress = tuple(replace(r, written_action="Allow" if r.action == "Accept" else r.action) for r in egress)
    api = "policy.networking.k8s.io/v1alpha2" if kind == "ClusterNetworkPolicy" else "policy.networking.k8s.io/v1alpha1"
    return AdminPolicy(
        kind=kind,
        name="default" if kind == "BaselineAdminNetworkPolicy" else f"adm{index}",
        tier=tier,
        priority=0 if kind == "BaselineAdminNetworkPolicy" else draw(st.sampled_from((1, 2, 5))),
        subject=draw(subjects),
        ingress=ingress,
        egress=egress,
        api_version=api,
    )


def tier_pods(index: int):
    name = f"pod{index}"
    return st.builds(
        Pod,
        name=st.just(name),
        namespace=st.sampled_from(NAMESPACES),
        labels=label_sets(POD_LABELS).map(labels_of),
        ports=container_ports,
        workload=st.just(name),
        host_network=st.sampled_from((False, False, False, True)),
    )


@st.composite
def tiered_clusters(draw, max_pods: int = 5, max_policies: int = 3, max_admin: int = 4) -> Cluster:
    n_pods = draw(st.integers(2, max_pods))
    objects = [
        *draw(namespaces()),
        *(draw(tier_pods(i)) for i in range(n_pods)),
        *(draw(policies(f"pol{i}")) for i in range(draw(st.integers(0, max_policies)))),
    ]
    admin = {}
    for i in range(draw(st.integers(0, max_admin))):
        pol = draw(admin_policies(i))
        admin[pol.key] = pol
    return build_cluster(objects).with_admin_policies(tuple(admin.values()))


# -- the reference reading ------------------------------------------------------------


def _ns_labels(cluster, name):
    return next(dict(n.labels) for n in cluster.namespaces if n.name == name)


def _in_pods(cluster, sel: NamespacedPods, pod: Pod) -> bool:
    return sel.namespace_selector.matches(_ns_labels(cluster, pod.namespace)) and sel.pod_selector.matches(dict(pod.labels))


def _subject(cluster, subject: AdminSubject, pod: Pod) -> bool:
    if pod.host_network:
        return False
    if subject.namespaces is not None:
        return subject.namespaces.matches(_ns_labels(cluster, pod.namespace))
    return _in_pods(cluster, subject.pods, pod)


def _peer(cluster, peer: AdminPeer, pod: Pod) -> bool:
    if peer.networks is not None:
        ip = ipaddress.ip_address(pod.ip)
        return any(ip in ipaddress.ip_network(n) for n in peer.networks if ipaddress.ip_network(n).version == ip.version)
    if pod.host_network:
        return False
    if peer.namespaces is not None:
        return peer.namespaces.matches(_ns_labels(cluster, pod.namespace))
    if peer.pods is not None:
        return _in_pods(cluster, peer.pods, pod)
    return False


def _port(rule: AdminRule, dst: Pod, protocol: str, port: int) -> bool:
    if rule.ports is None:
        return True
    for p in rule.ports:
        if p.named:
            if any(cp.name == p.named and (cp.protocol, cp.port) == (protocol, port) for cp in dst.ports):
                return True
        elif p.protocol == protocol and p.start <= port <= p.end:
            return True
    return False


def _tier(cluster, tier, direction, subject, peer, dst, protocol, port):
    """First matching action of ``tier`` for ``subject``, or None."""
    ordered = sorted((p for p in cluster.admin_policies if p.tier == tier), key=lambda p: (p.priority, p.key))
    for pol in ordered:
        if not _subject(cluster, pol.subject, subject):
            continue
        for rule in pol.rules(direction):
            if any(_peer(cluster, pr, peer) for pr in rule.peers) and _port(rule, dst, protocol, port):
                return rule.action
    return None


def reference_direction(cluster, np_decision, direction, subject: Pod, peer: Pod, dst: Pod, protocol, port, exempt):
    """The API reference's order for one direction; ``np_decision`` is the NetworkPolicy
    tier's answer (None: the pod is not isolated)."""
    if not exempt:
        action = _tier(cluster, "Admin", direction, subject, peer, dst, protocol, port)
        if action in ("Accept", "Deny"):
            return action == "Accept"
    if np_decision is not None:
        return np_decision
    if not exempt:
        action = _tier(cluster, "Baseline", direction, subject, peer, dst, protocol, port)
        if action == "Deny":
            return False
    return True
