"""The Linux-router core: state, intent, diagnosis, plans and the NetArena Route participant.

Pure: no subprocess, socket, file or clock. Text in (pingalls, prompts,
``ip -j`` / ``tc -j`` / ``nft -j`` / ``iptables-save`` / ``sysctl`` output),
data and command lines out.

Pipeline
--------
prompt --:func:`prompt.parse_prompt`--> newest :class:`pingall.Pingall` and
earlier turns --:func:`topology.candidates`--> the topologies its node list
allows --:func:`intent.from_topology`--> :class:`intent.RouterIntent`, with
:class:`evidence.Evidence` read from the pingall --:func:`program.router_program`-->
one POSIX ``sh`` line that observes, decides on the router (awk) and fixes
only what deviates, then prints the state; a later turn parses that state
(:func:`state.parse_state`) and :func:`diagnose.diagnose` names every
deviation left with its evidence and exact fix (:func:`program.fix_program`).

Modules
-------
``topology``  NetArena's naming and addressing conventions; candidates per node list
``pingall``   parse/render NetArena's pingall text, loss as it truncates it
``evidence``  what the failing pairs implicate
``intent``    intended interfaces, addresses, MTUs, hosts (conventions or a file's mapping)
``state``     the router's state from the real commands' JSON and text
``diagnose``  deviations with evidence and fix
``program``   the on-router programs (router, host, exact fixes)
``shell``     quoting without banned substrings; the evaluator's command checks
``prompt``    NetArena Route prompts: newest pingall, earlier turns
``participant`` one prompt -> ``{"machine", "command", "why"}``
"""
