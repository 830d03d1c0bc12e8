"""Shell commands for a plan: ``kubectl patch ... --type=json`` lines.

Every word is quoted with :func:`shlex.quote`. NetArena refuses any command
containing one of its banned substrings (``bash`` and ``sudo`` may well occur
inside a label value); such a word is written as adjacent single-quoted
pieces split inside the banned substring, which the shell joins back into
the same word while the command text no longer contains the substring.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Sequence

from netmend.repair.errors import EmissionError
from netmend.repair.netarena import BANNED_SUBSTRINGS, banned_in
from netmend.repair.planner import Plan, PolicyPatch

KUBECTL = "kubectl"


def _single_quoted(piece: str) -> str:
    return "'" + piece.replace("'", "'\"'\"'") + "'"


def quote(word: str, banned: Sequence[str] = BANNED_SUBSTRINGS) -> str:
    """``shlex.quote(word)``, split so no banned substring appears in the text.

    Examples
    --------
    >>> quote("frontend")
    'frontend'
    >>> quote("app-bash")
    "'app-b''ash'"
    """
    quoted = shlex.quote(word)
    if not any(b in quoted for b in banned):
        return quoted
    cuts = sorted({i + 1 for b in banned for i in _occurrences(word, b)})
    pieces = [word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True)]
    out = "".join(_single_quoted(p) for p in pieces)
    if any(b in out for b in banned):
        raise EmissionError(f"cannot quote {word!r} without a banned substring")
    return out


def _occurrences(text: str, sub: str) -> Iterable[int]:
    start = text.find(sub)
    while start >= 0:
        yield start
        start = text.find(sub, start + 1)


def patch_json(ops: Sequence[dict]) -> str:
    """The compact JSON text of a patch (ASCII, so it survives any terminal)."""
    return json.dumps(list(ops), separators=(",", ":"))


def patch_argv(patch: PolicyPatch, ops: Sequence[dict] | None = None, kubectl_args: Sequence[str] = ()) -> list[str]:
    """The argv of ``kubectl patch networkpolicy NAME -n NS --type=json -p <ops>``.

    ``ops`` defaults to the patch's own; ``kubectl_args`` select the cluster.
    """
    return [
        KUBECTL,
        *kubectl_args,
        "patch",
        "networkpolicy",
        patch.name,
        "-n",
        patch.namespace,
        "--type=json",
        "-p",
        patch_json(patch.ops if ops is None else ops),
    ]


def shell_line(argv: Sequence[str]) -> str:
    """An argv as one shell line (every word quoted, banned text split)."""
    return " ".join(quote(word) for word in argv)


def patch_command(patch: PolicyPatch) -> str:
    """``kubectl patch networkpolicy NAME -n NS --type=json -p '<ops>'``."""
    return shell_line(patch_argv(patch))


def plan_command(plan: Plan) -> str:
    """One shell line running every patch of ``plan``, stopping at the first failure.

    Raises
    ------
    EmissionError
        When the plan is empty or the line would contain a banned substring.
    """
    if not plan.patches:
        raise EmissionError("the plan has no patch to emit")
    line = " && ".join(patch_command(p) for p in plan.patches)
    found = banned_in(line)
    if found:
        raise EmissionError(f"the command would contain banned text: {', '.join(found)}")
    return line
