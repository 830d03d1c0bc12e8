"""NetArena's K8s error families: five kinds of policy damage and their pairs.

The injector works on plain NetworkPolicy dicts, the way the harness edits a
policy file before deploying it. Task generation is seeded with a private
``random.Random`` per task, so a task depends only on (seed, family, index)
and never on how many tasks are drawn.

Where a kind may strike is derived from the cluster's facts
(:class:`PolicyFacts`), not from a list of names, so the same generator works
for the demo and for other applications.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

KINDS: tuple[str, ...] = (
    "remove_ingress",
    "add_ingress",
    "change_port",
    "change_protocol",
    "add_egress",
)
FAMILIES: tuple[str, ...] = KINDS + tuple("+".join(p) for p in itertools.combinations(KINDS, 2))
WRONG_PROTOCOLS: tuple[str, ...] = ("UDP", "SCTP")
APP_LABEL = "app"


class InjectionError(ValueError):
    """A task cannot be built or applied (unknown kind, policy or family)."""


@dataclass(frozen=True)
class Injection:
    """One error: its kind, the policy it hits and the kind's parameters."""

    kind: str
    policy: str
    apps: tuple[str, ...] = ()
    port: int | None = None
    protocol: str | None = None

    def as_dict(self) -> dict:
        """JSON form (NetArena's ``error_detail`` plus the policy name)."""
        out: dict = {"type": self.kind, "policy": self.policy}
        if self.apps:
            out["app"] = list(self.apps)
        if self.port is not None:
            out["new_port"] = self.port
        if self.protocol is not None:
            out["new_protocol"] = self.protocol
        return out


@dataclass(frozen=True)
class Task:
    """One assessment task: a family, its index and the injections in order."""

    family: str
    index: int
    injections: tuple[Injection, ...]

    @property
    def task_id(self) -> str:
        """A stable identifier, ``family#index``."""
        return f"{self.family}#{self.index}"


@dataclass(frozen=True)
class PolicyFacts:
    """What the generator needs to know about one policy's workload.

    Attributes
    ----------
    policy:
        The policy name.
    workload:
        The workload (probe source name) the policy selects.
    allowed_sources:
        Probe sources expected to reach this workload's service.
    denied_sources:
        Probe sources expected NOT to reach it (candidates for add_ingress).
    allowed_targets:
        How many probes from this workload are expected to succeed.
    """

    policy: str
    workload: str
    allowed_sources: tuple[str, ...] = ()
    denied_sources: tuple[str, ...] = ()
    allowed_targets: int = 0


def _ingress(spec: dict) -> list:
    return spec.get("ingress") or []


def inject(policies: Mapping[str, dict], injections: Sequence[Injection]) -> dict[str, dict]:
    """Apply ``injections`` in order to copies of ``policies`` (name -> object).

    Two injections may hit the same policy; the second sees the first's result,
    as when the harness rewrites the same file twice.
    """
    out = {name: copy.deepcopy(obj) for name, obj in policies.items()}
    for inj in injections:
        if not isinstance(inj, Injection):  # a fuzzer fault replays its own spec
            out = inj.apply(out)
            continue
        key = inj.policy if inj.policy in out else f"default/{inj.policy}"
        if key not in out:
            raise InjectionError(f"no policy named {inj.policy!r} to inject {inj.kind} into")
        out[key] = _inject_one(out[key], inj)
    return out


def _peer_rule(field: str, app: str) -> dict:
    return {field: [{"podSelector": {"matchLabels": {APP_LABEL: app}}}]}


def _inject_one(policy: dict, inj: Injection) -> dict:
    spec = policy.setdefault("spec", {})
    if inj.kind == "remove_ingress":
        if _ingress(spec):
            spec["ingress"].pop(0)
    elif inj.kind == "add_ingress":
        spec["ingress"] = _ingress(spec) + [_peer_rule("from", app) for app in inj.apps]
    elif inj.kind == "change_port":
        for rule in _ingress(spec):
            for port in rule.get("ports") or []:
                port["port"] = inj.port
    elif inj.kind == "change_protocol":
        for rule in _ingress(spec):
            for port in rule.get("ports") or []:
                port["protocol"] = inj.protocol
    elif inj.kind == "add_egress":
        kept = [rule for rule in spec.get("egress") or [] if rule]
        spec["egress"] = kept + [_peer_rule("to", app) for app in inj.apps]
    else:
        raise InjectionError(f"unknown error kind {inj.kind!r}; expected one of {', '.join(KINDS)}")
    # The harness rewrites the file with every top-level spec field present.
    policy["spec"] = {
        "podSelector": spec.get("podSelector", {}),
        "policyTypes": spec.get("policyTypes", []),
        "ingress": spec.get("ingress", []),
        "egress": spec.get("egress", []),
    }
    return policy


def _ported_rules(policy: dict) -> bool:
    return any(rule.get("ports") for rule in _ingress(policy.get("spec", {})))


def _current_ports(policy: dict) -> set[int]:
    return {
        p["port"]
        for rule in _ingress(policy.get("spec", {}))
        for p in rule.get("ports") or []
        if isinstance(p.get("port"), int)
    }


def eligible_policies(
    kind: str, policies: Mapping[str, dict], facts: Mapping[str, PolicyFacts]
) -> tuple[str, ...]:
    """The policies ``kind`` may hit so that the damage shows in the probes."""
    names = []
    for name in sorted(policies):
        pol, fact = policies[name], facts.get(name)
        if fact is None:
            continue
        spec = pol.get("spec", {})
        if kind == "remove_ingress":
            ok = bool(_ingress(spec)) and bool(fact.allowed_sources)
        elif kind == "add_ingress":
            ok = "Ingress" in (spec.get("policyTypes") or []) and len(fact.denied_sources) >= 2
        elif kind in ("change_port", "change_protocol"):
            ok = _ported_rules(pol) and bool(fact.allowed_sources)
        elif kind == "add_egress":
            ok = fact.allowed_targets > 0 and any(not r for r in spec.get("egress") or [])
        else:
            raise InjectionError(f"unknown error kind {kind!r}; expected one of {', '.join(KINDS)}")
        if ok:
            names.append(name)
    return tuple(names)


def draw_injection(
    kind: str,
    rng: random.Random,
    policies: Mapping[str, dict],
    facts: Mapping[str, PolicyFacts],
) -> Injection:
    """Draw one injection of ``kind`` with ``rng``."""
    candidates = eligible_policies(kind, policies, facts)
    if not candidates:
        raise InjectionError(f"no policy in this cluster can take a visible {kind} error")
    name = rng.choice(candidates)
    fact = facts[name]
    if kind == "add_ingress":
        # probe sources are namespace/workload outside default; the injected peer names the workload
        return Injection(kind, name, apps=tuple(s.rpartition("/")[2] for s in rng.sample(sorted(fact.denied_sources), 2)))
    if kind == "change_port":
        taken = _current_ports(policies[name])
        port = rng.randint(1, 65535)
        while port in taken:
            port = rng.randint(1, 65535)
        return Injection(kind, name, port=port)
    if kind == "change_protocol":
        return Injection(kind, name, protocol=rng.choice(WRONG_PROTOCOLS))
    if kind == "add_egress":
        others = sorted({f.workload for f in facts.values()} - {fact.workload})
        return Injection(kind, name, apps=tuple(rng.sample(others, 2)))
    return Injection(kind, name)


def generate_tasks(
    per_type: int,
    seed: int,
    policies: Mapping[str, dict],
    facts: Mapping[str, PolicyFacts],
    families: Sequence[str] = FAMILIES,
) -> tuple[Task, ...]:
    """``per_type`` tasks for each family, in family order then index order."""
    if per_type < 0:
        raise InjectionError(f"per_type must be >= 0, got {per_type}")
    tasks = []
    for family in families:
        if family not in FAMILIES:
            raise InjectionError(f"unknown family {family!r}; expected one of {', '.join(FAMILIES)}")
        for index in range(per_type):
            tasks.append(draw_task(family, index, seed, policies, facts))
    return tuple(tasks)


def draw_task(
    family: str,
    index: int,
    seed: int,
    policies: Mapping[str, dict],
    facts: Mapping[str, PolicyFacts],
    attempt: int = 0,
) -> Task:
    """Task ``index`` of ``family``; ``attempt`` gives a fresh draw for a redraw."""
    rng = random.Random(f"netmend-k8s:{seed}:{family}:{index}:{attempt}")
    kinds = family.split("+")
    return Task(family, index, tuple(draw_injection(k, rng, policies, facts) for k in kinds))
