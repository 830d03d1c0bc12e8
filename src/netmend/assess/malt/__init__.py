"""The MALT assessment: its own reference semantics, tasks, safety rules and scorer."""
