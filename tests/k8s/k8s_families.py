"""NetArena's five injected error kinds, restated as functions on our model.

A family is one kind or a pair of kinds; parameters come from an explicit
``random.Random`` so every run builds the same broken clusters.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from netmend.k8s.model import LabelSelector, NetworkPolicy, Peer, Rule

KINDS = ("remove_ingress", "add_ingress", "change_port", "change_protocol", "add_egress")
FAMILIES = tuple((k,) for k in KINDS) + tuple(itertools.combinations(KINDS, 2))
APPS = (
    "adservice", "cartservice", "checkoutservice", "currencyservice", "emailservice", "frontend",
    "loadgenerator", "paymentservice", "productcatalogservice", "recommendationservice",
    "redis-cart", "shippingservice",
)  # fmt: skip


def _app_rule(app: str) -> Rule:
    return Rule(peers=(Peer(pod_selector=LabelSelector(match_labels=(("app", app),))),))


def remove_ingress(policy: NetworkPolicy, rng: random.Random) -> NetworkPolicy:
    """Drop the first ingress rule."""
    return replace(policy, ingress=(policy.ingress or ())[1:])


def add_ingress(policy: NetworkPolicy, rng: random.Random) -> NetworkPolicy:
    """Append port-less ingress rules from two other apps."""
    apps = rng.sample(sorted(set(APPS) - {policy.name}), 2)
    return replace(policy, ingress=(*(policy.ingress or ()), *(_app_rule(a) for a in apps)))


def change_port(policy: NetworkPolicy, rng: random.Random) -> NetworkPolicy:
    """Set every ingress port to one random number."""
    port = rng.randint(1, 65535)
    return replace(
        policy,
        ingress=tuple(
            replace(
                r, ports=None if r.ports is None else tuple(replace(p, port=port) for p in r.ports)
            )
            for r in policy.ingress or ()
        ),
    )


def change_protocol(policy: NetworkPolicy, rng: random.Random) -> NetworkPolicy:
    """Set every ingress port's protocol to UDP or SCTP."""
    proto = rng.choice(("UDP", "SCTP"))
    return replace(
        policy,
        ingress=tuple(
            replace(
                r,
                ports=None
                if r.ports is None
                else tuple(replace(p, protocol=proto) for p in r.ports),
            )
            for r in policy.ingress or ()
        ),
    )


def add_egress(policy: NetworkPolicy, rng: random.Random) -> NetworkPolicy:
    """Replace the allow-all egress rule by rules to two apps (DNS is cut too)."""
    apps = rng.sample(sorted(set(APPS) - {policy.name}), 2)
    kept = tuple(r for r in policy.egress or () if r != Rule())
    return replace(policy, egress=(*kept, *(_app_rule(a) for a in apps)))


INJECT = {
    f.__name__: f for f in (remove_ingress, add_ingress, change_port, change_protocol, add_egress)
}


def inject(
    policies: tuple[NetworkPolicy, ...], family: tuple[str, ...], rng: random.Random
) -> tuple[NetworkPolicy, ...]:
    """Apply each kind of ``family`` to a random policy (two may hit the same one)."""
    by_name = {p.name: p for p in policies}
    for kind in family:
        if kind == "add_egress":
            candidates = sorted(by_name)
        elif kind == "add_ingress":
            # As in NetArena, only policies that govern ingress get ingress rules.
            candidates = sorted(n for n, p in by_name.items() if "Ingress" in p.effective_types)
        elif kind == "remove_ingress":
            candidates = sorted(n for n, p in by_name.items() if p.ingress)
        else:  # port and protocol changes need a rule with ports
            candidates = sorted(
                n for n, p in by_name.items() if any(r.ports for r in p.ingress or ())
            )
        name = rng.choice(candidates)
        by_name[name] = INJECT[kind](by_name[name], rng)
    return tuple(by_name[p.name] for p in policies)
