"""Rendering check and diff results: text, JSON, JUnit XML and SARIF 2.1.0.

Every renderer is a pure function of its data: the same results give the
same bytes (no clocks, no host names, keys in a fixed order), so CI can keep
golden copies and a pipeline can diff two runs.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field

from netmend.k8s.check import AssertionResult, Suggestion
from netmend.k8s.intent_code import Assertion, IntentContradiction
from netmend.k8s.model import ADMIN_KINDS
from netmend.k8s.policydiff import DiffRow, PolicySetDiff
from netmend.k8s.portset import PortSet

FORMATS = ("text", "json", "junit", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
TOOL_NAME = "netmend"


@dataclass(frozen=True)
class CheckReport:
    """Everything a check prints: where the intent came from, the results, the repairs."""

    intent: str
    dns: bool
    results: tuple[AssertionResult, ...]
    suggestions: Mapping[str, Suggestion] = field(default_factory=dict)
    # For SARIF: URIs of the intent file and of each policy's file (by namespace/name).
    intent_uri: str = ""
    policy_uris: Mapping[str, str] = field(default_factory=dict)

    @property
    def failed(self) -> tuple[AssertionResult, ...]:
        return tuple(r for r in self.results if not r.holds)




def _summary(r: AssertionResult) -> str:
    a = r.assertion
    if r.holds:
        return f"{a.describe()} ({r.checked} connection{'s' if r.checked != 1 else ''})"
    verb = "denied" if a.allow else "allowed"
    return f"{a.describe()}: {r.failing} of {r.checked} connection{'s' if r.checked != 1 else ''} {verb}"


def _suggestion_lines(s: Suggestion | None) -> list[str]:
    if s is None:
        return []
    if not s.edits:
        return [f"no repair suggested: {s.reason}"] if s.reason else []
    lines = [f"suggested repair ({len(s.edits)} edit{'s' if len(s.edits) != 1 else ''}):"]
    lines += [f"  - {e}" for e in s.edits]
    if s.reason:
        lines.append(f"  note: {s.reason}")
    if s.breaks:
        lines.append(f"  warning: it would make {', '.join(s.breaks)} fail (the intent contradicts itself there)")
    lines += [f"  {line}" for line in s.diff.splitlines()]
    return lines


def _why_lines(w) -> list[str]:
    """The decision chain when there is one (the explanation line alone otherwise)."""
    if not w.chain:
        return [f"why: {w.explanation}"]
    return [f"why: {w.explanation}", "chain:", *(f"  {line}" for line in w.chain)]


def check_text(report: CheckReport) -> str:
    """One line per assertion, then the witnesses and repair of each failure, then a summary."""
    lines = []
    for r in report.results:
        a = r.assertion
        lines.append(f"{'PASS' if r.holds else 'FAIL'} {a.name}: {_summary(r)}")
        for w in r.witnesses:
            lines.append(f"  {w.source} -> {w.target} on {w.ports}")
            lines += [f"    {line}" for line in _why_lines(w)]
            if w.policies:
                lines.append(f"    decided by: {', '.join(w.policies)}")
        if r.failing > len(r.witnesses):
            lines.append(f"  ... {r.failing - len(r.witnesses)} more failing connection(s)")
        lines += [f"  {line}" for line in _suggestion_lines(report.suggestions.get(a.name))]
    passed = sum(r.holds for r in report.results)
    lines.append(f"{len(report.results)} assertions: {passed} passed, {len(report.results) - passed} failed")
    return "\n".join(lines) + "\n"


def _suggestion_dict(s: Suggestion | None) -> dict | None:
    if s is None:
        return None
    return {"edits": list(s.edits), "diff": s.diff, "commands": list(s.commands), "reason": s.reason,
            "breaks": list(s.breaks)}


def check_json(report: CheckReport) -> str:
    """The whole report as JSON (fixed key order, two-space indent)."""
    doc = {
        "intent": report.intent,
        "dns": "require" if report.dns else "ignore",
        "summary": {
            "assertions": len(report.results),
            "passed": sum(r.holds for r in report.results),
            "failed": len(report.failed),
        },
        "assertions": [
            {
                "name": r.assertion.name,
                "expect": r.assertion.expect,
                "line": r.assertion.line or None,
                "description": r.assertion.describe(),
                "holds": r.holds,
                "checked": r.checked,
                "failing": r.failing,
                "witnesses": [
                    {"source": w.source, "target": w.target, "ports": w.ports,
                     "explanation": w.explanation, "policies": list(w.policies), "chain": list(w.chain)}
                    for w in r.witnesses
                ],
                "probes": [{"source": s, "target": t, "wanted": v} for s, t, v in r.probes],
                "unprobed": r.unprobed,
                "repair": _suggestion_dict(report.suggestions.get(r.assertion.name)),
            }
            for r in report.results
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _failure_text(r: AssertionResult, s: Suggestion | None) -> str:
    lines = []
    for w in r.witnesses:
        lines.append(f"{w.source} -> {w.target} on {w.ports}")
        lines += [f"  {line}" for line in _why_lines(w)]
        if w.policies:
            lines.append(f"  decided by: {', '.join(w.policies)}")
    if r.failing > len(r.witnesses):
        lines.append(f"... {r.failing - len(r.witnesses)} more failing connection(s)")
    lines += _suggestion_lines(s)
    return "\n".join(lines)


def _xml(root: ET.Element) -> str:
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def check_junit(report: CheckReport) -> str:
    """JUnit XML: one test case per assertion, a ``failure`` with the why and the repair."""
    total, failed = len(report.results), len(report.failed)
    counts = {"tests": str(total), "failures": str(failed), "errors": "0", "skipped": "0"}
    root = ET.Element("testsuites", {"name": "netmend k8s check", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": report.intent, **counts})
    for r in report.results:
        attrs = {"classname": f"netmend.k8s.check.{r.assertion.expect}", "name": r.assertion.name,
                 "file": report.intent}
        if r.assertion.line:
            attrs["line"] = str(r.assertion.line)
        case = ET.SubElement(suite, "testcase", attrs)
        if not r.holds:
            failure = ET.SubElement(case, "failure", {"message": _summary(r), "type": f"{r.assertion.expect}-violated"})
            failure.text = _failure_text(r, report.suggestions.get(r.assertion.name))
    return _xml(root)


SARIF_RULES = (
    ("intent-allow", "AllowAssertionViolated", "A connection the intent allows is denied by the policies."),
    ("intent-deny", "DenyAssertionViolated", "A connection the intent denies is allowed by the policies."),
)


def check_sarif(report: CheckReport) -> str:
    """SARIF 2.1.0: a result per failing assertion at its line of the intent file,
    with the deciding policies' files as related locations and the repair in its properties."""
    rules = [
        {"id": rid, "name": name, "shortDescription": {"text": text},
         "defaultConfiguration": {"level": "error"}}
        for rid, name, text in SARIF_RULES
    ]
    results = []
    for r in report.failed:
        a = r.assertion
        index = 0 if a.allow else 1
        region = {"startLine": a.line} if a.line else None
        location: dict = {"physicalLocation": {"artifactLocation": {"uri": report.intent_uri or report.intent}}}
        if region:
            location["physicalLocation"]["region"] = region
        related = []
        policies = sorted({p for w in r.witnesses for p in w.policies})
        for number, key in enumerate(policies):
            kind = key.partition("/")[0]
            what = kind if kind in ADMIN_KINDS else "NetworkPolicy"
            name = key.partition("/")[2] if kind in ADMIN_KINDS else key
            entry: dict = {"id": number, "message": {"text": f"{what} {name} decides this connection"}}
            if key in report.policy_uris:
                entry["physicalLocation"] = {"artifactLocation": {"uri": report.policy_uris[key]}}
            related.append(entry)
        suggestion = report.suggestions.get(a.name)
        message = f"Assertion '{a.name}' fails: {_summary(r)}."
        if r.witnesses:
            w = r.witnesses[0]
            message += f" {w.source} -> {w.target} on {w.ports}: {w.explanation}."
        result: dict = {
            "ruleId": SARIF_RULES[index][0],
            "ruleIndex": index,
            "level": "error",
            "message": {"text": message},
            "locations": [location],
            "partialFingerprints": {"netmendAssertion/v1": f"{a.expect}:{a.name}"},
            "properties": {
                "checked": r.checked,
                "failing": r.failing,
                "failingConnections": [
                    {"source": w.source, "target": w.target, "ports": w.ports, "explanation": w.explanation,
                     "chain": list(w.chain)}
                    for w in r.witnesses
                ],
                "repair": _suggestion_dict(suggestion),
            },
        }
        if related:
            result["relatedLocations"] = related
        results.append(result)
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {"name": TOOL_NAME, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


CHECK_RENDERERS = {"text": check_text, "json": check_json, "junit": check_junit, "sarif": check_sarif}


def render_check(report: CheckReport, fmt: str) -> str:
    """``report`` in one of :data:`FORMATS`."""
    return CHECK_RENDERERS[fmt](report)


# -- an intent that contradicts itself: bad input, no assertion checked ----------

CONTRADICTION_RULE = ("intent-contradiction", "IntentContradiction",
                      "Assertions of the intent contradict each other: no policy set satisfies them all.")
CONTRADICTION_EXIT = 2


def _headline(c: IntentContradiction) -> str:
    return f"assertions contradict each other: {c.first.expect} and {c.second.expect} of {c.where}"


def _assertion_line(a: Assertion) -> str:
    line = f" (line {a.line})" if a.line else ""
    return f"{a.expect} {a.name}{line}: {a.describe()}"


def contradiction_text(c: IntentContradiction, intent: str, uri: str = "") -> str:
    """The contradiction, then each assertion it involves with its line."""
    lines = [f"ERROR {intent}: {_headline(c)}", *(f"  {_assertion_line(a)}" for a in c.assertions),
             f"no assertion checked: the intent is bad input (exit {CONTRADICTION_EXIT})"]
    return "\n".join(lines) + "\n"


def _assertion_dict(a: Assertion) -> dict:
    return {"name": a.name, "expect": a.expect, "line": a.line or None, "description": a.describe()}


def contradiction_json(c: IntentContradiction, intent: str, uri: str = "") -> str:
    """``{"intent", "error": {type, message, where, assertions}}`` (fixed key order)."""
    doc = {
        "intent": intent,
        "exit_code": CONTRADICTION_EXIT,
        "error": {
            "type": type(c).__name__,
            "message": str(c),
            "where": c.where,
            "assertions": [_assertion_dict(a) for a in c.assertions],
        },
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def contradiction_junit(c: IntentContradiction, intent: str, uri: str = "") -> str:
    """JUnit XML: one test case for the intent itself, in ``error`` (not a policy failure)."""
    counts = {"tests": "1", "failures": "0", "errors": "1", "skipped": "0"}
    root = ET.Element("testsuites", {"name": "netmend k8s check", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": intent, **counts})
    attrs = {"classname": "netmend.k8s.check.intent", "name": "the intent is consistent", "file": intent}
    if c.first.line:
        attrs["line"] = str(c.first.line)
    case = ET.SubElement(suite, "testcase", attrs)
    error = ET.SubElement(case, "error", {"message": _headline(c), "type": type(c).__name__})
    error.text = "\n".join(_assertion_line(a) for a in c.assertions)
    return _xml(root)


def contradiction_sarif(c: IntentContradiction, intent: str, uri: str = "") -> str:
    """SARIF 2.1.0: one error at the allow assertion's line, the others as related locations
    in the intent file, and an invocation that did not succeed (exit code 2)."""

    def physical(a: Assertion) -> dict:
        loc: dict = {"artifactLocation": {"uri": uri or intent}}
        if a.line:
            loc["region"] = {"startLine": a.line}
        return loc

    rid, name, text = CONTRADICTION_RULE
    result = {
        "ruleId": rid,
        "ruleIndex": 0,
        "level": "error",
        "message": {"text": f"The intent contradicts itself: {c.first.expect} and {c.second.expect} of {c.where}."},
        "locations": [{"physicalLocation": physical(c.first)}],
        "relatedLocations": [
            {"id": number, "message": {"text": f"assertion '{a.name}': {a.describe()}"}, "physicalLocation": physical(a)}
            for number, a in enumerate(c.assertions[1:])
        ],
        "partialFingerprints": {"netmendContradiction/v1": ":".join(f"{a.expect}:{a.name}" for a in c.assertions)},
        "properties": {"where": c.where, "assertions": [_assertion_dict(a) for a in c.assertions]},
    }
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {"name": TOOL_NAME, "rules": [
                {"id": rid, "name": name, "shortDescription": {"text": text},
                 "defaultConfiguration": {"level": "error"}}]}},
            "invocations": [{"executionSuccessful": False, "exitCode": CONTRADICTION_EXIT}],
            "columnKind": "unicodeCodePoints",
            "results": [result],
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


CONTRADICTION_RENDERERS = {"text": contradiction_text, "json": contradiction_json, "junit": contradiction_junit,
                           "sarif": contradiction_sarif}


def render_contradiction(c: IntentContradiction, intent: str, uri: str, fmt: str) -> str:
    """A self-contradictory intent in one of :data:`FORMATS` (``uri``: the intent file's, for SARIF)."""
    return CONTRADICTION_RENDERERS[fmt](c, intent, uri)


@dataclass(frozen=True)
class DiffReport:
    """A policy-set diff with its inputs and the ``--fail-on`` it is judged by."""

    old: str
    new: str
    diff: PolicySetDiff
    fail_on: str | None = None
    policy_uris: Mapping[str, str] = field(default_factory=dict)  # namespace/name -> new file
    new_uri: str = ""

    def failing(self, row: DiffRow) -> bool:
        """Whether ``row`` is one ``--fail-on`` fails on."""
        return (self.fail_on in ("widen", "any") and bool(row.gained)) or (
            self.fail_on in ("narrow", "any") and bool(row.lost)
        )


def _policy_line(d: PolicySetDiff) -> str:
    def part(label: str, keys: tuple[str, ...]) -> str:
        return f"{len(keys)} {label}" + (f" ({', '.join(keys)})" if keys else "")

    return "Policies: " + ", ".join((part("added", d.added), part("removed", d.removed), part("changed", d.changed)))


def _diff_verdict(report: DiffReport) -> str:
    d = report.diff
    gained = sum(bool(r.gained) for r in d.rows)
    lost = sum(bool(r.lost) for r in d.rows)
    text = f"{len(d.rows)} connection change{'s' if len(d.rows) != 1 else ''}: {gained} widened, {lost} narrowed"
    if report.fail_on:
        text += f"; --fail-on {report.fail_on}: {'FAIL' if d.fails(report.fail_on) else 'pass'}"
    return text


def diff_text(report: DiffReport) -> str:
    """The policy line, one ``+``/``-`` line per gained/lost connection, and the verdict."""
    lines = [_policy_line(report.diff)]
    for r in report.diff.rows:
        if r.gained:
            lines.append(f"+ {r.source} -> {r.target}: {r.gained}")
        if r.lost:
            lines.append(f"- {r.source} -> {r.target}: {r.lost}")
        lines.append(f"    why: {r.why}" + (f" [{', '.join(r.policies)}]" if r.policies else ""))
    lines.append(_diff_verdict(report))
    return "\n".join(lines) + "\n"


def _ranges(ports: PortSet) -> list[dict]:
    return [{"protocol": r.protocol, "start": r.start, "end": r.end} for r in ports.ranges()]


def diff_json(report: DiffReport) -> str:
    """The diff as JSON (fixed key order)."""
    d = report.diff
    doc = {
        "old": report.old,
        "new": report.new,
        "fail_on": report.fail_on,
        "fails": d.fails(report.fail_on),
        "summary": {"changes": len(d.rows), "widened": d.widened, "narrowed": d.narrowed},
        "policies": {"added": list(d.added), "removed": list(d.removed), "changed": list(d.changed)},
        "changes": [
            {"source": r.source, "target": r.target, "gained": str(r.gained) if r.gained else None,
             "lost": str(r.lost) if r.lost else None, "gained_ranges": _ranges(r.gained),
             "lost_ranges": _ranges(r.lost), "why": r.why, "policies": list(r.policies)}
            for r in d.rows
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _row_title(r: DiffRow) -> str:
    parts = []
    if r.gained:
        parts.append(f"gains {r.gained}")
    if r.lost:
        parts.append(f"loses {r.lost}")
    return f"{r.source} -> {r.target} " + " and ".join(parts)


def diff_junit(report: DiffReport) -> str:
    """JUnit XML: a test case per changed connection (failed when ``--fail-on`` says so),
    or one passing case when nothing changed."""
    rows = report.diff.rows
    failed = sum(report.failing(r) for r in rows)
    counts = {"tests": str(max(len(rows), 1)), "failures": str(failed), "errors": "0", "skipped": "0"}
    root = ET.Element("testsuites", {"name": "netmend k8s diff", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": f"{report.old} -> {report.new}", **counts})
    if not rows:
        ET.SubElement(suite, "testcase", {"classname": "netmend.k8s.diff", "name": "no connectivity change"})
    for r in rows:
        kind = "widen" if r.gained and not r.lost else ("narrow" if r.lost and not r.gained else "widen+narrow")
        case = ET.SubElement(suite, "testcase", {"classname": f"netmend.k8s.diff.{kind}", "name": f"{r.source} -> {r.target}"})
        if report.failing(r):
            failure = ET.SubElement(case, "failure", {"message": _row_title(r), "type": kind})
            failure.text = f"why: {r.why}" + (f"\ndecided by: {', '.join(r.policies)}" if r.policies else "")
    return _xml(root)


DIFF_RULES = (
    ("connectivity-widened", "ConnectivityWidened", "The new policies allow a connection the old ones denied."),
    ("connectivity-narrowed", "ConnectivityNarrowed", "The new policies deny a connection the old ones allowed."),
)


def diff_sarif(report: DiffReport) -> str:
    """SARIF 2.1.0: a result per gained or lost connection, ``error`` when ``--fail-on``
    fails on it, else ``note``; located at the file of a deciding policy of the new set."""
    rules = [
        {"id": rid, "name": name, "shortDescription": {"text": text}, "defaultConfiguration": {"level": "warning"}}
        for rid, name, text in DIFF_RULES
    ]
    results = []
    for r in report.diff.rows:
        for index, ports in ((0, r.gained), (1, r.lost)):
            if not ports:
                continue
            failing = report.fail_on in (("widen", "any") if index == 0 else ("narrow", "any"))
            uris = [report.policy_uris[p] for p in r.policies if p in report.policy_uris]
            uri = uris[0] if uris else (report.new_uri or report.new)
            verb = "gains" if index == 0 else "loses"
            results.append({
                "ruleId": DIFF_RULES[index][0],
                "ruleIndex": index,
                "level": "error" if failing else "note",
                "message": {"text": f"{r.source} -> {r.target} {verb} {ports}. Why: {r.why}."},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}}}],
                "partialFingerprints": {"netmendConnection/v1": f"{DIFF_RULES[index][0]}:{r.source}->{r.target}"},
                "properties": {"source": r.source, "target": r.target, "ports": _ranges(ports),
                               "policies": list(r.policies)},
            })
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{"tool": {"driver": {"name": TOOL_NAME, "rules": rules}}, "columnKind": "unicodeCodePoints",
                  "results": results}],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


DIFF_RENDERERS = {"text": diff_text, "json": diff_json, "junit": diff_junit, "sarif": diff_sarif}


def render_diff(report: DiffReport, fmt: str) -> str:
    """``report`` in one of :data:`FORMATS`."""
    return DIFF_RENDERERS[fmt](report)
