"""Kubernetes NetworkPolicy repair: intent, a minimal verified edit set, commands.

Pipeline: an :class:`~netmend.repair.intent.Intent` (the probe matrix to
reach, from a file or from NetArena's mismatch lines, checked against the
model) -> :func:`~netmend.repair.planner.plan_repair` (candidate edits of the
IR in :mod:`~netmend.repair.edits`, searched lightest-first and verified by
re-simulation with the ``netmend.k8s`` engine; irredundant, or ``NoPlan``
with a reason) -> :mod:`~netmend.repair.emit` (``kubectl patch --type=json``
lines with ``test`` guards, shell-quoted, free of NetArena's banned text).

Public API
----------
Intent (:mod:`.intent`)
    ``parse_intent(data)``, ``probe_universe(cluster)``, ``with_probes``,
    ``intent_from_feedback(current, mismatches)`` (raises
    ``ModelContradiction``), ``intent_from_stated(current, stated)``.
Edits (:mod:`.edits`)
    ``SetPort``, ``SetProtocol``, ``AddPeer``, ``RemovePeer``, ``AddRule``,
    ``RemoveRule``, ``AllowDNS``, ``AllowAll`` (restore egress),
    ``NarrowRule`` (narrow an allow-all egress); ``patch_ops(obj, edits)``,
    ``apply_edits(obj, edits)``.
Planning (:mod:`.planner`)
    ``plan_repair(cluster, objects, intent, dns=True, editable_namespaces=None)``
    -> ``Plan`` (``edits``, per-policy ``patches`` with before/after objects
    and ops, ``before``/``after`` matrices, ``changes``).
Emission (:mod:`.emit`)
    ``plan_command(plan)``, ``patch_command(patch)``, ``quote(word)``.
NetArena (:mod:`.netarena`, :mod:`.observe`, :mod:`.participant`)
    The conversation's markers, ``build_prompt``, ``parse_log``,
    ``extract_command``, ``banned_in``; the compact ``READ_COMMAND`` and its
    parser; ``decide(prompt)`` -> the next command and why.
Cluster mode (:mod:`.cluster` pure, :mod:`.kubectl` the edge)
    ``propose(observation, stated)``, ``policy_diff``, ``rollback_script``,
    ``audit_record``, ``verify``; ``read_state(run)``, ``apply(run, proposal)``.
"""
