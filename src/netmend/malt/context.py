"""What a request says around it: why, for what, about what occasion (pure).

Operators put the reason for a request next to it: "We're reviewing spine headroom - could
you rank the ports of S by capacity?", "Could you add switch N to D? It's for next week's
spine maintenance.", "For the licence audit I need the switch count in the graph". Such a
part says nothing about what is asked, and the parser may read the request without it.

A part is set aside only when it could not change what is asked:

* it is a whole part of the request's first or last end, set apart by a sentence's end, a
  dash, a colon or a semicolon, or a first clause by a comma (a purpose first: "For the
  cabling audit, I need ..."; a clause last: "..., it was RMA'd yesterday"), by "because" or
  "since" (a cause: "... because it died"), by "so" (what the answer is for: "... so we can
  confirm what remains"), or by brackets that end a sentence (an aside: "... (dead PSU, RMA
  open).", which the parser sets aside only from requests about named nodes);
* it names nothing the request could be about: no number, no entity kind said as a thing
  ("spine" may say which maintenance, "uplinks" may not stand alone), no word of the grammar
  but words that glue a clause together, and no node name unless the caller allows it (a
  node the request names too, or the one it points back to: "the linecard on switch X
  died, pull it out of the graph");
* it says nothing about how, whether, when or to what else the request applies: no
  negation, exception, hedge or restriction (``P.CRITICAL``), no test or rehearsal, no
  later event ("once", "after", "when"), no word that carries a request further
  ("everywhere", "likewise", "too", "ones");
* it is a clause or a purpose of its own ("we are sizing uplinks" has a verb; "for the
  change log" is a purpose), with at least two words of its own, so a lone word that
  could restrict the answer ("healthy") never goes.

Time words that date the occasion ("tomorrow", "next week", "yesterday") are allowed in
such a part: they date the audit or the maintenance, not the request, which netmend does
now. Everything here works on the categories the parser's lexer gives each word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from netmend.malt import phrasing as P

Word = tuple[str, str]  # a token's kind and its lower-case text
Lexed = Sequence[tuple[frozenset[str], str]]  # a part's lexemes: categories and text

# What sets a part apart: a sentence's end, a dash, a colon, a semicolon.
_BOUNDARIES = frozenset({".", "!", "?", ";", ":", "-", "--"})
# Words that glue a clause or a purpose together; any other word of the grammar keeps the
# part (a verb of a request, an order, a depth, an amount, a comparison, "all", "each").
_GLUE = frozenset({"AUX", "MODAL", "IT", "OF", "IN", "TO", "BY", "AS", "POSS", "COMMA", "AND",
                   "WANT", "ITS", "HELD", "UNK", "GET"})
# A word of the grammar that may modify a word of the occasion ("spine maintenance",
# "capacity review", "change window", "a new box", "inventory reconciliation").
_MODIFIERS = frozenset({"KIND", "CAP", "NEW", "GRAPH"})
# What a word of the grammar may follow to be a noun's modifier, not a verb ("the upgrade
# plan", "quick check"): a preposition or a word of the occasion (after an auxiliary, "to"
# or at a part's start it is a verb: "we are updating the sheet", "update neighbours").
_BEFORE_NOUN = frozenset({"OF", "IN", "UNK", "HELD", "CRIT"})
# Verbs that read, said of what the asker is doing with an object of their own.
_READ_VERBS = frozenset({"ASK", "COUNT"})
# Dates of the occasion (in ``P.CRITICAL`` because they would date a request said alone).
_DATES = frozenset({"tomorrow", "tonight", "yesterday", "next week", "before", "ahead of"})
# Said of a named node, only a past date: "X died yesterday"; "X is dead tomorrow" is a state
# to come, which the request would hang on.
_PAST_DATES = frozenset({"yesterday"})
# What gives a cause: "... because it died", "since the linecard died, ...". The cause is set
# aside as any other context is (it names nothing, says nothing about how or whether).
_BECAUSE = frozenset({("WORD", "because"), ("WORD", "since")})
DATE_NOUNS = frozenset({"night", "week", "month", "weekend", "shift", "quarter", "year", "cycle",
                        "sprint"})
# Particles of a phrasal verb said of the occasion ("tidying up", "wrote down", "signed off").
_PARTICLES = frozenset({"up", "down", "off"})
# What happened to a thing, said after it ("the linecard failed", "X is down"): an event of
# the occasion, not which nodes the request is about ("the failed ports" stays a restriction).
_EVENTS = frozenset({"failed", "faulty", "broken", "down", "dead"})
# Words that say a request is a test, a rehearsal or for another environment than the graph.
REHEARSALS = frozenset({
    "test", "testing", "tests", "draft", "dry", "simulation", "simulate", "trial", "demo",
    "rehearsal", "practice", "hypothetical", "hypothetically", "pretend", "exercise", "what-if",
    "whatif", "sandbox", "lab", "staging", "mirror", "scenario", "theoretical", "theoretically"})
# How, whether, when or where else: a part with one of these stays part of the request.
CARRIES = REHEARSALS | frozenset({
    "after", "afterwards", "once", "when", "whenever", "following", "until", "till", "if",
    "unless", "then", "next", "again", "also", "too", "everywhere", "elsewhere", "likewise",
    "similarly", "same", "sibling", "siblings", "ones", "one", "those", "these", "both",
    "whole", "entire", "everything", "all", "each", "every", "any", "with", "without",
    "where", "which", "that", "whose", "who", "instead", "including", "included", "include",
    "plus", "what if",
    # what the asker cares about is a restriction: "we are interested in the spine side"
    "interested", "focus", "focusing", "focused", "concerned", "relevant", "matter", "matters",
    "care", "caring", "particularly", "especially", "mainly", "mostly", "specifically", "just",
    "primarily", "chiefly", "largely", "side", "part", "portion", "subset"})
# Words a part may say only as fillers the lexer drops, which still carry a request on
# ("..., too", "as well", "already done": the same elsewhere, or nothing to do).
_CARRIED_ON = ("too", "also", "as well", "again", "already", "done", "remaining", "left",
               "both", "these", "those", "whole", "entire", "total", "overall", "altogether",
               "later", "instead", "else")
# A part that is a purpose or an occasion said without a verb: "for the change log",
# "before the change window", "heads-up for the audit".
_PURPOSES = frozenset({"for", "before", "ahead", "heads-up", "fyi", "re", "regarding"})
_SUBJECTS = frozenset({"i", "we", "it", "they", "this"})
# Verbs (auxiliaries, modals, "need") that make a part a clause of its own.
_VERBS_OF_A_CLAUSE = frozenset({"am", "need", "needs", "needed", "would", "will", "can", "could",
                                "should", "must", "may", "might", "wants", "want"})
_LONGEST_PURPOSE = 6
# Nouns that name what happened, said as the occasion ("Power alarm on X - ...", "LOS on P;
# ...", "Controller failover on D - ...").
_EVENTS_NAMED = frozenset({
    "alarm", "alarms", "alert", "alerts", "event", "events", "outage", "outages", "incident",
    "fault", "faults", "failure", "failures", "failover", "flap", "flaps", "flapping",
    "los", "congestion", "errors", "degradation", "page", "crash", "reboot", "brownout"})
# Nouns that name an occasion, said last in a part of their own after words of the occasion
# ("- budget review", "- audit query", "Board deck.", "- contract renewal prep").
_OCCASION_HEADS = frozenset({
    "review", "query", "request", "prep", "preparation", "check", "audit", "exercise",
    "reconciliation", "report", "meeting", "call", "deck", "renewal", "planning", "sync",
    "standup", "escalation", "handover", "walkthrough", "presentation", "submission"})
_UNKNOWN = frozenset({"UNK"})
# Modals that say something is to be done (to a node the part names).
OBLIGING = frozenset({"should", "must", "shall", "ought"})
# What a word of the grammar may be as the last word of a part, after a word of the occasion:
# a noun ("the audit report", "the asset return", "the vendor call", "against the inventory").
_LAST_NOUNS = frozenset({*P.NOUN_VERBS, "RETURN", "CALL", "GRAPH"})
# Pronouns said as an object: a part with one says something done ("the quote covers it").
_OBJECTS = frozenset({"it", "them"})


def _clause(words: Sequence[Word]) -> bool:
    """Whether ``words`` say something of their own: a verb (an auxiliary, "need", a word in
    -ing or -ed) or a purpose or occasion ("for the ...", "before the ...")."""
    for i, (kind, text) in enumerate(words):
        if kind != "WORD":
            continue
        if i and words[i - 1][0] == "NAME":
            return True  # a node and what it did: "X died", "X lost its optic"
        if i and text in _OBJECTS:
            return True  # something done to it: "the vendor quote covers it"
        if (i == len(words) - 1 and text in _OCCASION_HEADS) or text in _EVENTS_NAMED:
            return True  # an occasion named: "budget review", "audit query", "board deck",
            # "power alarm on X", "fibre cut affecting X"
        if text in _PURPOSES or text in P.COPULAS or text in _VERBS_OF_A_CLAUSE \
                or (len(text) > 4 and text.endswith("ing")) or (len(text) > 3
                                                                 and text.endswith("ed")):
            return True
    return False


# Words said before the noun of a purpose or a heading: "for the uplinks", "re: my notes".
_BEFORE_A_NOUN = _PURPOSES | frozenset({"the", "a", "an", "this", "my", "our", "your", "their",
                                        "his", "her", "about", "on", "of", "in",
                                        "preparation"})
# Times of the day and the week: "For Monday:", "before lunch", "by EOD".
TIMES = frozenset({
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "lunch",
    "lunchtime", "noon", "midday", "midnight", "eod", "eow", "cob", "tomorrow", "tonight",
    "today", "morning", "afternoon", "evening"}) | {
        word for word in P.WHEN if word[:1].isdigit()}  # "2am", "10pm"
# What a phrase set apart names when it names the occasion, not nodes ("For the audit.", "Q3
# deck:", "User request:", "Re: spine inventory", "For my notes."); any other noun may name
# nodes ("Uplinks:", "East side:", "For the uplinks."). Documents and their parts:
_DOCUMENTS = frozenset({
    "ticket", "tickets", "question", "questions", "note", "notes", "notebook", "doc", "docs",
    "document", "documentation", "sheet", "spreadsheet", "tab", "column", "columns", "slide",
    "slides", "wiki", "runbook", "handbook", "log", "changelog", "record", "records", "register",
    "inventory", "list", "lists", "case", "cr", "rfc", "memo", "folder", "file", "evidence",
    "finding", "findings", "forecast", "forecasts", "budget", "quote", "invoice", "order",
    "contract", "proposal", "design", "diagram", "plan", "plans", "model", "schedule",
    "assessment", "analysis", "comparison", "study", "summary", "estimate", "baseline",
    "section", "chapter", "trail", "benchmark", "calculation", "workbook", "checklist",
    "timeline", "writeup", "write-up", "pr", "issue", "issues", "script", "scripts", "pack",
    "shortlist", "notice", "announcement", "bulletin", "digest", "minutes", "agenda", "thread",
    "reply", "message", "answer", "hint", "solution", "reference", "info", "context", "tl",
    "dr", "tldr"})
# Work, projects and their steps:
_WORK = frozenset({
    "task", "tasks", "follow-up", "followup", "update", "updates", "change", "changes", "ask",
    "asks", "job", "work", "project", "migration", "maintenance", "window", "upgrade",
    "rollout", "refresh", "decom", "decommission", "retro", "postmortem", "onboarding",
    "training", "homework", "assignment", "course", "class", "control", "controls",
    "compliance", "sequence", "true-up", "write-off", "action", "actions", "goal", "goals",
    "objective", "objectives", "requirement", "requirements", "expansion", "consolidation",
    "rebalance", "programme", "program", "repro", "handoff", "handover", "prioritisation",
    "prioritization", "uplift", "survey", "rebuild", "build", "retrofit", "overhaul",
    "redesign", "audit", "rework", "cleanup", "clean-up", "tracking", "bookkeeping", "step",
    "steps", "purpose", "purposes", "thing", "things", "bridge", "sample", "deadline", "due",
    "eta", "stand-up", "huddle", "cutoff", "cut-off", "sprint", "scrum", "cab", "wise"})
# Fields of a form, a case, a commit or a test's output:
_FIELDS = frozenset({
    "expected", "output", "result", "results", "deliverable", "returns", "target", "targets",
    "description", "details", "detail", "background", "justification", "reason", "rationale",
    "impact", "urgency", "priority", "category", "comment", "comments", "owner", "assignee",
    "requestor", "approver", "prod", "production", "live", "feat", "fix", "chore", "refactor",
    "perf", "ci", "motivation", "rollback", "scope", "symptom", "symptoms", "problem",
    "resolution", "status", "severity", "sev", "environment", "env", "site", "product",
    "service", "group", "queue", "component", "title", "fwd", "fw", "forwarded", "wrote",
    "date", "memo", "memorandum", "attn", "attention"})
# People and teams, and who is told:
_PEOPLE = frozenset({
    "team", "lead", "manager", "mentor", "boss", "customer", "client", "vendor", "caller",
    "user", "requester", "auditor", "auditors", "finance", "procurement", "management", "desk",
    "helpdesk", "noc", "support", "ops", "on-call", "oncall", "me", "us", "you", "everyone",
    "all", "colleague", "colleagues", "office", "here", "folks", "ic", "commander", "sre",
    "officer", "person", "starter", "joiner", "hire", "intern", "newbie", "planner", "analyst",
    "engineer", "admin", "operator", "architect"})
_DATED = DATE_NOUNS | TIMES  # what "last" or "this" may date: "last Tuesday", "this morning"
# Greetings, thanks, apologies and acknowledgements:
_COURTESIES = frozenset({
    "hi", "hello", "hey", "thanks", "thank", "cheers", "regards", "sorry", "apologies", "sure",
    "thx", "thnx", "thks", "tnx", "tx", "ty", "tysm",
    "faithfully", "sincerely", "truly", "wishes",  # a letter's closing: "Yours faithfully"
    "ok", "okay", "great", "yes", "yep", "yeah", "cool", "noted", "agreed", "understood",
    "absolutely", "certainly", "gladly", "perfect", "excellent", "roger", "ack",
    # radio procedure: "Copy?", "Over and out."
    "copy", "wilco", "over", "out", "execute", "affirmative", "acknowledge"})
OCCASION_NOUNS = _OCCASION_HEADS | _EVENTS_NAMED | DATE_NOUNS | (
    TIMES | {"now"} | _DOCUMENTS | _WORK | _FIELDS | _PEOPLE | _COURTESIES | P.FORMAT_WORDS
    | {label.split()[-1] for label in P.LABEL_WORDS if label != "network"}
) - REHEARSALS  # "Lab:", "Scenario:" may say the request is not meant for the graph
# What sets a phrase apart from the request around it.
APART = _BOUNDARIES | frozenset({",", "(", ")", "[", "]", ">"})
# Words of the grammar a phrase of nouns may hold: prepositions (and, before its last
# word, the modifiers a word of the occasion may have: "spine facing").
_KINDS_SAID = frozenset({"KIND", "KIND_PL"})  # "dark ports", "the uplink switches"
_NAMES = frozenset({"NAME"})  # a name without a dot names no node: "LR4 optics", "RJ45"
_IN_A_NOUN_PHRASE = frozenset({"OF", "IN", "TO", "BY", "KIND_SG", "UNK", "HELD"}) | _MODIFIERS
_CLAUSE_WORDS = _SUBJECTS | P.COPULAS | _VERBS_OF_A_CLAUSE | frozenset({
    "has", "have", "had", "do", "does", "did"})


def phrase_naming_nodes(words: Sequence[Word], lex: Callable[[int, int], Lexed]) -> str | None:
    """A phrase set apart in a request (by a sentence's end, a dash, a colon, a comma or
    brackets) that may say which nodes are meant, or None: words netmend does not know, with
    no verb and no word of the grammar but a preposition ("East side:", "Uplinks:", "... For
    the uplinks.", "(dark)", "- spares"). A request that reads or changes a set may then want
    only some of it. A phrase names no nodes when its last word names an occasion ("For the
    audit.", "Q3 deck:", "User request:") or someone (a ``PROPER`` word: "Thanks, Lucia",
    "For the CFO."), when it opens with thanks ("Thanks heaps", "Much obliged"), or when the
    lexer drops all of it (a greeting, thanks). A clause (a
    verb, a subject) is judged by :func:`is_context`. An ``OPENS`` word starts a phrase
    where a sentence's end was not written ("... on S For the uplinks")."""
    start = 0
    for end in [*(i for i, (kind, text) in enumerate(words) if text in APART
                  or kind == "OPENS"), len(words)]:
        first = begun = start
        opens = end < len(words) and words[end][0] == "OPENS"
        start = end + (not opens)
        if opens:
            continue  # what comes before the phrase it opens is not set apart
        while first < end and words[first][1] in _BEFORE_A_NOUN:
            first += 1
        if end - first > 1 and words[end - 1][1] in ("here", "there"):
            end -= 1  # "Uplinks here.": the place it is said in names no occasion
        said = words[first:end]
        if not said or said[-1][0] == "PROPER" or _thanks([text for _, text in said[:3]]) \
                or len(said) == 1 and _ENUMERATOR.fullmatch(said[0][1]) \
                or {said[-1][1], said[-1][1].rsplit("-", 1)[-1]} & OCCASION_NOUNS \
                or any(kind not in ("WORD", "PROPER") and not (kind == "NAME" and "." not in text)
                       for kind, text in said):
            continue
        lexed = lex(first, end)
        if not lexed or any(not (cats <= _IN_A_NOUN_PHRASE or cats == _NAMES and "." not in text)
                       for cats, text in lexed[:-1]) \
                or not (lexed[-1][0] <= _UNKNOWN_OR_HELD or lexed[-1][0] & _KINDS_SAID and any(
                    cats & _UNKNOWN_OR_HELD for cats, _ in lexed[:-1])):
            continue
        texts = [text for _, text in said]
        if texts[0] == "to" or any(text in _CLAUSE_WORDS for text in texts) or (
                first > begun and texts[-1].endswith("ing")):
            continue  # a purpose ("to prioritise upgrades"), a clause, an activity ("for the
            # re-cabling", "sorry for disturbing")
        if texts[-1].endswith(ACTIVITIES) or len(texts) > 1 and texts[-1] in _ASKED:
            continue  # "the port reallocation", "Pedro asked"
        verbs = [_participle(text) for text in texts]
        if not any(verbs) or verbs[0] and (len(texts) == 1 or texts[1] in _SAID_OF_NODES) \
                or verbs[-1] and not any(verbs[:-1]) and said[-2][0] != "PROPER" \
                and texts[-2] not in OCCASION_NOUNS:
            # "uplinks", "flagged by monitoring", "spine facing"; not "Anya asked"
            return " ".join(texts)
    return None


# Words that open thanks, whatever words of warmth follow ("Thanks heaps", "Cheers all"), and
# those that open it before a word of thanks ("Much obliged", "Ever so grateful").
_THANKS = frozenset({"thanks", "thank", "thx", "ty", "tysm", "cheers", "ta"})
_THANKS_BEFORE = frozenset({"many", "much", "ever", "so", "most"})
_THANKED = frozenset({"thanks", "obliged", "appreciated", "grateful"})


def _thanks(texts: list[str]) -> bool:
    """Whether a phrase set apart opens with thanks: "Thanks heaps", "Much obliged"."""
    lead = 0
    while lead < len(texts) and texts[lead] in _THANKS_BEFORE:
        lead += 1
    return lead < len(texts) and (texts[lead] in _THANKS or lead and texts[lead] in _THANKED)
# Nouns of a process (what is done, never which nodes): "reallocation", "deployment".
ACTIVITIES = ("ation", "ment", "ance")  # nouns of doing: "reconciliation", "amendment"
# What someone did to bring the request: "Pedro asked", "the controller team requested".
_ASKED = frozenset({"asked", "requested", "wanted", "needed", "said", "mentioned", "suggested",
                    "confirmed", "approved", "raised", "wrote"})


def _participle(word: str) -> bool:
    return len(word) > 4 and word.endswith(("ing", "ed"))


# An item's number in a list: "(ii) rank ...", "b) count ...".
_ENUMERATOR = re.compile(r"[ivx]{1,4}|[a-h]")
# What may follow a participle said of nodes: "flagged by monitoring", "marked down".
_SAID_OF_NODES = frozenset({"by", "down", "up", "out", "off", "as", "ones"})


# A story told before a request: someone and what they did, in the past ("we had an outage
# last Tuesday", "my manager came by yesterday", "the vendor finally delivered the chassis").
_NARRATORS = frozenset({"i", "we", "they", "he", "she", "someone", "somebody"})
_NARRATORS_NOUN_AFTER = frozenset({"my", "our", "the", "his", "her", "their"})
_PAST = frozenset({
    "had", "was", "were", "got", "came", "went", "spent", "found", "made", "took", "gave",
    "told", "said", "did", "saw", "ran", "lit", "left", "kept", "sent", "met", "built", "bought",
    "caught", "felt", "heard", "knew", "lost", "sat", "slept", "stood", "thought", "woke",
    "wrote", "began", "became", "chose", "drove", "fell", "forgot", "hung", "rang", "spoke",
    "threw", "understood", "brought", "swung", "dug", "fought", "taught", "wound"})
_NARRATIVE_ADVERBS = frozenset({"finally", "eventually", "just", "already", "actually",
                                "suddenly", "literally", "basically", "first"})
# Words that date what a story tells ("during the outage", "until late yesterday", "while
# moving racks", "overnight", "last Tuesday"): in a part told in the past they date it, not
# the request (which netmend does now).
_STORY_DATES = frozenset({"last", "during", "until", "till", "while", "overnight", "earlier",
                          "ago", "after", "before", "this"})


_LONGEST_OPENING = 4  # words before the one telling: "So after the outage we ..."


def _told(words: Sequence[Word]) -> frozenset[str]:
    """The verbs a part tells what happened with: someone ("we", "my manager", "the
    vendor"), near its start, and then, at most after an adverb, a verb in the past tense
    ("had", "came", "asked", "finished"); none when the part tells no story."""
    texts = [text for kind, text in words if kind == "WORD"]
    told = set()
    for i, text in enumerate(texts[:_LONGEST_OPENING + 1]):
        if text in _NARRATORS:
            verbs = (i + 1,)
        elif text in _NARRATORS_NOUN_AFTER:
            verbs = (i + 2, i + 3)  # "my manager came", "the provisioning job failed"
        else:
            continue
        for at in verbs:
            while at < len(texts) and texts[at] in _NARRATIVE_ADVERBS:
                at += 1
            if at < len(texts) and (texts[at] in _PAST or len(texts[at]) > 4
                                    and texts[at].endswith("ed")):
                told.add(texts[at])
    return frozenset(told)


def is_context(words: Sequence[Word], lexed: Lexed, aside: bool = False,
               names: frozenset[str] = frozenset()) -> bool:
    """Whether a part of a request (its ``words`` and their lexemes) only says why or for
    what occasion the request is made (see the module's docstring). ``aside``: the part is
    in brackets, which set it apart as a clause would, so it need not be one. ``names``: node
    names the part may say (the request says them too), each with its kind next to it."""
    if not words or any(kind not in ("WORD", "POSS") and (kind, text) != ("PUNCT", ",")
                        and not (kind == "NAME" and text in names) for kind, text in words):
        return False  # a name, a number, an entity kind, a bracket
    last = next((text for kind, text in reversed(words) if kind == "WORD"), "")
    if last in P.PLANNED:
        return False  # "..., Aisha scheduled (for the weekend)": the request's own status
    if words[0][1] in P.ASKING_MODALS or words[0][1] in P.PLANNED or any(
            kind == "NAME" for kind, _ in words) and any(text in OBLIGING for _, text in words):
        return False  # it asks for something: "could X be power-cycled, after which ...",
        # "X should be power-cycled, then ..."
    told = _told(words)
    narrated = bool(told)
    dates = (_PAST_DATES if any(kind == "NAME" for kind, _ in words) else _DATES) | (
        _STORY_DATES if narrated else frozenset())
    said = " ".join(text for _, text in words)
    if any(word in CARRIES or text in P.NUMBER_WORDS
           for i, (_, text) in enumerate(lexed) if text not in dates and not (
               narrated and text == "all" and lexed[i + 1:i + 2] and lexed[i + 1][1] in _DATED)
           for word in (text, *text.split())) or any(
            f" {word} " in f" {said} " for word in _CARRIED_ON):
        return False
    if not lexed:
        return True  # only greetings and thanks ("Hi -", "Thanks.")
    if len(words) < 2 or not (aside or narrated or _clause(words)):
        return False
    own = 0
    for i, (cats, text) in enumerate(lexed):
        following = lexed[i + 1][0] if i + 1 < len(lexed) else frozenset()
        if "NAME" in cats or "KIND_SG" in cats and ("NAME" in following or i and "NAME" in
                                                     lexed[i - 1][0]):
            continue  # a node the request names too ("the linecard on switch X failed")
        if "CRIT" in cats:
            if text in _EVENTS and i and lexed[i - 1][0] & {"UNK", "NAME", "AUX", "BE"} \
                    and not following & {"UNK", "KIND"}:
                continue  # "the linecard failed on X", "X is down"
            if text in dates or (text in ("last", "this") and following & {"UNK", "HELD"}
                                  and lexed[i + 1][1] in _DATED):
                continue  # "last month", "this week", "this morning"
            if text in _PARTICLES and i > 1 - narrated and (narrated or lexed[i - 1][0] & {"UNK", "HELD"}
                    and lexed[i - 1][1].endswith(("ing", "ed"))
                    and (lexed[i - 2][0] & {"AUX", "BE"} or lexed[i - 2][1] in _SUBJECTS)) \
                    and not following & {"KIND", "NAME", "NUM", "RATE"}:
                continue  # a particle of a verb said of someone: "we're tidying up", "we
                # have drawn up"; never of a set ("the ports - flagged down")
            return False
        if cats & {"UNK", "HELD"}:
            own += "UNK" in cats
            continue
        if "UNK" in following and (cats & _MODIFIERS or cats <= P.NOUN_VERBS and i
                                   and lexed[i - 1][0] & _BEFORE_NOUN
                                   and lexed[i - 1][1] != "am"):
            continue  # "spine maintenance", "for the upgrade plan", "choosing upgrade
            # candidates": a word of the grammar that says which maintenance, plan, candidates
        if cats <= _READ_VERBS and text.endswith("ing") and (following & {"UNK", "IT"} or (
                "OF" in following and i + 2 < len(lexed) and "UNK" in lexed[i + 2][0])):
            continue  # "I'm checking hardware", "we're checking for bottlenecks", "we're
            # checking it against the invoice"
        if cats <= _READ_VERBS and i and "TO" in lexed[i - 1][0] and "UNK" in following:
            continue  # "remote hands want to check labels": a purpose of their own
        if i == len(lexed) - 1 and i and cats <= _LAST_NOUNS and "UNK" in lexed[i - 1][0]:
            continue  # "... for the audit report", "for the annual asset return", "for the
            # vendor call", "against the inventory": the last word of a compound noun, or a
            # word of the occasion
        if "LISTED" in cats and (aside and not i or i and lexed[i - 1][0] & {
                "AUX", "BE", "UNK"}):
            continue  # a participle of reading, said of the occasion: "it has been identified
            # as redundant", "(as) provided for in the budget", "legal confirmed the contract
            # has ended"
        if "AUX" in cats and ("AUX" in following or "UNK" in following and i + 1 < len(lexed)
                              and lexed[i + 1][1].endswith("ed")):
            continue  # "has been", "had been", "has ended"
        if narrated and (text in _PAST or text in told or text in dates) \
                and not cats & _NOT_FOR:
            continue  # what happened: "we had an outage", "I got paged", "my lead asked"
        if narrated and cats & (_KINDS_SAID | {"NEW"}) and not cats & _NOT_FOR - _KINDS_SAID - {
                "NEW"}:
            continue  # "we racked a replacement chassis": the story's, and the caller
            # makes no change to a set after it (a kind may say which nodes of it)
        if not cats <= _GLUE:
            return False
    return own >= 1 or aside and _clause(words)  # set apart, a clause need not have a word
    # of its own ("..., as this figure is required")


# What a story may say that a part of context may not, before a request about named nodes
# only: amounts ("some packet loss", "half the night"), particles ("ended up"), faults ("the
# job failed"), and words of its own time.
_STORY_WORDS = frozenset({"some", "several", "few", "a few", "many", "most of", "dozen",
                          "majority", "rest", "others", "up", "down", "off"})
# What a story may not say: words that carry a request on or make it hang on something.
_STORY_CARRIES = frozenset({"also", "too", "again", "same", "instead", "likewise", "similarly",
                            "otherwise", "else", "elsewhere", "everywhere", "if", "unless",
                            "once", "when", "whenever", "whether", "as well"})
# Words of a change: a story that tells one ("we added a port") may say what the graph holds.
_CHANGE_CATS = frozenset({"ADD", "ADDED", "REMOVE", "TAKE", "SET", "SETP", "REMOVAL",
                          "ADDITION", "MAKE"})


def is_story(words: Sequence[Word], lexed: Lexed, names: frozenset[str]) -> bool:
    """Whether a part only tells what happened (:func:`_told`), in words that cannot change
    a request about named nodes: no node but ``names`` (the request's), no change told, and
    no word that may say how, whether or when the request applies (``P.CRITICAL``, but for
    the story's own dates, amounts, particles and faults) or carry it on ("also", "once").
    Only a request whose steps are all about named nodes may be read without such a part:
    its kinds, numbers and questions may still say which nodes of a set are meant."""
    told = _told(words)
    if not told or any(kind == "NAME" and text not in names or kind == "PUNCT" and text not in (
            ",", "-", "--") for kind, text in words):
        return False
    said = " ".join(text for _, text in words)
    if any(f" {word} " in f" {said} " for word in _STORY_CARRIES):
        return False
    allowed = _STORY_DATES | _DATES | _STORY_WORDS | FAULTS | _EVENTS
    return not any(cats & _CHANGE_CATS or text in REHEARSALS or (
        "CRIT" in cats or text in P.HEDGES) and text not in allowed and text not in told
        for cats, text in lexed)


# What a note on the hardware's state calls it: "bad optic", "box is dead", "optic's toast".
# ("down" is not one: "shut down" would read as a state.)
FAULTS = frozenset({"dead", "bad", "faulty", "broken", "failed", "failing", "flaky", "toast",
                    "cooked", "busted", "fried", "degraded", "flapping", "dying", "died",
                    "borked", "fubar", "kaput"})
_NOTE_ARTICLES = frozenset({"the", "both", "its", "their", "this", "that"})
_NOTE_BE = frozenset({"is", "are", "was", "were", "'s"})


def is_note(words: Sequence[Word], lexed: Lexed) -> bool:
    """Whether a part said after or before a request only notes a fault of its hardware, in
    one of two shapes: a fault and what has it ("bad optic", "dead links"), or what has it and
    the fault ("optic's dead", "box is toast", "both optics dead"). What has it is one or two
    words the grammar does not know or a kind ("box", "optic", "linecard"). Nothing else:
    no name, number, verb or word that could say how or whether. Said of a set, such a note
    could pick some of it out: only requests about named nodes are read without one."""
    texts = [text for kind, text in words]
    if any(kind not in ("WORD", "POSS") for kind, _ in words):
        return False
    if texts and texts[0] in _NOTE_ARTICLES:
        texts = texts[1:]
    if not texts:
        return False
    nouns = {text for cats, text in lexed if cats <= _NOTE_NOUNS and text not in _NOT_THINGS}

    def things(said: list[str]) -> bool:
        return 1 <= len(said) <= 2 and all(text in nouns for text in said)

    if texts[0] in FAULTS:
        return things(texts[1:])
    if texts[-1] not in FAULTS:
        return False
    said = texts[:-1]
    if said and said[-1] in _NOTE_BE:
        said = said[:-1]
    return things(said)


_NOTE_NOUNS = frozenset({"UNK", "KIND", "KIND_SG", "KIND_PL"})
# Words that would take the request back, not name hardware: "dead wrong", "bad idea".
_NOT_THINGS = frozenset({"wrong", "idea", "mistake", "call", "move", "plan", "timing", "news",
                         "joke", "kidding", "nvm", "wait", "cancel", "stop", "hold", "later",
                         "instead", "again", "request", "ticket", "change"})


def _parts(words: Sequence[Word]) -> list[tuple[int, int]]:
    """Spans of ``words`` between boundaries (each span ends after its boundary)."""
    spans, start = [], 0
    for i, (kind, text) in enumerate(words):
        if kind in ("PUNCT", "WORD") and text in _BOUNDARIES:
            spans.append((start, i + 1))
            start = i + 1
    if start < len(words):
        spans.append((start, len(words)))
    return spans


def _bare(words: Sequence[Word], start: int, end: int) -> tuple[int, int]:
    """The span without the boundary that ends it."""
    while end > start and words[end - 1][1] in _BOUNDARIES:
        end -= 1
    return start, end


def asides(words: Sequence[Word], lex: Callable[[int, int], Lexed]) -> list[tuple[int, int]]:
    """Spans of bracketed asides that end a sentence and only say why ("remove X (dead PSU,
    RMA open)."), or that start the request ("[mitigating] pls add ..."), brackets included;
    a bracket that names or restricts anything stays."""
    found = []
    for close, word in enumerate(words):
        if word != ("PUNCT", ")"):
            continue
        opening = next((i for i in range(close - 1, -1, -1) if words[i][1] in "()"), None)
        if opening is None or words[opening] != ("PUNCT", "("):
            continue
        inner, lexed = words[opening + 1:close], lex(opening + 1, close)
        if opening == 0 and (len(inner) == len(lexed) == 1 and _plain(inner) and _unknown(lexed)
                             or is_context(inner, lexed, aside=True)):
            found.append((opening, close + 1))  # a tag the request starts with: "[mitigating]"
        elif opening and (close + 1 == len(words) or words[close + 1][1] in _BOUNDARIES) \
                and is_context(inner, lexed, aside=True):
            found.append((opening, close + 1))
    return found


_LONGEST_HEADING = 6


def heading(words: Sequence[Word], lex: Callable[[int, int], Lexed]) -> int | None:
    """Where a heading the request starts with ends, its colon included ("Quote prep: ...",
    "Coordinator here: ...", "Auditor question: ..."): a few words that name no node, number
    or kind and say nothing of how or whether (as a bracketed aside); None when there is none.
    Like an aside, it is set aside only from requests about named nodes."""
    colon = next((i for i, w in enumerate(words[:_LONGEST_HEADING + 1]) if w == ("PUNCT", ":")),
                 None)
    if not colon:
        return None
    inner, lexed = words[:colon], lex(0, colon)
    if _plain(inner) and (_unknown(lexed) or is_context(inner, lexed, aside=True)):
        return colon + 1
    return None


def _plain(words: Sequence[Word]) -> bool:
    """Only words, none of which could say how or whether the request applies ("test",
    "draft", "hypothetical", a negation)."""
    return all(kind == "WORD" and text not in CARRIES and text not in P.HEDGES
               for kind, text in words)


def _unknown(lexed: Lexed) -> bool:
    """Only words the grammar gives no meaning of its own ("quote prep", "mitigating"), none
    of a form that may carry one ("Conditionally:", "[optionally]": a manner or a mood)."""
    return all(cats <= _UNKNOWN_OR_HELD and not _MANNER.fullmatch(text) for cats, text in lexed)


_UNKNOWN_OR_HELD = frozenset({"UNK", "HELD"})
_MANNER = re.compile(P.MANNER_FORM)  # an adverb of manner or mood: "optionally", "ideally"


def request_span(words: Sequence[Word], lex: Callable[[int, int], Lexed],
                 names: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """Where the request is in ``words`` once the context said first and last is set
    aside; None when no part is context. ``lex(i, j)`` gives the lexemes of words i..j;
    ``names`` are node names the context may say (see :func:`is_context`)."""
    def context(start: int, end: int, aside: bool = False) -> bool:
        start, end = _bare(words, start, end)
        return end > start and is_context(words[start:end], lex(start, end), aside=aside,
                                          names=names)

    parts = _parts(words)
    first, last = 0, len(parts)
    while first < last - 1 and context(*parts[first]):
        first += 1
    while last - 1 > first and context(*parts[last - 1]):
        last -= 1
    start = parts[first][0] if first < len(parts) else 0
    end = parts[last - 1][1] if last else len(words)
    # a purpose said first with no comma: "for the licence audit I need ...", "ahead of the
    # migration we need ..."
    if words[start:start + 1] in ([("WORD", "for")], [("WORD", "ahead")]):
        for i in range(start + 2, min(start + _LONGEST_PURPOSE + 3, end)):
            if words[i] in (("WORD", "i"), ("WORD", "we")) and context(start, i):
                start = i
                break
    # a clause said first with a comma: "the linecard on X died, pull it out of the graph"
    if start == 0:
        comma = next((i for i in range(1, end) if words[i] == ("PUNCT", ",")), None)
        if comma is not None and context(0, comma):
            start = comma + 1
    # a cause said first: "since it died, take X out of the graph"
    if words[start:start + 1] and words[start] in _BECAUSE:
        comma = next((i for i in range(start + 1, end) if words[i] == ("PUNCT", ",")), None)
        if comma is not None and context(start + 1, comma):
            start = comma + 1
    # a reason said last after a comma, or a cause: "..., it was RMA'd yesterday", "...
    # because it died"
    for i in range(end - 2, start, -1):
        if words[i] in _BECAUSE and context(i + 1, end):
            end = i - (words[i - 1] == ("PUNCT", ","))
            break
        if words[i] == ("PUNCT", ",") and words[i + 1][0] == "WORD" \
                and words[i + 1][1] in _SUBJECTS and context(i + 1, end):
            end = i
            break
        # what the request is in accord with, said last: "..., as specified in the runbook",
        # "..., as this is required for the migration plan" (a clause of its own, or "as"
        # and a participle, which is one)
        if words[i:i + 2] == [("PUNCT", ","), ("WORD", "as")] \
                and _bare(words, i + 2, end)[1] - (i + 2) >= 2 and context(i + 2, end, True):
            end = i
            break
        # a participle of a word the grammar does not know, said last: "..., reflecting the
        # downgrade recorded in the audit"
        if words[i] == ("PUNCT", ",") and words[i + 1][0] == "WORD" \
                and len(words[i + 1][1]) > 4 and words[i + 1][1].endswith("ing") \
                and [cats for cats, _ in lex(i + 1, i + 2)] == [_UNKNOWN] and context(i + 1, end):
            end = i
            break
    # what the answer is for, said last: "... so we can confirm what remains", "... so that
    # the inventory matches the purchase order"
    bare = _bare(words, start, end)[1]
    for i in range(bare - 3, start, -1):
        if words[i] == ("WORD", "so") and _so_purpose(words[i + 1:bare], lex(i + 1, bare)):
            end = i - (words[i - 1] == ("PUNCT", ","))
            break
    if (start, end) == (0, len(words)):
        return None
    return start, end


# What a purpose said with "so" may not say: a change, a node, a number, a kind, a word that
# could change the request (``P.CRITICAL``).
_NOT_FOR = frozenset({"REMOVE", "TAKE", "REMOVAL", "ADD", "ADDITION", "SET", "SETP", "NEW",
                      "MAKE", "GIVE", "KIND", "NODE", "CHILD", "FOREACH", "EACHW", "PER",
                      "PERNODE"})


def _so_purpose(words: Sequence[Word], lexed: Lexed) -> bool:
    """Whether the words after a "so" say only what the answer is for: "that" and a clause, or
    a subject and a modal ("we can see which one is largest", "the next shift can verify");
    nothing the request could be about and no change."""
    texts = [text for _, text in words]
    if not texts or not (texts[0] == "that" or any(
            text in P.ASKING_MODALS and 0 < i <= 3 for i, text in enumerate(texts))):
        return False
    if any(kind != "WORD" for kind, _ in words) or any(
            text in P.CRITICAL for _, text in lexed) or any(
            f" {word} " in f" {' '.join(texts)} " for word in _CARRIED_ON):
        return False
    return not any(cats & _NOT_FOR and not _the_change(text, texts) for cats, text in lexed)


# A change named as a thing, by "the" or "this" before it ("so that the change can be
# verified", "so this update can be signed off"): the change the request itself asks for.
_CHANGE_NOUNS = frozenset({"change", "changes", "update", "updates", "removal", "removals",
                           "addition", "additions", "modification", "amendment", "deletion"})
_THE = frozenset({"the", "this", "that", "these", "those"})


def _the_change(text: str, texts: Sequence[str]) -> bool:
    return text in _CHANGE_NOUNS and any(
        said == text and i and texts[i - 1] in _THE for i, said in enumerate(texts))
