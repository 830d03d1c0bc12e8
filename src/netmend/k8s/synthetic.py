"""Seeded synthetic clusters for scale work: many namespaces, pods and policies.

The same ``(shape, seed)`` always gives the same cluster (one
:class:`random.Random` drives every choice; no clock, no I/O). The shape
follows what platform teams run:

- namespaces owned by teams (``team``, ``env``, sometimes ``compliance``
  labels), plus ``kube-system`` (kube-dns), ``monitoring`` (prometheus) and
  ``ingress-nginx``;
- a skewed number of Deployments per namespace and of replicas per
  Deployment, pods labelled ``app``/``tier``/``team``/``env`` (a few with
  a canary ``version``), named container ports whose numbers differ between
  namespaces (so named ports resolve differently per pod);
- pod IPs in per-node /24s;
- NetworkPolicies: default-deny ingress, default-deny egress with a DNS
  allowance, label-selected ingress and egress, namespaceSelectors (alone
  and ANDed with podSelectors, with matchExpressions), ipBlocks with
  excepts, named and numbered ports, and ``endPort`` ranges.

:func:`policy_change` draws one random edit of one policy (or an added or
removed policy) for incremental re-checks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from netmend.k8s.cluster import KUBE_DNS_LABELS, KUBE_DNS_NAMESPACE
from netmend.k8s.errors import K8sError
from netmend.k8s.model import (
    ACCEPT,
    ADMIN_TIER,
    BASELINE_ADMIN_NETWORK_POLICY,
    BASELINE_TIER,
    CLUSTER_NETWORK_POLICY,
    DENY,
    NAMESPACE_NAME_LABEL,
    PASS,
    AdminPeer,
    AdminPolicy,
    AdminPort,
    AdminRule,
    AdminSubject,
    Cluster,
    ContainerPort,
    IPBlock,
    LabelSelector,
    Namespace,
    NamespacedPods,
    NetworkPolicy,
    Peer,
    Pod,
    PolicyPort,
    Requirement,
    Rule,
    labels_of,
)

MONITORING, INGRESS_NGINX = "monitoring", "ingress-nginx"
SYSTEM_NAMESPACES = (INGRESS_NGINX, KUBE_DNS_NAMESPACE, MONITORING)
ENVS = (("prod", 5), ("staging", 3), ("dev", 2))
TIERS = ("web", "api", "data", "batch")
PODS_PER_NODE = 100
PRIVATE_RANGES = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")


@dataclass(frozen=True)
class AppKind:
    """A kind of workload: its tier and named container ports (name, protocol, numbers)."""

    name: str
    tier: str
    ports: tuple[tuple[str, str, tuple[int, ...]], ...]


# Port numbers vary per namespace (the tuple lists the choices), so one port
# name resolves to different numbers in different pods.
APP_KINDS: tuple[AppKind, ...] = (
    AppKind("frontend", "web", (("http", "TCP", (8080, 3000, 80)), ("metrics", "TCP", (9100,)))),
    AppKind("gateway", "web", (("https", "TCP", (8443, 443)), ("http", "TCP", (8080,)))),
    AppKind("api", "api", (("http", "TCP", (8080, 8000)), ("grpc", "TCP", (9090, 50051)),
                           ("metrics", "TCP", (9100, 9102)))),
    AppKind("auth", "api", (("http", "TCP", (8080,)), ("metrics", "TCP", (9100,)))),
    AppKind("search", "api", (("http", "TCP", (9200,)),)),
    AppKind("worker", "batch", (("metrics", "TCP", (9100, 9102)),)),
    AppKind("scheduler", "batch", (("http", "TCP", (8080,)),)),
    AppKind("postgres", "data", (("postgres", "TCP", (5432,)), ("metrics", "TCP", (9187,)))),
    AppKind("redis", "data", (("redis", "TCP", (6379,)),)),
    AppKind("kafka", "data", (("kafka", "TCP", (9092,)), ("metrics", "TCP", (9308,)))),
    AppKind("mongo", "data", (("mongo", "TCP", (27017,)),)),
    AppKind("syslog", "batch", (("syslog", "UDP", (514,)),)),
)  # fmt: skip
NUMBERED_PORTS = (80, 443, 8080, 8443, 3000, 5432, 6379, 9090, 9092, 27017)
PORT_RANGES = ((8000, 8100), (30000, 32767), (9000, 9999))
PORT_NAMES = ("http", "https", "grpc", "metrics", "postgres", "redis")


class SyntheticError(K8sError, ValueError):
    """A synthetic-cluster shape that cannot be built."""


@dataclass(frozen=True)
class App:
    """One Deployment of the synthetic cluster."""

    namespace: str
    name: str
    kind: AppKind
    replicas: int
    ports: tuple[ContainerPort, ...]


@dataclass(frozen=True)
class Synthetic:
    """A synthetic cluster and what it was drawn from (for drawing edits)."""

    cluster: Cluster
    apps: tuple[App, ...]
    namespaces: tuple[Namespace, ...]
    seed: int


def _weighted(rng: random.Random, pairs):
    values = [v for v, _ in pairs]
    return rng.choices(values, weights=[w for _, w in pairs])[0]


def _split(rng: random.Random, total: int, parts: int, sigma: float) -> list[int]:
    """``total`` split into ``parts`` positive, log-normally skewed shares."""
    if parts > total:
        raise SyntheticError(f"cannot split {total} into {parts} positive parts")
    weights = [rng.lognormvariate(0.0, sigma) for _ in range(parts)]
    scale = (total - parts) / sum(weights)
    shares = [1 + int(w * scale) for w in weights]
    # Hand out what rounding left, largest weights first (stable order).
    rest = total - sum(shares)
    for i in sorted(range(parts), key=lambda k: -weights[k])[:rest]:
        shares[i] += 1
    return shares


def synthetic_cluster(
    pods: int = 100_000,
    namespaces: int = 1_000,
    policies: int = 10_000,
    seed: int = 0,
    admin_policies: int = 0,
) -> Synthetic:
    """A seeded synthetic cluster of ``pods`` pods, ``namespaces`` namespaces
    (three of them system ones), ``policies`` NetworkPolicies and
    ``admin_policies`` ClusterNetworkPolicies (Admin and Baseline tiers).

    Examples
    --------
    >>> s = synthetic_cluster(pods=300, namespaces=10, policies=40, seed=1)
    >>> len(s.cluster.pods), len(s.cluster.namespaces), len(s.cluster.policies)
    (300, 10, 40)
    >>> s == synthetic_cluster(pods=300, namespaces=10, policies=40, seed=1)
    True
    """
    n_system_pods = 7  # 2 coredns, 2 prometheus, 3 ingress controllers
    if namespaces < len(SYSTEM_NAMESPACES) + 1:
        raise SyntheticError(f"namespaces: expected at least {len(SYSTEM_NAMESPACES) + 1}")
    n_app_ns = namespaces - len(SYSTEM_NAMESPACES)
    if pods < n_system_pods + n_app_ns:
        raise SyntheticError(
            f"pods: expected at least {n_system_pods + n_app_ns} for {namespaces} namespaces"
        )
    if policies < 0:
        raise SyntheticError("policies: expected a non-negative count")
    rng = random.Random(seed)
    teams = [f"team-{i:02d}" for i in range(max(1, n_app_ns // 20))]
    team_weights = [1.0 / (i + 1) for i in range(len(teams))]
    ns_objs: list[Namespace] = [
        Namespace(name, labels_of({NAMESPACE_NAME_LABEL: name, "team": "platform"}))
        for name in SYSTEM_NAMESPACES
    ]
    for i in range(n_app_ns):
        team = rng.choices(teams, weights=team_weights)[0]
        env = _weighted(rng, ENVS)
        name = f"{team}-{env}-{i:04d}"
        labels = {NAMESPACE_NAME_LABEL: name, "team": team, "env": env}
        if rng.random() < 0.1:
            labels["compliance"] = "pci"
        ns_objs.append(Namespace(name, labels_of(labels)))
    app_namespaces = ns_objs[len(SYSTEM_NAMESPACES) :]

    # Deployments: about 12 replicas on average, skewed; at least one per namespace.
    n_app_pods = pods - n_system_pods
    n_apps = max(n_app_ns, min(n_app_pods, round(n_app_pods / 12)))
    per_ns = _split(rng, n_apps, n_app_ns, 0.8)
    replicas = iter(_split(rng, n_app_pods, n_apps, 1.0))
    apps: list[App] = []
    for ns, count in zip(app_namespaces, per_ns, strict=True):
        used: dict[str, int] = {}
        for _ in range(count):
            kind = rng.choice(APP_KINDS)
            used[kind.name] = used.get(kind.name, 0) + 1
            name = kind.name if used[kind.name] == 1 else f"{kind.name}-{used[kind.name]}"
            ports = tuple(
                ContainerPort(port=rng.choice(numbers), protocol=proto, name=pname)
                for pname, proto, numbers in kind.ports
            )
            apps.append(App(ns.name, name, kind, next(replicas), ports))

    pod_objs = _system_pods()
    ns_labels = {ns.name: dict(ns.labels) for ns in ns_objs}
    for app in apps:
        labels = ns_labels[app.namespace]
        base = {
            "app": app.name,
            "tier": app.kind.tier,
            "team": labels["team"],
            "env": labels["env"],
        }
        canary = app.replicas >= 4 and rng.random() < 0.1
        for k in range(app.replicas):
            version = "v2" if canary and k < max(1, app.replicas // 10) else "v1"
            pod_objs.append(
                Pod(
                    name=f"{app.name}-{k}",
                    namespace=app.namespace,
                    labels=labels_of({**base, "version": version}),
                    ports=app.ports,
                    workload=app.name,
                )
            )
    pod_objs = _place_on_nodes(rng, pod_objs)

    gen = _PolicyDraw(rng, tuple(apps), tuple(app_namespaces), teams)
    policy_objs = gen.system_policies()[:policies]
    remaining = policies - len(policy_objs)
    if remaining >= n_app_ns:
        counts = _split(rng, remaining, n_app_ns, 0.6)
    else:
        counts = [1] * remaining + [0] * (n_app_ns - remaining)
    for ns, count in zip(app_namespaces, counts, strict=True):
        for k in range(count):
            policy_objs.append(gen.policy(ns.name, k))
    if admin_policies < 0:
        raise SyntheticError("admin_policies: expected a non-negative count")
    cluster = (
        Cluster(
            namespaces=tuple(sorted(ns_objs, key=lambda n: n.name)),
            pods=tuple(sorted(pod_objs, key=lambda p: p.key)),
        )
        .with_policies(tuple(policy_objs))
        .with_admin_policies(_admin_policies(rng, admin_policies, teams))
    )
    return Synthetic(cluster=cluster, apps=tuple(apps), namespaces=tuple(ns_objs), seed=seed)


def _admin_policies(rng: random.Random, count: int, teams: list[str]) -> tuple[AdminPolicy, ...]:
    """Cluster-wide guard rails as platform teams write them, tiers and actions mixed."""

    def ns(**labels: str) -> LabelSelector:
        return _match(**labels)

    pci = LabelSelector(match_expressions=(Requirement("compliance", "Exists"),))
    out = []
    for k in range(count):
        team = rng.choice(teams)
        shape = k % 6
        tier, ingress, egress = ADMIN_TIER, (), ()
        if shape == 0:  # development never reaches PCI namespaces
            subject = AdminSubject(namespaces=ns(env="dev"))
            egress = (AdminRule(DENY, (AdminPeer(namespaces=pci),), name="no-pci"),)
        elif shape == 1:  # monitoring may always scrape metrics
            subject = AdminSubject(namespaces=ns(team=team))
            ingress = (AdminRule(ACCEPT, (AdminPeer(namespaces=_ns_named(MONITORING)),),
                                 (AdminPort(named="metrics"),), name="scrape"),)  # fmt: skip
        elif (
            shape == 2
        ):  # a team's own traffic goes to its NetworkPolicies; others denied on node ports
            subject = AdminSubject(namespaces=ns(team=team))
            ingress = (
                AdminRule(PASS, (AdminPeer(namespaces=ns(team=team)),), name="own-team"),
                AdminRule(DENY, (AdminPeer(namespaces=LabelSelector()),),
                          (AdminPort("TCP", 30000, 32767),), name="no-node-ports"),
            )  # fmt: skip
        elif shape == 3:  # cloud metadata is off limits
            subject = AdminSubject(
                pods=NamespacedPods(ns(team=team), _match(tier=rng.choice(TIERS)))
            )
            egress = (AdminRule(DENY, (AdminPeer(networks=("169.254.169.254/32",)),),
                                (AdminPort("TCP", 80, 80),), name="metadata"),)  # fmt: skip
        elif shape == 4:  # baseline: production refuses development unless a policy says otherwise
            tier = BASELINE_TIER
            subject = AdminSubject(namespaces=ns(env="prod"))
            ingress = (AdminRule(DENY, (AdminPeer(namespaces=ns(env="dev")),), name="no-dev"),)
        else:  # baseline: data tiers accept their team's api tier
            tier = BASELINE_TIER
            subject = AdminSubject(pods=NamespacedPods(ns(team=team), _match(tier="data")))
            peer = AdminPeer(pods=NamespacedPods(ns(team=team), _match(tier="api")))
            ingress = (AdminRule(ACCEPT, (peer,), name="api-to-data"),)
        out.append(
            AdminPolicy(
                kind=CLUSTER_NETWORK_POLICY,
                name=f"guard-{k:03d}",
                tier=tier,
                priority=rng.randrange(1, 1000),
                subject=subject,
                ingress=ingress,
                egress=egress,
                api_version="policy.networking.k8s.io/v1alpha2",
            )
        )
    return tuple(out)


def _system_pods() -> list[Pod]:
    dns_ports = (
        ContainerPort(53, "UDP", "dns"),
        ContainerPort(53, "TCP", "dns-tcp"),
        ContainerPort(9153, "TCP", "metrics"),
    )
    out = [
        Pod(f"coredns-{k}", KUBE_DNS_NAMESPACE, KUBE_DNS_LABELS, "", dns_ports, "coredns")
        for k in range(2)
    ]
    out += [
        Pod(f"prometheus-{k}", MONITORING, (("app", "prometheus"),), "",
            (ContainerPort(9090, "TCP", "web"),), "prometheus")
        for k in range(2)
    ]  # fmt: skip
    out += [
        Pod(f"controller-{k}", INGRESS_NGINX, (("app.kubernetes.io/name", "ingress-nginx"),), "",
            (ContainerPort(80, "TCP", "http"), ContainerPort(443, "TCP", "https")), "controller")
        for k in range(3)
    ]  # fmt: skip
    return out


def _place_on_nodes(rng: random.Random, pods: list[Pod]) -> list[Pod]:
    """Scatter pods over nodes; node ``n`` hands out addresses from its /24 of 10.64.0.0/10."""
    order = list(range(len(pods)))
    rng.shuffle(order)
    out = list(pods)
    for slot, i in enumerate(order):
        node, host = divmod(slot, PODS_PER_NODE)
        out[i] = replace(pods[i], ip=f"10.{64 + node // 256}.{node % 256}.{host + 2}")
    return out


def _match(**labels: str) -> LabelSelector:
    return LabelSelector(match_labels=labels_of(labels))


def _ns_named(name: str) -> LabelSelector:
    return _match(**{NAMESPACE_NAME_LABEL: name})


class _PolicyDraw:
    """Draws policies for one namespace at a time, from its own apps."""

    def __init__(self, rng: random.Random, apps, namespaces, teams):
        self.rng = rng
        self.apps: dict[str, list[App]] = {}
        for app in apps:
            self.apps.setdefault(app.namespace, []).append(app)
        self.namespaces = namespaces
        self.teams = teams
        # Namespaces whose egress is locked down (default-deny egress first).
        self.locked = {ns.name for ns in namespaces if rng.random() < 0.3}
        self.serial = 0

    def system_policies(self) -> list[NetworkPolicy]:
        dns = NetworkPolicy(
            name="allow-dns",
            namespace=KUBE_DNS_NAMESPACE,
            pod_selector=LabelSelector(match_labels=KUBE_DNS_LABELS),
            policy_types=("Ingress",),
            ingress=(Rule(ports=(PolicyPort("UDP", 53), PolicyPort("TCP", 53),
                                 PolicyPort("TCP", "metrics"))),),
        )  # fmt: skip
        prom = NetworkPolicy(
            name="prometheus-ui",
            namespace=MONITORING,
            pod_selector=_match(app="prometheus"),
            policy_types=("Ingress",),
            ingress=(Rule(peers=(Peer(namespace_selector=_match(team="platform")),),
                          ports=(PolicyPort("TCP", "web"),)),),
        )  # fmt: skip
        return [dns, prom]

    def _name(self, stem: str) -> str:
        self.serial += 1
        return f"{stem}-{self.serial}"

    def _app(self, namespace: str) -> App:
        return self.rng.choice(self.apps[namespace])

    def _port(self, app: App | None = None) -> PolicyPort:
        rng = self.rng
        kind = rng.random()
        if kind < 0.4 and app is not None and app.ports:
            return PolicyPort(None, rng.choice(app.ports).name)  # named, protocol defaulted
        if kind < 0.5:
            return PolicyPort("TCP", rng.choice(PORT_NAMES))
        if kind < 0.85:
            return PolicyPort(rng.choice((None, "TCP")), rng.choice(NUMBERED_PORTS))
        lo, hi = rng.choice(PORT_RANGES)
        return PolicyPort("TCP", lo, hi)

    def _pod_peer_selector(self, namespace: str) -> LabelSelector:
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            return _match(app=self._app(namespace).name)
        if r < 0.85:
            return _match(tier=rng.choice(TIERS))
        picked = tuple(sorted(set(rng.sample(TIERS, 2))))
        return LabelSelector(match_expressions=(Requirement("tier", "In", picked),))

    def _ns_selector(self) -> LabelSelector:
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            return _match(team=rng.choice(self.teams))
        if r < 0.55:
            return _match(env=_weighted(rng, ENVS))
        if r < 0.7:
            return LabelSelector(match_expressions=(Requirement("env", "NotIn", ("dev",)),))
        if r < 0.8:
            return LabelSelector(match_expressions=(Requirement("compliance", "Exists"),))
        return _ns_named(rng.choice(self.namespaces).name)

    def _peer(self, namespace: str) -> Peer:
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            return Peer(pod_selector=self._pod_peer_selector(namespace))
        if r < 0.7:
            return Peer(namespace_selector=self._ns_selector())
        if r < 0.85:
            return Peer(
                pod_selector=_match(tier=rng.choice(TIERS)), namespace_selector=self._ns_selector()
            )
        if r < 0.92:
            return Peer(
                namespace_selector=_ns_named(MONITORING), pod_selector=_match(app="prometheus")
            )
        cidr, excepts = rng.choice(
            (("172.16.0.0/12", ("172.16.5.0/24",)), ("0.0.0.0/0", PRIVATE_RANGES),
             ("10.0.0.0/8", ()), ("192.168.0.0/16", ("192.168.1.0/24",)))
        )  # fmt: skip
        return Peer(ip_block=IPBlock(cidr, excepts))

    def _rule(self, namespace: str, target: App | None) -> Rule:
        rng = self.rng
        peers = tuple(self._peer(namespace) for _ in range(rng.choice((1, 1, 1, 2, 3))))
        ports = tuple(self._port(target) for _ in range(rng.choice((1, 1, 2))))
        return Rule(peers=peers, ports=ports)

    def _dns_rule(self) -> Rule:
        return Rule(
            peers=(Peer(namespace_selector=_ns_named(KUBE_DNS_NAMESPACE),
                        pod_selector=LabelSelector(match_labels=KUBE_DNS_LABELS)),),
            ports=(PolicyPort("UDP", 53), PolicyPort("TCP", 53)),
        )  # fmt: skip

    def policy(self, namespace: str, k: int) -> NetworkPolicy:
        """The ``k``-th policy of ``namespace``: baselines first, then app rules."""
        if k == 0:
            return NetworkPolicy(
                name=self._name("default-deny-ingress"), namespace=namespace,
                policy_types=("Ingress",),
            )  # fmt: skip
        if k == 1 and namespace in self.locked:
            return NetworkPolicy(
                name=self._name("default-deny-egress"), namespace=namespace,
                policy_types=("Egress",), egress=(self._dns_rule(),),
            )  # fmt: skip
        return self.app_policy(namespace)

    def app_policy(self, namespace: str) -> NetworkPolicy:
        """A label-selected allow policy for one app of ``namespace``."""
        rng = self.rng
        app = self._app(namespace)
        r = rng.random()
        if r < 0.1:
            selector = _match(tier=app.kind.tier)
        elif r < 0.15:
            selector = LabelSelector(match_expressions=(Requirement("app", "In", tuple(sorted(
                {app.name, self._app(namespace).name}))),))  # fmt: skip
        else:
            selector = _match(app=app.name)
        kind = rng.random()
        if kind < 0.6:
            rules = tuple(self._rule(namespace, app) for _ in range(rng.choice((1, 1, 2))))
            return NetworkPolicy(
                name=self._name(f"{app.name}-ingress"), namespace=namespace,
                pod_selector=selector, policy_types=("Ingress",), ingress=rules,
            )  # fmt: skip
        if kind < 0.7:
            # Metrics scraping from the monitoring namespace, by port name.
            rule = Rule(
                peers=(Peer(namespace_selector=_ns_named(MONITORING),
                            pod_selector=_match(app="prometheus")),),
                ports=(PolicyPort("TCP", "metrics"),),
            )  # fmt: skip
            return NetworkPolicy(
                name=self._name("allow-metrics"), namespace=namespace,
                pod_selector=LabelSelector() if rng.random() < 0.5 else selector,
                policy_types=("Ingress",), ingress=(rule,),
            )  # fmt: skip
        if kind < 0.78:
            rule = Rule(
                peers=(Peer(namespace_selector=_ns_named(INGRESS_NGINX)),),
                ports=(PolicyPort("TCP", rng.choice((80, 443, 8080, 8443))),),
            )
            return NetworkPolicy(
                name=self._name("allow-ingress-controller"), namespace=namespace,
                pod_selector=_match(tier="web"), policy_types=("Ingress",), ingress=(rule,),
            )  # fmt: skip
        egress = [self._rule(namespace, None) for _ in range(rng.choice((1, 2)))]
        if rng.random() < 0.3:
            egress.append(Rule(peers=(Peer(ip_block=IPBlock("0.0.0.0/0", PRIVATE_RANGES)),),
                               ports=(PolicyPort("TCP", 443),)))  # fmt: skip
        if rng.random() < 0.5:
            egress.append(self._dns_rule())
        both = rng.random() < 0.3
        return NetworkPolicy(
            name=self._name(f"{app.name}-egress"), namespace=namespace, pod_selector=selector,
            policy_types=("Ingress", "Egress") if both else ("Egress",),
            ingress=(self._rule(namespace, app),) if both else None, egress=tuple(egress),
        )  # fmt: skip


@dataclass(frozen=True)
class PolicyChange:
    """One policy edit: ``old`` replaced by ``new`` (``None``: added or removed)."""

    old: NetworkPolicy | None
    new: NetworkPolicy | None
    kind: str

    @property
    def key(self) -> str:
        """``namespace/name`` of the policy changed."""
        return (self.new or self.old).key  # type: ignore[union-attr]


CHANGE_KINDS = ("port", "peer", "add-rule", "drop-rule", "selector", "types", "remove", "add")


def policy_change(
    synthetic: Synthetic, policies: tuple[NetworkPolicy, ...], seed: int
) -> PolicyChange:
    """A random edit of one of ``policies`` (the synthetic cluster's, maybe already edited).

    Kinds: a port changed, a peer replaced, a rule added or dropped, the pod
    selector retargeted, the policy types changed, the policy removed, or a
    new policy added. Deterministic in ``seed``.
    """
    rng = random.Random(seed)
    gen = _PolicyDraw(rng, synthetic.apps, synthetic.namespaces[len(SYSTEM_NAMESPACES) :],
                      sorted({dict(n.labels).get("team", "platform") for n in synthetic.namespaces}))  # fmt: skip
    gen.serial = 10_000_000 + seed  # names of added policies never collide with drawn ones
    app_policies = [p for p in policies if p.namespace in gen.apps]
    kind = rng.choice(CHANGE_KINDS)
    if kind == "add" or not app_policies:
        ns = rng.choice(sorted(gen.apps))
        return PolicyChange(None, gen.app_policy(ns), "add")
    old = rng.choice(app_policies)
    ns = old.namespace
    if kind == "remove":
        return PolicyChange(old, None, kind)
    direction = "Ingress" if old.ingress or not old.egress else "Egress"
    rules = list(old.rules(direction))
    if kind == "port" and rules:
        i = rng.randrange(len(rules))
        rules[i] = replace(rules[i], ports=(gen._port(gen._app(ns)),))
    elif kind == "peer" and rules:
        i = rng.randrange(len(rules))
        rules[i] = replace(rules[i], peers=(gen._peer(ns),))
    elif kind == "drop-rule" and rules:
        rules.pop(rng.randrange(len(rules)))
    elif kind == "selector":
        new = replace(old, pod_selector=_match(app=gen._app(ns).name))
        return PolicyChange(old, new, kind)
    elif kind == "types":
        types = (
            ("Ingress", "Egress") if old.effective_types != ("Ingress", "Egress") else ("Ingress",)
        )
        new = replace(
            old,
            policy_types=types,
            ingress=old.ingress or (gen._rule(ns, gen._app(ns)),),
            egress=(old.egress or (gen._dns_rule(),)) if "Egress" in types else None,
        )
        return PolicyChange(old, new, kind)
    else:  # add-rule, or an edit of a direction without rules
        kind = "add-rule"
        rules.append(gen._rule(ns, gen._app(ns)))
    field = "ingress" if direction == "Ingress" else "egress"
    types = (
        old.effective_types
        if direction in old.effective_types
        else (*old.effective_types, direction)
    )
    return PolicyChange(old, replace(old, **{field: tuple(rules)}, policy_types=types), kind)


_FLIPPED = {ACCEPT: DENY, DENY: ACCEPT, PASS: DENY}


def admin_change(
    admin_policies: tuple[AdminPolicy, ...], seed: int
) -> tuple[AdminPolicy, AdminPolicy]:
    """A random edit of one admin policy, whatever its shape. Returns ``(old, new)``.

    Half the time a new priority (not for a BaselineAdminNetworkPolicy, which
    has none); otherwise the first rule of a direction that has rules gets the
    opposite action (Pass becomes Deny, valid in every kind). A policy with no
    rule at all, or none where it has no priority, gets a Deny rule from or to
    every namespace instead. The result is a valid policy of the same kind and
    name, different from ``old``; deterministic in ``seed``.
    """
    if not admin_policies:
        raise SyntheticError("admin_change: expected at least one admin policy")
    rng = random.Random(seed)
    old = rng.choice(admin_policies)
    has_priority = old.kind != BASELINE_ADMIN_NETWORK_POLICY
    if has_priority and rng.random() < 0.5:
        priority = rng.randrange(1, 1000)
        if priority == old.priority:
            priority = priority % 999 + 1
        return old, replace(old, priority=priority)
    ruled = [d for d in ("ingress", "egress") if getattr(old, d)]
    if ruled:
        direction = ruled[0]
        rules = list(getattr(old, direction))
        rules[0] = replace(rules[0], action=_FLIPPED[rules[0].action])  # the spelling follows (AdminRule)
        return old, replace(old, **{direction: tuple(rules)})
    direction = rng.choice(("ingress", "egress"))
    added = AdminRule(DENY, (AdminPeer(namespaces=LabelSelector()),), name=f"edit-{seed}")
    return old, replace(old, **{direction: (added,)})
