"""The words the installer writes: instruction blocks, rule files and the OpenCode plugin.

Invariant: every file we own carries ``OWNED_MARK`` so uninstall can tell it
from a user's file of the same name; the instruction text tells the agent to
recall at the start of a task and to remember decisions, nothing else.
"""

from __future__ import annotations

import json

from toon_memory.adapters.installer.spec import Inputs

OWNED_MARK = "toon-memory: written by `toon-memory init`"

MCP_BODY = """\
## Project memory (toon-memory)

This project keeps a persistent memory in the `toon-memory` MCP server.
- At the start of every task, call `memory_smart_recall` with the task's topic
  (or `memory_recall`) before reading files.
- When a decision is made, a bug is understood, a pattern or a warning is found,
  save it with `memory_remember` (category, a short key, the content, the file).
- Pin what every session must see with `memory_pin`; retire outdated entries
  with `memory_forget`.
"""

CLI_BODY = """\
## Project memory (toon-memory)

This project keeps a persistent memory; use it through the shell.
- At the start of a task, run `toon-memory recall "<topic>"` and read the result.
- When a decision is made, a bug is understood or a pattern is found, run
  `toon-memory remember -c decision -k <short-key> -m "<what and why>"`
  (categories: decision, pattern, bug, knowledge, warning).
"""


def body(kind: str) -> str:
    return CLI_BODY if kind == "cli" else MCP_BODY


def _note(comment: str = "<!-- {} -->") -> str:
    return comment.format(OWNED_MARK + "; `toon-memory uninstall` removes this file")


def cursor_rule(inputs: Inputs) -> str:
    """``.cursor/rules/toon-memory.mdc``: always applied."""
    head = "---\ndescription: Project memory (toon-memory)\nalwaysApply: true\n---\n"
    return head + _note() + "\n\n" + MCP_BODY


def kiro_steering(inputs: Inputs) -> str:
    """``.kiro/steering/toon-memory.md``: always included."""
    return "---\ninclusion: always\n---\n" + _note() + "\n\n" + MCP_BODY


def continue_rule(inputs: Inputs) -> str:
    """``.continue/rules/toon-memory.md``: always applied."""
    head = "---\nname: Project memory (toon-memory)\nalwaysApply: true\n---\n"
    return head + _note() + "\n\n" + MCP_BODY


def plain_rule(inputs: Inputs) -> str:
    """A Markdown rule file with no front matter (Antigravity, Cline, Grok)."""
    return _note() + "\n\n" + MCP_BODY


def continue_block(inputs: Inputs) -> str:
    """``.continue/mcpServers/toon-memory.yaml``: a Continue block file with one stdio server."""
    args = ", ".join(json.dumps(a) for a in inputs.argv[1:])
    return (
        f"# {OWNED_MARK}; `toon-memory uninstall` removes this file\n"
        "name: toon-memory\nversion: 0.1.0\nschema: v1\nmcpServers:\n"
        f"  - name: toon-memory\n    type: stdio\n    command: {json.dumps(inputs.argv[0])}\n"
        f"    args: [{args}]\n"
    )


def opencode_plugin(inputs: Inputs) -> str:
    """``.opencode/plugins/toon-memory.ts``: runs our hooks from OpenCode's plugin events.

    OpenCode has no shell hooks and rejects a ``hooks`` key in its config, so
    the session start, tool use and idle events reach ``toon-memory hook``
    through this plugin, with a Claude-style JSON payload on stdin.
    """
    program = json.dumps(inputs.command.argv())
    extra = json.dumps(list(inputs.hook_args))
    return f"""// {OWNED_MARK}; `toon-memory uninstall` removes this file.
const PROGRAM: string[] = {program}
const EXTRA: string[] = {extra}

export const ToonMemory = async ({{ $, directory }}: any) => {{
  const run = async (action: string, payload: Record<string, unknown>) => {{
    try {{
      const input = new Response(JSON.stringify({{ cwd: directory, ...payload }}))
      await $`${{PROGRAM}} hook ${{action}} --agent opencode ${{EXTRA}} < ${{input}}`.quiet().nothrow()
    }} catch {{}}
  }}
  return {{
    event: async ({{ event }}: any) => {{
      const id = event?.properties?.info?.id ?? event?.properties?.sessionID
      if (event?.type === "session.created") await run("session-start", {{ session_id: id, hook_event_name: "SessionStart" }})
      if (event?.type === "session.idle") await run("stop", {{ session_id: id, hook_event_name: "Stop" }})
    }},
    "tool.execute.after": async (input: any, output: any) => {{
      await run("post-tool", {{
        session_id: input?.sessionID, hook_event_name: "PostToolUse",
        tool_name: input?.tool, tool_input: input?.args ?? output?.metadata ?? {{}},
      }})
    }},
  }}
}}
"""
