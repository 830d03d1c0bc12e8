"""The per-pod effective view agrees with the semantics it flattens."""

from __future__ import annotations

import ipaddress

from hypothesis import given, settings
from k8s_cases import pod, policy
from k8s_strategies import clusters

from netmend.k8s import PortSet, Simulator, build_cluster, demo_cluster, effective_view
from netmend.k8s.effective import DirectionView


def _covers(rule, address: str) -> bool:
    peers = rule.peers
    if peers.any or address in peers.pod_ips:
        return True
    ip = ipaddress.ip_address(address)
    return any(
        ip in ipaddress.ip_network(c.cidr, strict=False)
        and not any(ip in ipaddress.ip_network(e, strict=False) for e in c.excepts)
        for c in peers.cidrs
    )


def _admitted(side: DirectionView, peer: str) -> PortSet:
    if not side.isolated:
        return PortSet.all()
    out = PortSet()
    for rule in side.rules:
        if _covers(rule, peer):
            out = out | rule.ports
    return out


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(cluster=clusters(max_pods=5, max_policies=4))
def test_view_allows_exactly_what_the_semantics_allow(cluster):
    views = effective_view(cluster)
    snap = Simulator(cluster).snapshot()
    for i, src in enumerate(views):
        for j, dst in enumerate(views):
            flat = _admitted(src.egress, dst.ip) & _admitted(dst.ingress, src.ip)
            assert flat == snap.connections(i, j), (src.pod, dst.pod)
        for address in ("8.8.8.8", "10.1.2.3", "192.168.1.1", "172.16.5.5"):
            assert _admitted(src.egress, address) == snap.connections_external(i, address, "Egress")
            assert _admitted(src.ingress, address) == snap.connections_external(
                i, address, "Ingress"
            )


def test_demo_view():
    views = {v.pod: v for v in effective_view(demo_cluster())}
    cart = views["default/cartservice-0"]
    assert cart.ingress.isolated and cart.ingress.policies == ("default/cartservice",)
    (rule,) = cart.ingress.rules
    frontend, checkout = views["default/frontend-0"].ip, views["default/checkoutservice-0"].ip
    assert rule.peers.pod_ips == tuple(
        sorted((frontend, checkout), key=lambda a: ipaddress.ip_address(a))
    )
    assert str(rule.ports) == "TCP 7070"
    assert cart.egress.rules[0].peers.any and cart.egress.rules[0].ports.is_all()
    assert not views["kube-system/coredns-0"].ingress.isolated


def test_egress_named_ports_resolve_per_peer():
    objs = [
        pod("w", app="web", ip="10.244.0.10"),
        pod("d", ip="10.244.0.11", ports=[("http", 8080, "TCP")]),
        pod("e", ip="10.244.0.12", ports=[("http", 9090, "TCP")]),
        pod("f", ip="10.244.0.13", ports=[("http", 8080, "TCP")]),
        policy(
            "p",
            {
                "podSelector": {"matchLabels": {"app": "web"}},
                "policyTypes": ["Egress"],
                "egress": [{"ports": [{"port": "http"}, {"port": 53, "protocol": "UDP"}]}],
            },
        ),
    ]
    (web,) = [v for v in effective_view(build_cluster(objs)) if v.pod == "default/w"]
    assert [(r.peers.any, r.peers.pod_ips, str(r.ports)) for r in web.egress.rules] == [
        (True, (), "UDP 53"),
        (False, ("10.244.0.11", "10.244.0.13"), "TCP 8080"),
        (False, ("10.244.0.12",), "TCP 9090"),
    ]
