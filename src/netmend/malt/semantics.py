"""Exact semantics of a :class:`~netmend.malt.ir.Query` over a graph, in process.

One implementation serves both this executor and the emitted code: both run
:func:`netmend.malt.runtime.run_plan`, so what we compute here is, by
construction, what the emitted ``process_graph`` computes in the evaluator.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from netmend.malt.ir import Query
from netmend.malt.runtime import run_plan


def execute(query: Query, graph: nx.DiGraph) -> dict[str, Any]:
    """Run ``query`` over ``graph`` (which it MUTATES: pass a copy to keep the original).

    Returns ``{'type', 'data', 'updated_graph', 'notes'}``: ``data`` is the
    exact answer, ``updated_graph`` the safe commit.
    """
    return run_plan(graph, query.to_plan())
