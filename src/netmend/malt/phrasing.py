"""How people say MALT requests: every phrasing the parser accepts is data here.

Adding a synonym or a sentence shape is an edit to these tables, not to the
parser. The parser lower-cases words, maps multi-word phrases to one symbol
(longest phrase first), drops filler words, and matches the remaining symbol
sequence of each clause against :data:`CLAUSES`.
"""

from __future__ import annotations

from netmend.malt import kinds as K

# Symbols the grammar speaks in. NAME, KIND and NUM come from the tokenizer.
# phrase (lower case, words separated by one space) -> symbol
PHRASES: dict[str, str] = {}


def _phrases(symbol: str, *texts: str) -> None:
    for text in texts:
        PHRASES[text] = symbol


_phrases("ADD", "add", "insert", "create", "attach", "append", "introduce", "put", "place",
         "plug in", "install", "provision")
_phrases("REMOVE", "remove", "delete", "drop", "erase", "eliminate", "take out", "get rid of",
         "detach", "decommission", "unplug", "destroy")
_phrases("LIST", "list", "show", "display", "enumerate", "print", "give me", "get", "what are",
         "which are", "which", "tell me", "find", "show me", "list out")
_phrases("COUNT", "count", "how many", "tell me how many", "show me how many", "count how many",
         "number of", "the number of", "tally", "tally up", "compute the number of", "give me the number of",
         "what is the number of", "what's the number of", "tell me the number of",
         "get the number of", "find the number of", "count the number of",
         "count the total number of", "what is the total number of")
_phrases("RANK", "rank", "sort", "order", "rate")
_phrases("UPDATE", "update", "set", "change", "modify", "adjust", "reset", "increase", "decrease",
         "raise", "lower", "bump")
_phrases("FOREACH", "for each", "for every", "for all")
_phrases("TOEACH", "to each", "to every", "to all", "under each", "under every", "into each",
         "into every", "in each", "in every")
_phrases("CHILDREN", "child nodes", "child node", "children", "child", "direct children",
         "direct child nodes", "immediate children", "nodes", "child entities", "members",
         "contents", "subnodes", "sub nodes", "descendants directly")
_phrases("CAPACITY", "physical_capacity_bps", "physical capacity", "capacity",
         "physical_capacity_bps attribute", "bandwidth", "physical capacity value",
         "capacity value", "physical capacity bps", "total physical capacity",
         "total capacity", "port capacity", "speed")
_phrases("BY", "by", "based on", "according to", "in terms of", "using")
_phrases("TO", "to", "into", "onto")
_phrases("IN", "in", "under", "inside", "within", "below", "beneath", "on", "contained in",
         "belonging to", "underneath")
_phrases("OF", "of")
_phrases("FROM", "from", "out of")
_phrases("GRAPH", "the graph", "graph", "the topology", "topology", "the network", "network",
         "the updated graph", "updated graph", "the resulting graph", "resulting graph",
         "the new graph", "the modified graph", "the current graph", "the whole graph",
         "the entire graph", "the whole topology", "the entire topology", "in total", "overall",
         "altogether")
_phrases("IT", "it", "each of them", "them", "each one", "each")
_phrases("HAVE", "have", "has", "contain", "contains", "hold", "holds")
_phrases("THEN", "then", "and then", "after that", "afterwards", "next", "and after that",
         "subsequently", "and")
_phrases("AFTER", "after", "once")
_phrases("RETURN", "return", "give back", "output", "respond with", "reply with")

# Words that carry no meaning for the request: dropped before matching.
FILLERS: frozenset[str] = frozenset({
    "a", "an", "the", "all", "new", "node", "entity", "element", "device", "with", "name",
    "named", "called", "type", "please", "kindly", "just", "now", "also", "its", "their",
    "direct", "immediate", "existing", "current", "updated", "resulting", "attribute", "value",
    "values", "total", "are", "is", "there", "do", "does", "exist", "exists", "currently",
    "present", "me", "us", "i", "we", "you",
})

# Contractions, expanded before matching (outside quotes).
CONTRACTIONS: dict[str, str] = {
    "'d": "would", "'ll": "will", "'re": "are", "'ve": "have", "'m": "am", "n't": "not",
}

# Politeness and framing removed from the start or end of a clause (lower case).
PREFIXES: tuple[str, ...] = (
    "could you please", "can you please", "would you please", "will you please",
    "could you", "can you", "would you", "will you", "i would like you to",
    "i want you to", "i need you to", "go ahead and", "i would like to", "i want to", "i need to",
    "let us", "please", "kindly",
)
SUFFIXES: tuple[str, ...] = ("please", "thanks", "thank you", "thank you very much", "for me")

# Gerunds that start "after removing X, ..." clauses: word -> verb phrase.
GERUNDS: dict[str, str] = {
    "adding": "add", "inserting": "insert", "creating": "create", "attaching": "attach",
    "removing": "remove", "deleting": "delete", "dropping": "drop", "erasing": "erase",
    "updating": "update", "setting": "set", "changing": "change", "modifying": "modify",
}

# Plain kind names -> entity kind. Plurals included.
KIND_WORDS: dict[str, str] = {}


def _kind(kind: str, *texts: str) -> None:
    for text in texts:
        KIND_WORDS[text] = kind


_kind(K.PORT, "port", "ports", "interface", "interfaces")
_kind(K.PACKET_SWITCH, "switch", "switches", "packet switch", "packet switches",
      "packet_switch", "packet_switches")
_kind(K.AGG_BLOCK, "aggregation block", "aggregation blocks", "agg block", "agg blocks",
      "aggblock", "aggblocks", "agg_block", "aggregation_block")
_kind(K.CONTROL_DOMAIN, "control domain", "control domains", "control_domain", "domain",
      "domains")
_kind(K.CONTROL_POINT, "control point", "control points", "control_point")
_kind(K.RACK, "rack", "racks")
_kind(K.CHASSIS, "chassis")
_kind(K.SUPERBLOCK, "superblock", "superblocks", "super block", "super blocks")
_kind(K.SPINEBLOCK, "spineblock", "spineblocks", "spine block", "spine blocks")
_kind(K.JUPITER, "jupiter", "jupiters", "fabric")

# Capacity units -> multiplier to bits per second.
UNITS: dict[str, int] = {
    "bps": 1, "bit/s": 1, "kbps": 10**3, "mbps": 10**6, "gbps": 10**9, "tbps": 10**12,
    "kb/s": 10**3, "mb/s": 10**6, "gb/s": 10**9, "tb/s": 10**12,
}

# Clause shapes, per operation. Elements: SYMBOL, SYMBOL:slot, [optional ...] groups,
# and (A|B) alternatives. A clause must match exactly one operation.
CLAUSES: dict[str, tuple[str, ...]] = {
    "add": (
        "ADD [KIND:kind] NAME:name [KIND:kind2] (TO|IN) [KIND:parent_kind] NAME:parent [IN GRAPH]",
    ),
    "remove": (
        "REMOVE [KIND:kind] NAME:name [FROM GRAPH]",
    ),
    "list": (
        "LIST CHILDREN (OF|IN) [KIND:parent_kind] NAME:parent [(IN|OF) GRAPH]",
        "LIST [KIND:parent_kind] NAME:parent POSS CHILDREN [(IN|OF) GRAPH]",
        "LIST CHILDREN [KIND:parent_kind] NAME:parent HAVE [(IN|OF) GRAPH]",
    ),
    "rank": (
        "RANK CHILDREN (OF|IN) [KIND:parent_kind] NAME:parent [(IN|OF) GRAPH] BY CAPACITY [(IN|OF) GRAPH]",
        "RANK [KIND:parent_kind] NAME:parent POSS CHILDREN [(IN|OF) GRAPH] BY CAPACITY [(IN|OF) GRAPH]",
    ),
    "count": (
        "COUNT KIND:kind (IN|OF) [KIND:container_kind] NAME:container [(IN|OF) GRAPH]",
        "COUNT KIND:kind [KIND:container_kind] NAME:container HAVE [(IN|OF) GRAPH]",
        "COUNT KIND:kind [(IN|OF)] [GRAPH]",
    ),
    "update": (
        "UPDATE CAPACITY OF [KIND:kind] NAME:name TO NUM:value",
        "UPDATE [KIND:kind] NAME:name POSS CAPACITY TO NUM:value",
        "UPDATE [KIND:kind] NAME:name CAPACITY TO NUM:value",
    ),
    "for_each_add": (
        "FOREACH KIND:parent_kind ADD [KIND:kind] [TO IT]",
        "ADD KIND:kind TOEACH KIND:parent_kind",
    ),
}

# The operations that begin a clause: a new clause starts where one of these follows a
# complete clause (after "then", "and", a comma, or nothing).
VERBS: frozenset[str] = frozenset({"ADD", "REMOVE", "LIST", "COUNT", "RANK", "UPDATE", "FOREACH",
                                   "RETURN"})

# How each operation is said, for error messages.
EXPECTED: dict[str, str] = {
    "add": "'add <kind> <new name> to <parent name>', e.g. 'add port new_p1 to ju1.a1.m1.s2c1'",
    "remove": "'remove <node name>', e.g. 'remove ju1.a1.m1.s2c1.p1 from the graph'",
    "list": "'list the child nodes of <node name>'",
    "rank": "'rank the child nodes of <node name> by capacity'",
    "count": "'count the <kind> in <node name>', e.g. 'count the ports in ju1.a1.m1'",
    "update": "'set the capacity of <port name> to <number>'",
    "for_each_add": "'for each <kind>, add a new <kind> to it'",
}

# What a trailing "Return ..." sentence may promise, by the words it uses.
RETURN_WORDS: dict[str, str] = {
    "graph": "graph", "topology": "graph",
    "list": "list", "lists": "list", "tuple": "list", "tuples": "list", "names": "list",
    "count": "text", "counts": "text", "number": "text", "text": "text",
}
