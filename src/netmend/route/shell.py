"""Shell words for commands that run in NetArena's router shell.

The evaluator skips (silently) any command containing a banned substring,
anywhere, comments included; its shell is an interactive bash, where ``!``
outside single quotes triggers history expansion; and a newline ends the
command early. Words built here avoid all three.
"""

from __future__ import annotations

BANNED: tuple[str, ...] = ("sudo", "tcpdump", "systemctl", "frr", "ethtool", "ping")


class ShellError(ValueError):
    """A command that the evaluator would skip or mangle."""


def banned_in(text: str) -> tuple[str, ...]:
    """The banned substrings ``text`` contains (empty when it is clean).

    >>> banned_in("echo keeping"), banned_in("ip link")
    (('ping',), ())
    """
    return tuple(word for word in BANNED if word in text)


def quote(word: str) -> str:
    """``word`` as one shell word whose text holds no banned substring and no ``!``.

    Single quotes make everything literal; a banned substring is split by
    closing and reopening the quotes in its middle; ``!`` and ``'`` travel as
    ``\\!`` and ``\\'`` outside the quotes (a backslash quotes ``!`` in bash).

    >>> quote("p1_r0-eth1"), quote("mapping"), quote("it's")
    ("'p1_r0-eth1'", "'mappi''ng'", "'it'\\\\''s'")
    """
    if "\n" in word or "\r" in word or "\0" in word:
        raise ShellError(f"a shell word may not hold a line break or NUL: {word!r}")
    pieces: list[str] = []
    current = ""
    for char in word:
        if char in "'!":
            if current:
                pieces.append(_single(current))
                current = ""
            pieces.append("\\" + char)
            continue
        current += char
    if current or not pieces:
        pieces.append(_single(current))
    return "".join(pieces)


def _single(text: str) -> str:
    out = "'"
    for i, char in enumerate(text):
        out += char
        # After the first half of a banned word, close and reopen the quotes.
        for word in BANNED:
            half = len(word) // 2
            if text[max(0, i + 1 - half) : i + 1] == word[:half] and text[i + 1 :].startswith(word[half:]):
                out += "''"
                break
    return out + "'"


def check_command(command: str) -> str:
    """``command`` itself, or :class:`ShellError` when the evaluator would skip or mangle it."""
    problems = []
    found = banned_in(command)
    if found:
        problems.append(f"holds banned substrings {list(found)}")
    if "\n" in command or "\r" in command:
        problems.append("spans several lines")
    if "!" in command.replace("\\!", ""):
        problems.append("holds '!' (history expansion in an interactive bash)")
    if not command.strip():
        problems.append("is empty")
    if problems:
        raise ShellError("the command " + "; ".join(problems) + f": {command[:120]!r}")
    return command
