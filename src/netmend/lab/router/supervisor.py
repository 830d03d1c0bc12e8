"""The process that IS a running router lab (PID 1 of its sandbox).

It owns the sandbox's network namespace (the switches' bridges live here),
a private /run (the nodes' named namespaces) and, for the netarena fidelity,
a folder of links to every executable but the firewall tools. It answers one
JSON request per connection on the lab's control socket: ``setup``,
``exec``, ``pingall``, ``teardown``, ``shutdown``; the logic stays in the
caller.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import signal
import socket
import subprocess
import sys
import time
import traceback
from pathlib import Path

from netmend.lab.errors import LabError
from netmend.lab.router import icmp
from netmend.lab.router.plan import FIDELITIES, hidden, layout
from netmend.lab.supervisor import CONTROL_SOCKET
from netmend.lab.sysns import in_netns, run
from netmend.route.topology import Topology

_PRIVATE = Path("/run/netmend")
_SHADOW = _PRIVATE / "netarena-bin"
_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Mininet's prompt: the shell prints it when a command is done.
_PROMPT = chr(127)


def _until_prompt(master: int, data: bytes, deadline: float) -> bytes | None:
    """Write ``data`` to the terminal, then read up to the next prompt; ``None`` past ``deadline``.

    Reading goes on while writing (the shell's continuation prompts must
    never fill the terminal and stall the write).
    """
    out = b""
    prompt = _PROMPT.encode()
    while data or prompt not in out:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        readable, writable, _ = select.select([master], [master] if data else [], [], left)
        if writable:
            with contextlib.suppress(BlockingIOError):
                data = data[os.write(master, data) :]
        if readable:
            try:
                chunk = os.read(master, 1 << 16)
            except BlockingIOError:
                continue
            except OSError:  # EIO: the shell is gone
                return out
            if not chunk:
                return out
            out += chunk
    return out[: out.index(prompt)]


def _shadow_bin() -> None:
    """Links to every executable on the usual PATH except the firewall tools."""
    _SHADOW.mkdir(parents=True, exist_ok=True)
    for folder in _PATH.split(":"):
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                target = _SHADOW / entry.name
                if not hidden(entry.name) and not target.exists() and os.access(entry.path, os.X_OK):
                    target.symlink_to(entry.path)


def _netem_available() -> bool:
    try:
        run(["ip", "link", "add", "netmend-probe", "type", "dummy"])
        try:
            run(["tc", "qdisc", "add", "dev", "netmend-probe", "root", "netem", "delay", "1ms"])
            return True
        except LabError:
            return False
        finally:
            run(["ip", "link", "del", "netmend-probe"])
    except LabError:
        return False


class RouterNode:
    """The sandbox and the network built in it."""

    def __init__(self) -> None:
        self.home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        self.topology: Topology | None = None
        self.fidelity = "full"
        self.fds: dict[str, int] = {}
        self.netem = False

    def prepare(self) -> None:
        run(["mount", "-t", "tmpfs", "-o", "mode=0755", "netmend-run", "/run"])
        _PRIVATE.mkdir(parents=True)
        _shadow_bin()
        run(["ip", "link", "set", "lo", "up"])
        self.netem = _netem_available()

    def setup(self, topology: Topology, fidelity: str) -> dict:
        if fidelity not in FIDELITIES:
            raise LabError(f"fidelity {fidelity!r}: expected one of {', '.join(FIDELITIES)}")
        self.teardown()
        self.topology, self.fidelity = topology, fidelity
        plan = layout(topology)
        try:
            run(["ip", "-b", "-"], stdin="".join(f"netns add {n}\n" for n in plan.nodes))
            for node in plan.nodes:
                self.fds[node] = os.open(f"/run/netns/{node}", os.O_RDONLY)
            run(["ip", "-b", "-"], stdin="\n".join(plan.root) + "\n", timeout=120)
            for node, commands in plan.per_node:
                run(["ip", "-n", node, "-b", "-"], stdin="\n".join(commands) + "\n")
            self._sysctl(topology.router, "net.ipv4.ip_forward=1")
            self._settle(plan.ports)
        except BaseException:
            self.teardown()
            raise
        return {"netem": self.netem, "nodes": list(plan.nodes)}

    def _sysctl(self, node: str, setting: str) -> None:
        run(["nsenter", f"--net=/run/netns/{node}", "sysctl", "-q", "-w", setting])

    @staticmethod
    def _settle(ports: tuple[str, ...], timeout: float = 10.0) -> None:
        # A bridge port forwards once both veth ends are up: wait for carrier.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            data = json.loads(run(["ip", "-j", "link", "show"]))
            states = {item["ifname"]: item.get("operstate") for item in data}
            if all(states.get(p) == "UP" for p in ports):
                return
            time.sleep(0.02)
        raise LabError("the lab's links did not come up within 10 s")

    def enter(self, node: str):
        return in_netns(self.fds[node], self.home)

    def execute(self, node: str, command: str, timeout: float) -> dict:
        """Run ``command`` on ``node`` as Mininet's ``cmd`` does (stdout and stderr merged).

        An interactive bash on a terminal, echo off, prompt ``\\x7f``: the
        command and a newline are written at once and the output is what comes
        before the next prompt. The terminal's canonical mode is kept, so a
        line over 4095 characters arrives cut, as there; a command that never
        gives the prompt back (a wait, an unterminated quote) is killed after
        ``timeout`` seconds and reported ``blocked``.
        """
        if node not in self.fds:
            raise LabError(f"no node {node!r} in this lab")
        env = {
            "PATH": str(_SHADOW) if self.fidelity == "netarena" else _PATH,
            "PS1": _PROMPT,
            "HOME": "/root",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
        }
        master, slave = pty.openpty()
        try:
            proc = subprocess.Popen(
                ["nsenter", f"--net=/run/netns/{node}", "/bin/bash", "--norc", "--noediting", "-is", f"netmend:{node}"],
                stdin=slave, stdout=slave, stderr=slave, env=env, cwd="/", start_new_session=True,
            )  # fmt: skip
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        deadline = time.monotonic() + timeout
        try:
            _until_prompt(master, b"", deadline)  # the first prompt
            _until_prompt(master, b"unset HISTFILE; stty -echo; set +m\n", deadline)
            out = _until_prompt(master, (command + "\n").encode(), deadline)
            blocked = out is None
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            os.close(master)
        text = (out or b"").decode(errors="replace").replace("\r\n", "\n").replace("\r", "\n")
        return {"output": text.rstrip("\n"), "blocked": blocked, "returncode": proc.returncode}

    def pingall(self, timeout: float) -> dict:
        if self.topology is None:
            raise LabError("the lab has no network yet")
        t = self.topology
        targets = {node: t.target(node) for node in t.nodes}
        reached = icmp.pingall(t.nodes, targets, self.enter, timeout)
        return {"reached": [[s, d, ok] for (s, d), ok in reached.items()]}

    def teardown(self) -> None:
        if self.topology is None:
            return
        plan = layout(self.topology)
        for fd in self.fds.values():
            os.close(fd)
        self.fds = {}
        links = {item["ifname"] for item in json.loads(run(["ip", "-j", "link", "show"]))}
        cmds = [f"link del {p}" for p in plan.ports if p in links]
        cmds += [f"link del {b}" for b in plan.bridges if b in links]
        cmds += [f"netns del {n}" for n in plan.nodes if Path(f"/run/netns/{n}").exists()]
        if cmds:
            run(["ip", "-b", "-"], stdin="\n".join(cmds) + "\n")
        self.topology = None


def handle(node: RouterNode, request: dict) -> dict:
    op = request.get("op")
    if op == "ping":
        return {"ok": True, "pid": os.getpid()}
    if op == "setup":
        t = request["topology"]
        reply = node.setup(Topology(t["prefix"], int(t["switches"]), int(t["hosts"])), request["fidelity"])
        return {"ok": True, **reply}
    if op == "exec":
        return {"ok": True, **node.execute(request["node"], request["command"], float(request["timeout"]))}
    if op == "pingall":
        return {"ok": True, **node.pingall(float(request["timeout"]))}
    if op == "teardown":
        node.teardown()
        return {"ok": True}
    return {"ok": False, "error": f"unknown op {op!r}"}


def serve_forever(state_dir: Path) -> None:
    node = RouterNode()
    node.prepare()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path = state_dir / CONTROL_SOCKET
    server.bind(str(path))
    server.listen(8)
    (state_dir / "ready").write_text(str(os.getpid()))
    while True:
        conn, _ = server.accept()
        with conn:
            try:
                chunks = []
                while chunk := conn.recv(1 << 16):
                    chunks.append(chunk)
                request = json.loads(b"".join(chunks) or b"{}")
                if request.get("op") == "shutdown":
                    node.teardown()
                    conn.sendall(b'{"ok": true}')
                    break
                reply = handle(node, request)
            except Exception as exc:  # one bad request must not take the lab down
                reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            with contextlib.suppress(OSError):
                conn.sendall(json.dumps(reply).encode())
    server.close()
    path.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    state_dir = Path(argv[0])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        serve_forever(state_dir)
    except Exception:
        (state_dir / "error").write_text(traceback.format_exc())
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
