"""The bookkeeping that opens a line of a work log, set apart from the request it carries.

Operators copy requests out of on-call logs, handover notes and to-do lists, where each
line opens with when and which item it is: a bullet, an open checkbox, a date or clock
time, a ticket key, an open status, who raised it::

    - [ ] 03:12Z OPEN INC-20417 (raised by rpatel) remove X from the graph
    [ ] 0410 UTC, INC-7781, from mwong - pls change P's capacity to 25 Gbps
    2024-07-02T06:15Z OPEN CHG-4410
    remove X from the graph, raised by kfoster

:func:`split` sets apart such an opening (and a line that holds nothing else), and
leaves every other text as written. An opening is read only when it holds a mark no
sentence opens with (an open checkbox, a date, a clock time, a ticket key or an item's
number on a sheet: "Q5)", "Task (b):"), and only marks that say nothing of what is asked:
a status that says the item is not to be done as asked ("[x]", "done", "blocked", "on
hold", "cancelled") is no opening, so it stays and the parser refuses it. Who raised it,
said last ("raised by kfoster"; after an opening also "(from tlopez)", "-hsato"), is set
apart too.
"""

from __future__ import annotations

import re

_ZONES = r"(?:UTC|GMT|Z|CET|CEST|EET|EEST|EST|EDT|CST|CDT|PST|PDT|BST|IST|JST|SGT|AEST|AEDT)"
_CLOCK = rf"(?:\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:Z|\s?{_ZONES}|\s?(?i:am|pm))?|\d{{4}}(?:Z|\s{_ZONES}))"
_MARKS = {
    "checkbox": r"\[ \]",
    "date": rf"\d{{4}}-\d{{2}}-\d{{2}}(?:[T ]{_CLOCK})?",
    "clock": _CLOCK,
    "ticket": r"[A-Z][A-Z0-9]{1,11}-\d{1,7}",
    # an item's number on a sheet or in a list: "Q5)", "Task (b):", "Exercise 2.2:", "(ii)"
    "item_number": r"(?:(?i:q|question|task|part|problem|exercise|ex|lab step)[ \t]*"
                   r"(?=[\d(])(?:\d{1,3}(?:\.\d{1,3})*)?[ \t]*(?:\([ \t]*[a-h][ \t]*\))?"
                   r"(?:[:.)]|(?=[ \t]+[-–—]))|\(?(?:[a-h]|i{1,3}|iv|vi{0,3})\))",
}
# What an open item's status says: it is to be done. Nothing that says it is done, waits on
# something or is not to be done ("closed", "blocked", "on hold"), which changes the request.
_STATUS = r"(?i:open|new|todo|to-do|to do|pending|in[ -]progress|wip|assigned|acked|ack|queued|ready|triaged)"
_FILERS = r"(?i:raised|requested|opened|filed|logged|reported|submitted|created|asked)"
_HANDLE = r"[A-Za-z][A-Za-z0-9_-]*"  # someone's handle: no dot, so never a node's name
_WHO = rf"(?:{_FILERS}\s+(?i:by)|(?i:from))\s+{_HANDLE}"  # "raised by kfoster", "from mwong"
_BULLET = r"[ \t]*(?:[-*•+][ \t]+)?"
_PLAIN = {
    "status": _STATUS,
    "status_in_brackets": rf"\({_STATUS}\)",
    "who_in_brackets": rf"\((?:{_FILERS}\s+(?i:by)|(?i:by|from))\s+{_HANDLE}(?:\s{_HANDLE})?\)",
    "who": _WHO,
}
# Between two marks: punctuation that parts them, or a space (which parts only marks: a
# status or a name said last before the request must be parted from it by punctuation).
_PARTING = re.compile(r"[ \t]*(?:[/|,;:]|--?|[–—])[ \t]*")
_SPACE = re.compile(r"[ \t]+")
_ITEM = re.compile("|".join(f"(?P<{name}>{pattern})"
                            for name, pattern in {**_MARKS, **_PLAIN}.items()))
# What a line of who raised it says when it is all the line holds: "raised by night shift".
_WHO_LINE = re.compile(rf"{_BULLET}{_WHO}(?:\s{_HANDLE})?[ \t]*")
_BULLET_AT = re.compile(_BULLET)


# A part of an item named by a letter or a roman number: "(a)", "b)", "(ii)". Two of them in
# a text are its parts, which the parser reads as steps ("Q2. (a) Remove X. (b) Count ..."),
# so they stay.
_LETTERED = re.compile(r"(?<![\w(])\(?(?:[a-h]|i{1,3}|iv|vi{0,3})\)(?=\s)")


# Who raised it, said last after punctuation: ", raised by kfoster", "? asked by dc-planning
# in #netops", "(requested by Sam)"; after a work log's opening also "(from tlopez)" and
# "-hsato". Only verbs said of whoever raised an item: "the ports, reported by monitoring" may
# say which ports.
_RAISERS = r"(?i:raised|requested|asked|submitted)"
_CLOSING = re.compile(rf"(?:[ \t]*[,;][ \t]*|(?<=[.?!])[ \t]+|[ \t]+[-–—][ \t]*|[ \t]*(?=\())\(?{_RAISERS}[ \t]+"
                      rf"(?i:by)[ \t]+{_HANDLE}(?:[ \t]{_HANDLE})?(?:[ \t]+in[ \t]+#?{_HANDLE})?\)?"
                      r"[ \t]*\.?[ \t]*$")
_LOGGED_CLOSING = re.compile(rf"(?:[ \t]*[,;.]?[ \t]+\((?i:from|by)[ \t]+{_HANDLE}(?:[ \t]{_HANDLE})?\)"
                             rf"|[ \t]*[,;][ \t]+(?i:from)[ \t]+{_HANDLE}|[ \t]+-{_HANDLE})"
                             r"[ \t]*\.?[ \t]*$")


def _opening(line: str, parts: bool = False) -> tuple[int, list[str]]:
    """How many characters of ``line`` are a work log's opening (0 for none): marks and
    plain items one after another, up to the last one that is a mark or is parted from what
    follows by punctuation, with at least one mark among them; and its plain items."""
    at = _BULLET_AT.match(line).end()
    cut, marked = 0, False
    plain: list[str] = []
    said: list[str] = []
    while True:
        item = _ITEM.match(line, at)
        if item is None or parts and _LETTERED.search(item.group() + " "):
            break
        parted = _PARTING.match(line, item.end())
        spaced = None if parted else _SPACE.match(line, item.end())
        if parted is None and spaced is None and item.end() < len(line):
            break  # glued to more: "INC-12abc", "opened"
        marked = marked or item.lastgroup in _MARKS
        if item.lastgroup.startswith("who"):  # a status says how the item stands, not which
            plain.append(item.group())
        at = (parted or spaced).end() if (parted or spaced) else item.end()
        closed = item.lastgroup in _MARKS or item.group().endswith(")")  # "(raised by Sam)"
        if marked and (closed or parted or at >= len(line)):
            cut, said = at, list(plain)
    return cut, said


def split(text: str) -> tuple[str, str]:
    """``text`` without the work-log opening of each line and without the lines that are
    nothing else (``text`` itself when no line opens so), and the words of those openings
    that say who raised it, which the parser weighs as words set aside: they may not pick
    out some of a set of nodes."""
    lines = text.split("\n")
    kept: list[str] = []
    apart: list[str] = []
    changed = False
    parts = len(_LETTERED.findall(text)) > 1
    for line in lines:
        end, plain = _opening(line, parts)
        if end:
            line, changed = line[end:], True
            apart += plain
        elif changed and _WHO_LINE.fullmatch(line):
            apart.append(line.strip())  # "raised by night shift", a line under an opening
            continue
        if line.strip() or not changed:
            kept.append(line)
    said = "\n".join(kept).strip() if changed else text
    closing = _CLOSING.search(said) or (_LOGGED_CLOSING.search(said) if changed else None)
    if closing is not None and closing.start():
        said, changed = said[:closing.start()], True
        apart.append(closing.group().strip(" \t,;.-–—"))
    return (said, " ".join(apart)) if changed else (text, "")
