"""A seeded mutation fuzzer over every field of a NetworkPolicy spec.

Each fault kind is one single-field change a person or a tool could make
(a label value misspelt, an operator flipped, an AND peer split into two,
a named port misspelt or replaced by the Service port, an ``endPort``
shrunk, an ipBlock ``except`` changed, a ``cidr`` narrowed, widened or
shifted, an ipBlock peer replaced by a podSelector, a policy type dropped or added, a
rule removed or opened to every peer...). A kind finds its *sites* (where
in which policy it applies) from the policy text alone; a task draws one
site with a private ``random.Random`` seeded by (seed, kind, index,
attempt), so a task never depends on how many others are drawn. The
``pair`` family stacks two random single faults (any kinds, any
policies); ``pair-same-policy`` strikes one policy twice. Draws that leave every probe as expected are redrawn.

A fault is stored as the policy's whole spec after it, so applying a task
is replaying specs in order.
"""

from __future__ import annotations

import copy
import ipaddress
import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

PAIR = "pair"
SAME_POLICY_PAIR = "pair-same-policy"  # two faults of any kinds in one policy
PROTOCOLS = ("TCP", "UDP", "SCTP")
_OPPOSITE = {"In": "NotIn", "NotIn": "In", "Exists": "DoesNotExist", "DoesNotExist": "Exists"}
Site = tuple[str, Callable[[dict, random.Random], str]]  # (where, mutate spec in place -> detail)


@dataclass(frozen=True)
class Mutation:
    """One fault: its kind, the policy, what changed, and the spec after it."""

    kind: str
    policy: str
    detail: str
    spec: str  # JSON of the mutated spec

    def as_dict(self) -> dict:
        """JSON form for records."""
        return {"type": self.kind, "policy": self.policy, "detail": self.detail}

    def apply(self, policies: dict[str, dict]) -> dict[str, dict]:
        """``policies`` with this policy's spec replaced."""
        out = dict(policies)
        obj = copy.deepcopy(out[self.policy])
        obj["spec"] = json.loads(self.spec)
        out[self.policy] = obj
        return out


def _rules(spec: dict) -> Iterator[tuple[str, str, int, dict]]:
    for field, peers in (("ingress", "from"), ("egress", "to")):
        for i, rule in enumerate(spec.get(field) or []):
            yield field, peers, i, rule


def _selectors(spec: dict) -> Iterator[tuple[str, dict, str]]:
    """(where, selector dict, kind) for every selector of the spec."""
    yield "podSelector", spec.setdefault("podSelector", {}), "policy"
    for field, peers, i, rule in _rules(spec):
        for k, peer in enumerate(rule.get(peers) or []):
            for key, kind in (("podSelector", "pod"), ("namespaceSelector", "namespace")):
                if isinstance(peer.get(key), dict):
                    yield f"{field}[{i}].{peers}[{k}].{key}", peer[key], kind


def _typo(text: str, rng: random.Random) -> str:
    """A plausible misspelling: a letter doubled, dropped or replaced."""
    pos = rng.randrange(len(text))
    how = rng.choice(("double", "drop", "swap")) if len(text) > 2 else "double"
    if how == "double":
        out = text[: pos + 1] + text[pos] + text[pos + 1 :]
    elif how == "drop":
        out = text[:pos] + text[pos + 1 :]
    else:
        out = text[:pos] + ("x" if text[pos] != "x" else "y") + text[pos + 1 :]
    out = out.strip("-.") or text + "x"
    return out if out != text else text + "x"


def _label_value_sites(spec: dict, which: str) -> list[Site]:
    out = []
    for where, sel, kind in _selectors(spec):
        if kind != which:
            continue
        for key in sorted(sel.get("matchLabels") or {}):
            def mutate(s, rng, where=where, key=key):
                target = _find(s, where)
                old = target["matchLabels"][key]
                target["matchLabels"][key] = _typo(old, rng)
                return f"{where}.matchLabels.{key}: {old} -> {target['matchLabels'][key]}"
            out.append((f"{where}.matchLabels.{key}", mutate))
    return out


def _find(spec: dict, where: str) -> dict:
    return {w: x for w, x, _ in _selectors(spec)}[where]


def _label_key_sites(spec: dict) -> list[Site]:
    out = []
    for where, sel, _ in _selectors(spec):
        for key in sorted(sel.get("matchLabels") or {}):
            if key == "kubernetes.io/metadata.name":
                continue

            def mutate(s, rng, where=where, key=key):
                labels = _find(s, where)["matchLabels"]
                new = _typo(key.rpartition("/")[2], rng)
                new = key.rpartition("/")[0] + ("/" if "/" in key else "") + new
                labels[new] = labels.pop(key)
                return f"{where}.matchLabels: key {key} -> {new}"
            out.append((f"{where}.matchLabels.{key}", mutate))
    return out


def _expr_sites(spec: dict, what: str) -> list[Site]:
    out = []
    for where, sel, _ in _selectors(spec):
        for i, expr in enumerate(sel.get("matchExpressions") or []):
            if what == "value" and not expr.get("values"):
                continue

            def mutate(s, rng, where=where, i=i):
                e = _find(s, where)["matchExpressions"][i]
                if what == "operator":
                    old, e["operator"] = e["operator"], _OPPOSITE[e["operator"]]
                    return f"{where}.matchExpressions[{i}]: operator {old} -> {e['operator']}"
                j = rng.randrange(len(e["values"]))
                old = e["values"][j]
                e["values"][j] = _typo(old, rng)
                return f"{where}.matchExpressions[{i}].values[{j}]: {old} -> {e['values'][j]}"
            out.append((f"{where}.matchExpressions[{i}]", mutate))
    return out


def _peer_sites(spec: dict, what: str) -> list[Site]:
    out = []
    for field, peers_key, i, rule in _rules(spec):
        peers = rule.get(peers_key) or []
        for k, peer in enumerate(peers):
            both = "podSelector" in peer and "namespaceSelector" in peer
            if what in ("split", "drop-namespace") and not both:
                continue
            if what == "remove" and len(peers) < 2:
                continue
            if what == "join" and not (
                k + 1 < len(peers) and {frozenset(peer), frozenset(peers[k + 1])} == {frozenset({"podSelector"}), frozenset({"namespaceSelector"})}
            ):
                continue

            def mutate(s, rng, field=field, peers_key=peers_key, i=i, k=k):
                lst = s[field][i][peers_key]
                if what == "split":
                    p = lst[k]
                    lst[k : k + 1] = [{"namespaceSelector": p["namespaceSelector"]}, {"podSelector": p["podSelector"]}]
                    return f"{field}[{i}].{peers_key}[{k}]: AND peer split into two"
                if what == "join":
                    lst[k : k + 2] = [{**lst[k], **lst[k + 1]}]
                    return f"{field}[{i}].{peers_key}[{k}..{k + 1}]: two peers joined (AND)"
                if what == "remove":
                    lst.pop(k)
                    return f"{field}[{i}].{peers_key}[{k}]: removed"
                lst[k].pop("namespaceSelector")
                return f"{field}[{i}].{peers_key}[{k}]: namespaceSelector dropped"
            out.append((f"{field}[{i}].{peers_key}[{k}]", mutate))
    return out


def _port_sites(spec: dict, what: str, context: Mapping) -> list[Site]:
    out = []
    for field, _peers, i, rule in _rules(spec):
        for j, port in enumerate(rule.get("ports") or []):
            value = port.get("port")
            if what == "number" and not isinstance(value, int):
                continue
            if what == "name" and not isinstance(value, str):
                continue
            if what in ("end-shrink", "end-drop") and port.get("endPort") is None:
                continue
            if what == "end-shrink" and port["endPort"] <= value:
                continue
            if what == "service-port" and context.get((field, value)) is None:
                continue

            def mutate(s, rng, field=field, i=i, j=j):
                p = s[field][i]["ports"][j]
                where = f"{field}[{i}].ports[{j}]"
                if what == "number":
                    old = p["port"]
                    new = old
                    while new == old or (p.get("endPort") is not None and new > p["endPort"]):
                        new = rng.randint(1, p.get("endPort") or 65535)
                    p["port"] = new
                    return f"{where}.port: {old} -> {new}"
                if what == "name":
                    old = p["port"]
                    p["port"] = _typo(old, rng)[:15]
                    return f"{where}.port: {old} -> {p['port']}"
                if what == "service-port":
                    old = p["port"]
                    p["port"] = context[(field, old)]
                    return f"{where}.port: {old} -> {p['port']} (the Service port)"
                if what == "protocol":
                    old = p.get("protocol", "TCP")
                    p["protocol"] = rng.choice([x for x in PROTOCOLS if x != old])
                    return f"{where}.protocol: {old} -> {p['protocol']}"
                if what == "end-shrink":
                    old = p["endPort"]
                    p["endPort"] = rng.randint(p["port"], old - 1)
                    return f"{where}.endPort: {old} -> {p['endPort']}"
                old = p.pop("endPort")
                return f"{where}.endPort {old} dropped"
            out.append((f"{field}[{i}].ports[{j}]", mutate))
    return out


def _block_sites(spec: dict, what: str) -> list[Site]:
    out = []
    for field, peers_key, i, rule in _rules(spec):
        for k, peer in enumerate(rule.get(peers_key) or []):
            block = peer.get("ipBlock")
            if not block:
                continue
            if what == "except" and not block.get("except"):
                continue
            net = ipaddress.ip_network(block.get("cidr", "0.0.0.0/0"), strict=False)
            if what == "except-add" and net.prefixlen >= net.max_prefixlen:
                continue  # a single address has no strictly smaller except
            if what == "cidr-widen" and net.prefixlen == 0:
                continue
            if what == "cidr-shift" and (block.get("except") or net.prefixlen == 0):
                continue  # the excepts would leave the shifted cidr (the API refuses that)

            def mutate(s, rng, field=field, peers_key=peers_key, i=i, k=k):
                b = s[field][i][peers_key][k]["ipBlock"]
                net = ipaddress.ip_network(b["cidr"], strict=False)
                where = f"{field}[{i}].{peers_key}[{k}].ipBlock"
                if what == "cidr":
                    old = b["cidr"]
                    longer = min(net.max_prefixlen, net.prefixlen + rng.randint(1, 4))
                    subnets = list(net.subnets(new_prefix=longer))[:64]
                    holes = [ipaddress.ip_network(e, strict=False) for e in b.get("except") or []]
                    choices = [n for n in subnets if all(h.subnet_of(n) and h != n for h in holes)] or [net.supernet()]
                    b["cidr"] = str(rng.choice(choices))
                    return f"{where}.cidr: {old} -> {b['cidr']}"
                if what == "cidr-widen":
                    old = b["cidr"]
                    b["cidr"] = str(net.supernet(prefixlen_diff=rng.randint(1, min(4, net.prefixlen))))
                    return f"{where}.cidr: {old} -> {b['cidr']} (widened)"
                if what == "cidr-shift":
                    old = b["cidr"]
                    up = min(net.prefixlen, rng.randint(1, 3))
                    siblings = [n for n in net.supernet(prefixlen_diff=up).subnets(new_prefix=net.prefixlen) if n != net][:64]
                    b["cidr"] = str(rng.choice(siblings))
                    return f"{where}.cidr: {old} -> {b['cidr']} (shifted)"
                if what == "to-pod-selector":
                    old = s[field][i][peers_key][k].pop("ipBlock")
                    s[field][i][peers_key][k]["podSelector"] = {}
                    return f"{where}: {json.dumps(old, sort_keys=True)} replaced by podSelector {{}}"
                if what == "except-add":
                    hole = rng.choice(list(net.subnets(new_prefix=net.prefixlen + 1)))
                    b.setdefault("except", []).append(str(hole))
                    return f"{where}.except: added {b['except'][-1]}"
                excepts = b["except"]
                j = rng.randrange(len(excepts))
                old = excepts[j]
                if rng.random() < 0.5 or net.prefixlen >= net.max_prefixlen - 1:
                    excepts.pop(j)
                    if not excepts:
                        b.pop("except")
                    return f"{where}.except: {old} removed"
                hole = ipaddress.ip_network(old, strict=False)
                others = [n for n in net.subnets(new_prefix=hole.prefixlen) if n != hole][:64]
                excepts[j] = str(rng.choice(others))
                return f"{where}.except[{j}]: {old} -> {excepts[j]}"
            out.append((f"{field}[{i}].{peers_key}[{k}]", mutate))
    return out


def _effective_types(spec: dict) -> list[str]:
    return list(spec.get("policyTypes") or (["Ingress"] + (["Egress"] if spec.get("egress") else [])))


def _type_sites(spec: dict, what: str) -> list[Site]:
    types = _effective_types(spec)
    out = []
    for t in ("Ingress", "Egress"):
        if (what == "drop") != (t in types) or (what == "drop" and len(types) < 2):
            continue

        def mutate(s, rng, t=t):
            now = _effective_types(s)
            s["policyTypes"] = [x for x in now if x != t] if what == "drop" else [x for x in ("Ingress", "Egress") if x in now or x == t]
            return f"policyTypes: {'dropped' if what == 'drop' else 'added'} {t}"
        out.append((f"policyTypes.{t}", mutate))
    return out


def _rule_sites(spec: dict, what: str) -> list[Site]:
    out = []
    if what == "allow-all":
        for field, t in (("ingress", "Ingress"), ("egress", "Egress")):
            if t in _effective_types(spec) and not any(not r for r in spec.get(field) or []):
                def mutate(s, rng, field=field):
                    s.setdefault(field, []).append({})
                    return f"{field}: allow-all rule {{}} added"
                out.append((field, mutate))
        return out
    for field, peers_key, i, rule in _rules(spec):
        key = {"peers": peers_key, "ports": "ports"}.get(what)
        if key is not None and not rule.get(key):
            continue

        def mutate(s, rng, field=field, i=i, key=key):
            if key is None:
                s[field].pop(i)
                return f"{field}[{i}]: rule removed"
            s[field][i].pop(key)
            return f"{field}[{i}].{key}: removed (the rule admits every {'peer' if key != 'ports' else 'port'})"
        out.append((f"{field}[{i}]", mutate))
    return out


def _emptied_sites(spec: dict, what: str) -> list[Site]:
    """A structure replaced by ``{}``: the policy's podSelector (it then selects
    every pod of its namespace) or a whole rule (it then admits everything)."""
    out = []
    if what == "pod-selector":
        if spec.get("podSelector"):
            def mutate(s, rng):
                old = json.dumps(s["podSelector"], sort_keys=True)
                s["podSelector"] = {}
                return f"podSelector: {old} -> {{}}"
            out.append(("podSelector", mutate))
        return out
    for field, _peers, i, rule in _rules(spec):
        if not rule:
            continue

        def mutate(s, rng, field=field, i=i):
            s[field][i] = {}
            return f"{field}[{i}]: replaced by {{}} (allow-all)"
        out.append((f"{field}[{i}]", mutate))
    return out


def _values_none_sites(spec: dict) -> list[Site]:
    """Every value of an ``In`` expression misspelt: the selector selects nothing."""
    out = []
    for where, sel, _ in _selectors(spec):
        for i, expr in enumerate(sel.get("matchExpressions") or []):
            if expr.get("operator") != "In":
                continue

            def mutate(s, rng, where=where, i=i):
                e = _find(s, where)["matchExpressions"][i]
                old = list(e["values"])
                e["values"] = sorted({_typo(v, rng) for v in old} - set(old)) or [old[0] + "x"]
                return f"{where}.matchExpressions[{i}].values: {old} -> {e['values']}"
            out.append((f"{where}.matchExpressions[{i}]", mutate))
    return out


def _dns_label_sites(spec: dict) -> list[Site]:
    """A label of the peer of a DNS egress rule (port 53) misspelt, value or key."""
    out = []
    for i, rule in enumerate(spec.get("egress") or []):
        if not any(p.get("port") == 53 for p in rule.get("ports") or []):
            continue
        for k, peer in enumerate(rule.get("to") or []):
            for key in ("podSelector", "namespaceSelector"):
                labels = (peer.get(key) or {}).get("matchLabels") or {}
                for label in sorted(labels):
                    def mutate(s, rng, i=i, k=k, key=key, label=label):
                        ml = s["egress"][i]["to"][k][key]["matchLabels"]
                        where = f"egress[{i}].to[{k}].{key}.matchLabels"
                        if rng.random() < 0.5 and label != "kubernetes.io/metadata.name":
                            new = _typo(label.rpartition("/")[2], rng)
                            new = label.rpartition("/")[0] + ("/" if "/" in label else "") + new
                            ml[new] = ml.pop(label)
                            return f"{where}: key {label} -> {new}"
                        old = ml[label]
                        ml[label] = _typo(old, rng)
                        return f"{where}.{label}: {old} -> {ml[label]}"
                    out.append((f"egress[{i}].to[{k}].{key}.{label}", mutate))
    return out


# kind -> site finder (spec, context) -> sites
KINDS: dict[str, Callable[[dict, Mapping], list[Site]]] = {
    "pod-selector-value": lambda s, c: _label_value_sites(s, "policy"),
    "peer-pod-label": lambda s, c: _label_value_sites(s, "pod"),
    "peer-namespace-label": lambda s, c: _label_value_sites(s, "namespace"),
    "label-key": lambda s, c: _label_key_sites(s),
    "expression-operator": lambda s, c: _expr_sites(s, "operator"),
    "expression-value": lambda s, c: _expr_sites(s, "value"),
    "and-peer-split": lambda s, c: _peer_sites(s, "split"),
    "or-peers-joined": lambda s, c: _peer_sites(s, "join"),
    "peer-removed": lambda s, c: _peer_sites(s, "remove"),
    "peer-namespace-dropped": lambda s, c: _peer_sites(s, "drop-namespace"),
    "port-number": lambda s, c: _port_sites(s, "number", c),
    "port-name": lambda s, c: _port_sites(s, "name", c),
    "port-service-port": lambda s, c: _port_sites(s, "service-port", c),
    "protocol": lambda s, c: _port_sites(s, "protocol", c),
    "end-port-shrunk": lambda s, c: _port_sites(s, "end-shrink", c),
    "end-port-dropped": lambda s, c: _port_sites(s, "end-drop", c),
    "ipblock-cidr": lambda s, c: _block_sites(s, "cidr"),
    "ipblock-except-added": lambda s, c: _block_sites(s, "except-add"),
    "ipblock-except-changed": lambda s, c: _block_sites(s, "except"),
    "ipblock-cidr-widened": lambda s, c: _block_sites(s, "cidr-widen"),
    "ipblock-cidr-shifted": lambda s, c: _block_sites(s, "cidr-shift"),
    "ipblock-to-pod-selector": lambda s, c: _block_sites(s, "to-pod-selector"),
    "policy-type-dropped": lambda s, c: _type_sites(s, "drop"),
    "policy-type-added": lambda s, c: _type_sites(s, "add"),
    "rule-removed": lambda s, c: _rule_sites(s, "rule"),
    "allow-all-added": lambda s, c: _rule_sites(s, "allow-all"),
    "rule-peers-dropped": lambda s, c: _rule_sites(s, "peers"),
    "rule-ports-dropped": lambda s, c: _rule_sites(s, "ports"),
    "pod-selector-emptied": lambda s, c: _emptied_sites(s, "pod-selector"),
    "rule-emptied": lambda s, c: _emptied_sites(s, "rule"),
    "expression-values-none": lambda s, c: _values_none_sites(s),
    "dns-peer-label": lambda s, c: _dns_label_sites(s),
}
FAMILIES: tuple[str, ...] = (*KINDS, PAIR, SAME_POLICY_PAIR)


def sites(kind: str, policies: Mapping[str, dict], contexts: Mapping[str, Mapping]) -> list[tuple[str, str, Callable]]:
    """Every (policy, where, mutate) ``kind`` can strike, in a stable order."""
    out = []
    for key in sorted(policies):
        spec = copy.deepcopy(policies[key].get("spec") or {})
        for where, mutate in KINDS[kind](spec, contexts.get(key, {})):
            out.append((key, where, mutate))
    return out


def draw_mutation(kind: str, rng: random.Random, policies: Mapping[str, dict], contexts: Mapping[str, Mapping]) -> Mutation | None:
    """One fault of ``kind`` (``None`` when the kind has no site here)."""
    found = sites(kind, policies, contexts)
    if not found:
        return None
    from netmend.k8s.errors import K8sError
    from netmend.k8s.manifest import parse_policy

    for _ in range(10):  # a change the API server would refuse is drawn again
        key, _where, mutate = rng.choice(found)
        spec = copy.deepcopy(policies[key].get("spec") or {})
        detail = mutate(spec, rng)
        try:
            parse_policy({**policies[key], "spec": spec}, source=key)
        except K8sError:
            continue
        return Mutation(kind, key, detail, json.dumps(spec, sort_keys=True))
    return None


def draw_faults(family: str, index: int, seed: int, policies: Mapping[str, dict], contexts: Mapping[str, Mapping], attempt: int) -> tuple[Mutation, ...] | None:
    """The faults of task ``index`` of ``family`` (``None``: nothing to strike)."""
    rng = random.Random(f"netmend-fuzz:{seed}:{family}:{index}:{attempt}")
    if family not in (PAIR, SAME_POLICY_PAIR):
        one = draw_mutation(family, rng, policies, contexts)
        return None if one is None else (one,)
    current = dict(policies)
    out: list[Mutation] = []
    for _ in range(2):
        # the second fault of a same-policy pair strikes the policy of the first
        scope = {out[0].policy: current[out[0].policy]} if out and family == SAME_POLICY_PAIR else current
        kinds = [k for k in KINDS if sites(k, scope, contexts)]
        if not kinds:
            return None
        one = draw_mutation(rng.choice(kinds), rng, scope, contexts)
        if one is None:
            return None
        out.append(one)
        current = one.apply(current)
    if family == SAME_POLICY_PAIR:  # one policy, so one stored spec: the last
        first, second = out
        return (Mutation(SAME_POLICY_PAIR, first.policy, f"{first.kind}: {first.detail}; {second.kind}: {second.detail}", second.spec),)
    return tuple(out)


def service_port_context(base, policies: Mapping[str, dict]) -> dict[str, dict]:
    """Per policy, ``(direction, pod port) -> Service port`` where a Service in
    front of the policy's pods (ingress) or of a peer (egress) exposes a pod
    port under another number: what a "port-service-port" fault writes."""
    from netmend.k8s.manifest import parse_policy
    from netmend.k8s.model import LabelSelector
    from netmend.k8s.semantics import Simulator

    sim = Simulator(base)
    by_pod_port: dict[tuple[int, object], int] = {}
    for svc in base.services:
        if svc.selector is None:
            continue
        for i in sim.select_pods(LabelSelector(match_labels=svc.selector), svc.namespace):
            for sp in svc.ports:
                number = sp.target_port if isinstance(sp.target_port, int) else sim.named_ports[i].get(sp.target_port, (None, None))[1]
                for value in {number, sp.target_port}:
                    if value is not None and sp.port != number:
                        by_pod_port.setdefault((i, value), sp.port)
    out: dict[str, dict] = {}
    for key, obj in policies.items():
        pol = parse_policy(obj, source=key)
        ctx = {}
        selected = sim.select_pods(pol.pod_selector, pol.namespace)
        for (i, value), port in sorted(by_pod_port.items(), key=repr):
            if i in selected:
                ctx.setdefault(("ingress", value), port)
            else:
                ctx.setdefault(("egress", value), port)
        out[key] = ctx
    return out
