"""Start, reach and stop the sandbox process of a named lab.

A lab's state directory holds the PID of its ``unshare`` process, the
supervisor's control socket and the cluster it was built from. The kernel
objects of a lab live only inside the sandbox's namespaces, so killing that
process removes them; a state directory whose process is gone is stale and is
removed by the next ``up`` or ``down`` of the same name.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from netmend.lab.errors import LabError, LabStateError, SandboxError
from netmend.lab.supervisor import CONTROL_SOCKET
from netmend.lab.sysns import check_tools

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
STATE_ENV = "NETMEND_LAB_DIR"
START_TIMEOUT = 30.0


def state_root() -> Path:
    """Where labs keep their state: ``$NETMEND_LAB_DIR`` or a per-user temp folder."""
    override = os.environ.get(STATE_ENV)
    if override:
        return Path(override)
    return Path(tempfile.gettempdir()) / f"netmend-lab-{os.getuid()}"


def lab_dir(name: str) -> Path:
    """The state directory of lab ``name``; :class:`LabStateError` for a bad name."""
    if not _NAME.match(name):
        raise LabStateError(
            f"lab name {name!r}: expected 1-32 lowercase letters, digits or hyphens"
        )
    return state_root() / name


def _pid(directory: Path) -> int | None:
    try:
        return int((directory / "pid").read_text())
    except (OSError, ValueError):
        return None


def is_running(directory: Path) -> bool:
    """Whether the sandbox recorded in ``directory`` is alive (and is ours, not a reused PID)."""
    pid = _pid(directory)
    if pid is None:
        return False
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return str(directory).encode() in cmdline


def start(
    name: str,
    *,
    tied: bool = False,
    userns: bool | None = None,
    module: str = "netmend.lab.supervisor",
    tools: Sequence[str] | None = None,
) -> Path:
    """Start the sandbox of lab ``name`` and wait until it answers.

    Parameters
    ----------
    tied : bool
        Kill the sandbox when the calling thread dies (tests, benchmarks);
        otherwise it outlives the caller until ``stop``.
    userns : bool, optional
        Run inside a user namespace; default: only when not root (root
        may ask for it to exercise the unprivileged path).
    module : str
        The supervisor to run as the sandbox's PID 1 (it is given the state
        directory and must answer on its control socket).
    tools : sequence of str, optional
        The executables it needs (default: the pod lab's).

    Raises
    ------
    MissingToolError, LabStateError, SandboxError
    """
    check_tools() if tools is None else check_tools(tools)
    directory = lab_dir(name)
    if is_running(directory):
        raise LabStateError(f"lab {name!r} is already running; `netmend lab down` stops it")
    root = state_root()
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    if root.stat().st_uid != os.getuid():
        raise SandboxError(
            f"{root} belongs to another user; set {STATE_ENV} to a folder of your own"
        )
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(mode=0o700)
    if userns is None:
        userns = os.geteuid() != 0
    user = ["--user", "--map-root-user"] if userns else []
    argv = [
        *(["setpriv", "--pdeathsig", "KILL"] if tied else []),
        "unshare", *user, "--net", "--mount", "--pid", "--fork", "--kill-child",
        sys.executable, "-m", module, str(directory),
    ]  # fmt: skip
    with open(directory / "supervisor.log", "wb") as log:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd="/",
            start_new_session=not tied,
        )  # fmt: skip
    (directory / "pid").write_text(str(proc.pid))
    deadline = time.monotonic() + START_TIMEOUT
    while not (directory / "ready").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            log_text = (directory / "supervisor.log").read_text(errors="replace")[-2000:]
            _kill(proc.pid)
            shutil.rmtree(directory, ignore_errors=True)
            raise SandboxError(
                f"the sandbox of lab {name!r} did not start "
                f"(user namespaces or mounts may be forbidden here):\n{log_text}"
            )
        time.sleep(0.02)
    return directory


def request(directory: Path, payload: dict, timeout: float = 600.0) -> dict:
    """Send one request to a running lab; its reply, or :class:`LabError` with its message."""
    if not is_running(directory):
        raise LabStateError(f"no lab is running in {directory}; start one with `netmend lab up`")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        try:
            conn.connect(str(directory / CONTROL_SOCKET))
            conn.sendall(json.dumps(payload).encode())
            conn.shutdown(socket.SHUT_WR)
            chunks = []
            while chunk := conn.recv(1 << 16):
                chunks.append(chunk)
        except OSError as exc:
            raise SandboxError(f"the lab in {directory} did not answer: {exc}") from exc
    if not chunks:
        raise SandboxError(f"the lab in {directory} closed the connection without a reply")
    reply = json.loads(b"".join(chunks))
    if not reply.get("ok"):
        raise LabError(reply.get("error", "the lab refused the request"))
    return reply


def stop(directory: Path, timeout: float = 10.0) -> bool:
    """Stop the lab in ``directory`` and remove its state; whether one was running."""
    running = is_running(directory)
    if running:
        pid = _pid(directory)
        # A wedged supervisor is killed below.
        with contextlib.suppress(LabError):
            request(directory, {"op": "shutdown"}, timeout=timeout)
        deadline = time.monotonic() + timeout
        while is_running(directory) and time.monotonic() < deadline:
            time.sleep(0.02)
        if is_running(directory) and pid is not None:
            _kill(pid)
        elif pid is not None:
            _reap(pid)
    shutil.rmtree(directory, ignore_errors=True)
    return running


def _kill(pid: int) -> None:
    # unshare --kill-child passes the kill on to the supervisor, PID 1 of the
    # sandbox, whose death ends every process and namespace inside it.
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _reap(pid: int) -> None:
    # Collect the exit status when the sandbox is our own child; others' are init's.
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
