"""VS Code (GitHub Copilot agent mode): ``servers`` with ``type: stdio``.

Sources: microsoft/vscode-docs docs/agents/reference/mcp-configuration.md
(workspace ``.vscode/mcp.json``, user-profile ``mcp.json``, key ``servers``,
``type`` required). The user-profile folder per OS (``Code/User`` under the
app-data folder) comes from third-party READMEs (agents.md: unverified); it
is the folder every VS Code build has used for ``settings.json``, so we keep it.
VS Code may start stdio servers outside the workspace (microsoft/vscode
#250078): the project entry names ``--project``. No hooks: VS Code also runs
the Claude Code hooks in ``.claude/settings.json``, so writing our own would
fire twice (the payload parser accepts its camelCase ``sessionId``). The
``copilot`` program is GitHub Copilot CLI, a separate agent (``copilot-cli``).
"""

from toon_memory.adapters.installer.places import appdata, home, project
from toon_memory.adapters.installer.shapes import http_entry, mcp_entry, typed_stdio
from toon_memory.adapters.installer.spec import Agent, Block, Setup

#: ``type: http`` with ``url``/``headers``; ``${env:VAR}`` is VS Code's variable syntax.
REMOTE = http_entry("${env:VAR}", type="http")

AGENT = Agent(
    id="vscode",
    title="VS Code / Copilot",
    aliases=("vs-code", "code", "github-copilot", "copilot-vscode"),
    detect=(project(".vscode"), appdata("Code/User"), home(".vscode")),
    binaries=("code", "code-insiders"),
    project_args=("--project", "${workspaceFolder}"),
    project=Setup(
        (
            mcp_entry(
                (project(".vscode/mcp.json"),), "jsonc", ("servers",), typed_stdio, remote=REMOTE
            ),
            Block((project(".github/copilot-instructions.md"),)),
        )
    ),
    user=Setup(
        (
            mcp_entry(
                (appdata("Code/User/mcp.json"),), "jsonc", ("servers",), typed_stdio, remote=REMOTE
            ),
        )
    ),
)
