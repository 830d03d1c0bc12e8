"""netmend: a deterministic, safety-aware network-repair agent.

Two domains share one package:

* ``netmend.malt``: controlled-language requests over MALT data-center
  topologies, compiled to one IR, executed exactly, committed safely.
* ``netmend.k8s``: Kubernetes NetworkPolicy semantics, probes and repair.

Pure cores (parsing, semantics, planning, safety) do no I/O; adapters
(CLI, A2A server, kubectl, files) sit at the edges.
"""

__version__ = "0.1.0"
