"""The cluster DNS of the lab: answers for service names, and a stub resolver.

Wire format by ``dnslib``; the answering and the search-list logic are pure
functions, the sockets live in :mod:`netmend.lab.supervisor` and
:mod:`netmend.lab.prober`.
"""

from __future__ import annotations

from collections.abc import Mapping

from dnslib import QTYPE, RCODE, RR, A, DNSError, DNSRecord

from netmend.lab.plan import NDOTS

TTL = 5


def answer(query: bytes, records: Mapping[str, tuple[str, ...]]) -> bytes | None:
    """The reply to one DNS query packet, or ``None`` for a packet that is no query.

    Known names get their A records (and an empty NOERROR for other types,
    so a resolver asking for AAAA does not give up on the name); unknown
    names get NXDOMAIN.

    Examples
    --------
    >>> q = DNSRecord.question("web.default.svc.cluster.local").pack()
    >>> r = DNSRecord.parse(answer(q, {"web.default.svc.cluster.local": ("10.96.0.9",)}))
    >>> [str(rr.rdata) for rr in r.rr]
    ['10.96.0.9']
    """
    try:
        request = DNSRecord.parse(query)
    except (DNSError, ValueError, IndexError):
        return None
    if request.header.qr or not request.questions:
        return None
    reply = request.reply()
    question = request.questions[0]
    name = str(question.qname).rstrip(".").lower()
    if name not in records:
        reply.header.rcode = RCODE.NXDOMAIN
    elif question.qtype == QTYPE.A:
        for address in records[name]:
            reply.add_answer(RR(question.qname, QTYPE.A, rdata=A(address), ttl=TTL))
    return reply.pack()


def candidates(name: str, search: tuple[str, ...], ndots: int = NDOTS) -> tuple[str, ...]:
    """The names a glibc resolver tries for ``name``, in order.

    Examples
    --------
    >>> candidates("web", ("default.svc.cluster.local", "cluster.local"))
    ('web.default.svc.cluster.local', 'web.cluster.local', 'web')
    >>> candidates("web.default.svc.cluster.local.", ("cluster.local",))
    ('web.default.svc.cluster.local',)
    """
    if name.endswith("."):
        return (name.rstrip("."),)
    searched = tuple(f"{name}.{domain}" for domain in search)
    return searched + (name,) if name.count(".") < ndots else (name,) + searched


def query(name: str, ident: int) -> bytes:
    """An A query for ``name`` with transaction id ``ident``."""
    record = DNSRecord.question(name, "A")
    record.header.id = ident
    return record.pack()


def parse_reply(packet: bytes) -> tuple[int, str, tuple[str, ...]]:
    """``(id, rcode name, A addresses)`` of a reply; ``ValueError`` for garbage."""
    try:
        reply = DNSRecord.parse(packet)
    except (DNSError, IndexError) as exc:
        raise ValueError(f"not a DNS reply: {exc}") from exc
    addresses = tuple(str(rr.rdata) for rr in reply.rr if rr.rtype == QTYPE.A)
    return reply.header.id, RCODE.get(reply.header.rcode), addresses
