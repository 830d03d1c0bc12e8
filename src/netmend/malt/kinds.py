"""The MALT vocabulary: entity kinds, relationship kinds and the containment hierarchy.

These are facts of the MALT schema as the NetArena evaluator judges it; every
other module (parser, safety, generator) takes them from here.
"""

from __future__ import annotations

JUPITER = "EK_JUPITER"
SUPERBLOCK = "EK_SUPERBLOCK"
SPINEBLOCK = "EK_SPINEBLOCK"
AGG_BLOCK = "EK_AGG_BLOCK"
PACKET_SWITCH = "EK_PACKET_SWITCH"
PORT = "EK_PORT"
CHASSIS = "EK_CHASSIS"
RACK = "EK_RACK"
CONTROL_DOMAIN = "EK_CONTROL_DOMAIN"
CONTROL_POINT = "EK_CONTROL_POINT"

ENTITY_KINDS: tuple[str, ...] = (
    SUPERBLOCK,
    CHASSIS,
    RACK,
    AGG_BLOCK,
    JUPITER,
    PORT,
    SPINEBLOCK,
    PACKET_SWITCH,
    CONTROL_POINT,
    CONTROL_DOMAIN,
)

CONTAINS = "RK_CONTAINS"
CONTROLS = "RK_CONTROLS"
RELATIONSHIP_KINDS: tuple[str, ...] = (CONTAINS, CONTROLS)

# parent kind -> kinds it may contain (RK_CONTAINS edges only).
HIERARCHY: dict[str, tuple[str, ...]] = {
    JUPITER: (SPINEBLOCK, SUPERBLOCK),
    SPINEBLOCK: (PACKET_SWITCH,),
    SUPERBLOCK: (AGG_BLOCK,),
    AGG_BLOCK: (PACKET_SWITCH,),
    CHASSIS: (CONTROL_POINT, PACKET_SWITCH),
    CONTROL_POINT: (PACKET_SWITCH,),
    RACK: (CHASSIS,),
    PACKET_SWITCH: (PORT,),
    CONTROL_DOMAIN: (CONTROL_POINT, PACKET_SWITCH),
}



def held_by(kind: str) -> tuple[str, ...]:
    """The kinds a node of ``kind`` may contain at any depth, on :data:`HIERARCHY`.

    >>> held_by(PORT), held_by(PACKET_SWITCH), held_by(SUPERBLOCK)
    ((), ('EK_PORT',), ('EK_AGG_BLOCK', 'EK_PACKET_SWITCH', 'EK_PORT'))
    """
    found: list[str] = []
    todo = list(HIERARCHY.get(kind, ()))
    while todo:
        child = todo.pop(0)
        if child not in found:
            found.append(child)
            todo += HIERARCHY.get(child, ())
    return tuple(found)


CAPACITY_ATTR = "physical_capacity_bps"


def kinds_of(attrs: dict) -> list[str]:
    """The kinds of a node as a list, whether stored as a list or a plain string.

    >>> kinds_of({'type': ['EK_PORT']}), kinds_of({'type': 'EK_PORT'}), kinds_of({})
    (['EK_PORT'], ['EK_PORT'], [])
    """
    kinds = attrs.get("type")
    if not kinds:
        return []
    if isinstance(kinds, str):
        return [kinds]
    return list(kinds)
