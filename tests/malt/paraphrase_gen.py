"""Compositional paraphrases: requests assembled from this file's own phrase tables.

An independent source for the tuning corpus: verbs, object phrases, values with
and without units, order words, politeness, and clause orders (``A, then B``;
``after A-ing, B``; ``B after A-ing``; ``with X gone, B``) are combined at
random (seeded) and paired with the plain canonical phrasing of the same
request. These tables are written for the corpus, not taken from the parser.

    python -m tests.malt.paraphrase_gen   # rewrites data/paraphrases-generated.yaml
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from netmend.malt import topology

OUT = Path(__file__).parent / "data" / "paraphrases-generated.yaml"
SEED = 20260311

POLITE = ["", "Please ", "Could you ", "Kindly ", "Go ahead and ", "I need you to ", "Can you "]
TAIL = ["", ", please", " please", ", thanks", " now"]
REMOVE_VERBS = ["remove", "delete", "drop", "take out", "get rid of", "decommission", "erase",
                "purge", "eliminate", "unplug", "tear down", "detach"]
REMOVE_GERUNDS = ["removing", "deleting", "dropping", "taking out", "getting rid of",
                  "decommissioning", "eliminating"]
REMOVE_PASSIVE = ["removed", "deleted", "dropped", "taken out", "gone", "eliminated"]
FROM_GRAPH = ["", " from the graph", " from the topology", " from the network"]
LIST_VERBS = ["list", "show", "display", "give me", "tell me", "enumerate", "print", "show me"]
KIND_WORDS = {
    "EK_PORT": (["port", "interface"], ["ports", "interfaces", "EK_PORT"]),
    "EK_PACKET_SWITCH": (["switch", "packet switch"], ["switches", "packet switches",
                                                         "EK_PACKET_SWITCH"]),
    "EK_AGG_BLOCK": (["agg block", "aggregation block"], ["agg blocks", "aggregation blocks"]),
    "EK_CONTROL_DOMAIN": (["control domain"], ["control domains"]),
    "EK_RACK": (["rack"], ["racks"]),
}
RATES = {  # canonical text -> ways to say it
    "40 Gbps": ["40 Gbps", "40G", "40 Gb/s", "40 gigabits per second", "40000 Mbps",
                "40,000,000,000 bps", "40000000000"],
    "10 Gbps": ["10 Gbps", "10G", "10 Gb/s", "10 gigabits per second", "10000 Mbps",
                "10000000000 bps"],
    "2 Gbps": ["2 Gbps", "2G", "2 gigabit per second", "2000 Mbps", "2000000000"],
    "100 Mbps": ["100 Mbps", "100M", "0.1 Gbps", "100 megabits per second", "100000000 bps"],
}


class Gen:
    def __init__(self, seed: int = SEED):
        self.rng = random.Random(seed)
        names = topology.names_by_kind(topology.default())
        self.names = {kind: [n for n in values if isinstance(n, str)] for kind, values in names.items()}

    def pick(self, options):
        return self.rng.choice(options)

    def name(self, kind: str) -> str:
        return self.pick(self.names[kind])

    def kind_word(self, kind: str, plural: bool = False) -> str:
        return self.pick(KIND_WORDS[kind][1 if plural else 0])

    def polite(self, text: str) -> str:
        """Politeness around a command; a question keeps its question mark at the end."""
        question = text.endswith("?")
        core = text[:-1] if question else text
        prefix = "" if question else self.pick(POLITE)
        if core.startswith("ju1"):  # names keep their case
            body = core
        else:
            body = core[0].lower() + core[1:] if prefix else core[0].upper() + core[1:]
        tail = self.pick(["", ", please"]) if question else self.pick(TAIL)
        return prefix + body + tail + ("?" if question else self.pick([".", "", "!"]))

    # ---- clauses: (canonical, paraphrase), plus forms to compose
    def remove(self):
        kind = self.pick(["EK_PORT", "EK_PACKET_SWITCH"])
        name = self.name(kind)
        obj = self.pick([name, f"{self.kind_word(kind)} {name}", f"the {self.kind_word(kind)} {name}",
                         f"the node {name}"])
        canonical = f"Remove {name} from the graph."
        forms = {
            "imperative": f"{self.pick(REMOVE_VERBS)} {obj}{self.pick(FROM_GRAPH)}",
            "gerund": f"{self.pick(REMOVE_GERUNDS)} {obj}",
            "passive": f"{name} has been {self.pick(REMOVE_PASSIVE)}",
            "state": f"{name} {self.pick(['gone', 'removed', 'deleted'])}",
        }
        return name, canonical, forms

    def children(self, parent: str | None = None):
        parent = parent or self.name(self.pick(["EK_AGG_BLOCK", "EK_PACKET_SWITCH", "EK_RACK",
                                                "EK_CONTROL_DOMAIN"]))
        canonical = f"List all the child nodes of {parent}."
        noun = self.pick(["children", "child nodes", "direct children", "members",
                          "immediate children"])
        question = self.pick([f"what does {parent} contain?", f"what does {parent} hold?",
                              f"what's in {parent}?", f"what are the {noun} of {parent}?",
                              f"which nodes are directly under {parent}?",
                              f"which children does {parent} have?"])
        command = self.pick([f"{self.pick(LIST_VERBS)} the {noun} of {parent}",
                             f"{self.pick(LIST_VERBS)} {parent}'s {noun}",
                             f"{self.pick(LIST_VERBS)} all {noun} of {parent}"])
        return canonical, self.pick([question, command])

    def count(self, container: str | None = None, kind: str | None = None):
        kind = kind or self.pick(["EK_PORT", "EK_PACKET_SWITCH"])
        container = container or self.name(self.pick(["EK_AGG_BLOCK", "EK_CONTROL_DOMAIN"]))
        plain = "ports" if kind == "EK_PORT" else "switches"
        canonical = f"Count the {plain} in {container}."
        words = self.kind_word(kind, plural=True)
        paraphrase = self.pick([
            f"how many {words} are in {container}?", f"how many {words} does {container} have?",
            f"count the {words} in {container}", f"what is the number of {words} under {container}?",
            f"number of {words} in {container}?", f"how many {words} sit under {container}?",
            f"how many {words} belong to {container}?", f"tell me how many {words} {container} has",
        ])
        return canonical, paraphrase

    def rank(self, parent: str | None = None, ascending: bool | None = None):
        parent = parent or self.name(self.pick(["EK_AGG_BLOCK", "EK_CONTROL_DOMAIN"]))
        ascending = self.rng.random() < 0.3 if ascending is None else ascending
        canonical = f"Rank the child nodes of {parent} by capacity" + (
            " in ascending order." if ascending else ".")
        metric = self.pick(["capacity", "bandwidth", "total capacity", "physical capacity"])
        order = self.pick([" in ascending order", ", smallest first", " in increasing order",
                           ", lowest first"] if ascending else
                          ["", ", biggest first", " in descending order", ", largest first",
                           " in decreasing order"])
        paraphrase = self.pick([
            f"rank the children of {parent} by {metric}{order}",
            f"sort {parent}'s child nodes by {metric}{order}",
            f"order the child nodes of {parent} by {metric}{order}",
        ])
        return canonical, paraphrase

    def update(self):
        port = self.name("EK_PORT")
        rate = self.pick(list(RATES))
        said = self.pick(RATES[rate])
        canonical = f"Set the capacity of {port} to {rate}."
        templates = [f"set the capacity of {port} to {said}", f"change {port}'s capacity to {said}",
                     f"update the bandwidth of port {port} to {said}",
                     f"give {port} a capacity of {said}"]
        if not said.replace(",", "").isdigit():  # these need a unit to mean a capacity
            templates += [f"set {port} to {said}", f"make {port} {said}"]
        return canonical, self.pick(templates)

    def add(self):
        switch = self.name("EK_PACKET_SWITCH")
        new = f"new_p{self.rng.randint(10, 99)}"
        canonical = f"Add a new port named {new} to switch {switch}."
        paraphrase = self.pick([
            f"add port {new} to {switch}", f"add a new port named {new} to {switch}",
            f"create a port called {new} under {switch}",
            f"put a fresh port called {new} beneath {switch}",
            f"make {new}, a port, a child of {switch}", f"attach port {new} to {switch}",
            f"insert port {new} into switch {switch}", f"give {switch} a new port called {new}",
            f"install an interface named {new} on {switch}",
        ])
        gerund = self.pick([f"adding port {new} to {switch}", f"creating a port {new} on {switch}"])
        return new, switch, canonical, paraphrase, gerund

    # ---- families
    def l2_remove_read(self):
        name, remove_canonical, forms = self.remove()
        parent = name.rsplit(".", 1)[0]
        read = self.pick(["children", "count", "rank"])
        if read == "children":
            read_canonical, read_text = self.children(parent)
        elif read == "count":
            kind = "EK_PORT" if name.count(".") == 4 else "EK_PACKET_SWITCH"
            read_canonical, read_text = self.count(parent, kind)
        else:
            read_canonical, read_text = self.rank(parent, ascending=False)
        canonical = f"{remove_canonical} {read_canonical}"
        read_text = read_text.rstrip("?")
        shape = self.pick(["then", "and", "sentences", "after", "after-late", "with", "once"])
        if shape == "then":
            text = f"{forms['imperative']}, then {read_text}"
        elif shape == "and":
            text = f"{forms['imperative']} and {read_text}"
        elif shape == "sentences":
            text = f"{forms['imperative'][0].upper()}{forms['imperative'][1:]}. {read_text}"
        elif shape == "after":
            text = f"after {forms['gerund']}, {read_text}"
        elif shape == "after-late":
            text = f"{read_text} after {forms['gerund']}"
        elif shape == "with":
            text = f"with {forms['state']}, {read_text}"
        else:
            text = f"once {forms['passive']}, {read_text}"
        return canonical, self.polite(text)

    def l2_add_read(self):
        new, switch, add_canonical, add_text, gerund = self.add()
        read = self.pick(["children", "count"])
        if read == "children":
            read_canonical, read_text = self.children(switch)
        else:
            read_canonical, read_text = self.count(switch, "EK_PORT")
        canonical = f"{add_canonical} {read_canonical}"
        read_text = read_text.rstrip("?")
        text = self.pick([f"{add_text}, then {read_text}", f"after {gerund}, {read_text}",
                          f"{add_text}. {read_text}"])
        return canonical, self.polite(text)

    def typed(self):
        parent_kind, kind = self.pick([("EK_PACKET_SWITCH", "EK_PORT"), ("EK_AGG_BLOCK", "EK_PACKET_SWITCH"),
                                       ("EK_AGG_BLOCK", "EK_PORT"), ("EK_RACK", "EK_PACKET_SWITCH"),
                                       ("EK_CONTROL_DOMAIN", "EK_PACKET_SWITCH")])
        parent = self.name(parent_kind)
        plain = "ports" if kind == "EK_PORT" else "switches"
        canonical = f"List the {plain} of {parent}."
        words = self.kind_word(kind, plural=True)
        paraphrase = self.pick([
            f"which {words} does {parent} have?", f"show me all {words} under {parent}",
            f"what {words} are in {parent}?", f"{self.pick(LIST_VERBS)} {parent}'s {words}",
            f"{self.pick(LIST_VERBS)} every {self.kind_word(kind)} of {parent}",
            f"give me the {words} belonging to {parent}",
        ])
        return canonical, self.polite(paraphrase)

    def capacity(self):
        kind = self.pick(["EK_PORT", "EK_PACKET_SWITCH"])
        node = self.name(kind)
        canonical = f"What is the capacity of {node}?"
        metric = self.pick(["capacity", "bandwidth", "physical capacity", "total capacity"])
        paraphrase = self.pick([f"how much {metric} does {node} have?", f"what's the {metric} of {node}?",
                                f"tell me {node}'s {metric}", f"{metric} of {node}?",
                                f"show the {metric} of {self.kind_word(kind)} {node}"])
        return canonical, self.polite(paraphrase)

    def aggregate(self):
        fn, words = self.pick([("total", ["total", "combined", "aggregate"]),
                               ("average", ["average", "mean"]),
                               ("minimum", ["minimum", "lowest", "smallest"]),
                               ("maximum", ["maximum", "highest", "largest"])])
        kind = self.pick(["EK_PACKET_SWITCH", "EK_AGG_BLOCK"])
        node = self.name(kind)
        canonical = f"What is the {fn} capacity of the ports in {node}?"
        word = self.pick(words)
        metric = self.pick(["capacity", "bandwidth"])
        paraphrase = self.pick([f"what's the {word} port {metric} in {node}?",
                                f"{word} {metric} of the ports under {node}?",
                                f"compute the {word} {metric} of all ports in {node}",
                                f"what is the {word} {metric} among the ports of {node}?"])
        return canonical, self.polite(paraphrase)

    def top(self):
        parent = self.name("EK_AGG_BLOCK")
        k = self.rng.randint(1, 3)
        most = self.rng.random() < 0.6
        metric = self.pick(["ports", "capacity"])
        if metric == "ports":
            words = "the most ports" if most else "the fewest ports"
        else:
            words = "the highest total capacity" if most else "the lowest total capacity"
        canonical = f"List the {k} {'switch' if k == 1 else 'switches'} in {parent} with {words}."
        said_metric = {"ports": ["ports"], "capacity": ["capacity", "total capacity", "bandwidth"]}[metric]
        sup = ("most" if metric == "ports" else self.pick(["highest", "most", "largest"])) if most \
            else ("fewest" if metric == "ports" else self.pick(["lowest", "least", "smallest"]))
        if k == 1:
            paraphrase = self.pick([f"which switch in {parent} has the {sup} {self.pick(said_metric)}?",
                                    f"find the switch under {parent} with the {sup} {self.pick(said_metric)}"])
        else:
            number = self.pick([str(k), ["one", "two", "three"][k - 1]])
            paraphrase = self.pick([
                f"which {number} switches in {parent} have the {sup} {self.pick(said_metric)}?",
                f"show the {number} switches under {parent} with the {sup} {self.pick(said_metric)}",
                f"give me the {number} switches of {parent} with the {sup} {self.pick(said_metric)}",
            ])
        return canonical, self.polite(paraphrase)

    def filtered(self):
        switch = self.name("EK_PACKET_SWITCH")
        op, words = self.pick([("below", ["below", "under", "less than", "lower than"]),
                               ("above", ["above", "over", "more than", "greater than"])])
        rate = self.pick(["2 Gbps", "10 Gbps"])
        said = self.pick(RATES[rate][:4])
        canonical = f"List the ports of switch {switch} with capacity {op} {rate}."
        word = self.pick(words)
        paraphrase = self.pick([f"which ports of {switch} have a capacity {word} {said}?",
                                f"show the ports on {switch} whose capacity is {word} {said}",
                                f"ports of {switch} with capacity {word} {said}?"])
        return canonical, self.polite(paraphrase)

    def ancestor(self):
        port = self.name("EK_PORT")
        container, words = self.pick([("agg block", ["agg block", "aggregation block"]),
                                      ("switch", ["switch", "packet switch"]),
                                      ("rack", ["rack"])])
        canonical = f"Which {container} contains {port}?"
        word = self.pick(words)
        paraphrase = self.pick([f"which {word} is {port} in?", f"what {word} does {port} belong to?",
                                f"{port} belongs to which {word}?", f"find the {word} containing {port}",
                                f"in which {word} is {port}?"])
        return canonical, self.polite(paraphrase)

    def multi_remove(self):
        switch = self.name("EK_PACKET_SWITCH")
        ports = [f"{switch}.p{i}" for i in self.rng.sample(range(1, 5), self.rng.randint(2, 3))]
        listing = ", ".join(ports[:-1]) + " and " + ports[-1]
        canonical = f"Remove {listing} from the graph."
        verb = self.pick(REMOVE_VERBS)
        joined = self.pick([listing, ", ".join(ports[:-1]) + ", and " + ports[-1],
                            " and ".join(ports)])
        paraphrase = self.pick([f"{verb} {joined}", f"{verb} ports {joined}{self.pick(FROM_GRAPH)}",
                                f"{joined} should be {self.pick(['removed', 'deleted'])}"])
        return canonical, self.polite(paraphrase)

    def update_all(self):
        switch = self.name("EK_PACKET_SWITCH")
        rate = self.pick(["40 Gbps", "10 Gbps"])
        said = self.pick(RATES[rate][:4])
        canonical = f"Set the capacity of every port of switch {switch} to {rate}."
        paraphrase = self.pick([f"set all ports of {switch} to {said}",
                                f"change the capacity of every port on {switch} to {said}",
                                f"make all of {switch}'s ports {said}",
                                f"upgrade each port under {switch} to {said}"])
        return canonical, self.polite(paraphrase)


FAMILIES = {
    "remove": lambda g: (lambda r: (r[1], g.polite(r[2]["imperative"])))(g.remove()),
    "children": lambda g: (lambda r: (r[0], g.polite(r[1])))(g.children()),
    "count": lambda g: (lambda r: (r[0], g.polite(r[1])))(g.count()),
    "rank": lambda g: (lambda r: (r[0], g.polite(r[1])))(g.rank()),
    "update": lambda g: (lambda r: (r[0], g.polite(r[1])))(g.update()),
    "add": lambda g: (lambda r: (r[2], g.polite(r[3])))(g.add()),
    "l2-remove": Gen.l2_remove_read,
    "l2-add": Gen.l2_add_read,
    "typed": Gen.typed,
    "capacity": Gen.capacity,
    "aggregate": Gen.aggregate,
    "top": Gen.top,
    "filter": Gen.filtered,
    "ancestor": Gen.ancestor,
    "multi-remove": Gen.multi_remove,
    "update-all": Gen.update_all,
}
PER_FAMILY = {"l2-remove": 40, "l2-add": 20}


def generate(seed: int = SEED) -> list[dict]:
    gen = Gen(seed)
    pairs = []
    seen = set()
    for family, make in FAMILIES.items():
        wanted = PER_FAMILY.get(family, 14)
        tries = 0
        while sum(1 for p in pairs if p["family"] == family) < wanted and tries < wanted * 20:
            tries += 1
            canonical, paraphrase = make(gen)
            if paraphrase in seen:
                continue
            seen.add(paraphrase)
            pairs.append({"family": family, "paraphrase": paraphrase, "canonical": canonical})
    return pairs


def render() -> str:
    header = ("# Generated by tests/malt/paraphrase_gen.py (compositional; part of the tuning corpus).\n"
              "# Do not edit: run `python -m tests.malt.paraphrase_gen` to rewrite.\n")
    return header + yaml.safe_dump({"pairs": generate()}, sort_keys=False, width=120,
                                   allow_unicode=True)


if __name__ == "__main__":
    OUT.write_text(render())
    print(f"wrote {OUT} ({len(generate())} pairs)")
