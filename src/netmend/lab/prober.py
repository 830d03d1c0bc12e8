"""Real probes from inside pods: in-process sockets, or ``nc`` run in the pod.

Both run inside the sandbox. The in-process prober resolves names the way the
pod's resolver would (search list, ndots) by sending real DNS queries from the
source pod, then connects from the source pod with non-blocking sockets, many
at a time. The exec prober runs ``nc -zv -w 1`` through ``ip netns exec``
(which also mounts the pod's resolv.conf) and judges by exit code only.
"""

from __future__ import annotations

import errno
import heapq
import ipaddress
import itertools
import os
import selectors
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from netmend.lab.dns import candidates, parse_reply, query
from netmend.lab.plan import DNS_PORT
from netmend.lab.sysns import sctp_note

# In-flight sockets per wave: bursts of thousands overflow the pods' queues on
# small machines, so waves stay well below that.
WAVE = 512
# DNS queries in flight: one server answers them all, and a burst larger than
# its socket's receive queue would lose queries (time-outs no policy caused).
DNS_WAVE = 128
NC_WORKERS = 16
_UDP_PAYLOAD = b"netmend-lab-probe"


@dataclass(frozen=True)
class ProbeJob:
    """One probe: from the pod in ``netns`` to ``host:port`` over ``protocol``."""

    netns: str
    host: str
    port: int
    protocol: str = "TCP"


@dataclass(frozen=True)
class ProbeResult:
    """Whether the probe connected, and what happened when it did not."""

    ok: bool
    detail: str


def _is_address(host: str) -> bool:
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return False
    return True


class SocketProber:
    """Probes with sockets created inside the source pods' network namespaces.

    Parameters
    ----------
    enter : callable
        ``enter(netns)`` returns a context manager that puts the calling
        thread into that pod's network namespace.
    search : callable
        ``search(netns)`` returns that pod's DNS search list.
    nameserver : str
        The address in every pod's resolv.conf.
    """

    def __init__(self, enter, search: Callable[[str], tuple[str, ...]], nameserver: str):
        self._enter, self._search, self._nameserver = enter, search, nameserver

    def run(self, jobs: Sequence[ProbeJob], timeout: float) -> list[ProbeResult]:
        """Probe every job; results in job order."""
        results: list[ProbeResult | None] = [None] * len(jobs)
        for i, job in enumerate(jobs):
            if job.protocol == "SCTP":
                results[i] = ProbeResult(False, sctp_detail())
        names = sorted(
            {(j.netns, j.host) for j, r in zip(jobs, results, strict=True) if r is None}
            - {(j.netns, j.host) for j in jobs if _is_address(j.host)}
        )
        resolved = self._resolve(names, timeout)
        todo: list[tuple[int, ProbeJob, str]] = []
        for i, job in enumerate(jobs):
            if results[i] is not None:
                continue
            address = job.host if _is_address(job.host) else resolved[(job.netns, job.host)]
            if address.startswith("!"):
                results[i] = ProbeResult(False, address[1:])
            else:
                todo.append((i, job, address))
        for wave in _waves(todo):
            for i, result in self._connect(wave, timeout):
                results[i] = result
        return [r for r in results if r is not None]

    def _sockets(self, wanted: list[tuple[str, int]]) -> list[socket.socket]:
        """Non-blocking sockets ``(netns, type)``, in order, entering each namespace once."""
        out: list[socket.socket | None] = [None] * len(wanted)
        order = sorted(range(len(wanted)), key=lambda i: wanted[i][0])
        for netns, group in itertools.groupby(order, key=lambda i: wanted[i][0]):
            with self._enter(netns):
                for i in group:
                    out[i] = socket.socket(socket.AF_INET, wanted[i][1])
        for sock in out:
            sock.setblocking(False)
        return out

    def _resolve(self, names: list[tuple[str, str]], timeout: float) -> dict[tuple[str, str], str]:
        """Resolve each (netns, name): an address, or ``!reason`` on failure."""
        out: dict[tuple[str, str], str] = {}
        ident = itertools.count(1)
        for wave in _waves(names, DNS_WAVE):
            self._resolve_wave(wave, timeout, ident, out)
        return out

    def _resolve_wave(self, wave, timeout: float, ident, out: dict) -> None:
        sel = selectors.DefaultSelector()
        # per socket: [key, remaining candidates, query id, deadline]
        states: dict[socket.socket, list] = {}
        deadlines: list[tuple[float, int, socket.socket]] = []  # a heap, stale entries skipped
        socks = self._sockets([(netns, socket.SOCK_DGRAM) for netns, _ in wave])
        for key, sock in zip(wave, socks, strict=True):
            state = states[sock] = [key, list(candidates(key[1], self._search(key[0]))), 0, 0.0]
            if self._ask(sock, state, next(ident) & 0xFFFF, timeout):
                sel.register(sock, selectors.EVENT_READ)
                heapq.heappush(deadlines, (state[3], state[2], sock))
            else:
                out[key] = "!Temporary failure in name resolution (query not sent)"
                sock.close()

        def finish(sock: socket.socket, verdict: str) -> None:
            out[states[sock][0]] = verdict
            sel.unregister(sock)
            sock.close()

        while sel.get_map():
            while deadlines and (
                deadlines[0][2].fileno() < 0 or deadlines[0][1] != states[deadlines[0][2]][2]
            ):
                heapq.heappop(deadlines)  # answered, or asked again since
            if deadlines and deadlines[0][0] <= time.monotonic():
                _, _, sock = heapq.heappop(deadlines)
                finish(sock, "!Temporary failure in name resolution (timed out)")
                continue
            wait = deadlines[0][0] - time.monotonic() if deadlines else timeout
            for k, _ in sel.select(max(0.0, wait)):
                sock, state = k.fileobj, states[k.fileobj]
                try:
                    rid, rcode, addresses = parse_reply(sock.recv(65535))
                except (OSError, ValueError):
                    finish(sock, "!Temporary failure in name resolution")
                    continue
                if rid != state[2]:
                    continue
                if addresses:
                    finish(sock, addresses[0])
                elif rcode == "NXDOMAIN" and state[1]:
                    if self._ask(sock, state, next(ident) & 0xFFFF, timeout):
                        heapq.heappush(deadlines, (state[3], state[2], sock))
                    else:
                        finish(sock, "!Temporary failure in name resolution")
                else:
                    finish(sock, f"!Name does not resolve ({rcode})")
        sel.close()

    def _ask(self, sock: socket.socket, state: list, ident: int, timeout: float) -> bool:
        name = state[1].pop(0)
        state[2], state[3] = ident, time.monotonic() + timeout
        try:
            sock.sendto(query(name, ident), (self._nameserver, DNS_PORT))
        except OSError:
            return False  # an egress drop refuses the send at once
        return True

    def _connect(self, wave, timeout: float):
        sel = selectors.DefaultSelector()
        done: list[tuple[int, ProbeResult]] = []
        socks: dict[socket.socket, int] = {}
        kinds = [
            (job.netns, socket.SOCK_STREAM if job.protocol == "TCP" else socket.SOCK_DGRAM)
            for _, job, _ in wave
        ]
        for (i, job, address), sock, (_, kind) in zip(
            wave, self._sockets(kinds), kinds, strict=True
        ):
            try:
                if kind == socket.SOCK_STREAM:
                    code = sock.connect_ex((address, job.port))
                    if code not in (0, errno.EINPROGRESS):
                        raise OSError(code, errno.errorcode.get(code, str(code)))
                    sel.register(sock, selectors.EVENT_WRITE)
                else:
                    sock.connect((address, job.port))
                    sock.send(_UDP_PAYLOAD)
                    sel.register(sock, selectors.EVENT_READ)
            except OSError as exc:
                done.append((i, ProbeResult(False, f"{address}:{job.port}: {exc.strerror or exc}")))
                sock.close()
                continue
            socks[sock] = i
        deadline = time.monotonic() + timeout
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for key, _ in sel.select(left):
                sock = key.fileobj
                i = socks[sock]
                if key.events == selectors.EVENT_WRITE:
                    code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    result = ProbeResult(code == 0, "connected" if code == 0 else os.strerror(code))
                else:
                    try:
                        echoed = sock.recv(65535) == _UDP_PAYLOAD
                        result = ProbeResult(echoed, "echoed" if echoed else "unexpected reply")
                    except OSError as exc:
                        result = ProbeResult(False, exc.strerror or str(exc))
                done.append((i, result))
                sel.unregister(sock)
                sock.close()
        for key in list(sel.get_map().values()):
            done.append((socks[key.fileobj], ProbeResult(False, "timed out")))
            key.fileobj.close()
        sel.close()
        return done


def sctp_detail() -> str:
    """What an SCTP probe reports: the lab cannot measure it."""
    return f"SCTP is not probed: {sctp_note() or 'the lab has no SCTP prober'}"


def _waves(items: list, size: int = WAVE) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def nc_argv(job: ProbeJob, timeout: float) -> list[str]:
    """The command that probes ``job`` from inside its pod, as NetArena's harness does."""
    wait = str(max(1, round(timeout)))
    flags = ["-zv", "-w", wait] if job.protocol == "TCP" else ["-uv", "-w", wait]
    return ["ip", "netns", "exec", job.netns, "nc", *flags, job.host, str(job.port)]


def nc_probe(job: ProbeJob, timeout: float) -> ProbeResult:
    """Run ``nc`` in the source pod; TCP by exit code, UDP by the echo coming back."""
    if job.protocol == "SCTP":
        return ProbeResult(False, sctp_detail())
    udp = job.protocol == "UDP"
    try:
        done = subprocess.run(
            nc_argv(job, timeout),
            input=_UDP_PAYLOAD.decode() if udp else "",
            capture_output=True,
            text=True,
            timeout=timeout + 15,  # name resolution may spend its own timeouts first
            check=False,
        )
    except subprocess.TimeoutExpired:
        return ProbeResult(False, "nc did not finish")
    message = (done.stderr or done.stdout).strip().splitlines()
    detail = message[-1] if message else f"exit {done.returncode}"
    if udp:
        return ProbeResult(_UDP_PAYLOAD.decode() in done.stdout, detail)
    return ProbeResult(done.returncode == 0, detail)


def nc_probe_all(jobs: Sequence[ProbeJob], timeout: float) -> list[ProbeResult]:
    """Run :func:`nc_probe` for every job, several at a time; results in job order."""
    with ThreadPoolExecutor(NC_WORKERS) as pool:
        return list(pool.map(lambda job: nc_probe(job, timeout), jobs))
