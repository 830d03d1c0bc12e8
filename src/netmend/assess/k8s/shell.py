"""A small ``bash -c`` for the simulated cluster: quoting, lists and pipes.

The harness runs a participant's command with ``/bin/bash -c``. This module
parses the part of the shell language such commands use (words with single,
double and ``$'...'`` quotes and backslashes; ``;``, newlines, ``&&``, ``||``
and ``|``) and runs each simple command through a table of built-ins
(``kubectl`` from the simulated cluster, plus ``echo``, ``true``, ``false``,
``grep``, ``head``, ``tail``, ``cat``, ``wc``). Anything else fails the way
bash does (``command not found``, exit 127); expansions, redirections,
subshells and background jobs are refused with a clear message, exit 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

Runner = Callable[[list[str], str], "Result"]


@dataclass(frozen=True)
class Result:
    """What a command printed and its exit status."""

    stdout: str = ""
    stderr: str = ""
    code: int = 0


class ShellSyntaxError(ValueError):
    """The script is not valid in the supported shell subset."""


_ANSI = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "e": "\x1b", "0": "\0"}
_OPERATORS = ("&&", "||", ";", "|", "\n")


def tokenize(script: str) -> list[tuple[str, str, int]]:
    """``(kind, text, line)`` tokens: kind ``word`` or ``op``."""
    tokens: list[tuple[str, str, int]] = []
    i, line, n = 0, 1, len(script)
    word: list[str] | None = None

    def flush() -> None:
        nonlocal word
        if word is not None:
            tokens.append(("word", "".join(word), line))
            word = None

    while i < n:
        ch = script[i]
        if ch in " \t":
            flush()
            i += 1
        elif ch == "\n":
            flush()
            tokens.append(("op", "\n", line))
            line += 1
            i += 1
        elif ch == "#" and word is None:
            while i < n and script[i] != "\n":
                i += 1
        elif script.startswith(("&&", "||"), i):
            flush()
            tokens.append(("op", script[i : i + 2], line))
            i += 2
        elif ch in ";|":
            flush()
            tokens.append(("op", ch, line))
            i += 1
        elif ch in "&<>()`":
            raise ShellSyntaxError(
                f"line {line}: {ch!r} (background jobs, redirections, subshells, command substitution) "
                "is not supported by the simulated shell"
            )
        elif ch == "\\":
            if i + 1 < n and script[i + 1] == "\n":
                i += 2
                line += 1
                continue
            word = (word or []) + [script[i + 1] if i + 1 < n else ""]
            i += 2
        elif ch == "'":
            end = script.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError(f"line {line}: unexpected EOF while looking for matching `''")
            word = (word or []) + [script[i + 1 : end]]
            line += script.count("\n", i, end)
            i = end + 1
        elif ch == "$" and i + 1 < n and script[i + 1] == "'":
            text, i = _ansi_c(script, i + 2, line)
            word = (word or []) + [text]
        elif ch == "$" and i + 1 < n and (script[i + 1].isalnum() or script[i + 1] in "_{(@*#?!$-"):
            raise ShellSyntaxError(f"line {line}: parameter expansion and command substitution are not supported")
        elif ch == '"':
            text, i, line = _double(script, i + 1, line)
            word = (word or []) + [text]
        else:
            word = (word or []) + [ch]
            i += 1
    flush()
    return tokens


def _ansi_c(script: str, i: int, line: int) -> tuple[str, int]:
    out: list[str] = []
    while i < len(script):
        ch = script[i]
        if ch == "'":
            return "".join(out), i + 1
        if ch == "\\" and i + 1 < len(script):
            nxt = script[i + 1]
            if nxt == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", script[i + 2 :])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + m.end()
                    continue
            if nxt in ("u", "U"):
                m = re.match(r"[0-9a-fA-F]{1,8}" if nxt == "U" else r"[0-9a-fA-F]{1,4}", script[i + 2 :])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + m.end()
                    continue
            out.append(_ANSI.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    raise ShellSyntaxError(f"line {line}: unexpected EOF while looking for matching `''")


def _double(script: str, i: int, line: int) -> tuple[str, int, int]:
    out: list[str] = []
    while i < len(script):
        ch = script[i]
        if ch == '"':
            return "".join(out), i + 1, line
        if ch == "\\" and i + 1 < len(script):
            nxt = script[i + 1]
            if nxt in '"\\$`':
                out.append(nxt)
            elif nxt == "\n":
                line += 1
            else:
                out.append("\\" + nxt)
            i += 2
            continue
        if ch in "$`" and i + 1 < len(script) and (script[i + 1].isalnum() or script[i + 1] in "_{(" or ch == "`"):
            raise ShellSyntaxError(f"line {line}: expansions inside double quotes are not supported")
        if ch == "\n":
            line += 1
        out.append(ch)
        i += 1
    raise ShellSyntaxError(f'line {line}: unexpected EOF while looking for matching `"\'')


@dataclass(frozen=True)
class _Pipeline:
    connector: str  # how it joins the previous one: ";", "&&" or "||"
    commands: tuple[tuple[str, ...], ...]
    line: int


def parse(script: str) -> list[_Pipeline]:
    """Split a script into pipelines with their connectors."""
    out: list[_Pipeline] = []
    commands: list[tuple[str, ...]] = []
    argv: list[str] = []
    connector, line = ";", 1
    pending_pipe = False
    for kind, text, tline in tokenize(script):
        if kind == "word":
            if not argv and not commands:
                line = tline
            argv.append(text)
            continue
        if text == "|":
            if not argv:
                raise ShellSyntaxError(f"line {tline}: syntax error near unexpected token `|'")
            commands.append(tuple(argv))
            argv, pending_pipe = [], True
            continue
        if argv:
            commands.append(tuple(argv))
            argv = []
        elif pending_pipe or (text in ("&&", "||", ";") and not commands):
            raise ShellSyntaxError(f"line {tline}: syntax error near unexpected token `{text.strip() or 'newline'}'")
        if text == "\n" and not commands:
            continue
        if commands:
            out.append(_Pipeline(connector, tuple(commands), line))
            commands = []
        pending_pipe = False
        connector = ";" if text == "\n" else text
    if argv:
        commands.append(tuple(argv))
    if pending_pipe and not argv:
        raise ShellSyntaxError("syntax error: unexpected end of file after `|'")
    if commands:
        out.append(_Pipeline(connector, tuple(commands), line))
    elif connector in ("&&", "||", "|"):
        raise ShellSyntaxError("syntax error: unexpected end of file")
    return out


def _echo(argv: list[str], stdin: str) -> Result:
    newline = True
    if argv and argv[0] == "-n":
        newline, argv = False, argv[1:]
    return Result(" ".join(argv) + ("\n" if newline else ""))


def _grep(argv: list[str], stdin: str) -> Result:
    flags, rest = set(), []
    for arg in argv:
        if arg.startswith("-") and len(arg) > 1 and not rest:
            flags.update(arg[1:])
        else:
            rest.append(arg)
    if len(rest) != 1 or not flags <= set("ivEFn"):
        return Result(stderr="grep: the simulated shell supports: grep [-i] [-v] [-E] [-F] [-n] PATTERN (stdin only)\n", code=2)
    pattern = re.escape(rest[0]) if "F" in flags else rest[0]
    try:
        regex = re.compile(pattern, re.IGNORECASE if "i" in flags else 0)
    except re.error as exc:
        return Result(stderr=f"grep: invalid pattern: {exc}\n", code=2)
    lines = [
        (f"{k}:" if "n" in flags else "") + ln
        for k, ln in enumerate(stdin.splitlines(), 1)
        if bool(regex.search(ln)) != ("v" in flags)
    ]
    return Result("".join(ln + "\n" for ln in lines), code=0 if lines else 1)


def _count_arg(argv: list[str], name: str) -> int | None:
    if not argv:
        return 10
    if len(argv) == 2 and argv[0] == "-n" and argv[1].lstrip("-").isdigit():
        return int(argv[1].lstrip("-"))
    if len(argv) == 1 and re.fullmatch(r"-n?\d+", argv[0]):
        return int(argv[0].lstrip("-n"))
    return None


def _head(argv: list[str], stdin: str) -> Result:
    count = _count_arg(argv, "head")
    if count is None:
        return Result(stderr="head: the simulated shell supports: head [-n N] (stdin only)\n", code=1)
    return Result("".join(ln + "\n" for ln in stdin.splitlines()[:count]))


def _tail(argv: list[str], stdin: str) -> Result:
    count = _count_arg(argv, "tail")
    if count is None:
        return Result(stderr="tail: the simulated shell supports: tail [-n N] (stdin only)\n", code=1)
    lines = stdin.splitlines()
    return Result("".join(ln + "\n" for ln in (lines[-count:] if count else [])))


def _cat(argv: list[str], stdin: str) -> Result:
    if argv:
        return Result(stderr=f"cat: {argv[0]}: No such file or directory\n", code=1)
    return Result(stdin)


def _wc(argv: list[str], stdin: str) -> Result:
    if argv != ["-l"]:
        return Result(stderr="wc: the simulated shell supports: wc -l (stdin only)\n", code=1)
    return Result(f"{stdin.count(chr(10))}\n")


BUILTINS: dict[str, Runner] = {
    "echo": _echo,
    "true": lambda argv, stdin: Result(),
    "false": lambda argv, stdin: Result(code=1),
    "grep": _grep,
    "head": _head,
    "tail": _tail,
    "cat": _cat,
    "wc": _wc,
}


def run_script(script: str, commands: Mapping[str, Runner]) -> Result:
    """Run ``script`` as ``bash -c`` would, with ``commands`` plus the built-ins.

    stdout and stderr accumulate over the whole script; the exit status is
    the last pipeline's.
    """
    table = {**BUILTINS, **commands}
    try:
        pipelines = parse(script)
    except ShellSyntaxError as exc:
        return Result(stderr=f"bash: -c: {exc}\n", code=2)
    stdout, stderr, status = [], [], 0
    for pipeline in pipelines:
        if pipeline.connector == "&&" and status != 0:
            continue
        if pipeline.connector == "||" and status == 0:
            continue
        data = ""
        for index, argv in enumerate(pipeline.commands):
            runner = table.get(argv[0])
            if runner is None:
                result = Result(stderr=f"bash: line {pipeline.line}: {argv[0]}: command not found\n", code=127)
            else:
                result = runner(list(argv[1:]), data)
            stderr.append(result.stderr)
            if index == len(pipeline.commands) - 1:
                stdout.append(result.stdout)
            data, status = result.stdout, result.code
    return Result("".join(stdout), "".join(stderr), status)
