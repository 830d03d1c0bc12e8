"""Canonical sets of (protocol, port) as sorted disjoint intervals.

Allowed connections are sets, so comparing two answers (ours and an oracle's),
intersecting egress with ingress, or rendering ``TCP 80,8080-8090`` are set
operations on one canonical form.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from netmend.k8s.model import PROTOCOLS

MIN_PORT, MAX_PORT = 1, 65535
Interval = tuple[int, int]


def _normalize(intervals: Iterable[Interval]) -> tuple[Interval, ...]:
    out: list[list[int]] = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return tuple((lo, hi) for lo, hi in out)


@dataclass(frozen=True)
class PortRange:
    """Ports ``start..end`` (inclusive) of one protocol."""

    protocol: str
    start: int
    end: int

    def __str__(self) -> str:
        span = str(self.start) if self.start == self.end else f"{self.start}-{self.end}"
        return f"{self.protocol} {span}"


@dataclass(frozen=True)
class PortSet:
    """A set of (protocol, port): per protocol, sorted disjoint intervals.

    Examples
    --------
    >>> a = PortSet.of([PortRange("TCP", 80, 90), PortRange("TCP", 91, 95)])
    >>> str(a), str(a & PortSet.of([PortRange("TCP", 85, 100)]))
    ('TCP 80-95', 'TCP 85-95')
    >>> str(PortSet.all()), str(PortSet())
    ('All connections', 'No connections')
    """

    # (protocol, intervals) in PROTOCOLS order, protocols with no ports left out.
    parts: tuple[tuple[str, tuple[Interval, ...]], ...] = ()

    @classmethod
    def of(cls, ranges: Iterable[PortRange]) -> PortSet:
        """The union of ``ranges``."""
        by_proto: dict[str, list[Interval]] = {}
        for r in ranges:
            by_proto.setdefault(r.protocol, []).append((r.start, r.end))
        return cls._build(by_proto)

    @classmethod
    def all(cls) -> PortSet:
        """Every port of every protocol."""
        return cls(tuple((p, ((MIN_PORT, MAX_PORT),)) for p in PROTOCOLS))

    @classmethod
    def _build(cls, by_proto: dict[str, Iterable[Interval]]) -> PortSet:
        parts = []
        for proto in PROTOCOLS:
            intervals = _normalize(by_proto.get(proto, ()))
            if intervals:
                parts.append((proto, intervals))
        return cls(tuple(parts))

    def __bool__(self) -> bool:
        return bool(self.parts)

    def intervals(self, protocol: str) -> tuple[Interval, ...]:
        """The intervals of ``protocol`` (empty when none)."""
        return dict(self.parts).get(protocol, ())

    def ranges(self) -> tuple[PortRange, ...]:
        """The set as port ranges, protocol by protocol."""
        return tuple(PortRange(p, lo, hi) for p, ivs in self.parts for lo, hi in ivs)

    def contains(self, protocol: str, port: int) -> bool:
        """Whether ``(protocol, port)`` is in the set."""
        return any(lo <= port <= hi for lo, hi in self.intervals(protocol))

    def is_all(self) -> bool:
        """Whether this is every port of every protocol."""
        return self == PortSet.all()

    def __or__(self, other: PortSet) -> PortSet:
        merged: dict[str, list[Interval]] = {}
        for proto, ivs in (*self.parts, *other.parts):
            merged.setdefault(proto, []).extend(ivs)
        return PortSet._build(merged)

    def __and__(self, other: PortSet) -> PortSet:
        out: dict[str, list[Interval]] = {}
        theirs = dict(other.parts)
        for proto, ivs in self.parts:
            for lo, hi in ivs:
                for olo, ohi in theirs.get(proto, ()):
                    if max(lo, olo) <= min(hi, ohi):
                        out.setdefault(proto, []).append((max(lo, olo), min(hi, ohi)))
        return PortSet._build(out)

    def __sub__(self, other: PortSet) -> PortSet:
        """The ports of ``self`` not in ``other``.

        >>> str(PortSet.of([PortRange("TCP", 1, 100)]) - PortSet.of([PortRange("TCP", 50, 60)]))
        'TCP 1-49,TCP 61-100'
        """
        out: dict[str, list[Interval]] = {}
        theirs = dict(other.parts)
        for proto, ivs in self.parts:
            holes = theirs.get(proto, ())
            for lo, hi in ivs:
                start = lo
                for hlo, hhi in holes:
                    if hhi < start or hlo > hi:
                        continue
                    if hlo > start:
                        out.setdefault(proto, []).append((start, hlo - 1))
                    start = max(start, hhi + 1)
                    if start > hi:
                        break
                if start <= hi:
                    out.setdefault(proto, []).append((start, hi))
        return PortSet._build(out)

    def __str__(self) -> str:
        if not self.parts:
            return "No connections"
        if self.is_all():
            return "All connections"
        return ",".join(str(r) for r in self.ranges())
