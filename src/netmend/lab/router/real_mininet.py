"""The Route network in real Mininet: the evaluator's own node shells, behind the router lab's interface.

:class:`MininetLab` offers what :class:`~netmend.lab.router.lab.RouterLab`
offers to the assessment (``build``, ``run``, ``pingall``, ``topology``,
``netem``, ``stop``), but each network is Debian's Mininet with Linux bridges
(:mod:`netmend.lab.router.mininet_node`, run by the python that holds the
``mininet`` package) in a private PID/mount/network namespace. Commands go
through Mininet's ``Node.cmd``, exactly the path NetArena's evaluator takes,
so what its terminal does to a command (line limits, prompts, line endings)
happens here too. The netarena fidelity hides the firewall tools from the
nodes' ``PATH`` by a folder of links, as the router lab does.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from netmend.lab.errors import LabError, MissingToolError
from netmend.lab.router.lab import DEFAULT_EXEC_TIMEOUT, DEFAULT_PING_TIMEOUT, Execution
from netmend.lab.router.plan import FIDELITIES, hidden
from netmend.route.pingall import Pingall
from netmend.route.topology import Topology

SYSTEM_PYTHON = "/usr/bin/python3"
SCRIPT = Path(__file__).with_name("mininet_node.py")
_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def unavailable() -> str | None:
    """Why Mininet cannot run here, or ``None``."""
    if os.geteuid() != 0:
        return "Mininet needs root"
    missing = [t for t in ("mnexec", "brctl", "ping", "unshare") if shutil.which(t) is None]
    if missing:
        return f"Mininet needs {', '.join(missing)} (apt-get install mininet bridge-utils iputils-ping)"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import mininet.net"], capture_output=True)
    if probe.returncode != 0:
        return f"{SYSTEM_PYTHON} cannot import mininet (apt-get install mininet)"
    return None


class MininetLab:
    """One Mininet network at a time (use :meth:`start`; :meth:`build` replaces the network)."""

    def __init__(self, fidelity: str):
        if fidelity not in FIDELITIES:
            raise ValueError(f"fidelity {fidelity!r}: expected one of {', '.join(FIDELITIES)}")
        self.fidelity = fidelity
        self.topology: Topology | None = None
        self.netem = False
        self._proc: subprocess.Popen | None = None
        self._dir = tempfile.mkdtemp(prefix="netmend-mininet-")
        self._path = _PATH
        if fidelity == "netarena":
            shadow = Path(self._dir) / "bin"
            shadow.mkdir()
            for folder in _PATH.split(":"):
                with contextlib.suppress(OSError):
                    for entry in os.scandir(folder):
                        target = shadow / entry.name
                        if not hidden(entry.name) and not target.exists() and os.access(entry.path, os.X_OK):
                            target.symlink_to(entry.path)
            self._path = str(shadow)

    @classmethod
    def start(cls, fidelity: str = "full", **_ignored) -> MininetLab:
        reason = unavailable()
        if reason:
            raise MissingToolError(("mininet",), ("mininet", "bridge-utils", "iputils-ping")) if "apt-get" in reason else LabError(reason)
        return cls(fidelity)

    def _request(self, payload: dict) -> dict:
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise LabError("the Mininet network is not running; build one first")
        proc.stdin.write(json.dumps(payload) + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith("@@reply "):
                return json.loads(line[len("@@reply ") :])
        raise LabError(f"Mininet ended without an answer: {self._stderr()}")

    def _stderr(self) -> str:
        with contextlib.suppress(OSError):
            return (Path(self._dir) / "stderr").read_text()[-2000:]
        return ""

    def build(self, topology: Topology) -> None:
        """A fresh network of ``topology`` (the previous one stopped)."""
        self._close()
        env = {"PATH": self._path, "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb"}
        with open(Path(self._dir) / "stderr", "w") as err:
            self._proc = subprocess.Popen(
                [shutil.which("unshare") or "unshare", "-p", "-m", "-n", "--fork", "--mount-proc", SYSTEM_PYTHON, str(SCRIPT)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, env=env, cwd=self._dir,
            )  # fmt: skip
        spec = {"prefix": topology.prefix, "switches": topology.switches, "hosts": topology.hosts_per_switch}
        reply = self._request(spec)
        if not reply.get("ok"):
            raise LabError(f"Mininet could not build the network: {reply}")
        self.topology, self.netem = topology, bool(reply.get("netem"))

    def run(self, node: str, command: str, timeout: float = DEFAULT_EXEC_TIMEOUT) -> Execution:
        reply = self._request({"op": "cmd", "node": node, "command": command, "timeout": timeout})
        output = reply.get("output", "").replace("\r\n", "\n").replace("\r", "\n")
        if reply.get("blocked"):
            self._close()
        return Execution(output.rstrip("\n"), bool(reply.get("blocked")))

    def pingall(self, timeout: float = DEFAULT_PING_TIMEOUT) -> Pingall:
        if self.topology is None:
            raise LabError("the Mininet network is not running; build one first")
        reply = self._request({"op": "pingall", "timeout": timeout})
        return Pingall(self.topology.nodes, {(s, d): bool(ok) for s, d, ok in reply["reached"]})

    def _close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()  # the script stops its network and exits
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()  # its own PID namespace: everything in it dies with it
            proc.wait()
        with contextlib.suppress(OSError, ValueError):
            proc.stdout.close()

    def stop(self) -> None:
        self._close()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> MininetLab:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
