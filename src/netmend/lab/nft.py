"""nftables rulesets of a pod: service translation and NetworkPolicy filtering.

Pure text generation. Each script first declares and deletes the table it
then rebuilds, so one ``nft -f`` replaces a pod's table atomically (the
kernel commits the whole script as one transaction or nothing).
"""

from __future__ import annotations

from collections.abc import Iterable

from netmend.k8s.effective import PeerSet, PodView
from netmend.k8s.portset import MAX_PORT, MIN_PORT, PortSet
from netmend.lab.plan import Translation

NAT_TABLE = "netmend_nat"
FILTER_TABLE = "netmend_filter"
# Service translation runs before filtering (priority 0), so egress rules see
# the pod address and target port, as they do behind a CNI.
NAT_PRIORITY = -100
FILTER_PRIORITY = 0
DENY_ACTIONS: tuple[str, ...] = ("drop", "reject")


def _replace(family: str, table: str, body: list[str]) -> str:
    head = [f"table {family} {table} {{}}", f"delete table {family} {table}"]
    if not body:
        return "\n".join(head) + "\n"
    return "\n".join(head + [f"table {family} {table} {{", *body, "}"]) + "\n"


def compile_nat(translations: Iterable[Translation]) -> str:
    """The NAT table translating every ClusterIP:port to its endpoint.

    Examples
    --------
    >>> print(compile_nat([Translation("10.96.0.5", "TCP", 5000, "10.244.0.7", 8080)]), end="")
    table ip netmend_nat {}
    delete table ip netmend_nat
    table ip netmend_nat {
      chain output {
        type nat hook output priority -100; policy accept;
        ip daddr 10.96.0.5 tcp dport 5000 dnat to 10.244.0.7:8080
      }
    }
    """
    rules = [
        f"    ip daddr {t.cluster_ip} {t.protocol.lower()} dport {t.port} "
        f"dnat to {t.pod_ip}:{t.target_port}"
        for t in sorted(translations)
    ]
    chain = [
        "  chain output {",
        f"    type nat hook output priority {NAT_PRIORITY}; policy accept;",
        *rules,
        "  }",
    ]
    return _replace("ip", NAT_TABLE, chain)


def compile_filter(view: PodView, deny: str = "drop") -> str:
    """The filter table enforcing one pod's effective policy.

    An isolated direction gets a base chain with ``policy drop`` that accepts
    replies of established flows and related packets (ICMP errors), loopback,
    and one rule per allowed peer set and protocol. Packets a pod sends or
    receives in a flow's original direction are always judged by the current
    rules, never waved through by conntrack: a stale entry from before a
    policy change (say a DNS query whose source port is reused) must not
    outlive the policy that allowed it, as the semantics engine models no
    connection state either; a direction that is not
    isolated gets no chain at all. ``deny="reject"`` ends each chain with a
    TCP reset / ICMP rejection so that denied probes fail at once instead of
    timing out (less faithful to a CNI that drops, much faster to test).

    Raises
    ------
    ValueError
        For an unknown ``deny`` action.

    Examples
    --------
    >>> from netmend.k8s import AllowRule, DirectionView, PeerSet, PodView, PortRange, PortSet
    >>> from netmend.k8s.semantics import RuleRef
    >>> rule = AllowRule(RuleRef("default/db", "Ingress", 0), PeerSet(pod_ips=("10.244.0.3",)),
    ...                  PortSet.of([PortRange("TCP", 5432, 5432)]))
    >>> view = PodView("default/db", "10.244.0.2", DirectionView(True, ("default/db",), (rule,)),
    ...                DirectionView(False))
    >>> print(compile_filter(view), end="")
    table inet netmend_filter {}
    delete table inet netmend_filter
    table inet netmend_filter {
      chain ingress {
        type filter hook input priority 0; policy drop;
        ct state related accept
        ct direction reply ct state established accept
        iif "lo" accept
        ip saddr { 10.244.0.3 } tcp dport { 5432 } accept comment "default/db ingress[0]"
      }
    }
    """
    if deny not in DENY_ACTIONS:
        raise ValueError(f"deny action {deny!r}: expected one of {', '.join(DENY_ACTIONS)}")
    body: list[str] = []
    for chain, hook, side, loop, direction in (
        ("ingress", "input", "saddr", 'iif "lo"', view.ingress),
        ("egress", "output", "daddr", 'oif "lo"', view.egress),
    ):
        if direction.admin or direction.baseline:
            body += _tiered_chains(chain, hook, side, loop, direction, deny)
            continue
        if not direction.isolated:
            continue
        body += [
            f"  chain {chain} {{",
            f"    type filter hook {hook} priority {FILTER_PRIORITY}; policy drop;",
            "    ct state related accept",
            "    ct direction reply ct state established accept",
            f"    {loop} accept",
        ]
        for allow in direction.rules:
            comment = f'comment "{_quote(str(allow.rule))}"'
            for peer in _peer_matches(allow.peers, side):
                for ports in _port_matches(allow.ports):
                    match = " ".join(m for m in (peer, ports) if m)
                    body.append(f"    {match + ' ' if match else ''}accept {comment}")
        if deny == "reject":
            body += [
                "    meta l4proto tcp reject with tcp reset",
                "    reject with icmpx admin-prohibited",
            ]
        body.append("  }")
    return _replace("inet", FILTER_TABLE, body)


def _deny(match: str, deny: str) -> list[str]:
    """Rules dropping (or rejecting) what ``match`` matches."""
    lead = f"{match} " if match else ""
    if deny == "drop":
        return [f"    {lead}drop"]
    return [f"    {lead}meta l4proto tcp reject with tcp reset", f"    {lead}reject with icmpx admin-prohibited"]


def _tiered_chains(chain: str, hook: str, side: str, loop: str, direction, deny: str) -> list[str]:
    """The admin tier as a base chain, then the NetworkPolicy and baseline tiers as chains
    it jumps to: each tier rule in order, the first match deciding (Accept: accept,
    Deny: drop, Pass: on to the next tier); an isolating NetworkPolicy tier ends in a deny."""
    np_chain, base_chain = f"{chain}_networkpolicy", f"{chain}_baseline"
    out = [
        f"  chain {chain} {{",
        f"    type filter hook {hook} priority {FILTER_PRIORITY}; policy accept;",
        "    ct state related accept",
        "    ct direction reply ct state established accept",
        f"    {loop} accept",
    ]

    def tier_lines(rules, pass_to: str) -> list[str]:
        lines = []
        for rule in rules:
            comment = f'comment "{_quote(str(rule.rule))}"'
            for peer in _peer_matches(rule.peers, side):
                for ports in _port_matches(rule.ports):
                    match = " ".join(m for m in (peer, ports) if m)
                    if rule.action == "Accept":
                        lines.append(f"    {match + ' ' if match else ''}accept {comment}")
                    elif rule.action == "Deny":
                        lines += [f"{line} {comment}" for line in _deny(match, deny)]
                    else:
                        lines.append(f"    {match + ' ' if match else ''}{pass_to} {comment}")
        return lines

    out += tier_lines(direction.admin, f"goto {np_chain}")
    out += [f"    goto {np_chain}", "  }", f"  chain {np_chain} {{"]
    if direction.isolated:
        for allow in direction.rules:
            comment = f'comment "{_quote(str(allow.rule))}"'
            for peer in _peer_matches(allow.peers, side):
                for ports in _port_matches(allow.ports):
                    match = " ".join(m for m in (peer, ports) if m)
                    out.append(f"    {match + ' ' if match else ''}accept {comment}")
        out += _deny("", deny)
    else:
        out.append(f"    goto {base_chain}")
    out += ["  }", f"  chain {base_chain} {{"]
    out += tier_lines(direction.baseline, "accept")  # a baseline Pass goes to the default: allow
    out += ["    accept", "  }"]
    return out


def compile_empty_filter() -> str:
    """The script removing a pod's filter table: what a pod without isolation loads."""
    return _replace("inet", FILTER_TABLE, [])


def _quote(text: str) -> str:
    # nft comments are double-quoted strings without escapes.
    return text.replace('"', "'")


def _peer_matches(peers: PeerSet, side: str) -> list[str]:
    """One address match per rule to emit; ``[""]`` for any peer, ``[]`` for none."""
    if peers.any:
        return [""]
    out = []
    if peers.pod_ips:
        out.append(f"ip {side} {{ {', '.join(peers.pod_ips)} }}")
    for block in peers.cidrs:
        family = "ip6" if ":" in block.cidr else "ip"
        match = f"{family} {side} {block.cidr}"
        excepts = [e for e in block.excepts if (":" in e) == (family == "ip6")]
        if excepts:
            match += f" {family} {side} != {{ {', '.join(excepts)} }}"
        out.append(match)
    return out


def _port_matches(ports: PortSet) -> list[str]:
    """One protocol/port match per rule to emit; ``[""]`` for every port of every protocol."""
    if ports.is_all():
        return [""]
    out = []
    for protocol, intervals in ports.parts:
        name = protocol.lower()
        if intervals == ((MIN_PORT, MAX_PORT),):
            out.append(f"meta l4proto {name}")
            continue
        spans = ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in intervals)
        out.append(f"{name} dport {{ {spans} }}")
    return out
