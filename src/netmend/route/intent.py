"""What a router should be: its lab interfaces, addresses, MTUs and hosts.

The intent is derived from NetArena's conventions (:func:`from_topology`) or
read from a mapping (:func:`from_mapping`, for routers that are not
NetArena's). Whatever the intent does not name (other interfaces, routes to
other prefixes, extra addresses, policy rules, firewall rules that do not
touch the lab) is left alone.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from netmend.route.topology import Topology

DEFAULT_MTU = 1500
_NAME = re.compile(r"^[A-Za-z0-9_.@:-]{1,15}$")


_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
# A dotted quad as ipaddress reads one: four decimal octets, no leading zeros.
_QUAD = re.compile(rf"{_OCTET}(?:\.{_OCTET}){{3}}")


def _quad(text: object) -> int | None:
    """The address ``text`` spells as an integer, or ``None`` when it is no plain dotted quad.

    >>> _quad("192.168.1.1"), _quad("192.168.01.1"), _quad("1.2.3")
    (3232235777, None, None)
    """
    if not isinstance(text, str) or _QUAD.fullmatch(text) is None:
        return None
    a, b, c, d = text.split(".")
    return (int(a) << 24) | (int(b) << 16) | (int(c) << 8) | int(d)


def _spans(interfaces: tuple[InterfaceIntent, ...]) -> list[tuple[int, int, InterfaceIntent]] | None:
    """``(first, last address, interface)`` of each lab subnet, without building networks;
    ``None`` if some address or prefix length is not plainly valid."""
    out = []
    for item in interfaces:
        address, length = _quad(item.address), item.prefixlen
        if address is None or type(length) is not int or not 0 <= length <= 32:
            return None
        size = 1 << (32 - length)
        start = address & ~(size - 1)
        out.append((start, start + size - 1, item))
    return out


class IntentError(ValueError):
    """An intent that is malformed or contradicts itself."""


@dataclass(frozen=True)
class InterfaceIntent:
    """One lab interface: its name, address and prefix length, and the least MTU it may have."""

    name: str
    address: str
    prefixlen: int
    mtu: int = DEFAULT_MTU

    @cached_property
    def network(self) -> ipaddress.IPv4Network:
        return ipaddress.IPv4Network(f"{self.address}/{self.prefixlen}", strict=False)


@dataclass(frozen=True)
class RouterIntent:
    """The intended state of one router.

    Attributes
    ----------
    router : str
        The node the commands run on.
    interfaces : tuple of InterfaceIntent
        The lab interfaces, in subnet order.
    hosts : tuple of str
        The lab hosts' addresses (none of them may sit on the router).
    """

    router: str
    interfaces: tuple[InterfaceIntent, ...]
    hosts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [i.name for i in self.interfaces]
        if not names:
            raise IntentError("an intent needs at least one interface")
        if len(set(names)) != len(names):
            raise IntentError(f"interfaces named twice: {sorted(n for n in names if names.count(n) > 1)}")
        for name in [self.router, *names]:
            if not _NAME.match(name):
                raise IntentError(f"name {name!r}: expected 1-15 letters, digits or _.@:-")
        spans = _spans(self.interfaces)
        if spans is None:  # an address the fast reading does not take: ipaddress says why
            spans = [(int(i.network.network_address), int(i.network.broadcast_address), i) for i in self.interfaces]
        # Sorted by first address, a subnet overlaps an earlier one exactly when it
        # starts before the farthest end seen so far.
        widest = None
        for start, end, item in sorted(spans, key=lambda s: (s[0], s[0] - s[1])):
            if widest is not None and start <= widest[1]:
                raise IntentError(f"lab subnets {widest[2].network} and {item.network} overlap")
            if widest is None or end > widest[1]:
                widest = (start, end, item)
        for host in self.hosts:
            if _quad(host) is None:
                ipaddress.IPv4Address(host)

    def interface(self, name: str) -> InterfaceIntent | None:
        for item in self.interfaces:
            if item.name == name:
                return item
        return None

    def owner(self, network: ipaddress.IPv4Network) -> InterfaceIntent | None:
        """The lab interface whose subnet overlaps ``network``, if any."""
        for item in self.interfaces:
            if item.network.overlaps(network):
                return item
        return None


def from_topology(topology: Topology) -> RouterIntent:
    """NetArena's conventions: ``192.168.k.1/24`` on ``r0-eth{k}``, MTU 1500, its hosts."""
    return RouterIntent(
        topology.router,
        tuple(
            InterfaceIntent(topology.interface(k), topology.router_address(k), 24)
            for k in range(1, topology.switches + 1)
        ),
        tuple(h.address for h in topology.hosts),
    )


def from_mapping(data: Mapping[str, Any]) -> RouterIntent:
    """An intent from a parsed file.

    >>> i = from_mapping({"router": "r1", "interfaces": [{"name": "lan0", "address": "10.0.0.1/24"}]})
    >>> i.interfaces[0].prefixlen, i.interfaces[0].mtu
    (24, 1500)
    """
    if not isinstance(data, Mapping):
        raise IntentError("an intent is a mapping with keys router, interfaces and hosts")
    unknown = sorted(set(data) - {"router", "interfaces", "hosts"})
    if unknown:
        raise IntentError(f"unknown intent keys {unknown}; expected router, interfaces, hosts")
    if not isinstance(data.get("router"), str):
        raise IntentError("intent key 'router': expected the router's node name")
    raw = data.get("interfaces")
    if not isinstance(raw, list) or not raw:
        raise IntentError("intent key 'interfaces': expected a non-empty list")
    items = []
    for entry in raw:
        if not isinstance(entry, Mapping) or not {"name", "address"} <= set(entry):
            raise IntentError(f"interface {entry!r}: expected name and address (a.b.c.d/len)")
        extra = sorted(set(entry) - {"name", "address", "mtu"})
        if extra:
            raise IntentError(f"interface {entry.get('name')!r}: unknown keys {extra}")
        try:
            iface = ipaddress.IPv4Interface(str(entry["address"]))
        except ValueError as exc:
            raise IntentError(f"interface {entry['name']!r}: {exc}") from None
        if "/" not in str(entry["address"]):
            raise IntentError(f"interface {entry['name']!r}: the address needs a prefix length")
        mtu = entry.get("mtu", DEFAULT_MTU)
        if not isinstance(mtu, int) or not 68 <= mtu <= 65535:
            raise IntentError(f"interface {entry['name']!r}: mtu must be an integer 68-65535")
        items.append(InterfaceIntent(str(entry["name"]), str(iface.ip), iface.network.prefixlen, mtu))
    hosts = data.get("hosts", [])
    if not isinstance(hosts, list):
        raise IntentError("intent key 'hosts': expected a list of addresses")
    try:
        return RouterIntent(data["router"], tuple(items), tuple(str(h) for h in hosts))
    except ValueError as exc:
        raise IntentError(str(exc)) from None
