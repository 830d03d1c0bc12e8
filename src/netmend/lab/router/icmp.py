"""An in-process pingall: one raw ICMP echo from every node to every other.

Every request is sent first (each from a socket opened inside its source's
namespace), then replies are collected until each request's deadline. A
pair succeeds when its echo reply comes back in time, as ``ping -c1 -W``.
"""

from __future__ import annotations

import os
import select
import socket
import struct
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

_ECHO_REQUEST, _ECHO_REPLY = 8, 0


def _checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    total = (total >> 16) + (total & 0xFFFF)
    total += total >> 16
    return ~total & 0xFFFF


def _echo(ident: int, seq: int) -> bytes:
    payload = b"netmend-route-lab" + bytes(39)
    header = struct.pack("!BBHHH", _ECHO_REQUEST, 0, 0, ident, seq)
    return struct.pack("!BBHHH", _ECHO_REQUEST, 0, _checksum(header + payload), ident, seq) + payload


def pingall(
    nodes: Sequence[str],
    targets: dict[str, str],
    enter: Callable[[str], AbstractContextManager],
    timeout: float,
) -> dict[tuple[str, str], bool]:
    """``reached[(src, dst)]`` for every ordered pair of ``nodes``.

    ``targets[node]`` is the address the node is pinged at; ``enter(node)``
    puts the calling thread into that node's namespace.
    """
    socks: dict[str, socket.socket] = {}
    reached = {(s, d): False for s in nodes for d in nodes if s != d}
    ident_base = os.getpid() & 0x3FFF
    try:
        for src in nodes:
            with enter(src):
                sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
            sock.setblocking(False)
            socks[src] = sock
        deadline = 0.0
        wanted: dict[tuple[str, int], str] = {}
        for index, src in enumerate(nodes):
            ident = (ident_base + index) & 0xFFFF
            for seq, dst in enumerate(nodes):
                if dst == src:
                    continue
                try:
                    socks[src].sendto(_echo(ident, seq), (targets[dst], 0))
                except OSError:
                    continue  # "Network is unreachable": lost
                wanted[(src, seq)] = dst
            deadline = time.monotonic() + timeout
        by_fd = {sock.fileno(): (src, (ident_base + i) & 0xFFFF) for i, (src, sock) in enumerate(socks.items())}
        poller = select.poll()
        for sock in socks.values():
            poller.register(sock, select.POLLIN)
        while wanted and (left := deadline - time.monotonic()) > 0:
            for fd, _ in poller.poll(max(1, int(left * 1000))):
                src, ident = by_fd[fd]
                while True:
                    try:
                        packet, (addr, _) = socks[src].recvfrom(2048)
                    except BlockingIOError:
                        break
                    start = (packet[0] & 0x0F) * 4
                    if len(packet) < start + 8:
                        continue
                    kind, _, _, rid, seq = struct.unpack("!BBHHH", packet[start : start + 8])
                    dst = wanted.get((src, seq))
                    if kind == _ECHO_REPLY and rid == ident and dst is not None and targets[dst] == addr:
                        reached[(src, dst)] = True
                        del wanted[(src, seq)]
    finally:
        for sock in socks.values():
            sock.close()
    return reached
