"""OpenAI Codex CLI: ``[mcp_servers.toon-memory]`` in config.toml; hooks in hooks.json.

Sources: developers.openai.com/codex/mcp, /config-reference, /hooks;
openai/codex docs/agents_md.md (agents.md, verified). The TypeScript
original wrote ``mcpServers`` into this TOML file; Codex's key is
``mcp_servers`` and the docs win. Hooks go to ``.codex/hooks.json`` (Claude
shape, only the ``hooks`` top-level key: its parser rejects unknown keys)
rather than ``[[hooks]]`` tables. ``$CODEX_HOME`` replaces ``~/.codex``.
Codex records hook trust as ``[hooks.state."<hooks.json>:<event>:<group>:<n>"]``
in the user config.toml; uninstall drops the tables of our hooks (``trust.py``).
"""

from toon_memory.adapters.installer.places import Place, home, project
from toon_memory.adapters.installer.shapes import (
    codex_http,
    command_handler,
    grouped_hooks,
    mcp_entry,
    stdio,
)
from toon_memory.adapters.installer.spec import Agent, Block, Setup
from toon_memory.adapters.installer.trust import forget_codex_hooks

EVENTS = (("SessionStart", "session-start"), ("PostToolUse", "post-tool"), ("Stop", "stop"))


def _user(rel: str) -> Place:
    return home(".codex/" + rel, env="CODEX_HOME", env_part=".codex")


HOOK_TRUST = ("Codex runs hooks only once you trust them: open /hooks in Codex and trust the "
              "three toon-memory hooks (until then `codex exec` skips them silently).")  # fmt: skip

AGENT = Agent(
    id="codex",
    title="Codex CLI",
    aliases=("openai-codex", "codex-cli"),
    detect=(project(".codex"), home(".codex")),
    binaries=("codex",),
    forget=forget_codex_hooks,
    project=Setup(
        (
            mcp_entry(
                (project(".codex/config.toml"),), "toml", ("mcp_servers",), stdio, remote=codex_http
            ),
            grouped_hooks((project(".codex/hooks.json"),), "json", EVENTS, command_handler(10)),
            Block((project("AGENTS.md"),)),
        ),
        notes=(
            "Codex loads .codex/config.toml only in a trusted project "
            '(projects."<path>".trust_level = "trusted" in ~/.codex/config.toml).',
            HOOK_TRUST,
        ),
    ),
    user=Setup(
        (
            mcp_entry((_user("config.toml"),), "toml", ("mcp_servers",), stdio, remote=codex_http),
            grouped_hooks((_user("hooks.json"),), "json", EVENTS, command_handler(10)),
            Block((_user("AGENTS.md"),)),
        ),
        notes=(HOOK_TRUST,),
    ),
)
