"""Assessment: generate tasks, put them to a participant, score the answers.

The MALT assessment restates the NetArena evaluator independently of the
engine it judges: its own reference semantics (``malt_reference``), task
generator (``malt_tasks``), safety rules (``malt_safety``) and scorer
(``malt_scoring``). Generic pieces (prompt envelopes, the A2A client, graph
copying and comparison, summaries, tables, records and plots) are shared by
every assessment in this package.
"""
