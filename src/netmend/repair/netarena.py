"""The NetArena K8s conversation: prompt, log, command extraction and vetting.

Both sides of the loop use this module: the participant parses prompts and
logs, the assessment builds them. The preamble is our own wording; the
markers (the status sentence, ``<NO PREVIOUS OUTPUT>``, the three fenced log
fields, the disallowed-command texts) are the ones NetArena's harness sends,
so a participant recognises the real prompt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NO_PREVIOUS_OUTPUT = "<NO PREVIOUS OUTPUT>"
STATUS_MARKER = "Here is the current connectivity status from previous commands:"
PROMPT_SUFFIX = f"You may begin! {STATUS_MARKER}\n"
# The harness shows only the tail of its log file.
LOG_WINDOW = 127_000
MAX_ITERATIONS = 10
BANNED_SUBSTRINGS: tuple[str, ...] = (
    "kubectl exec",
    "kubectl edit",
    "kubectl delete",
    "kubectl create",
    "kubectl apply",
    "bash",
    "<namespace>",
    "sudo",
)
DISALLOWED_OUTPUT = "Disallowed command detected."
DISALLOWED_SUMMARY = "Skipped due to disallowed command."
TIMEOUT_OUTPUT = "Command timed out"
NO_MISMATCHES = "No mismatches found."
# Seconds: the harness's command timeout and settling pause.
COMMAND_TIMEOUT = 10.0
SETTLE_SECONDS = 4.0

PREAMBLE_OPENING = """
Act as a network engineer who diagnoses and repairs Kubernetes NetworkPolicy problems in a microservices application.
"""
# Online Boutique in words; another application brings its own description.
ONLINE_BOUTIQUE_DESCRIPTION = """The application (Online Boutique) should allow exactly these communications:
- **User** and **loadgenerator** reach the **frontend** service over HTTP.
- **frontend** calls **checkout**, **ad**, **recommendation**, **productcatalog**, **cart**, **shipping** and **currency**.
- **checkout** calls **cart**, **productcatalog**, **payment**, **shipping**, **email** and **currency**.
- **recommendation** calls **productcatalog**.
- **cart** stores its data in the **Redis cache** (redis-cart).
"""
PREAMBLE_RULES = """Inspect the deployed network policies, compare them with this intent, and repair any mismatch.

How the interaction works:
- Send **one command per turn**.
- Each turn you receive every earlier command with its output.
- You also receive the current connectivity status: every probe whose result differs from the intent.
- Use this feedback to find and repair the misconfiguration step by step.

**Response format:**
Put the command **directly** between triple backticks.
Use `kubectl patch`, never `kubectl edit networkpolicy`.
With `kubectl patch`, pass `--type=json` so existing rules are not overwritten; do not rely on implicit merge defaults.
Do not include bash in the command, and do not write <namespace>: use the namespace of the service.

Important notes:
- Pod logs and Kubernetes events are not available to you.
- 'kubectl exec' is not allowed.
- Do not change correct network policies unless it is necessary; keep every connection that is already correct.
"""


def preamble(description: str) -> str:
    """The fixed preamble around an application's description (NetArena's layout)."""
    return PREAMBLE_OPENING + description.strip("\n") + "\n\n" + PREAMBLE_RULES


PREAMBLE = preamble(ONLINE_BOUTIQUE_DESCRIPTION)

_ENTRY = re.compile(
    r"LLM Command: ```(?P<command>.*?)```\n"
    r"Output: ```(?P<output>.*?)```\n"
    r"Mismatch Summary: ```(?P<summary>.*?)```\n",
    re.DOTALL,
)
_FENCE = re.compile(r"```(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class LogEntry:
    """One iteration of the harness log: the command, its output, the probes."""

    command: str
    output: str
    summary: str

    @property
    def mismatch_count(self) -> int:
        """How the harness counts mismatches: occurrences of ``Mismatch``."""
        return mismatch_count(self.summary)

    @property
    def was_refused(self) -> bool:
        """True when the harness refused to run the command."""
        return self.summary == DISALLOWED_SUMMARY


def mismatch_count(summary: str) -> int:
    """Count mismatches the way the harness does (substring occurrences)."""
    return summary.count("Mismatch")


def render_entry(entry: LogEntry) -> str:
    """One log entry exactly as the harness appends it to its log file."""
    return (
        f"LLM Command: ```{entry.command}```\n"
        f"Output: ```{entry.output}```\n"
        f"Mismatch Summary: ```{entry.summary}```\n"
        "\n"
    )


def render_log(entries: tuple[LogEntry, ...] | list[LogEntry]) -> str:
    """The whole log file for ``entries``."""
    return "".join(render_entry(e) for e in entries)


def build_prompt(log_text: str, preamble: str = PREAMBLE) -> str:
    """The prompt the harness sends for a log (only its last LOG_WINDOW characters).

    Examples
    --------
    >>> build_prompt("").endswith(STATUS_MARKER + "\\n" + NO_PREVIOUS_OUTPUT)
    True
    """
    shown = log_text[-LOG_WINDOW:] if log_text else ""
    return preamble + PROMPT_SUFFIX + (shown or NO_PREVIOUS_OUTPUT)


def task_text(prompt: str) -> str:
    """The part of a prompt before the last status marker: the task's description and rules."""
    at = prompt.rfind(STATUS_MARKER)
    return prompt if at < 0 else prompt[:at]


def log_of_prompt(prompt: str) -> str | None:
    """The log part of a prompt: ``""`` for the first turn, ``None`` if no marker.

    The marker is searched from the end: few-shot variants of the prompt put
    example mismatch lines before it, which are not feedback.
    """
    at = prompt.rfind(STATUS_MARKER)
    if at < 0:
        return None
    text = prompt[at + len(STATUS_MARKER) :]
    text = text[1:] if text.startswith("\n") else text
    return "" if text.strip() == NO_PREVIOUS_OUTPUT else text


def parse_log(log_text: str) -> tuple[LogEntry, ...]:
    """The complete entries of a (possibly front-truncated) log, oldest first."""
    return tuple(
        LogEntry(m.group("command"), m.group("output"), m.group("summary"))
        for m in _ENTRY.finditer(log_text)
    )


def extract_command(reply: str) -> str:
    """The harness's command: the first triple-backtick span, stripped, or ``""``.

    Examples
    --------
    >>> extract_command("run ```kubectl get pods``` now")
    'kubectl get pods'
    >>> extract_command("```bash\\nls\\n```")
    'bash\\nls'
    """
    match = _FENCE.search(reply)
    return match.group(1).strip() if match else ""


def banned_in(command: str) -> tuple[str, ...]:
    """The disallowed substrings ``command`` contains (empty when it may run)."""
    return tuple(word for word in BANNED_SUBSTRINGS if word in command)


def is_netarena_k8s_prompt(text: str) -> bool:
    """Whether ``text`` is a NetArena K8s turn (ours or the original harness's)."""
    if STATUS_MARKER not in text:
        return False
    lowered = text.lower()
    return "network polic" in lowered or "networkpolic" in lowered or "kubectl" in lowered
