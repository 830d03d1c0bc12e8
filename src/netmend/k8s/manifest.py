"""Kubernetes objects (plain dicts) to model objects and back.

Pure: no files, no YAML text. Every rejection is a :class:`ManifestError`
naming the object's source and the dotted path of the bad field.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from netmend.k8s.errors import ManifestError
from netmend.k8s.model import (
    ADMIN_KINDS,
    NAMESPACE_NAME_LABEL,
    POLICY_TYPES,
    PROTOCOLS,
    SELECTOR_OPERATORS,
    SERVICE_TYPES,
    TRAFFIC_POLICIES,
    AdminPolicy,
    ContainerPort,
    IPBlock,
    Labels,
    LabelSelector,
    Namespace,
    NetworkPolicy,
    Peer,
    Pod,
    PolicyPort,
    Requirement,
    Rule,
    Service,
    ServicePort,
    labels_of,
)

NETWORK_POLICY_API = "networking.k8s.io/v1"
# Kinds whose pod template becomes one pod of the model.
WORKLOAD_KINDS: tuple[str, ...] = (
    "Deployment",
    "ReplicaSet",
    "StatefulSet",
    "DaemonSet",
    "ReplicationController",
    "Job",
    "CronJob",
)
# Where each workload kind keeps its pod template (CronJob: inside its Job template).
TEMPLATE_PATHS: dict[str, tuple[str, ...]] = {"CronJob": ("spec", "jobTemplate", "spec", "template")}
MODEL_KINDS: tuple[str, ...] = (
    "Namespace", "Pod", "Service", "NetworkPolicy", *ADMIN_KINDS, *WORKLOAD_KINDS,
)
# IANA service name: 1-15 lowercase letters, digits and inner hyphens, one letter at least.
_PORT_NAME = re.compile(r"^(?=.*[a-z])[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$")
# Label values: empty, or up to 63 alphanumerics with inner '-', '_', '.'.
_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$")
# Label keys: an optional DNS-subdomain prefix and '/', then a name like a value.
_LABEL_KEY = re.compile(
    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
    r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"
)
# Object names: a lowercase DNS subdomain.
_OBJECT_NAME = re.compile(r"^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$")
_LABEL_KEY_EXPECTED = "a label key ([prefix/]name, name: alphanumerics, '-', '_', '.', at most 63)"
_LABEL_VALUE_EXPECTED = (
    "a label value (at most 63 alphanumerics, '-', '_', '.', alphanumeric at both ends)"
)

ModelObject = Namespace | Pod | Service | NetworkPolicy | AdminPolicy


@dataclass(frozen=True)
class Skipped:
    """An object of a kind that does not shape the network (ServiceAccount, ...)."""

    source: str
    kind: str
    name: str


class _At:
    """A cursor on one field of one object, for precise error messages."""

    __slots__ = ("source", "path", "value")

    def __init__(self, source: str, path: str, value: Any):
        self.source, self.path, self.value = source, path, value

    def fail(self, expected: str) -> ManifestError:
        return ManifestError(self.source, self.path, expected, self.value)

    def key(self, name: str) -> _At:
        sep = "." if self.path else ""
        value = self.value.get(name, ...) if isinstance(self.value, Mapping) else ...
        return _At(self.source, f"{self.path}{sep}{name}", value)

    def present(self) -> bool:
        return self.value is not ... and self.value is not None

    def mapping(self, allowed: tuple[str, ...] | None = None, *, optional: bool = False) -> dict:
        if not self.present() and optional:
            return {}
        if not isinstance(self.value, Mapping):
            raise self.fail("a mapping")
        if allowed is not None:
            for name in self.value:
                if name not in allowed:
                    raise self.key(str(name)).fail("one of the fields " + ", ".join(allowed))
        return dict(self.value)

    def items(self) -> list[_At]:
        if not isinstance(self.value, list):
            raise self.fail("a list")
        return [_At(self.source, f"{self.path}[{i}]", v) for i, v in enumerate(self.value)]

    def string(self, *, optional: bool = False, default: str | None = None) -> str | None:
        if not self.present():
            if optional:
                return default
            raise ManifestError(self.source, self.path, "a string")
        if not isinstance(self.value, str) or not self.value:
            raise self.fail("a non-empty string")
        return self.value

    def integer(self, low: int, high: int) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.fail(f"an integer in {low}..{high}")
        if not low <= self.value <= high:
            raise self.fail(f"an integer in {low}..{high}")
        return self.value

    def labels(self) -> Labels:
        raw = self.mapping(optional=True)
        for name, value in raw.items():
            if not isinstance(name, str) or not _LABEL_KEY.match(name):
                raise self.key(str(name)).fail(_LABEL_KEY_EXPECTED)
            if not isinstance(value, str) or not _LABEL_VALUE.match(value):
                raise self.key(name).fail(_LABEL_VALUE_EXPECTED)
        return labels_of(raw)

    def annotations(self) -> Labels:
        raw = self.mapping(optional=True)
        for name, value in raw.items():
            if not isinstance(name, str) or not _LABEL_KEY.match(name):
                raise self.key(str(name)).fail(_LABEL_KEY_EXPECTED)
            if not isinstance(value, str):
                raise self.key(name).fail("a string annotation value")
        return labels_of(raw)

    def name(self, default: str | None = None) -> str:
        if default is not None and not self.present():
            return default
        value = self.string()
        if len(value) > 253 or not _OBJECT_NAME.match(value):
            raise self.fail("a lowercase DNS name (a-z, 0-9, '-', '.')")
        return value


def parse_object(
    obj: Any, source: str = "", default_namespace: str = "default"
) -> ModelObject | Skipped:
    """Convert one Kubernetes object into a model object.

    Parameters
    ----------
    obj : dict
        The object as decoded from YAML or JSON.
    source : str
        Where it came from, used in error messages.
    default_namespace : str
        Namespace of namespaced objects that name none.

    Returns
    -------
    Namespace | Pod | Service | NetworkPolicy | Skipped
        Workloads yield the pod of their template; kinds that do not shape
        the network yield :class:`Skipped`.

    Examples
    --------
    >>> parse_object({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}})
    Namespace(name='shop', labels=(('kubernetes.io/metadata.name', 'shop'),))
    """
    top = _At(source, "", obj)
    top.mapping()
    kind = top.key("kind").string()
    top.key("apiVersion").string()
    meta = top.key("metadata")
    meta.mapping()
    name = meta.key("name").name()
    if kind == "NetworkPolicy":
        return parse_policy(obj, source, default_namespace)
    if kind in ADMIN_KINDS:
        from netmend.k8s.admin import parse_admin_policy  # admin builds on this module

        return parse_admin_policy(obj, source)
    namespace = meta.key("namespace").name(default_namespace)
    if kind == "Namespace":
        labels = dict(meta.key("labels").labels())
        labels[NAMESPACE_NAME_LABEL] = name
        return Namespace(name=name, labels=labels_of(labels))
    if kind == "Pod":
        status = top.key("status")
        ip = status.key("podIP").string(optional=True, default="") if status.present() else ""
        return Pod(
            name=name,
            namespace=namespace,
            labels=meta.key("labels").labels(),
            ip=_ip(status.key("podIP"), ip) if ip else "",
            ports=_container_ports(top.key("spec")),
            workload=_owner(meta) or name,
            host_network=_host_network(top.key("spec")),
        )
    if kind in WORKLOAD_KINDS:
        template = top
        for step in TEMPLATE_PATHS.get(kind, ("spec", "template")):
            template = template.key(step)
        template.mapping()
        return Pod(
            name=f"{name}-0",
            namespace=namespace,
            labels=template.key("metadata").key("labels").labels(),
            ports=_container_ports(template.key("spec")),
            workload=name,
            host_network=_host_network(template.key("spec")),
        )
    if kind == "Service":
        return _service(top, name, namespace)
    return Skipped(source=source, kind=kind, name=name)


def _owner(meta: _At) -> str | None:
    """The workload a pod belongs to, from its controller owner reference.

    A ReplicaSet made by a Deployment is named ``<deployment>-<pod-template-hash>``;
    the pod carries the hash as a label, so the Deployment's name is recovered.
    """
    refs = meta.key("ownerReferences")
    for ref in refs.items() if refs.present() else []:
        ref.mapping()
        if ref.value.get("controller") is not True:
            continue
        owner = ref.key("name").string()
        template_hash = dict(meta.key("labels").labels()).get("pod-template-hash")
        if (
            ref.key("kind").string() == "ReplicaSet"
            and template_hash
            and owner.endswith(f"-{template_hash}")
        ):
            return owner[: -len(template_hash) - 1]
        return owner
    return None


def parse_policy(obj: Any, source: str = "", default_namespace: str = "default") -> NetworkPolicy:
    """Convert one NetworkPolicy object into the model, validating every field."""
    top = _At(source, "", obj)
    top.mapping()
    if top.key("kind").string() != "NetworkPolicy":
        raise top.key("kind").fail("'NetworkPolicy'")
    api = top.key("apiVersion")
    if api.string() != NETWORK_POLICY_API:
        raise api.fail(repr(NETWORK_POLICY_API))
    meta = top.key("metadata")
    meta.mapping()
    spec = top.key("spec")
    spec.mapping(("podSelector", "policyTypes", "ingress", "egress"), optional=True)
    policy_types = None
    types_at = spec.key("policyTypes")
    if types_at.present():
        policy_types = []
        for item in types_at.items():
            if item.value not in POLICY_TYPES:
                raise item.fail("'Ingress' or 'Egress'")
            if item.value in policy_types:
                raise item.fail("no repeated policy type")
            policy_types.append(item.value)
        policy_types = tuple(policy_types)
    selector_at = spec.key("podSelector")
    return NetworkPolicy(
        name=meta.key("name").name(),
        namespace=meta.key("namespace").name(default_namespace),
        pod_selector=_selector(selector_at) if selector_at.present() else LabelSelector(),
        policy_types=policy_types,
        ingress=_rules(spec.key("ingress"), "from"),
        egress=_rules(spec.key("egress"), "to"),
        labels=meta.key("labels").labels(),
        annotations=meta.key("annotations").annotations(),
    )


def _rules(at: _At, peers_field: str) -> tuple[Rule, ...] | None:
    if not at.present():
        return None
    rules = []
    for item in at.items():
        item.mapping((peers_field, "ports"))
        peers_at, ports_at = item.key(peers_field), item.key("ports")
        peers = tuple(_peer(p) for p in peers_at.items()) if peers_at.present() else None
        ports = tuple(_policy_port(p) for p in ports_at.items()) if ports_at.present() else None
        rules.append(Rule(peers=peers, ports=ports))
    return tuple(rules)


def _peer(at: _At) -> Peer:
    raw = at.mapping(("podSelector", "namespaceSelector", "ipBlock"))
    given = [k for k in ("podSelector", "namespaceSelector", "ipBlock") if raw.get(k) is not None]
    if not given:
        raise at.fail("a peer with podSelector, namespaceSelector or ipBlock")
    if "ipBlock" in given and len(given) > 1:
        raise at.fail("ipBlock alone (it cannot be combined with selectors)")
    if "ipBlock" in given:
        return Peer(ip_block=_ip_block(at.key("ipBlock")))
    pod_at, ns_at = at.key("podSelector"), at.key("namespaceSelector")
    return Peer(
        pod_selector=_selector(pod_at) if pod_at.present() else None,
        namespace_selector=_selector(ns_at) if ns_at.present() else None,
    )


def _selector(at: _At) -> LabelSelector:
    at.mapping(("matchLabels", "matchExpressions"))
    expressions = []
    expr_at = at.key("matchExpressions")
    for item in expr_at.items() if expr_at.present() else []:
        item.mapping(("key", "operator", "values"))
        key_at = item.key("key")
        key = key_at.string()
        if not _LABEL_KEY.match(key) or len(key) > 317:
            raise key_at.fail(_LABEL_KEY_EXPECTED)
        op_at = item.key("operator")
        if op_at.value not in SELECTOR_OPERATORS:
            raise op_at.fail("one of " + ", ".join(SELECTOR_OPERATORS))
        values_at = item.key("values")
        values = []
        for value_at in values_at.items() if values_at.present() else []:
            if not isinstance(value_at.value, str) or not _LABEL_VALUE.match(value_at.value):
                raise value_at.fail(_LABEL_VALUE_EXPECTED)
            values.append(value_at.value)
        if op_at.value in ("In", "NotIn") and not values:
            raise values_at.fail(f"a non-empty list for operator {op_at.value}")
        if op_at.value in ("Exists", "DoesNotExist") and values:
            raise values_at.fail(f"no values for operator {op_at.value}")
        expressions.append(Requirement(key=key, operator=op_at.value, values=tuple(values)))
    return LabelSelector(
        match_labels=at.key("matchLabels").labels(), match_expressions=tuple(expressions)
    )


def _ip_block(at: _At) -> IPBlock:
    at.mapping(("cidr", "except"))
    cidr_at = at.key("cidr")
    cidr = _network(cidr_at)
    excepts = []
    except_at = at.key("except")
    for item in except_at.items() if except_at.present() else []:
        net = _network(item)
        if (
            net.version != cidr.version
            or not net.subnet_of(cidr)
            or net.prefixlen <= cidr.prefixlen
        ):
            raise item.fail(f"a CIDR strictly inside {cidr_at.value}")
        excepts.append(item.value)
    return IPBlock(cidr=cidr_at.value, excepts=tuple(excepts))


def _network(at: _At) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    if not isinstance(at.value, str):
        raise at.fail("a CIDR such as 10.0.0.0/8")
    try:
        return ipaddress.ip_network(at.value, strict=False)
    except ValueError:
        raise at.fail("a CIDR such as 10.0.0.0/8") from None


def _ip(at: _At, value: str) -> str:
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise at.fail("an IP address") from None


def _protocol(at: _At) -> str | None:
    if not at.present():
        return None
    if at.value not in PROTOCOLS:
        raise at.fail("one of " + ", ".join(PROTOCOLS))
    return at.value


def _port_or_name(at: _At) -> int | str:
    if isinstance(at.value, str):
        if not _PORT_NAME.match(at.value):
            raise at.fail("a port number 1..65535 or a port name (lowercase IANA service name)")
        return at.value
    return at.integer(1, 65535)


def _policy_port(at: _At) -> PolicyPort:
    at.mapping(("protocol", "port", "endPort"))
    port_at, end_at = at.key("port"), at.key("endPort")
    port = _port_or_name(port_at) if port_at.present() else None
    end = None
    if end_at.present():
        if not isinstance(port, int):
            raise end_at.fail("no endPort unless port is a number")
        end = end_at.integer(port, 65535)
    return PolicyPort(protocol=_protocol(at.key("protocol")), port=port, end_port=end)


def _host_network(spec: _At) -> bool:
    at = spec.key("hostNetwork")
    if not at.present():
        return False
    if not isinstance(at.value, bool):
        raise at.fail("true or false")
    return at.value


def _container_ports(spec: _At) -> tuple[ContainerPort, ...]:
    spec.mapping()
    ports = []
    for container in spec.key("containers").items():
        container.mapping()
        ports_at = container.key("ports")
        for item in ports_at.items() if ports_at.present() else []:
            item.mapping()
            name_at = item.key("name")
            name = _port_or_name(name_at) if name_at.present() else None
            if isinstance(name, int):
                raise name_at.fail("a port name (lowercase IANA service name)")
            ports.append(
                ContainerPort(
                    port=item.key("containerPort").integer(1, 65535),
                    protocol=_protocol(item.key("protocol")) or "TCP",
                    name=name,
                )
            )
    return tuple(ports)


def _service(top: _At, name: str, namespace: str) -> Service:
    spec = top.key("spec")
    spec.mapping(optional=True)
    selector_at = spec.key("selector")
    selector = selector_at.labels() if selector_at.present() else None
    ports = []
    ports_at = spec.key("ports")
    for item in ports_at.items() if ports_at.present() else []:
        item.mapping()
        port = item.key("port").integer(1, 65535)
        target_at = item.key("targetPort")
        node_at = item.key("nodePort")
        ports.append(
            ServicePort(
                port=port,
                target_port=_port_or_name(target_at) if target_at.present() else port,
                protocol=_protocol(item.key("protocol")) or "TCP",
                name=item.key("name").string(optional=True),
                node_port=node_at.integer(1, 65535) if node_at.present() else None,
            )
        )
    ip_at = spec.key("clusterIP")
    cluster_ip = ip_at.string(optional=True, default="")
    if cluster_ip and cluster_ip != "None":
        cluster_ip = _ip(ip_at, cluster_ip)
    return Service(
        name=name,
        namespace=namespace,
        selector=selector,
        ports=tuple(ports),
        cluster_ip=cluster_ip,
        type=_choice(spec.key("type"), SERVICE_TYPES, "ClusterIP"),
        external_traffic_policy=_choice(
            spec.key("externalTrafficPolicy"), TRAFFIC_POLICIES, "Cluster"
        ),
    )


def _choice(at: _At, allowed: tuple[str, ...], default: str) -> str:
    if not at.present():
        return default
    if at.value not in allowed:
        raise at.fail("one of " + ", ".join(allowed))
    return at.value


def expand_lists(obj: Any, source: str = "") -> Iterable[tuple[str, Any]]:
    """Yield ``(source, object)`` for an object or every item of a ``*List``.

    ``kubectl get ... -o json`` prints a ``List`` (or ``PodList``...) for
    several objects and the bare object for one.
    """
    if isinstance(obj, Mapping) and str(obj.get("kind", "")).endswith("List") and "items" in obj:
        for i, item in enumerate(_At(source, "items", obj["items"]).items()):
            yield from expand_lists(item.value, f"{source}:items[{i}]")
    else:
        yield source, obj


# -- model back to plain Kubernetes dicts -------------------------------------------


def selector_to_dict(selector: LabelSelector) -> dict:
    """A label selector as Kubernetes writes it (``{}`` for the empty one)."""
    out: dict[str, Any] = {}
    if selector.match_labels:
        out["matchLabels"] = dict(selector.match_labels)
    if selector.match_expressions:
        out["matchExpressions"] = [
            {
                "key": r.key,
                "operator": r.operator,
                **({"values": list(r.values)} if r.values else {}),
            }
            for r in selector.match_expressions
        ]
    return out


def _peer_to_dict(peer: Peer) -> dict:
    if peer.ip_block is not None:
        block: dict[str, Any] = {"cidr": peer.ip_block.cidr}
        if peer.ip_block.excepts:
            block["except"] = list(peer.ip_block.excepts)
        return {"ipBlock": block}
    out = {}
    if peer.pod_selector is not None:
        out["podSelector"] = selector_to_dict(peer.pod_selector)
    if peer.namespace_selector is not None:
        out["namespaceSelector"] = selector_to_dict(peer.namespace_selector)
    return out


def _port_to_dict(port: PolicyPort) -> dict:
    out: dict[str, Any] = {}
    if port.protocol is not None:
        out["protocol"] = port.protocol
    if port.port is not None:
        out["port"] = port.port
    if port.end_port is not None:
        out["endPort"] = port.end_port
    return out


def _rule_to_dict(rule: Rule, peers_field: str) -> dict:
    out: dict[str, Any] = {}
    if rule.peers is not None:
        out[peers_field] = [_peer_to_dict(p) for p in rule.peers]
    if rule.ports is not None:
        out["ports"] = [_port_to_dict(p) for p in rule.ports]
    return out


def policy_to_dict(policy: NetworkPolicy) -> dict:
    """A policy as a plain Kubernetes object; :func:`parse_policy` reads it back equal.

    Examples
    --------
    >>> pol = NetworkPolicy(name="deny", policy_types=("Ingress",))
    >>> policy_to_dict(pol)["spec"]
    {'podSelector': {}, 'policyTypes': ['Ingress']}
    >>> parse_policy(policy_to_dict(pol)) == pol
    True
    """
    metadata: dict[str, Any] = {"name": policy.name, "namespace": policy.namespace}
    if policy.labels:
        metadata["labels"] = dict(policy.labels)
    if policy.annotations:
        metadata["annotations"] = dict(policy.annotations)
    spec: dict[str, Any] = {"podSelector": selector_to_dict(policy.pod_selector)}
    if policy.policy_types is not None:
        spec["policyTypes"] = list(policy.policy_types)
    if policy.ingress is not None:
        spec["ingress"] = [_rule_to_dict(r, "from") for r in policy.ingress]
    if policy.egress is not None:
        spec["egress"] = [_rule_to_dict(r, "to") for r in policy.egress]
    return {
        "apiVersion": NETWORK_POLICY_API,
        "kind": "NetworkPolicy",
        "metadata": metadata,
        "spec": spec,
    }


def namespace_to_dict(namespace: Namespace) -> dict:
    """A namespace as a plain Kubernetes object."""
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": namespace.name, "labels": dict(namespace.labels)},
    }


def pod_to_dict(pod: Pod) -> dict:
    """A pod as a plain Kubernetes object (one container carrying every port)."""
    ports = []
    for port in pod.ports:
        entry: dict[str, Any] = {"containerPort": port.port, "protocol": port.protocol}
        if port.name:
            entry["name"] = port.name
        ports.append(entry)
    metadata: dict[str, Any] = {
        "name": pod.name,
        "namespace": pod.namespace,
        "labels": dict(pod.labels),
    }
    if pod.workload and pod.workload != pod.name:
        # The owning workload, as a controller reference (see _owner).
        metadata["ownerReferences"] = [
            {
                "apiVersion": "apps/v1",
                "kind": "ReplicaSet",
                "name": pod.workload,
                "controller": True,
            }
        ]
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata,
        "spec": {
            "containers": [{"name": "main", "image": "unused", "ports": ports}],
            **({"hostNetwork": True} if pod.host_network else {}),
        },
        "status": {"podIP": pod.ip} if pod.ip else {},
    }


def service_to_dict(service: Service) -> dict:
    """A service as a plain Kubernetes object."""
    ports = []
    for port in service.ports:
        entry: dict[str, Any] = {
            "port": port.port,
            "targetPort": port.target_port,
            "protocol": port.protocol,
        }
        if port.name:
            entry["name"] = port.name
        if port.node_port is not None:
            entry["nodePort"] = port.node_port
        ports.append(entry)
    spec: dict[str, Any] = {"ports": ports}
    if service.selector is not None:
        spec["selector"] = dict(service.selector)
    if service.cluster_ip:
        spec["clusterIP"] = service.cluster_ip
    if service.type != "ClusterIP":
        spec["type"] = service.type
        spec["externalTrafficPolicy"] = service.external_traffic_policy
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": service.name, "namespace": service.namespace},
        "spec": spec,
    }


def to_dict(obj: ModelObject) -> dict:
    """Any model object as a plain Kubernetes object."""
    if isinstance(obj, NetworkPolicy):
        return policy_to_dict(obj)
    if isinstance(obj, Namespace):
        return namespace_to_dict(obj)
    if isinstance(obj, Pod):
        return pod_to_dict(obj)
    if isinstance(obj, AdminPolicy):
        from netmend.k8s.admin import admin_policy_to_dict

        return admin_policy_to_dict(obj)
    return service_to_dict(obj)


def as_list(objects: Iterable[dict]) -> dict:
    """Objects wrapped as ``kubectl get -o json`` prints several of them."""
    return {"apiVersion": "v1", "kind": "List", "metadata": {}, "items": list(objects)}
