"""The newest message of an email thread (pure).

Operators answer in threads: the reply sits above the older messages ("-----Original
Message-----", "On Tue, 4 Mar 2025, Priya wrote:", an Outlook block "From: ... Sent: ...
To: ... Subject: ...", "Begin forwarded message:") or between lines quoted with ">". What
is asked is what the newest message asks; the older ones are its history. This module reads
a thread into the newest message's own lines, which the parser then reads like any other
request (every check of the parser still applies):

* from a line that opens a message kept below the reply (a separator line, a block of
  header fields, a forwarded message's opening) to the end is history;
* a line quoted with ">" is history, and so is the line that introduces a quotation ("On
  ..., X wrote:"); lines the reply writes between quotations are the reply's, in order;
* what a mail client adds to the reply is left out: a signature after its delimiter ("--"),
  "Sent from my iPhone", and a notice of confidentiality that ends the reply;
* so is the writer's signature that ends a text of several lines, set apart by a blank
  line: a closing ("Thanks,") and a name, or a name alone ("Dana Okafor", "-Dana"), then
  lines of title and contact. A name is capitalized words none of which is a word netmend
  reads ("Uplinks Only" is no one's name); a line of title or contact says no kind and no
  word that could change a request;
* and the reply's own subject ("Subject: Re: s2c4", or "RE: spine decom" on the first line
  as an inbox shows it), whom it greets on a line of its own ("Hugo,", "Hi all,"), and
  sentences that open it only to thank or acknowledge ("Good catch.").

This module never reads the older messages as asked now: a reply that only points at its
history ("remove it", "that one") is left as it is, to be refused. (The parser reads a
thread as written first, quoted lines and all, and comes here only when that is refused.)
What was left out is returned too, for the parser to judge: the older messages (any word
that may put off, take back or narrow a request keeps it refused), what the reply says
around its text and its subject (a kind, a name alone that may be a noun, a subject that
asks for something else keep a request about a set, or any, refused).
Text in, text (or None when nothing is left out) out.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from netmend.malt import phrasing as P
from netmend.malt import transcript

# A line that opens a message kept below the reply, to the end of the text.
_OPENS_HISTORY = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|forwarded message|message d'origine|"
    r"ursprüngliche nachricht|mensaje original|messaggio originale)\s*-{2,}"
    r"|begin forwarded message:?|_{8,}|-{8,}|-{2,}\s*forwarded by\b.*|-{2,}.*\bwrote\b.*)\s*$",
    re.IGNORECASE)
# Header fields of a message kept below the reply: two of them on lines in a row open it.
_HEADER_FIELD = re.compile(
    r"^\s*\**(?:from|sent|date|to|cc|subject|von|gesendet|an|betreff|de|envoyé|à|objet)"
    r"\**\s*:", re.IGNORECASE)
# The line that introduces a quotation: "On Tue, Mar 4, 2025 at 9:12 AM Priya <p@x> wrote:".
_INTRODUCES_QUOTE = re.compile(
    r"(?:\bwrote|\bschrieb|\ba écrit|\bescribió|\bha scritto)\b[^:\n]*:\s*$", re.IGNORECASE)
_QUOTED = re.compile(r"^\s*>")
# A subject as an inbox shows it, on the first line: "RE: spine decom", "Fwd: RE: port audit",
# "AW: s1c3" (a reply's or a forward's marks, in the languages mail programs write them).
SUBJECT_MARKS = ("re", "fw", "fwd", "aw", "wg", "sv", "vs", "tr", "rv", "enc", "odp", "antw")
_INBOX_SUBJECT = re.compile(
    r"^\s*(?:(?:" + "|".join(SUBJECT_MARKS) + r")\s*(?:\[\d+\])?\s*:\s*)+\S.*$",
    re.IGNORECASE)
# What a mail client adds to the reply.
_SIGNATURE_DELIMITER = re.compile(r"^\s*--\s*(?:[A-Za-z][\w .'-]{0,40})?\s*$")
_SENT_FROM = re.compile(
    r"^\s*(?:sent from (?:my |(?:mail|outlook|yahoo|gmail|proton|samsung|windows)\b)[\w -]{0,40}"
    r"|get outlook for [\w -]{1,20}|sent via (?:the )?(?:mail|outlook|gmail|yahoo)\b[\w -]{0,30}"
    r"|(?:importance|priority|sensitivity)\s*:\s*(?:high|normal|low|urgent|confidential|private"
    r"|personal))\s*$", re.IGNORECASE)
# Whom the writer greets, a line of its own before a blank one: "Hugo,", "Priya -", "All,".
_GREETED = re.compile(r"^\s*(?P<who>[A-Za-z][\w'’ .-]{0,40}?)\s*(?:,|-{1,2}|–|—|:|!)?\s*$")
_GREETING = re.compile(r"^(?:hi|hello|hey|dear|morning|good morning|good afternoon|"
                       r"good evening|greetings)\s+", re.IGNORECASE)
_GROUPS = frozenset({"all", "team", "folks", "everyone", "everybody", "guys", "colleagues",
                     "gents", "hi all", "hi team", "hello all", "hello team", "hey all",
                     "hey team", "morning all", "morning team", "dear all", "dear team"})
_NOTICE = re.compile(
    r"^\s*(?:confidential|confidentiality notice|disclaimer|notice:|(?:this|the information "
    r"in this) (?:e-?mail|message|communication)\b.*\b(?:confidential|intended|privileged))",
    re.IGNORECASE)


def _history_starts(lines: list[str]) -> int:
    """Where the history kept below the reply starts (``len(lines)`` when it is not kept so)."""
    for i, line in enumerate(lines):
        if _OPENS_HISTORY.match(line):
            return i
        if _HEADER_FIELD.match(line) and i + 1 < len(lines) and _HEADER_FIELD.match(lines[i + 1]):
            return i
    return len(lines)


class Newest(NamedTuple):
    """The newest message's own text, what the older messages say (its history), and what
    the reply says around its text (its own header, whom it greets, its signature);
    ``named_alone``: it greets a name with no word of greeting ("Hugo,") or ends on a name
    with no closing before it ("... \n\nOptics"), which may be a noun; ``subject``: its own
    header fields, set aside."""

    said: str
    history: str
    aside: str
    named_alone: bool = False
    subject: str = ""


def newest_message(text: str) -> Newest | None:
    """The newest message of an email thread, or None when ``text`` quotes or keeps no older
    message and no line a mail client adds (then nothing is left out)."""
    if "\n" not in text:
        return None
    lines = text.splitlines()
    end = _history_starts(lines)
    kept: list[str] = []
    history = lines[end:]
    for i, line in enumerate(lines[:end]):
        if _QUOTED.match(line):
            history.append(line)
            continue
        if _INTRODUCES_QUOTE.search(line) and all(
                _QUOTED.match(after) or not after.strip() for after in lines[i + 1:i + 3]):
            history.append(line)
            continue  # "On ..., X wrote:" before the lines it quotes (or none, left out)
        kept.append(line)
    unheaded = _without_own_header(kept)
    signed = _without_client_lines(unheaded)
    own = _without_greeting(signed)
    said = _without_acknowledgement("\n".join(own).strip())
    if not history and own == kept or not said:
        return None
    aside = [line for line in kept if line not in own]
    greeted = [line.strip() for line in signed if line.strip() and line not in own][:1]
    last = max((i for i, line in enumerate(unheaded) if line in own), default=-1)
    signature = [line.strip() for line in unheaded[last + 1:] if line.strip()]
    header = [line for line in kept if line not in unheaded]
    return Newest(said, "\n".join(history), "\n".join(aside),
                  _greets_by_name_alone(greeted) or _signs_by_name_alone(signature),
                  "\n".join(header))


def _greets_by_name_alone(greeted: list[str]) -> bool:
    """Whether a greeting set aside ([] or its line) is a name with no word of greeting."""
    return bool(greeted) and not (_GREETING.match(greeted[0]) or _GREETED.match(
        greeted[0]).group("who").lower() in _GROUPS)


def _signs_by_name_alone(signature: list[str]) -> bool:
    """Whether a signature set aside (its lines) opens on a name with no closing or dash."""
    return bool(signature) and _NAME_LINE.match(signature[0]) is not None and not (
        _CLOSING.match(signature[0]) or signature[0].startswith(("-", "–", "—", "~")))


# A closing before the writer's name: "Thanks,", "Best regards", "Cheers!".
_CLOSING = re.compile(
    r"^\s*(?:(?:many |big )?thanks?(?: you)?(?: (?:again|so much|a lot))?|thx|ty|cheers|ta|"
    r"(?:best|kind|warm|warmest)(?: regards| wishes)?|regards|br|rgds|sincerely|"
    r"yours(?: sincerely| faithfully| truly)?|talk soon|speak soon|take care|all the best)"
    r"\s*[,.!]*\s*$", re.IGNORECASE)
# A writer's name, a line of its own: "Dana Okafor", "-Dana", "B. Quinn", "-- Lena".
_NAME_LINE = re.compile(r"^\s*(?:[-–—~]+\s*)?((?:[A-Z][\w'’-]*\.?)(?:\s+[A-Z][\w'’-]*\.?){0,2})"
                        r"\s*(?:\|(?P<contact>.*))?$")
# A line of a signature after the name: a title, a phone, an address, a team.
_CONTACT_LINE = re.compile(r"\d{3}|\||@|^\s*(?:tel|mob|mobile|phone|cell|m|t|e|w)\b\s*[:.]?",
                           re.IGNORECASE)
_TITLE_LINE = re.compile(r"^\s*[A-Z][\w&,.'’/-]*(?:\s+(?:[A-Z][\w&,.'’/-]*|&|of|and|for))*\s*$")
_LONGEST_SIGNATURE = 5  # lines


# Words no name is made of (the request's vocabulary: "Uplinks Only" names no one), and words
# no title is (a title may say "Network" or "Capacity": "Capacity Planning Lead").
_NOT_NAMES = frozenset(P.LEXICON) | frozenset(P.KIND_WORDS) | P.CRITICAL
_NOT_TITLES = frozenset(P.KIND_WORDS) | P.CRITICAL | P.PLANNED  # "Scheduled for ..."


def _said_in(line: str, words: frozenset[str]) -> bool:
    """Whether ``line`` says one of ``words``, or a hedge of more words ("subject to")."""
    said = [word.lower() for word in re.findall(r"[A-Za-z]+", line)]
    return any(word in words for word in said) or P.phrased_hedge(said) is not None


def _names_someone(line: str) -> bool:
    """Whether ``line`` is a writer's name: capitalized words, none of the vocabulary (and
    after a bar, a title and a contact: "Sven Lund | Sr. Network Engineer | M: +46 ...")."""
    found = _NAME_LINE.match(line)
    if found is None or _said_in(found.group(1), _NOT_NAMES):
        return False
    contact = found.group("contact")
    return contact is None or _contact(contact)


def _contact(line: str) -> bool:
    """Whether ``line`` is a signature's title or contact: no kind, no word that could change
    a request."""
    return bool(_CONTACT_LINE.search(line) or _TITLE_LINE.match(line)) and not _said_in(
        line, _NOT_TITLES)


def _without_signature(lines: list[str]) -> list[str]:
    """``lines`` without a signature that ends them, set apart by a blank line: a closing
    and the writer's name, or the name alone, and after it lines of title and contact."""
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    blank = max((i for i, line in enumerate(lines) if not line.strip()), default=None)
    if blank is None or not any(line.strip() for line in lines[:blank]):
        return lines
    signature = lines[blank + 1:]
    if len(signature) > _LONGEST_SIGNATURE:
        return lines
    at = 1 if _CLOSING.match(signature[0]) else 0
    if at < len(signature) and not _names_someone(signature[at]):
        return lines
    if all(map(_contact, signature[at + 1:])):
        return lines[:blank]
    return lines


def _sent_from(line: str) -> bool:
    """Whether ``line`` is what a mail client adds ("Sent from my iPhone"), saying no word
    that could change a request ("Sent from Outlook for temporarily Android" is not)."""
    return _SENT_FROM.match(line) is not None and not _said_in(line, _NOT_TITLES)


def _signed(name: str, after: list[str]) -> bool:
    """Whether a signature's delimiter ("-- Lena") opens a signature: a name or nothing on its
    line, then names, titles and contacts only ("-- except uplinks" opens none)."""
    return (not name or _names_someone(name)) and all(
        not line.strip() or _names_someone(line) or _contact(line) or _sent_from(line)
        for line in after)


def _without_own_header(lines: list[str]) -> list[str]:
    """``lines`` without the message's own header fields that open it ("Subject: Re: s2c1",
    "To: ops"), set apart by a blank line, when none says a word that could change a request
    (a subject that does, "Subject: do not remove X", stays, to be read or refused). A
    subject may name kinds and nodes: it is set aside, and the parser reads a set after it
    only when it names no kind."""
    if lines and _INBOX_SUBJECT.match(lines[0]) and len(lines) > 1:
        if _said_in(lines[0], P.HEDGES):
            return lines
        return lines[1 + (not lines[1].strip()):]  # "RE: spine decom" as an inbox shows it
    at = 0
    while at < len(lines) and _HEADER_FIELD.match(lines[at]):
        at += 1
    if not at or at >= len(lines) or lines[at].strip() or any(
            _said_in(line, P.HEDGES) for line in lines[:at]):
        return lines
    return lines[at + 1:]


_FIRST_SENTENCE = re.compile(r"\s*[^.!?\n]*[.!?\n]+\s*")


def _without_acknowledgement(said: str) -> str:
    """The reply's text without the sentences that open it only to acknowledge or thank
    ("Good catch. Please remove X", "Thanks for the update! ..."): never a yes or a no, which
    answers a question of the older messages (:func:`transcript.acknowledges`)."""
    while True:
        first = _FIRST_SENTENCE.match(said)
        if first is None or first.end() >= len(said) or not transcript.acknowledges(
                first.group()):
            return said
        said = said[first.end():]


def _without_greeting(lines: list[str]) -> list[str]:
    """``lines`` without whom the writer greets on the first line, set apart by a blank
    line: a name ("Hugo,") or a group ("All,", "Team --")."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or first + 1 >= len(lines) or lines[first + 1].strip():
        return lines
    greeted = _GREETED.match(lines[first])
    if greeted is None:
        return lines
    who = " ".join(greeted.group("who").lower().split())
    name = _GREETING.sub("", greeted.group("who"))
    if who in _GROUPS or name and _names_someone(name):
        return lines[first + 2:]
    return lines


def _without_client_lines(lines: list[str]) -> list[str]:
    """The reply's lines without what a mail client adds: a signature after its delimiter,
    "Sent from my ..." and a notice that ends the reply."""
    for i, line in enumerate(lines):
        if _SIGNATURE_DELIMITER.match(line) and any(other.strip() for other in lines[:i]) \
                and _signed(line.strip().lstrip("-").strip(), lines[i + 1:]):
            lines = lines[:i]
            break
    lines = [line for line in lines if not _sent_from(line)]
    for i, line in enumerate(lines):
        if _NOTICE.match(line) and any(other.strip() for other in lines[:i]):
            end = next((j for j in range(i, len(lines)) if not lines[j].strip()), len(lines))
            lines = lines[:i] + lines[end:]  # the notice's paragraph only
            break
    return _without_signature(lines)
