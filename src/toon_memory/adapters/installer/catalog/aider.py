"""Aider: no MCP client; an instruction block in CONVENTIONS.md, loaded via ``read:``.

Sources: aider.chat/docs/config/aider_conf.html, /docs/usage/conventions.html;
Aider-AI/aider #2525, #3314, #4506 (MCP still a feature request). Aider reads
CONVENTIONS.md only when ``.aider.conf.yml`` lists it under ``read:``, so we
add it there (a scalar ``read:`` becomes a list and comes back a scalar on
uninstall). The block tells Aider to use the ``toon-memory`` CLI. Project
scope only: the user-wide ``~/.aider.conf.yml`` would load a file of one project.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.spec import Agent, Block, ListEntries, Setup

CONVENTIONS = "CONVENTIONS.md"

AGENT = Agent(
    id="aider",
    no_remote="Aider has no MCP client (toon-memory reaches it through its read: instructions)",
    title="Aider",
    detect=(project(".aider.conf.yml"), home(".aider.conf.yml")),
    binaries=("aider",),
    project=Setup(
        (
            ListEntries(
                (project(".aider.conf.yml"),),
                "yaml",
                lambda i: [(("read",), CONVENTIONS)],
                lambda item: item == CONVENTIONS,
                (("read",),),
                "read: CONVENTIONS.md",
            ),
            Block((project(CONVENTIONS),), kind="cli"),
        ),
        notes=("Aider has no MCP client: it uses the toon-memory CLI as the block says.",),
    ),
    user=None,
    scope_note="Aider is set up per project (`init local`)",
)
