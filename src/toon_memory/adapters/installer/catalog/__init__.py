"""The 23 supported agents, in the order the installer lists them.

Invariant: one module per agent, each defining ``AGENT``; ids and aliases
are unique across the catalog (a test pins it). Adding an agent = one
module here, its line in ``_MODULES`` and its test.
"""

from __future__ import annotations

from importlib import import_module

from toon_memory.adapters.installer.spec import Agent
from toon_memory.errors import InputError, quote

_MODULES = (
    "opencode", "vscode", "claude", "cursor", "windsurf", "cline", "continue_dev", "codex",
    "gemini", "zed", "antigravity", "aider", "kilo", "openclaw", "kiro", "qwen", "kimi",
    "goose", "junie", "amp", "grok", "trae", "copilot_cli",
)  # fmt: skip

AGENTS: tuple[Agent, ...] = tuple(import_module(f"{__name__}.{m}").AGENT for m in _MODULES)


def _key(name: str) -> str:
    return name.strip().lower().replace(" ", "-").replace("_", "-")


def find_agent(name: str) -> Agent:
    """The agent with this id, alias or title (case and spaces ignored)."""
    wanted = _key(name)
    for agent in AGENTS:
        if wanted in (agent.id, _key(agent.title), *agent.aliases):
            return agent
    for agent in AGENTS:
        if agent.id.startswith(wanted) and len(wanted) >= 3:
            return agent
    known = ", ".join(agent.id for agent in AGENTS)
    raise InputError("agents", f"unknown agent {quote(name.strip())} (known: {known})")


def select(spec: str) -> list[Agent]:
    """Agents named in a comma list (ids, aliases, titles) or ``all``."""
    names = [part for part in spec.replace(";", ",").split(",") if part.strip()]
    if not names:
        raise InputError("agents", "name at least one agent, or all")
    if any(_key(n) == "all" for n in names):
        return list(AGENTS)
    chosen: list[Agent] = []
    for name in names:
        agent = find_agent(name)
        if agent not in chosen:
            chosen.append(agent)
    return chosen
