"""Listening sockets and the default card URL."""

from __future__ import annotations

import socket

import pytest

from netmend.serve import bind, default_card_url


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", "http://127.0.0.1:9009/"),
        ("agent.example", "http://agent.example:9009/"),
        ("::1", "http://[::1]:9009/"),
        ("0.0.0.0", None),
        ("::", None),
        ("", None),
    ],
)
def test_default_card_url(host, expected):
    assert default_card_url(host, 9009) == expected


def test_port_zero_binds_a_free_port():
    with bind("127.0.0.1", 0) as sock:
        assert sock.getsockname()[1] > 0


@pytest.mark.skipif(not socket.has_dualstack_ipv6(), reason="no dual-stack IPv6 on this machine")
def test_the_ipv6_wildcard_also_takes_ipv4_clients():
    with bind("::", 0) as sock:
        port = sock.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            pass
