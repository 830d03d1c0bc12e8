"""Cluster-scoped admin policies (plain dicts) to the model and back.

Three kinds of ``policy.networking.k8s.io`` are read:

- ``ClusterNetworkPolicy`` (v1alpha2): ``tier`` Admin or Baseline,
  ``priority`` 0..1000, actions Accept, Deny, Pass, ports as ``protocols``
  (``tcp``/``udp``/``sctp`` with ``destinationPort`` ``number`` or
  ``range``, or ``destinationNamedPort``), at most 25 rules per direction
  and 25 peers per rule;
- ``AdminNetworkPolicy`` (v1alpha1): the Admin tier, actions Allow (read as
  Accept), Deny, Pass, ports as ``portNumber``/``portRange``/``namedPort``,
  at most 100 rules and 100 peers;
- ``BaselineAdminNetworkPolicy`` (v1alpha1): the Baseline tier, the
  singleton named ``default``, actions Allow and Deny.

Every constraint the API server enforces (schema and validation rules) is
checked here, so an object netmend accepts is one a cluster would accept.
Pure: no files, no YAML. Errors are :class:`ManifestError`.
"""

from __future__ import annotations

import re
from typing import Any

from netmend.k8s.errors import ManifestError
from netmend.k8s.manifest import _At, _network, _selector, selector_to_dict
from netmend.k8s.model import (
    ACCEPT,
    ADMIN_NETWORK_POLICY,
    ADMIN_TIER,
    BASELINE_ADMIN_NETWORK_POLICY,
    BASELINE_TIER,
    CLUSTER_NETWORK_POLICY,
    DENY,
    PASS,
    PROTOCOLS,
    TIERS,
    AdminPeer,
    AdminPolicy,
    AdminPort,
    AdminRule,
    AdminSubject,
    LabelSelector,
    NamespacedPods,
)

POLICY_GROUP = "policy.networking.k8s.io"
API_VERSIONS: dict[str, str] = {
    CLUSTER_NETWORK_POLICY: f"{POLICY_GROUP}/v1alpha2",
    ADMIN_NETWORK_POLICY: f"{POLICY_GROUP}/v1alpha1",
    BASELINE_ADMIN_NETWORK_POLICY: f"{POLICY_GROUP}/v1alpha1",
}
BASELINE_SINGLETON = "default"
MIN_PRIORITY, MAX_PRIORITY = 0, 1000
MAX_RULE_NAME = 100
_MAX_NETWORKS = 25


class _Dialect:
    """What one kind allows: actions as written -> in force, limits, peer fields."""

    def __init__(self, kind, actions, max_rules, max_peers, ports_field, egress_peers, has_priority, has_tier):
        self.kind = kind
        self.actions: dict[str, str] = actions
        self.max_rules: int = max_rules
        self.max_peers: int = max_peers
        self.ports_field: str = ports_field
        self.egress_peers: tuple[str, ...] = egress_peers
        self.has_priority: bool = has_priority
        self.has_tier: bool = has_tier


_INGRESS_PEERS = ("namespaces", "pods")
_DIALECTS: dict[str, _Dialect] = {
    CLUSTER_NETWORK_POLICY: _Dialect(
        CLUSTER_NETWORK_POLICY,
        {ACCEPT: ACCEPT, DENY: DENY, PASS: PASS},
        25, 25, "protocols",
        ("namespaces", "pods", "nodes", "networks", "domainNames"),
        True, True,
    ),
    ADMIN_NETWORK_POLICY: _Dialect(
        ADMIN_NETWORK_POLICY,
        {"Allow": ACCEPT, DENY: DENY, PASS: PASS},
        100, 100, "ports",
        ("namespaces", "pods", "nodes", "networks", "domainNames"),
        True, False,
    ),
    BASELINE_ADMIN_NETWORK_POLICY: _Dialect(
        BASELINE_ADMIN_NETWORK_POLICY,
        {"Allow": ACCEPT, DENY: DENY},
        100, 100, "ports",
        ("namespaces", "pods", "nodes", "networks"),
        False, False,
    ),
}
# Port names follow the IANA service-name rule (as container port names do).
_PORT_NAME = re.compile(r"^(?=.*[a-z])[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$")
# A domain name, optionally with a leading "*." that stands for one or more labels.
_DOMAIN = re.compile(
    r"^(\*\.)?([A-Za-z0-9]([-A-Za-z0-9_]*[A-Za-z0-9])?\.)+[A-Za-z0-9]([-A-Za-z0-9_]*[A-Za-z0-9])?\.?$"
)


def parse_admin_policy(obj: Any, source: str = "") -> AdminPolicy:
    """Convert one admin policy object into the model, validating every field.

    Examples
    --------
    >>> pol = parse_admin_policy({
    ...     "apiVersion": "policy.networking.k8s.io/v1alpha2", "kind": "ClusterNetworkPolicy",
    ...     "metadata": {"name": "deny-db"},
    ...     "spec": {"tier": "Admin", "priority": 10, "subject": {"namespaces": {}},
    ...              "ingress": [{"action": "Deny", "from": [{"namespaces": {}}],
    ...                           "protocols": [{"tcp": {"destinationPort": {"number": 5432}}}]}]}})
    >>> pol.key, pol.tier, pol.priority, pol.ingress[0].ports
    ('ClusterNetworkPolicy/deny-db', 'Admin', 10, (AdminPort(protocol='TCP', start=5432, end=5432, named=None),))
    """
    top = _At(source, "", obj)
    top.mapping(("apiVersion", "kind", "metadata", "spec", "status"))
    kind_at = top.key("kind")
    kind = kind_at.string()
    if kind not in _DIALECTS:
        raise kind_at.fail("one of " + ", ".join(_DIALECTS))
    dialect = _DIALECTS[kind]
    api_at = top.key("apiVersion")
    if api_at.string() != API_VERSIONS[kind]:
        raise api_at.fail(f"{API_VERSIONS[kind]!r} for a {kind}")
    meta = top.key("metadata")
    meta.mapping()
    if meta.key("namespace").present():
        raise meta.key("namespace").fail(f"no namespace (a {kind} is cluster-scoped)")
    name_at = meta.key("name")
    name = name_at.name()
    if kind == BASELINE_ADMIN_NETWORK_POLICY and name != BASELINE_SINGLETON:
        raise name_at.fail(f"{BASELINE_SINGLETON!r} (the {kind} is a singleton)")
    spec = top.key("spec")
    allowed = ["subject", "ingress", "egress"]
    if dialect.has_priority:
        allowed.insert(0, "priority")
    if dialect.has_tier:
        allowed.insert(0, "tier")
    spec.mapping(tuple(allowed))
    if dialect.has_tier:
        tier_at = spec.key("tier")
        if tier_at.value not in TIERS:
            raise tier_at.fail("'Admin' or 'Baseline'")
        tier = tier_at.value
    else:
        tier = ADMIN_TIER if kind == ADMIN_NETWORK_POLICY else BASELINE_TIER
    priority = spec.key("priority").integer(MIN_PRIORITY, MAX_PRIORITY) if dialect.has_priority else 0
    return AdminPolicy(
        kind=kind,
        name=name,
        tier=tier,
        priority=priority,
        subject=_subject(spec.key("subject")),
        ingress=_rules(spec.key("ingress"), dialect, "Ingress"),
        egress=_rules(spec.key("egress"), dialect, "Egress"),
        api_version=API_VERSIONS[kind],
        labels=meta.key("labels").labels(),
        annotations=meta.key("annotations").annotations(),
    )


def _one_of(at: _At, fields: tuple[str, ...], what: str) -> str:
    """The single field of ``fields`` set in mapping ``at`` (exactly one is required)."""
    raw = at.mapping(fields)
    given = [f for f in fields if raw.get(f) is not None]
    if len(given) != 1:
        raise at.fail(f"{what} with exactly one of " + ", ".join(fields))
    return given[0]


def _namespaced_pods(at: _At) -> NamespacedPods:
    at.mapping(("namespaceSelector", "podSelector"))
    pod_at, ns_at = at.key("podSelector"), at.key("namespaceSelector")
    if not pod_at.present():
        raise ManifestError(at.source, pod_at.path, "a label selector ({} selects every pod)")
    return NamespacedPods(
        namespace_selector=_selector(ns_at) if ns_at.present() else LabelSelector(),
        pod_selector=_selector(pod_at),
    )


def _subject(at: _At) -> AdminSubject:
    if not at.present():
        raise ManifestError(at.source, at.path, "a subject (namespaces or pods)")
    field = _one_of(at, ("namespaces", "pods"), "a subject")
    if field == "namespaces":
        return AdminSubject(namespaces=_selector(at.key("namespaces")))
    return AdminSubject(pods=_namespaced_pods(at.key("pods")))


def _bounded_items(at: _At, low: int, high: int, what: str) -> list[_At]:
    items = at.items()
    if not low <= len(items) <= high:
        raise at.fail(f"{low} to {high} {what}")
    return items


def _rules(at: _At, dialect: _Dialect, direction: str) -> tuple[AdminRule, ...]:
    if not at.present():
        return ()
    peers_field = "from" if direction == "Ingress" else "to"
    peer_fields = _INGRESS_PEERS if direction == "Ingress" else dialect.egress_peers
    out = []
    for item in _bounded_items(at, 0, dialect.max_rules, f"{direction.lower()} rules"):
        item.mapping(("name", "action", peers_field, dialect.ports_field))
        name_at = item.key("name")
        name = name_at.string(optional=True, default="") if name_at.present() else ""
        if len(name) > MAX_RULE_NAME:
            raise name_at.fail(f"a name of at most {MAX_RULE_NAME} characters")
        action_at = item.key("action")
        if action_at.value not in dialect.actions:
            raise action_at.fail("one of " + ", ".join(dialect.actions) + f" (in a {dialect.kind})")
        action = dialect.actions[action_at.value]
        peers_at = item.key(peers_field)
        if not peers_at.present():
            raise ManifestError(item.source, peers_at.path, f"a list of 1 to {dialect.max_peers} peers")
        peers = tuple(
            _peer(p, peer_fields, action, dialect)
            for p in _bounded_items(peers_at, 1, dialect.max_peers, "peers")
        )
        ports_at = item.key(dialect.ports_field)
        ports = None
        if ports_at.present():
            parse = _protocol_entry if dialect.ports_field == "protocols" else _anp_port
            ports = tuple(parse(p) for p in _bounded_items(ports_at, 1, dialect.max_peers, "port entries"))
            if any(p.named for p in ports):
                for peer_at, peer in zip(peers_at.items(), peers, strict=True):
                    if peer.kind in ("networks", "nodes", "domainNames"):
                        raise peer_at.fail(
                            "a namespaces or pods peer (a rule with a named port cannot name "
                            "networks, nodes or domainNames, which have no named ports)"
                        )
        out.append(AdminRule(action=action, peers=peers, ports=ports, name=name, written_action=action_at.value))
    return tuple(out)


def _peer(at: _At, fields: tuple[str, ...], action: str, dialect: _Dialect) -> AdminPeer:
    field = _one_of(at, fields, "a peer")
    sub = at.key(field)
    if field == "namespaces":
        return AdminPeer(namespaces=_selector(sub))
    if field == "pods":
        return AdminPeer(pods=_namespaced_pods(sub))
    if field == "nodes":
        return AdminPeer(nodes=_selector(sub))
    if field == "networks":
        cidrs = []
        for item in _bounded_items(sub, 1, _MAX_NETWORKS, "CIDRs"):
            _network(item)
            if item.value in cidrs:
                raise item.fail("no repeated CIDR")
            cidrs.append(item.value)
        return AdminPeer(networks=tuple(cidrs))
    if action != ACCEPT:
        raise at.fail(f"no domainNames peer in a {_written(dialect, action)} rule (domainNames serve Accept/Allow rules only)")
    names = []
    for item in _bounded_items(sub, 1, _MAX_NETWORKS, "domain names"):
        if not isinstance(item.value, str) or not _DOMAIN.match(item.value):
            raise item.fail("a domain name such as example.com or *.example.com")
        if item.value in names:
            raise item.fail("no repeated domain name")
        names.append(item.value)
    return AdminPeer(domain_names=tuple(names))


def _written(dialect: _Dialect, action: str) -> str:
    for word, meant in dialect.actions.items():
        if meant == action:
            return word
    raise ManifestError(dialect.kind, "action", f"one of {', '.join(dialect.actions.values())} (in a {dialect.kind})",
                        action)


def action_spelling(kind: str, action: str) -> str:
    """How a rule of ``kind`` writes ``action`` (``Accept`` is ``Allow`` in v1alpha1).

    The one place a written action comes from: serialising a policy and
    building a rule both ask here, so the spelling follows the action
    whatever edit set it.

    Examples
    --------
    >>> action_spelling("AdminNetworkPolicy", "Accept"), action_spelling("ClusterNetworkPolicy", "Accept")
    ('Allow', 'Accept')
    """
    return _written(_DIALECTS[kind], action)


def _port_name(at: _At) -> str:
    if not isinstance(at.value, str) or not _PORT_NAME.match(at.value):
        raise at.fail("a container port name (lowercase IANA service name)")
    return at.value


def _range(at: _At, protocol: str) -> AdminPort:
    at.mapping(("protocol", "start", "end") if protocol == "" else ("start", "end"))
    start = at.key("start").integer(1, 65535)
    end = at.key("end").integer(1, 65535)
    if not start < end:
        raise at.key("end").fail(f"an end port greater than start ({start})")
    return AdminPort(protocol=protocol or _proto(at.key("protocol")), start=start, end=end)


def _proto(at: _At) -> str:
    if not at.present():
        return "TCP"
    if at.value not in PROTOCOLS:
        raise at.fail("one of " + ", ".join(PROTOCOLS))
    return at.value


def _protocol_entry(at: _At) -> AdminPort:
    """One ``protocols`` entry of a ClusterNetworkPolicy."""
    field = _one_of(at, ("tcp", "udp", "sctp", "destinationNamedPort"), "a protocol entry")
    if field == "destinationNamedPort":
        return AdminPort(named=_port_name(at.key(field)))
    proto_at = at.key(field)
    proto_at.mapping(("destinationPort",))
    port_at = proto_at.key("destinationPort")
    if not port_at.present():
        raise ManifestError(at.source, port_at.path, "a destinationPort (number or range)")
    which = _one_of(port_at, ("number", "range"), "a destinationPort")
    if which == "number":
        number = port_at.key("number").integer(1, 65535)
        return AdminPort(protocol=field.upper(), start=number, end=number)
    return _range(port_at.key("range"), field.upper())


def _anp_port(at: _At) -> AdminPort:
    """One ``ports`` entry of an AdminNetworkPolicy or BaselineAdminNetworkPolicy."""
    field = _one_of(at, ("portNumber", "namedPort", "portRange"), "a port entry")
    if field == "namedPort":
        return AdminPort(named=_port_name(at.key(field)))
    if field == "portRange":
        return _range(at.key(field), "")
    number_at = at.key(field)
    number_at.mapping(("protocol", "port"))
    number = number_at.key("port").integer(1, 65535)
    return AdminPort(protocol=_proto(number_at.key("protocol")), start=number, end=number)


# -- model back to plain Kubernetes dicts -------------------------------------------


def _pods_to_dict(pods: NamespacedPods) -> dict:
    return {
        "namespaceSelector": selector_to_dict(pods.namespace_selector),
        "podSelector": selector_to_dict(pods.pod_selector),
    }


def _peer_to_dict(peer: AdminPeer) -> dict:
    if peer.namespaces is not None:
        return {"namespaces": selector_to_dict(peer.namespaces)}
    if peer.pods is not None:
        return {"pods": _pods_to_dict(peer.pods)}
    if peer.nodes is not None:
        return {"nodes": selector_to_dict(peer.nodes)}
    if peer.networks is not None:
        return {"networks": list(peer.networks)}
    return {"domainNames": list(peer.domain_names or ())}


def _port_to_dict(port: AdminPort, kind: str) -> dict:
    if kind == CLUSTER_NETWORK_POLICY:
        if port.named:
            return {"destinationNamedPort": port.named}
        dest = {"number": port.start} if port.start == port.end else {"range": {"start": port.start, "end": port.end}}
        return {str(port.protocol).lower(): {"destinationPort": dest}}
    if port.named:
        return {"namedPort": port.named}
    if port.start == port.end:
        return {"portNumber": {"protocol": port.protocol, "port": port.start}}
    return {"portRange": {"protocol": port.protocol, "start": port.start, "end": port.end}}


def admin_policy_to_dict(policy: AdminPolicy) -> dict:
    """An admin policy as a plain object; :func:`parse_admin_policy` reads it back equal."""
    dialect = _DIALECTS[policy.kind]
    metadata: dict[str, Any] = {"name": policy.name}
    if policy.labels:
        metadata["labels"] = dict(policy.labels)
    if policy.annotations:
        metadata["annotations"] = dict(policy.annotations)
    spec: dict[str, Any] = {}
    if dialect.has_tier:
        spec["tier"] = policy.tier
    if dialect.has_priority:
        spec["priority"] = policy.priority
    subject = policy.subject
    spec["subject"] = (
        {"namespaces": selector_to_dict(subject.namespaces)}
        if subject.namespaces is not None
        else {"pods": _pods_to_dict(subject.pods or NamespacedPods())}
    )
    for direction, rules in (("ingress", policy.ingress), ("egress", policy.egress)):
        if not rules:
            continue
        out = []
        for rule in rules:
            entry: dict[str, Any] = {}
            if rule.name:
                entry["name"] = rule.name
            entry["action"] = action_spelling(policy.kind, rule.action)
            entry["from" if direction == "ingress" else "to"] = [_peer_to_dict(p) for p in rule.peers]
            if rule.ports is not None:
                entry[dialect.ports_field] = [_port_to_dict(p, policy.kind) for p in rule.ports]
            out.append(entry)
        spec[direction] = out
    return {"apiVersion": policy.api_version or API_VERSIONS[policy.kind], "kind": policy.kind, "metadata": metadata, "spec": spec}
