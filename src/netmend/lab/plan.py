"""The lab's layout of a cluster: one network namespace per pod, service translation, DNS.

Pure: a :class:`LabPlan` is computed from a :class:`~netmend.k8s.model.Cluster`
and serialised to JSON for the sandbox process, which only executes it.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from netmend.k8s.model import Cluster, Pod, Service
from netmend.lab.errors import PlanError

CLUSTER_DOMAIN = "cluster.local"
NODE_BRIDGE = "nmbr0"
# Fewer dots than this in a name means "try the search list first", as kubelet writes it.
NDOTS = 5
# Port and protocols of the cluster DNS, as kubelet and kube-dns agree on them.
DNS_PORT = 53
DNS_PROTOCOLS: tuple[str, ...] = ("TCP", "UDP")

_NETNS_UNSAFE = re.compile(r"[^a-z0-9.-]")


@dataclass(frozen=True, order=True)
class Listener:
    """A socket a pod listens on: TCP accepts, UDP echoes."""

    protocol: str
    port: int


@dataclass(frozen=True)
class LabPod:
    """One pod as the lab builds it.

    Attributes
    ----------
    key : str
        ``namespace/name`` of the model pod.
    netns : str
        Name of its network namespace inside the sandbox.
    veth : str
        Name of the node-side end of its veth pair (at most 15 characters).
    ip, mac : str
        Its address and the link-layer address derived from it (static ARP).
    listeners : tuple of Listener
        Container ports and the target ports services route to it.
    search : tuple of str
        The DNS search list of its resolv.conf.
    """

    key: str
    netns: str
    veth: str
    ip: str
    mac: str
    listeners: tuple[Listener, ...]
    search: tuple[str, ...]


@dataclass(frozen=True, order=True)
class Translation:
    """One service port translated to one endpoint: ClusterIP:port -> podIP:targetPort."""

    cluster_ip: str
    protocol: str
    port: int
    pod_ip: str
    target_port: int


@dataclass(frozen=True)
class DnsRecord:
    """A name the cluster DNS answers, and its IPv4 addresses."""

    name: str
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class LabPlan:
    """Everything the sandbox builds for one cluster.

    Attributes
    ----------
    pods : tuple of LabPod
        Sorted by pod key.
    translations : tuple of Translation
        The NAT rules every pod carries.
    records : tuple of DnsRecord
        Sorted by name.
    dns_pod : str
        Key of the pod that serves DNS (its UDP and TCP 53 listeners).
    nameserver : str
        The address written in every resolv.conf (the kube-dns ClusterIP).
    """

    pods: tuple[LabPod, ...]
    translations: tuple[Translation, ...]
    records: tuple[DnsRecord, ...]
    dns_pod: str
    nameserver: str

    def pod(self, key: str) -> LabPod:
        """The lab pod of model pod ``key``; :class:`PlanError` when absent."""
        for pod in self.pods:
            if pod.key == key:
                return pod
        raise PlanError(f"no pod {key!r} in the lab (it has {len(self.pods)} pods)")

    def to_json(self) -> str:
        """Serialise for the sandbox process (stable key order)."""
        return json.dumps(_plain(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> LabPlan:
        """Inverse of :meth:`to_json`."""
        raw = json.loads(text)
        return cls(
            pods=tuple(
                LabPod(
                    **{
                        **p,
                        "listeners": tuple(Listener(**x) for x in p["listeners"]),
                        "search": tuple(p["search"]),
                    }
                )
                for p in raw["pods"]
            ),
            translations=tuple(Translation(**t) for t in raw["translations"]),
            records=tuple(DnsRecord(r["name"], tuple(r["addresses"])) for r in raw["records"]),
            dns_pod=raw["dns_pod"],
            nameserver=raw["nameserver"],
        )


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    return value


def search_list(namespace: str) -> tuple[str, ...]:
    """The resolv.conf search list kubelet gives a pod in ``namespace``.

    Examples
    --------
    >>> search_list("default")
    ('default.svc.cluster.local', 'svc.cluster.local', 'cluster.local')
    """
    return (f"{namespace}.svc.{CLUSTER_DOMAIN}", f"svc.{CLUSTER_DOMAIN}", CLUSTER_DOMAIN)


def resolv_conf(pod: LabPod, nameserver: str) -> str:
    """The resolv.conf text of ``pod``.

    ``timeout:1 attempts:1`` keep a blocked DNS query from costing the
    resolver's default 5 s x 2 per name; the outcome (no answer) is the same.
    """
    return (
        f"search {' '.join(pod.search)}\n"
        f"nameserver {nameserver}\n"
        f"options ndots:{NDOTS} timeout:1 attempts:1\n"
    )


def mac_of(ip: str) -> str:
    """A locally administered MAC address derived from an IPv4 address.

    Examples
    --------
    >>> mac_of("10.244.0.7")
    '02:00:0a:f4:00:07'
    """
    return "02:00:" + ":".join(f"{b:02x}" for b in ipaddress.IPv4Address(ip).packed)


def netns_name(pod: Pod) -> str:
    """The namespace name of ``pod``: ``<namespace>.<name>``, safe for ``ip netns``."""
    return _NETNS_UNSAFE.sub("-", f"{pod.namespace}.{pod.name}".lower())


def selects(selector: tuple[tuple[str, str], ...] | None, pod: Pod) -> bool:
    """Whether a Service ``selector`` picks ``pod`` (no or empty selector: none)."""
    if not selector:
        return False
    labels = dict(pod.labels)
    return all(labels.get(k) == v for k, v in selector)


def endpoints(cluster: Cluster, service: Service) -> tuple[Pod, ...]:
    """The pods behind ``service``, sorted by key."""
    return tuple(
        sorted(
            (
                p
                for p in cluster.pods
                if p.namespace == service.namespace and selects(service.selector, p)
            ),
            key=lambda p: p.key,
        )
    )


def resolve_target_port(pod: Pod, target: int | str, protocol: str) -> int | None:
    """A service's target port on ``pod``: numbers as they are, names via its container ports."""
    if isinstance(target, int):
        return target
    for port in pod.ports:
        if port.name == target and port.protocol == protocol:
            return port.port
    return None


def find_dns(cluster: Cluster) -> tuple[Service, Pod]:
    """The cluster DNS service (``kube-system/kube-dns``) and its first endpoint."""
    try:
        service = cluster.service("kube-dns", "kube-system")
    except KeyError:
        raise PlanError(
            "the cluster has no kube-system/kube-dns Service; the lab serves DNS from its endpoint"
        ) from None
    pods = endpoints(cluster, service)
    if not pods:
        raise PlanError("the kube-system/kube-dns Service selects no pod")
    return service, pods[0]


def plan_lab(cluster: Cluster) -> LabPlan:
    """Lay ``cluster`` out as a lab.

    Every pod needs a unique IPv4 address; every service with a ClusterIP
    gets one NAT rule per port, translated to its FIRST endpoint by pod key
    (a cluster would pick one at random per connection; the lab stays
    deterministic). Headless services resolve to all endpoint addresses.

    Raises
    ------
    PlanError
        For missing, invalid or duplicate pod addresses, an invalid ClusterIP,
        or a cluster without a kube-dns service and endpoint.
    """
    dns_service, dns_pod = find_dns(cluster)
    seen: dict[str, str] = {}
    listeners: dict[str, set[Listener]] = {}
    for pod in cluster.pods:
        _check_ipv4(pod.ip, f"pod {pod.key} IP")
        if pod.ip in seen:
            raise PlanError(f"pods {seen[pod.ip]} and {pod.key} share the IP {pod.ip}")
        seen[pod.ip] = pod.key
        listeners[pod.key] = {Listener(p.protocol, p.port) for p in pod.ports}
    translations: list[Translation] = []
    records: list[DnsRecord] = []
    for service in cluster.services:
        backends = endpoints(cluster, service)
        headless = service.cluster_ip in ("", "None")
        for port in service.ports:
            served = []  # (pod, its port) for every endpoint the port resolves on
            for pod in backends:
                target = resolve_target_port(pod, port.target_port, port.protocol)
                if target is not None:
                    listeners[pod.key].add(Listener(port.protocol, target))
                    served.append((pod, target))
            if served and not headless:
                pod, target = served[0]
                translations.append(
                    Translation(service.cluster_ip, port.protocol, port.port, pod.ip, target)
                )
        name = f"{service.name}.{service.namespace}.svc.{CLUSTER_DOMAIN}"
        if headless:
            records.append(DnsRecord(name, tuple(p.ip for p in backends)))
        else:
            _check_ipv4(service.cluster_ip, f"service {service.key} ClusterIP")
            records.append(DnsRecord(name, (service.cluster_ip,)))
    if dns_service.cluster_ip in ("", "None"):
        raise PlanError("the kube-system/kube-dns Service needs a ClusterIP for resolv.conf")
    listeners[dns_pod.key] -= {Listener(proto, DNS_PORT) for proto in DNS_PROTOCOLS}
    pods = tuple(
        LabPod(
            key=pod.key,
            netns=netns_name(pod),
            veth=f"nmv{index}",
            ip=pod.ip,
            mac=mac_of(pod.ip),
            listeners=tuple(sorted(listeners[pod.key])),
            search=search_list(pod.namespace),
        )
        for index, pod in enumerate(sorted(cluster.pods, key=lambda p: p.key))
    )
    names = [p.netns for p in pods]
    if len(set(names)) != len(names):
        raise PlanError("two pods map to the same namespace name; rename one of them")
    return LabPlan(
        pods=pods,
        translations=tuple(sorted(set(translations))),
        records=tuple(sorted(records, key=lambda r: r.name)),
        dns_pod=dns_pod.key,
        nameserver=dns_service.cluster_ip,
    )


def _check_ipv4(value: str, what: str) -> None:
    try:
        address = ipaddress.IPv4Address(value)
    except ValueError:
        raise PlanError(f"{what}: expected an IPv4 address, got {value!r}") from None
    if address.is_loopback or address.is_multicast or address.is_unspecified:
        raise PlanError(f"{what}: expected a unicast pod or service address, got {value}")


def records_by_name(plan: LabPlan) -> Mapping[str, tuple[str, ...]]:
    """The DNS records as a lookup table (lower-case names without the trailing dot)."""
    return {r.name.lower(): r.addresses for r in plan.records}
