"""The adapters over ``Memory``: the CLI, the MCP server, the viewer, the installer for
agents, the simple-local-memory commands and the demo.

Invariant: an adapter command or tool is one ``Memory`` call plus one renderer from
``render``; no product rule lives here. Only ``adapters.cli`` imports click and only
``adapters.server`` imports mcp.
"""
