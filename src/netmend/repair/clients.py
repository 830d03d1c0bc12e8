"""Clients outside the cluster, read from a task's description.

A task text describes the application in words; clients that are not
workloads (an internet user, a partner system) come with their addresses:
``Customers (`customer`, 203.0.113.10) open the storefront ...`` or ``the
gateway **partner** at 198.51.100.7 calls ...``. This module reads them back:
per sentence, every client name (written as code or bold, or the word just
before an address) takes the first address after it and before the next
name. A client given only a CIDR probes from its first host outside the
``except`` CIDRs written right after it. Every address and CIDR of the text
is also returned: the values a repaired ipBlock may take.

The words that may stand between a name and its address, and the words that
introduce an exception, are tables (data), not code.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass

from netmend.k8s.model import Cluster

# Words allowed between a plain-word name and its address ("partner at 1.2.3.4").
FILLER_WORDS = frozenset(
    {"at", "from", "on", "with", "address", "addresses", "ip", "ips", "is", "uses", "using", "via", "host", "source"}
)
# Words that make the next CIDRs exceptions of the previous one.
EXCEPT_WORDS = ("except", "excluding", "but not", "other than", "minus", "without")
_SENTENCE_END = re.compile(r"(?:[.!?;](?=\s|$))|\n")
_NAME = r"[a-z0-9](?:[-a-z0-9]*[a-z0-9])?"
_TOKEN = re.compile(
    rf"`(?P<code>{_NAME})`"
    rf"|\*\*(?P<bold>{_NAME})\*\*"
    r"|(?P<addr>(?:\d{1,3}\.){3}\d{1,3}(?:/\d{1,2})?|[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}(?:/\d{1,3})?)"
    r"|(?P<word>[A-Za-z][-A-Za-z0-9]*)"
)


@dataclass(frozen=True)
class TaskClients:
    """What a description says about the world outside the cluster.

    ``clients`` maps a probe source name to the address its probes come
    from; ``networks`` are every address (as /32 or /128) and CIDR written.
    """

    clients: tuple[tuple[str, str], ...] = ()
    networks: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, str]:
        """``{name: address}``."""
        return dict(self.clients)


def _network(text: str):
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


def _first_host(cidr, excepts) -> str | None:
    hosts = cidr.hosts() if cidr.num_addresses > 2 else iter(cidr)
    for count, ip in enumerate(hosts):
        if count > 4096:
            return None
        if not any(ip in e for e in excepts):
            return str(ip)
    return None


def extract_clients(text: str, exclude: Iterable[str] = ()) -> TaskClients:
    """The outside clients and networks a description names.

    ``exclude`` are names that are not clients (workloads, services,
    namespaces), so ``**web**`` next to an address stays a workload.

    Examples
    --------
    >>> found = extract_clients("Customers (`customer`, 203.0.113.10) and **partner** at 198.51.100.7 call in.")
    >>> found.as_dict()
    {'customer': '203.0.113.10', 'partner': '198.51.100.7'}
    >>> extract_clients("VPN users `vpn` come from 10.8.0.0/16 except 10.8.0.0/24.").as_dict()
    {'vpn': '10.8.1.0'}
    """
    skip = {name.lower() for name in exclude}
    clients: dict[str, str] = {}
    networks: dict[str, None] = {}
    for sentence in _SENTENCE_END.split(text):
        tokens = [m for m in _TOKEN.finditer(sentence)]
        pending: str | None = None
        previous_word: str | None = None
        for index, m in enumerate(tokens):
            name = m["code"] or m["bold"]
            if name:
                pending = None if name in skip or "/" in name else name
                previous_word = None
                continue
            if m["word"]:
                word = m["word"].lower()
                if word not in FILLER_WORDS:
                    previous_word = word if re.fullmatch(_NAME, word) and word not in skip else None
                continue
            net = _network(m["addr"])
            if net is None:
                continue
            networks[str(net)] = None
            if "/" not in m["addr"]:
                owner = pending or previous_word
                if owner and owner not in clients:
                    clients[owner] = str(net.network_address)
                pending = previous_word = None
                continue
            if pending and pending not in clients and not _is_exception(sentence, m.start()):
                excepts = _following_excepts(sentence, tokens[index + 1 :])
                host = _first_host(net, excepts)
                if host is not None:
                    clients[pending] = host
                pending = None
            previous_word = None
    return TaskClients(tuple(clients.items()), tuple(networks))


def _is_exception(sentence: str, at: int) -> bool:
    before = sentence[max(0, at - 16) : at].lower()
    return any(before.rstrip(" ,").endswith(w) for w in EXCEPT_WORDS)


def _following_excepts(sentence: str, tokens) -> list:
    """The CIDRs right after a CIDR that an exception word introduces ("except A and B")."""
    out = []
    for m in tokens:
        if m["word"] and out and m["word"].lower() in ("and", "or"):
            continue
        if m["addr"] and "/" in m["addr"] and (out or _is_exception(sentence, m.start())):
            net = _network(m["addr"])
            if net is not None:
                out.append(net)
                continue
        if out or m["addr"] or m["code"] or m["bold"]:
            break
    return out


def names_of(cluster: Cluster) -> set[str]:
    """Workload, service and namespace names: words of a description that are no clients."""
    out = {n.name for n in cluster.namespaces} | {s.name for s in cluster.services}
    for pod in cluster.pods:
        out |= {pod.workload, f"{pod.namespace}/{pod.workload}"}
    return out
