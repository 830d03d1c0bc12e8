"""Thin adapters over the kernel and system tools: setns, commands, tool checks."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import os
import shutil
import socket
import subprocess
from collections.abc import Iterator, Sequence

from netmend.lab.errors import MissingToolError, PlumbingError

CLONE_NEWNET = 0x40000000
# executable -> Debian package that provides it.
TOOLS: dict[str, str] = {
    "ip": "iproute2",
    "nft": "nftables",
    "nc": "netcat-openbsd",
    "unshare": "util-linux",
    "nsenter": "util-linux",
    "setpriv": "util-linux",
    "mount": "mount",
    "tc": "iproute2",
    "sysctl": "procps",
    "bash": "bash",
    "awk": "mawk",
    "iptables": "iptables",
}

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


POD_LAB_TOOLS: tuple[str, ...] = ("ip", "nft", "nc", "unshare", "nsenter", "setpriv", "mount")


def check_tools(names: Sequence[str] = POD_LAB_TOOLS) -> None:
    """Raise :class:`MissingToolError` naming every missing tool and its package."""
    missing = tuple(name for name in names if shutil.which(name) is None)
    if missing:
        raise MissingToolError(missing, tuple(sorted({TOOLS[name] for name in missing})))


@functools.cache
def netcat_is_openbsd() -> bool:
    """Whether ``nc`` is OpenBSD netcat (busybox ``nc`` has no ``-z``)."""
    try:
        done = subprocess.run(["nc", "-h"], capture_output=True, text=True, timeout=5, check=False)
    except OSError:
        return False
    return "OpenBSD netcat" in done.stdout + done.stderr


def sctp_note() -> str | None:
    """Why the lab cannot serve or probe SCTP here, or ``None`` when it could.

    The lab has no SCTP listeners or probes either way; this says whether the
    kernel is the reason (nftables still matches SCTP ports in the rulesets).
    """
    try:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_SCTP).close()
    except OSError as exc:
        return f"this kernel has no SCTP sockets ({exc.strerror})"
    return None


def setns(fd: int, nstype: int = CLONE_NEWNET) -> None:
    """Move the CALLING THREAD into the namespace open at ``fd``."""
    if _libc.setns(fd, nstype) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"setns failed: {os.strerror(err)}")


@contextlib.contextmanager
def in_netns(fd: int, home_fd: int) -> Iterator[None]:
    """Run the block with this thread in the network namespace ``fd``.

    Sockets created inside stay in that namespace for their whole life, which
    is what lets one process serve and probe every pod.
    """
    setns(fd)
    try:
        yield
    finally:
        setns(home_fd)


def run(argv: Sequence[str], stdin: str | None = None, timeout: float = 30.0) -> str:
    """Run a command from an argument list; :class:`PlumbingError` on failure."""
    try:
        done = subprocess.run(
            list(argv), input=stdin, capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PlumbingError(tuple(argv), str(exc)) from exc
    if done.returncode != 0:
        raise PlumbingError(tuple(argv), done.stderr or done.stdout)
    return done.stdout
