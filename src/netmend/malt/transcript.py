"""Requests pasted as a chat transcript or a call log (pure).

Operators forward what a requester said in a chat or on a call as it was logged, turns and
all: "[10:42] alice: hey, quick one [10:42] noc-bob: sure, go ahead [10:43] alice: which
superblock is switch X under?", "<kb> rm X from the graph <netops> ack <kb> and list the
children of S after", "Requester: please add port N to S. Agent: Noted. Requester: and then
count its ports." This module reads such a text into what the requester said, which the
parser then reads like any other request (every check of the parser still applies):

* a turn starts at a speaker's mark: a handle in angle brackets ("<kb>"), a name after a
  time stamp ("[10:42] alice:", "[2024-05-02 08:14:31] user:"), a role written as a
  label ("Requester:", "Caller:", "Agent:", "Operator:"), a name that starts a line
  ("priya: ..." on a line of its own), or a chat export's mark: a time (and a date) before
  a name ("17/03/24, 14:10 - Tom:", "13:30:45 [BRIDGE] Marta (NetOps):") or after it
  ("Hannah Cole 9:07 AM:", "Sofia Lind — Today at 1:10 PM:"). Such a name is capitalized
  words, and a word netmend reads is never part of it ("... to 40 Gbps Ravi Kumar 9:03
  AM:": "Gbps" ends the turn before);
* the log has at least two speakers, and every turn of all speakers but one only
  acknowledges, agrees, greets, asks the requester to go on or waits ("Noted.", "sure, go
  ahead", "Hi Priya, what can I do?", "checking now", "yep, doing it now", "+1", "👍"),
  each of its sentences one of a closed set of such phrases or a picture alone. The other speaker's turns, in order,
  are the request: one sentence or more each;
* nothing is said before the first turn, every turn says something (a label before the
  first, "Hypothetically: <kb> ...", is no turn), and a turn that only says yes or no (to a
  question the log may hold) is never read as part of a request.

A log in which two speakers ask for something, or in which the other side says anything
else (a question with a node or a number in it, "done", "I removed it too"), is not read
here: the parser's refusal of the text as written stands. Text in, text (or None) out.
"""

from __future__ import annotations

import re
import unicodedata

from netmend.malt import phrasing as P

# Roles written as a speaker's label: who asks, and who answers.
_ROLES = ("requester", "requestor", "caller", "customer", "client", "user", "agent",
          "operator", "helpdesk", "help desk", "service desk", "noc", "netops", "ops",
          "support", "engineer", "technician", "tech", "analyst", "dispatcher", "on-call",
          "oncall")
_STAMP = r"\[\s*(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(?::\d{2})?(?:\s*(?:am|pm|utc|z))?\s*\]"
# A person's name as chat exports write it: one to three words with a capital ("Tom", "Hannah
# Cole"), and a role in brackets after it ("Marta (NetOps)").
_NAME = r"(?-i:[A-Z][\w.'-]{0,30}(?:[ \t]+[A-Z][\w.'-]{0,30}){0,2})"
_ROLE_AFTER = r"(?:[ \t]*\([^()\n]{1,30}\))?"
_TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]*(?:am|pm|utc|z))?"
# A speaker's mark: "<kb>", "[10:42] alice:", "Requester:" (a role, at a sentence's start or
# after a word: "... ack Requester: and then ..."), "priya: ..." at a line's start; and the
# marks of chat exports: a time (and a date) before a name ("17/03/24, 14:10 - Tom:",
# "13:30:45 [BRIDGE] Marta (NetOps):", "00:14:44 Yuki:") or after it ("Hannah Cole 9:07 AM:",
# "Sofia Lind — Today at 1:10 PM:", "Oksana Petrenko (10:14):").
_MARK = re.compile(
    r"<\s*[@+]?(?P<nick>[A-Za-z][\w.-]{0,30})\s*>"
    r"|" + _STAMP + r"\s*(?P<stamped>[@A-Za-z][\w.@-]{0,30})\s*:"
    r"|(?<![\w.-])(?P<role>" + "|".join(re.escape(r) for r in _ROLES) + r")\s*:(?!\S)"
    r"|^[ \t]*(?P<line>[@A-Za-z][\w.@-]{0,30})[ \t]*:(?!\S)"
    r"|(?<![\w:/.-])(?:\d{1,2}/\d{1,2}/\d{2,4},?[ \t]+)?" + _TIME
    + r"[ \t]*(?:-[ \t]*)?(?:\[[A-Za-z ]{1,20}\][ \t]*)?(?P<timed>" + _NAME + r")" + _ROLE_AFTER
    + r"[ \t]*:(?!\S)"
    r"|(?<![\w.-])(?P<named>" + _NAME + r")" + _ROLE_AFTER + r"[ \t]*(?:[-—–][ \t]*)?"
    r"(?:(?:today|yesterday)[ \t]+at[ \t]+)?\(?" + _TIME + r"\)?[ \t]*:(?!\S)",
    re.IGNORECASE | re.MULTILINE)
# What a turn that asks for nothing may say, sentence by sentence (after its words are
# lower-cased and its punctuation and a name greeted are left out).
_PHRASES = (
    # acknowledgements and greetings
    "ok", "okay", "k", "kk", "sure", "sure thing", "noted", "ack", "acked", "acknowledged",
    "roger", "roger that", "copy", "copy that", "got it", "gotcha", "understood", "will do",
    "on it", "no problem", "np", "no worries", "right", "alright", "all right", "great",
    "perfect", "cool", "thanks", "thank you", "ty", "thx", "cheers", "hi", "hello", "hey",
    "good catch", "nice work", "nice one", "well done", "great work", "thanks for that",
    "thanks for the update", "thanks for checking", "thanks for confirming", "much appreciated",
    "hi there", "hello there", "morning", "good morning", "good afternoon", "good evening",
    # waiting
    "checking", "checking now", "looking", "looking now", "looking into it", "one sec",
    "one second", "one moment", "just a moment", "give me a sec", "give me a second",
    "give me a moment", "give me a minute", "bear with me", "let me check", "let me look",
    "let me see", "working on it", "on it now", "looking it up", "let me look it up",
    "sec", "a sec", "doing it", "doing it now", "doing that now", "in progress", "coming up",
    "coming right up",
    # agreeing to do it: "yep, doing it now", "agreed, will update", "+1"
    "yes", "yep", "yup", "yeah", "agreed", "sounds good", "will update", "plus one",
    # asking the requester to go on or to say more
    "go ahead", "go on", "sure go ahead", "yes go ahead", "shoot", "fire away",
    "what can i do", "what can i do for you", "how can i help", "how can i help you",
    "how can i help you today", "what do you need", "what is up", "anything else",
    "and the second", "and second", "and the second one", "what else", "what is next",
    "what next", "next", "anything after that", "anything else after that", "sorry",
    "come again", "say again", "pardon")
_INERT = frozenset(tuple(phrase.split()) for phrase in _PHRASES)
_LONGEST = max(map(len, _INERT))
# A greeting or thanks and the name of whom it is said to: "Hi Priya", "thanks Bob".
_GREETED = re.compile(r"\b(hi|hello|hey|thanks|thank you|cheers|morning)\s+[A-Z][a-z]+\b")
_SENTENCES = re.compile(r"[^.!?,;]+")
_PICTURES = frozenset({"So", "Sk", "Mn", "Cf"})  # emoji, their skin tones, joiners, selectors
_PLUS_ONE = re.compile(r"(?<![\w+])\+1(?!\w)")
_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?")
# Contractions said in such a turn, as the phrases write them.
_CONTRACTED = {"what's": "what is", "i'll": "i will", "let's": "let us"}
_YES_OR_NO = r"(?:yes|yep|yeah|yup|no|nope|nah|correct|right|exactly)"
_YES_NO = re.compile(r"\W*" + _YES_OR_NO + r"\W*",
                     re.IGNORECASE)


def _said_in_phrases(words: list[str]) -> bool:
    """Whether ``words`` are a run of the phrases of ``_INERT`` (one reading is enough)."""
    reached = [True] + [False] * len(words)
    for start in range(len(words)):
        if reached[start]:
            for end in range(start + 1, min(start + _LONGEST, len(words)) + 1):
                reached[end] = reached[end] or tuple(words[start:end]) in _INERT
    return reached[-1]


def acknowledges(sentence: str) -> bool:
    """Whether a sentence only acknowledges, thanks, greets or waits ("Thanks.", "Good catch.",
    "Sure thing!"), saying no yes or no (which answers a question: what was asked is not
    read)."""
    return not _SAYS_YES_OR_NO.search(sentence) and _inert(sentence)


_SAYS_YES_OR_NO = re.compile(r"\b(?:" + _YES_OR_NO + r"|agreed)\b",
                             re.IGNORECASE)


def _inert(turn: str) -> bool:
    """Whether a turn only acknowledges, greets, waits or asks the requester to go on."""
    turn = _PLUS_ONE.sub(" plus one ", _GREETED.sub(r"\1", turn)).lower()
    for sentence in _SENTENCES.findall(turn):
        if sentence.strip() and all(c.isspace() or unicodedata.category(c) in _PICTURES
                                    for c in sentence):
            continue  # a picture only: "👍", "🙏"
        if not sentence.strip():
            continue
        words = [_CONTRACTED.get(w, w) for w in _WORDS.findall(sentence)]
        if not words or any(c.isdigit() for c in sentence) or not _said_in_phrases(words):
            return False
    return True


# Words no one is called: what netmend reads ("40 Gbps Ravi Kumar 9:03 AM:" is the unit of a
# number and then Ravi Kumar's mark).
_NOT_NAMES = (frozenset(w for said in P.LEXICON for w in said.split()) | frozenset(P.KIND_WORDS)
              | P.CRITICAL | frozenset(w for said in P.UNITS for w in said.split()))


def _marks(text: str) -> list[tuple[int, int, str]]:
    """Where each speaker's mark starts and ends, and whose it is (in lower case). A name
    written before a time ("Hannah Cole 9:07 AM:") starts at its first word no one is called
    (the words before it end the turn before)."""
    marks = []
    for mark in _MARK.finditer(text):
        if any(w in P.CRITICAL or w in P.HEDGES for w in _WORDS.findall(mark.group().lower())):
            continue  # "Ravi (DC instead ops):" may say how, so it is no speaker's mark
        speaker = next(g for g in mark.groups() if g is not None)
        start = mark.start()
        if mark.group("named") is not None:
            words = speaker.split()
            while words and words[0].lower() in _NOT_NAMES:
                words.pop(0)
            if not words:
                continue
            start = mark.start("named") + speaker.index(" ".join(words)) if len(
                words) < len(speaker.split()) else start
            speaker = " ".join(words)
        marks.append((start, mark.end(), speaker.lower()))
    return marks


def requester_text(text: str) -> str | None:
    """What the requester said in ``text`` read as a chat transcript or a call log, one
    sentence or more per turn; None when ``text`` is not such a log or when any turn but the
    requester's says more than an acknowledgement (see the module's docstring)."""
    marks = _marks(text)
    if len(marks) < 2 or text[:marks[0][0]].strip():
        return None
    turns: list[tuple[str, str]] = []
    for i, (_, end_of_mark, speaker) in enumerate(marks):
        end = marks[i + 1][0] if i + 1 < len(marks) else len(text)
        turns.append((speaker, text[end_of_mark:end].strip()))
    if not all(said for _, said in turns):
        return None  # "Hypothetically: <kb> remove X <ops> ok": a label, not a turn
    speakers = {speaker for speaker, _ in turns}
    asking = {speaker for speaker, said in turns if not _inert(said)}
    if len(speakers) < 2 or len(asking) != 1:
        return None
    (requester,) = asking
    said = [words for speaker, words in turns if speaker == requester]
    if any(_YES_NO.fullmatch(words) for words in said):
        return None
    return " ".join(words if words[-1] in ".!?" else words + "." for words in said)
