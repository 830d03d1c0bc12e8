"""Builders for admin-tier truth tables: policies as manifests carry them."""

from __future__ import annotations

from netmend.k8s.manifest import parse_object

CNP_API = "policy.networking.k8s.io/v1alpha2"
ANP_API = "policy.networking.k8s.io/v1alpha1"
ALL_NS = {"namespaces": {}}


def cnp(name, tier="Admin", priority=10, subject=None, ingress=None, egress=None):
    spec = {"tier": tier, "priority": priority, "subject": subject or ALL_NS}
    if ingress is not None:
        spec["ingress"] = ingress
    if egress is not None:
        spec["egress"] = egress
    return parse_object({"apiVersion": CNP_API, "kind": "ClusterNetworkPolicy", "metadata": {"name": name}, "spec": spec})


def anp(name, priority=10, subject=None, ingress=None, egress=None):
    spec = {"priority": priority, "subject": subject or ALL_NS}
    if ingress is not None:
        spec["ingress"] = ingress
    if egress is not None:
        spec["egress"] = egress
    return parse_object({"apiVersion": ANP_API, "kind": "AdminNetworkPolicy", "metadata": {"name": name}, "spec": spec})


def banp(subject=None, ingress=None, egress=None, name="default"):
    spec = {"subject": subject or ALL_NS}
    if ingress is not None:
        spec["ingress"] = ingress
    if egress is not None:
        spec["egress"] = egress
    return parse_object(
        {"apiVersion": ANP_API, "kind": "BaselineAdminNetworkPolicy", "metadata": {"name": name}, "spec": spec}
    )


def pods_peer(ns=None, **labels):
    """A ``pods`` peer: pods with ``labels`` in namespaces matching ``ns`` labels."""
    return {"pods": {"namespaceSelector": {"matchLabels": ns} if ns else {}, "podSelector": {"matchLabels": labels} if labels else {}}}


def ns_peer(**labels):
    return {"namespaces": {"matchLabels": labels} if labels else {}}


def rule(action, *peers, protocols=None, name=None, direction="from"):
    out = {"action": action, direction: list(peers) or [ALL_NS]}
    if name:
        out["name"] = name
    if protocols is not None:
        out["protocols"] = protocols
    return out


def tcp(port, end=None):
    dest = {"number": port} if end is None else {"range": {"start": port, "end": end}}
    return {"tcp": {"destinationPort": dest}}
