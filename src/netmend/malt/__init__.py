"""MALT: controlled-language requests over data-center topologies, answered exactly and committed safely.

The pipeline, one pure function per stage::

    text --parse--> Query (IR) --plan--> Plan(data, committed graph, notes)
                               \\--emit--> process_graph source (evaluator-ready)

* :func:`netmend.malt.parser.parse` -- request text to :class:`netmend.malt.ir.Query`
  through the lexicon and grammar of :mod:`netmend.malt.phrasing`, with typed
  refusals (:class:`netmend.malt.parser.QueryError`);
* :func:`netmend.malt.planner.plan` -- the exact answer and the verified safe commit,
  computed by the runtime pieces of :mod:`netmend.malt.runtime`;
* :func:`netmend.malt.codegen.emit` -- ``process_graph`` source: the pieces a plan
  needs, then its calls with literal arguments, verified tree by tree;
* :mod:`netmend.malt.safety` -- the six rules, with evidence;
* :mod:`netmend.malt.topology` -- textproto / node-link I/O and the synthetic generator
  (the only module here that touches files).
"""
