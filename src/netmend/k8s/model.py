"""The cluster model: namespaces, pods, services and NetworkPolicies.

Every object is a frozen dataclass built from tuples, so a model is hashable,
comparable and safe to share between simulations. Optional fields use ``None``
for "absent in the manifest" where Kubernetes gives absence its own meaning
(``from`` missing versus ``from: []`` both mean "all peers", but a JSON Patch
path into one of them only resolves when it is present).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

PROTOCOLS: tuple[str, ...] = ("TCP", "UDP", "SCTP")
DEFAULT_PROTOCOL = "TCP"
POLICY_TYPES: tuple[str, ...] = ("Ingress", "Egress")
SELECTOR_OPERATORS: tuple[str, ...] = ("In", "NotIn", "Exists", "DoesNotExist")
# Kubernetes labels every namespace with its own name (since 1.21); selectors
# such as ``kubernetes.io/metadata.name: kube-system`` rely on it.
NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"

Labels = tuple[tuple[str, str], ...]


def labels_of(mapping: Mapping[str, str] | None) -> Labels:
    """Return labels as a sorted tuple of pairs (the hashable model form).

    Examples
    --------
    >>> labels_of({"b": "2", "a": "1"})
    (('a', '1'), ('b', '2'))
    """
    return tuple(sorted((mapping or {}).items()))


@dataclass(frozen=True)
class Requirement:
    """One ``matchExpressions`` entry of a label selector."""

    key: str
    operator: str
    values: tuple[str, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        """Whether ``labels`` satisfy this requirement."""
        if self.operator == "In":
            return self.key in labels and labels[self.key] in self.values
        if self.operator == "NotIn":
            return self.key not in labels or labels[self.key] not in self.values
        if self.operator == "Exists":
            return self.key in labels
        return self.key not in labels  # DoesNotExist


@dataclass(frozen=True)
class LabelSelector:
    """A label selector; the empty selector matches everything.

    Examples
    --------
    >>> sel = LabelSelector(match_labels=(("app", "web"),))
    >>> sel.matches({"app": "web", "tier": "x"}), sel.matches({"app": "db"})
    (True, False)
    >>> LabelSelector().matches({})
    True
    """

    match_labels: Labels = ()
    match_expressions: tuple[Requirement, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        """Whether ``labels`` satisfy every label and every expression (AND)."""
        for key, value in self.match_labels:
            if labels.get(key) != value:
                return False
        return all(req.matches(labels) for req in self.match_expressions)

    @property
    def is_empty(self) -> bool:
        """True for ``{}``, which selects everything."""
        return not self.match_labels and not self.match_expressions


@dataclass(frozen=True)
class IPBlock:
    """An ``ipBlock`` peer: a CIDR minus the ``except`` CIDRs."""

    cidr: str
    excepts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Peer:
    """One entry of ``from``/``to``.

    Exactly one of these shapes is valid: ``ip_block`` alone, or one or both
    selectors. Both selectors together mean AND (pods matching
    ``pod_selector`` inside namespaces matching ``namespace_selector``).
    """

    pod_selector: LabelSelector | None = None
    namespace_selector: LabelSelector | None = None
    ip_block: IPBlock | None = None


@dataclass(frozen=True)
class PolicyPort:
    """One entry of ``ports``: protocol, port number or name, end of range.

    ``protocol`` is ``None`` when the manifest omits it (TCP applies);
    ``port`` is ``None`` when omitted (every port of the protocol).
    """

    protocol: str | None = None
    port: int | str | None = None
    end_port: int | None = None

    @property
    def effective_protocol(self) -> str:
        """The protocol in force (TCP when omitted)."""
        return self.protocol or DEFAULT_PROTOCOL


@dataclass(frozen=True)
class Rule:
    """One ingress or egress rule.

    ``peers`` is the ``from``/``to`` list and ``ports`` the ``ports`` list;
    ``None`` (absent) and ``()`` (empty) both mean "all".
    """

    peers: tuple[Peer, ...] | None = None
    ports: tuple[PolicyPort, ...] | None = None


@dataclass(frozen=True)
class NetworkPolicy:
    """A ``networking.k8s.io/v1`` NetworkPolicy.

    ``policy_types`` is ``None`` when the manifest omits it; see
    :attr:`effective_types` for the API server's defaulting.
    """

    name: str
    namespace: str = "default"
    pod_selector: LabelSelector = field(default_factory=LabelSelector)
    policy_types: tuple[str, ...] | None = None
    ingress: tuple[Rule, ...] | None = None
    egress: tuple[Rule, ...] | None = None
    labels: Labels = ()
    annotations: Labels = ()

    @property
    def key(self) -> str:
        """``namespace/name``, the identity used in verdicts."""
        return f"{self.namespace}/{self.name}"

    @property
    def effective_types(self) -> tuple[str, ...]:
        """Policy types after defaulting.

        Without ``policyTypes`` (or with an empty list) every policy affects
        Ingress, and Egress too when it has at least one egress rule.
        """
        if self.policy_types:
            return tuple(t for t in POLICY_TYPES if t in self.policy_types)
        return ("Ingress", "Egress") if self.egress else ("Ingress",)

    def rules(self, direction: str) -> tuple[Rule, ...]:
        """The ingress or egress rules (empty when absent)."""
        return (self.ingress if direction == "Ingress" else self.egress) or ()


@dataclass(frozen=True)
class Namespace:
    """A namespace and its labels (the name label included)."""

    name: str
    labels: Labels = ()


@dataclass(frozen=True)
class ContainerPort:
    """A container port; ``name`` makes it addressable by named ports."""

    port: int
    protocol: str = DEFAULT_PROTOCOL
    name: str | None = None


@dataclass(frozen=True)
class Pod:
    """A pod: identity, labels, IP, container ports and owning workload.

    ``workload`` is the Deployment/StatefulSet/... name the pod comes from
    (its own name for a bare Pod): probes name sources by workload.
    """

    name: str
    namespace: str = "default"
    labels: Labels = ()
    ip: str = ""
    ports: tuple[ContainerPort, ...] = ()
    workload: str = ""
    # hostNetwork pods share the node's address; no policy selector picks them.
    host_network: bool = False

    @property
    def key(self) -> str:
        """``namespace/name``."""
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class ServicePort:
    """A service port: ``port`` on the ClusterIP maps to ``target_port``."""

    port: int
    target_port: int | str
    protocol: str = DEFAULT_PROTOCOL
    name: str | None = None
    node_port: int | None = None  # NodePort and LoadBalancer services


SERVICE_TYPES: tuple[str, ...] = ("ClusterIP", "NodePort", "LoadBalancer", "ExternalName")
EXTERNAL_SERVICE_TYPES: tuple[str, ...] = ("NodePort", "LoadBalancer")
TRAFFIC_POLICIES: tuple[str, ...] = ("Cluster", "Local")


@dataclass(frozen=True)
class Service:
    """A Service. ``selector`` ``None`` means no selector (no endpoints).

    ``type`` decides whether clients outside the cluster reach it (NodePort
    and LoadBalancer do); ``external_traffic_policy`` ``Local`` keeps their
    address, ``Cluster`` replaces it by a node's.
    """

    name: str
    namespace: str = "default"
    selector: Labels | None = None
    ports: tuple[ServicePort, ...] = ()
    cluster_ip: str = ""
    type: str = "ClusterIP"
    external_traffic_policy: str = "Cluster"

    @property
    def is_external(self) -> bool:
        """Whether clients outside the cluster can reach it (NodePort or LoadBalancer)."""
        return self.type in EXTERNAL_SERVICE_TYPES

    @property
    def key(self) -> str:
        """``namespace/name``."""
        return f"{self.namespace}/{self.name}"


# -- cluster-scoped admin policies (policy.networking.k8s.io) ---------------------

ADMIN_TIER, BASELINE_TIER = "Admin", "Baseline"
TIERS: tuple[str, ...] = (ADMIN_TIER, BASELINE_TIER)
CLUSTER_NETWORK_POLICY = "ClusterNetworkPolicy"
ADMIN_NETWORK_POLICY = "AdminNetworkPolicy"
BASELINE_ADMIN_NETWORK_POLICY = "BaselineAdminNetworkPolicy"
ADMIN_KINDS: tuple[str, ...] = (
    CLUSTER_NETWORK_POLICY,
    ADMIN_NETWORK_POLICY,
    BASELINE_ADMIN_NETWORK_POLICY,
)
# Actions in force: v1alpha1's Allow means what v1alpha2's Accept means.
ACCEPT, DENY, PASS = "Accept", "Deny", "Pass"
# Every way a manifest writes an admin action (v1alpha1 says Allow for Accept).
ACTION_OF_SPELLING = {ACCEPT: ACCEPT, "Allow": ACCEPT, DENY: DENY, PASS: PASS}


@dataclass(frozen=True)
class NamespacedPods:
    """Pods matching ``pod_selector`` in namespaces matching ``namespace_selector``."""

    namespace_selector: LabelSelector = field(default_factory=LabelSelector)
    pod_selector: LabelSelector = field(default_factory=LabelSelector)


@dataclass(frozen=True)
class AdminSubject:
    """Who an admin policy applies to: exactly one of ``namespaces`` or ``pods``."""

    namespaces: LabelSelector | None = None
    pods: NamespacedPods | None = None


@dataclass(frozen=True)
class AdminPeer:
    """One entry of ``from``/``to`` of an admin rule; exactly one field is set.

    ``nodes`` and ``domain_names`` are parsed but only partly modelled (see
    :mod:`netmend.k8s.tiers`).
    """

    namespaces: LabelSelector | None = None
    pods: NamespacedPods | None = None
    networks: tuple[str, ...] | None = None
    nodes: LabelSelector | None = None
    domain_names: tuple[str, ...] | None = None

    @property
    def kind(self) -> str:
        """The field that is set: ``namespaces``, ``pods``, ``networks``, ``nodes`` or ``domainNames``."""
        for name, value in (
            ("namespaces", self.namespaces),
            ("pods", self.pods),
            ("networks", self.networks),
            ("nodes", self.nodes),
            ("domainNames", self.domain_names),
        ):
            if value is not None:
                return name
        return ""


@dataclass(frozen=True)
class AdminPort:
    """A destination port match: ``protocol`` ports ``start..end``, or a container port name."""

    protocol: str | None = None
    start: int | None = None
    end: int | None = None
    named: str | None = None


@dataclass(frozen=True)
class AdminRule:
    """One ordered rule: ``action`` (Accept, Deny or Pass) on peers and ports.

    ``ports`` ``None`` matches every protocol and port. ``written_action`` is
    the manifest's spelling (``Allow`` in v1alpha1), or ``""`` for the kind's
    own word. It always spells ``action``: a rule made with another action
    (``replace(rule, action=...)``, how edits flip rules) drops the old one.
    """

    action: str
    peers: tuple[AdminPeer, ...]
    ports: tuple[AdminPort, ...] | None = None
    name: str = ""
    written_action: str = ""

    def __post_init__(self) -> None:
        if self.written_action and ACTION_OF_SPELLING.get(self.written_action) != self.action:
            object.__setattr__(self, "written_action", "")


@dataclass(frozen=True)
class AdminPolicy:
    """A ClusterNetworkPolicy, AdminNetworkPolicy or BaselineAdminNetworkPolicy.

    ``tier`` is ``Admin`` or ``Baseline``; lower ``priority`` goes first
    within a tier (a BaselineAdminNetworkPolicy has none: 0).
    """

    kind: str
    name: str
    tier: str
    priority: int
    subject: AdminSubject
    ingress: tuple[AdminRule, ...] = ()
    egress: tuple[AdminRule, ...] = ()
    api_version: str = ""
    labels: Labels = ()
    annotations: Labels = ()

    @property
    def key(self) -> str:
        """``Kind/name``, the identity used in verdicts."""
        return f"{self.kind}/{self.name}"

    def rules(self, direction: str) -> tuple[AdminRule, ...]:
        """The ingress or egress rules."""
        return self.ingress if direction == "Ingress" else self.egress


@dataclass(frozen=True)
class Cluster:
    """The network surface of a cluster. Collections are sorted by key."""

    namespaces: tuple[Namespace, ...] = ()
    pods: tuple[Pod, ...] = ()
    services: tuple[Service, ...] = ()
    policies: tuple[NetworkPolicy, ...] = ()
    admin_policies: tuple[AdminPolicy, ...] = ()

    def policy(self, name: str, namespace: str = "default") -> NetworkPolicy:
        """The policy ``namespace/name``; ``KeyError`` when absent."""
        for pol in self.policies:
            if pol.name == name and pol.namespace == namespace:
                return pol
        raise KeyError(f"no NetworkPolicy {namespace}/{name}")

    def service(self, name: str, namespace: str = "default") -> Service:
        """The service ``namespace/name``; ``KeyError`` when absent."""
        for svc in self.services:
            if svc.name == name and svc.namespace == namespace:
                return svc
        raise KeyError(f"no Service {namespace}/{name}")

    def with_policy(self, policy: NetworkPolicy) -> Cluster:
        """A new cluster with ``policy`` added or replacing the same key."""
        others = tuple(p for p in self.policies if p.key != policy.key)
        return replace(self, policies=tuple(sorted(others + (policy,), key=_policy_order)))

    def with_policies(self, policies: tuple[NetworkPolicy, ...]) -> Cluster:
        """A new cluster whose policy set is exactly ``policies``."""
        return replace(self, policies=tuple(sorted(policies, key=_policy_order)))

    def with_admin_policies(self, policies: tuple[AdminPolicy, ...]) -> Cluster:
        """A new cluster whose admin policy set is exactly ``policies``."""
        return replace(self, admin_policies=tuple(sorted(policies, key=lambda p: p.key)))

    def admin_policy(self, key: str) -> AdminPolicy:
        """The admin policy ``Kind/name``; ``KeyError`` when absent."""
        for pol in self.admin_policies:
            if pol.key == key:
                return pol
        raise KeyError(f"no admin policy {key}")

    def without_policy(self, name: str, namespace: str = "default") -> Cluster:
        """A new cluster without the policy ``namespace/name``."""
        return replace(
            self,
            policies=tuple(p for p in self.policies if (p.namespace, p.name) != (namespace, name)),
        )


def _policy_order(policy: NetworkPolicy) -> tuple[str, str]:
    return (policy.namespace, policy.name)
