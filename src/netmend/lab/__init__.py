"""The live lab: a cluster's pods as network namespaces, policies enforced by nftables.

A user without a cluster sees real packets obey (or break) their policies,
and the semantics engine gets a second oracle: the Linux kernel.

Pipeline
--------
``Cluster`` --:func:`plan.plan_lab`--> ``LabPlan`` (pods, NAT, DNS records; pure)
--> the sandbox builds it; ``effective_view(cluster)`` (from :mod:`netmend.k8s`)
--:func:`nft.compile_filter`--> one ruleset per pod (pure) --> ``nft -f`` in
the pod; probes run inside the pods and come back as a ``Matrix``.

Public API
----------
:class:`lab.Lab`
    ``Lab.start(cluster, name=None, tied=False, deny="drop", source=None,
    userns=None)``; ``Lab.attach(name)``; ``lab.apply(policies)`` -> keys of
    the pods whose rules changed (only those are reloaded); ``lab.probe(probes,
    dns=True, mode="socket"|"nc", timeout=1.0)`` -> ``LiveMatrix(matrix,
    records)``; ``lab.rebuild(cluster)``; ``lab.ruleset(pod_key)``;
    ``lab.stop()``; a context manager.
:class:`live.LiveProber`
    The simulated ``netmend.k8s.Prober``'s shape: ``LiveProber(cluster,
    probes, dns=True, mode="socket", deny="drop", timeout=1.0).run(policies)``
    -> ``Matrix``; ``.last`` holds every probe's evidence; ``close()``.
:mod:`nft`
    ``compile_filter(pod_view, deny)`` and ``compile_nat(translations)``.
:mod:`sandbox`
    ``start``/``request``/``stop``/``is_running`` of a named lab's process.

Where things live
-----------------
Each lab is one ``unshare`` process (user namespace too when not root) whose
child, :mod:`supervisor`, is PID 1 of its PID namespace and owns the node
network namespace (a bridge, no uplink), a private /run (named pod
namespaces) and a private overlay of /etc (per-pod resolv.conf). Killing it
removes every namespace, link and socket; its state folder (PID, control
socket, the cluster's source) is under ``$NETMEND_LAB_DIR`` or the temp folder.
"""
