"""The process that IS a running lab.

It runs as PID 1 of its own PID, mount and network namespaces (and a user
namespace when not root), started by :mod:`netmend.lab.sandbox`. Its network
namespace is the node: a bridge with no uplink. Pod namespaces are named
inside a private tmpfs on /run, and resolv.conf files live in a private
overlay of /etc, so nothing of the lab is visible from, or left on, the host:
when this process dies the kernel reclaims every namespace, link and socket.

It executes requests from a Unix socket in the lab's state directory, one
JSON object per connection; all policy logic stays in the caller.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import traceback
from pathlib import Path

from netmend.lab import nft
from netmend.lab.errors import LabError
from netmend.lab.plan import DNS_PORT, NODE_BRIDGE, LabPlan, records_by_name, resolv_conf
from netmend.lab.prober import ProbeJob, SocketProber, nc_probe_all
from netmend.lab.serve import BACKLOG, ServeLoop
from netmend.lab.sysns import in_netns, run

CONTROL_SOCKET = "control.sock"
_PRIVATE = Path("/run/netmend")


class Node:
    """The node namespace and the pods built in it."""

    def __init__(self) -> None:
        self.home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        self.plan: LabPlan | None = None
        self.fds: dict[str, int] = {}
        self.applied: dict[str, str] = {}
        self.serve = ServeLoop()

    @staticmethod
    def prepare() -> None:
        """Private /run and /etc, loopback and the bridge."""
        run(["mount", "-t", "tmpfs", "-o", "mode=0755", "netmend-run", "/run"])
        for sub in ("upper", "work"):
            (_PRIVATE / sub).mkdir(parents=True)
        run(
            [
                "mount", "-t", "overlay", "netmend-etc", "-o",
                f"lowerdir=/etc,upperdir={_PRIVATE / 'upper'},workdir={_PRIVATE / 'work'}",
                "/etc",
            ]
        )  # fmt: skip
        Path("/etc/netns").mkdir(exist_ok=True)
        run(["ip", "-b", "-"], stdin=f"link set lo up\nlink add {NODE_BRIDGE} type bridge\n"
            f"link set {NODE_BRIDGE} up\n")  # fmt: skip

    def enter(self, netns: str):
        """A context manager putting the calling thread into pod ``netns``."""
        return in_netns(self.fds[netns], self.home)

    def setup(self, plan: LabPlan) -> None:
        """Replace whatever pods exist by the pods of ``plan`` (all of them, or none)."""
        self.teardown()
        self.plan = plan
        try:
            self._build(plan)
        except BaseException:
            self.teardown()
            raise

    def _build(self, plan: LabPlan) -> None:
        node_cmds, pod_cmds = [], {}
        for pod in plan.pods:
            node_cmds += [
                f"netns add {pod.netns}",
                f"link add {pod.veth} type veth peer name eth0 address {pod.mac} netns {pod.netns}",
                f"link set {pod.veth} master {NODE_BRIDGE} up",
            ]
            # Static neighbours: no ARP storms when every pod probes every other at once.
            pod_cmds[pod.netns] = [
                "link set lo up",
                f"addr add {pod.ip}/32 dev eth0",
                "link set eth0 up",
                "route add default dev eth0",
            ] + [
                f"neigh replace {other.ip} lladdr {other.mac} dev eth0 nud permanent"
                for other in plan.pods
                if other.key != pod.key
            ]
        run(["ip", "-b", "-"], stdin="\n".join(node_cmds) + "\n", timeout=300)
        nat = nft.compile_nat(plan.translations)
        for pod in plan.pods:
            run(["ip", "-n", pod.netns, "-b", "-"], stdin="\n".join(pod_cmds[pod.netns]) + "\n")
            self.fds[pod.netns] = os.open(f"/run/netns/{pod.netns}", os.O_RDONLY)
            conf = Path("/etc/netns") / pod.netns
            conf.mkdir(exist_ok=True)
            (conf / "resolv.conf").write_text(resolv_conf(pod, plan.nameserver))
            self._nft(pod.netns, nat)
        self.serve.set_records(records_by_name(plan))
        for pod in plan.pods:
            self._listen(pod, dns=pod.key == plan.dns_pod)

    def _listen(self, pod, dns: bool) -> None:
        wanted = [(listener.protocol, listener.port, None) for listener in pod.listeners]
        if dns:
            wanted += [("TCP", DNS_PORT, "dns-tcp"), ("UDP", DNS_PORT, "dns-udp")]
        for protocol, port, role in wanted:
            if protocol == "SCTP":
                continue  # see sysns.sctp_note: `lab up` says why SCTP ports are not served
            kind = socket.SOCK_STREAM if protocol == "TCP" else socket.SOCK_DGRAM
            with self.enter(pod.netns):
                sock = socket.socket(socket.AF_INET, kind)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("0.0.0.0", port))
            if kind == socket.SOCK_STREAM:
                sock.listen(BACKLOG)
            self.serve.add(pod.netns, sock, role or protocol.lower())

    def _nft(self, netns: str, script: str) -> None:
        run(["nsenter", f"--net=/run/netns/{netns}", "nft", "-f", "-"], stdin=script)

    def apply(self, rulesets: dict[str, str]) -> list[str]:
        """Load each pod's filter ruleset unless it is already loaded; the changed pods."""
        if self.plan is None:
            raise LabError("the lab has no pods yet")
        known = {p.netns for p in self.plan.pods}
        unknown = sorted(set(rulesets) - known)
        if unknown:
            raise LabError(f"rulesets for unknown pods: {', '.join(unknown)}")
        changed = sorted(n for n, text in rulesets.items() if self.applied.get(n) != text)
        done: list[str] = []
        try:
            for netns in changed:
                self._nft(netns, rulesets[netns])
                done.append(netns)
        except LabError:
            # Each pod's load is atomic; undo the pods already loaded so the
            # policy set is never half applied.
            for netns in done:
                self._nft(netns, self.applied.get(netns, nft.compile_empty_filter()))
            raise
        self.applied.update((n, rulesets[n]) for n in changed)
        return changed

    def probe(self, jobs: list[ProbeJob], mode: str, timeout: float):
        if self.plan is None:
            raise LabError("the lab has no pods yet")
        unknown = sorted({j.netns for j in jobs} - set(self.fds))
        if unknown:
            raise LabError(f"probes from unknown pods: {', '.join(unknown)}")
        if mode == "nc":
            return nc_probe_all(jobs, timeout)
        search = {p.netns: p.search for p in self.plan.pods}
        prober = SocketProber(self.enter, search.__getitem__, self.plan.nameserver)
        return prober.run(jobs, timeout)

    def teardown(self) -> None:
        """Delete every pod namespace (their veths and sockets go with them)."""
        if self.plan is None:
            return
        for pod in self.plan.pods:
            self.serve.close_group(pod.netns)
            fd = self.fds.pop(pod.netns, None)
            if fd is not None:
                os.close(fd)
        # Links first: a deleted namespace is reclaimed asynchronously, and its
        # veth peers would linger in the node and clash with the next build.
        links = {
            line.split(":")[1].strip().split("@")[0]
            for line in run(["ip", "-o", "link", "show"]).splitlines()
        }
        cmds = [f"link del {p.veth}" for p in self.plan.pods if p.veth in links]
        cmds += [
            f"netns del {p.netns}" for p in self.plan.pods if Path(f"/run/netns/{p.netns}").exists()
        ]
        if cmds:
            run(["ip", "-b", "-"], stdin="\n".join(cmds) + "\n")
        self.plan, self.applied = None, {}


def handle(node: Node, request: dict) -> dict:
    """Execute one request; the reply carries ``ok`` and the op's result."""
    op = request.get("op")
    if op == "ping":
        return {"ok": True, "pid": os.getpid(), "pods": len(node.plan.pods) if node.plan else 0}
    if op == "setup":
        node.setup(LabPlan.from_json(request["plan"]))
        return {"ok": True}
    if op == "apply":
        return {"ok": True, "changed": node.apply(dict(request["rulesets"]))}
    if op == "probe":
        jobs = [ProbeJob(*job) for job in request["jobs"]]
        results = node.probe(jobs, request.get("mode", "socket"), float(request["timeout"]))
        return {"ok": True, "results": [[r.ok, r.detail] for r in results]}
    if op == "ruleset":
        netns = request["netns"]
        if netns not in node.fds:
            raise LabError(f"no pod namespace {netns!r}")
        out = run(["nsenter", f"--net=/run/netns/{netns}", "nft", "list", "ruleset"])
        return {"ok": True, "ruleset": out}
    return {"ok": False, "error": f"unknown op {op!r}"}


def serve_forever(state_dir: Path) -> None:
    """Prepare the node, then answer requests until ``shutdown``."""
    Node.prepare()
    node = Node()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path = state_dir / CONTROL_SOCKET
    server.bind(str(path))
    server.listen(8)
    (state_dir / "ready").write_text(str(os.getpid()))
    while True:
        conn, _ = server.accept()
        with conn:
            try:
                request = json.loads(_read_all(conn) or b"{}")
                if request.get("op") == "shutdown":
                    node.teardown()
                    conn.sendall(json.dumps({"ok": True}).encode())
                    break
                reply = handle(node, request)
            except Exception as exc:  # one bad request must not take the lab down
                reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            # A client that went away costs nothing; the next one is served as usual.
            with contextlib.suppress(OSError):
                conn.sendall(json.dumps(reply).encode())
    server.close()
    path.unlink(missing_ok=True)


def _read_all(conn: socket.socket) -> bytes:
    chunks = []
    while chunk := conn.recv(1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def main(argv: list[str]) -> int:
    state_dir = Path(argv[0])
    # PID 1 of a PID namespace gets no default signal actions: ask for them.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        serve_forever(state_dir)
    except Exception:
        (state_dir / "error").write_text(traceback.format_exc())
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
