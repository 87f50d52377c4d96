"""Agent integration: where each of the 22 agents keeps its config, and how we edit it.

Invariant: only this package (and ``cli/``, through it) writes agent config
files; every write merges into the user's file keeping other keys, comments
and layout, is atomic, backs the original up once, is idempotent, and is
reversible by ``engine.uninstall`` byte for byte. A file that does not parse
raises ``AgentConfigError`` (file and line) and is never written.

Layout: ``catalog/`` (one declarative definition per agent), ``spec``
(the parts a definition is made of), ``shapes`` (entry shapes), ``places``
(paths per OS), ``documents`` over ``jsontext``/``jsonedit`` (JSON, JSONC,
JSON5), ``tomltext`` (TOML) and ``yamldoc`` (YAML), ``blocks`` and
``texts`` (instruction blocks, rule files, the OpenCode plugin), ``files``
(backups, atomic writes, cleanup), ``engine`` (install/uninstall/plan),
``status`` and ``probe`` (what is installed, does it start), ``payloads``
(hook stdin), ``command`` (the command lines we write), ``upgrade``.
"""

from toon_memory.adapters.installer.payloads import HookEvent, parse_hook_payload

__all__ = ["HookEvent", "parse_hook_payload"]
