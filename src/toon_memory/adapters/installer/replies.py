"""What a hook prints back to its agent, and which agent is running it.

Invariant: pure but for reading the environment mapping it is given. A reply
is one JSON line in the shape the agent reads (agents.md, hook stdin/stdout
matrix), or ``""`` for agents whose hook stdout never reaches the model (so a
strict JSON reader such as Gemini's never sees stray text). The default,
``hookSpecificOutput.additionalContext``, is what Claude Code, Codex, Gemini,
Qwen, VS Code and Junie read; Cursor reads ``additional_context``, Cline
``contextModification``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: Hook environment variables that name the agent, most specific first (Gemini,
#: Qwen, Cursor and Grok also set ``CLAUDE_PROJECT_DIR`` for Claude-style hooks).
ENV_MARKERS: tuple[tuple[str, str], ...] = (
    ("GROK_HOOK_EVENT", "grok"),
    ("CURSOR_VERSION", "cursor"),
    ("GEMINI_PROJECT_DIR", "gemini"),
    ("QWEN_PROJECT_DIR", "qwen"),
    ("CLAUDE_PROJECT_DIR", "claude"),
)
#: Agents whose SessionStart stdout is ignored or has no documented channel.
SILENT: frozenset[str] = frozenset({"goose", "grok", "windsurf", "kimi"})
_FLAT = {"cursor": "additional_context", "cline": "contextModification"}


def agent_from_env(environ: Mapping[str, str]) -> str:
    """The agent a hook runs under, from the variables it sets; ``""`` when unknown."""
    return next((agent for name, agent in ENV_MARKERS if environ.get(name)), "")


def agent_from_payload(payload: Mapping[str, Any]) -> str:
    """The agent a payload's own fields give away (Codex: ``turn_id``); ``""`` when unknown."""
    return "codex" if isinstance(payload.get("turn_id"), str) else ""


def context_reply(agent: str, event_name: str, text: str) -> str:
    """The stdout line that adds ``text`` to the agent's context (``""``: print nothing)."""
    name = agent.strip().lower()
    if not text or name in SILENT:
        return ""
    if name in _FLAT:
        return json.dumps({_FLAT[name]: text}, ensure_ascii=False)
    output = {"hookEventName": event_name or "SessionStart", "additionalContext": text}
    return json.dumps({"hookSpecificOutput": output}, ensure_ascii=False)
