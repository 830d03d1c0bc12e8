"""nftables rulesets of a pod: service translation and NetworkPolicy filtering.

Pure text generation. Each script first declares and deletes the table it
then rebuilds, so one ``nft -f`` replaces a pod's table atomically (the
kernel commits the whole script as one transaction or nothing).
"""

from __future__ import annotations

from collections.abc import Iterable

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
