"""Seeded random request instances for every family, phrased as NetArena's generator phrases them."""

from __future__ import annotations

import random

from netmend.malt.topology import names_by_kind

SW, PORT, AGG, DOM, RACK = "EK_PACKET_SWITCH", "EK_PORT", "EK_AGG_BLOCK", "EK_CONTROL_DOMAIN", "EK_RACK"
RANK_TAIL = ("based on physical_capacity_bps attribute. Return a list of tuple, each tuple has "
             "node name and its total physical capacity.")


def _instance(family: str, rng: random.Random, names: dict) -> tuple[str, tuple]:
    pick = lambda kind: rng.choice(names[kind])  # noqa: E731
    if family in ("add", "add-list", "add-rank", "add-count"):
        child = rng.choice([SW, PORT])
        if family in ("add", "add-count"):
            parent = pick(SW) if child == PORT else pick(rng.choice([AGG, DOM]))
        else:
            parent = pick(rng.choice([AGG, DOM]))
        new = f"new_{child}_{rng.randint(1, 100)}"
        add = ("add", new, child, parent)
        if family == "add":
            return f"Add new node with name {new} type {child}, to {parent}. Return a graph.", (add,)
        if family == "add-list":
            return (f"Add {new} to {parent}. List direct child nodes of {parent} in the updated "
                    "graph. Return a list of child nodes name.", (add, ("list", parent)))
        if family == "add-rank":
            return (f"Add node with name '{new}' to {parent}. Rank direct child nodes of {parent} "
                    f"in the updated graph {RANK_TAIL}", (add, ("rank", parent)))
        return (f"Add {new} to {parent}. Count the {child} in {parent} in the updated graph. "
                "Return the count number as text.", (add, ("count", child, parent)))
    if family in ("remove", "remove-list", "remove-rank", "remove-count"):
        kind = rng.choice([SW, PORT])
        name = pick(kind)
        parent = name.rsplit(".", 1)[0]
        remove = ("remove", name)
        if family == "remove":
            return f"Remove {name} from the graph. Return a graph.", (remove,)
        if family == "remove-list":
            return (f"Remove {name} from the graph. List direct child nodes of {parent} in the "
                    "updated graph. Return a list of child nodes name.", (remove, ("list", parent)))
        if family == "remove-rank":
            return (f"Remove {name} from the graph. Rank direct child nodes of {parent} in the "
                    f"updated graph {RANK_TAIL}", (remove, ("rank", parent)))
        return (f"Remove {name} from the graph. Count the {kind} in {parent} in the updated graph. "
                "Return the count number as text.", (remove, ("count", kind, parent)))
    if family == "list":
        parent = pick(rng.choice([AGG, DOM, RACK, SW]))
        return (f"List all the child nodes of {parent}. Return a list of child node names.",
                (("list", parent),))
    if family == "rank":
        kind = rng.choice([AGG, DOM])
        parent = pick(kind)
        return (f"Rank all child nodes of {kind} type {parent} based on physical_capacity_bps "
                "attribute. Return a list of tuple, each tuple has child node name and its total "
                "physical capacity.", (("rank", parent),))
    if family == "count":
        parent, kind = pick(rng.choice([AGG, DOM])), rng.choice([SW, PORT])
        return (f"Count the {kind} in the {parent}. Return the count number as text.",
                (("count", kind, parent),))
    if family == "update":
        port, value = pick(PORT), rng.randint(1, 100)
        return (f"Update the physical capacity value of {port} to {value}. Return a graph.",
                (("update", port, value),))
    if family == "for-loop":
        parent_kind, kind = rng.choice([AGG, DOM]), rng.choice([SW, PORT])
        return (f"For each {parent_kind}, add a new {kind} to it. Count the total number of {kind} "
                "in the updated graph. Return only the counts.",
                (("for_each_add", parent_kind, kind), ("count", kind, None)))
    raise ValueError(family)


FAMILIES = ("add", "remove", "list", "rank", "count", "update", "add-list", "add-rank",
            "add-count", "remove-list", "remove-rank", "remove-count", "for-loop")


def instances(graph, family: str, count: int, seed: int) -> list[tuple[str, tuple]]:
    rng = random.Random(f"{family}/{seed}")
    names = names_by_kind(graph)
    return [_instance(family, rng, names) for _ in range(count)]
