"""Where a probe goes: source pod, endpoint pods and ports, kube-dns, selectors.

The planner needs the pods behind a probe to ask the engine's snapshot which
side drops it and which rules are involved; this module resolves them with
the simulator's public index, the same way :class:`netmend.k8s.Prober` does
(first pod of the workload, ``targetPort`` numbers or names, kube-dns on
53/UDP).
"""

from __future__ import annotations

import ipaddress

from netmend.k8s.cluster import KUBE_DNS_NAMESPACE, KUBE_DNS_SERVICE
from netmend.k8s.model import NAMESPACE_NAME_LABEL, LabelSelector, Peer, Service
from netmend.k8s.probe import DNS_PORT, DNS_PROTOCOL, PROBE_PROTOCOL, parse_target
from netmend.k8s.semantics import Simulator
from netmend.repair.edits import PeerSpec
from netmend.repair.errors import IntentError

# Labels that differ between pods of one workload or between its revisions.
VOLATILE_LABELS = frozenset(
    {
        "pod-template-hash",
        "controller-revision-hash",
        "pod-template-generation",
        "statefulset.kubernetes.io/pod-name",
        "apps.kubernetes.io/pod-index",
    }
)
# Tried first, in this order, when picking a one-label selector for a workload.
PREFERRED_KEYS = ("app", "app.kubernetes.io/name", "k8s-app", "name")

Endpoint = tuple[int, int]  # (pod index, pod port)


def source_pod(sim: Simulator, source: str) -> int:
    """The pod a probe named ``[namespace/]workload`` runs in (first by name)."""
    namespace, _, workload = source.rpartition("/")
    matches = [
        i
        for i, p in enumerate(sim.pods)
        if p.workload == workload and (not namespace or p.namespace == namespace)
    ]
    if not matches:
        raise IntentError(f"probe source {source!r}: no pod of a workload named {workload!r}")
    if not namespace and len({sim.pods[i].namespace for i in matches}) > 1:
        default = [i for i in matches if sim.pods[i].namespace == "default"]
        if not default:
            raise IntentError(f"probe source {source!r} exists in several namespaces; write namespace/{workload}")
        matches = default
    return min(matches, key=lambda i: sim.pods[i].name)


def service_endpoints(sim: Simulator, svc: Service, port: int, protocol: str) -> tuple[Endpoint, ...]:
    """``(pod, pod port)`` for every endpoint of ``svc`` on ``port``/``protocol``."""
    out: list[Endpoint] = []
    if svc.selector is None:
        return ()
    pods = sorted(sim.select_pods(LabelSelector(match_labels=svc.selector), svc.namespace))
    for sp in svc.ports:
        if sp.port != port or sp.protocol != protocol:
            continue
        for i in pods:
            if isinstance(sp.target_port, int):
                out.append((i, sp.target_port))
            else:
                named = sim.named_ports[i].get(sp.target_port)
                if named is not None and named[0] == protocol:
                    out.append((i, named[1]))
    return tuple(out)


def target_endpoints(sim: Simulator, target: str, namespace: str) -> tuple[Endpoint, ...]:
    """Endpoints a probe to ``service[.ns]:port`` from ``namespace`` may reach."""
    parsed = parse_target(target)
    try:
        svc = sim.cluster.service(parsed.service, parsed.namespace or namespace)
    except KeyError:
        raise IntentError(f"probe target {target!r}: no such Service") from None
    return service_endpoints(sim, svc, parsed.port, PROBE_PROTOCOL)


def dns_endpoints(sim: Simulator) -> tuple[Endpoint, ...]:
    """kube-dns endpoints on 53/UDP (empty when the cluster has no kube-dns)."""
    try:
        svc = sim.cluster.service(KUBE_DNS_SERVICE, KUBE_DNS_NAMESPACE)
    except KeyError:
        return ()
    return service_endpoints(sim, svc, DNS_PORT, DNS_PROTOCOL)


def dns_peer(sim: Simulator) -> PeerSpec:
    """The peer an egress rule names to reach kube-dns."""
    try:
        svc = sim.cluster.service(KUBE_DNS_SERVICE, KUBE_DNS_NAMESPACE)
        labels = svc.selector or ()
    except KeyError:
        labels = (("k8s-app", "kube-dns"),)
    return PeerSpec(pod_labels=labels, namespace_labels=((NAMESPACE_NAME_LABEL, KUBE_DNS_NAMESPACE),))


def workload_peer(sim: Simulator, pod: int, policy_namespace: str) -> PeerSpec:
    """The narrowest label selector naming the workload of ``pod``.

    A single stable label (``app`` first) is used when it selects exactly the
    workload's pods in their namespace; otherwise every stable label.
    """
    target = sim.pods[pod]
    same = frozenset(
        i
        for i, p in enumerate(sim.pods)
        if p.namespace == target.namespace and p.workload == target.workload
    )
    labels = {k: v for k, v in target.labels if k not in VOLATILE_LABELS}
    keys = [k for k in PREFERRED_KEYS if k in labels] + sorted(k for k in labels if k not in PREFERRED_KEYS)
    chosen: tuple[tuple[str, str], ...] = tuple(sorted(labels.items()))
    for key in keys:
        single = ((key, labels[key]),)
        if sim.select_pods(LabelSelector(match_labels=single), target.namespace) == same:
            chosen = single
            break
    ns = None if target.namespace == policy_namespace else ((NAMESPACE_NAME_LABEL, target.namespace),)
    return PeerSpec(pod_labels=chosen, namespace_labels=ns)


def peer_matches(sim: Simulator, peer: Peer, policy_namespace: str, pod: int) -> bool:
    """Whether one ``from``/``to`` entry of a policy covers pod index ``pod``."""
    target = sim.pods[pod]
    if peer.ip_block is not None:
        if not sim.semantics.ipblock_selects_pods or not target.ip:
            return False
        ip = ipaddress.ip_address(target.ip)
        net = ipaddress.ip_network(peer.ip_block.cidr, strict=False)
        holes = [ipaddress.ip_network(c, strict=False) for c in peer.ip_block.excepts]
        return ip in net and not any(ip in h for h in holes)
    pod_selector = peer.pod_selector or LabelSelector()
    if peer.namespace_selector is None:
        namespaces: tuple[str, ...] = (policy_namespace,)
    else:
        namespaces = sim.select_namespaces(peer.namespace_selector)
    return target.namespace in namespaces and pod_selector.matches(dict(target.labels))
