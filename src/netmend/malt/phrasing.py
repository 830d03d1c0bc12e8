"""How people say MALT requests: the lexicon and the grammar, as data.

The parser (:mod:`netmend.malt.parser`) reads a request in four steps, each
driven by a table here:

1. words and multi-word phrases become *categories* through :data:`LEXICON`
   (longest phrase first; a phrase may belong to several categories, e.g.
   "under" is a place and a comparison). :data:`FILLERS` are dropped; words
   in :data:`CRITICAL` (negation, exception, restriction, hedging, take-backs,
   positions, times) are never dropped and no rule accepts them, so a request
   using them is refused; an unknown word that may still carry meaning (a
   lone word of a known phrase, a shortening of one such as "asc", a manner
   adverb, a superlative, a direction, a negated word) is ``HELD``: never
   skipped, a name only after "named"; any other unknown word is ``UNK``;
   an unknown hyphenated word made of known words is read as those words;
2. a number followed by a unit from :data:`UNITS` becomes a rate;
3. :data:`GRAMMAR` is a small context-free grammar over the categories, whose
   nonterminals compose: a request is a sequence of clauses, a clause reuses
   node phrases, node sets, filters and metrics. Every parse is found; each
   rule names the builder that turns its parts into a frame;
4. an unknown word may be skipped only where the grammar has a ``gap``: after a
   clause's last word, never before its first (a word there can turn what
   follows into a condition: "before removing X, ..."), never inside a phrase,
   never in a clause that has no verb or question word, and never in predicate
   position: after an auxiliary, a copula, "have" or a relative ("which ports of
   S are flapping"), or where a read or a node set may end ("list the ports of S
   flapping"), since there it would restrict or qualify what is asked.

Adding a synonym is a lexicon edit; adding a sentence shape is a grammar
edit. The grammar notation: ``UPPER`` is a category, ``lower`` a
nonterminal, ``x:slot`` binds a part for the builder, ``[...]`` is optional,
``(a|b)`` chooses.
"""

from __future__ import annotations

from netmend.malt import kinds as K

# ---------------------------------------------------------------- lexicon

LEXICON: dict[str, frozenset[str]] = {}


def _say(categories: str, *phrases: str) -> None:
    for phrase in phrases:
        key = " ".join(phrase.lower().split())
        LEXICON[key] = LEXICON.get(key, frozenset()) | frozenset(categories.split())


# changes
_say("ADD", "drop in", "drop into", "commission", "commissioning", "incorporate", "incorporating", "hang", "nest", "add", "adding", "adds", "insert", "inserting", "create", "creating", "attach",
     "attaching", "append", "appending", "introduce", "put", "putting", "place", "placing",
     "plug in", "install", "installing", "provision", "provisioning", "hook up", "mount",
     "deploy", "deploying", "set up", "spin up", "stand up", "register", "include", "plug",
     "plug into", "bring", "bring in", "hook", "hook in", "wire", "wire up", "wire in", "stick",
     "slot", "slot in", "onboard", "roll out", "connect", "link up", "bolt on", "pop in",
     "hooking", "hooking up", "hooking in", "wiring", "wiring up", "wiring in", "bringing",
     "bringing in", "connecting", "sticking", "slotting", "slotting in", "onboarding",
     "rolling out", "standing up", "spinning up", "setting up", "plugging", "plugging in",
     "mounting", "registering", "including", "light up", "lighting up", "turn up",
     "turning up")
_say("REMOVE", "yeet", "yeeting")
_say("GONE", "yeeted")
_say("OUTOF", "outta")
_say("FROM", "outta")
_say("ASK", "lmk")
_say("REMOVE", "strike", "strike out", "striking", "excising", "remove", "removing", "delete", "deleting", "drop", "dropping", "erase",
     "erasing", "eliminate", "eliminating", "take out", "taking out", "take away", "get rid of",
     "getting rid of", "detach", "detaching", "decommission", "decommissioning", "unplug",
     "unplugging", "destroy", "destroying", "purge", "purging", "retire", "retiring", "discard",
     "discarding", "wipe", "wipe out", "nuke", "scrap", "tear down", "uninstall", "deprovision",
     "evict", "strip", "strip out", "cut", "pull", "knock out", "excise", "yank", "pull out",
     "rip out", "tear out", "disconnect", "disconnecting", "unhook", "unhooking", "do away with",
     "phase out", "unmount", "dismount", "dismantle", "unregister", "deregister", "axe", "ditch",
     "trash", "junk", "unlink", "offboard", "offboarding", "clear out", "cut out", "eject",
     "ejecting", "cull", "prune", "scrub out", "chop", "chop off", "expunge", "delist",
     "pulling", "pulling out", "yanking", "stripping", "stripping out", "ripping out", "taking away",
     "axing", "ditching", "unlinking", "tearing down", "tearing out", "phasing out", "culling")
_say("REMOVE", "rm", "del", "nuking", "binning", "chucking out")
_say("ASK", "checking", "computing", "calculating", "determining", "finding", "fetching",
     "retrieving", "looking up", "working out", "figuring out")
_say("GONE", "decommed", "decommd")
_say("TAKE", "taking", "take", "pull", "knock", "rip", "yank", "strip", "tear", "unplug", "unhook",
     "chuck")
# British slang: "chuck a new port on S" adds, "chuck X out of the graph" / "bin X" removes
_say("ADD", "chuck")
_say("REMOVE", "bin")
# "revert with": Indian English for "reply with" (never "undo" when "with" follows)
_say("ASK", "revert with", "please revert with", "kindly revert with", "tell", "may i know",
     "can i know", "could i know",
     # "say" for "tell", as speakers of Romance languages say it ("say me the capacity of P")
     "say me", "say us", "say to me", "say to us")
# "extract X from the graph": taken out of it
_say("REMOVE", "extract", "extracting")
# South Asian English: "share the ports of S" (tell), "what all" (which, all of them), "is
# having" (has), "are coming under A" (are under A), "I am wanting" (I want)
_say("ASK", "share", "pls share", "kindly share", "please share")
_say("WH", "what all", "which all")
_say("HAVE", "is having", "are having")
_say("BE", "coming")
_say("WANT", "i am wanting", "we are wanting", "i am needing", "we are needing",
     # "hereby I ask to remove X", as German and Dutch formal writing asks
     "hereby i ask to", "hereby i ask that", "hereby we ask to", "hereby we ask that",
     "i hereby ask to", "i ask to", "we ask to")
_say("THEN", "hereafter")
_say("OUT", "out")
# "take X away (from Y)", "strip X off Y": particles of a removal, meaningless elsewhere (no
# other rule accepts them, so "turn off X" or "power off X" is still refused).
_say("AWAY", "away")
_say("OFF", "off", "off of")
# "hook X up to S": the particle of an addition ("up" alone stays critical)
_say("UPTO", "up onto", "up into")
_say("SET", "revise", "modification", "a modification of", "adjustment", "an adjustment of",
     "an update to", "update to", "a change to", "amendment", "an amendment of", "re-rating", "rerating", "re-rate", "amend", "designate", "set", "setting", "update", "updating", "change", "changing", "modify", "modifying",
     "adjust", "adjusting", "reset", "increase", "increasing", "decrease", "decreasing", "raise",
     "raising", "lower", "lowering", "bump", "reduce", "reducing", "alter", "configure",
     "reconfigure", "upgrade", "upgrading", "downgrade", "downgrading", "edit", "assign",
     "boost", "cap", "throttle", "tune", "overwrite")
# "replace the capacity of P with 40G": the new value follows "with"
_say("REPLACE", "replace", "overwrite")
_say("MAKE", "make", "making", "turn")
_say("GIVE", "give", "giving", "equip", "fit", "furnish", "supply", "outfit", "extend", "expand",
     "augment", "provide", "kit out")
_say("GET", "get", "gets", "receive", "receives", "obtain", "obtains", "needs", "need",
     "requires", "require", "got", "received", "getting", "receiving", "could use", "can use",
     "could do with", "would benefit from")
# "a new port N goes under S": where a new node is to be placed, said as a statement
_say("GOES", "goes", "go", "belongs", "belong")
# "after the removal of X", "after X's removal", "after the addition of N to S"
_say("REMOVAL", "removal", "deletion", "decommissioning", "retirement", "elimination")
_say("ADDITION", "addition", "insertion", "installation", "creation", "provision",
    "provisioning", "introduction")
# "what happens to the port count of S if ..."
_say("HAPPEN", "happens to", "happen to", "would happen to", "becomes of", "would become of")
# "add ports A and B to S1 and S2 respectively": the nth of one list goes with the nth of another
_say("RESP", "respectively", "in that order", "in order")
_say("CALL", "call", "name it", "label")
# "S should lose port P": a removal said as what the parent should no longer have
_say("LOSE", "lose", "loses", "shed", "sheds")
# to be shown something, said as a wish: "I'd like to see the ports of S"
_say("ASK", "i would like to see", "i want to see", "we would like to see", "we want to see",
     "i need to see", "we need to see", "i wish to see", "i would love to see",
     "have a look at", "take a look at", "have a quick look at", "take a quick look at")
_say("ASK", "indicate", "produce", "state", "please state", "set out", "lay out", "establish", "gimme", "confirm", "advise", "advise me", "advise us", "furnish", "furnish me with", "furnish a list of", "ascertain", "ascertaining",
     "listing", "showing", "displaying", "enumerating", "reporting", "say", "read out",
     "read off", "read me out", "read us out", "read me off", "send me", "send us",
     "write down", "write out", "note down", "read back", "read me back", "read us back",
     "look at", "we look at", "let us look at",
     "send over", "send across", "send me over", "sending me", "sending over",
     "pull together", "put together",
     "list", "ls", "list out", "give the list of", "give a list of", "give the names of", "let me see", "let us see", "show", "show me", "display", "enumerate", "print", "give me", "share",
     "tell me", "teach me", "let me know", "get me", "find", "find me", "fetch", "retrieve",
     "report",
     "compute", "calculate", "determine", "work out", "figure out", "look up", "pull up",
     "identify", "name", "output", "find out", "provide", "select", "pick", "pick out", "choose", "see", "view", "know", "check", "return me",
     "dump", "lookup", "query", "read", "reveal", "get", "telling", "telling me",
     "letting me know", "letting us know", "let us know", "tell us", "give us", "get us")
_say("COUNT", "count", "cnt", "counting", "tally", "tally up", "count up", "enumerate how many")
_say("RANK", "rank", "ranking", "ranked", "sort", "sorting", "sorted", "order", "ordering",
     "ordered", "arrange", "arranged", "rate", "rated", "organize", "organise", "list sorted",
     "listed")
_say("SUMV", "sum", "sum up", "add up", "total up", "adding up", "summing", "summing up", "tot up",
     "tally up", "totalling", "totaling", "total", "tally", "aggregate", "sum over", "add together")
_say("FOREACH", "iterate over", "iterate over each", "iterate over all", "go through",
     "go through each", "go through every", "go through all", "loop over", "loop over each",
     "loop through", "loop through each", "for each of the", "foreach", "for each", "for every", "for all", "for each and every", "for each single",
     "for every single")
_say("RETURN", "return", "give back", "give me back", "give us back", "hand back",
     "hand me back", "send back", "send me back", "respond with", "reply with", "answer with",
     "returning", "handing back", "handing me back", "sending back", "sending me back",
     "giving back", "giving me back",
     "answer as", "answer in", "reply as", "respond as",
     *(f"{verb} {whose} answer as" for verb in ("show", "give", "write", "present", "express",
                                                "state", "provide", "submit")
       for whose in ("your", "the")), "as a node name", "as the node name", "as text", "as a text", "as plain text", "as a number", "as a count", "as a list",
     "as a graph", "in text form", "as an integer")
# The graph asked for after a change, said as a read of it: "... and give me the updated graph",
# "..., then show the resulting topology", "... and get the graph back". Only the whole graph:
# a read of anything in it ("show me the network's switches") is a question, not a Return, so
# such a phrase is a Return only when nothing but punctuation or politeness follows it.
for _verb in ("give me", "give us", "show me", "show us", "show", "send me", "send us", "send",
              "share", "output", "provide", "get me", "hand me", "hand over", "display", "dump",
              "print", "let me see", "get", "fetch", "produce", "pass me", "pass back",
              "pass me back", "hand me back", "give me back", "send me back", "hand in",
              "submit", "turn in"):
    for _adjective in ("", "updated ", "new ", "resulting ", "modified ", "final ", "changed ",
                       "whole ", "full ", "entire ", "complete ", "whole updated ",
                       "full updated "):
        for _noun in ("graph", "topology", "network", "network graph", "topology graph"):
            _say("RETURN WHOLE_GRAPH", f"{_verb} the {_adjective}{_noun}",
                 f"{_verb} an {_adjective}{_noun}" if _adjective[:1] in "aeiou" and _adjective
                 else f"{_verb} a {_adjective}{_noun}")
            _say("RETURN WHOLE_GRAPH", f"get the {_adjective}{_noun} back",
                 f"get back the {_adjective}{_noun}",
                 *(f"{_giver} the {_adjective}{_noun} back" for _giver in (
                     "give me", "send me", "hand me", "pass me", "give us", "send us",
                     "i need", "we need", "i want", "we want", "i would like",
                     "we would like", "need", "want")))
            _say("RETURN WHOLE_GRAPH", *(f"{_whose} {_answer} should be {_a} {_adjective}{_noun}"
                                         for _whose in ("your", "the")
                                         for _answer in ("answer", "result", "output")
                                         for _a in ("a", "an", "the")))
            for _passive in ("should be returned", "is returned", "must be returned",
                             "needs to be returned", "gets returned", "is to be returned",
                             "returned", "to be returned"):
                _say("RETURN WHOLE_GRAPH", f"the {_adjective}{_noun} {_passive}")
            _say("RETURN WHOLE_GRAPH", f"returning the {_adjective}{_noun}",
                 f"and return the {_adjective}{_noun}")

# questions
_say("WH", "what", "which", "whichever", "which one", "what one", "who is", "who are")
_say("HOWMANY", "how many", "how many of", "what number of", "count how many", "tell me how many", "show me how many",
     "find out how many", "work out how many", "figure out how many", "calculate how many",
     "determine how many", "let me know how many", "i want to know how many",
     "i would like to know how many")
_say("HOWMUCH", "how much")
# "how would the children of A rank by capacity if ...": "how" alone, only before a ranking
_say("HOWQ", "how")
_say("HOWFAST", "how fast", "how quick", "how big", "how large", "how wide")
_say("AUX", "is", "are", "was", "were", "be", "been", "being", "does", "do", "did", "can",
     "could", "will", "would", "should", "must", "may", "shall", "has", "have", "had",
     "needs to", "need to", "has to", "have to", "is going to", "are going to", "is to",
     "are to", "ought to")
# Categories of the verbs of a request that are also nouns ("report", "check", "change",
# "upgrade"): after a word of no category they head a noun ("the audit report").
NOUN_VERBS: frozenset[str] = frozenset({"SET", "ASK"})
# Words that make "X should be 40 Gbps" a wish (a change), not a statement or a question.
_say("MODAL", "should", "must", "shall", "needs to", "need to", "has to", "have to", "is to",
     "are to", "ought to")
# "First ..., then ...": only a request's first word may say it comes first.
_say("FIRST", "first", "firstly", "first of all", "to begin with", "to start with", "to start")
_say("BE", "present", "sit", "sits", "sitting", "live", "lives", "living", "reside", "resides", "residing",
     "exist", "exists", "existing", "remain", "remains", "remaining", "lie", "lies", "fall",
     "falls", "hangs", "located", "situated", "found", "are located", "is located",
     "stay", "stays", "run", "runs", "contained", "housed", "held", "hosted", "nested", "kept",
     "sat",
     "stored", "included")
_say("HAVE", "have", "has", "contain", "contains", "hold", "holds", "include", "includes",
     "host", "hosts", "house", "houses", "carry", "carries", "own", "owns", "comprise",
     "comprises", "feature", "features", "got", "keeps track of", "left with", "offer", "offers",
     "provide", "provides", "expose", "exposes", "support", "supports", "sport", "sports", "pack",
     "packs", "equipped with", "fitted with", "furnished with", "outfitted with", "is equipped with",
     "are equipped with", "possess", "possesses")
_say("OUTOF", "out of")  # "with X out of the graph"
_say("HAS", "has")  # the singular alone: "which ports has S?" (the node is the subject)
# "how many switches does A end up with" (only there: "ends up with" is not "contains")
_say("ENDUP", "end up with", "ends up with", "end up having")
_say("TOTALW", "total", "overall")
_say("HOLDING", "containing", "holding", "housing", "hosting", "including", "carrying",
     "owning", "comprising", "that contains", "that contain", "which contains", "which contain",
     "that holds", "that hold", "which holds", "which hold", "that houses", "that has",
     "which has", "that includes")
_say("CONSIST", "consist of", "consists of", "made up of", "made of", "composed of",
     "comprised of", "built from", "formed of", "formed from")
_say("RUNAT", "provisioned with", "run at", "runs at", "operate at", "operates at", "work at", "works at",
     "running at", "rated at", "configured at", "configured with", "clocked at",
     "provisioned at", "provisioned for", "rated for", "specced at")
# "I'd like X removed and the ports of S counted": a read said as a participle, like a change
_say("COUNTED", "counted", "tallied", "totalled", "totaled", "counted up")
_say("LISTED", "listed out", "stated", "established", "confirmed", "provided", "listed", "shown", "displayed", "enumerated", "reported", "computed", "calculated",
     "identified", "determined", "worked out", "looked up", "retrieved", "produced",
     "generated", "supplied", "furnished", "compiled", "prepared")

# nouns
_say("CHILD", "children", "childs", "child", "child node names", "child names", "child node name",
     "children's names", "names of the children", "names of the child nodes", "child nodes", "child node", "child entities", "child entity",
     "child elements", "child element", "members", "member", "contents", "content", "subnodes",
     "sub-nodes", "sub nodes", "subordinates", "offspring", "kids", "sub-elements",
     "subcomponents", "sub-components", "immediate members", "immediate contents")
_say("NODE", "node", "nodes", "entity", "entities", "element", "elements", "device", "devices",
     "item", "items", "object", "objects", "thing", "things", "component", "components",
     "vertex", "vertices")
_say("DESC", "descendants", "descendant nodes", "descendant", "all descendants")
_say("EVERYTHING", "everything", "anything", "all nodes")
_say("PARENT", "parent", "parents", "parent node", "parent nodes", "container", "containers",
     "owner", "owners", "direct parent", "immediate parent", "direct container",
     "parent entity", "enclosing node")
_say("ANCESTOR", "ancestors", "ancestor", "ancestor nodes", "all ancestors")
# what a node can carry, said in everyday words: "ranked by how much they can carry"
_say("CAP", *(f"how much {who} can carry" for who in ("it", "they", "each", "each one",
                                                      "each of them")))
_say("CAP", "rated capacity", "nominal capacity", "configured capacity", "provisioned capacity",
     "rated speed", "rated bandwidth", "nominal speed")
_say("CAP", "capacity figure", "capacity figures", "caps", "phys cap", "phys capacity", "phys. capacity", "capacity", "capacities", "cap", "bw", "b/w", "bandwidth", "bandwidths", "physical capacity",
     "physical capacities", "physical_capacity_bps", "physical capacity bps",
     "physical_capacity_bps attribute", "speed", "speeds", "link speed", "link speeds",
     "line rate", "throughput", "capacity value", "capacity values", "physical capacity value",
     "physical capacity values", "capacity attribute")
_say("NUMBER", "num", "number", "count", "cnt", "counts", "total number", "amount", "quantity", "tally", "total count",
     "overall number", "overall count")
_say("NAME_N", "name", "names", "id", "identifier")
_say("GRAPH", "model", "topology model", "network model", "lab model")
_say("GRAPH", "graph", "topology", "topo", "network", "datacenter", "data center", "dc",
     "whole graph", "entire graph", "whole topology", "entire topology", "whole network",
     "entire network", "model", "inventory", "the fabric", "data centre", "datacentre",
     "topology graph", "network graph", "network topology", "graph of the network",
     "full graph", "complete graph", "full topology", "complete topology", "full network",
     "complete network", "whole fabric", "entire fabric", "network model", "topology model",
     "whole network graph", "entire network graph", "whole network model",
     "entire network model")
# "the superblock above switch S": the node of a kind that holds it
_say("ABOVE", "above", "sits above", "sitting above", "sit above", "directly above")
_say("PLUSEQ", "+ =", "+=")
# where nodes hang: "which nodes hang (directly) off D" ("hang" alone adds: "hang a port off S")
_say("IN", "hang off", "hangs off", "hanging off", "hang directly off", "hangs directly off",
     "hanging directly off", "hang right off", "hangs right off")
_say("CALLED", "its name is", "its name should be", "its name will be", "with names",
     "with the names", "having the names", "named as", "to be named", "to be called", "which is to be named", "designated", "designated as", "named", "called", "with name", "with the name", "by the name", "by the name of",
     "labelled", "labeled", "titled", "with the name of", "name of", "having the name",
     "whose name is", "known as", "his name is", "her name is",
     # as a translation tool writes it: "the new port which name is N", "the name of which is"
     "which name is", "the name of which is", "that has the name", "which has the name",
     "which names are", "whose names are", "the names of which are")

# modifiers
_say("ALL", "all", "every", "each", "any", "all of", "each of", "every one of", "each one of",
     "all the", "every single", "each and every", "all of the")
# One by one: "how many ports does each switch have" asks one answer per switch ("every" may
# be all of them together: "count the ports of every switch in A").
_say("EACHW", "each", "each of", "each one of", "each and every", "each single")
_say("DIRECT", "straight", "direct", "directly", "immediate", "immediately", "first-level", "top-level",
     "right", "just below",
     *(f"{exactly}one level {below}" for exactly in ("", "exactly ", "just ", "only ")
       for below in ("down", "below", "under", "beneath", "underneath", "inside", "down from",
                     "down in", "within")))
_say("DEEP", "at any level of the hierarchy", "at any depth of the hierarchy",
     "across all its switches", "across all of its switches", "on all its switches",
     "over all its switches", "in all its switches", "all levels", "recursive", "any depth", "at any depth below it", "at all depths", "counting all levels", "including all levels",
     "across all levels", "on all levels", "through all levels", "at any depth", "at any level", "at every level", "at all levels", "recursively",
     "transitively", "indirectly", "all the way down", "at any depth below", "anywhere", "somewhere",
     "all levels down", "every level down", "across its switches", "across all its switches",
     "in the subtree", "at whatever depth", "directly or indirectly", "all depths",
     "every depth", "at every depth", "whatever level", "at whatever level",
     "whatever level it is at", "whatever level it is on", "whatever switch it is on",
     "whichever switch it is on", "on all of its switches", "across all its agg blocks and switches",
     "across all of its agg blocks and switches", "on every switch", "however deep",
     "however deep they are", "however deeply nested", "no matter how deep",
     "no matter how deeply nested", "whatever the depth", "regardless of depth",
     "all levels included", "every level included", "all depths included",
     *(f"including {those} {on} {every}its {below}" for those in ("those", "the ones")
       for on in ("on", "in", "under", "below") for every in ("", "all ", "all of ")
       for below in ("switches", "agg blocks", "aggregation blocks")),
     *(f"including {those} {on} every {below} {inside} it" for those in ("those", "the ones")
       for on in ("on", "in", "under") for below in ("switch", "agg block")
       for inside in ("inside", "in", "under", "below")),
     *(f"{every} {below} included" for every in ("every", "all", "all its", "all of its",
                                                 "each")
       for below in ("switch", "switches", "agg block", "agg blocks")),
     *(f"at whatever depth they {sit}" for sit in ("sit", "are", "live", "may be", "are at")))
# A direct read said again with "only": "(direct only)", "children only, one level".
_say("DIRECT", "direct only", "directly only", "one level only", "one level down only",
     "immediate only", "only one level", "only one level down")
_say("TOP", "top")
_say("BOTTOM", "bottom")
_say("MOST", "most", "highest", "largest", "biggest", "greatest", "maximum", "max", "maximal",
     "the most", "top", "peak", "largest number of", "greatest number of", "highest number of")
_say("ALL", "the totality of", "totality of")  # (French "la totalité des ports")
_say("LEAST", "least", "fewest", "lowest", "smallest", "minimum", "min", "minimal", "the least",
     "the fewest", "smallest number of", "lowest number of", "bottom")
_say("FASTEST", "fastest", "quickest", "highest-capacity")
_say("SLOWEST", "slowest", "lowest-capacity")
_say("SUM", "total", "sum", "combined", "aggregate", "aggregated", "cumulative", "summed",
     "sum of", "sum total", "the sum of", "overall", "added up", "collective", "together",
     "in combination", "jointly", "between them", "collectively")
_say("AVG", "average", "mean", "avg", "on average", "averaged", "arithmetic mean")
_say("ORDER_DESC", "descending", "decreasing", "in descending order", "in decreasing order",
     "in the descending order", "in the decreasing order",
     "descending order", "decreasing order", "highest first", "largest first", "biggest first",
     "greatest first", "most first", "from highest to lowest", "from largest to smallest",
     "from biggest to smallest", "from high to low", "high to low", "highest to lowest",
     "largest to smallest", "from most to least", "most to least", "biggest to smallest",
     "in descending order of", "descendingly", "top down", "from the highest to the lowest",
     "from the largest to the smallest", "big to small", "from big to small", "fastest first",
     "from fastest to slowest", "best first", "in order from highest to lowest",
     "from highest down", "from the highest down", "highest down", "from the top down",
     "from largest down", "from the largest down", "largest down", "from biggest down",
     "from the biggest down", "biggest down", "from most down",
     # the comparative, as many Englishes say it: "higher first", "from bigger to smaller"
     "higher first", "bigger first", "larger first", "greater first", "higher to lower",
     "from higher to lower", "bigger to smaller", "from bigger to smaller", "larger to smaller",
     "from larger to smaller")
_say("ORDER_ASC", "ascending", "increasing", "in ascending order", "in increasing order",
     "in the ascending order", "in the increasing order", "in order ascendant",
     "in ascendant order", "ascendant order", "ascendant",
     "ascending order", "increasing order", "lowest first", "smallest first", "least first",
     "fewest first", "from lowest to highest", "from smallest to largest", "from low to high",
     "low to high", "lowest to highest", "smallest to largest", "from least to most",
     "least to most", "smallest to biggest", "from smallest to biggest", "ascendingly",
     "bottom up", "from the lowest to the highest", "from the smallest to the largest",
     "small to big", "from small to big", "slowest first", "from slowest to fastest",
     "in order from lowest to highest", "in ascending order of", "in increasing order of",
     "from lowest up", "from the lowest up", "lowest up", "from the bottom up",
     "from smallest up", "from the smallest up", "smallest up", "from least up",
     "lower first", "smaller first", "lower to higher", "from lower to higher",
     "smaller to bigger", "from smaller to bigger", "smaller to larger", "from smaller to larger")

# An order said by the nodes at its ends: "from the one with the most (capacity) down to the
# one with the least", "from the one with the least upwards"
for _most, _least, _order in (("most", "least", "ORDER_DESC"), ("highest", "lowest", "ORDER_DESC"),
                              ("least", "most", "ORDER_ASC"), ("lowest", "highest", "ORDER_ASC")):
    for _what in ("", " capacity"):
        for _to in (" to", " down to", " up to"):
            if (_to == " down to") == (_order == "ORDER_DESC") or _to == " to":
                _say(_order, f"from the one with the {_most}{_what}{_to} the one with the {_least}")
        _say(_order, f"from the one with the {_most}{_what} "
                     + ("downwards" if _order == "ORDER_DESC" else "upwards"))

# An order said by its two ends: "(from) greatest to least", "(from) low to high", "hi to lo".
_HIGH_END = ("highest", "largest", "biggest", "greatest", "most", "high", "big", "large",
             "fastest", "max", "maximum", "hi", "top")
_LOW_END = ("lowest", "smallest", "least", "low", "small", "fewest", "slowest", "min",
            "minimum", "lo", "bottom")
for _high in _HIGH_END:
    for _low in _LOW_END:
        _say("ORDER_DESC", f"{_high} -> {_low}")  # "high->low"
        _say("ORDER_ASC", f"{_low} -> {_high}")
        for _from in ("", "from ", "from the ", "going from ", "going from the "):
            _say("ORDER_DESC", f"{_from}{_high} to {_low}", f"{_from}{_high} to the {_low}",
                 f"{_from}{_high} down to {_low}", f"{_from}{_high} down to the {_low}")
            _say("ORDER_ASC", f"{_from}{_low} to {_high}", f"{_from}{_low} to the {_high}",
                 f"{_from}{_low} up to {_high}", f"{_from}{_low} up to the {_high}")
            # the metric said inside the order: "from highest capacity to lowest"
            _say("ORDER_DESC CAP_SAID", f"{_from}{_high} capacity to {_low}",
                 f"{_from}{_high} capacity down to {_low}")
            _say("ORDER_ASC CAP_SAID", f"{_from}{_low} capacity to {_high}",
                 f"{_from}{_low} capacity up to {_high}")
# "going up from the least", "from the smallest upwards", "going down from the biggest"
for _end, _order, _way in ((_HIGH_END, "ORDER_DESC", "down"), (_LOW_END, "ORDER_ASC", "up")):
    for _one in _end:
        for _the in ("", "the "):
            _say(_order, f"going {_way} from {_the}{_one}", f"from {_the}{_one} {_way}wards",
                 f"working {_way} from {_the}{_one}", f"moving {_way} from {_the}{_one}")
for _start in ("starting with", "starting from", "beginning with", "start with", "from"):
    for _high in _HIGH_END:
        _say("ORDER_DESC", f"{_start} the {_high}", f"{_start} {_high}",
             f"{_start} the {_high} one")
    for _low in _LOW_END:
        _say("ORDER_ASC", f"{_start} the {_low}", f"{_start} {_low}", f"{_start} the {_low} one")
# "biggest first", "lowest capacity first", "biggest at the top", "with the lowest on top"
for _order, _ends in (("ORDER_DESC", _HIGH_END), ("ORDER_ASC", _LOW_END)):
    for _end in _ends:
        for _top in ("first", "at the top", "on top"):
            _say(_order, f"{_end} {_top}", f"the {_end} {_top}", f"the {_end} one {_top}",
                 f"{_end} one {_top}", f"the {_end} ones {_top}")
            _say(f"{_order} CAP_SAID", f"{_end} capacity {_top}", f"the {_end} capacity {_top}")
        for _top in ("at the top", "on top"):
            _say(_order, f"the {_end} one {_top}", f"with the {_end} {_top}")
_say("ORDER_DESC", "desc", "descending", "high-low")
_say("ORDER_ASC", "asc", "ascending", "low-high")

# relations between words
_say("OF", "of", "for", "from among", "that of", "the one of")
_say("IN", "in", "inside", "inside of", "within", "under", "underneath", "beneath", "below",
     "on", "at", "contained in", "contained within", "contained by", "belonging to",
     "belongs to", "belong to", "housed in", "hosted on", "hosted in", "hosted by",
     "located in", "located under", "located on", "living in", "living under", "sitting in",
     "sitting under", "sitting on", "residing in", "residing under", "part of", "a part of",
     "member of", "a member of", "inside the", "held by", "owned by",
     "attached to", "connected to", "plugged into", "in the scope of", "downstream of",
     "hanging off", "hangs off", "hang off", "hanging from", "hangs from", "hang from",
     "hanging under", "hangs under", "nested in", "nested under", "sitting beneath",
     "offered by", "provided by", "exposed by", "supported by",
     "sits beneath", "found in", "found under", "placed in", "placed under", "inside of the",
     "directly off", "right off", "straight off", "immediately off",
     # "the switches that make up A", "which nodes make up A": what A is made of
     "make up", "makes up", "that make up", "which make up", "making up", "that makes up",
     "hanging directly off", "hangs directly off", "hanging directly under")
_say("TO", "to", "into", "onto", "on to", "in to", "toward", "towards", "so that it is",
     "so it is", "so that it becomes", "so it becomes", "so that it has", "so it has")
_say("FROM", "from", "out of")
_say("WITH", "with", "w/", "having", "that have", "which have", "that has", "which has", "who have",
     "with a", "possessing", "carrying")
_say("WHOSE", "whose", "of which the", "where the", "where their", "where its")
_say("REL", "that", "which", "who", "where")
_say("BY", "going by", "by", "based on", "base on", "basing on", "according to", "in terms of", "using", "with respect to",
     "w.r.t.", "wrt", "on the basis of", "in order of", "ordered by", "sorted by", "ranked by",
     "in order by", "as measured by", "by their", "by its", "on")
_say("AS", "as", "as a", "as an")
_say("PER", "per", "for each single", "on each")
_say("WANT", "may i ask that", "might i ask that", "may we ask that", "we should like",
     "i should like", "it is requested that", "it is proposed that", "the requirement is", "it is required that", "it is necessary that",
     "i would ask that", "we would ask that", "i would ask for", "we would ask for",
     "i would be grateful for", "we would be grateful for", "could you arrange for",
     "can you arrange for", "please arrange for", "need", "we request", "i request", "we require", "i require", "we would request",
     "we hereby request", "we kindly request", "we would like to request", "ensure that", "make sure that", "please ensure that", "see to it that",
     "we request that", "i request that", "it is requested that", "we ask that", "i ask that",
     "i want", "i need", "we need", "we want", "going to need", "i am going to need",
     "we are going to need", "i would like", "i'd like", "i wish for",
     "i would want", "we would like", "i'd want", "i am looking for", "we are looking for",
     "i am after", "we are after", "request for", "a request for", "requesting",
     "we write to request", "i write to request", "i am writing to request",
     "we are writing to request", "i am writing to ask for", "we are writing to ask for",
     "i am instructed to request that", "we are instructed to request that",
     "i wish to request that", "we wish to request that", "i wish to request",
     "we wish to request", "may we request that", "may i request that",
     "we would like to request that", "i would like to request that",
     # asking for a change as a change board asks for it
     "kindly arrange for", "please arrange for", "arrange for", "approval is requested for",
     "approval is sought for", "we seek approval for", "i seek approval for")
_say("AMONG", "among", "amongst", "across", "over", "over all", "out of all", "of all", "of any",
     "among all", "across all", "between")
_say("AFTER", "upon completion of", "on completion of", "following completion of",
     "after completion of", "post", "in case of", "upon the", "after", "once", "when", "following", "as soon as", "if", "what if", "suppose",
     "supposing", "assuming", "having", "assume", "imagine", "provided", "given that", "now that",
     "after having", "upon", "on having", "right after", "directly after", "immediately after",
     "in case", "in the case that", "after you", "once you", "when you", "if you", "if we",
     "after we", "once we", "when we", "pretend", "say", "say that", "let us say", "imagine that",
     "suppose that", "assuming that", "in the event that", "if ever")
_say("SLASH", "/")
# "every port across agg block A": a place said as a span (also AMONG: "across all switches")
_say("ACROSS", "across", "throughout", "all across", "anywhere in")
_say("IN", "anywhere in")  # "the highest port capacity anywhere in A" (a set is all below A)
_say("THEN", "depois", "después", "despues")  # (Portuguese, Spanish: afterwards)
_say("THEN", "post that", "and post that", "post which", "then", "and then", "after that", "afterwards", "afterward", "next",
     "subsequently", "and after that", "followed by", "later", "thereafter", "after this",
     "and after this",
     "having done that", "when done", "once done", "once that is done", "when that is done",
     "and afterwards", "and subsequently", "and next", "following that", "after which",
     "and finally", "finally", "lastly", "also", "additionally", "and also", "then also",
     "once it is there", "once it is in", "once it is in place", "once it is added",
     "once added", "once that is in place", "when it is there", "once it exists",
     "and after", "and afterward",
     # formal joins: "upon completion, ...", "having done so, ...", "once this has been completed"
     "upon completion", "on completion", "upon completion of this", "on completion of this",
     "once complete", "once completed", "when complete", "when completed", "once this is done",
     "once this has been done", "once this has been completed", "once that has been done",
     "once that has been completed", "once this is complete", "once that is complete",
     "having done so", "having done this", "having done that", "after doing so",
     "after doing this", "after this is done", "following this", "following that",
     "following which", "subsequent to this", "subsequent to that", "thereupon",
     "whereupon", "upon completion thereof", "upon completion of the foregoing",
     # the one asked said again: "add N to S and then you count its ports"
     "then you", "and then you", "and after you", "after that you", "and after that you",
     *(f"{lead} such {act}" for lead in ("upon", "on", "following", "after")
       for act in ("deletion", "removal", "addition", "update", "amendment", "change")),
     "post-change verification", "post-change check", "post-change", "verification step",
     "post-implementation check", "post-implementation verification", "verification",
     "secondly", "thirdly", "as a second step", "as a final step", "as a subsequent step",
     "in a second step", "as the next step", "once this has been actioned", "once actioned")
_say("INVERT", "were", "had", "should")
# "if P were 40 Gbps": a capacity said as a state that does not hold (so: set it)
_say("SUBJ", "were")
# "what do the capacities of the ports in A add up to?"
_say("ADDUP", "add up to", "adds up to", "sum to", "sums to", "total to", "come to", "comes to",
     "amount to", "amounts to")
# "how many ports does every switch have, switch by switch": one answer per node
_say("PERNODE", "switch by switch", "port by port", "node by node", "one by one", "individually",
     "separately", "per node", "for each one", "block by block", "rack by rack")
# "what about P's capacity?": a question said as its topic
_say("WHATABOUT", "what about", "and what about", "what of")
# "looking at A, how many switches are there?": a place the rest is about
_say("LOOKAT", "re", "re:", "looking at", "looking inside", "looking under", "focusing on", "zooming in on",
     "zooming into", "starting from")
_say("ABOUT", "wrt", "regarding", "as for", "as regards", "concerning", "with regard to", "as to")
_say("AND", "& &", "and", "&", "+", "plus", "and also", "as well as", "along with", "together with", "in addition to")
_say("ARROW TO THEN", "->")
_say("IT", "each one", "each of them", "it", "them", "they", "this one", "that one", "this node", "that node", "the same node",
     "itself")
_say("ITS", "its", "their", "its own", "their own")
_say("THERE", "there")
_say("GONE", "needs deleting", "need deleting", "needs deletion", "decommissioned and removed", "decommissioned and deleted", "gets removed", "get removed", "gets deleted", "get deleted", "gets dropped",
     "excised", "struck", "struck out", "come out", "comes out", "gone", "removed", "deleted", "dropped", "eliminated", "erased", "taken out",
     "taken away", "gotten rid of", "got rid of", "destroyed", "decommissioned", "detached",
     "unplugged", "purged", "retired", "discarded", "out", "wiped out", "torn down", "scrapped",
     "uninstalled", "deprovisioned", "cut", "go", "disappear", "vanish", "goes away",
     "go away", "went away", "disappears", "needs removing", "need removing", "wants removing", "pulled", "pulled out", "yanked", "stripped",
     "stripped out", "ripped out", "disconnected", "unhooked", "phased out", "axed", "ditched",
     "taken off", "trashed", "unlinked", "offboarded", "ejected", "took away", "took out",
     "took off", "pulled off", "ripped off", "stripped off")
_say("NEW", "new", "a new", "brand new", "brand-new", "fresh", "additional", "an additional",
     "another", "extra", "an extra", "one more", "one new", "one additional", "one extra")
_say("ADDED", "incorporated", "added", "inserted", "created", "attached", "installed", "plugged in",
     "provisioned", "deployed", "put", "placed", "appended", "introduced", "mounted", "set up",
     "hooked up", "put in", "needs adding", "need adding", "wants adding", "brought in", "wired up", "wired in", "connected", "slotted in",
     "rolled out", "stood up", "spun up", "onboarded", "hooked in", "plugged")
_say("SETP", "revised", "given", "assigned", "amended", "reconfigured", "set", "changed", "updated", "raised", "lowered", "modified", "adjusted",
     "upgraded", "downgraded", "configured", "increased", "decreased", "reduced", "bumped",
     "altered", "reset", "boosted")
_say("BECOME", "become", "becomes", "be made", "end up at", "ends up at")

# comparisons
_say("LT", "strictly below", "strictly less than", "strictly lower than", "falls below",
     "fall below", "falls under", "below", "under", "less than", "lower than", "smaller than", "fewer than",
     "beneath", "underneath", "<", "lt", "short of", "not exceeding 0", "inferior to")
_say("GT", "strictly above", "strictly more than", "strictly greater than",
     "strictly higher than", "goes above", "go above", "above", "over", "more than", "greater than", "higher than", "larger than",
     "bigger than", "exceeding", "exceeds", "exceed", "in excess of", ">", "gt", "beyond",
     "upwards of", "north of", "superior to")
_say("UPTO", "up to", "all the way to", "upto")
_say("LE", "equal to or less than", "equal to or lower than", "equal to or smaller than",
     "maximum", "max.", "at most", "no more than", "not more than", "up to", "<=", "maximum of",
     "a maximum of", "no greater than", "not greater than", "no higher than", "not above",
     "less than or equal to", "smaller than or equal to", "not exceeding", "no bigger than",
     "no larger than", "at the most", "at or below", "at or under", "below or at",
     "less than or equal", "lower than or equal to", "under or equal to")
_say("GE", "equal to or greater than", "equal to or more than", "equal to or higher than",
     "minimum", "min.", "at least", "no less than", "not less than", ">=", "minimum of", "a minimum of",
     "no lower than", "no smaller than", "not below", "greater than or equal to",
     "more than or equal to", "at the least", "no fewer than", "not fewer than",
     "at or above", "at or over", "above or at", "greater than or equal",
     "higher than or equal to", "over or equal to")
_say("EQ", "reads", "equal to", "equals", "equal", "exactly", "=", "==", "precisely", "of exactly")
_say("POST_GE", "or more", "or higher", "or greater", "or above", "or faster", "or bigger",
     "and up", "and above", "or larger", "plus")
_say("POST_LE", "or less", "or lower", "or fewer", "or below", "or slower", "or smaller",
     "and below", "and under", "or under")
_say("FASTER", "faster than", "quicker than", "speedier than")
for _noun in ("capacity", "bandwidth", "speed"):
    _say("LT", f"less {_noun} than", f"lower {_noun} than", f"a lower {_noun} than",
         f"smaller {_noun} than", f"a {_noun} lower than", f"a {_noun} below",
         f"a {_noun} under", f"a {_noun} less than")
    _say("GT", f"more {_noun} than", f"higher {_noun} than", f"a higher {_noun} than",
         f"greater {_noun} than", f"a {_noun} higher than", f"a {_noun} above",
         f"a {_noun} over", f"a {_noun} greater than", f"a {_noun} more than")
_say("SLOWER", "slower than")
def _name_pattern(verbs: tuple[str, ...], preps: tuple[str, ...], affix: str) -> list[str]:
    """"with names ending in (the suffix)", "with a name that starts with": a name pattern
    said after "with" (which would otherwise name new nodes: "with names N1, N2")."""
    return [f"with {a}{names} {verb} {prep}{the}" for a in ("", "a ")
            for names in ("name", "names") for verb in verbs for prep in preps
            for the in ("", f" the {affix}")]


_say("STARTS", *_name_pattern(("starting", "beginning", "that start", "that starts",
                               "which start", "which starts", "that begin", "that begins"),
                              ("with", "by", "in"), "prefix"), "has the prefix", "have the prefix", "has prefix", "starting with", "starts with", "start with", "beginning with", "begins with",
     "startswith", "starts on",
     "begin with", "prefixed with", "prefixed by", "with prefix", "with the prefix",
     "with the name prefix", "with name prefix", "with a name prefix")
_say("ENDS", "terminate in", "terminates in", "terminating in", "terminate in the suffix",
     "ending in the suffix", "ending with the suffix", "end with the suffix", "ends with the suffix", "ending", "has the suffix", "have the suffix", "has suffix", "ending with", "ends with", "end with", "ending in", "ends in", "end in",
     "endswith", "ends on", "ending on", "end on",
     "suffixed with", "suffixed by", "with suffix", "with the suffix", "finish with",
     "finishes with", "finishing with", "finish in", "finishes in", "finishing in",
     "with the name suffix", "with name suffix", "with a name suffix", "finishing by",
     "finish by", "finishes by", "ending by", "ends by", "end by",
     *_name_pattern(("ending", "finishing", "that end", "that ends", "which end", "which ends",
                     "that finish", "that finishes"), ("in", "with", "by", "on"), "suffix"))
_say("LIKE", "like", "matching", "matches", "match", "that matches", "that match")

# Saying what is wanted as the focus of a sentence. A lead ("what we want is X", "all I
# need is X") is a filler; a tail after a request said as a gerund ("Removing X is what I
# need", "Adding N to S comes first; then ...") is dropped by the parser, and only there.
_WANTED = tuple(f"{who} {verb}" for who, be in (("i", "am"), ("we", "are")) for verb in (
    "need", "want", "would like", "require", f"{be} after", f"{be} asking for",
    f"{be} looking for"))
FOCUS_LEADS: frozenset[str] = frozenset(
    {f"{lead} {wanted} {be}" for lead in ("what", "all", "basically what") for wanted in _WANTED
     for be in ("is", ":")}
    | {"what is needed is", "what is wanted is", "what is required is"})
FOCUS_TAILS: frozenset[str] = frozenset(
    {f"is {lead} {wanted}" for lead in ("what", "all") for wanted in _WANTED}
    | {f"is {the}{what}" for the in ("the ", "the whole ", "the only ", "my ", "our ")
       for what in ("task", "ask", "request", "job", "change")}
    | {"is first", "comes first", "goes first", "is needed", "is wanted", "is required", "is requested", "is what is needed",
       "is what is required", "is all that is needed"})

# A request said as what is wanted ("A count of the ports in A would be appreciated."): a
# filler inside a sentence, a closing at its end.
_APPRECIATED = ("would be appreciated", "would be much appreciated",
                "would be greatly appreciated", "would be most appreciated")
# Words of requests often typed with a slip of the keys, mended when the slip can be no
# other word (see the parser's ``_misspellings``), and short words texted in a way of their own.
SPELLED_WITH_SLIPS: tuple[str, ...] = (
    "graph", "change", "update", "switch", "switches", "every", "remove", "delete", "capacity",
    "capacities", "children", "physical", "please", "ports", "count", "nodes", "list", "rank",
    "return", "which", "what", "should", "block", "port", "listed", "ascending", "descending")
# English words (and slang) that are such a slip of one of them: left as written.
WORDS_NOT_SLIPS: frozenset[str] = frozenset({"cont", "cunt", "cout", "nods", "noes", "pots",
                                             "eery", "sitch", "pors", "chane", "bock", "wich",
                                             "prot", "pot", "whit"})
SHORT_SLIPS: tuple[tuple[str, str], ...] = (("teh", "the"), ("thn", "then"), ("wat", "what"),
                                            ("wht", "what"), ("evry", "every"))
# A letter's closings in other languages ("Mvh Lars", "Gruß, Jens", "Cordialement"), said
# after an English request; a name may follow them.
LOANED_CLOSINGS: frozenset[str] = frozenset({
    "gruß", "gruss", "grüße", "gruesse", "viele grüße", "beste grüße", "lg", "vg", "mfg",
    "mvh", "mvg", "med vennlig hilsen", "vennlig hilsen", "hilsen", "med vänlig hälsning",
    "vänliga hälsningar", "hälsningar", "groeten", "met vriendelijke groet", "groetjes",
    "tack", "takk", "tak", "danke", "danke schön", "vielen dank", "dank je", "bedankt",
    "cordialement", "bien cordialement", "merci", "merci beaucoup", "merci d'avance",
    "obrigado", "obrigada", "abraço", "abraços", "gracias", "saludos", "un saludo", "grazie",
    "saluti", "cordiali saluti"})
# Courtesies of other languages said inside an English request; each says only how it is
# asked, never what or whether.
LOANED_COURTESIES: frozenset[str] = LOANED_CLOSINGS | frozenset({
    "obrigado", "obrigada", "muito obrigado", "muito obrigada", "valeu", "abraço", "abraços",
    "abraco", "abracos", "abs", "pessoal", "galera", "bom dia", "boa tarde", "boa noite",
    "por favor", "gracias", "muchas gracias", "saludos", "un saludo", "hola", "buenos días",
    "buenos dias", "buenas", "grazie", "grazie mille", "ciao", "saluti", "merci", "merci beaucoup",
    "moin", "hej", "hei", "hallo", "servus", "bonjour", "salut", "bonne journée", "svp",
    "colleagues", "dear colleagues", "спасибо", "spasibo", "dzięki", "dziękuję", "dzieki",
    "dobre", "dobrze", "díky", "děkuji", "дякую", "diakuju",
        "onegai", "onegai shimasu", "yoroshiku", "yoroshiku onegai", "yoroshiku onegai shimasu",
    "arigato", "arigatou", "domo", "sorry for bother", "sorry for the bother",
    "thank you for your support", "thanks for your support",
    "s'il vous plaît", "s'il te plaît",
    "abeg", "oga", "boss", "my brother", "my sister", "sir", "madam", "ma", "thank you sir",
    "thank you ma", "god bless", "god bless you", "well done", "make you",
    "bhai", "yaar", "na", "do one thing", "do the needful", "kindly do the needful",
    "please do the needful", "pfb", "thnx", "thks", "tnx",
    # what a phone adds under a message
    "sent from my phone", "sent from my iphone", "sent from my android", "sent from my mobile",
    "sent from my ipad", "sent from mobile", "sent from phone",
    # "remove X itself": X, said with emphasis
    "itself",
})
# Words (and phrases) that carry no meaning for the request: dropped before parsing.
# Spoken hesitations, as a voice transcript writes them down ("um", "uh").
HESITATIONS: frozenset[str] = frozenset({"um", "umm", "uh", "uhh", "er", "erm", "uhm", "hmm"})
FILLERS: frozenset[str] = frozenset({
    "the", "a", "an", "please", "kindly", "thanks", "thank you", "thank you very much",
    "with immediate effect", "currently", "presently", "right now", "at the moment", "at present", "still",
    "actually", "really", "existing", "current", "updated", "resulting", "modified",
    "new", "fresh", "brand new", "brand-new", "additional", "another", "extra", "one more",
    "type", "kind", "of type", "of kind", "whose type is", "whose kind is",
    "which is of type", "that is of type", "of the type", "with the type", "with type", "with kind", "attribute", "attributes",
    "field", "property", "value", "values", "val", "attr", "attrib", "both", "me", "us", "i", "we", "you", "u", "my", "our",
    "your", "so", "ok", "okay", "hey", "hi", "hello", "well", "alright", "whole", "entire",
    # spoken hesitations and assents, as a voice transcript writes them down
    *HESITATIONS, "yeah", "yep",
    # chat: "ngl", "tbh", "fr" (for real), "real quick", "tysm"
    "ngl", "tbh", "fr", "tysm", "real quick", "so like",
    # the Englishes of Britain and Ireland: whom it is said to ("cheers pet", "ta la", "please
    # butt"), greetings and assents ("bout ye", "whey aye"), "gonnae" (will you)
    "gonnae", "pet", "butt", "lover", "my lover", "pal", "our kid", "la", "hen", "bud",
    "buddy", "lad", "fella", "mucker", "chief", "boyo", "aye", "whey aye", "bout you",
    # how soon: netmend answers now ("by EOD", "today pls", "quick")
    "eod", "by eod", "cob", "by cob", "by end of day", "by close of business", "end of day",
    "close of business", "today", "by today", "quick", "urgent",
    "full list of", "complete list of", "a list with", "a list containing", "a list holding", "a full list of", "a complete list of", "in full", "these", "those", "the following", "following", "list of", "a list of", "the list of", "names of", "the names of",
    "set of", "the set of", "collection of", "an inventory of", "a complete inventory of",
    "a full inventory of", "the full inventory of", "the complete inventory of",
    "the inventory of", "inventory of", "for me", "for us", "go ahead and", "could you",
    "can you", "would you", "can u", "could u", "would u", "can i get", "could i get",
    "can we get", "could we get", "i want that you", "i would like that you",
    "i need that you", "we need that you", "we want that you", "actual",
    # courtesies in the asker's first language, said inside English: greetings, thanks,
    # sign-offs and whom it is said to (Portuguese, Spanish, Italian, French; West African
    # English and Pidgin: "abeg" is please, "oga" and "boss" are whom)
    *LOANED_COURTESIES,
    "can i have", "could i have", "may i have", "can we have", "could we have", "may we have",
    "i would appreciate", "we would appreciate", "i would be grateful for",
    "we would be grateful for",
    "it would be appreciated if", "it would be helpful if", "it would be good if",
    "your assistance in effecting this change would be appreciated",
    "your assistance in effecting this would be appreciated", "your assistance would be appreciated",
    *_APPRECIATED, "a value of", "to a value of", "would be great", "that would be great",
    "would be helpful", "that would be helpful",
    "we should be grateful if", "i should be grateful if", "we would be grateful if",
    "i should be obliged if you would", "we should be obliged if you would",
    "i would be obliged if you could", "we would be obliged if you could",
    "i would be obliged if you would", "we would be obliged if you would",
    "it would be much appreciated if", "it would be greatly appreciated if",
    "your assistance in", "many thanks in advance", "please process", "kindly process", "please effect",
    "kindly effect", "please proceed with", "kindly proceed with", "proceed with",
    "i would be grateful if", "may i ask", "might i ask", "may we ask",
    "we should like to", "i should like to", "as a whole", "in its entirety",
    "in their entirety",
    "it is necessary to", "it is required to", "the requirement is to", "it is needed to",
    "it would be necessary to", "it will be necessary to", "it would be needed to",
    "please note that", "please be advised that", "kindly note that", "note that",
    "determination of", "a determination of", "calculation of", "a calculation of",
    "a statement of", "statement of", "information on", "information about", "details of",
    "provision of a list of", "provision of a listing of",
    "please proceed to", "proceed to", "kindly proceed to", "i would ask that you",
    "we would ask that you", "kindly action accordingly", "action accordingly",
    "please action this", "please action", "kindly action this", "as agreed", "as agreed at cab",
    "as agreed at the cab", "as discussed", "as per the change request", "as planned",
    # the asker saying where they stand: new, checking they understood, what they were told
    "i am supposed to", "i think i am supposed to", "we are supposed to", "i think i need to",
    "i am meant to", "i think i am meant to", "i think i have to",
    "i believe i need to",
    "just to check i understand", "just to check that i understand", "just to check",
    "just to confirm", "just to be sure", "just to make sure", "just so i understand",
    "just to double-check", "if i understand correctly", "if i understand it correctly",
    "still getting used to this", "still getting used to the naming", "i am new here",
    "i am new on the team", "new on the team", "new here", "first week here",
    "bear with me", "hope that is clear", "hope this makes sense", "hope that makes sense",
    "i hope that is clear", "i hope this makes sense",
    # a reply in a mail thread pointing at what is quoted or talked over
    "see below", "see thread below", "see the thread below", "see the mail below",
    "see the email below", "see the note below", "see trail below", "see the trail below",
    "following up on the thread below", "following up on this thread",
    "following up on the thread", "as discussed on the call", "as discussed on the bridge",
    "as discussed in the meeting", "as discussed earlier", "as discussed yesterday",
    "a full enumeration of", "a complete enumeration of", "full enumeration of",
    "a complete listing of", "a full listing of", "complete listing of", "in turn",
    "i should be grateful to", "i would be grateful to", "a figure for", "the figure for",
    "the following change is requested", "the following two-step change is requested",
    "the following changes are requested", "the following is requested",
    "is there a way to", "is there any way to", "is there any form to", "is there a form to", "is there a way i can", "is there a way we can",
    "is it possible to", "of its own", "of their own",
    # ("don't" is read as "don" "not": the contraction splits before its "n't")
    "identification of", "the identification of", "across all of its ports", "across all its ports",
    "summed over its ports", "summed over all its ports", "over all of its ports",
    "sum over its ports", "sum over all its ports", "summed across its ports",
    "we should be grateful if you would", "we should be grateful if you could",
    "i should be grateful if you would", "i should be grateful if you could",
    "it is no longer required", "as it is no longer required", "it is no longer needed",
    "as it is no longer needed", "as it is no longer in use", "it is no longer in use",
    "at your earliest convenience", "as soon as possible", "asap", "when convenient",
    "at the earliest", "at your earliest",
    "for the purposes of the audit", "for the audit", "for audit purposes", "for the minutes",
    "for capacity planning purposes", "for the capacity planning programme",
    "for the capacity planning program", "for planning purposes", "for the record",
    "for reference", "for our records",
    "i would be grateful if you could", "i would be grateful if you would",
    "we would be grateful if you could", "we would be grateful if you would",
    "it would be appreciated if you could", "i would appreciate if you could",
    "arrange for",
    "an enumeration of", "enumeration of", "a listing of", "listing of", "a breakdown of",
    "breakdown of", "is requested", "are requested", "is required", "are required",
    "is hereby requested", "is kindly requested",
    "if you do not mind", "if you don not mind", "if you would not mind", "if you wouldn not mind",
    "if it is not too much trouble", "if it isn not too much trouble", "will you", "could you please", "can you please",
    "would you please", "will you please", "would you mind", "i would like you to",
    "i want you to", "i need you to", "i would like to", "i want to", "i need to", "we need to",
    "we want to", "let us", "let's", "i would love to", "i'd love to", "be so kind as to", "do me a favour and",
    "do me a favor and", "if you can", "if possible", "if you could", "now", "in total",
    "in all", "altogether", "overall", "total", "in the graph", "in the topology",
    "in the network", "in the updated graph", "in the graph updated", "in graph updated",
    "of the graph updated", "in the topology updated", "in the current graph", "in the resulting graph",
    "in the new graph", "in the modified graph", "of the graph", "of the topology",
    "on the updated graph", "on the current graph", "on the resulting graph",
    "on the modified graph", "on the new graph", "after the update", "after update",
    "of the network", "in the updated topology", "in the updated network",
    "from the updated graph", "in updated graph", "in new graph", "in current graph",
    "in resulting graph", "in modified graph", "on updated graph", "on new graph",
    "on current graph", "on resulting graph", "in updated topology", "from updated graph",
    "across the graph", "across the whole graph",
    "across the entire graph", "across the topology", "across the whole topology",
    "across the entire topology", "across the network", "across the whole network",
    "across the entire network", "throughout the graph", "throughout the topology",
    "throughout the network", "left", "left over", "leftover", "remaining", "remain", "still left",
    "afterwards left", "physical", "exist", "altogether now", "at all", "any more", "anymore", "each of them", "all of them",
    "as well", "too", "all together", "at this point", "by now", "already",
    # a user story's role: "As an operator I want to ..."
    "as an operator", "as a network operator", "as an engineer", "as a network engineer",
    "as an admin", "as an administrator", "as a user", "as the operator", "as an sre",
    "as a capacity planner", "as a planner", "as a noc engineer", "as an on-call engineer",
    "in the network graph", "in the topology graph", "of the network graph",
    "graph-wide", "graph wide", "network-wide", "network wide", "topology-wide",
    "topology wide", "fabric-wide", "fabric wide",
    "netmend", "hey netmend", "agent", "assistant", "if you would", "if you will",
    "cheers", "pls", "plz", "thx", "ty", "thanks in advance", "thank you in advance",
    # help asked for in a forum post, and thanks said before it is given
    "appreciate any help", "i would appreciate any help", "any help appreciated",
    "any help is appreciated", "any help would be appreciated", "any help much appreciated",
    "any help is much appreciated", "appreciate it", "tia", "thanks all", "thx all",
    "thanks everyone",
    "many thanks", "much appreciated", "appreciated", "and thanks", "and thank you",
    "please and thanks", "please and thank you", "thanks a lot", "thank you so much",
    # a question asked through a wrapper: "do you know which ...", "I wonder how many ..."
    "do you know", "do you happen to know", "i wonder", "i was wondering", "i am wondering",
    "i am curious", "i am curious about", "i am curious to know", "just curious",
    # help asked for, and formulas of politeness of many Englishes
    "please help to", "please help me to", "please help me", "kindly help to",
    "could you help me", "can you help me", "would you help me", "help me",
    "could you please help me", "can you please help me",
    "kindly help me to", "help me to", "help to", "could you help to", "could you help me to",
    "can you help to", "can you help me to", "sorry to bother",
    "sorry to bother you", "could you be so kind to", "would you be so kind to",
    "could you be so kind as to", "would you be so kind as to", "be so kind to",
    "would be grateful if you", "i would be grateful if you", "we would be grateful if you",
    "any idea", "any ideas", "rundown of", "a rundown of", "overview of", "an overview of", "if you please", "when you can", "when you get a chance",
    "at your convenience", "time to", "it is time to", "quick question", "a quick question", "quick q",
    "question",
    # greetings and requests made through someone: "hi team, ...", "could someone ...",
    # "would it be possible to ..."
    "hi team", "hello team", "hey team", "hi all", "hello all", "hey all", "hi there",
    "hello there", "hey there", "hi folks", "hello folks", "hey folks", "hi everyone",
    "hello everyone", "dear team", "good morning", "good afternoon", "good evening",
    "morning all", "morning team", "morning everyone", "morning folks", "afternoon all",
    "evening all", "hello again", "hi again",
    # greetings and thanks in the languages of a multinational team
    "hola", "hallo", "bonjour", "ciao", "salut", "namaste", "hej", "gracias", "muchas gracias",
    "danke", "vielen dank", "merci", "merci beaucoup", "obrigado", "obrigada", "grazie",
    "arigato", "spasibo", "hello together", "hallo together", "hi together", "bom dia",
    "boa tarde", "buenos dias", "buenas tardes", "guten morgen", "guten tag", "buongiorno",
    "bonsoir", "buenas", "hola equipo", "bonjour equipe", "salut equipe", "cordialement",
    "saludos", "un saludo", "bien cordialement", "atentamente",
    # particles and terms of address of the Englishes of South-East Asia ("thanks lah",
    # "thank you krub", "tolong remove ...", "Mas, can you ...")
    "lah", "leh", "lor", "ar", "krub", "krap", "khrap", "ka", "kha", "na", "tolong",
    "mas", "pak", "bro", "anh oi", "chi oi", "ah",
    # help offered as the request: "please help count the ports in A", "could you help sort"
    "help", "help us", "help us to",
    "quick one", "a quick one", "quick request", "a quick request", "could someone",
    "can someone", "would someone", "could somebody", "can somebody", "can anyone",
    "could anyone", "someone please", "somebody please", "i would appreciate it if you could",
    "i would appreciate it if you would", "it would be great if you could",
    "it would be great if you would", "would it be possible to",
    "would it be possible for you to", "can we", "could we", "requesting", "i am requesting",
    "we are requesting",
    # a request passed on: "I was asked to remove X", "we've been asked to ..."
    "i was asked to", "i have been asked to", "we were asked to", "we have been asked to",
    "i am asked to", "i have been told to", "i was told to",
    # a check that the request can be done, said last: "..., can you do that?"
    "can you do that", "can you do it", "could you do that", "could you do it",
    "can you do this", "could you do this", "can that be done", "can this be done",
    *(f"{modal} you {verb}{what}" for modal in ("can", "could") for verb in (
        "do", "run", "take care of", "handle") for what in (" both", " both steps", " that",
                                                            " that for me", " both for me")),
    "could you help with that", "can you help with that", "could you run that",
    # a chat bot addressed, and requests wrapped in a hope or a question about ability
    "bot", "hey bot", "hi bot", "hello bot", "yo bot", "yo", "mind", "do you mind",
    "any chance you could", "any chance u could", "any chance you can", "any chance",
    "would you be able to", "will you be able to", "are you able to", "could you be able to",
    "i was hoping you could", "i was hoping you would", "i am hoping you could",
    "i was hoping you would be able to", "i was wondering if you could",
    "i was wondering if you would", "i wonder if you could", "i was wondering whether you could",
    "do you think you could", "do you think you can",
    # a request said as an opinion or a wish: "I think we need to ...", "it'd be great to
    # get ..."
    "i think", "i think that", "i believe", "i guess", "it would be great to",
    "it would be great if", "it would be nice to", "it would be nice if", "it would be good to",
    "it would be helpful to", "it would be great to get", "it would be nice to get",
    "do the needful and", "kindly do the needful and", "please do the needful and",
    "do the needful", "kindly do the needful", "please do the needful", "reckon you could",
    "reckon u could", "do you reckon you could", "i reckon", "ta", "mate", "cheers mate",
    "you know", "no rush", "no hurry", "let me get", "let me have",
    # a shift handover's: asked to be done ("pls action"), and where an item came from
    "pls action", "plz action", "action pls", "action please", "for action",
    "please can you action", "can you action", "carried over", "carried over from nights",
    "carried over from days", "carried over from night shift", "carried over from day shift",
    "carried over from the night shift", "carried over from the day shift",
    "carried over from last shift", "carried over from the last shift",
    "carried over from the previous shift", "carried over from previous shift",
    # what every node does ("every port that exists in the graph"); a list's own form
    "that exist", "that exists", "which exist", "which exists", "in a list", "in list",
    "in list form", "in a list form", "in all the graph", "in all the topology",
    "in all the network",
    "i ask you to", "i would ask you to", "one new", "one additional", "one extra",
    "circling back", "just circling back", "circling back on this", "following up",
    "fyi", "btw", "heads up", "full set of", "the full set of", "complete set of",
    "the complete set of", "the full list of", "the complete list of",
    "if you would be able to", "i was wondering if you would be able to",
    "i wonder if you would be able to", "i was wondering if you could be able to",
    "if you could be able to",
    # spoken leads: "what I want to know is ...", "alright, next thing: ..." (the leads
    # "what I want is", "all I need is" ... are ``FOCUS_LEADS``)
    "basically what i want to know is", "what i want to know is", "what i would like to know is",
    "all i want to know is", "what i want is for", "basically what i want is for",
    "what i want is you to", "basically what i want is you to", "what i want is for you to",
    "basically", "next thing", "next up", "up next",
    # a plan or a next step said as the request: "The plan is to add ...", "Next step: ..."
    "please go ahead", "go ahead please", "go ahead", "entirely", "completely", "all told",
    "to be found", "that can be found", "that you can find",
    "the plan is to", "our plan is to", "plan is to", "the idea is to", "next step",
    "the next step is to", "next step is to", "next step is", "the next step is",
    "i was wondering if we could", "i was wondering whether we could", "i wonder if we could",
    "we were wondering if you could", "we were wondering if we could",
    # how many steps a request has, said before them: "Two things, in order: ..."
    "two things in order", "two things", "two steps", "two steps please", "two-step request",
    "two step request", "two-part request", "in two steps", "two things please",
    "the next thing", "first thing", "the first thing", "one more thing", "that is all for now",
    "that is it for now", "that is all", "that is it", "end to end",
}) | FOCUS_LEADS | frozenset(
    # the whole graph as where a request applies: "across the whole network graph"
    f"{at} the {whole}{noun}"
    for at in ("in", "of", "across", "throughout", "within", "everywhere in")
    for whole in ("", "whole ", "entire ", "full ", "complete ")
    for noun in ("graph", "topology", "topo", "network", "network graph", "topology graph",
                 "network topology", "network model", "topology model", "model"))
# A ticket or change label that leads a request ("Ticket 7731:", "Change request -",
# "[OPS-12]", "INVENTORY REQUEST:"): bookkeeping that says nothing about what is asked. The
# parser drops one only at the very start of a request (or in brackets at its very end), only
# when it is made of these words and identifiers after them ("7731", "CR-1234", "#52"), and
# only when a colon, a dash or a closing bracket ends it. A word that could say how or whether
# the request is meant ("draft", "test", "dry run", "hypothetical", "done") is not one of
# them, so a request labelled that way is still refused.
LABEL_WORDS: frozenset[str] = frozenset({
    "ticket", "tkt", "request", "req", "change", "chg", "cr", "rfc", "incident", "inc", "task",
    "case", "issue", "ref", "reference", "jira", "inventory", "ops", "netops", "noc", "order",
    "wo", "item", "job", "sr", "service", "support", "helpdesk", "maintenance", "planning",
    "audit", "lookup", "query", "report", "priority", "urgent", "routine", "todo", "to-do",
    "action", "re", "subject", "note", "network", "team", "id", "number", "work",
    "runbook", "runbook step", "playbook", "playbook step", "follow-up", "follow up",
    "followup", "requested change", "requested action", "requested actions", "rma", "po",
    "purchase order", "mw", "maintenance window", "crq",
    "handover", "shift handover", "fyi", "record", "change record",
    "goal", "objective", "aim", "user story", "story", "scenario", "backlog", "backlog item",
    "epic", "spike", "chore", "subtask", "sub-task", "ac", "acceptance criteria",
    "acceptance criterion", "acceptance", "dod", "definition of done", "resolved",
    "resolution", "minute", "agenda item", "motion", "use case", "requirement",
    "capacity planning", "work order", "service request", "change request", "change order",
    "action item", "work item", "support ticket", "service ticket", "ops ticket", "op",
    # a code review's comment: "nit:", "suggestion:", "blocking:"
    "nit", "nitpick", "suggestion", "blocking", "non-blocking",
    # an exam's or a worksheet's: "Q3.", "Problem 2(b):", "Section A, Question 2"
    "problem", "question", "q", "section", "part",
    # a worksheet item's, as those are (a numbered item of a sheet about the graph given, not
    # a rehearsal: "exercise" alone or in a sentence stays one): "Exercise 3:", "Homework 2 -"
    "exercise", "homework", "assignment", "practice problem", "warm-up", "warm-up exercise",
    "worksheet", "tutorial", "tutorial sheet",
    # an incident commander's: "Directive 2:", "Execute:", "Priority one:"
    "directive", "directives", "execute", "priority one", "priority two", "priority three",
    # a test plan's: "Procedure:", "Setup -", "Test step 3:", "Precondition:"
    "procedure", "test procedure", "setup", "set-up", "test step", "precondition",
    "preconditions", "pre-condition",
    # a contract's: "Clause 4.2(a):", "Article 7 -", "Schedule 2:", "Amendment No. 3:"
    "clause", "sub-clause", "subclause", "article", "schedule", "paragraph", "amendment",
    "recital", "annex", "appendix",
})
# Fillers that name the whole graph: a set placed there is not in a fronted place ("under A,
# count the switches in the graph" says two places, and is refused).
GRAPH_FILLERS: frozenset[str] = frozenset(
    f for f in FILLERS if (f.split()[0] in ("in", "of", "from", "across", "throughout")
                           or f.split()[-1] == "wide")
    and any(w in f.split() for w in ("graph", "topology", "network", "fabric")))
# A filler that also has a category (e.g. "total" is SUM, "now" ends a clause) is dropped
# only where no rule uses it: the parser tries the category first, then the filler.
SOFT_FILLERS: frozenset[str] = frozenset({"total", "overall", "remaining", "remain", "left",
                                          "now", "in total", "new", "a new", "brand new",
                                          "brand-new", "fresh", "additional", "an additional",
                                          "another", "extra", "an extra", "one more",
                                          "one new", "one additional", "one extra"})
# A sentence's last word that leaves a part of it unsaid: a word that needs something after
# it ("how many ports does", "count the ports in the", "which switches sit"). Whatever the
# grammar could read without that part (a count over the whole graph, a list of every port)
# would answer another question, so such a request is refused as incomplete. Politeness said
# last ("..., please", "if you would") is looked past first.
CLOSINGS: frozenset[str] = frozenset({
    "please", "kindly", "thanks", "thank you", "thank you very much", "cheers", "pls", "plz",
    "thx", "ty", "thanks in advance", "thank you in advance", "many thanks", "much appreciated",
    "appreciated", "and thanks", "and thank you", "please and thanks", "please and thank you",
    "thanks a lot", "thank you so much", "ok", "okay", "for me", "for us", "if you would",
    *LOANED_COURTESIES,
    "if you will", "if you can", "if possible", "if you could", "if you please", "when you can",
    "when you get a chance", "at your convenience", "right now", "at the moment", "at present",
    "currently", "presently", "can you do that", "can you do it", "could you do that",
    "could you do it", "can you do this", "could you do this", "can that be done",
    "can this be done",
    *_APPRECIATED, "would be helpful", "would be very helpful", "would be welcome",
})
# Always incomplete last: determiners, a do-support or modal auxiliary (its verb is missing),
# a verb of place with no place ("sit", "located"), a preposition never left stranded.
DETERMINERS: frozenset[str] = frozenset({
    "the", "a", "an", "these", "those", "every", "each", "any", "its", "their", "my", "our",
    "your", "whole", "entire"})
DANGLING: frozenset[str] = DETERMINERS | frozenset({
    "do", "does", "did", "can", "could", "will", "would", "shall", "should", "must",
    "may", "might", "am", "by", "than", "as", "per", "via", "between", "among", "amongst",
    "across", "whose", "named", "called",
})
# Verbs of place, incomplete last unless the place was asked first: "where does S sit", "in
# which block does P live" (but "how many switches sit" has lost its place).
PLACE_VERBS: frozenset[str] = frozenset({
    "sit", "sits", "sitting", "lie", "lies", "reside", "resides", "residing", "located",
    "situated", "housed", "hosted", "nested", "contained", "found", "hang", "hangs", "fall",
    "falls", "live", "lives", "living", "run", "runs", "goes",
})
# Incomplete last unless what comes before completes them: a copula ("how many ports are"
# lacks its predicate; "how many ports there are", "what the ports of S are" do not), "have"
# with no subject ("which ports of S have"; "which ports does S have" is whole) and a
# preposition after a noun ("add a port to", "the ports in"; "which block is P in" is whole).
COPULAS: frozenset[str] = frozenset({"is", "are", "was", "were", "be", "been", "being"})
HAVES: frozenset[str] = frozenset({"have", "has", "had"})
# Modals that ask whether something can be done, and so ask for it ("Could X be removed?",
# "... so we can confirm what remains").
ASKING_MODALS: frozenset[str] = frozenset({"can", "could", "may", "might", "would", "will"})
STRANDED: frozenset[str] = frozenset({
    "of", "to", "from", "with", "in", "on", "under", "at", "into", "onto", "for", "beneath",
    "below", "within", "inside", "underneath", "above", "over", "off"})
# Words after which a subject follows ("how much capacity do the ports of A have").
SUBJECT_AUX: frozenset[str] = frozenset({
    "do", "does", "did", "can", "could", "will", "would", "shall", "should", "must", "may",
    "might"})

# Words that say one of something, or each of several ("the capacity of each switch"): an
# aggregate over them would answer a different question, so a read may not use them.
EACH: frozenset[str] = frozenset({"each", "each of", "each one of", "each and every"})
# "any" in a change ("remove any port of S") could mean one of them or all of them.
ANY: frozenset[str] = frozenset({"any"})

# Words no rule accepts and the parser never skips: each could change what is meant.
CRITICAL: frozenset[str] = frozenset({
    "not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "except", "excepting",
    "excluding", "exclude", "excludes", "excluded", "without", "but", "besides", "other than",
    "apart from", "aside from", "save for", "rather than", "instead", "instead of", "unless",
    "only", "solely", "exclusively", "merely", "maybe", "perhaps", "possibly", "probably",
    "or", "either", "minus", "less", "keep", "keeping", "preserve", "retain", "leave",
    "leaving", "skip", "skipping", "ignore", "ignoring", "omit", "omitting", "undo", "revert",
    "restore", "cancel", "stop", "prevent", "avoid", "cannot", "temporarily", "temporary",
    "partially", "partly", "half", "double", "triple", "twice", "thrice", "halve", "again",
    "reverse", "reversed", "inverse", "inverted", "alphabetically", "alphabetical", "randomly",
    "random", "whether", "else", "otherwise", "unused", "idle", "free", "down", "up",
    "disabled", "enabled", "active", "inactive", "broken", "failed", "faulty", "last",
    "previous", "next one", "second", "third", "another one", "percent", "%",
    "bytes", "byte", "megabytes", "gigabytes", "kilobytes", "terabytes",
    # discourse that takes a request back, and directions of an order netmend does not model
    "nope", "nah", "never mind", "nevermind", "kidding", "just kidding", "jk", "wait",
    # a request opposed, called off or put off ("we decided against it", "legal vetoed it")
    "decided against", "decide against", "voted against", "vote against", "argued against",
    "advised against", "advise against", "recommended against", "recommend against",
    "ruled against", "went against", "oppose", "opposed", "object", "objected", "objects",
    "objection", "veto", "vetoed", "vetoes", "reject", "rejected", "decline", "declined",
    "deny", "denied", "refuse", "refused", "cancelled", "canceled", "scrapped", "abandon",
    "abandoned",
    "postpone", "postponed", "defer", "deferred", "reverted", "undone", "reconsider",
    "reconsidered", "halt", "halted", "pause", "paused", "blocked",
    "overruled", "nixed", "shelved", "hold off", "holding off",
    # an opinion or a guess, not a request: "remove X i guess", "idk" ("I think we need X
    # removed" asks politely, and is read)
    "i guess", "i reckon", "reckon", "i suppose", "presumably", "supposedly", "likely",
    "unlikely", "idk", "dunno", "unsure", "not sure", "guess",
    # chat and pager shorthand of the same: taken back, later, a condition, a yes asked for
    "nvm", "nvmd", "nvr mind", "nevr mind", "nm", "oops", "whoops", "tmrw", "tmr", "tmrrw",
    "2moro", "2morrow", "l8r", "nxt wk", "nxt week", "next wk", "iff", "ifn", "y/n", "yes/no",
    "hold on", "scratch that", "backwards", "backward", "upwards", "upward", "downwards",
    "downward", "upside down", "flipped", "flip", "opposite", "worst", "best",
    # when, or whether for real: netmend changes the graph now, and only for real
    "simulate", "simulated", "simulating", "simulation", "hypothetical", "preview", "dry run",
    "dry-run", "draft", "propose", "proposed", "suggest", "tomorrow", "tonight", "yesterday",
    "soon", "eventually", "later on", "at some point", "next week", "until", "till",
    # or whether yet: waiting on something
    "pending", "awaiting", "await", "subject to", "contingent", "conditional", "tentative",
    "tentatively", "provisional", "provisionally", "tbc", "tbd", "on hold", "not yet",
    # when, relative to what is asked, or why: netmend does steps in the order it says them
    "before", "prior to", "ahead of", "while", "whilst", "whenever", "because", "since",
    "although", "though", "despite", "regardless", "lest", "as long as", "so long as",
    "even if", "even though", "earlier", "previously", "originally", "initially", "beforehand",
    "formerly", "used to", "consider", "considering",
    # vague amounts
    "some", "several", "few", "a few", "many", "most of", "dozen", "majority", "rest",
    "others",
})
# Words that say a request is only planned ("Planned: remove X", "... - scheduled for the
# weekend"): never skipped, and a part they start is no context; said of an occasion they may
# stand in it ("the expansion planned for the next budget cycle").
PLANNED: frozenset[str] = frozenset({"planned", "scheduled", "upcoming"})
# Days, months, parts of the day and vague times: said after a request they date it ("rm X
# monday", "remove X over the weekend", "... sometime"), so they are never skipped as unknown;
# a pass that knows them reads them where they say no more than bookkeeping ("due Fri"), a
# deadline ("by Monday") or an occasion ("For Monday:").
WHEN: frozenset[str] = frozenset({
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue",
    "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "weekend", "weekday",
    "weekdays", "overnight", "tonite", "morning", "mornings", "afternoon", "evening", "night",
    "nights", "midnight", "noon", "midday", "lunchtime", "daily", "nightly", "hourly",
    "weekly", "monthly", "quarterly", "yearly", "annually", "sometime", "someday", "sometimes",
    "during", "january", "february", "april", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov"}) | frozenset(f"{hour}{half}" for hour in range(1, 13)
                                       for half in ("am", "pm"))  # "2am", "10pm"
# Every word or phrase that may say whether, when or which the request applies, where no
# grammar reads it (a closing's signature, a return clause's free words, a heading, a field
# of bookkeeping): the critical ones and the planning ones.
HEDGES: frozenset[str] = CRITICAL | PLANNED
_PHRASED_HEDGES = tuple(sorted(h for h in HEDGES if " " in h))


def phrased_hedge(words: list[str]) -> str | None:
    """The first hedge of more than one word said in ``words`` (lower case), or None."""
    said = f" {' '.join(words)} "
    return next((h for h in _PHRASED_HEDGES if f" {h} " in said), None)
# States a first clause may give as the reason for a request about its node ("X is down,
# remove it", "X is no longer needed; delete it"): words that would restrict a set elsewhere.
JUSTIFYING_STATES: frozenset[str] = frozenset({
    "down", "up", "broken", "failed", "faulty", "unused", "idle", "disabled", "enabled",
    "active", "inactive", "free", "longer"})
# Negations written without the apostrophe ("dont", "isnt"): never skipped either.
CRITICAL = CRITICAL | frozenset(
    f"{aux}nt" for aux in ("do", "does", "did", "is", "are", "was", "were", "ca", "can", "wo",
                           "would", "could", "should", "must", "need", "has", "have", "had",
                           "ai", "might", "dare"))

# Contractions, expanded outside quotes.
CONTRACTIONS: dict[str, str] = {
    "'d": "would", "'ll": "will", "'re": "are", "'ve": "have", "'m": "am", "'t": "not",
}
# Words whose "'s" means "is" (or "us" for let's), not a possessive.
S_IS: frozenset[str] = frozenset({"what", "that", "there", "it", "here", "where", "how", "who",
                                  "which", "this"})

# The form of an adverb of manner or mood ("hypothetically", "optionally"): a word of it
# that netmend does not know may say how or whether a request is meant.
MANNER_FORM = r"[a-z]{3,}ly"

# Number words: 0-999 as people write them ("forty", "twenty-five", "twenty five",
# "one hundred", "a hundred", "four hundred"), "a thousand", and a few counting phrases.
_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def _number_words() -> dict[str, int]:
    words = dict(zip(_ONES, range(20), strict=True))
    for tens, word in enumerate(_TENS, 2):
        words[word] = tens * 10
        for one in range(1, 10):
            words[f"{word}-{_ONES[one]}"] = words[f"{word} {_ONES[one]}"] = tens * 10 + one
    below_hundred = dict(words)
    for hundreds in range(1, 10):
        words[f"{_ONES[hundreds]} hundred"] = hundreds * 100
        for text, value in below_hundred.items():
            if value:
                words[f"{_ONES[hundreds]} hundred {text}"] = hundreds * 100 + value
                words[f"{_ONES[hundreds]} hundred and {text}"] = hundreds * 100 + value
    words.update({"a hundred": 100, "a thousand": 1000, "one thousand": 1000,
                  "a couple of": 2, "a pair of": 2, "single": 1})
    return words


NUMBER_WORDS: dict[str, int] = _number_words()


def _ordinals() -> frozenset[str]:
    """Ordinal words ("fourth", "twenty-first", "hundredth"): a position netmend does not model."""
    ones = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
    teens = ("tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
             "sixteenth", "seventeenth", "eighteenth", "nineteenth")
    words = set(ones[1:]) | set(teens) | {"hundredth", "thousandth", "nth", "umpteenth"}
    for tens in _TENS:
        words.add(tens[:-1] + "ieth")
        for one in ones:
            words.update({f"{tens}-{one}", f"{tens} {one}"})
    return frozenset(words)  # "first" alone stays a word of the grammar ("first ..., then ...")


CRITICAL = CRITICAL | _ordinals()

# Capacity units -> bits per second. A number followed by one is a rate.
UNITS: dict[str, int] = {}


def _unit(multiplier: int, *names: str) -> None:
    for name in names:
        UNITS[" ".join(name.lower().split())] = multiplier


_unit(1, "bps", "b/s", "bit/s", "bits/s", "bits per second", "bit per second", "bit", "bits")
_unit(10**3, "kbps", "kb/s", "kbit/s", "kbits/s", "kilobits per second", "kilobit per second",
      "kbit", "kbits", "kilobit", "kilobits", "k", "kb", "kbe")
_unit(10**6, "mbps", "mb/s", "mbit/s", "mbits/s", "megabits per second", "megabit per second",
      "mbit", "mbits", "megabit", "megabits", "m", "mb", "mbe", "meg", "megs")
_unit(10**9, "gbps", "gb/s", "gbit/s", "gbits/s", "gigabits per second", "gigabit per second",
      "gbit", "gbits", "gigabit", "gigabits", "g", "gb", "gbe", "gig", "gigs", "gige",
      "gig-e")
_unit(10**12, "tbps", "tb/s", "tbit/s", "tbits/s", "terabits per second", "terabit per second",
      "tbit", "tbits", "terabit", "terabits", "t", "tb", "tbe")

# The same units said per second in other ways: "40 Gb per second", "40 gbit/sec", "40 gigabits a second".
for _prefix, _multiplier in (("", 1), ("k", 10**3), ("m", 10**6), ("g", 10**9), ("t", 10**12)):
    _long = {"": "", "k": "kilo", "m": "mega", "g": "giga", "t": "tera"}[_prefix]
    _spoken = {"k": ("k",), "m": ("meg", "megs"), "g": ("gig", "gigs")}.get(_prefix, ())
    for _base in {f"{_prefix}b", f"{_prefix}bit", f"{_prefix}bits", f"{_long}bit", f"{_long}bits",
                  *_spoken}:
        for _per in (" per second", " per sec", "/sec", "/s", " a second", " each second", " /s",
                     " / s", " /sec"):
            _unit(_multiplier, _base + _per)
# Byte rates, eight bits a byte: "40 gigabytes per second" is 320 Gbps. The short forms with a
# capital B ("40 GB/s", "5 MBps") are read as these words by the tokenizer; a byte count with no
# "per second" ("40 GB", "gigabytes") is a size, not a rate, and stays unknown (refused).
for _long, _multiplier in (("", 1), ("kilo", 10**3), ("mega", 10**6), ("giga", 10**9), ("tera", 10**12)):
    for _base in (f"{_long}byte", f"{_long}bytes"):
        for _per in (" per second", " per sec", " a second", " each second", "/s", " /s", "/sec"):
            _unit(8 * _multiplier, _base + _per)
# Scale words after a number: "40 billion bps", "40 thousand Mbps".
SCALES: dict[str, int] = {"thousand": 10**3, "million": 10**6, "billion": 10**9,
                          "trillion": 10**12}

# Plain kind names -> entity kind, with grammatical number ("SG", "PL" or both).
KIND_WORDS: dict[str, tuple[str, str]] = {}


def _kind(kind: str, singular: tuple[str, ...], plural: tuple[str, ...]) -> None:
    for text in singular:
        KIND_WORDS[text] = (kind, "SG")
    for text in plural:
        KIND_WORDS[text] = (kind, "PL" if KIND_WORDS.get(text, (None, "PL"))[1] == "PL" else "SGPL")


_kind(K.PORT, ("port", "interface", "network port", "switch port", "link port", "nic", "uplink",
               "downlink", "spine port"),
      ("ports", "interfaces", "network ports", "switch ports", "link ports", "nics",
       "spine ports"))
_kind(K.PACKET_SWITCH, ("switch", "packet switch", "packet_switch", "network switch",
                        "spine switch", "sw", "spine sw", "box"),
      ("switches", "packet switches", "packet_switches", "network switches", "spine switches",
       "sws", "sw", "spine sws", "spine sw", "boxes"))
_kind(K.AGG_BLOCK, ("aggregation block", "agg block", "aggblock", "agg_block",
                    "aggregation_block", "aggregation-block", "agg-block", "aggregation unit",
                    "agg", "agg blk", "aggregation blk", "agg-blk", "ab"),
      ("aggregation blocks", "agg blocks", "aggblocks", "agg_blocks", "aggregation-blocks",
       "agg-blocks", "aggs", "agg blks", "aggregation blks", "agg-blks", "abs"))
_kind(K.CONTROL_DOMAIN, ("control domain", "control_domain", "domain", "control-domain",
                         "ctrl domain", "ctrl-domain", "ctl domain", "ctrl dom", "control dom",
                         "ctl dom"),
      ("control domains", "control_domains", "domains", "control-domains", "ctrl domains",
       "ctrl-domains", "ctl domains", "ctrl doms", "control doms", "ctl doms"))
_kind(K.CONTROL_POINT, ("control point", "control_point", "control-point"),
      ("control points", "control_points", "control-points"))
_kind(K.RACK, ("rack",), ("racks",))
_kind(K.CHASSIS, ("chassis",), ("chassis", "chassises", "chasses"))
_kind(K.SUPERBLOCK, ("superblock", "super block", "super-block"),
      ("superblocks", "super blocks", "super-blocks"))
_kind(K.SPINEBLOCK, ("spineblock", "spine block", "spine-block", "spine", "spine blk"),
      ("spineblocks", "spine blocks", "spine-blocks", "spines", "spine blks"))
_kind(K.JUPITER, ("jupiter", "fabric", "jupiter fabric"), ("jupiters", "fabrics"))

# What a "Return ..." clause may promise, by the words it uses (anything else is refused).
RETURN_WORDS: dict[str, str] = {
    "graph": "graph", "topology": "graph", "network": "graph",
    "list": "list", "lists": "list", "tuple": "list", "tuples": "list", "names": "list",
    "pairs": "list", "pair": "list",
    "count": "text", "counts": "text", "number": "text", "text": "text", "value": "text",
    "capacity": "text", "sum": "text", "total": "text", "average": "text",
}
RETURN_NEUTRAL: frozenset[str] = frozenset({
    "result", "results", "answer", "answers", "output", "it", "that", "them", "response",
    "reply", "data",
})

# How an answer is laid out, said after the request ("..., as (name, capacity) tuples",
# "Names only.", "returning their names"): the parser strips such a tail and checks it
# against what the request computes. Names alone fit a list of nodes; names with a
# capacity, or tuples or pairs, fit a ranking or a top-k; anything else in the tail (a node,
# a kind, a number, another word) means it is not a layout, and it stays in the request.
# "only" and "just" are read here only: in a tail of layout words they can narrow nothing
# but the layout.
FORMAT_NAMES: frozenset[str] = frozenset({"name", "names"})
FORMAT_PAIRS: frozenset[str] = frozenset({"tuple", "tuples", "pair", "pairs", "paired"})
FORMAT_VALUES: frozenset[str] = frozenset({
    "capacity", "capacities", "bandwidth", "total", "physical", "physical_capacity_bps",
    "value", "values", "speed"})
FORMAT_WORDS: frozenset[str] = FORMAT_NAMES | FORMAT_PAIRS | FORMAT_VALUES | frozenset({
    "list", "listing", "node", "nodes", "child", "children", "their", "its", "each", "every",
    "with", "and", "of", "as", "a", "an", "the", "in", "form", "format", "for", "output",
    "return", "returning", "give", "giving", "me", "us", "want", "i", "we", "should", "be",
    "is", "are", "has", "have", "containing", "contains", "holding", "plus", "alongside",
    "along", "together", "only", "just", "please", "them", "one", "entry", "entries",
    "respective", "corresponding", "show", "showing", "include", "including", "s", "'s",
    "(", ")", ",", ":", "-", "--", "->", "/", "&",
})
# Where a layout tail may begin inside a sentence, besides after a comma, a colon, a dash,
# an arrow or an opening bracket.
FORMAT_LEADS: frozenset[str] = frozenset({"as", "returning", "listing", "giving", "showing",
                                          "each", "with", "and"})

# ---------------------------------------------------------------- grammar
#
# Rules are (shape, builder). A builder of None passes its only bound part through.

GRAMMAR: dict[str, tuple[tuple[str, str | None], ...]] = {
    # A sentence: clauses joined by commas, "and", "then"; "after ..." and "with ... gone"
    # put their changes first.
    "sentence": (
        ("[lead] steps:s", None),
        ("[lead] lone:g", "one"),
    ),
    # A clause without a verb ("ports of S?") is a request only on its own: after "and" it
    # could be the object of the verb before ("remove A and B's ports").
    "lone": (
        ("bare:c", "plain"),
        ("bare:c THEN", "plain"),  # "... - port count of S after?"
        ("tele:c", "plain"),
        # a headline: "S: capacity?", "A -> children", "S: how many ports?"
        ("named_topic:t (COMMA|ARROW) (bare|headed):c", "topic"),
        ("named_topic:t (COMMA|ARROW) (bare|headed):c [COMMA] before:b", "topic_before"),
        ("(bare|tele):c EQ", "plain"),
        ("WHATABOUT (bare|tele):c", "plain"),
        ("before:b [COMMA] bare:c", "before"),
        ("bare:c [COMMA] before:b", "after"),
        ("topic:t COMMA bare:c", "topic"),
        # the place said last as a headline: "bottom 3 switches by capacity, agg block A"
        ("(bare|tele):c COMMA named_topic:t", "topic"),
    ),
    "lead": (
        ("(THEN|AND|AND THEN|COMMA) [COMMA]", None),
        ("FIRST [COMMA]", None),
    ),
    "steps": (
        ("group:g", "one"),
        ("group:g sep steps:rest", "more"),
        ("group:g sep TO steps:rest", "more"),  # "it is necessary to remove X and thereafter to list ..."
        # "remove X, then number of ports in S", "add N to S / capacity of S?": after a change,
        # a value said without a verb is the question (a number is nothing to remove or add)
        ("group:g (THEN|COMMA THEN|SLASH) late_value:rest", "more"),
        ("group:g [COMMA] [AND] [COMMA] THEN COMMA late_value:rest", "more"),  # "and, subsequently, a list of ..."
        # "rm X, port count on S": a number after a comma alone (a list or a ranking there
        # could be more of what the change changes: "remove X, the children of S")
        ("group:g COMMA late_number:rest", "more"),
    ),
    "late_number": (
        ("counted_np:w", "late_value"),
        ("quantity:w", "late_value"),
    ),
    "late_value": (
        ("counted_np:w", "late_value"),
        ("quantity:w", "late_value"),
        # "remove X, then children(S)", "rm X, then children of S -> list"
        ("children:w [(COMMA|ARROW) ASK [IT] [ALL]]", "late_value"),
        ("ranking:w", "late_value"),  # "..., followed by a ranking of the children of A by capacity"
    ),
    "sep": (
        ("(COMMA|THEN|AND|COMMA THEN|COMMA AND|AND THEN|COMMA AND THEN|THEN COMMA|AND COMMA)",
         None),
        # "and, having done so, count ...", ", then, list ..."
        ("[COMMA] [AND] [COMMA] THEN COMMA", None),
    ),
    "group": (
        # "for each switch, how many ports would there be if a new port were added to it?"
        ("FOREACH KIND:pk [COMMA] read:r [COMMA] AFTER new_kind:k [auxes] ADDED [(TO|IN) IT]",
         "for_each_then"),
        ("before:b [COMMA]", "before_only"),
        ("clause:c [gap]", "plain"),
        ("before:b [COMMA] clause:c [gap]", "before"),
        ("clause:c [COMMA] before:b [gap]", "after"),
        ("topic:t [COMMA] clause:c [gap]", "topic"),
        ("topic:t COMMA before:b [COMMA] clause:c", "topic_before"),
        ("named_topic:t (COMMA|ARROW) clause:c [gap]", "topic"),
        ("(named_topic|topic):t (COMMA|ARROW) clause:c [COMMA] before:b [gap]", "topic_before"),
        ("clause:c THEN [gap]", "then"),
        ("before:b [COMMA] clause:c THEN [gap]", "before_then"),
    ),
    "named_topic": (
        ("[KIND_SG:k] [NODE] NAME:n", "named_locus"),
    ),
    # The node a request is about, said first: "for agg block A, ...", "on switch S, ...".
    "topic": (
        ("(OF|ABOUT) node:p", None),
        ("[DIRECT] (IN|AMONG|FROM|LOOKAT) node:p", "locus"),
    ),
    "before": (
        ("AFTER new_nodes:n auxes place:p", "added"),
        ("AFTER change:m", None),
        ("AFTER event:m", None),
        ("WITH state:m", None),
        ("AFTER auxes done:m", None),
        ("AFTER done:m", None),
        ("AFTER REMOVAL OF targets:t [from_part:f]", "removed"),
        ("AFTER targets:t POSS REMOVAL [from_part:f]", "removed"),
        ("AFTER ADDITION OF new_nodes:n place:p", "added"),
        ("AFTER ADDITION OF new_kind:k (TO|IN) ALL KIND:pk", "for_each"),
        ("AFTER targets:t GET GONE [from_part:f]", "removed"),
        ("AFTER cap_target:t SUBJ [EQ] amount:v", "set_to"),
        ("AFTER targets:t SUBJ RATE:v", "set_to_rate"),
        ("INVERT inverted:m", None),
    ),
    # "once you have deleted X", "after we've added N to A"
    "done": (
        ("GONE targets:t [from_part:f]", "removed"),
        ("ADDED new_nodes:n place:p", "added"),
        ("SETP cap_target:t (TO|AS) amount:v", "set_to"),
        ("SETP targets:t (TO|AS) RATE:v", "set_to_rate"),
        ("ADDED new_kind:k (TO|IN) ALL KIND:pk", "for_each"),
    ),
    # "were X removed", "had N been added to A", "should X be deleted"
    "inverted": (
        ("targets:t [auxes] GONE [from_part:f]", "removed"),
        ("targets:t TO [auxes] GONE [from_part:f]", "removed"),
        ("new_nodes:n TO [auxes] ADDED place:p", "added"),
        ("new_nodes:n [auxes] ADDED place:p", "added"),
        ("cap_target:t [auxes] SETP (TO|IN|AS) amount:v", "set_to"),
    ),
    # A change told as having happened: "X has been removed", "N is added to P".
    "event": (
        ("targets:t [auxes] GONE [from_part:f]", "removed"),
        ("new_nodes:n [COMMA] [auxes] ADDED place:p", "added"),
        ("new_nodes:n [auxes] ADDED place:p AS KIND_SG:k", "add_kinded"),
        ("cap_target:t [auxes] (SETP|BECOME) (TO|IN|AS) amount:v", "set_to"),
        ("cap_target:t [auxes] BECOME amount:v", "set_to"),
        ("targets:t [auxes] SETP (TO|IN|AS) RATE:v", "set_to_rate"),
        ("new_kind:k [auxes] ADDED (TO|IN) ALL KIND:pk", "for_each"),
        # "every agg block has had a new port added (to it)", "each domain has a new switch"
        ("(ALL|EACHW) KIND:pk [auxes] (HAVE|GET) [auxes] new_kind:k [ADDED] [(TO|IN) IT]",
         "for_each"),
    ),
    "state": (
        ("targets:t GONE [from_part:f]", "removed"),
        ("targets:t OUTOF GRAPH", "removed"),  # "with X out of the graph, ..."
        ("new_nodes:n ADDED place:p", "added"),
        ("new_nodes:n ADDED place:p AS KIND_SG:k", "add_kinded"),
        ("new_nodes:n ADDED AS KIND_SG:k place:p", "add_kinded"),  # "with N added as a switch in A"
        ("cap_target:t SETP (TO|IN|AS) amount:v", "set_to"),
        ("targets:t SETP (TO|IN|AS) RATE:v", "set_to_rate"),
        ("targets:t (IN|TO) RATE:v", "set_to_rate"),
        ("new_kind:k ADDED (TO|IN) (ALL|EACHW) KIND:pk", "for_each"),  # "with a new port added to each agg block"
    ),
    "auxes": (
        ("(AUX|ALL) [auxes]", None),
    ),
    "clause": (
        ("change:m", None),
        ("read:r", None),
        ("participle_read:r", None),
        ("WANT participle_read:r", None),
        ("per_node:r", None),
        ("WANT [TO] change:m", None),
        ("WANT [TO] read:r", None),
        ("WANT wanted:m", None),
    ),
    # "I want ...": what is wanted, said as a thing or as a state.
    "wanted": (
        ("new_nodes:n place:p", "add"),
        ("new_nodes:n place:p AS KIND_SG:k", "add_kinded"),
        # "I need a new port on S, name it N", "we need a port on S called N"
        ("new_kind:k place:p [COMMA] CALLED NAME:n", "add_called"),
        ("new_kind:k place:p (AND|COMMA|COMMA AND) CALL [IT] [AS] NAME:n", "add_called"),
        ("targets:t [auxes] GONE [from_part:f]", "remove"),
        ("targets:t TO auxes GONE [from_part:f]", "remove"),  # "arrange for X to be removed"
        ("targets:t [TO] [EACHW] auxes SETP [WITH] CAP (OF|EQ) amount:v", "update"),
        ("what:w", None),
        ("what:w COMMA WH auxes IT", None),  # "we need the capacity of P - what is it?"
        # "I need three new ports on switch S, named A, B and C"
        ("[NUM:count] KIND_PL:k place:p [COMMA] CALLED new_names:names", "add_listed"),
        ("new_nodes:n [COMMA] ADDED place:p", "add"),
        ("new_nodes:n [COMMA] TO auxes ADDED place:p", "add"),  # "we require a node N to be placed under A"
        ("new_nodes:n [COMMA] TO auxes place:p", "add"),  # "... to be placed under A" ("placed under" is a place)
        ("node:p TO GET new_nodes:n", "add"),
        ("cap_target:t TO auxes amount:v", "update"),
        # "we would like the capacity of P to be increased to 40 Gbit/s"
        ("cap_target:t TO auxes SETP (TO|AS) amount:v", "update"),
        ("targets:t TO auxes SETP (TO|AS) (RATE:v [CAP]|CAP [OF|EQ] amount:v)", "update"),
        ("targets:t TO auxes RATE:v", "update"),
        # "I need the capacity of P changed to 25 Gbps", "we want the ports of S set to 10G"
        ("cap_target:t SETP (TO|AS) amount:v", "update"),
        ("targets:t [auxes] SETP (TO|AS) (RATE:v|CAP (OF|EQ) amount:v)", "update"),
        ("targets:t TO [auxes] HAVE (RATE:v [CAP]|CAP (OF|EQ) amount:v)", "update"),
        # "arrange for P to have its capacity changed to 40G", "P1 and P2 each have their
        # capacity set to 25G"
        ("targets:t [TO] [EACHW|ALL] HAVE ITS CAP [auxes] SETP (TO|AS) amount:v", "update"),  # "I want every port of S to have a capacity of 40G"
        # "we need P at 40G", "we need every port of S at a capacity of 40 Gb/s"
        ("targets:t IN (RATE:v [CAP]|CAP (OF|EQ) amount:v)", "update"),
        # "we need one new port per agg block", "we want a new switch in every control domain"
        ("new_kind:k (PER|(TO|IN) ALL) KIND:pk", "for_each"),
    ),
    # ---------------------------------------------------------------- changes
    "change": (
        ("NEW new_nodes:n place:p", "add"),
        ("add:m", None),
        ("remove:m", None),
        ("update:m", None),
        ("for_each:m", None),
        ("event:m", None),
    ),
    "add": (
        ("ADD new_nodes:n place:p", "add"),
        ("ADDITION OF new_nodes:n place:p", "add"),  # "addition of port N to S, please"
        # the object before the verb: "to S a new port N add", "a new port N to S add"
        ("place:p [COMMA] new_nodes:n ADD", "add"),
        ("new_nodes:n place:p ADD", "add"),
        ("(TO|IN) ALL KIND:pk new_kind:k ADD", "for_each"),  # "in each domain one new switch add"
        ("ADD new_nodes:n place:p AS KIND_SG:k", "add_kinded"),
        ("MAKE new_nodes:n place:p", "add"),
        ("new_nodes:n [auxes] ADDED place:p AS KIND_SG:k", "add_kinded"),
        ("ADD place:p [COMMA] new_nodes:n", "add"),
        ("ADD new_nodes:n AS [DIRECT] CHILD (OF|TO) node:p", "add"),
        ("ADD new_kind:k place:p (AND|COMMA|THEN|COMMA AND) CALL [IT] [AS] NAME:n", "add_called"),
        ("ADD new_kind:k place:p [COMMA] CALLED NAME:n", "add_called"),
        # "re S - add port, name N" (the place is the one said first), "S needs another port -
        # call it N"
        ("ADD new_kind:k (COMMA|AND) CALL [IT] [AS] NAME:n", "add_called"),
        ("node:p [auxes] GET new_kind:k (COMMA|AND) CALL [IT] [AS] NAME:n", "add_called"),
        ("MAKE new_nodes:n [COMMA] [AS] [DIRECT] CHILD OF node:p", "add"),
        ("ADD new_nodes:n place:p (COMMA|AND|COMMA AND) more_adds:rest", "add_more"),
        ("new_nodes:n [auxes] ADDED AS [DIRECT] KIND_SG:k (OF|TO|IN|UNDER) node:p", "add_kinded"),
        ("new_nodes:n [auxes] ADDED AS [DIRECT] CHILD (OF|TO|IN) node:p", "add"),
        ("ADD new_nodes:n", "add_here"),
        ("GIVE node:p new_nodes:n", "add"),
        ("node:p PLUSEQ new_nodes:n", "add"),  # "S += port N"
        # "give S another port and call it N"
        ("GIVE node:p new_kind:k (AND|COMMA|COMMA AND) CALL [IT] [AS] NAME:n", "add_called"),
        # a wish said as a statement: "N should be a port under S", "S must have a port N",
        # "there should be a port N on S" (never a plain statement: "S has a port N")
        ("new_nodes:n MODAL [auxes] [BECOME] KIND_SG:k place:p", "add_kinded"),
        ("new_nodes:n [COMMA] MODAL [auxes] place:p", "add"),
        ("new_nodes:n MODAL [auxes] ADDED", "add_here"),
        # "a new port, N, is to be attached to S", "a new switch, to be named N, should be added to A"
        ("new_nodes:n [COMMA] MODAL [auxes] ADDED place:p", "add"),
        ("targets:t [COMMA] MODAL [auxes] GONE [from_part:f]", "remove"),  # "X is to be removed"
        ("new_nodes:n MODAL [auxes] [BECOME] KIND_SG:k OF node:p", "add_kinded"),
        ("MAKE new_nodes:n KIND_SG:k (OF|IN|TO) node:p", "add_kinded"),
        ("THERE MODAL [auxes] new_nodes:n place:p", "add"),
        ("node:p MODAL [auxes] HAVE new_nodes:n", "add"),
        ("GIVE node:p WITH new_nodes:n", "add"),
        ("new_nodes:n [MODAL] [auxes] GOES place:p", "add"),
        ("ADD NUM:count KIND_PL:k [CALLED] new_names:names (TO|IN) names:ps RESP", "add_resp"),
        ("ADD KIND_PL:k [CALLED] new_names:names (TO|IN) names:ps RESP", "add_resp"),
        ("ADD new_nodes:n UPTO node:p", "add"),
        # "add the following ports to S: A, B and C", "create three ports on S: A, B, C"
        ("ADD [NUM:count] KIND_PL:k place:p COMMA new_names:names", "add_listed"),
        ("ADD [NUM:count] KIND_PL:k place:p [COMMA] CALLED new_names:names", "add_listed"),
        ("ADD new_names:names AS KIND_PL:k place:p", "add_listed"),  # "add A, B and C as ports on S"
        # the parent said first: "to S, add a port N", "onto switch S, attach port N"
        ("(TO|IN) node:p [COMMA] ADD new_nodes:n", "add"),
        ("ADD new_nodes:n AS KIND_SG:k (OF|TO|IN) node:p", "add_kinded"),  # "add N as a port of S"
        ("node:p [auxes] GET new_nodes:n", "add"),
        ("node:p [auxes] GET new_nodes:n ADDED", "add"),  # "S needs ports N1 and N2 added"
    ),
    # "... and port B to S2": more new nodes, each with its own parent.
    "more_adds": (
        ("[THEN] new_nodes:n place:p", "adds_one"),
        ("[THEN] new_nodes:n place:p (COMMA|AND|COMMA AND) more_adds:rest", "adds_more"),
    ),
    "new_nodes": (
        ("new_node:n", "new_one"),
        ("new_node:n (COMMA|AND|COMMA AND) new_nodes:rest", "new_more"),
        ("[NUM:count] KIND_PL:k [CALLED] [COMMA] new_names:names [COMMA]", "new_named"),
        ("[NUM:count] KIND_PL:k COMMA CALLED new_names:names [COMMA]", "new_named"),
    ),
    "new_node": (
        ("[KIND_SG:k] [NODE] [CALLED] [COMMA] NAME:n [appos:k2]", "new_node"),
        # "a node of type EK_PORT named N" ("of type" is dropped), "a new EK_PORT node, N,"
        ("NODE KIND_SG:k [COMMA] [CALLED] NAME:n", "new_node"),
        ("KIND_SG:k NODE COMMA NAME:n COMMA", "new_node"),
        ("KIND_SG:k COMMA NAME:n COMMA", "new_node"),  # "a new switch, sw7, to be placed under A"
        ("KIND_SG:k [NODE] COMMA CALLED NAME:n [COMMA]", "new_node"),
    ),
    "appos": (
        ("[COMMA] [AS|OF] KIND_SG:k [COMMA]", None),
    ),
    "new_names": (
        ("NAME:n", "first_name"),
        ("NAME:n (COMMA|AND|COMMA AND|SLASH) new_names:rest", "more_names"),
    ),
    "place": (
        ("[COMMA] [DIRECT] (TO|IN) node:p", None),  # "add port N (directly) to A"
        ("THERE", "it"),  # "after adding N there": the node the request is about
    ),
    "remove": (
        ("REMOVE targets:t [from_part:f]", "remove"),
        ("targets:t (ARROW|COMMA) REMOVE [IT] [from_part:f]", "remove"),  # "S -> remove (from graph)"
        # the object before the verb: "the switch S remove from the graph", "S from graph delete"
        ("targets:t REMOVE [from_part:f]", "remove"),
        ("targets:t from_part:f REMOVE", "remove"),
        ("REMOVE from_part:f [COMMA] targets:t", "remove"),  # "remove from the graph switch S"
        ("from_part:f REMOVE targets:t", "remove"),  # "from the graph remove S"
        # "remove the following ports from the graph: A, B, C"
        ("REMOVE KIND_PL:k from_part:f COMMA names:t", "remove_listed"),
        ("REMOVE targets:t COMMA from_part:f", "remove"),  # "remove P1, as well as P2, from S"
        ("REMOVE NUM:count KIND_PL:k [COMMA] names:t [from_part:f]", "remove_counted"),
        # "remove these three ports from the topology: A, B, C"
        ("REMOVE NUM:count KIND_PL:k from_part:f COMMA names:t", "remove_counted"),
        ("from_part:f COMMA REMOVE NUM:count KIND_PL:k COMMA names:t", "remove_counted"),
        ("REMOVE names:t from_part:f (COMMA|AND|COMMA AND) more_removes:rest", "remove_more"),
        ("REMOVE names:t FROM names:ps [COMMA] RESP", "remove_resp"),
        ("REMOVE KIND_PL:k COMMA names:t [from_part:f]", "remove_listed"),
        # what is to be removed, then the names: "three ports to remove from the graph: A, B, C"
        ("NUM:count KIND_PL:k TO REMOVE [from_part:f] COMMA names:t", "remove_counted"),
        ("KIND_PL:k TO REMOVE [from_part:f] COMMA names:t", "remove_listed"),
        ("TAKE targets:t OUT [from_part:f]", "remove"),
        ("TAKE targets:t AWAY [from_part:f]", "remove"),
        ("(TAKE|REMOVE) targets:t OFF [OF] node:f", "remove"),
        ("(TAKE|REMOVE) targets:t OFF [OF] GRAPH", "remove"),  # "take X off the graph"
        ("TAKE targets:t from_part:f", "remove"),
        ("targets:t [auxes] GONE [from_part:f]", "remove"),
        ("(HAVE|GET) targets:t GONE [from_part:f]", "remove"),
        ("node:f MODAL [auxes] LOSE targets:t", "remove"),
        ("from_part:f COMMA REMOVE targets:t", "remove"),
        ("REMOVAL OF targets:t [from_part:f]", "remove"),  # "removal of X, please"
    ),
    # "... and P2 from S2": more nodes to remove, each from its own parent.
    "more_removes": (
        ("names:t from_part:f", "removes_one"),
        ("names:t from_part:f (COMMA|AND|COMMA AND) more_removes:rest", "removes_more"),
    ),
    "from_part": (
        ("FROM GRAPH", "from_graph"),
        ("FROM node:p", "from_node"),
    ),
    "update": (
        ("SET one_set:a (COMMA|AND|COMMA AND) more_sets:rest", "update_more"),
        ("SET (names|cap_names):t (TO|AS) amounts:vs [COMMA] RESP", "update_resp"),
        ("SET cap_target:t (TO|AS|IN|UPTO|EQ) amount:v [EACHW]", "update"),
        ("SET CAP COMMA targets:t (EQ|ARROW) amount:v", "update"),  # "update capacity: P = 25G"
        # the object before the verb: "the capacity of P change to 40G", "... to 40G set"
        ("cap_target:t SET (TO|AS) amount:v", "update"),
        ("targets:t SET (TO|AS) (RATE:v [CAP]|CAP [OF|EQ] amount:v)", "update"),
        ("TO amount:v COMMA SET cap_target:t", "update"),
        ("SET OF cap_target:t (TO|AS) amount:v", "update"),  # "an update of the capacity of P to 10G"
        ("SET cap_target:t COMMA (TO|AS) amount:v [EACHW]", "update"),  # "an update to the capacity of P, to 25G"
        ("SET OF targets:t (TO|AS) (RATE:v [CAP]|CAP [OF|EQ] amount:v)", "update"),  # "to 25 Gb/s, update the capacity of P"
        ("amount:v AUX CAP (OF|FOR) targets:t", "update"),  # "25G is the new capacity for P"
        # "set the capacity to 40 Gbps for every port in A"
        ("SET [ITS] CAP (TO|AS) amount:v (OF|IN) targets:t", "update"),
        ("SET [ITS] CAP (TO|AS) amount:v FOREACH each:t", "update_each"),
        ("SET CAP FOREACH each:t (TO|AS) amount:v", "update_each"),  # "the capacity for all ports in A to"
        ("cap_target:t (TO|AS) amount:v SET", "update"),
        ("SET targets:t WITH CAP [OF|EQ] amount:v", "update"),
        ("SET targets:t WITH RATE:v CAP", "update"),  # "configure all ports of S with 10G capacity"
        ("SET RATE:v CAP (IN|BY|OF) targets:t", "update"),  # "set 10 Gb/s capacity on P"
        ("SET RATE:v CAP (IN|BY|OF) EACHW each:t", "update_each"),  # "... on each port of S"
        ("REPLACE cap_target:t WITH amount:v", "update"),
        ("SET targets:t COMMA CAP [OF|EQ|TO] amount:v", "update"),
        ("cap_target:t MODAL [auxes] [EQ] amount:v", "update"),
        ("cap_target:t ARROW amount:v", "update"),
        ("targets:t ARROW RATE:v [CAP]", "update"),
        ("targets:t ARROW CAP [EQ|OF|TO] amount:v", "update"),
        ("targets:t COMMA CAP EQ amount:v", "update"),  # "P: capacity = 25G" (an assignment)
        # a headline of names: "P1, P2, P3: set capacity to 40 Gbps"
        ("targets:t (COMMA|ARROW) SET [ITS] CAP (TO|AS) amount:v", "update"),
        ("SET targets:t (TO|AS|IN|UPTO|EQ) RATE:v [KIND|[OF] CAP]", "update"),
        ("SET targets:t (TO|AS|EQ) RATE:v EACHW", "update"),  # "set A and B to 25 Gbps each"
        # the names said after how many and of what kind: "set two ports, A and B, to 40G",
        # "update the capacity of the two ports A and B to 40G"
        ("SET NUM:count KIND_PL:k [COMMA] names:t [COMMA] (TO|AS) RATE:v [[OF] CAP] [EACHW]",
         "update_counted"),
        ("SET CAP OF NUM:count KIND_PL:k [COMMA] names:t [COMMA] (TO|AS) amount:v [EACHW]",
         "update_counted"),
        ("targets:t GET CAP [OF|EQ] amount:v", "update"),  # "every port of S needs cap 10G"
        ("targets:t GET RATE:v [CAP]", "update"),
        ("targets:t MODAL [auxes] GET (RATE:v [CAP]|CAP [OF|EQ] amount:v)", "update"),
        # "A and B need their capacity changed to 10G", "every port of S should have its
        # capacity set to 40 Gbps"
        ("targets:t (GET|MODAL [auxes] HAVE) ITS CAP [auxes] SETP (TO|AS) amount:v", "update"),
        ("SET targets:t TO CAP (OF|EQ) amount:v", "update"),
        ("SET targets:t [REL] ITS CAP ((AUX|BECOME) [EQ]|EQ) amount:v", "update"),
        # "update P: its capacity should be 10 Gbps"
        ("SET targets:t COMMA ITS CAP MODAL [auxes] [EQ] amount:v", "update"),
        # "assign a capacity of 25 Gbps to P", "designate 10 Gbps as the capacity of P"
        ("SET CAP (OF|EQ) amount:v (TO|FOR) targets:t", "update"),
        ("SET amount:v AS CAP (OF|FOR) targets:t", "update"),
        # "update P1 and P2 so that each has a capacity of 10 Gb/s"
        ("SET targets:t [REL] (EACHW|IT) [auxes] HAVE (CAP (OF|EQ) amount:v|RATE:v [CAP])",
         "update"),
        ("targets:t MODAL [auxes] RATE:v", "update"),
        ("targets:t MODAL [auxes] RUNAT amount:v", "update"),
        ("(MAKE|SET) targets:t [TO] RUNAT amount:v", "update"),
        ("targets:t MODAL [auxes] HAVE CAP [OF|EQ] amount:v", "update"),
        ("targets:t MODAL [auxes] HAVE RATE:v [OF] [CAP]", "update"),
        ("MAKE cap_target:t amount:v", "update"),
        ("MAKE targets:t RATE:v [KIND] [EACHW]", "update"),
        ("MAKE targets:t [auxes] HAVE CAP (OF|EQ) amount:v", "update"),
        ("GIVE targets:t CAP (OF|EQ) amount:v", "update"),
        ("GIVE targets:t RATE:v [CAP]", "update"),
        ("cap_target:t [auxes] (SETP|BECOME) (TO|IN|AS) amount:v", "update"),
        ("cap_target:t [auxes] BECOME amount:v", "update"),
        ("MAKE cap_target:t EQ amount:v", "update"),
        ("targets:t [auxes] HAVE CAP (OF|EQ) amount:v", "update"),
        ("targets:t [auxes] SETP (TO|IN|AS) RATE:v [[OF] CAP]", "update"),
        ("targets:t [auxes] SETP (TO|AS) CAP (OF|EQ) amount:v", "update"),  # "... are to be set to a capacity of 40G"
        # "P could be given a capacity of 10G", "... reconfigured with a capacity of 40G"
        ("targets:t [EACHW] auxes SETP [WITH] CAP (OF|EQ) amount:v", "update"),
        # "every port of A is to be given a capacity of 10G", "... configured with a capacity of"
        ("targets:t MODAL [auxes] SETP [WITH] CAP (OF|EQ) amount:v", "update"),
        ("FOREACH each:t [COMMA] SET [ITS] CAP (TO|AS) amount:v", "update_each"),
        ("FOREACH each:t [COMMA] SET (IT|ITS CAP) (TO|AS) RATE:v", "update_each"),
    ),
    # One answer per node of a set: "for each switch in A, how many ports does it have?", "the
    # capacity of each switch in A", "ports per switch in A". The answer lists every node of
    # the set with its number (largest first), so it is a top-k with no limit.
    "per_node": (
        ("FOREACH one_each:s [COMMA] per_q:m", "per_node"),
        ("PER one_each:s [COMMA] per_q:m", "per_node"),
        ("HOWMANY KIND_PL:k auxes EACHW one_each:s [auxes] HAVE", "per_node_count"),
        ("HOWMANY KIND_PL:k auxes ALL one_each:s [auxes] HAVE [COMMA] PERNODE", "per_node_count"),
        ("HOWMANY KIND_PL:k auxes EACHW one_each:s [auxes] (HOLDING|HAVE)", "per_node_count"),
        ("HOWMANY KIND_PL:k auxes [THERE] ((IN|OF) EACHW|PER) one_each:s", "per_node_count"),
        ("[ASK] KIND_SG:k NUMBER (OF|FOR|IN) EACHW one_each:s", "per_node_count"),
        ("ASK EACHW one_each:s [COMMA] (WITH|AND) ITS metric:m", "per_node"),
        ("ASK [COMMA] FOREACH one_each:s [COMMA] per_q:m", "per_node"),
        ("[ASK] [NUMBER OF] KIND_PL:k (OF|IN|ON|PER|FOR) EACHW one_each:s", "per_node_count"),
        ("COUNT [ALL] KIND_PL:k (OF|IN|ON|FOR) EACHW one_each:s", "per_node_count"),
        ("COUNT [ALL] KIND_PL:k PER one_each:s", "per_node_count"),
        ("COUNT [ALL] KIND_PL:k (IN|OF) node:p (BY|PER) KIND_SG:ks", "per_node_grouped"),
        ("[ASK] KIND_SG:k NUMBER PER one_each:s", "per_node_count"),
        ("[ASK] [NUMBER OF] KIND_PL:k PER one_each:s", "per_node_count"),
        ("NUMBER OF KIND_PL:k (PER|FOR EACHW|IN EACHW|ON EACHW) one_each:s", "per_node_count"),
        ("WH auxes [TOTALW] CAP (OF|FOR) EACHW one_each:s", "per_node_capacity"),
        ("[ASK] CAP (PER|OF EACHW|FOR EACHW) one_each:s", "per_node_capacity"),
    ),
    # The node of a "for each" read: "switch in A", "of the switches in A", "switch".
    "one_each": (
        ("KIND_SG:k [DIRECT:d] [relative] loc:p [[COMMA] DEEP:e3] [filters:f]", "each_one"),
        ("[OF] set:s", None),
        ("KIND_SG:k [filters:f]", "each_anywhere"),
    ),
    # What is asked of each: "how many ports does it have", "count its ports", "its capacity".
    "per_q": (
        ("HOWMANY KIND_PL:k [auxes] IT [auxes] (HAVE|HOLDING)", "count_metric"),
        ("HOWMANY KIND_PL:k [auxes] [THERE] [auxes] [BE] [(IN|ON|OF) IT]", "count_metric"),
        ("COUNT [ITS|ALL] KIND_PL:k [(IN|ON|OF) IT]", "count_metric"),
        ("COUNT [ALL] KIND_PL:k [REL] IT [auxes] (HAVE|HOLDING)", "count_metric"),
        ("[WH] [auxes] [ITS] NUMBER OF KIND_PL:k [(IN|ON|OF) IT]", "count_metric"),
        ("[WH] [auxes] [ITS] KIND_SG:k NUMBER", "count_metric"),
        ("ASK [ITS] NUMBER OF KIND_PL:k", "count_metric"),
        ("[ASK] NUMBER OF KIND_PL:k [REL] IT [auxes] (HAVE|HOLDING)", "count_metric"),
        ("ASK [ITS] [TOTALW] CAP", "capacity_metric"),
        ("[ITS] [TOTALW] CAP", "capacity_metric"),
        ("WH [auxes] ITS [TOTALW] CAP", "capacity_metric"),
        ("WH [auxes] [TOTALW] CAP [(OF|FOR) IT]", "capacity_metric"),
        ("WH [TOTALW] CAP [auxes] IT [auxes] HAVE", "capacity_metric"),
        ("HOWMUCH [TOTALW] CAP [auxes] IT [auxes] HAVE", "capacity_metric"),
    ),
    # "set P1 to 10 Gbps and P2 to 40 Gbps", "... and (that) of P2 to 40 Gbps": a value each.
    "cap_names": (
        ("CAP (OF|FOR) names:t", None),
    ),
    "amounts": (
        ("amount:v", "amount_one"),
        ("amount:v (COMMA|AND|COMMA AND) amounts:rest", "amounts_more"),
    ),
    "one_set": (
        ("cap_target:t (TO|AS|EQ) amount:v", "set_one"),
        ("names:t (TO|AS|EQ) RATE:v", "set_one_names"),
    ),
    "more_sets": (
        ("[THEN] (one_set|one_set_of):a", "sets_one"),
        ("[THEN] (one_set|one_set_of):a (COMMA|AND|COMMA AND) more_sets:rest", "sets_more"),
    ),
    "one_set_of": (
        ("OF names:t (TO|AS|EQ) amount:v", "set_one_names"),
    ),
    # What "for each" / "for all" ranges over: "for all ports in A", "for every port of S".
    "each": (
        ("set:s", None),
        ("KIND_SG:k [DIRECT:d] [relative] loc:p [[COMMA] DEEP:e3] [filters:f]", "each_one"),
    ),
    "cap_target": (
        ("CAP (OF|FOR|AMONG) targets:t", None),
        ("CAP AMONG OF targets:t", None),  # "the capacity of all of S's ports"
        ("CAP IN names:t", "targets_names"),  # "the capacity on P1 and P2"
        ("CAP IN set:t", "targets_set"),  # "set the capacity on all ports of S to ..."
        ("targets:t POSS CAP", None),
        ("names:t CAP", "targets_names"),
        ("ITS CAP", "cap_of_it"),
        ("CAP", "cap_of_locus"),
        ("[ALL] (KIND_SG|KIND_PL):k [POSS] CAP [DIRECT:d] loc:p", "set_poss_cap"),
        ("[ALL] [OF] node:p POSS [DIRECT:d] KIND_SG:k CAP", "set_poss_cap"),
    ),
    "amount": (
        ("NUM:v", None),
        ("RATE:v [[OF] CAP]", None),  # "set P to 40 Gbps (of) capacity"
    ),
    "for_each": (
        ("FOREACH KIND:pk [COMMA] [AND] ADD new_kind:k [(TO|IN) (IT|ITS|EACHW)]", "for_each"),
        ("FOREACH KIND:pk [COMMA] ADD new_kind:k THERE", "for_each"),
        # "for every agg block, a new port is to be added (to it)"
        ("FOREACH KIND:pk [COMMA] new_kind:k MODAL [auxes] ADDED [(TO|IN) IT]", "for_each"),
        ("ADD new_kind:k (TO|IN) ALL KIND:pk", "for_each"),
        ("ADD new_kind:k PER KIND:pk", "for_each"),  # "add one new switch per control domain"
        ("ADDITION OF new_kind:k ((TO|IN) ALL|PER) KIND:pk", "for_each"),  # "the addition of a port to each A"
        ("(TO|IN) ALL KIND:pk [COMMA] ADD new_kind:k", "for_each"),
        ("GIVE ALL KIND:pk new_kind:k", "for_each"),
        # "across all agg blocks, add a new port to each one"
        ("(ACROSS|AMONG|IN|TO) [ALL] KIND:pk [COMMA] ADD new_kind:k [(TO|IN) (IT|EACHW)]",
         "for_each"),
        # "every agg block needs a new port added to it"
        ("ALL KIND:pk [auxes] GET new_kind:k ADDED [(TO|IN) IT]", "for_each"),
        ("ALL KIND:pk [auxes] GET new_kind:k", "for_each"),
    ),
    "new_kind": (
        ("KIND_SG:k", None),
        ("NUM:one KIND:k", "one_kind"),
    ),
    # ---------------------------------------------------------------- node phrases
    "node": (
        ("[KIND_SG:k] [NODE] [CALLED] NAME:n [in_graph]", "node"),
        ("ITS KIND_SG:k NAME:n", "node"),
        ("NAME:n COMMA KIND_SG:k COMMA", "node"),
        ("IT", "it"),
    ),
    "bare_node": (
        ("[NODE] NAME:n [in_graph]", "node"),
        ("IT", "it"),
    ),
    "in_graph": (
        ("(IN|OF|FROM) GRAPH", None),
    ),
    "names": (
        ("[KIND:k] [NODE] [CALLED] NAME:n [in_graph]", "name_one"),
        ("[KIND:k] [NODE] [CALLED] NAME:n (COMMA|AND|COMMA AND|SLASH) [OF] names:rest",
         "name_more"),
        ("NAME:n names:rest", "name_more"),  # "rm A B C"
    ),
    "targets": (
        ("names:t", "targets_names"),
        ("set:t", "targets_set"),
        ("IT", "targets_it"),
    ),
    # A node set: "the ports of S", "every port under A with capacity below 10 Gbps".
    "set": (
        ("core:s [filters:f]", "filtered"),
    ),
    # a set said first, then which of it: "of the ports of S, list those with capacity below
    # 2 Gbps", "among the switches in A, list those whose name ends with c4"
    "picked": (
        ("(OF|AMONG) core:s [COMMA] ASK filters:f", "filtered"),
    ),
    "core": (
        # "all ports located (anywhere) under A", "every port contained anywhere within A"
        ("[ALL] [DIRECT:d] KIND_PL:k BE [DIRECT:d2] [DEEP:e2] loc:p [[COMMA] DEEP:e3]", "core"),
        ("ALL [DIRECT:d] KIND_SG:k BE [DIRECT:d2] [DEEP:e2] loc:p [[COMMA] DEEP:e3]", "core"),
        ("[ALL] [DIRECT:d] [DEEP:e] KIND_PL:k [DIRECT:d2] [DEEP:e2] [relative] loc:p "
         "[[COMMA] DEEP:e3]", "core"),
        ("ALL [DIRECT:d] KIND_SG:k [DIRECT:d2] [DEEP:e2] [relative] loc:p [[COMMA] DEEP:e3]",
         "core"),
        ("[ALL] [DIRECT] KIND_SG:k CHILD loc:p", "core_children"),
        ("[ALL] RATE:v KIND_PL:k loc:p", "core_rate"),
        ("[ALL] node:p POSS [DIRECT:d] KIND_PL:k", "core_poss"),
        ("node:p KIND_PL:k", "core_poss"),  # "which ju1.a1.m2 ports have ..."
        ("ALL node:p (KIND_SG|KIND_PL):k", "core_poss"),  # "every S port"
        ("ALL OF node:p POSS KIND_PL:k", "core_poss"),
        ("[ALL] ITS [DIRECT:d] KIND_PL:k [[COMMA] DEEP:e3]", "core_its"),
        ("[ALL] KIND_PL:k THERE", "core_its"),  # "add N to S and count the ports there"
        ("[ALL] KIND_PL:k [DIRECT:d] node:p HAVE", "core_has"),
        ("[ALL] KIND_PL:k REL node:p [DIRECT:d] HAVE", "core_has"),
        ("ALL KIND_SG:k REL node:p [DIRECT:d] HAVE", "core_has"),
        ("[ALL] KIND_PL:k [IN GRAPH:g]", "core_graph"),
        ("ALL KIND_SG:k [IN GRAPH:g]", "core_graph"),
    ),
    "loc": (
        ("(OF|IN|FROM|ACROSS) node:p", None),
    ),
    # "that are", "which sit", "that belong" (the place follows)
    "relative": (
        ("REL [auxes] [BE] [DIRECT:d]", None),
    ),
    "filters": (
        ("filter:f", "filter_one"),
        ("filter:f [COMMA] (AND|COMMA) filters:rest", "filter_more"),
    ),
    "filter": (
        ("WITH [CAP:said] [OF] cmp:c amount:v [OF] [CAP:said]", "cap_filter"),
        ("WITH cmp:c amount:v", "cap_filter"),
        ("WITH [CAP:said] (OF|EQ) amount:v", "cap_equal"),
        ("WITH CAP:said amount:v", "cap_equal"),
        ("WITH [CAP:said] [OF] amount:v post:c [CAP:said]", "cap_post"),
        ("WITH amount:v post:c [OF] [CAP:said]", "cap_post"),
        ("(WHOSE|REL) CAP:said [auxes] cmp:c amount:v", "cap_filter"),
        ("(WHOSE|REL) CAP:said [auxes] EQ amount:v", "cap_equal"),
        ("(WHOSE|REL) CAP:said [auxes] amount:v post:c", "cap_post"),
        ("(WHOSE|REL) CAP:said [auxes] RATE:v", "cap_equal"),
        ("REL [auxes] HAVE [CAP:said] [OF] cmp:c amount:v [OF] [CAP:said]", "cap_filter"),
        ("REL [auxes] HAVE [CAP:said] amount:v post:c [OF] [CAP:said]", "cap_post"),
        ("REL [auxes] HAVE CAP:said OF amount:v post:c", "cap_post"),
        ("REL [auxes] cmp:c RATE:v [[IN] CAP]", "cap_filter"),
        ("REL [auxes] RATE:v post:c [[IN] CAP]", "cap_post"),  # "that are 40 gig or higher"
        ("[REL] [auxes] RUNAT RATE:v", "cap_equal"),
        ("[REL] [auxes] RUNAT cmp:c RATE:v", "cap_filter"),
        ("[REL] [auxes] RUNAT RATE:v post:c", "cap_post"),
        ("REL [auxes] speed:c amount:v", "speed_filter"),
        ("cmp:c RATE:v", "cap_filter"),
        ("speed:c amount:v", "speed_filter"),
        ("RATE:v post:c", "cap_post"),
        ("(IN|OF) RATE:v post:c", "cap_post"),  # "the ports in A at 10 Gbps or above"
        ("WITH cmp:c NUM:v (KIND_PL|KIND_SG):k", "count_filter"),
        ("WITH NUM:v (KIND_PL|KIND_SG):k", "count_equal"),
        ("WITH EQ NUM:v (KIND_PL|KIND_SG):k", "count_equal"),
        ("WITH NUM:v post:c KIND_PL:k", "count_post"),
        ("REL [auxes] HAVE cmp:c NUM:v (KIND_PL|KIND_SG):k", "count_filter"),
        ("REL [auxes] HAVE [EQ] NUM:v (KIND_PL|KIND_SG):k", "count_equal"),
        ("(WHOSE|REL) NAME_N [auxes] (STARTS|ENDS|HAVE|HOLDING|LIKE):m NAME:t", "name_filter"),
        ("WITH NAME_N (STARTS|ENDS|HOLDING|LIKE):m NAME:t", "name_filter"),
        ("WITH NAME_N REL [auxes] (STARTS|ENDS|HAVE|LIKE):m NAME:t", "name_filter"),
        ("(STARTS|ENDS):m NAME:t", "name_filter"),
        ("WITH [NAME_N] (STARTS|ENDS):m NAME:t", "name_filter"),
        ("(CALLED|NAME_N) (STARTS|ENDS|LIKE|HOLDING):m NAME:t", "name_filter"),
    ),
    "cmp": (
        ("(LT|GT|LE|GE):c", None),
    ),
    "post": (
        ("(POST_GE|POST_LE):c", None),
    ),
    "speed": (
        ("(FASTER|SLOWER):c", None),
    ),
    "metric": (
        ("KIND_PL:k", "count_metric"),
        ("NUMBER OF KIND_PL:k", "count_metric"),
        ("KIND_SG:k NUMBER", "count_metric"),
        ("[ITS] [SUM] CAP", "capacity_metric"),
        ("ITS NUMBER OF KIND_PL:k", "count_metric"),
        ("HOWMANY KIND_PL:k IT [auxes] HAVE", "count_metric"),  # "by how many ports they have"
    ),
    # "by capacity", "according to their total capacity"
    "by_cap": (
        ("BY [ITS] [SUM] CAP", None),
        ("BY HOWMUCH [SUM] CAP IT [auxes] HAVE", None),
    ),
    # Where a set is: in a node, in the whole graph, or (when not said) the whole graph.
    "scope": (
        ("loc:p", None),
        ("in_graph", "whole_graph"),
    ),
    "sup": (
        ("(MOST|LEAST):d", None),
    ),
    "order": (
        ("[COMMA] (ORDER_DESC|ORDER_ASC):o [OF] [SUM] [CAP:cap]", "order"),
    ),
    # ---------------------------------------------------------------- reads
    "read": (
        ("ASK what:w", None),
        ("ASK question:w", None),
        ("question:w", None),
        ("COUNT counted:w", None),
        ("COUNT NUMBER OF counted:w", None),
        ("RANK ranked:w", None),
        ("SUMV CAP (OF|FOR|AMONG) set:s", "sum_set"),
        # "what do the ports of S add up to in capacity?", "how much capacity do they total?"
        ("WH [auxes] set:s (SUMV [TO]|ADDUP) [IN] CAP", "sum_set"),
        ("HOWMUCH CAP [auxes] set:s SUMV", "sum_set"),
        ("SUMV set:s POSS CAP", "sum_set"),
        ("SUMV [ALL] CAP (OF|FOR|IN) node:p", "capacity_total"),
        ("SUMV node:p POSS [SUM] CAP", "capacity_total"),
        ("SUMV [ALL] [OF] node:p POSS KIND_SG:k CAP", "aggregate_kind_sum"),
        ("SUMV [ALL] CAP (OF|FOR) name_list:l", "sum_named"),
        ("SUMV [ALL] KIND_SG:k CAP loc:p", "aggregate_kind_sum"),
        # "under A, total up the port capacity": the fronted place's ports
        ("SUMV [ALL] KIND_SG:k CAP", "aggregate_kind_sum_unsaid"),
        ("SUMV [ALL] CAP", "capacity_of_locus_total"),
        ("by_cap [COMMA] RANK children:c [order:o]", "rank"),
        ("CAP RANK [OF] children:c [order:o]", "rank"),  # "capacity-rank the children of S"
        # how to rank said first: "by capacity, rank the ports of S", "in ascending order of
        # capacity, rank the children of A"
        ("BY metric:m [order:o] [COMMA] RANK set:s", "rank_set"),
        ("BY metric:m COMMA RANK set:s order:o", "rank_set"),
        # "by capacity, in descending order, rank the child nodes of A"
        ("BY metric:m COMMA order:o COMMA RANK set:s", "rank_set"),
        ("by_cap COMMA order:o COMMA RANK children:c", "rank"),
        ("order:o COMMA RANK children:c [by_cap]", "rank_order_only"),
        ("ASK [ALL] [DIRECT] CHILD COMMA node:p", "children"),  # "show direct children: A"
        ("ASK [SUM:t] CAP COMMA node:p", "capacity_of"),  # "get capacity: switch S"
        ("COUNT KIND_PL:k (ARROW|COMMA) node:p", "count_kind"),  # "count ports -> S"
        ("picked:s", "list_set"),
        # "among the switches in A, list the two (that have) the most ports"
        ("(OF|AMONG) core:s [COMMA] ASK NUM:k (WITH|HOLDING|REL [auxes] HAVE) sup:d metric:m",
         "top_set_k"),
        # the object before the verb, the verb last ("please the children of A list", "the
        # ports in the graph count", "the child nodes of A by capacity rank")
        ("what:w ASK [IT] [ALL]", None),
        ("counted:w COUNT", None),
        ("children:c [order:o] by_cap RANK", "rank"),
        ("children:c by_cap order:o RANK", "rank"),
    ),
    # A read said as what should be done to a set, like a change told as done: "(I'd like X
    # removed and) the children of S ranked by capacity", "the ports of S counted".
    "participle_read": (
        ("children:c [TO] [auxes] RANK by_cap [order:o]", "rank"),
        ("children:c [TO] [auxes] by_cap [order:o]", "rank"),  # "ranked by", "sorted by" are one BY
        ("children:c [TO] [auxes] RANK order:o", "rank_order_only"),
        ("children:c BY order:o", "rank_order_only"),  # "ordered by increasing capacity"
        ("set:s RANK BY metric:m [order:o]", "rank_set"),
        ("set:s COUNTED", "count_set"),
        ("children:c COUNTED", "count_children"),
        ("children:w LISTED", None),
        ("set:s [TO] [auxes] LISTED", "list_set"),
        # the same wished for: "the children of A should be listed", "... need to be ranked"
        ("children:w [THEN] MODAL [THEN] [auxes] LISTED", None),
        ("children:w [TO] auxes [THEN] LISTED", None),  # "... the children of A could be listed"
        ("set:s MODAL [auxes] LISTED", "list_set"),
        ("children:c [THEN] MODAL [THEN] [auxes] RANK by_cap [order:o]", "rank"),
        ("children:c [THEN] MODAL [THEN] [auxes] by_cap [order:o]", "rank"),
        # "... should be ranked in increasing order of capacity"
        ("children:c [THEN] MODAL [THEN] [auxes] RANK order:o", "rank_order_only"),
        ("set:s [THEN] MODAL [auxes] COUNTED", "count_set"),
        ("counted_np:w [THEN] MODAL [auxes] COUNTED", None),  # "the number of ports on S is to be counted"
        ("set:s [TO] auxes [THEN] COUNTED", "count_set"),  # "... the ports of S could be counted"
        ("set:s [TO] auxes [RANK] BY metric:m [order:o]", "rank_set"),  # "... could be ordered by capacity"
        ("bare:w [TO] auxes [THEN] LISTED", None),  # "... the capacity of P could be stated"
        ("set:s [THEN] MODAL [auxes] [RANK] BY metric:m [order:o]", "rank_set"),
        # "the capacity of P needs to be reported", "the 3 switches ... need to be listed"
        ("bare:w [THEN] MODAL [auxes] LISTED", None),
    ),
    # What a request asks for, as a noun phrase.
    "what": (
        ("TOTALW KIND_PL:k loc:p", "count_kind"),
        ("children:w", None),
        ("children:c [COMMA] REL [auxes] KIND_PL:k", "kind_clause"),
        ("set:s", "list_set"),
        ("quantity:w", "value_read"),
        ("counted_np:w", None),
        ("top:w", None),
        ("ranking:w", None),
        ("ancestry:w", None),
    ),
    "bare": (
        ("TOTALW KIND_PL:k loc:p", "count_kind"),
        ("children:w", None),
        ("children:c [COMMA] REL [auxes] KIND_PL:k", "kind_clause"),
        ("counted_np:w", None),
        ("top:w", None),
        ("ranking:w", None),
        ("quantity:w", "value_read"),
        ("ancestry:w", None),
        ("set_named:s", "list_set"),
    ),
    # Telegraphic requests: the thing asked for, then the node ("capacity: P", "ports: S"), or
    # a set, then what to do with it ("ports under S -> count").
    "tele": (
        ("[SUM:t] CAP [COMMA] node:p", "capacity_of"),
        ("[SUM:t] CAP IN node:p", "capacity_of"),  # "cap on sw S?"
        ("[ALL] [DIRECT] CHILD COMMA node:p", "children"),
        ("KIND_PL:k COMMA node:p", "kind_list"),
        ("agg:a [ALL] KIND_SG:k CAP [COMMA] node:p", "aggregate_kind"),  # "min port capacity, A"
        ("KIND_SG:k NUMBER COMMA node:p", "count_kind"),  # "port count, S"
        ("KIND_SG:k NUMBER [COMMA] [IN] GRAPH:g", "count_graph_q"),  # "switch count, whole graph"
        ("set:s (COMMA|ARROW) (COUNT [IT]|HOWMANY|NUMBER)", "count_set"),
        ("set:s (COMMA|ARROW) ASK [IT] [ALL]", "list_set"),  # "ports on S - list them all"
        ("children:c (COMMA|ARROW) (COUNT|HOWMANY|NUMBER)", "count_children"),
        ("children:c ARROW RANK by_cap [order:o]", "rank"),
        # "S -> remove", "np_x: new port under S"
        ("names:t (COMMA|ARROW) REMOVE [IT]", "remove_post"),
        ("NAME:n (COMMA|ARROW) NEW KIND_SG:k place:p", "headline_add"),
        ("node:p ARROW [PARENT] KIND_SG:k", "ancestor"),  # "port P -> parent agg block?"
        ("targets:t [ALL] TO RATE:v [CAP]", "update"),  # "P1 and P2 both to 40 Gbps pls"
        ("children:c ARROW by_cap [order:o]", "rank"),
        # the verb said last: "direct children of A - list", "children of S -> list them"
        ("children:c (COMMA|ARROW) ASK [IT] [ALL]", None),
    ),
    # What a headline asks of the node it names ("S: capacity?", "S -> ports"): the place is
    # the headline's node, and only it.
    "headed": (
        ("[SUM:t] CAP", "capacity_of_locus"),
        ("KIND_PL:k", "kind_list_locus"),
        ("WH [auxes] [BE] [DIRECT] IN", "children_locus"),
        ("KIND_PL:k (COMMA|ARROW) (COUNT|HOWMANY|NUMBER)", "count_locus"),
        ("WH KIND_SG:k", "ancestor_locus"),
        ("[PARENT] KIND_SG:k", "ancestor_locus"),  # "P - agg block?", "P - parent switch?"
        ("KIND_PL:k filters:f", "kind_list_locus"),  # "S: ports below 2G?"
        ("[ALL] [DIRECT] CHILD", "children_locus"),  # "A: children?"
    ),
    "set_named": (
        ("core_named:s [filters:f]", "filtered"),
    ),
    "core_named": (
        ("[ALL] [DIRECT:d] KIND_PL:k BE [DIRECT:d2] [DEEP:e2] loc:p [[COMMA] DEEP:e3]", "core"),
        ("[ALL] [DIRECT:d] KIND_PL:k [DIRECT:d2] [relative] loc:p [[COMMA] DEEP:e3]", "core"),
        ("ALL KIND_PL:k [[COMMA] [IN] GRAPH:g]", "core_graph"),  # "all switches (in the graph)"
        ("ALL KIND_SG:k loc:p [[COMMA] DEEP:e3]", "core"),
        ("node:p POSS [DIRECT:d] KIND_PL:k", "core_poss"),
        ("node:p KIND_PL:k", "core_poss"),
        ("[ALL] [DIRECT] KIND_SG:k CHILD loc:p", "core_children"),
        ("[ALL] RATE:v KIND_PL:k loc:p", "core_rate"),
    ),
    "children": (
        ("[ALL] [DIRECT] CHILD [NAME_N] (OF|IN|FROM) node:p", "children"),
        # the same, with "direct" said again after it: "the child nodes of A (direct only)"
        ("[ALL] [DIRECT] (CHILD|NODE) [NAME_N] (OF|IN|FROM) node:p COMMA DIRECT", "children"),
        ("node:p POSS [ALL] [DIRECT] CHILD COMMA DIRECT", "children"),
        ("[ALL] [DIRECT] CHILD", "children_here"),
        ("[ALL] [DIRECT] NODE [DIRECT] (OF|IN) node:p", "children"),
        ("node:p POSS [ALL] [DIRECT] CHILD", "children"),
        ("[ALL] [DIRECT] CHILD NAME:n", "children_named"),  # "list children S" (telegraphic)
        ("ALL [OF] node:p POSS [DIRECT] CHILD", "children"),  # "all of A's children"
        ("[ALL] ITS [DIRECT] CHILD", "children_it"),
        ("node:p [DIRECT] CHILD", "children"),
        ("node:p ARROW [ALL] [DIRECT] CHILD", "children"),
        ("[ALL] CHILD node:p HAVE", "children"),
        ("[ALL] [DIRECT] (NODE|CHILD) REL node:p [DIRECT] HAVE", "children"),
        # a free relative: "rank what is directly under S by capacity"
        ("WH [auxes] [BE] [DIRECT] IN node:p", "children"),
        ("EVERYTHING DIRECT IN node:p", "children"),
        ("EVERYTHING DIRECT node:p", "children"),  # "everything one level below S"
        ("EVERYTHING [REL] node:p [DIRECT] HAVE", "children"),  # "everything A directly contains"
        ("EVERYTHING [REL] [auxes] BE DIRECT IN node:p", "children"),  # "all nodes sitting directly beneath A"
        # "all the nodes that are directly contained in A"
        ("[ALL] (NODE|CHILD|EVERYTHING) REL [auxes] [BE] DIRECT IN node:p", "children"),
        ("EVERYTHING DIRECT IN", "children_locus"),
        ("[ALL] [DIRECT] DESC (OF|IN) node:p", "descendants"),
        ("node:p POSS DESC", "descendants"),
        ("EVERYTHING [IN] DEEP IN node:p", "descendants"),
        ("EVERYTHING IN node:p DEEP", "descendants"),
    ),
    "quantity": (
        ("[SUM:t] CAP (OF|FOR) node:p", "capacity_of"),
        ("[SUM:t] CAP IN node:p", "capacity_of"),  # "the capacity on S"
        ("node:p POSS [SUM:t] CAP", "capacity_of"),
        ("node:p [SUM:t] CAP", "capacity_of"),
        ("node:p agg:a [ALL] KIND_SG:k CAP", "aggregate_kind"),  # "A average port capacity"
        ("ITS [SUM:t] CAP", "capacity_of_it"),
        ("agg:a CAP (OF|AMONG|IN|FOR) set:s", "aggregate"),
        ("agg:a CAP (OF|AMONG|IN|FOR) ALL KIND_SG:k loc:p", "aggregate_kind"),
        ("agg:a CAP AMONG KIND_SG:k loc:p", "aggregate_kind"),
        ("agg:a CAP (OF|IN|FOR) KIND_SG:k loc:p", "aggregate_kind"),
        # "the largest capacity any port in A has"
        ("agg:a CAP ALL KIND_SG:k loc:p HAVE", "aggregate_kind"),
        ("AVG:a CAP PER KIND_SG:k loc:p", "aggregate_kind"),
        ("AVG:a KIND_SG:k CAP PER KIND_SG loc:p", "aggregate_kind"),
        ("agg:a [OF] [ALL] KIND_SG:k CAP (IN|OF|AMONG|FOR) node:p", "aggregate_kind"),
        ("agg:a [OF] [ALL] KIND_SG:k CAP [IN GRAPH:g]", "aggregate_kind_unsaid"),
        ("agg:a KIND_SG:k CAP (AMONG|OF|IN) set:s", "aggregate"),
        ("agg:a OF CAP (OF|FOR) set:s", "aggregate"),
        ("agg:a OF node:p [POSS] KIND_SG:k CAP", "aggregate_kind"),
        ("agg:a node:p [POSS] KIND_SG:k CAP", "aggregate_kind"),  # "sum of S port capacities"  # "the mean of S's port capacities"
        ("set:s POSS agg:a CAP", "aggregate"),
        ("agg:a CAP (OF|AMONG|FOR) name_list:l", "aggregate_named"),
    ),
    # Two or more nodes by name: "ports A, B and C".
    "name_list": (
        ("[KIND:k] [NODE] [CALLED] NAME:n (COMMA|AND|COMMA AND) names:rest", "name_more"),
    ),
    "agg": (
        ("SUM:a", None),
        ("AVG:a", None),
        ("MOST:a", None),
        ("LEAST:a", None),
    ),
    "counted": (
        ("set:s", "count_set"),
        ("KIND_PL:k NAME:n", "count_named"),  # "count ports S" (telegraphic)
        ("KIND_PL:k node:p HAVE", "count_has"),
        ("children:c", "count_children"),
    ),
    "counted_np": (
        ("NUMBER (OF|AMONG) counted:w", None),
        ("KIND_SG:k NUMBER [OF|FOR|IN] node:p", "count_kind"),  # "port count (in) A"
        ("node:p POSS KIND_SG:k NUMBER", "count_kind"),
        ("node:p POSS NUMBER OF KIND_PL:k", "count_kind"),
        ("node:p KIND_PL:k NUMBER", "count_kind"),
        ("node:p KIND_SG:k NUMBER", "count_kind"),
        ("NUMBER OF KIND_PL:k node:p HAVE", "count_kind"),
        ("NUMBER set:s", "count_set"),
        ("KIND_SG:k NUMBER [in_graph:g]", "count_graph_q"),
    ),
    "ranked": (
        ("set:s [COMMA] order:o", "rank_set_by_order"),  # "the ports of S from highest to lowest capacity"
        ("children:c by_cap [order:o]", "rank"),
        ("by_cap children:c [order:o]", "rank"),  # "rank by capacity the child nodes of A"
        ("children:c [order:o] by_cap", "rank"),
        ("children:c order:o", "rank_order_only"),
        ("children:c BY order:o", "rank_order_only"),
        ("set:s BY metric:m [order:o]", "rank_set"),
        ("set:s [order:o] BY metric:m", "rank_set"),
    ),
    "ranking": (
        ("RANK (OF|AMONG) children:c by_cap [order:o]", "rank"),  # "a ranking of (all) S's children by capacity"
        ("RANK by_cap OF children:c [order:o]", "rank"),  # "a ranking by capacity of A's children"
        ("order:o RANK OF children:c", "rank_order_only"),  # "an ascending capacity ranking of ..."
        ("RANK OF children:c [COMMA] order:o", "rank_order_only"),  # "... in descending order of capacity"
        ("RANK OF set:s [COMMA] BY metric:m [order:o]", "rank_set"),
        ("CAP RANK OF children:c [order:o]", "rank"),  # "the capacity ranking of S's children"
        ("children:c [COMMA] RANK by_cap [order:o]", "rank"),
        ("children:c [COMMA] by_cap [order:o]", "rank"),
        ("children:c [COMMA] RANK [order:o] by_cap", "rank"),
        ("children:c RANK order:o", "rank_order_only"),
        ("children:c [COMMA] RANK BY order:o", "rank_order_only"),
        ("children:c order:o", "rank_order_only"),
        ("set:s [COMMA] RANK BY metric:m [order:o]", "rank_set"),
        ("set:s ARROW RANK BY metric:m [order:o]", "rank_set"),
        ("set:s [COMMA] BY metric:m [order:o]", "rank_set"),
    ),
    "top": (
        ("[TOP] [NUM:k] core:s [filters:f] [COMMA] (WITH|HOLDING) sup:d metric:m", "top"),
        ("[TOP] NUM:k KIND_SG:ks loc:p [COMMA] (WITH|HOLDING) sup:d metric:m", "top_k_sg"),
        ("[TOP] [NUM:k] core:s [filters:f] REL [auxes] HAVE sup:d metric:m", "top"),
        ("(TOP|BOTTOM):d NUM:k core:s [filters:f] (BY|IN|WITH) metric:m", "top_by"),
        ("(TOP|BOTTOM):d NUM:k core:s [filters:f] (BY|IN|WITH) sup:d2 metric:m", "top"),
        ("[NUM:k] (FASTEST|SLOWEST):d core:s", "top_speed"),
        ("[TOP] NUM:k sup:d core:s [filters:f] [COMMA] BY metric:m", "top"),
        ("KIND_SG:ks (WITH|HOLDING) sup:d metric:m [scope:p]", "top_one"),
        ("sup:d metric:m KIND_SG:ks scope:p", "top_one"),
        ("sup:d KIND_SG:ks scope:p BY metric:m", "top_one"),
        ("sup:d KIND_SG:ks BY metric:m scope:p", "top_one"),  # "the top switch by capacity in A"  # "the biggest switch in A by ports"  # "the highest capacity port in S"
        ("(FASTEST|SLOWEST):d KIND_SG:ks scope:p", "top_speed_one"),  # "the fastest port in S"
        ("node:p POSS KIND_SG:ks (WITH|HOLDING) sup:d metric:m", "top_one"),
        ("KIND_SG:ks scope:p (WITH|HOLDING) sup:d metric:m", "top_one"),
        ("(TOP|BOTTOM):d NUM:k (KIND_PL|KIND_SG):ks BY metric:m [scope:p]", "top_by_kind"),
        # "the switch in A whose total capacity is lowest", "the 3 switches in A whose ..."
        ("KIND_SG:ks scope:p WHOSE metric:m [auxes] [BE] sup:d", "top_one"),
        ("[TOP] NUM:k KIND_PL:kp scope:p WHOSE metric:m [auxes] [BE] sup:d", "top_q"),
        # "which switch in A is the biggest by total capacity?", "which 2 switches ... are"
        ("KIND_SG:ks scope:p auxes sup:d BY metric:m", "top_one"),
        ("[TOP] NUM:k KIND_PL:kp scope:p auxes sup:d BY metric:m", "top_q"),
        # "the 4 highest-capacity switches in A", "the 4 switches with the most ports in A"
        ("[TOP] NUM:k sup:d metric:m core:s [filters:f]", "top"),
        ("[TOP] NUM:k KIND_PL:kp (WITH|HOLDING) sup:d metric:m scope:p", "top_q"),
    ),
    "ancestry": (
        ("KIND_SG:k (OF|FOR|ABOVE) node:p", "ancestor"),
        ("KIND_SG:k (HOLDING|REL HAVE|REL [auxes] HAVE) node:p", "ancestor"),
        ("KIND_SG:k REL node:p [auxes] [BE] IN", "ancestor"),
        ("node:p POSS KIND_SG:k", "ancestor"),
        ("[ALL] PARENT (OF|FOR) node:p", "parents"),
        ("PARENT KIND_SG:k (OF|FOR) node:p", "ancestor"),
        ("node:p POSS PARENT KIND_SG:k", "ancestor"),
        # "the switch on which P resides", "the superblock to which S belongs"
        ("KIND_SG:k (IN|TO) WH node:p [auxes] (BE|GOES)", "ancestor"),
        ("node:p POSS PARENT", "parents"),
        ("[ALL] ANCESTOR (OF|FOR) node:p", "ancestors"),
        ("node:p POSS ANCESTOR", "ancestors"),
    ),
    "question": (
        ("WH [auxes] what:w [auxes]", None),
        ("WH (CHILD|NODE) [auxes] children:w", None),
        ("WH OF core:s [auxes] [BE] test:f", "set_test_q"),
        ("WH OF core:s [auxes] HAVE have_test:f", "set_test_q"),
        ("WH OF core:s [auxes] (HAVE|HOLDING) sup:d metric:m", "top_set_one"),
        ("(OF|AMONG) core:s [COMMA] WH [NODE] [auxes] (HAVE|HOLDING) sup:d metric:m", "top_set_one"),
        ("(OF|AMONG) core:s COMMA HOLDING sup:d metric:m", "top_set_one"),
        # "of the switches in A, which three have the most ports?"
        ("(OF|AMONG) core:s [COMMA] WH NUM:k [auxes] (HAVE|HOLDING) sup:d metric:m", "top_set_k"),
        ("WH [auxes] THERE what:w", None),
        ("WH [DIRECT] (CHILD|NODE) [auxes] node:p [auxes] [DIRECT] HAVE [DIRECT]", "children_q"),
        ("WH [auxes] bare_node:p [auxes] [DIRECT] HAVE [DIRECT]", "children_q"),
        ("WH auxes node:p [auxes] [DIRECT] HAVE [DIRECT]", "children_q"),
        ("WH node:p [DIRECT] HAVE", "children_q"),  # "show what switch S directly contains"
        ("WH auxes node:p [auxes] HAVE [DIRECT] IN IT", "children_q"),
        ("WH [auxes] node:p [auxes] HAVE AS [ITS] [ALL] [DIRECT] CHILD", "children_q"),
        ("WH [CHILD|NODE] [auxes] [BE] [DIRECT] IN node:p [DIRECT]", "children_q"),
        ("WH [auxes] [BE] [DIRECT] IN node:p", "children_q"),
        ("WH [auxes] node:p [auxes] [DIRECT] CONSIST", "children_q"),
        ("WH [CHILD|NODE] [auxes] (GONE|BE) [DIRECT] IN node:p [DIRECT]", "children_q"),
        ("WH KIND_PL:k [auxes] node:p [auxes] HAVE [[COMMA] DEEP:e]", "kinds_q"),
        # "which ports has S?": "has" agrees with the node, so the node is what has them
        # ("which switches have port P" asks the other way, and is not read here)
        ("WH KIND_PL:k HAS node:p [[COMMA] DEEP:e]", "kinds_q"),
        ("WH KIND_PL:k [auxes] [BE] [DIRECT:d] IN node:p [[COMMA] DEEP:e]", "kinds_q"),
        ("WH KIND_PL:k [auxes] [BE] DEEP:e IN node:p", "kinds_q"),  # "... exist anywhere under A"
        ("WH KIND_PL:k [auxes] [BE] [DIRECT:d] IN node:p [DEEP:e] [auxes] HAVE", "kinds_q"),
        ("WH KIND_PL:k [auxes] [BE] IN GRAPH:g", "kinds_graph_q"),
        ("WH KIND_PL:k [auxes] BE", "kinds_graph_q"),
        ("HOWQ [auxes] children:c RANK by_cap [order:o]", "rank"),
        ("HOWQ [auxes] set:s RANK BY metric:m [order:o]", "rank_set"),  # "how do the ports of S rank"
        ("WH KIND_PL:k [auxes] THERE [auxes] [IN GRAPH:g]", "kinds_graph_q"),
        ("WH KIND_PL:k [auxes] THERE [BE] [DIRECT:d] IN node:p [[COMMA] DEEP:e]", "kinds_q"),
        ("WH KIND_PL:k [auxes] THERE [BE] DEEP:e IN node:p", "kinds_q"),  # "... anywhere in A"
        ("WH KIND_PL:k auxes [ALL] DESC:e (OF|IN) node:p", "kinds_q"),
        ("WH KIND_PL:k auxes [ALL] [DIRECT] CHILD:d (OF|IN) node:p", "kinds_q"),
        ("WH NODE auxes [ALL] [DIRECT] CHILD (OF|IN) node:p", "children_q"),
        ("WH KIND_PL:k [auxes] GRAPH:g [auxes] HAVE", "kinds_graph_q"),
        ("WH core:s [auxes] [BE] test:f", "set_test_q"),
        ("WH core:s [auxes] HAVE have_test:f", "set_test_q"),
        ("WH KIND_SG:k [auxes] HAVE node:p", "ancestor"),
        ("WH KIND_SG:k [auxes] HAVE node:p IN IT", "ancestor"),  # "which switch has P on it"
        ("WH KIND_SG:k (HOLDING) node:p", "ancestor"),
        ("WH KIND_SG:k [auxes] node:p [auxes] [BE] IN", "ancestor"),
        ("WH KIND_SG:k node:p IN", "ancestor"),  # "which superblock switch S belongs to"
        ("TO WH KIND_SG:k GOES node:p", "ancestor"),  # "to which switch belongs the port P?"
        ("TO WH KIND_SG:k auxes node:p GOES", "ancestor"),  # "to which switch does P belong?"
        ("IN WH KIND_SG:k [auxes] node:p [auxes] [BE]", "ancestor"),
        ("IN WH KIND_SG:k [auxes] ASK node:p", "ancestor"),  # "in which K do we find P?"
        ("node:p [auxes] [BE] IN WH KIND_SG:k", "ancestor"),
        ("WH [auxes] PARENT (OF|FOR) node:p", "parents"),
        ("WH KIND_SG:k auxes PARENT (OF|FOR) node:p", "ancestor"),
        # "what agg block is S a child of?" ("is P a port of" is read as "is port P in")
        ("WH KIND_SG:k auxes node:p (CHILD|DESC) OF", "ancestor"),
        ("WH KIND_SG:k [auxes] ABOVE node:p", "ancestor"),  # "which agg block sits above P"
        ("WH [auxes] node:p POSS PARENT", "parents"),
        ("WH [auxes] HAVE node:p", "parents"),
        ("WH NODE [DIRECT] (HAVE|HOLDING) node:p", "parents"),
        ("WH KIND_SG:ks [scope:p] [auxes] HAVE sup:d metric:m", "top_one"),
        ("WH KIND_SG:ks [auxes] HAVE sup:d metric:m [scope:p]", "top_one"),
        ("WH NUM:k KIND_PL:kp [scope:p] [auxes] HAVE sup:d metric:m [scope:p2]", "top_q"),
        ("WH [auxes] KIND_SG:ks (WITH|HOLDING) sup:d metric:m [scope:p]", "top_one"),
        ("WH [auxes] KIND_SG:ks scope:p (WITH|HOLDING) sup:d metric:m", "top_one"),
        ("WH children:c auxes KIND_PL:k", "kind_clause"),
        ("core:s [filters:f] COMMA HOWMANY [auxes] [THERE] [auxes]", "count_q"),
        ("children:c COMMA HOWMANY [auxes] [THERE] [auxes]", "count_children"),
        ("AVG:a [COMMA] WH CAP [auxes] set:s [auxes] HAVE", "avg_q"),
        ("WH CAP [auxes] set:s [auxes] HAVE AVG:a", "avg_q"),
        ("HOWMUCH [SUM] CAP [auxes] name_list:l [auxes] HAVE [SUM]", "sum_named"),
        ("WH [auxes] [NUM:k] (FASTEST|SLOWEST):d core:s", "top_speed"),
        ("HOWMANY core:s [filters:f] [auxes] [BE]", "count_q"),
        ("HOWMANY KIND_PL:k [auxes] [BE] [THERE] [DIRECT:d] IN node:p [DEEP:e]", "count_in_q"),
        ("HOWMANY KIND_PL:k THERE auxes [DIRECT:d] IN node:p [DEEP:e]", "count_in_q"),
        ("HOWMANY KIND_PL:k auxes THERE auxes [DIRECT:d] IN node:p [DEEP:e]", "count_in_q"),
        ("HOWMANY KIND_PL:k [auxes] THERE [auxes] [IN GRAPH:g]", "count_graph_q"),
        ("HOWMANY KIND_PL:k [auxes] [BE] [IN] GRAPH:g [auxes] [HAVE]", "count_graph_q"),
        ("HOWMANY KIND_PL:k [auxes] GRAPH:g [auxes] HAVE", "count_graph_q"),
        ("HOWMANY KIND_PL:k [auxes] node:p [auxes] HAVE [[COMMA] DEEP:e]", "count_in_q"),
        ("HOWMANY KIND_PL:k HAS node:p [[COMMA] DEEP:e]", "count_in_q"),  # "how many ports has S"
        ("HOWMANY KIND_PL:k [auxes] node:p [auxes] ENDUP", "count_in_q"),
        ("HOWMANY core:s [auxes] [BE] test:f", "count_test_q"),
        ("HOWMANY core:s [auxes] HAVE have_test:f", "count_test_q"),
        ("HOWMANY (CHILD|NODE) [auxes] node:p [auxes] HAVE", "count_children_q"),
        ("HOWMANY (CHILD|NODE) [auxes] [BE] [DIRECT] IN node:p", "count_children_q"),
        ("node:p [auxes] HAVE HOWMANY KIND_PL:k", "count_in_q"),
        ("GRAPH:g [auxes] HAVE HOWMANY KIND_PL:k", "count_graph_q"),  # "graph got how many switch"
        ("HOWMANY KIND_PL:k node:p", "count_in_q"),  # typed as keywords: "how many ports S"
        ("HOWMUCH [SUM] CAP [auxes] node:p [auxes] HAVE", "capacity_total"),
        ("HOWMUCH [SUM] CAP HAVE node:p [GET]", "capacity_total"),  # "how much capacity has S"
        ("WH [auxes] [ALL] KIND_SG:k CAP loc:p [auxes] ADDUP", "aggregate_kind_sum"),
        ("WH HAPPEN what:w", None),
        ("WH [auxes] THERE", "children_locus"),
        ("WH [auxes] CAP (OF|FOR) set:s [auxes] ADDUP", "sum_q"),
        ("WH [auxes] set:s POSS CAP [auxes] ADDUP", "sum_q"),
        ("HOWMUCH [SUM] CAP [auxes] set:s [auxes] ADDUP", "sum_q"),
        # the set said first: "across the ports of S, what is the mean capacity?"
        ("(OF|AMONG) set:s COMMA WH auxes agg:a CAP", "aggregate"),
        # "under S, what is the (total) capacity?": the fronted place's capacity, only there
        ("WH auxes [SUM:t] CAP", "capacity_of_locus"),
        ("HOWMUCH [SUM:t] CAP [auxes] THERE", "capacity_of_locus_total"),
        ("THERE auxes HOWMANY KIND_PL:k [DIRECT:d] [IN node:p]", "count_there_q"),
        ("THERE auxes WH KIND_SG:ks (WITH|HOLDING) sup:d metric:m", "top_one"),
        ("HOWMUCH [SUM] CAP [auxes] [BE] THERE IN node:p", "capacity_total"),
        ("HOWMUCH [SUM] CAP auxes IN node:p", "capacity_total"),  # "how much capacity is on P"
        ("HOWMUCH [SUM] CAP [auxes] set:s [auxes] HAVE", "sum_q"),
        ("AVG:a [COMMA] HOWMUCH CAP [auxes] set:s [auxes] HAVE", "avg_q"),
        ("HOWMUCH CAP [auxes] set:s [auxes] HAVE AVG:a", "avg_q"),
        ("HOWMUCH CAP [auxes] KIND_SG:k loc:p [auxes] HAVE AVG:a", "aggregate_kind"),
        ("HOWMUCH CAP [auxes] AVG:a KIND_SG:k loc:p [auxes] HAVE", "aggregate_kind"),
        ("HOWFAST [auxes] node:p", "capacity_q"),
        ("WH [SUM:t] CAP [auxes] node:p [auxes] (HAVE|RUNAT)", "capacity_q"),
        ("WH [auxes] node:p POSS CAP [auxes]", "capacity_q"),
        ("WH CAP HAS node:p", "capacity_q"),  # "which capacity has the port P?"
        ("HOWFAST auxes quantity:w", "value_read"),  # "how big is the capacity of P?"
        ("HOWMUCH auxes quantity:w", "value_read"),  # "how much is the total capacity of ..."
        ("WH auxes node:p RUNAT", "capacity_q"),
        ("WH CAP auxes node:p RUNAT", "capacity_q"),  # "what capacity is P provisioned with?"
        ("WH CAP [auxes] SETP TO node:p", "capacity_q"),  # "what capacity has been assigned to P?"
        ("WH [auxes] [SUM:t] CAP (OF|FOR) node:p auxes", "capacity_q"),
    ),
    # A comparison after "are" or "have": "ports of S are below 10 Gbps", "... have more than 4 ports".
    "test": (
        ("RUNAT RATE:v", "cap_equal"),
        ("RUNAT cmp:c RATE:v", "cap_filter"),
        ("RUNAT RATE:v post:c", "cap_post"),
        ("cmp:c RATE:v [[IN] CAP]", "cap_filter"),  # "over 10 Gbps (in capacity)"
        ("speed:c amount:v", "speed_filter"),
        ("RATE:v post:c [[IN] CAP]", "cap_post"),
        ("IN RATE:v post:c", "cap_post"),  # "ports at 2 Gbps or above"
    ),
    "have_test": (
        ("[CAP:said] [OF] cmp:c amount:v [OF] [CAP:said]", "cap_filter"),
        ("NAME_N (STARTS|ENDS|HOLDING|LIKE):m NAME:t", "name_filter"),
        ("NAME:t IN ITS NAME_N", "name_contains"),
        ("[CAP:said] amount:v post:c [OF] [CAP:said]", "cap_post"),
        ("NAME_N REL [auxes] (STARTS|ENDS|HOLDING|LIKE):m NAME:t", "name_filter"),  # "a name that ends in c4"
        ("CAP:said OF amount:v post:c", "cap_post"),
        ("CAP:said (OF|EQ) amount:v", "cap_equal"),
        ("cmp:c NUM:v (KIND_PL|KIND_SG):k", "count_filter"),
        ("[EQ] NUM:v (KIND_PL|KIND_SG):k", "count_equal"),
    ),
}

# How each kind of request is said, for error messages.
EXPECTED: dict[str, str] = {
    "add": "'add <kind> <new name> to <parent name>', e.g. 'add port new_p1 to ju1.a1.m1.s2c1'",
    "remove": "'remove <node name>', e.g. 'remove ju1.a1.m1.s2c1.p1 from the graph'",
    "list": "'list the child nodes of <node name>' or 'list the ports of <node name>'",
    "rank": "'rank the child nodes of <node name> by capacity'",
    "count": "'count the <kind> in <node name>', e.g. 'count the ports in ju1.a1.m1'",
    "update": "'set the capacity of <port name> to <number>', e.g. 'set the capacity of "
              "ju1.a1.m1.s2c1.p1 to 40 Gbps'",
    "for_each_add": "'for each <kind>, add a new <kind> to it'",
    "value": "'what is the capacity of <node name>' or 'what is the average capacity of the "
             "ports in <node name>'",
    "top": "'list the 3 switches in <node name> with the most ports'",
    "ancestor": "'which agg block contains <node name>'",
    "total": "'what is the total capacity of <node name>' (every port below it) or 'what is the "
             "capacity of <port or switch name>'",
    "any": "an add, remove, update, list, count, rank or value request, e.g. 'list the child "
           "nodes of ju1.a1.m1' or 'what is the capacity of ju1.a1.m1.s2c1.p1'",
}
