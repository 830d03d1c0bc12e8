"""Clients outside the cluster, read from a task's description.

A task text describes the application in words; clients that are not
workloads (an internet user, a partner system, a VPN) come with their
addresses, in any order and form: ``Patients (`patient`, 192.0.2.10)``,
``192.0.2.10 (patient)``, ``**partner** at 203.0.113.7``, ``vpn: 10.8.0.0/16
except 10.8.0.0/24``. The reading is structural, not a list of phrasings:

1. The text is cut into clauses (sentence ends, ``;``, lines) and each
   clause into tokens: addresses and CIDRs (IPv4, IPv6, ranges ``A-B``),
   marked names (code, bold, italics, quotes, a lone word in parentheses, a
   word that is a probe source's name), cluster words (workloads, services,
   namespaces, port names, labels: they may own an address but are no
   client), separators, parentheses and plain words.
2. Addresses joined by commas/``and``/``or`` form one group; CIDRs after an
   exception word (:data:`EXCEPT_WORDS`) are holes of the CIDR before them.
   Names joined the same way form one group.
3. A name group and an address group next to each other are a candidate
   binding, as strong as the structure between them: inside one pair of
   parentheses (4), one annotating the other in parentheses (3), only
   separators (2), a few plain words (1). Plain words never bind across a
   clause break (``which``, ``while``...), a policy verb (``accepts``: the
   CIDR is what a workload admits, policy intent, no client) or a noun
   phrase that may own the address (``the portal at 192.0.2.1``).
4. The bindings are the maximum-weight matching of each clause; when two
   matchings tie, the names they disagree on are refused, not guessed.

A client is the set of addresses it may probe from (a host, or CIDRs minus
their exceptions). Names the text marks as clients but gives no address
(or no unambiguous one) are reported as ``unmodelled``: a repair must then
hold what any outside address reaches (:func:`outside_sources`).

The vocabularies (exception words, policy verbs, clause breaks, function
words) are tables, not code.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from netmend.k8s.model import Cluster
from netmend.k8s.probe import Matrix, Mismatch


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words after which the next CIDRs are holes of the previous one.
EXCEPT_WORDS = ("except for", "except", "excluding", "but not", "other than", "minus", "without", "apart from", "save for")
# Verbs that make a CIDR what a workload admits or refuses: policy intent, no client's address.
POLICY_VERBS = _words(
    "accept accepts accepted accepting allow allows allowed allowing admit admits admitted admitting "
    "permit permits permitted permitting whitelist whitelists whitelisted allowlist allowlists allowlisted "
    "deny denies denied denying block blocks blocked blocking reject rejects rejected rejecting "
    "drop drops dropped restrict restricts restricted restricting limit limits limited only"
)
# Words that open another clause: an address after one is not the subject's.
CLAUSE_BREAKS = _words(
    "which who whom whose where while whereas but although though because since so then when unless "
    "whereby if"
)
# Determiners: "the X at A" makes X the owner of A.
DETERMINERS = _words("the a an its their our his her this that these those each every any some")
# Nouns that name an address itself ("the range 10.0.0.0/8"), so no other owner.
ADDRESS_NOUNS = _words(
    "address addresses ip ips ipv4 ipv6 range ranges network networks subnet subnets block blocks cidr cidrs "
    "prefix prefixes host hosts source sources net nets space block"
)
# Prepositions that say where a connection comes from: the address is the subject's.
SOURCE_PREPOSITIONS = _words("from using via behind out")
# Words the task text of a Kubernetes application marks without naming a client.
K8S_WORDS = _words(
    "tcp udp sctp http https grpc dns kube-dns kube-system default ingress egress loadbalancer nodeport "
    "clusterip local cluster networkpolicy networkpolicies service services pod pods namespace namespaces "
    "deployment statefulset daemonset cronjob job kubectl patch json yaml true false all none"
)
# Marked words that are emphasis, not names ("must **not** reach").
EMPHASIS_WORDS = _words(
    "not no never must may should shall only also too all any none each every both either neither and or "
    "nor yes always directly exactly once twice one two"
)
# Plain words between a name and an address beyond this many: no binding.
MAX_GAP_WORDS = 5

_CLAUSE_END = re.compile(r"(?:[.!?;](?=\s|$))|\n")
_NAME = re.compile(r"^[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?$")
_V4 = r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?(?![\d.]*\d)"
_V6 = r"(?<![\w:])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:)[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:/\d{1,3})?(?![\w:])"
_TOKEN = re.compile(
    r"`(?P<code>[^`\n]+)`"
    r"|\*\*(?P<bold>[^*\n]+)\*\*"
    r"|(?<![\w*])[*_](?P<em>[^*_\s][^*_\n]*?)[*_](?![\w*])"
    r"|[\"“](?P<dq>[^\"”\n]+)[\"”]"
    r"|(?<![\w])'(?P<sq>[A-Za-z0-9][-A-Za-z0-9_.]*)'(?![\w])"
    rf"|(?P<addr>{_V4}|{_V6})"
    r"|(?P<open>[(\[])|(?P<close>[)\]])"
    r"|(?P<sep>->|→|—|–|:|=|,|/|(?<=\s)-(?=\s)|&)"
    r"|(?P<word>[A-Za-z][-A-Za-z0-9'’]*)"
)
_COORDINATORS = frozenset({",", "and", "or", "&", "/", "plus"})
_RANGE_WORDS = frozenset({"-", "–", "to", "through", "thru"})

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Client:
    """An outside client: the addresses its probes may come from.

    ``networks`` are CIDRs (a host as /32 or /128); ``excepts`` are holes in them.
    """

    name: str
    networks: tuple[str, ...]
    excepts: tuple[str, ...] = ()

    @property
    def address(self) -> str | None:
        """The one address of a host client, else ``None`` (a range)."""
        if len(self.networks) == 1 and not self.excepts:
            net = ipaddress.ip_network(self.networks[0])
            if net.num_addresses == 1:
                return str(net.network_address)
        return None

    def holds(self, address: str) -> bool:
        """Whether ``address`` is one this client may probe from."""
        ip = ipaddress.ip_address(address)
        inside = any(ip.version == n.version and ip in n for n in map(ipaddress.ip_network, self.networks))
        return inside and not any(ip.version == n.version and ip in n for n in map(ipaddress.ip_network, self.excepts))


@dataclass(frozen=True)
class TaskClients:
    """What a description says about the world outside the cluster.

    ``found`` are the clients bound to addresses; ``unmodelled`` are names
    the text marks as clients with no address or no unambiguous one, with
    the reason; ``networks`` are every address (as /32 or /128) and CIDR
    written; ``intent`` the CIDRs stated as what a workload admits.
    """

    found: tuple[Client, ...] = ()
    unmodelled: tuple[tuple[str, str], ...] = ()
    networks: tuple[str, ...] = ()
    intent: tuple[str, ...] = ()
    # an unmodelled name every reading of the text places at one of these networks
    within: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def clients(self) -> tuple[tuple[str, str], ...]:
        """``(name, address)`` of every host client (one address)."""
        return tuple((c.name, c.address) for c in self.found if c.address is not None)

    def as_dict(self) -> dict[str, str]:
        """``{name: address}`` of every host client."""
        return dict(self.clients)

    def client(self, name: str) -> Client | None:
        """The client named ``name``, if found."""
        return next((c for c in self.found if c.name == name), None)

    @property
    def names(self) -> frozenset[str]:
        """Every outside name the text gives, modelled or not."""
        return frozenset(c.name for c in self.found) | frozenset(n for n, _ in self.unmodelled)


# -- tokens --------------------------------------------------------------------------


@dataclass
class _Tok:
    kind: str  # name, cluster, addr, open, close, sep, word, except
    text: str
    depth: int = 0  # parenthesis depth
    paren: int = -1  # id of the innermost parenthesis group (-1: none)
    marked: bool = False
    nets: tuple = ()


def _network(text: str) -> Network | None:
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        return None


def _tokens(clause: str, skip: set[str], sources: set[str]) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _TOKEN.finditer(clause):
        group = m.lastgroup
        text = m.group(group)
        if group in ("code", "bold", "em", "dq", "sq"):
            inner = text.strip()
            net = _network(inner) if re.fullmatch(r"[0-9A-Fa-f.:/]+", inner) else None
            if net is not None:
                out.append(_Tok("addr", inner, nets=(net,)))
            elif _NAME.match(inner) and re.search(r"[A-Za-z]", inner):
                # bold and italics also emphasise words; code and quotes only name
                out.append(_name_token(inner, skip, marked=True, emphasis=group in ("bold", "em")))
            elif "/" in inner or inner.lower() in skip:
                out.append(_Tok("cluster", inner))
            else:
                out.append(_Tok("word", inner))
        elif group == "addr":
            net = _network(text)
            out.append(_Tok("addr", text, nets=(net,)) if net is not None else _Tok("word", text))
        elif group == "word":
            low = re.sub(r"['’]s?$", "", text.lower())  # "player's" is the player
            if text in sources:
                out.append(_name_token(text, skip, marked=True))
            elif low in skip:
                out.append(_Tok("cluster", text))
            else:
                out.append(_Tok("word", low))
        else:
            out.append(_Tok(group, text))
    _mark_excepts(out)
    _parens(out)
    _promote_lone_words(out, skip)
    return out


def _name_token(text: str, skip: set[str], marked: bool, emphasis: bool = False) -> _Tok:
    low = text.lower()
    # a workload's name, or the start of one ("**checkout**" for checkoutservice)
    if low in skip or low in K8S_WORDS or (len(low) >= 3 and any(w.startswith(low) for w in skip)):
        return _Tok("cluster", text)
    if emphasis and (low in EMPHASIS_WORDS or low in DETERMINERS or low in POLICY_VERBS or low in CLAUSE_BREAKS):
        return _Tok("word", low)
    return _Tok("name", text, marked=marked)


def _mark_excepts(toks: list[_Tok]) -> None:
    """Fold multi-word exception phrases into one ``except`` token."""
    phrases = sorted((tuple(w.split()) for w in EXCEPT_WORDS), key=len, reverse=True)
    i = 0
    while i < len(toks):
        for phrase in phrases:
            words = toks[i : i + len(phrase)]
            if len(words) == len(phrase) and all(t.kind == "word" and t.text == w for t, w in zip(words, phrase, strict=True)):
                toks[i : i + len(phrase)] = [_Tok("except", " ".join(phrase))]
                break
        i += 1


def _parens(toks: list[_Tok]) -> None:
    depth, stack, next_id = 0, [], 0
    for t in toks:
        if t.kind == "open":
            stack.append(next_id)
            next_id += 1
            depth += 1
            t.depth, t.paren = depth, stack[-1]
        elif t.kind == "close":
            t.depth, t.paren = depth, stack[-1] if stack else -1
            if stack:
                stack.pop()
                depth -= 1
        else:
            t.depth, t.paren = depth, stack[-1] if stack else -1


def _promote_lone_words(toks: list[_Tok], skip: set[str]) -> None:
    """A parenthesis holding one plain word (and perhaps addresses) names something:
    ``192.0.2.10 (patient)``, ``(patient, 192.0.2.10)``."""
    groups: dict[int, list[int]] = {}
    for i, t in enumerate(toks):
        if t.paren >= 0 and t.kind not in ("open", "close"):
            groups.setdefault(t.paren, []).append(i)
    for members in groups.values():
        words = [i for i in members if toks[i].kind == "word"]
        others = [i for i in members if toks[i].kind not in ("word", "sep", "addr")]
        opening = members[0] - 1
        # a parenthesis right after a name annotates that name: its words describe, not name
        annotates = opening > 0 and toks[opening - 1].kind in ("name", "cluster")
        if len(words) == 1 and not others and not annotates and toks[words[0]].depth == max(toks[i].depth for i in members):
            t = toks[words[0]]
            if _NAME.match(t.text) and t.text not in DETERMINERS | ADDRESS_NOUNS | K8S_WORDS:
                toks[words[0]] = _name_token(t.text, skip, marked=False)
                toks[words[0]].depth, toks[words[0]].paren = t.depth, t.paren


# -- items: name groups and address groups ------------------------------------------


@dataclass
class _Item:
    kind: str  # "name" (client names), "cluster" (cluster words), "addr"
    start: int  # first token index
    end: int  # last token index
    names: list[str] = field(default_factory=list)
    marked: bool = False
    specs: list[tuple[list[Network], list[Network]]] = field(default_factory=list)  # (networks, holes)
    intent: bool = False


def _items(toks: list[_Tok]) -> list[_Item]:
    items: list[_Item] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "addr":
            item, i = _address_group(toks, i)
            items.append(item)
            continue
        if t.kind in ("name", "cluster"):
            item = _Item(t.kind, i, i, [t.text], t.marked)
            j = i + 1
            while True:
                k = j
                while k < len(toks) and toks[k].kind in ("sep", "word") and toks[k].text in _COORDINATORS:
                    k += 1
                if k > j and k < len(toks) and toks[k].kind == t.kind and toks[k].paren == t.paren:
                    item.names.append(toks[k].text)
                    item.marked = item.marked and toks[k].marked
                    item.end = k
                    j = k + 1
                    continue
                break
            items.append(item)
            i = item.end + 1
            continue
        i += 1
    return items


def _address_group(toks: list[_Tok], i: int) -> tuple[_Item, int]:
    """Addresses joined by coordinators (and their holes) from token ``i`` on."""
    item = _Item("addr", i, i)
    nets: list[Network] = []
    holes: list[Network] = []
    in_except = False
    j = i
    while j < len(toks):
        t = toks[j]
        if t.kind == "addr":
            # a range "A - B" or "A to B"
            if (
                j + 2 < len(toks)
                and toks[j + 1].text in _RANGE_WORDS
                and toks[j + 2].kind == "addr"
                and t.nets[0].num_addresses == 1 == toks[j + 2].nets[0].num_addresses
                and t.nets[0].version == toks[j + 2].nets[0].version
            ):
                low, high = t.nets[0].network_address, toks[j + 2].nets[0].network_address
                span = list(ipaddress.summarize_address_range(low, high)) if low <= high else []
                if not span:
                    break
                (holes if in_except else nets).extend(span)
                item.end = j + 2
                j += 3
            else:
                (holes if in_except else nets).extend(t.nets)
                item.end = j
                j += 1
            k = j
            while k < len(toks) and toks[k].kind in ("sep", "word") and toks[k].text in _COORDINATORS:
                k += 1
            if k < len(toks) and toks[k].kind == "except" and (nets or holes):
                in_except = True
                j = k + 1
                continue
            if k > j and k < len(toks) and toks[k].kind == "addr":
                j = k
                continue
            break
        if t.kind == "except":
            in_except = True
            j += 1
            continue
        break
    # every hole belongs to the networks that hold it; a "hole" outside every network
    # before it is another network ("A except B, and C")
    for h in holes:
        if not any(h.version == n.version and h.subnet_of(n) and h != n for n in nets):
            nets.append(h)
    holes = [h for h in holes if h not in nets]
    item.specs = [([n], [h for h in holes if h.version == n.version and h.subnet_of(n) and h != n]) for n in nets]
    return item, item.end + 1


# -- bindings --------------------------------------------------------------------------


def _gap_strength(toks: list[_Tok], a: _Item, b: _Item, client: bool) -> int:
    """How strongly the structure between items ``a`` (first) and ``b`` binds them."""
    between = toks[a.end + 1 : b.start]
    name_first = a.kind != "addr"
    first_tok, last_tok = toks[a.end], toks[b.start]
    if first_tok.paren >= 0 and first_tok.paren == last_tok.paren and all(t.kind == "sep" for t in between):
        return 4
    if between and between[0].kind == "open" and all(t.kind == "sep" for t in between[1:]):
        return 3
    if all(t.kind == "sep" for t in between):
        return 2 if between or toks[a.end].paren == toks[b.start].paren else 1
    words = [t for t in between if t.kind not in ("sep", "open", "close")]
    texts = [t.text.lower() for t in words]
    if any(t.kind in ("name", "addr", "except") for t in words):
        return 0
    if any(w in CLAUSE_BREAKS for w in texts):
        return 0
    verb = any(w in POLICY_VERBS for w in texts)
    if not client:
        # a cluster word owns an address it admits or that sits right by it
        if verb:
            return 2
        if not name_first:
            return 0
        last = texts[-1] if texts else ""
        return 1 if len(words) <= 2 and last not in SOURCE_PREPOSITIONS else 0
    if verb or len(words) > MAX_GAP_WORDS:
        return 0
    if not name_first:
        return 1 if len(words) <= 2 and not any(t.kind == "cluster" for t in words) else 0
    last = texts[-1] if texts else ""
    owners = [i for i, t in enumerate(words) if t.kind == "cluster" or (i > 0 and texts[i - 1] in DETERMINERS and texts[i] not in ADDRESS_NOUNS)]
    if owners and last not in SOURCE_PREPOSITIONS:
        return 0  # "... the portal at 192.0.2.1": the portal's address
    if any(t.kind == "cluster" for t in words) and last not in SOURCE_PREPOSITIONS:
        return 0
    return 1


def _matchings(edges: list[tuple[int, int, int]], count: int) -> list[tuple[int, frozenset[int]]]:
    """Every maximal-weight set of edges sharing no item: ``(weight, edge indices)``."""
    best: list[tuple[int, frozenset[int]]] = []
    top = -1

    def walk(k: int, used: frozenset[int], chosen: frozenset[int], weight: int) -> None:
        nonlocal top, best
        if k == len(edges):
            if weight > top:
                top, best = weight, [(weight, chosen)]
            elif weight == top:
                best.append((weight, chosen))
            return
        i, j, w = edges[k]
        if i not in used and j not in used:
            walk(k + 1, used | {i, j}, chosen | {k}, weight + w)
        walk(k + 1, used, chosen, weight)

    walk(0, frozenset(), frozenset(), 0)
    return best


def _bind_clause(toks: list[_Tok]) -> tuple[list[tuple[_Item, _Item]], list[_Item], set[int], dict[int, list[_Item]]]:
    """``(name item, address item)`` bindings, the items, the indices of ambiguous items,
    and for an ambiguous name bound to an address in every matching, those addresses."""
    items = _items(toks)
    edges = []

    def add(i: int, j: int, client: bool) -> None:
        w = _gap_strength(toks, items[i], items[j], client)
        if w > 0:
            edges.append((i, j, w))

    for i, a in enumerate(items):
        for j in range(i + 1, len(items)):
            b = items[j]
            adjacent = j == i + 1
            if a.kind == "cluster":
                if adjacent and b.kind == "addr":
                    add(i, j, client=False)
                break
            if b.kind == "cluster":
                if a.kind == "addr" and adjacent:
                    add(i, j, client=False)
                continue  # a client binds across cluster words
            if {a.kind, b.kind} == {"name", "addr"}:
                add(i, j, client=True)
            break
    if len(edges) > 16:  # a clause this dense is not read
        return [], items, set(range(len(items))), {}
    found = _matchings(edges, len(items))
    common = frozenset.intersection(*(m for _, m in found)) if found else frozenset()
    ambiguous: set[int] = set()
    for _, m in found:
        for k in m - common:
            ambiguous |= {edges[k][0], edges[k][1]}
    pairs = []
    for k in sorted(common):
        i, j, _ = edges[k]
        if i in ambiguous or j in ambiguous:
            continue
        a, b = items[i], items[j]
        pairs.append((a, b) if a.kind != "addr" else (b, a))
    readings: dict[int, list[_Item]] = {}
    for i in ambiguous:
        if items[i].kind != "name":
            continue
        addresses = []
        for _, m in found:
            ends = [edges[k][1] if edges[k][0] == i else edges[k][0] for k in m if i in edges[k][:2]]
            ends = [e for e in ends if items[e].kind == "addr"]
            if not ends:
                break  # a reading that gives it no address: it may be anywhere
            addresses += [items[e] for e in ends]
        else:
            readings[i] = addresses
    return pairs, items, ambiguous, readings


def extract_clients(text: str, exclude: Iterable[str] = (), sources: Iterable[str] = ()) -> TaskClients:
    """The outside clients and networks a description names.

    ``exclude`` are names that are no clients (workloads, services,
    namespaces, port names, labels: :func:`names_of`); ``sources`` are probe
    source names seen in feedback, which count as names when written plainly.

    Examples
    --------
    >>> found = extract_clients("Customers (`customer`, 203.0.113.10) and **partner** at 198.51.100.7 call in.")
    >>> found.as_dict()
    {'customer': '203.0.113.10', 'partner': '198.51.100.7'}
    >>> vpn = extract_clients("VPN users `vpn` come from 10.8.0.0/16 except 10.8.0.0/24.").client("vpn")
    >>> vpn.networks, vpn.excepts, vpn.holds("10.8.0.9"), vpn.holds("10.8.1.9")
    (('10.8.0.0/16',), ('10.8.0.0/24',), False, True)
    >>> extract_clients("Auditors (`audit`) call the API; the API accepts 192.0.2.0/24.").unmodelled
    (('audit', 'the text gives it no address'),)
    """
    skip = {name.lower() for name in exclude}
    plain_sources = {s for s in sources if "/" not in s and s.lower() not in skip}
    bound: dict[str, list[tuple[tuple[Network, ...], tuple[Network, ...]]]] = {}
    refused: dict[str, str] = {}
    mentioned: dict[str, None] = {}
    networks: dict[str, None] = {}
    intent: dict[str, None] = {}
    placed: dict[str, list[Network]] = {}  # a refused name -> every address a reading gives it
    anywhere: set[str] = set()  # refused names some reading gives no address
    for clause in _CLAUSE_END.split(text):
        toks = _tokens(clause, skip, plain_sources)
        for t in toks:
            if t.kind == "addr":
                for net in t.nets:
                    networks[str(net)] = None
        pairs, items, ambiguous, readings = _bind_clause(toks)
        for item in items:
            if item.kind == "name" and item.marked:
                for name in item.names:
                    mentioned.setdefault(name, None)
        for index in ambiguous:
            item = items[index]
            if item.kind == "name":
                for name in item.names:
                    refused.setdefault(name, "the text binds it to an address ambiguously")
                    if index in readings and all(a.specs for a in readings[index]):
                        placed.setdefault(name, []).extend(n for a in readings[index] for spec in a.specs for n in spec[0])
                    else:
                        anywhere.add(name)
        for item in items:
            if item.kind == "addr" and _after_policy_verb(toks, item):
                item.intent = True
        for owner, addr in pairs:
            if owner.kind == "cluster":
                addr.intent = True
                continue
            if addr.intent or not addr.specs:
                for name in owner.names:
                    refused.setdefault(name, "its address is written as what a workload admits, or unreadably")
                continue
            hosts = [s for s in addr.specs if s[0][0].num_addresses == 1 and not s[1]]
            if len(owner.names) > 1 and (len(addr.specs) > 1 or hosts):
                for name in owner.names:
                    refused.setdefault(name, "several names share the addresses; which is whose is not said")
                continue
            nets = tuple(n for s in addr.specs for n in s[0])
            holes = tuple(h for s in addr.specs for h in s[1])
            for name in owner.names:
                bound.setdefault(name, []).append((nets, holes))
        for item in items:
            if item.kind == "addr" and item.intent:
                for spec in item.specs:
                    for n in spec[0]:
                        intent[str(n)] = None
    found = []
    for name, specs in bound.items():
        if name in refused:
            continue
        if len(set(specs)) > 1:
            refused[name] = "the text gives it different addresses"
            placed.setdefault(name, []).extend(n for nets, _ in specs for n in nets)
            continue
        nets, holes = specs[0]
        found.append(Client(name, tuple(str(n) for n in nets), tuple(str(h) for h in holes)))
    unmodelled = [(n, refused[n]) for n in refused]
    unmodelled += [(n, "the text gives it no address") for n in mentioned if n not in bound and n not in refused]
    for s in sorted(plain_sources):
        if s not in bound and s not in refused and s not in mentioned:
            unmodelled.append((s, "the text gives it no address"))
    for name, reason in refused.items():
        if not reason.startswith(("the text binds it", "the text gives it different")):
            anywhere.add(name)  # a reading the text may give it that names no address of its own
        elif name in bound:
            placed.setdefault(name, []).extend(n for nets, _ in bound[name] for n in nets)
    within = tuple(
        (n, tuple(dict.fromkeys(str(x) for x in placed[n]))) for n, _ in unmodelled if n in placed and n not in anywhere
    )
    return TaskClients(tuple(found), tuple(unmodelled), tuple(networks), tuple(intent), within)


def _after_policy_verb(toks: list[_Tok], item: _Item) -> bool:
    """Whether a policy verb stands right before ``item`` (no name or address between)."""
    for t in reversed(toks[: item.start]):
        if t.kind in ("name", "addr", "cluster"):
            return False
        if t.kind == "word" and t.text in CLAUSE_BREAKS:
            return False
        if t.kind == "word" and t.text in POLICY_VERBS:
            return True
    return False


def names_of(cluster: Cluster) -> set[str]:
    """Words of a description that are no clients: workload, service, namespace,
    container and Service port names, label keys and values."""
    out = {n.name for n in cluster.namespaces} | {s.name for s in cluster.services}
    for ns in cluster.namespaces:
        out |= {k for k, _ in ns.labels} | {v for _, v in ns.labels}
    for svc in cluster.services:
        out |= {p.name for p in svc.ports if p.name}
        out |= {str(p.target_port) for p in svc.ports if isinstance(p.target_port, str)}
    for pod in cluster.pods:
        out |= {pod.workload, f"{pod.namespace}/{pod.workload}"}
        out |= {k for k, _ in pod.labels} | {v for _, v in pod.labels}
        out |= {p.name for p in pod.ports if p.name}
    for pol in cluster.policies:
        out.add(pol.name)
    return {o for o in out if o}


# -- the outside world as probe sources of the model ------------------------------------

# Model sources standing for an outside client that cannot be modelled: one per address class.
UNKNOWN_PREFIX = "*"


@dataclass(frozen=True)
class Outside:
    """The outside clients as sources of the model.

    A host client is one source under its own name. A range client, and
    every client that cannot be modelled, stands for every address it may
    have: one source per *address class* (addresses no ipBlock of the
    policies, no network of the text and no client tells apart), named
    ``name@address``; an unmodellable client's classes cover both address
    families (``*@address``). Holding a class's probes holds every address
    in it, so a plan that keeps them keeps whatever such a client reaches.
    """

    externals: Mapping[str, str]  # model source -> the address it probes from
    stands_for: Mapping[str, tuple[str, ...]]  # a modelled client's name -> its model sources
    unmodelled: frozenset[str] = frozenset()  # names whose probes are left alone
    witnesses: tuple[str, ...] = ()  # model sources of the unmodellable clients
    spans: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # witness -> its class (first, last)
    texts: tuple[Network, ...] = ()  # the networks the text names
    free: frozenset[tuple[str, str]] = frozenset()  # probes of witnesses no client wants kept
    aims: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)  # a line -> classes aimed at
    bounds: Mapping[str, tuple[Network, ...]] = field(default_factory=dict)  # a name -> the networks it is within

    @property
    def names(self) -> frozenset[str]:
        """Every outside name: modelled or not."""
        return frozenset(self.stands_for) | self.unmodelled

    def translate(self, mismatches: Iterable[Mismatch], current: Matrix) -> tuple[tuple[Mismatch, ...], tuple[Mismatch, ...]]:
        """``(mismatches of the model, mismatches left alone)``.

        A range client's mismatch becomes one per address class of the range
        whose modelled value is the observed one (the probe's address is one
        of them, so all of them move); none such, or an unmodellable source,
        or a target outside clients cannot reach: left alone.
        """
        now = {(s, t): v for s, cells in current.rows for t, v in cells}
        mismatches = tuple(mismatches)
        modelled, alone = [], []
        for m in mismatches:
            if m.source in self.unmodelled:
                aim = self.aims.get((m.source, m.target), ())
                if aim:
                    modelled.extend(Mismatch(w, m.target, m.expected, m.actual) for w in aim)
                else:
                    alone.append(m)
                continue
            sources = self.stands_for.get(m.source)
            if sources is None or sources == (m.source,):
                if sources is not None and (m.source, m.target) not in now:
                    alone.append(m)
                else:
                    modelled.append(m)
                continue
            fitting = [s for s in sources if now.get((s, m.target)) == m.actual]
            if not fitting:
                alone.append(m)
                continue
            modelled.extend(Mismatch(s, m.target, m.expected, m.actual) for s in fitting)
        return tuple(modelled), tuple(alone)


    def candidates(self, name: str, mismatches: Iterable[Mismatch], now: Mapping[tuple[str, str], bool]) -> tuple[str, ...] | None:
        """The address classes a client the text gives no address may probe from:
        those whose modelled value is the observed one for every line it reports
        (its other probes match their expected values, which no line gives, so they
        rule no class out), inside the networks every reading of the text places it
        at when there are such (:attr:`TaskClients.within`). ``None`` when no class fits: the model cannot place
        the client, so every class is kept as it is."""
        own = [m for m in mismatches if m.source == name]
        bounds = self.bounds.get(name)
        out = tuple(
            w
            for w in self.witnesses
            if all(now.get((w, m.target)) == m.actual for m in own)
            and (bounds is None or any(self._inside(w, n) for n in bounds))
        )
        return out or None

    def restricted(self, mismatches: Iterable[Mismatch], current: Matrix) -> Outside:
        """This model cut to what the unmodellable clients' lines allow (see :meth:`plan_for`)."""
        if not self.unmodelled or not self.witnesses:
            return self
        mismatches = tuple(mismatches)
        kept, free, aims = self.plan_for(mismatches, current)
        # a class no plan aims at only has to hold: one address of it is enough (the last
        # check re-cuts the classes with the plan's CIDRs, so an edit naming another is seen)
        aimed = {self.spans[w] for classes in aims.values() for w in classes}
        seen: set[tuple[int, int]] = set()
        for w in self.witnesses:
            if w in kept and self.spans[w] not in aimed:
                if self.spans[w] in seen:
                    kept = kept - {w}
                seen.add(self.spans[w])
        free = frozenset(p for p in free if p[0] in kept)
        witnesses = tuple(w for w in self.witnesses if w in kept)
        externals = {k: v for k, v in self.externals.items() if k not in self.witnesses or k in kept}
        spans = {w: self.spans[w] for w in witnesses}
        return replace(self, externals=externals, witnesses=witnesses, spans=spans, free=free, aims=aims)

    def with_connections(self, groups: Iterable[Iterable[tuple[str, str]]]) -> Outside:
        """This model with every probe that is the same connection as a free one, from
        the same source, free too (a LoadBalancer port and its nodePort under ``Local``):
        no policy set can move one without the other."""
        if not self.free:
            return self
        free = set(self.free)
        for group in groups:
            probes = list(group)
            loose = {s for s, t in probes if (s, t) in self.free}
            free |= {(s, t) for s, t in probes if s in loose}
        return replace(self, free=frozenset(free))

    def plan_for(
        self, mismatches: tuple[Mismatch, ...], current: Matrix
    ) -> tuple[frozenset[str], frozenset[tuple[str, str]], Mapping[tuple[str, str], tuple[str, ...]]]:
        """``(classes kept, probes left free, classes aimed at per line)`` for the
        clients the text gives no usable address.

        - A client may be in any of its :meth:`candidates`; a class no such client
          may be in is no source of the universe (no client of the text holds it).
        - In every candidate class the client's probes keep their values, except
          those it reports as mismatches: whatever class it is in, its other probes
          stay.
        - A reported probe may move, in a candidate class, towards its expected
          value (from the observed one: any move), unless another client may want
          it kept there (a modelled client holding an address of the class that
          does not report it so, or another unmodellable client that may sit there);
          those classes keep it.
        - Of the classes it may move in, the plan aims at those inside the
          narrowest network the text names that holds one (where the text places
          its clients); the others are left free. Aiming at a class the client is
          not in moves nobody's probe; the next observation then rules it out.
        """
        now = {(s, t): v for s, cells in current.rows for t, v in cells}
        reported = {(x.source, x.target): x.expected for x in mismatches}
        cands = {n: self.candidates(n, mismatches, now) for n in self.unmodelled}
        kept: set[str] = set()
        for found in cands.values():
            kept |= set(self.witnesses if found is None else found)
        free: set[tuple[str, str]] = set()
        aims: dict[tuple[str, str], tuple[str, ...]] = {}
        for m in mismatches:
            found = cands.get(m.source)
            if found is None:
                continue
            movable = [w for w in found if (w, m.target) in now and not self._wanted_kept(w, m, cands, reported, now)]
            aim = self._narrowest(movable, self._kept_elsewhere(m, reported, now))
            aims[(m.source, m.target)] = aim
            free |= {(w, m.target) for w in movable if w not in aim}
        return frozenset(kept), frozenset(free), aims

    def _wanted_kept(self, w: str, m: Mismatch, cands: Mapping, reported: Mapping, now: Mapping) -> bool:
        """Whether another client may be in class ``w`` and want ``m``'s target kept."""
        first, last = self.spans[w]
        version = ipaddress.ip_address(self.externals[w]).version
        for name, sources in self.stands_for.items():
            if reported.get((name, m.target)) == m.expected:
                continue
            for source in sources:
                address = ipaddress.ip_address(self.externals[source])
                if (source, m.target) in now and address.version == version and first <= int(address) <= last:
                    return True
        return any(
            o != m.source and reported.get((o, m.target)) != m.expected and w in (found or self.witnesses)
            for o, found in cands.items()
        )

    def _kept_elsewhere(self, m: Mismatch, reported: Mapping, now: Mapping) -> list:
        """Addresses of modelled clients whose probe of ``m``'s target has the observed
        value and is not reported: the text places a client of the other value there."""
        out = []
        for name, sources in self.stands_for.items():
            if (name, m.target) in reported:
                continue
            out += [ipaddress.ip_address(self.externals[s]) for s in sources if now.get((s, m.target)) == m.actual]
        return out

    def _narrowest(self, classes: list[str], others: Iterable = ()) -> tuple[str, ...]:
        """The classes inside the narrowest networks of the text holding one of them
        (all of the equally narrow ones: none is preferred to another), leaving out
        each class whose narrowest range of the text is that of an address of
        ``others`` (the text's place for a client of the other value is not where
        this one is looked for)."""
        ranges = [n for n in self.texts if n.num_addresses > 1]

        def home(contains) -> Network | None:  # the narrowest range of the text holding it
            around = [n for n in ranges if contains(n)]
            return max(around, key=lambda n: n.prefixlen) if around else None

        places = {home(lambda n, a=a: a.version == n.version and a in n) for a in others} - {None}
        classes = [w for w in classes if home(lambda n, w=w: self._inside(w, n)) not in places]
        holding = [n for n in self.texts if any(self._inside(w, n) for w in classes)]
        if not holding:
            return ()
        width = min(n.max_prefixlen - n.prefixlen for n in holding)
        narrowest = [n for n in holding if n.max_prefixlen - n.prefixlen == width]
        return tuple(w for w in classes if any(self._inside(w, n) for n in narrowest))

    def _inside(self, w: str, net: Network) -> bool:
        first, last = self.spans[w]
        version = ipaddress.ip_address(self.externals[w]).version
        return version == net.version and int(net.network_address) <= first and last <= int(net.broadcast_address)


def description_of(task_text: str) -> str:
    """A task text without the loop's own fixed rules (how to answer, what is banned):
    they describe no application, and their emphasis names no client."""
    from netmend.repair.netarena import PREAMBLE_OPENING, PREAMBLE_RULES

    for fixed in (PREAMBLE_RULES.strip(), PREAMBLE_OPENING.strip()):
        task_text = task_text.replace(fixed, "")
    return task_text


def workload_of(cluster: Cluster, source: str) -> bool:
    """Whether a probe source names a workload of the cluster (``ns/workload`` or ``workload``)."""
    namespace, _, workload = source.rpartition("/")
    return any(p.workload == workload and (not namespace or p.namespace == namespace) for p in cluster.pods)


def qualify_outside_targets(cluster: Cluster, mismatches: Iterable[Mismatch], outside: Iterable[str]) -> tuple[Mismatch, ...]:
    """Mismatches of outside sources with their targets named as the model names them.

    An outside client has no namespace to resolve a short name in, so a harness
    may write ``service:port`` where the model writes ``service.namespace:port``.
    The short name is the Service outside clients reach on that port (its
    LoadBalancer port or nodePort); when no such Service, or more than one,
    has that name, the line is kept as written (its probe is then left alone,
    never guessed at).

    Examples
    --------
    >>> from netmend.k8s.model import Service, ServicePort
    >>> svc = Service("hooks", "ci", ports=(ServicePort(8080, 8080, node_port=30080),), type="NodePort")
    >>> cluster = Cluster(services=(svc,))
    >>> qualify_outside_targets(cluster, [Mismatch("git", "hooks:30080", True, False)], ["git"])[0].target
    'hooks.ci:30080'
    """
    names = frozenset(outside)
    out = []
    for m in mismatches:
        service, _, port = m.target.rpartition(":")
        if m.source in names and service and "." not in service and port.isdigit():
            number = int(port)
            found = {
                f"{svc.name}.{svc.namespace}:{number}"
                for svc in cluster.services
                if svc.is_external and svc.name == service
                for sp in svc.ports
                if sp.protocol == "TCP" and (sp.node_port == number or (svc.type == "LoadBalancer" and sp.port == number))
            }
            if len(found) == 1:
                m = Mismatch(m.source, found.pop(), m.expected, m.actual)
        out.append(m)
    return tuple(out)


def policy_networks(policies: Iterable[Mapping]) -> list[Network]:
    """Every ipBlock CIDR and exception of NetworkPolicy objects (malformed ones skipped)."""
    out: list[Network] = []
    for obj in policies:
        spec = obj.get("spec") if isinstance(obj, Mapping) else None
        if not isinstance(spec, Mapping):
            continue
        for direction, key in (("ingress", "from"), ("egress", "to")):
            for rule in spec.get(direction) or ():
                for peer in (rule.get(key) or ()) if isinstance(rule, Mapping) else ():
                    block = peer.get("ipBlock") if isinstance(peer, Mapping) else None
                    if not isinstance(block, Mapping):
                        continue
                    for text in (block.get("cidr"), *(block.get("except") or ())):
                        net = _network(str(text)) if text else None
                        if net is not None:
                            out.append(net)
    return out


def address_classes(networks: Iterable[Network], version: int) -> list[tuple[int, int]]:
    """The address space of one family cut at every boundary of ``networks``:
    ``(first, last)`` integer ranges, in order; no network splits one.

    Examples
    --------
    >>> [(ipaddress.ip_address(a), ipaddress.ip_address(b)) for a, b in address_classes([ipaddress.ip_network("10.0.0.0/8")], 4)]
    [(IPv4Address('0.0.0.0'), IPv4Address('9.255.255.255')), (IPv4Address('10.0.0.0'), IPv4Address('10.255.255.255')), (IPv4Address('11.0.0.0'), IPv4Address('255.255.255.255'))]
    """
    top = 2**32 if version == 4 else 2**128
    cuts = {0, top}
    for net in networks:
        if net.version == version:
            cuts |= {int(net.network_address), int(net.broadcast_address) + 1}
    ordered = sorted(cuts)
    return [(a, b - 1) for a, b in zip(ordered, ordered[1:], strict=False)]


def _representatives(first: int, last: int, version: int) -> tuple[str, ...]:
    """Two addresses of a class (one if it has one): an edit naming a single
    address (a /32) never moves a whole class on the model, as it would not
    in the cluster; wide classes skip their network and broadcast addresses."""
    low, high = (first + 1, last - 1) if last - first >= 3 else (first, last)
    make = ipaddress.IPv4Address if version == 4 else ipaddress.IPv6Address
    return tuple(dict.fromkeys(str(make(v)) for v in (low, high)))


def outside_model(
    clients: TaskClients,
    policies: Iterable[Mapping] = (),
    unmodelled: Iterable[str] = (),
    extra_networks: Iterable[str] = (),
) -> Outside:
    """The model sources of the task's outside clients (see :class:`Outside`).

    ``policies`` are the NetworkPolicy objects as read (their ipBlocks cut
    the address classes); ``unmodelled`` are further names (probe sources
    that are neither workloads nor clients of the text); ``extra_networks``
    more CIDRs that cut the classes (a plan's, to check it).
    """
    from netmend.k8s.cluster import NODE_ADDRESS

    unknown = frozenset(n for n, _ in clients.unmodelled) | frozenset(unmodelled)
    cuts: list[Network] = policy_networks(policies)
    cuts += [n for n in (_network(t) for t in (*clients.networks, *extra_networks)) if n is not None]
    for c in clients.found:
        cuts += [ipaddress.ip_network(t) for t in (*c.networks, *c.excepts)]
    cuts += [ipaddress.ip_network(t) for _, nets in clients.within for t in nets]
    cuts.append(ipaddress.ip_network(NODE_ADDRESS))
    externals: dict[str, str] = {}
    stands: dict[str, tuple[str, ...]] = {}
    classes = {v: address_classes(cuts, v) for v in (4, 6)}
    for c in clients.found:
        if c.name in unknown:
            continue
        if c.address is not None:
            externals[c.name] = c.address
            stands[c.name] = (c.name,)
            continue
        names = []
        for version in (4, 6):
            for first, last in classes[version]:
                for rep in _representatives(first, last, version):
                    if c.holds(rep):
                        names.append(f"{c.name}@{rep}")
                        externals[names[-1]] = rep
        stands[c.name] = tuple(names)
    witnesses: list[str] = []
    spans: dict[str, tuple[int, int]] = {}
    if unknown:
        # two addresses per class (as for a range client): an edit naming one address never moves a class
        for version in (4, 6):
            for first, last in classes[version]:
                for rep in _representatives(first, last, version):
                    witnesses.append(f"{UNKNOWN_PREFIX}@{rep}")
                    externals[witnesses[-1]] = rep
                    spans[witnesses[-1]] = (first, last)
    texts = tuple(n for n in (_network(t) for t in clients.networks) if n is not None)
    bounds = {n: tuple(ipaddress.ip_network(x) for x in nets) for n, nets in clients.within if n in unknown}
    return Outside(externals, stands, unknown, tuple(witnesses), spans, texts, bounds=bounds)


def outside_moves(
    cluster: Cluster,
    before: Mapping[str, Mapping],
    after: Mapping[str, Mapping],
    clients: TaskClients,
    mismatches: Iterable[Mismatch],
    *,
    dns: bool = True,
    unmodelled: Iterable[str] = (),
) -> tuple[tuple[str, str, bool], ...]:
    """Outside probes a change of policies moves but may not: ``(source, target, value after)``
    (a probe that keeps its value is never one: a partial plan is allowed).

    The address classes are cut anew by the CIDRs of both policy sets, so an
    edit naming an address the planner's classes did not tell apart is seen.
    A probe may move only towards a reported mismatch's expected value: a
    class of a range client the mismatch may come from, or any probe that is
    the same connection as one reported (the same arriving address to the
    same endpoints).
    """
    from netmend.k8s.manifest import parse_policy
    from netmend.k8s.probe import Prober
    from netmend.repair.intent import probe_universe

    outside = outside_model(clients, (*before.values(), *after.values()), unmodelled)
    if not outside.externals:
        return ()
    rows = [r for r in probe_universe(cluster, externals=outside.externals) if r[0] in outside.externals]
    if not rows:
        return ()
    prober = Prober(cluster, rows, dns=dns, externals=outside.externals)
    old = prober.run([parse_policy(dict(o), source=k) for k, o in before.items()])
    new = prober.run([parse_policy(dict(o), source=k) for k, o in after.items()])
    mismatches = tuple(mismatches)
    outside = outside.restricted(mismatches, old)
    if outside.free:
        outside = outside.with_connections(prober.connections().values())
    modelled, _ = outside.translate(mismatches, old)
    wanted = {(m.source, m.target): m.expected for m in modelled}
    for probes in prober.connections().values():
        wants = {wanted[p] for p in probes if p in wanted}
        if len(wants) == 1:
            wanted.update(dict.fromkeys(probes, wants.pop()))
    now = {(s, t): v for s, cells in old.rows for t, v in cells}
    return tuple(
        (s, t, v)
        for s, cells in new.rows
        if s in outside.externals
        for t, v in cells
        if v != now[(s, t)] and v != wanted.get((s, t)) and (s, t) not in outside.free
    )
