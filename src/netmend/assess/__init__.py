"""Assessment: generate tasks, put them to a participant, score the answers.

One room per benchmark, each restating NetArena's evaluator independently of
the engine it judges:

- ``malt``: reference semantics, task generator, safety rules, scorer, prompt
  envelopes, graph copying and comparison;
- ``k8s``: error injection, the harness loop, a simulated kubectl and shell.

What every room shares sits here: the A2A client, summaries and tables
(``report``), JSONL records and plots.
"""
