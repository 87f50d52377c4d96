"""Every published MCP tool, in ``tools/list`` order, by area.

Invariant: pure data assembled from the area modules (``core``, ``context``,
``sessions``, ``curation``, ``sharing``, ``security``, ``viewer``); names are unique and each spec names a ``Memory``
method (dotted for a part, e.g. ``context.brief``) and a renderer of
``toon_memory.render``; ``COMMAND_SPECS`` are the specs of the declared CLI commands.
"""

from __future__ import annotations

from toon_memory.adapters.server.specs import ToolSpec
from toon_memory.adapters.server.tools.context import CONTEXT
from toon_memory.adapters.server.tools.core import CORE, STATE_COMMANDS
from toon_memory.adapters.server.tools.curation import CURATION
from toon_memory.adapters.server.tools.security import SECURITY
from toon_memory.adapters.server.tools.sessions import SESSIONS
from toon_memory.adapters.server.tools.sharing import SHARING
from toon_memory.adapters.server.tools.viewer import VIEWER

TOOLS: tuple[ToolSpec, ...] = (*CORE, *CONTEXT, *SESSIONS, *CURATION, *SHARING, *SECURITY, *VIEWER)
BY_NAME: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}
#: Every spec a CLI command is built from: the tools that declare one, then the CLI's
#: own forms of a tool (``state show|set|add|clear``, from ``memory_state``).
COMMAND_SPECS: tuple[ToolSpec, ...] = (*(s for s in TOOLS if s.command), *STATE_COMMANDS)
