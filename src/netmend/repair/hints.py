"""Port ranges a task text names ("the metrics range 9100-9200").

A repair that must re-open a port inside such a range is more plausibly the
whole range restored than a range closed at the probed port. The ranges are
candidate values only: every edit built from them is verified like any other.

Pure: text in, ``(first, last)`` pairs out.
"""

from __future__ import annotations

import re

# Two port numbers joined by a dash, not part of an address, a version or a longer number.
_RANGE = re.compile(r"(?<![\w.:/-])(\d{1,5})\s*(?:-|–|\.\.)\s*(\d{1,5})(?![\w.:/-])")
MAX_PORT = 65535


def port_ranges(text: str) -> tuple[tuple[int, int], ...]:
    """Every ``first-last`` port range of ``text`` (1 <= first < last <= 65535), sorted, deduplicated.

    Examples
    --------
    >>> port_ranges("the metrics range 9100-9200; ports 5000 – 5100 and 10.0.0.1-10.0.0.9")
    ((5000, 5100), (9100, 9200))
    >>> port_ranges("198.51.100.0/24, v1.2-3, 2-1, 70000-70001")
    ()
    """
    out = set()
    for first, last in _RANGE.findall(text):
        lo, hi = int(first), int(last)
        if 1 <= lo < hi <= MAX_PORT:
            out.add((lo, hi))
    return tuple(sorted(out))
