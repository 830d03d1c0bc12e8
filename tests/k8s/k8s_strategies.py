"""Hypothesis strategies for random clusters and policy sets.

Vocabularies are small on purpose so that selectors, names and ports
collide often: that is where NetworkPolicy semantics get interesting.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from netmend.k8s.cluster import build_cluster
from netmend.k8s.model import (
    NAMESPACE_NAME_LABEL,
    Cluster,
    ContainerPort,
    IPBlock,
    LabelSelector,
    Namespace,
    NetworkPolicy,
    Peer,
    Pod,
    PolicyPort,
    Requirement,
    Rule,
    labels_of,
)

NAMESPACES = ("default", "ns-a", "ns-b")
POD_LABELS = {"app": ("web", "db", "cache"), "tier": ("front", "back")}
NS_LABELS = {"team": ("red", "blue"), "env": ("prod", "dev")}
PORT_NAMES = ("http", "dns", "metrics")
PORT_NUMBERS = (53, 80, 443, 8080, 9090)
PROTOCOLS = ("TCP", "UDP", "SCTP")
# Address blocks away from the pod network and ones covering it.
CIDRS = ("0.0.0.0/0", "10.0.0.0/8", "192.168.0.0/16", "172.16.0.0/12", "10.244.0.0/24")
EXCEPTS = {
    "0.0.0.0/0": ("10.0.0.0/8", "192.168.1.0/24", "8.8.8.8/32"),
    "10.0.0.0/8": ("10.244.0.0/16", "10.1.0.0/16"),
    "192.168.0.0/16": ("192.168.1.0/24", "192.168.128.0/17"),
    "172.16.0.0/12": ("172.16.0.0/16",),
    "10.244.0.0/24": ("10.244.0.0/30",),
}


def label_sets(vocab: dict[str, tuple[str, ...]]):
    return st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in vocab.items()})


def requirements(vocab: dict[str, tuple[str, ...]]):
    key = st.sampled_from(sorted(vocab))
    return st.one_of(
        key.flatmap(
            lambda k: st.builds(
                Requirement,
                key=st.just(k),
                operator=st.sampled_from(("In", "NotIn")),
                values=st.lists(st.sampled_from(vocab[k]), min_size=1, max_size=2, unique=True).map(
                    tuple
                ),
            )
        ),
        st.builds(Requirement, key=key, operator=st.sampled_from(("Exists", "DoesNotExist"))),
    )


def selectors(vocab: dict[str, tuple[str, ...]]):
    return st.builds(
        LabelSelector,
        match_labels=label_sets(vocab).map(labels_of),
        match_expressions=st.lists(requirements(vocab), max_size=2).map(tuple),
    )


ip_blocks = st.sampled_from(CIDRS).flatmap(
    lambda c: st.builds(
        IPBlock,
        cidr=st.just(c),
        excepts=st.lists(st.sampled_from(EXCEPTS[c]), max_size=2, unique=True).map(tuple),
    )
)

peers = st.one_of(
    st.builds(Peer, pod_selector=selectors(POD_LABELS)),
    st.builds(Peer, namespace_selector=selectors(NS_LABELS)),
    st.builds(Peer, pod_selector=selectors(POD_LABELS), namespace_selector=selectors(NS_LABELS)),
    st.builds(Peer, ip_block=ip_blocks),
)

port_numbers = st.one_of(st.sampled_from(PORT_NUMBERS), st.integers(1, 65535))
policy_ports = st.one_of(
    st.builds(
        PolicyPort,
        protocol=st.sampled_from((None, *PROTOCOLS)),
        port=st.one_of(st.none(), port_numbers),
    ),
    st.builds(
        PolicyPort, protocol=st.sampled_from((None, *PROTOCOLS)), port=st.sampled_from(PORT_NAMES)
    ),
    st.tuples(st.sampled_from((None, *PROTOCOLS)), port_numbers, st.integers(0, 2000)).map(
        lambda t: PolicyPort(protocol=t[0], port=t[1], end_port=min(65535, t[1] + t[2]))
    ),
)

rules = st.builds(
    Rule,
    peers=st.one_of(st.none(), st.just(()), st.lists(peers, min_size=1, max_size=3).map(tuple)),
    ports=st.one_of(
        st.none(), st.just(()), st.lists(policy_ports, min_size=1, max_size=3).map(tuple)
    ),
)

rule_lists = st.one_of(st.none(), st.lists(rules, max_size=3).map(tuple))


def _nca_readable(policy: NetworkPolicy) -> NetworkPolicy:
    """The same policy, written so network-config-analyzer reads it as Kubernetes does.

    Two spellings that Kubernetes treats as plain no-ops NCA reads differently:
    rules of a direction that explicit policyTypes leave out (NCA refuses
    the configuration) and, without policyTypes, ``egress: []`` (NCA makes
    the policy an Egress one; Kubernetes defaults Egress only for a
    non-empty list, see tests/k8s/data/nca_deviations/).
    """
    types = policy.policy_types
    if not types:
        return replace(policy, egress=policy.egress or None)
    return replace(
        policy,
        ingress=policy.ingress if "Ingress" in types else None,
        egress=policy.egress if "Egress" in types else None,
    )


def policies(name: str, nca_readable: bool = False):
    strategy = st.builds(
        NetworkPolicy,
        name=st.just(name),
        namespace=st.sampled_from(NAMESPACES),
        pod_selector=selectors(POD_LABELS),
        policy_types=st.sampled_from((None, ("Ingress",), ("Egress",), ("Ingress", "Egress"))),
        ingress=rule_lists,
        egress=rule_lists,
    )
    return strategy.map(_nca_readable) if nca_readable else strategy


container_ports = st.lists(
    st.tuples(
        st.sampled_from(PORT_NAMES + (None,)),
        st.sampled_from(PORT_NUMBERS),
        st.sampled_from(PROTOCOLS),
    ),
    max_size=3,
    unique_by=lambda t: t[0] or f"unnamed{t[1]}{t[2]}",
).map(lambda ps: tuple(ContainerPort(port=p, protocol=proto, name=n) for n, p, proto in ps))


def pods(index: int):
    name = f"pod{index}"
    return st.builds(
        Pod,
        name=st.just(name),
        namespace=st.sampled_from(NAMESPACES),
        labels=label_sets(POD_LABELS).map(labels_of),
        ports=container_ports,
        workload=st.just(name),
    )


def namespaces():
    return st.tuples(*(label_sets(NS_LABELS) for _ in NAMESPACES)).map(
        lambda sets: tuple(
            Namespace(name=n, labels=labels_of({**labels, NAMESPACE_NAME_LABEL: n}))
            for n, labels in zip(NAMESPACES, sets, strict=True)
        )
    )


@st.composite
def clusters(draw, max_pods: int = 6, max_policies: int = 4, nca_readable: bool = False) -> Cluster:
    """A random cluster: every namespace, a few pods, a few policies."""
    n_pods = draw(st.integers(2, max_pods))
    n_policies = draw(st.integers(0, max_policies))
    objects = [
        *draw(namespaces()),
        *(draw(pods(i)) for i in range(n_pods)),
        *(draw(policies(f"pol{i}", nca_readable)) for i in range(n_policies)),
    ]
    return build_cluster(objects)
