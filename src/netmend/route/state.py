"""A router's state as data, parsed from the real commands' output.

The router program prints each of :data:`netmend.route.program.DUMP` after a
``@@netmend-state <section>`` line: ``ip -j`` for links, addresses, rules,
routes (every table) and neighbours, ``tc -j`` for qdiscs, ``sysctl`` lines,
``iptables-save`` and ``nft -j list ruleset``. A section that is missing or
empty (a tool the router lacks) parses as nothing.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from netmend.route.program import STATE_MARK

_MARK = re.compile(rf"^{re.escape(STATE_MARK)} (?P<name>[a-z]+)[ \t]*$", re.MULTILINE)
# iptables matches the diagnoser can judge (anything else makes a rule "selective").
_IPT_VALUE_OPTIONS = ("-s", "-d", "-p", "-i", "-o", "-j", "--reject-with")
# Rule keys that select traffic beyond addresses and interfaces.
_RULE_PLAIN_KEYS = {"priority", "src", "srclen", "dst", "dstlen", "iif", "oif", "table", "action", "protocol", "flags"}


class StateError(ValueError):
    """Output that is not what the command prints."""


@dataclass(frozen=True)
class Link:
    name: str
    flags: tuple[str, ...]
    mtu: int

    @property
    def up(self) -> bool:
        return "UP" in self.flags

    @property
    def arp(self) -> bool:
        return "NOARP" not in self.flags


@dataclass(frozen=True)
class Address:
    dev: str
    ip: str
    prefixlen: int
    secondary: bool = False

    @property
    def cidr(self) -> str:
        return f"{self.ip}/{self.prefixlen}"


@dataclass(frozen=True)
class Rule:
    """One policy rule; ``selective`` when it matches on more than addresses and interfaces."""

    pref: int
    src: str  # "all" or a CIDR
    dst: str
    iif: str
    oif: str
    action: str  # "lookup" or prohibit / blackhole / unreachable / goto / nop
    table: str
    selective: bool


@dataclass(frozen=True)
class Route:
    type: str
    dst: str  # "default" or a CIDR (hosts as /32)
    dev: str = ""
    gateway: str = ""
    table: str = "main"
    protocol: str = ""
    prefsrc: str = ""
    metric: int | None = None
    multipath: bool = False

    @property
    def network(self) -> ipaddress.IPv4Network:
        return ipaddress.IPv4Network("0.0.0.0/0" if self.dst == "default" else self.dst, strict=False)


@dataclass(frozen=True)
class Neighbour:
    ip: str
    dev: str
    lladdr: str
    states: tuple[str, ...]

    @property
    def static(self) -> bool:
        return bool({"PERMANENT", "NOARP"} & set(self.states))


@dataclass(frozen=True)
class Qdisc:
    dev: str
    kind: str
    root: bool
    rate: int | None = None  # bytes per second (tbf)
    burst: int | None = None  # bytes (tbf)
    peak: bool = False  # a tbf with a peak rate (its second bucket shows as minburst)


@dataclass(frozen=True)
class FirewallRule:
    """One ``-A`` line of ``iptables-save``: its table, chain, tokens and judged matches."""

    table: str
    chain: str
    spec: tuple[str, ...]
    matches: Mapping[str, str]
    selective: bool

    @property
    def target(self) -> str:
        return self.matches.get("-j", "")


@dataclass(frozen=True)
class NftRule:
    """A native nftables rule with a verdict, its address matches and its handle."""

    family: str
    table: str
    chain: str
    hook: str
    handle: int
    verdict: str
    saddr: str
    daddr: str
    selective: bool


@dataclass(frozen=True)
class RouterState:
    links: tuple[Link, ...] = ()
    addresses: tuple[Address, ...] = ()
    rules: tuple[Rule, ...] = ()
    routes: tuple[Route, ...] = ()
    neighbours: tuple[Neighbour, ...] = ()
    qdiscs: tuple[Qdisc, ...] = ()
    sysctls: Mapping[str, str] = field(default_factory=dict)
    policies: Mapping[tuple[str, str], str] = field(default_factory=dict)
    firewall: tuple[FirewallRule, ...] = ()
    nft: tuple[NftRule, ...] = ()
    has_iptables: bool = False

    def link(self, name: str) -> Link | None:
        return next((link for link in self.links if link.name == name), None)


def sections(text: str) -> dict[str, str]:
    """The dump's sections by name (the last dump in ``text`` wins)."""
    marks = list(_MARK.finditer(text))
    if not marks:
        return {}
    # The last complete dump starts at the last "link" mark.
    start = max(i for i, m in enumerate(marks) if m.group("name") == "link") if any(
        m.group("name") == "link" for m in marks
    ) else 0
    out: dict[str, str] = {}
    chosen = marks[start:]
    for mark, following in zip(chosen, [*chosen[1:], None], strict=True):
        end = following.start() if following else len(text)
        out[mark.group("name")] = text[mark.end() : end].strip("\r\n")
    return out


def _json(text: str, section: str) -> Any:
    text = text.strip()
    if not text:
        return []
    # The evaluator's output may carry the command output of a later line: read one value.
    try:
        value, _ = json.JSONDecoder().raw_decode(text)
    except ValueError as exc:
        raise StateError(f"section {section}: expected the JSON that ip/tc/nft -j prints ({exc})") from None
    return value


def _cidr(addr: str, length: Any) -> str:
    if addr in ("", "all", "default"):
        return "all" if addr != "default" else "default"
    if length is None:
        return addr if "/" in addr else f"{addr}/32"
    return f"{addr}/{length}"


def parse_links(data: Any) -> tuple[Link, ...]:
    return tuple(
        Link(str(item["ifname"]), tuple(item.get("flags", ())), int(item.get("mtu", 0))) for item in data
    )


def parse_addresses(data: Any) -> tuple[Address, ...]:
    out = []
    for item in data:
        for info in item.get("addr_info", ()):
            if info.get("family") == "inet":
                out.append(
                    Address(str(item["ifname"]), info["local"], int(info["prefixlen"]), bool(info.get("secondary")))
                )
    return tuple(out)


def parse_rules(data: Any) -> tuple[Rule, ...]:
    out = []
    for item in data:
        action = item.get("action", "lookup" if "table" in item else "")
        out.append(
            Rule(
                int(item.get("priority", 0)),
                _cidr(item.get("src", "all"), item.get("srclen")),
                _cidr(item.get("dst", "all"), item.get("dstlen")),
                str(item.get("iif", "")),
                str(item.get("oif", "")),
                str(action),
                str(item.get("table", "")),
                bool(set(item) - _RULE_PLAIN_KEYS),
            )
        )
    return tuple(out)


def parse_routes(data: Any) -> tuple[Route, ...]:
    out = []
    for item in data:
        dst = str(item.get("dst", ""))
        if dst != "default" and "/" not in dst:
            dst += "/32"
        out.append(
            Route(
                str(item.get("type", "unicast")),
                dst,
                str(item.get("dev", "")),
                str(item.get("gateway", "")),
                str(item.get("table", "main")),
                str(item.get("protocol", "")),
                str(item.get("prefsrc", "")),
                int(item["metric"]) if "metric" in item else None,
                "nexthops" in item,
            )
        )
    return tuple(out)


def parse_neighbours(data: Any) -> tuple[Neighbour, ...]:
    return tuple(
        Neighbour(str(i["dst"]), str(i.get("dev", "")), str(i.get("lladdr", "")), tuple(i.get("state", ())))
        for i in data
        if "dst" in i
    )


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_qdiscs(data: Any) -> tuple[Qdisc, ...]:
    out = []
    for i in data:
        options = i.get("options") if isinstance(i.get("options"), dict) else {}
        out.append(Qdisc(str(i.get("dev", "")), str(i["kind"]), bool(i.get("root")), _whole(options.get("rate")),
                         _whole(options.get("burst")), "minburst" in options or "peakrate" in options))
    return tuple(out)


def parse_sysctls(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        key, sep, value = line.partition(" = ")
        if sep:
            out[key.strip()] = value.strip()
    return out


def parse_iptables_save(text: str) -> tuple[dict[tuple[str, str], str], tuple[FirewallRule, ...]]:
    """Chain policies and ``-A`` rules of ``iptables-save`` output."""
    policies: dict[tuple[str, str], str] = {}
    rules: list[FirewallRule] = []
    table = ""
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0].startswith("*"):
            table = words[0][1:]
        elif words[0].startswith(":") and len(words) >= 2:
            policies[(table, words[0][1:])] = words[1]
        elif words[0] == "-A" and len(words) >= 2:
            matches: dict[str, str] = {}
            selective = False
            i = 2
            while i < len(words):
                word = words[i]
                if word in _IPT_VALUE_OPTIONS and i + 1 < len(words):
                    matches[word] = words[i + 1]
                    i += 2
                else:
                    selective = True
                    i += 1
            rules.append(FirewallRule(table, words[1], tuple(words[1:]), matches, selective))
    return policies, tuple(rules)


def parse_nft(data: Any) -> tuple[NftRule, ...]:
    if not data:
        return ()
    items = data.get("nftables", []) if isinstance(data, Mapping) else []
    hooks = {}
    for item in items:
        chain = item.get("chain")
        if chain and "hook" in chain:
            hooks[(chain["family"], chain["table"], chain["name"])] = chain["hook"]
    out = []
    for item in items:
        rule = item.get("rule")
        if not rule:
            continue
        key = (rule["family"], rule["table"], rule["chain"])
        verdict, saddr, daddr, selective = "", "all", "all", False
        for expr in rule.get("expr", ()):
            if "drop" in expr or "reject" in expr or "accept" in expr:
                verdict = next(iter(expr))
            elif "match" in expr and isinstance(expr["match"].get("left"), Mapping):
                left, right = expr["match"]["left"], expr["match"]["right"]
                payload = left.get("payload", {})
                if payload.get("protocol") == "ip" and payload.get("field") in ("saddr", "daddr") and expr["match"].get("op") == "==":
                    if isinstance(right, Mapping) and "prefix" in right:
                        value = f"{right['prefix']['addr']}/{right['prefix']['len']}"
                    elif isinstance(right, str):
                        value = f"{right}/32"
                    else:
                        selective = True
                        continue
                    if payload["field"] == "saddr":
                        saddr = value
                    else:
                        daddr = value
                elif left.get("meta", {}).get("key") == "l4proto" and right in ("icmp", 1):
                    continue
                else:
                    selective = True
            elif "counter" in expr:
                continue
            else:
                selective = True
        if verdict in ("drop", "reject") and key in hooks:
            out.append(NftRule(*key, hooks[key], int(rule.get("handle", 0)), verdict, saddr, daddr, selective))
    return tuple(out)


def parse_state(text: str) -> RouterState:
    """The router state in a router program's output (its last dump)."""
    parts = sections(text)
    if "link" not in parts:
        raise StateError(f"no '{STATE_MARK} link' section: not the output of a router program")
    policies, firewall = parse_iptables_save(parts.get("iptables", ""))
    return RouterState(
        links=parse_links(_json(parts["link"], "link")),
        addresses=parse_addresses(_json(parts.get("addr", ""), "addr")),
        rules=parse_rules(_json(parts.get("rule", ""), "rule")),
        routes=parse_routes(_json(parts.get("route", ""), "route")),
        neighbours=parse_neighbours(_json(parts.get("neigh", ""), "neigh")),
        qdiscs=parse_qdiscs(_json(parts.get("qdisc", ""), "qdisc")),
        sysctls=parse_sysctls(parts.get("sysctl", "")),
        policies=policies,
        firewall=firewall,
        nft=parse_nft(_json(parts.get("nft", ""), "nft")),
        has_iptables=bool(policies),
    )
