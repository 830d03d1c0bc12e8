"""The pods' servers: TCP accept, UDP echo, and the cluster DNS, on one selector thread.

Sockets are created by the caller inside a pod's network namespace and handed
over here; they stay in that namespace, so one thread serves every pod.
"""

from __future__ import annotations

import contextlib
import os
import queue
import selectors
import socket
import struct
import threading
from collections.abc import Callable, Mapping

from netmend.lab.dns import answer

# A generous backlog: a full probe matrix connects to a pod from every other pod at once.
BACKLOG = 4096
_DNS_TCP_LIMIT = 65535


class ServeLoop:
    """A daemon thread that answers on every registered socket."""

    def __init__(self) -> None:
        self._selector = selectors.DefaultSelector()
        self._pending: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._owned: dict[str, list[socket.socket]] = {}
        self._records: Mapping[str, tuple[str, ...]] = {}
        self._thread = threading.Thread(target=self._run, name="netmend-lab-serve", daemon=True)
        self._thread.start()

    def _call(self, fn: Callable[[], None]) -> None:
        done = threading.Event()

        def wrapped() -> None:
            try:
                fn()
            finally:
                done.set()

        self._pending.put(wrapped)
        os.write(self._wake_w, b"x")
        done.wait()

    def set_records(self, records: Mapping[str, tuple[str, ...]]) -> None:
        """Replace the names the DNS sockets answer."""
        self._records = dict(records)

    def add(self, group: str, sock: socket.socket, role: str) -> None:
        """Serve ``sock`` as ``role`` (``tcp``, ``udp``, ``dns-tcp`` or ``dns-udp``)."""
        sock.setblocking(False)

        def register() -> None:
            self._selector.register(sock, selectors.EVENT_READ, role)
            self._owned.setdefault(group, []).append(sock)

        self._call(register)

    def close_group(self, group: str) -> None:
        """Stop serving and close every socket added under ``group``."""

        def close() -> None:
            for sock in self._owned.pop(group, []):
                self._drop(sock)

        self._call(close)

    def close_all(self) -> None:
        """Close every socket."""
        for group in list(self._owned):
            self.close_group(group)

    def _drop(self, sock: socket.socket) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(sock)
        sock.close()

    def _run(self) -> None:
        while True:
            for key, _ in self._selector.select():
                if key.data is None:
                    os.read(self._wake_r, 4096)
                    while not self._pending.empty():
                        self._pending.get()()
                    continue
                try:
                    self._handle(key.fileobj, key.data)
                except OSError:
                    # A peer that vanished mid-exchange costs only its own exchange.
                    if isinstance(key.data, bytearray):
                        self._drop(key.fileobj)

    def _handle(self, sock, role: str | bytearray) -> None:
        if isinstance(role, bytearray):
            self._dns_tcp(sock, role)  # an accepted DNS connection and what it sent so far
        elif role in ("tcp", "dns-tcp"):
            conn, _ = sock.accept()
            if role == "tcp":
                conn.close()  # accepting is the whole service: the handshake completed
                return
            conn.setblocking(False)
            self._selector.register(conn, selectors.EVENT_READ, bytearray())
        elif role == "udp":
            data, peer = sock.recvfrom(65535)
            sock.sendto(data, peer)
        else:  # dns-udp
            data, peer = sock.recvfrom(65535)
            reply = answer(data, self._records)
            if reply is not None:
                sock.sendto(reply, peer)

    def _dns_tcp(self, conn, buffered: bytearray) -> None:
        """DNS over TCP: a 2-byte length, the query; one answer, then close."""
        chunk = conn.recv(_DNS_TCP_LIMIT)
        buffered += chunk
        if not chunk or len(buffered) > _DNS_TCP_LIMIT + 2:
            self._drop(conn)
            return
        if len(buffered) < 2 or len(buffered) < 2 + struct.unpack("!H", buffered[:2])[0]:
            return  # more to come
        size = struct.unpack("!H", buffered[:2])[0]
        reply = answer(bytes(buffered[2 : 2 + size]), self._records)
        if reply is not None:
            conn.setblocking(True)
            conn.settimeout(1.0)
            conn.sendall(struct.pack("!H", len(reply)) + reply)
        self._drop(conn)
