"""Shell words for commands that run in NetArena's router shell.

The evaluator skips (silently) any command containing a banned substring,
anywhere, comments included; its shell is an interactive bash, where ``!``
outside single quotes triggers history expansion; a newline outside quotes
ends the command early; and the shell reads its input from a terminal in
canonical mode, whose line buffer keeps at most 4095 characters of a line
(the rest is dropped, so a longer line arrives cut, often inside a quote,
and the shell then waits for the quote's end forever). Commands built here
avoid all four: a long program spans several physical lines, each short,
every line break inside single quotes or a parenthesised group (the shell
reads on, so it is still one command).
"""

from __future__ import annotations

import re

BANNED: tuple[str, ...] = ("sudo", "tcpdump", "systemctl", "frr", "ethtool", "ping")
# A terminal in canonical mode keeps 4095 characters of a line (N_TTY_BUF_SIZE - 1,
# the newline included); commands built here stay a little below it.
MAX_LINE = 4000


class ShellError(ValueError):
    """A command that the evaluator would skip or mangle."""


def banned_in(text: str) -> tuple[str, ...]:
    """The banned substrings ``text`` contains (empty when it is clean).

    >>> banned_in("echo keeping"), banned_in("ip link")
    (('ping',), ())
    """
    return tuple(word for word in BANNED if word in text)


def quote(word: str, *, lines: bool = False) -> str:
    """``word`` as one shell word whose text holds no banned substring and no ``!``.

    Single quotes make everything literal; a banned substring is split by
    closing and reopening the quotes in its middle; ``!`` and ``'`` travel as
    ``\\!`` and ``\\'`` outside the quotes (a backslash quotes ``!`` in bash).
    With ``lines``, ``word`` may hold line breaks (a program's text): they
    stay inside the quotes, where the shell keeps reading.

    >>> quote("p1_r0-eth1"), quote("mapping"), quote("it's")
    ("'p1_r0-eth1'", "'mappi''ng'", "'it'\\\\''s'")
    >>> quote("a\\nb", lines=True)
    "'a\\nb'"
    """
    if (not lines and "\n" in word) or "\r" in word or "\0" in word:
        raise ShellError(f"a shell word may not hold a line break or NUL: {word!r}")
    pieces = [piece if piece in ("'", "!") else _single(piece) for piece in re.split(r"(['!])", word) if piece]
    return "".join("\\" + p if p in ("'", "!") else p for p in pieces) if pieces else _single("")


def _single(text: str) -> str:
    # After the first half of each banned word, close and reopen the quotes (every
    # occurrence, overlapping ones too; str.find, not a regex tried at every position).
    cuts: set[int] = set()
    for word in BANNED:
        at = text.find(word)
        while at >= 0:
            cuts.add(at + len(word) // 2)
            at = text.find(word, at + 1)
    if not cuts:
        return "'" + text + "'"
    ordered = sorted(cuts)
    pieces = [text[a:b] for a, b in zip([0, *ordered], [*ordered, len(text)], strict=True)]
    return "'" + "''".join(pieces) + "'"


# What changes the quoting state outside single quotes (inside them only ``'`` does).
_SPECIAL = re.compile(r"""[\\'"()\n]""")
_IN_DOUBLE = re.compile(r"""[\\"\n]""")


def _breaks_outside_quotes(command: str) -> bool:
    """Whether a line break would end the command early.

    A break is safe inside single quotes and inside a parenthesised group
    (the shell reads on to the closing parenthesis); anywhere else it ends
    the command. Double quotes and backslashes are respected; a ``)`` of a
    ``case`` pattern counts as closing a group, which errs on the safe side.

    The scan jumps from one character that matters to the next (the end of a
    single-quoted run is found with ``str.find``), so a long program's quoted
    text costs one search, not a step per character.

    >>> _breaks_outside_quotes("a 'x\\ny' (b\\nc)"), _breaks_outside_quotes('a "x\\ny"'), _breaks_outside_quotes("a\\\\\\nb")
    (False, True, True)
    """
    depth = 0
    at, end = 0, len(command)
    while at < end:
        found = _SPECIAL.search(command, at)
        if found is None:
            return False
        char, at = found.group(), found.end()
        if char == "\\":
            if command.startswith("\n", at):  # a continuation: only quotes and groups are allowed here
                return True
            at += 1  # the escaped character is literal
        elif char == "'":
            close = command.find("'", at)
            if close < 0:
                return False  # an unclosed quote holds the rest
            at = close + 1
        elif char == '"':
            while True:
                inner = _IN_DOUBLE.search(command, at)
                if inner is None:
                    return False
                at = inner.end()
                if inner.group() == "\n":
                    return True
                if inner.group() == '"':
                    break
                if command.startswith("\n", at):  # a backslash before a line break in double quotes
                    return True
                at += 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth <= 0:  # a line break outside any group
            return True
    return False


def check_command(command: str) -> str:
    """``command`` itself, or :class:`ShellError` when the evaluator would skip or mangle it.

    >>> check_command("awk 'BEGIN {\\n print 1 }'")
    "awk 'BEGIN {\\n print 1 }'"
    """
    problems = []
    found = banned_in(command)
    if found:
        problems.append(f"holds banned substrings {list(found)}")
    if "\r" in command:
        problems.append("holds a carriage return")
    if _breaks_outside_quotes(command):
        problems.append("has a line break outside single quotes and groups (the shell would run it as several commands)")
    longest = max(len(line) for line in command.split("\n"))
    if longest + 1 > MAX_LINE:
        problems.append(f"has a line of {longest} characters (a terminal keeps {MAX_LINE - 1} at most here)")
    if "!" in command.replace("\\!", ""):
        problems.append("holds '!' (history expansion in an interactive bash)")
    if not command.strip():
        problems.append("is empty")
    if problems:
        raise ShellError("the command " + "; ".join(problems) + f": {command[:120]!r}")
    return command
