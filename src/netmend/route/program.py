"""The router program: one command that observes, decides on the router, fixes only what deviates.

The participant sees a pingall, never the router's state, before its first
command. So the first command carries the decision to the router: it lists
the state (``ip -o``, ``ip rule``, routes of every table, permanent
neighbours, qdiscs, sysctls, ``iptables-save`` where it exists), an awk
program compares it with the intent (embedded as literal data) and prints
one fix per deviation, and the shell runs exactly those fixes and says why.
Then it prints the state again as ``ip -j`` JSON, so a later turn can
diagnose it in full (:mod:`netmend.route.diagnose` judges by the same rules).

The command is POSIX ``sh`` run inside a subshell (nothing leaks into the
evaluator's shell), holds no banned substring and no ``!``, reads nothing
from a terminal and has no loop that can wait: it never blocks. Run twice, the
second run finds nothing to fix. The evaluator's shell reads from a terminal
that keeps at most 4095 characters of a line, so the awk program (and the
intent it carries) spans short lines inside its single quotes: the shell
reads them all as one command (see :mod:`netmend.route.shell`).

Fix order: forwarding sysctls, links (up, ARP, MTU), missing addresses,
conflicting addresses (after the right ones exist), blocking policy rules,
deviating routes, missing connected routes, neighbour entries, qdiscs,
firewall; last, a bounded wait (3 s at most) for any link it set up to be
operationally up, and a nudge (2 s at most) to the hosts of every interface it repaired
and of every interface the pingall implicates (:func:`nudge`), since the
evaluator's pingall follows at once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from netmend.route.evidence import Evidence
from netmend.route.intent import RouterIntent
from netmend.route.shell import check_command, quote

STATE_MARK = "@@netmend-state"
FIX_MARK = "netmend: fix"
SYSCTL_PATTERN = r"^net\.ipv4\.(ip_forward|conf\.[^.]+\.forwarding)$"

# What the router is asked, section by section (the awk program reads these).
OBSERVE: tuple[tuple[str, str], ...] = (
    ("link", "ip -o link show"),
    ("addr", "ip -4 -o addr show"),
    ("rule", "ip -4 rule show"),
    ("route", "ip -4 route show table all"),
    ("neigh", "ip -4 neigh show nud permanent"),
    ("qdisc", "tc qdisc show"),
    ("sysctl", f"sysctl -a -r '{SYSCTL_PATTERN}'"),
    ("ipt", "iptables-save -t filter"),
)

# The full state afterwards, for the Python model (netmend.route.state parses it).
DUMP: tuple[tuple[str, str], ...] = (
    ("link", "ip -j link show"),
    ("addr", "ip -j -4 addr show"),
    ("rule", "ip -j -4 rule show"),
    ("route", "ip -j -4 route show table all"),
    ("neigh", "ip -j -4 neigh show"),
    ("qdisc", "tc -j qdisc show"),
    ("sysctl", f"sysctl -a -r '{SYSCTL_PATTERN}'"),
    ("iptables", "iptables-save"),
    ("nft", "nft -j list ruleset"),
)

# Root qdiscs that only queue (they never delay or drop a ping on their own).
PLAIN_QDISCS: tuple[str, ...] = ("noqueue", "pfifo_fast", "fq_codel", "mq", "pfifo", "bfifo", "fq")
# A token bucket only shapes when its bucket holds a full frame (MTU plus the
# Ethernet header) and it refills at 1 Mbit/s or more: then a pingall's few
# pings pass at once, and the tbf is someone's rate limit, not the fault. One
# with a peak rate has a second bucket (its minburst); it is judged as before.
SHAPER_KIND = "tbf"
SHAPER_MIN_RATE = 125_000  # bytes per second
FRAME_OVERHEAD = 14


def shapes_only(kind: str, rate: int | None, burst: int | None, mtu: int, *, peak: bool = False) -> bool:
    """Whether a root qdisc only shapes (never delays or drops an occasional ping) on a link of ``mtu``.

    >>> shapes_only("tbf", 12_500_000, 65_525, 1500), shapes_only("tbf", 125_000, 100, 1500)
    (True, False)
    >>> shapes_only("netem", 12_500_000, 65_525, 1500), shapes_only("tbf", None, None, 1500)
    (False, False)
    >>> shapes_only("tbf", 12_500_000, 65_525, 1500, peak=True)
    False
    """
    if kind != SHAPER_KIND or rate is None or burst is None or peak:
        return False
    return rate >= SHAPER_MIN_RATE and burst >= mtu + FRAME_OVERHEAD

_TOKEN = re.compile(r"^[A-Za-z0-9_.@:/-]+$")
# Records of tokens: words split by one space, records by one ``;``.
_DATA = re.compile(r"[A-Za-z0-9_.@:/-]+(?:[ ;][A-Za-z0-9_.@:/-]+)*")

# The decision, in POSIX awk (mawk, gawk and busybox awk). Input: the OBSERVE
# sections, each after a line "@name". Variable I: the candidate intents.
# Output: "match <label>", then "<kind> <command...>" per fix, or "none", or
# "refuse <why...>". (quote() carries any "!" as \\!, safe from history expansion.)
ENGINE = r"""
function n4(a,  p) { split(a, p, "."); return ((p[1] * 256 + p[2]) * 256 + p[3]) * 256 + p[4] }
function inside(a, l, b, m,  k) { k = (l < m) ? l : m; return int(n4(a) / 2 ^ (32 - k)) == int(n4(b) / 2 ^ (32 - k)) }
function dotted(n,  s, k) { s = ""; for (k = 0; k < 4; k++) { s = (n % 256) (k ? "." s : ""); n = int(n / 256) }; return s }
function netof(a, l) { return dotted(int(n4(a) / 2 ^ (32 - l)) * 2 ^ (32 - l)) }
function bytes(s,  n, u) { n = s + 0; u = s; sub(/^[0-9.]+/, "", u); if (u == "Kb") n *= 1024; else if (u == "Mb") n *= 1048576; else if (u == "Gb") n *= 1073741824; else if (u != "b") n = -1; return n }
function bps(s,  n, u) { n = s + 0; u = s; sub(/^[0-9.]+/, "", u); if (u == "bit") n /= 8; else if (u == "Kbit") n *= 125; else if (u == "Mbit") n *= 125000; else if (u == "Gbit") n *= 125000000; else if (u == "Tbit") n *= 125000000000; else n = -1; return n }
function shaper(m, w, mtu,  k, rate, burst) { rate = burst = -1; if (w[2] != "SHAPER") return 0; for (k = 7; k < m; k++) { if (w[k] == "rate") rate = bps(w[k + 1]); if (w[k] == "burst") burst = bytes(w[k + 1]); if (w[k] == "peakrate") return 0 }; return rate >= MINRATE && burst >= mtu + OVERHEAD }
function safe(t) { return t ~ /^[A-Za-z0-9_.@:\/-]+$/ }
function cut(s, r) { if (s == "default" || s == "all") { r[1] = "0.0.0.0"; r[2] = 0 } else if (index(s, "/")) split(s, r, "/"); else { r[1] = s; r[2] = 32 } }
function lab(s,  r, k) { if (s == "") return 1; cut(s, r); for (k = 1; k <= ni[C]; k++) if (inside(r[1], r[2], IA[C, k], IL[C, k])) return 1; return 0 }
function labif(s) { return s == "" || s == "lo" || (s in WANT) }
function fix(stage, kind, cmd,  w) { if (cmd in SEEN) return; SEEN[cmd] = 1; nf[stage]++; F[stage, nf[stage]] = kind " " cmd; if (kind ~ /^(link-down|arp-off|mtu|address|address-conflict)$/) { split(cmd, w, " "); TOUCHED[w[kind ~ /^address/ ? 6 : 5]] = 1 } }
BEGIN {
  n = split(I, rec, ";"); c = 0
  for (q = 1; q <= n; q++) {
    m = split(rec[q], f, " ")
    if (f[1] == "c") { c++; label[c] = f[2] }
    if (f[1] == "r") router[c] = f[2]
    if (f[1] == "i") { ni[c]++; IN[c, ni[c]] = f[2]; IA[c, ni[c]] = f[3]; IL[c, ni[c]] = f[4]; IM[c, ni[c]] = f[5] }
    if (f[1] == "h") HOST[c, f[2]] = 1
    if (f[1] == "e") EV[c, f[2]] = 1
    if (f[1] == "b") BH[c, f[2]] = 1
    if (f[1] == "x") BX[c, f[2]] = 1
  }
  ncand = c
}
/^@/ { sec = substr($1, 2); next }
sec == "link" { d = $2; sub(/:$/, "", d); sub(/@.*/, "", d); LINK[d] = 1; FL[d] = $3; for (k = 4; k < NF; k++) if ($k == "mtu") MTU[d] = $(k + 1); next }
sec == "addr" { na++; AD[na] = $2; split($4, t, "/"); AI[na] = t[1]; AP[na] = t[2]; next }
sec == "rule" { nr++; RU[nr] = $0; next }
sec == "route" { nt++; RT[nt] = $0; next }
sec == "neigh" { nn++; NB[nn] = $0; next }
sec == "qdisc" { nq++; QD[nq] = $0; next }
sec == "sysctl" { SY[$1] = $3; next }
sec == "ipt" { np++; PT[np] = $0; next }
END {
  C = 0
  for (c = 1; c <= ncand && C == 0; c++) {
    good = 1; delete MINE
    for (k = 1; k <= ni[c]; k++) { MINE[IN[c, k]] = 1; if ((IN[c, k] in LINK) == 0) good = 0 }
    for (d in LINK) if (index(d, router[c] "-eth") == 1 && substr(d, length(router[c]) + 5) ~ /^[0-9]+$/ && (d in MINE) == 0) good = 0
    if (good) C = c
  }
  if (C == 0) { print "refuse the router has no interface set that a topology of this pingall has"; exit }
  print "match " label[C]
  for (k = 1; k <= ni[C]; k++) { WANT[IN[C, k]] = k; RIP[IA[C, k]] = 1 }
  if (SY["net.ipv4.ip_forward"] == "0") fix(1, "forwarding", "sysctl -w net.ipv4.ip_forward=1")
  for (k = 1; k <= ni[C]; k++) {
    d = IN[C, k]; key = "net.ipv4.conf." d ".forwarding"
    if (SY[key] == "0" && SY["net.ipv4.ip_forward"] != "0") fix(1, "forwarding", "sysctl -w " key "=1")
    if ((FL[d] ~ /[<,]UP[,>]/) == 0) { fix(2, "link-down", "ip link set dev " d " up"); fix(11, "settle", d) }
    if (FL[d] ~ /[<,]NOARP[,>]/) fix(2, "arp-off", "ip link set dev " d " arp on")
    if (MTU[d] + 0 < IM[C, k] + 0) fix(2, "mtu", "ip link set dev " d " mtu " IM[C, k])
    have = 0
    for (a = 1; a <= na; a++) if (AD[a] == d && AI[a] == IA[C, k] && AP[a] == IL[C, k]) have = 1
    if (have == 0) fix(3, "address", "ip addr add " IA[C, k] "/" IL[C, k] " dev " d)
  }
  for (a = 1; a <= na; a++) {
    d = AD[a]; k = (d in WANT) ? WANT[d] : 0
    if (d == "lo" || (k && AI[a] == IA[C, k] && AP[a] == IL[C, k])) continue
    bad = ((C, AI[a]) in HOST) || (AI[a] in RIP)
    for (j = 1; j <= ni[C]; j++) if (IN[C, j] != d && AP[a] + 0 >= IL[C, j] + 0 && inside(AI[a], AP[a], IA[C, j], IL[C, j])) bad = 1
    if (bad) DROPPED[AI[a]] = 1
    if (bad) fix(4, "address-conflict", "ip addr del " AI[a] "/" AP[a] " dev " d)
  }
  haslocal = hasmain = 0
  for (r = 1; r <= nr; r++) {
    m = split(RU[r], w, " "); pref = w[1]; sub(/:$/, "", pref)
    from = to = iif = oif = act = tbl = ""; odd = 0; rest = ""
    for (k = 2; k <= m; k++) {
      v = w[k]; rest = rest " " v
      if (safe(v) == 0) { odd = 1 }
      if (v ~ /^(from|to|iif|oif|lookup)$/) { k++; rest = rest " " w[k]; if (safe(w[k]) == 0) { odd = 1 } }
      if (v == "from") { from = w[k] } else if (v == "to") { to = w[k] } else if (v == "iif") { iif = w[k] } else if (v == "oif") { oif = w[k] } else if (v == "lookup") { act = "lookup"; tbl = w[k] } else if (v ~ /^(prohibit|blackhole|unreachable)$/) { act = v } else { odd = 1 }
    }
    if (odd) continue
    hits = lab(from == "all" ? "" : from) && lab(to == "all" ? "" : to) && labif(iif) && labif(oif)
    if (act == "lookup" && tbl == "local" && from == "all" && to == "" && iif == "" && oif == "") haslocal = 1
    if (act == "lookup" && tbl == "main" && from == "all" && to == "" && iif == "" && oif == "") hasmain = 1
    if (hits && act ~ /^(prohibit|blackhole|unreachable)$/) fix(5, "policy-rule", "ip rule del pref " pref rest)
    if (hits && act == "lookup" && pref + 0 < 32766 && (tbl ~ /^(local|main|default)$/) == 0) ASKED[tbl] = 1
  }
  if (haslocal == 0) fix(5, "policy-rule", "ip rule add pref 0 from all lookup local")
  if (hasmain == 0) fix(5, "policy-rule", "ip rule add pref 32766 from all lookup main")
  for (r = 1; r <= nt; r++) {
    m = split(RT[r], w, " "); k = 1; type = ""
    if (w[1] ~ /^(unicast|local|broadcast|multicast|blackhole|unreachable|prohibit|throw|nat|anycast)$/) { type = w[1]; k = 2 }
    to = w[k]; dev = via = metric = src = ""; tbl = "main"; odd = (safe(to) == 0)
    for (k++; k <= m; k++) {
      v = w[k]
      if (v ~ /^(dev|via|table|metric|proto|scope|src|tos|mtu|realms|expires|pref|advmss|initcwnd|initrwnd)$/) { k++ }
      if (safe(w[k]) == 0 || v == "nexthop") { odd = 1 }
      if (v == "dev") { dev = w[k] } else if (v == "via") { via = w[k] } else if (v == "table") { tbl = w[k] } else if (v == "metric") { metric = w[k] } else if (v == "src") { src = w[k] }
    }
    if (odd || type ~ /^(local|broadcast|multicast|anycast|nat)$/) continue
    if ((tbl != "main" && (tbl in ASKED) == 0) || (src in DROPPED)) continue
    cut(to, p)
    for (j = 1; j <= ni[C]; j++) {
      if (p[2] + 0 < IL[C, j] + 0 || inside(p[1], p[2], IA[C, j], IL[C, j]) == 0) continue
      if (type == "" && dev == IN[C, j] && via == "") { if (tbl == "main" && p[1] == netof(IA[C, j], IL[C, j]) && p[2] == IL[C, j]) ROUTED[j] = 1; continue }
      fix(6, "route", "ip route del " (type == "" ? "" : type " ") to (dev == "" ? "" : " dev " dev) (via == "" ? "" : " via " via) (metric == "" ? "" : " metric " metric) " table " tbl)
    }
  }
  for (j = 1; j <= ni[C]; j++) if ((j in ROUTED) == 0) fix(7, "route", "ip route replace " netof(IA[C, j], IL[C, j]) "/" IL[C, j] " dev " IN[C, j] " proto kernel scope link src " IA[C, j])
  for (r = 1; r <= nn; r++) { m = split(NB[r], w, " "); if (((C, w[1]) in BH) && ((C, w[1]) in HOST) && safe(w[3])) fix(8, "neighbour", "ip neigh del " w[1] " dev " w[3]) }
  for (r = 1; r <= nq; r++) {
    m = split(QD[r], w, " ")
    if (w[4] == "dev" && w[6] == "root" && ((C, w[5]) in BX) && (w[5] in WANT) && (w[2] ~ /^(PLAIN)$/) == 0 && shaper(m, w, IM[C, WANT[w[5]]]) == 0) fix(9, "qdisc", "tc qdisc del dev " w[5] " root")
  }
  for (r = 1; r <= np; r++) {
    m = split(PT[r], w, " ")
    if (w[1] ~ /^\*/) { table = substr(w[1], 2); continue }
    if (table != "filter") continue
    if (w[1] ~ /^:(INPUT|FORWARD|OUTPUT)$/ && w[2] == "DROP") {
      ch = substr(w[1], 2)
      if ((ch == "FORWARD" && ((C, "forwarded") in EV)) || (ch != "FORWARD" && ((C, "local") in EV))) fix(10, "firewall", "iptables -P " ch " ACCEPT")
      continue
    }
    if (w[1] != "-A" || (w[2] ~ /^(INPUT|FORWARD|OUTPUT)$/) == 0) continue
    s = dd = pr = ii = oo = tg = ""; odd = 0; rule = ""
    for (k = 3; k <= m; k++) {
      if (safe(w[k]) == 0) odd = 1
      v = w[k]
      if (v ~ /^(-s|-d|-p|-i|-o|-j|--reject-with)$/) { k++ } else { odd = 1 }
      if (safe(w[k]) == 0) { odd = 1 }
      if (v == "-s") { s = w[k] } else if (v == "-d") { dd = w[k] } else if (v == "-p") { pr = w[k] } else if (v == "-i") { ii = w[k] } else if (v == "-o") { oo = w[k] } else if (v == "-j") { tg = w[k] }
    }
    for (k = 2; k <= m; k++) rule = rule " " w[k]
    if (odd || (tg ~ /^(DROP|REJECT)$/) == 0 || (pr == "" || pr ~ /^(icmp|all)$/) == 0) continue
    if (lab(s) && lab(dd) && labif(ii) && labif(oo)) fix(10, "firewall", "iptables -D" rule)
  }
  fixed = 0
  for (stage = 1; stage <= 10; stage++) fixed += nf[stage]
  for (k = 1; k <= ni[C]; k++) if ((IN[C, k] in TOUCHED) || (fixed && ((C, IN[C, k]) in BX))) { line = IN[C, k]; for (h in HOST) { split(h, w, SUBSEP); if (w[1] == C && inside(w[2], 32, IA[C, k], IL[C, k])) line = line " " w[2] } fix(12, "nudge", line) }
  any = 0
  for (stage = 1; stage <= 12; stage++) for (k = 1; k <= nf[stage]; k++) { print F[stage, k]; any = 1 }
  if (any == 0) print "none"
}
""".replace("PLAIN", "|".join(PLAIN_QDISCS)).replace("SHAPER", SHAPER_KIND).replace("MINRATE", str(SHAPER_MIN_RATE)).replace("OVERHEAD", str(FRAME_OVERHEAD))


@dataclass(frozen=True)
class Candidate:
    """One intent the router may match, with the evidence read against it."""

    label: str
    intent: RouterIntent
    evidence: Evidence


def settle(device: str) -> str:
    """Wait (at most 3 s) until ``device`` is operationally up.

    A link set up forwards only once the kernel's link watcher has run (up to
    a second later; until then its qdisc drops everything), and the
    evaluator takes its pingall right after the command returns.
    """
    return (
        f"n=0; until ip -o link show dev {device} | grep -q 'state UP\\|state UNKNOWN' || [ $n -ge 60 ]; "
        "do sleep 0.05; n=$((n+1)); done"
    )


def nudge() -> str:
    """Make the hosts on a repaired interface learn the router's address again, at once.

    A host that asked for its gateway while the router could not answer
    keeps its entry INCOMPLETE for up to three seconds and retries only once
    a second, so pings right after the repair would still be lost. Flushing
    the interface's learned (never its static) neighbours and sending each
    host one datagram (bash's /dev/udp; elsewhere a no-op) makes the router
    ask for every host, and a host that hears that request takes the
    router's address on the spot. The switch's side of a link set up may
    forward only later (its carrier is noticed asynchronously), so the
    datagrams are sent again every 50 ms until the router has heard every
    host answer (its entries REACHABLE), for 2 s at most. Reads ``$cmd`` as
    ``device host...``.
    """
    return (
        'set -- $cmd; d=$1; shift; ip neigh flush dev "$d" 2>/dev/null; n=0; '
        'while :; do for h in "$@"; do ( printf . > "/dev/udp/$h/9" ) 2>/dev/null; done; sleep 0.05; ok=1; '
        'for h in "$@"; do ip neigh show "$h" dev "$d" | grep -q REACHABLE || ok=0; done; '
        '{ [ $ok = 1 ] || [ $n -ge 40 ]; } && break; n=$((n+1)); done'
    )


def intent_data(candidates: Sequence[Candidate]) -> str:
    """The candidates as the awk program's ``I`` variable (records split by ``;``).

    >>> from netmend.route.intent import from_topology
    >>> from netmend.route.topology import Topology
    >>> intent_data([Candidate("2x1", from_topology(Topology("p_", 2, 1)), Evidence())])
    'c 2x1;r p_r0;i p_r0-eth1 192.168.1.1 24 1500;i p_r0-eth2 192.168.2.1 24 1500;h 192.168.1.100;h 192.168.2.100'
    """
    records: list[str] = []
    for cand in candidates:
        intent, ev = cand.intent, cand.evidence
        records += [f"c {cand.label}", f"r {intent.router}"]
        records += [f"i {i.name} {i.address} {i.prefixlen} {i.mtu}" for i in intent.interfaces]
        records += [f"h {h}" for h in intent.hosts]
        records += [f"e {flag}" for flag in ("forwarded", "local") if getattr(ev, flag)]
        records += [f"b {h}" for h in sorted(ev.hosts)]
        records += [f"x {i}" for i in sorted(ev.interfaces)]
    data = ";".join(records)
    if data.count(";") == len(records) - 1 and _DATA.fullmatch(data):  # every word a token: one match, not one per word
        return data
    for record in records:
        for word in record.split(" "):
            if not _TOKEN.match(word):
                raise ValueError(f"intent word {word!r} holds characters the router program cannot carry")
    return data


def one_line(source: str, *, breaks: bool = False) -> str:
    """An awk program on one line: statement ends that were line breaks become ``;``.

    With ``breaks``, each source line stays a line of its own (after its
    ``;``): the same program, in lines short enough for a terminal.

    >>> one_line("BEGIN {\\n  x = 1\\n  y = 2\\n}")
    'BEGIN { x = 1 ; y = 2 ; }'
    >>> one_line("BEGIN {\\n  x = 1\\n  y = 2\\n}", breaks=True)
    'BEGIN {\\nx = 1 ;\\ny = 2 ;\\n}'
    """
    lines = [line.strip() for line in source.strip().splitlines() if line.strip()]
    out = ""
    for line, following in zip(lines, [*lines[1:], ""], strict=True):
        out += line
        if not following:
            continue
        joined = following.startswith("else") and line.endswith("}")
        if not (line.endswith(("{", ";")) or joined):
            out += " ;"
        out += " " if joined or not breaks else "\n"
    return out


# The engine in terminal-sized lines: the same text for every program, so built once.
_ENGINE_LINES = one_line(ENGINE, breaks=True)


def intent_block(data: str, width: int = 512) -> str:
    """An awk ``BEGIN`` rule setting ``I`` to ``data`` in lines of about ``width`` characters.

    The records (split by ``;``) are never cut, so no line ends inside one.

    >>> print(intent_block("c 2x1;r p_r0;h 192.168.1.100", width=10))
    BEGIN { I = ""
    I = I "c 2x1"
    I = I ";r p_r0"
    I = I ";h 192.168.1.100"
    }
    """
    lines = ['BEGIN { I = ""']
    chunk = ""
    for i, record in enumerate(data.split(";")):
        piece = (";" if i else "") + record
        if chunk and len(chunk) + len(piece) > width:
            lines.append(f'I = I "{chunk}"')
            chunk = ""
        chunk += piece
    if chunk:
        lines.append(f'I = I "{chunk}"')
    return "\n".join([*lines, "}"])


def _sections(spec: Sequence[tuple[str, str]], mark: str) -> str:
    return "; ".join(f"echo {mark}{name}; {command}" for name, command in spec)


def router_program(candidates: Sequence[Candidate], *, apply: bool = True) -> str:
    """The command that repairs whichever candidate the router matches.

    With ``apply=False`` it only prints the fixes it would run (a dry run).
    """
    if not candidates:
        raise ValueError("a router program needs at least one candidate intent")
    observe = "{ " + _sections(OBSERVE, "@") + "; } 2>/dev/null"
    program = intent_block(intent_data(candidates)) + "\n" + _ENGINE_LINES
    decide = f"awk {quote(program, lines=True)}"
    run = '$cmd 2>&1' if apply else ':'
    act = (
        "while read -r kind cmd; do case $kind in "
        'match|none|refuse) echo "netmend: $kind $cmd";; '
        f"settle) {settle('$cmd') if apply else ':'};; "
        f"nudge) {nudge() if apply else ':'};; "
        f'*) echo "{FIX_MARK} $kind: $cmd"; {run};; esac; done'
    )
    dump = "{ " + _sections(DUMP, STATE_MARK + " ") + "; } 2>/dev/null"
    return check_command(f"( {observe} | {decide} | {act}; {dump} )")


# A host's decision: its preferred default route must go via its gateway.
HOST_ENGINE = r"""
/^@/ { sec = substr($1, 2); next }
sec == "addr" { split($4, t, "/"); ON[$2, t[1]] = 1; next }
sec == "route" && $1 == "default" {
  metric = 0; via = dev = ""
  for (k = 2; k < NF; k++) { if ($k == "metric") metric = $(k + 1); if ($k == "via") via = $(k + 1); if ($k == "dev") dev = $(k + 1) }
  if (best == "" || metric + 0 < best + 0) { best = metric; BV = via; BD = dev }
  next
}
END {
  n = split(I, rec, ";"); C = 0
  for (q = 1; q <= n; q++) { split(rec[q], f, " "); if (C == 0 && ((f[3], f[4]) in ON)) { C = q; label = f[2]; dev = f[3]; gw = f[5] } }
  if (C == 0) { print "refuse the host holds none of the addresses its topology gives it"; exit }
  print "match " label
  if (best == "" || BV != gw || BD != dev) print "default-route ip route replace default via " gw " dev " dev (best == "" ? "" : " metric " best)
  else print "none"
}
"""


def host_program(host_candidates: Sequence[tuple[str, str, str, str]]) -> str:
    """The one-line program for a host: ``(label, interface, address, gateway)`` per candidate."""
    if not host_candidates:
        raise ValueError("a host program needs at least one candidate")
    data = ";".join(f"c {label} {dev} {address} {gateway}" for label, dev, address, gateway in host_candidates)
    for word in data.replace(";", " ").split():
        if not _TOKEN.match(word):
            raise ValueError(f"host intent word {word!r} holds characters the program cannot carry")
    observe = "{ echo @addr; ip -4 -o addr show; echo @route; ip -4 route show; } 2>/dev/null"
    act = (
        "while read -r kind cmd; do case $kind in "
        'match|none|refuse) echo "netmend: $kind $cmd";; '
        f'*) echo "{FIX_MARK} $kind: $cmd"; $cmd 2>&1;; esac; done'
    )
    line = f"( {observe} | awk -v I={quote(data)} {quote(one_line(HOST_ENGINE))} | {act}; ip -4 route show )"
    return check_command(line)


def fix_program(commands: Sequence[Sequence[str]], nudges: Sequence[Sequence[str]] = ()) -> str:
    """Exact fixes, each announced, then the state dump (for a later turn), one step a line in a group.

    ``nudges``: ``(device, host...)`` per interface whose hosts must learn
    the router again (see :func:`nudge`).
    """
    steps = [f"echo {quote(FIX_MARK + ' ' + ' '.join(c))}; {' '.join(quote(w) for w in c)} 2>&1" for c in commands]
    steps += [settle(quote(c[4])) for c in commands if tuple(c[:4]) == ("ip", "link", "set", "dev") and tuple(c[5:]) == ("up",)]
    steps += [f"cmd={quote(' '.join(line))}; {nudge()}" for line in nudges]
    dump = "{ " + _sections(DUMP, STATE_MARK + " ") + "; } 2>/dev/null"
    return check_command("( " + "\n".join([*steps, dump]) + " )")  # one step a line: no line grows too long
