"""The lab's DNS answers and search-list order (pure)."""

from __future__ import annotations

from dnslib import QTYPE, RCODE, DNSRecord

from netmend.lab.dns import answer, candidates, parse_reply, query

RECORDS = {"web.default.svc.cluster.local": ("10.96.0.9",)}


def _ask(name: str, qtype: str = "A") -> DNSRecord:
    reply = answer(DNSRecord.question(name, qtype).pack(), RECORDS)
    assert reply is not None
    return DNSRecord.parse(reply)


def test_known_name_gets_its_address():
    reply = _ask("web.default.svc.cluster.local")
    assert reply.header.rcode == RCODE.NOERROR
    assert [(rr.rtype, str(rr.rdata)) for rr in reply.rr] == [(QTYPE.A, "10.96.0.9")]


def test_names_are_case_insensitive_and_may_end_with_a_dot():
    assert [str(rr.rdata) for rr in _ask("WEB.default.svc.cluster.local.").rr] == ["10.96.0.9"]


def test_other_types_of_a_known_name_are_empty_but_not_nxdomain():
    reply = _ask("web.default.svc.cluster.local", "AAAA")
    assert reply.header.rcode == RCODE.NOERROR and not reply.rr


def test_unknown_names_are_nxdomain():
    assert _ask("db.default.svc.cluster.local").header.rcode == RCODE.NXDOMAIN


def test_garbage_and_replies_get_no_answer():
    assert answer(b"\x00\x01garbage", RECORDS) is None
    reply = answer(DNSRecord.question("web.default.svc.cluster.local").pack(), RECORDS)
    assert answer(reply, RECORDS) is None


def test_query_and_parse_reply_round_trip_through_the_server():
    packet = answer(query("web.default.svc.cluster.local", 77), RECORDS)
    assert parse_reply(packet) == (77, "NOERROR", ("10.96.0.9",))


def test_search_list_first_for_short_names_last_for_long_ones():
    search = ("default.svc.cluster.local", "svc.cluster.local", "cluster.local")
    assert candidates("web.ns-a", search)[:2] == (
        "web.ns-a.default.svc.cluster.local",
        "web.ns-a.svc.cluster.local",
    )
    assert candidates("a.b.c.d.e.f", search)[0] == "a.b.c.d.e.f"
