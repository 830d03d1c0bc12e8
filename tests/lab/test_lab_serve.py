"""The pods' servers on loopback: TCP accept, UDP echo, DNS over UDP and TCP."""

from __future__ import annotations

import socket
import struct

import pytest

from netmend.lab.dns import parse_reply, query
from netmend.lab.serve import ServeLoop

RECORDS = {"web.default.svc.cluster.local": ("10.96.0.9",)}


@pytest.fixture
def serve():
    loop = ServeLoop()
    loop.set_records(RECORDS)

    def add(kind: int, role: str) -> tuple[str, int]:
        sock = socket.socket(socket.AF_INET, kind)
        sock.bind(("127.0.0.1", 0))
        if kind == socket.SOCK_STREAM:
            sock.listen(8)
        loop.add("test", sock, role)
        return sock.getsockname()

    yield add
    loop.close_all()


def _udp(address, payload: bytes) -> bytes:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(2)
        sock.sendto(payload, address)
        return sock.recv(65535)


def test_tcp_listener_accepts(serve):
    address = serve(socket.SOCK_STREAM, "tcp")
    with socket.create_connection(address, timeout=2):
        pass


def test_udp_listener_echoes(serve):
    assert _udp(serve(socket.SOCK_DGRAM, "udp"), b"ping") == b"ping"


def test_dns_over_udp_answers(serve):
    reply = _udp(serve(socket.SOCK_DGRAM, "dns-udp"), query("web.default.svc.cluster.local", 5))
    assert parse_reply(reply) == (5, "NOERROR", ("10.96.0.9",))


def test_dns_over_tcp_answers_a_query_sent_in_pieces(serve):
    address = serve(socket.SOCK_STREAM, "dns-tcp")
    packet = query("web.default.svc.cluster.local", 9)
    framed = struct.pack("!H", len(packet)) + packet
    with socket.create_connection(address, timeout=2) as conn:
        conn.sendall(framed[:1])  # the length split across segments
        conn.sendall(framed[1:])
        size = struct.unpack("!H", conn.recv(2))[0]
        reply = b""
        while len(reply) < size:
            reply += conn.recv(size - len(reply))
    assert parse_reply(reply) == (9, "NOERROR", ("10.96.0.9",))


def test_closed_groups_stop_answering():
    loop = ServeLoop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    loop.add("pod", sock, "tcp")
    target = sock.getsockname()
    loop.close_group("pod")
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(target, timeout=2)
