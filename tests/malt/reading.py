"""How the tests of a register check a request: read the same as its plain phrasing on the
default topology, or refused (by the parser or when validated against the topology)."""

from __future__ import annotations

import pytest

from netmend.malt import topology
from netmend.malt.parser import QueryError, parse, parse_request
from netmend.malt.validate import validate

GRAPH = topology.default()


def same(text: str, plain: str) -> None:
    """``text`` validates and reads as exactly the query ``plain`` does."""
    parsed = parse_request(text)
    validate(parsed, GRAPH)
    assert parsed.query == parse(plain)


def refused(text: str) -> None:
    """``text`` is refused, when parsed or when validated."""
    with pytest.raises(QueryError):
        validate(parse_request(text), GRAPH)
