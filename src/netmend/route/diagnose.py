"""Deviations of a router's state from its intent, each with its evidence and fix.

The same rules as the router program's awk decision (:mod:`netmend.route.program`),
over the full parsed state; the lab checks that both agree. A deviation is
certain from the state alone (forwarding off, a lab interface down, without
ARP or with a smaller MTU than intended, its address missing, an address that
takes a lab address or hijacks a lab subnet, a blocking policy rule for lab
traffic, a lab route that goes elsewhere, the standard rules missing, a
firewall rule that drops lab ICMP) or judged where the pingall shows harm (a
qdisc on an implicated interface, a static neighbour entry for a host the
router cannot reach, a chain's DROP policy where that chain's traffic fails).
Everything else is kept.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from netmend.route.evidence import Evidence
from netmend.route.intent import RouterIntent
from netmend.route.program import PLAIN_QDISCS, shapes_only
from netmend.route.state import RouterState

BLOCKING = ("prohibit", "blackhole", "unreachable")
_STANDARD = ("local", "main", "default")
_IPTABLES_TABLES = ("filter", "nat", "mangle", "raw", "security")


@dataclass(frozen=True)
class Deviation:
    """One way the state differs from the intent.

    Attributes
    ----------
    stage : int
        Where its fix goes in the plan (the router program's order).
    kind : str
        Family, e.g. ``link-down``, ``route``, ``firewall``.
    subject : str
        What deviates (an interface, address, rule, route...).
    evidence : str
        What was observed, in words.
    command : tuple of str
        The fix as an argument vector; empty when it cannot be fixed here.
    """

    stage: int
    kind: str
    subject: str
    evidence: str
    command: tuple[str, ...]


def _net(text: str) -> ipaddress.IPv4Network:
    return ipaddress.IPv4Network("0.0.0.0/0" if text in ("all", "default", "") else text, strict=False)


def _is_lab(intent: RouterIntent, text: str) -> bool:
    if text in ("", "all"):
        return True
    net = _net(text)
    return any(i.network.overlaps(net) for i in intent.interfaces)


def _lab_if(intent: RouterIntent, name: str) -> bool:
    return name in ("", "lo") or intent.interface(name) is not None


def diagnose(state: RouterState, intent: RouterIntent, evidence: Evidence) -> tuple[Deviation, ...]:
    """Every deviation, in fix order (stable: state order within a stage)."""
    out: list[Deviation] = []
    seen: set[tuple[str, ...]] = set()

    def add(stage: int, kind: str, subject: str, why: str, *command: str) -> None:
        if command and command in seen:
            return
        seen.add(command)
        out.append(Deviation(stage, kind, subject, why, tuple(command)))

    forward = state.sysctls.get("net.ipv4.ip_forward")
    if forward == "0":
        add(1, "forwarding", "net.ipv4.ip_forward", "IPv4 forwarding is off", "sysctl", "-w", "net.ipv4.ip_forward=1")
    addresses = {(a.dev, a.ip, a.prefixlen) for a in state.addresses}
    for want in intent.interfaces:
        key = f"net.ipv4.conf.{want.name}.forwarding"
        if forward != "0" and state.sysctls.get(key) == "0":
            add(1, "forwarding", key, f"forwarding is off on {want.name}", "sysctl", "-w", f"{key}=1")
        link = state.link(want.name)
        if link is None:
            add(0, "missing-interface", want.name, f"the router has no interface {want.name}")
            continue
        if not link.up:
            add(2, "link-down", want.name, f"{want.name} is administratively down", "ip", "link", "set", "dev", want.name, "up")
        if not link.arp:
            add(2, "arp-off", want.name, f"{want.name} has ARP off (NOARP)", "ip", "link", "set", "dev", want.name, "arp", "on")
        if link.mtu < want.mtu:
            add(2, "mtu", want.name, f"{want.name} has MTU {link.mtu}, less than {want.mtu}", "ip", "link", "set", "dev", want.name, "mtu", str(want.mtu))
        if (want.name, want.address, want.prefixlen) not in addresses:
            add(3, "address", want.name, f"{want.name} lacks {want.address}/{want.prefixlen}", "ip", "addr", "add", f"{want.address}/{want.prefixlen}", "dev", want.name)
    hosts = set(intent.hosts)
    router_ips = {i.address for i in intent.interfaces}
    dropped: set[str] = set()
    for a in state.addresses:
        own = intent.interface(a.dev)
        if a.dev == "lo" or (own and (a.ip, a.prefixlen) == (own.address, own.prefixlen)):
            continue
        net = ipaddress.IPv4Network(a.cidr, strict=False)
        why = ""
        if a.ip in hosts:
            why = f"{a.cidr} on {a.dev} takes a lab host's address"
        elif a.ip in router_ips:
            why = f"{a.cidr} on {a.dev} is a lab router address on the wrong interface or with the wrong length"
        else:
            for other in intent.interfaces:
                if other.name != a.dev and a.prefixlen >= other.prefixlen and net.overlaps(other.network):
                    why = f"{a.cidr} on {a.dev} claims part of {other.network}, the subnet of {other.name}"
                    break
        if why:
            dropped.add(a.ip)
            add(4, "address-conflict", a.cidr, why, "ip", "addr", "del", a.cidr, "dev", a.dev)
    asked: set[str] = set()
    plain = [r for r in state.rules if not r.selective]
    for rule in plain:
        hits = _is_lab(intent, rule.src) and _is_lab(intent, rule.dst) and _lab_if(intent, rule.iif) and _lab_if(intent, rule.oif)
        if hits and rule.action in BLOCKING:
            spec = ["from", rule.src] + (["to", rule.dst] if rule.dst != "all" else [])
            spec += (["iif", rule.iif] if rule.iif else []) + (["oif", rule.oif] if rule.oif else [])
            add(5, "policy-rule", f"pref {rule.pref}", f"rule {rule.pref} ({rule.action}) stops lab traffic", "ip", "rule", "del", "pref", str(rule.pref), *spec, rule.action)
        if hits and rule.action == "lookup" and rule.pref < 32766 and rule.table not in _STANDARD:
            asked.add(rule.table)
    for table, pref in (("local", 0), ("main", 32766)):
        if not any(r.action == "lookup" and r.table == table and r.src == "all" and r.dst == "all" and not r.iif and not r.oif for r in plain):
            add(5, "policy-rule", f"lookup {table}", f"the standard rule 'lookup {table}' is missing", "ip", "rule", "add", "pref", str(pref), "from", "all", "lookup", table)
    routed: set[str] = set()
    for route in state.routes:
        if route.multipath or route.type in ("local", "broadcast", "multicast", "anycast", "nat"):
            continue
        if (route.table != "main" and route.table not in asked) or route.prefsrc in dropped:
            continue
        net = route.network
        for want in intent.interfaces:
            if net.prefixlen < want.prefixlen or not net.overlaps(want.network):
                continue
            if route.type == "unicast" and route.dev == want.name and not route.gateway:
                if route.table == "main" and net == want.network:
                    routed.add(want.name)
                continue
            command = ["ip", "route", "del"] + ([route.type] if route.type != "unicast" else [])
            command += [route.dst.removesuffix("/32") if route.dst.endswith("/32") else route.dst]
            command += (["dev", route.dev] if route.dev else []) + (["via", route.gateway] if route.gateway else [])
            command += (["metric", str(route.metric)] if route.metric is not None else []) + ["table", route.table]
            target = route.type if route.type != "unicast" else f"{route.dev}{' via ' + route.gateway if route.gateway else ''}"
            add(6, "route", route.dst, f"{route.dst} in table {route.table} goes to {target}, not {want.name}", *command)
    for want in intent.interfaces:
        if want.name not in routed and state.link(want.name) is not None:
            add(7, "route", str(want.network), f"table main has no route {want.network} dev {want.name}", "ip", "route", "replace", str(want.network), "dev", want.name, "proto", "kernel", "scope", "link", "src", want.address)
    for n in state.neighbours:
        if n.static and n.ip in hosts and n.ip in evidence.hosts:
            add(8, "neighbour", n.ip, f"a static entry {n.ip} lladdr {n.lladdr} on {n.dev}, and the router cannot reach that host", "ip", "neigh", "del", n.ip, "dev", n.dev)
    for q in state.qdiscs:
        want_if = intent.interface(q.dev)
        if not q.root or want_if is None or q.dev not in evidence.interfaces or q.kind in PLAIN_QDISCS:
            continue
        if not shapes_only(q.kind, q.rate, q.burst, want_if.mtu, peak=q.peak):
            add(9, "qdisc", q.dev, f"root qdisc {q.kind} on {q.dev}, whose subnet loses packets", "tc", "qdisc", "del", "dev", q.dev, "root")
    for (table, chain), policy in sorted(state.policies.items()):
        if table == "filter" and chain in ("INPUT", "FORWARD", "OUTPUT") and policy == "DROP":
            harmed = evidence.forwarded if chain == "FORWARD" else evidence.local
            if harmed:
                add(10, "firewall", f"{chain} policy", f"chain {chain} drops by policy and its traffic fails", "iptables", "-P", chain, "ACCEPT")
    for rule in state.firewall:
        m = rule.matches
        if rule.table != "filter" or rule.chain not in ("INPUT", "FORWARD", "OUTPUT") or rule.selective:
            continue
        if rule.target not in ("DROP", "REJECT") or m.get("-p", "") not in ("", "icmp", "all"):
            continue
        if _is_lab(intent, m.get("-s", "")) and _is_lab(intent, m.get("-d", "")) and _lab_if(intent, m.get("-i", "")) and _lab_if(intent, m.get("-o", "")):
            add(10, "firewall", " ".join(rule.spec), f"iptables rule '-A {' '.join(rule.spec)}' drops lab ICMP", "iptables", "-D", *rule.spec)
    for rule in state.nft:
        if rule.family == "ip" and rule.table in _IPTABLES_TABLES and state.has_iptables:
            continue  # iptables-nft's own tables: judged above
        if rule.selective or rule.hook not in ("input", "forward", "output"):
            continue
        if _is_lab(intent, rule.saddr) and _is_lab(intent, rule.daddr):
            add(10, "firewall", f"{rule.family} {rule.table} {rule.chain} handle {rule.handle}", f"nft rule {rule.handle} in {rule.family} {rule.table} {rule.chain} ({rule.verdict}) matches lab traffic", "nft", "delete", "rule", rule.family, rule.table, rule.chain, "handle", str(rule.handle))
    return tuple(sorted(out, key=lambda d: d.stage))
