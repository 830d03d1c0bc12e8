"""The router lab: NetArena's Route network in private namespaces, no Mininet.

One network namespace per IP node (hosts ``{prefix}h{n}`` and the router
``{prefix}r0``), one Linux bridge per switch in the sandbox's own namespace
(as Mininet keeps switches in its root namespace), veth pairs named as
Mininet names them. Commands run on a node in an interactive ``bash`` fed on
standard input, as the evaluator's node shells are; the pingall is in-process
raw ICMP from every node to every other, rendered in NetArena's format.

``fidelity="netarena"`` hides iptables and nft from the nodes' ``PATH`` (the
official image has neither); ``"full"`` leaves them. Where the kernel has no
netem, a delay fault is stood in by a token bucket too small for any ping
(``tbf burst 100``): the same pattern and the same fix (delete the root qdisc).

Public API: :class:`lab.RouterLab` (``start``, ``attach``, ``build``,
``run``, ``pingall``, ``stop``); :mod:`plan` (the pure layout).
"""
