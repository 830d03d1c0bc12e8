"""NetArena's pingall text: parse it, render it, and read evidence from it.

One line per node in pingall order, ``<src> -> `` followed by each other
node's name (reached) or ``X`` (not), then ``*** Results: L% dropped (r/s
received)`` with ``L`` truncated to an integer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

_ROW = re.compile(r"^[ \t]*(?P<src>\S+) -> ?(?P<cells>.*?)[ \t]*$")
_RESULT = re.compile(r"\*\*\* Results: (?P<loss>\d+)% dropped \((?P<recv>\d+)/(?P<sent>\d+) received\)")


class PingallError(ValueError):
    """Text that is not a pingall."""


@dataclass(frozen=True)
class Pingall:
    """A connectivity matrix over ``nodes``: ``reached[(src, dst)]`` for src != dst.

    >>> p = Pingall.parse("a -> X c \\nb -> X c \\nc -> a b \\n*** Results: 33% dropped (4/6 received)")
    >>> p.loss, sorted(p.failures())
    (33, [('a', 'b'), ('b', 'a')])
    >>> Pingall.parse(p.render()) == p
    True
    """

    nodes: tuple[str, ...]
    reached: Mapping[tuple[str, str], bool]

    @cached_property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        return tuple((s, d) for s in self.nodes for d in self.nodes if s != d)

    @cached_property
    def _failed(self) -> tuple[tuple[str, str], ...]:
        return tuple(pair for pair in self.pairs if not self.reached[pair])

    @property
    def received(self) -> int:
        return len(self.pairs) - len(self._failed)

    @property
    def sent(self) -> int:
        return len(self.pairs)

    @property
    def loss(self) -> int:
        """Percent lost, truncated as NetArena truncates it."""
        return int((self.sent - self.received) * 100.0 / self.sent) if self.sent else 0

    def failures(self) -> tuple[tuple[str, str], ...]:
        return self._failed

    def failing_peers(self) -> Mapping[str, frozenset[str]]:
        """Each node in some failing pair, with the nodes it fails with (either way).

        >>> p = Pingall.parse("a -> X c \\nb -> X c \\nc -> a b \\n*** Results: 33% dropped (4/6 received)")
        >>> sorted((k, sorted(v)) for k, v in p.failing_peers().items())
        [('a', ['b']), ('b', ['a'])]
        """
        return self._peers

    def failing_targets(self) -> frozenset[str]:
        """The nodes some failing ping was sent to."""
        return self._targets

    @cached_property
    def _peers(self) -> Mapping[str, frozenset[str]]:
        found: dict[str, set[str]] = {}
        for src, dst in self._failed:
            if src in found:
                found[src].add(dst)
            else:
                found[src] = {dst}
            if dst in found:
                found[dst].add(src)
            else:
                found[dst] = {src}
        return {node: frozenset(others) for node, others in found.items()}

    @cached_property
    def _targets(self) -> frozenset[str]:
        return frozenset(dst for _, dst in self._failed)

    def render(self) -> str:
        lines = []
        for src in self.nodes:
            cells = "".join(
                f"{dst} " if self.reached[(src, dst)] else "X " for dst in self.nodes if dst != src
            )
            lines.append(f"{src} -> {cells}")
        lines.append(
            f"*** Results: {self.loss}% dropped ({self.received}/{self.sent} received)"
        )
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> Pingall:
        """Parse the rows and the results line; :class:`PingallError` when they disagree."""
        rows: list[tuple[str, list[str]]] = []
        result = None
        for line in text.splitlines():
            found = _RESULT.search(line)
            if found:
                result = found
                break
            if not line.strip():
                continue
            match = _ROW.match(line)
            if match is None:
                raise PingallError(f"not a pingall row: {line!r}")
            rows.append((match.group("src"), match.group("cells").split()))
        if result is None:
            raise PingallError("no '*** Results:' line")
        nodes = tuple(src for src, _ in rows)
        if len(set(nodes)) != len(nodes) or len(nodes) < 2:
            raise PingallError(f"expected at least two distinct nodes, got {list(nodes)}")
        reached: dict[tuple[str, str], bool] = {}
        for index, (src, cells) in enumerate(rows):
            others = nodes[:index] + nodes[index + 1 :]
            if len(cells) != len(others):
                raise PingallError(f"row of {src}: expected {len(others)} cells, got {len(cells)}")
            hits = [cell == dst for dst, cell in zip(others, cells, strict=True)]
            misses = [cell for cell, hit in zip(cells, hits, strict=True) if not hit]
            if misses.count("X") != len(misses):  # a cell that is neither its node nor X
                for dst, cell in zip(others, cells, strict=True):
                    if cell not in ("X", dst):
                        raise PingallError(f"row of {src}: expected {dst} or X, got {cell!r}")
            reached.update(zip([(src, dst) for dst in others], hits, strict=True))
        parsed = cls(nodes, reached)
        if (parsed.received, parsed.sent) != (int(result["recv"]), int(result["sent"])):
            raise PingallError("the results line does not match the rows")
        return parsed
