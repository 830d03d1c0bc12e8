"""A running router lab as an object: build a network, run commands, take a pingall."""

from __future__ import annotations

import json
from dataclasses import dataclass

from netmend.lab import sandbox
from netmend.lab.errors import LabStateError
from netmend.lab.lab import unique_name
from netmend.lab.router.plan import FIDELITIES
from netmend.route.pingall import Pingall
from netmend.route.topology import Topology

TOOLS: tuple[str, ...] = ("ip", "tc", "sysctl", "bash", "awk", "unshare", "nsenter", "setpriv", "mount")
STATE_FILE = "router.json"
DEFAULT_PING_TIMEOUT = 0.5
DEFAULT_EXEC_TIMEOUT = 60.0


@dataclass(frozen=True)
class Execution:
    """What one command printed, and whether it had to be killed for blocking."""

    output: str
    blocked: bool


class RouterLab:
    """A handle on a running router lab (use :meth:`start` or :meth:`attach`)."""

    def __init__(self, name: str, topology: Topology | None, fidelity: str, netem: bool = False):
        self.name, self.topology, self.fidelity, self.netem = name, topology, fidelity, netem
        self.directory = sandbox.lab_dir(name)

    @classmethod
    def start(
        cls,
        topology: Topology | None = None,
        name: str | None = None,
        *,
        fidelity: str = "full",
        tied: bool = False,
        userns: bool | None = None,
    ) -> RouterLab:
        """Start a sandbox (and build ``topology`` in it when given).

        Raises
        ------
        ValueError
            For an unknown fidelity, before anything starts.
        MissingToolError, SandboxError, LabStateError
        """
        if fidelity not in FIDELITIES:
            raise ValueError(f"fidelity {fidelity!r}: expected one of {', '.join(FIDELITIES)}")
        name = name or unique_name("route")
        tools = TOOLS + (("iptables",) if fidelity == "full" else ())
        directory = sandbox.start(name, tied=tied, userns=userns, module="netmend.lab.router.supervisor", tools=tools)
        lab = cls(name, None, fidelity)
        try:
            if topology is not None:
                lab.build(topology)
        except BaseException:
            sandbox.stop(directory)
            raise
        return lab

    @classmethod
    def attach(cls, name: str) -> RouterLab:
        directory = sandbox.lab_dir(name)
        if not sandbox.is_running(directory):
            raise LabStateError(f"no router lab named {name!r} is running; start it with `netmend lab route up`")
        try:
            state = json.loads((directory / STATE_FILE).read_text())
        except (OSError, ValueError) as exc:
            raise LabStateError(f"lab {name!r} is not a router lab ({exc})") from exc
        t = state["topology"]
        return cls(name, Topology(t["prefix"], t["switches"], t["hosts"]), state["fidelity"], state["netem"])

    def _request(self, payload: dict, timeout: float = 600.0) -> dict:
        return sandbox.request(self.directory, payload, timeout=timeout)

    def build(self, topology: Topology) -> None:
        """Replace the network by a fresh one of ``topology`` (every fault and change gone)."""
        spec = {"prefix": topology.prefix, "switches": topology.switches, "hosts": topology.hosts_per_switch}
        reply = self._request({"op": "setup", "topology": spec, "fidelity": self.fidelity})
        self.topology, self.netem = topology, bool(reply["netem"])
        state = {"topology": spec, "fidelity": self.fidelity, "netem": self.netem}
        tmp = self.directory / (STATE_FILE + ".tmp")
        tmp.write_text(json.dumps(state, sort_keys=True))
        tmp.replace(self.directory / STATE_FILE)

    def run(self, node: str, command: str, timeout: float = DEFAULT_EXEC_TIMEOUT) -> Execution:
        """Run one command line on ``node`` as the evaluator runs it (an interactive bash)."""
        reply = self._request({"op": "exec", "node": node, "command": command, "timeout": timeout}, timeout + 30)
        return Execution(reply["output"], bool(reply["blocked"]))

    def pingall(self, timeout: float = DEFAULT_PING_TIMEOUT) -> Pingall:
        if self.topology is None:
            raise LabStateError(f"lab {self.name!r} has no network; build one first")
        reply = self._request({"op": "pingall", "timeout": timeout})
        reached = {(s, d): bool(ok) for s, d, ok in reply["reached"]}
        return Pingall(self.topology.nodes, reached)

    def stop(self) -> None:
        sandbox.stop(self.directory)

    def __enter__(self) -> RouterLab:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
