"""A NetArena-shaped network in real Mininet, driven by JSON lines (run by the system python).

This file is a script for the python that holds Debian's ``mininet``
package; it imports nothing from netmend. It runs inside a private
PID/mount/network namespace (``unshare -p -m -n --fork --mount-proc``), so
the switches' bridges and Mininet's cleanup stay there. It builds the
network of NetArena's conventions with Linux bridges as switches and runs
commands with Mininet's own ``Node.cmd`` (an interactive bash on a terminal,
no timeout of its own). Requests, one JSON object per line on stdin:
``{"op": "cmd", "node", "command", "timeout"}`` and ``{"op": "pingall",
"timeout"}``; each answer is one line ``@@reply <JSON>`` on stdout. A
command that does not give the prompt back within its timeout is reported
``blocked`` and ends the network (Mininet's shell cannot be recovered).
"""

import json
import signal
import sys
import threading


class _Blocked(Exception):
    pass


def _reply(data):
    sys.stdout.write("@@reply " + json.dumps(data) + "\n")
    sys.stdout.flush()


def build(prefix, switches, hosts):
    from mininet.log import setLogLevel
    from mininet.net import Mininet
    from mininet.node import Node
    from mininet.nodelib import LinuxBridge
    from mininet.topo import Topo

    setLogLevel("error")

    class Router(Node):
        def config(self, **params):
            super().config(**params)
            self.cmd("sysctl -w net.ipv4.ip_forward=1")

    topo = Topo()
    router = topo.addNode(f"{prefix}r0", cls=Router, ip="192.168.1.1/24")
    for i in range(switches):
        net = 1 + i
        switch = topo.addSwitch(f"{prefix}s{i + 1}")
        topo.addLink(switch, router, intfName2=f"{prefix}r0-eth{i + 1}", params2={"ip": f"192.168.{net}.1/24"})
        for j in range(hosts):
            host = topo.addHost(
                f"{prefix}h{i * hosts + j + 1}", ip=f"192.168.{net}.{100 + j}/24", defaultRoute=f"via 192.168.{net}.1"
            )
            topo.addLink(host, switch)
    network = Mininet(topo, switch=LinuxBridge, controller=None, autoSetMacs=True, waitConnected=False)
    network.start()
    network[f"{prefix}r0"].cmd("sysctl -w net.ipv4.ip_forward=1")
    return network


def _links_up(node):
    """Whether every interface of ``node`` but lo is operationally up (read with ip: /sys is the root's)."""
    names = [i.name for i in node.intfList() if i.name != "lo"]
    out = node.cmd("ip -o link show")
    states = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) > 2:
            name = words[1].rstrip(":").split("@")[0]
            states[name] = "state UP" in line
    return all(states.get(name) for name in names)


def pingall(network, timeout):
    """Every node pings every other node's configured address once, all at the same time."""
    nodes = list(network.hosts)
    procs = []
    for src in nodes:
        for dst in nodes:
            if src is not dst:
                procs.append((src.name, dst.name, src.popen(["ping", "-c1", "-W", str(timeout), dst.IP()])))
    reached = []
    for src, dst, proc in procs:
        out, _ = proc.communicate()
        text = out.decode(errors="replace") if isinstance(out, bytes) else (out or "")
        reached.append([src, dst, " 1 received" in text])
    return reached


def main():
    spec = json.loads(sys.stdin.readline())
    network = build(spec["prefix"], int(spec["switches"]), int(spec["hosts"]))
    # Linux bridges forward once both ends of every port have carrier (the first network of
    # a run races there): wait until every node's links and every switch port are up.
    for _ in range(200):
        if all(_links_up(node) for node in network.hosts) and all(_links_up(s) for s in network.switches):
            break
        threading.Event().wait(0.05)
    router = network[spec["prefix"] + "r0"]
    probe = router.cmd("tc qdisc add dev lo root netem delay 1ms && tc qdisc del dev lo root && echo netem-ok")
    _reply({"ok": True, "nodes": [n.name for n in network.hosts], "netem": "netem-ok" in probe})

    def alarm(*_):
        raise _Blocked()

    signal.signal(signal.SIGALRM, alarm)
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "pingall":
            _reply({"ok": True, "reached": pingall(network, request["timeout"])})
        elif request["op"] == "cmd":
            signal.setitimer(signal.ITIMER_REAL, float(request["timeout"]))
            try:
                out = network[request["node"]].cmd(request["command"])
            except _Blocked:
                _reply({"ok": True, "output": "", "blocked": True})
                break
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            _reply({"ok": True, "output": out, "blocked": False})
        else:
            _reply({"ok": False, "error": f"unknown op {request['op']!r}"})
            break
    network.stop()


if __name__ == "__main__":
    main()
