"""What an agent needs before it runs what we wrote: approvals, trusted folders, trusted hooks.

Invariant: ``waiting_for`` only reads the agents' own state files (Claude Code's
settings and ``~/.claude.json``, Codex's user ``config.toml``, Gemini's
``trustedFolders.json`` and settings, Copilot CLI's ``config.json``) and answers the step still missing, or
``""`` when the agent will start the server; a state file that is missing or
does not parse counts as "not granted", never as an error. ``forget_codex_hooks``
is the one writer: it removes from Codex's user ``config.toml`` the
``hooks.state`` tables whose key names one of our hook handlers, nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from toon_memory.adapters.installer import files
from toon_memory.adapters.installer.command import is_our_hook
from toon_memory.adapters.installer.documents import MISSING
from toon_memory.adapters.installer.places import Places, home
from toon_memory.adapters.installer.spec import SERVER_NAME
from toon_memory.errors import AgentConfigError

CODEX_CONFIG = home(".codex/config.toml", env="CODEX_HOME", env_part=".codex")
CODEX_EVENTS = {"SessionStart": "session_start", "PostToolUse": "post_tool_use", "Stop": "stop"}


def _read(path: Path, fmt: str) -> Any:
    """The parsed file as plain values; MISSING when absent or unreadable."""
    try:
        text = files.read_text(path)
        return MISSING if text is None else files.open_config(path, fmt, text).get(())
    except AgentConfigError:
        return MISSING


def _table(data: Any, key: str) -> dict[str, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _within(folder: Path, rule: str) -> bool:
    base = Path(rule)
    return folder == base or base in folder.parents


def _claude(scope: str, places: Places) -> str:
    if scope != "project":
        return ""
    sources = [places.home / ".claude/settings.json", places.project / ".claude/settings.json",
               places.project / ".claude/settings.local.json"]  # fmt: skip
    found = [_read(path, "jsonc") for path in sources]
    projects = _table(_read(places.home / ".claude.json", "json"), "projects")
    found.append(projects.get(str(places.project)))
    folder_trusted = any(isinstance(v, dict) and v.get("hasTrustDialogAccepted") is True
                         and _within(places.project, k) for k, v in projects.items())  # fmt: skip
    enabled = disabled = False
    for data in (d for d in found if isinstance(d, dict)):
        disabled = disabled or SERVER_NAME in (data.get("disabledMcpjsonServers") or [])
        enabled = enabled or data.get("enableAllProjectMcpServers") is True
        enabled = enabled or SERVER_NAME in (data.get("enabledMcpjsonServers") or [])
    if disabled:
        return "Claude Code rejected it: take toon-memory out of disabledMcpjsonServers"
    if enabled and folder_trusted:
        return ""
    return ("Claude Code's folder trust and approval (start `claude` here once: trust the "
            "folder and approve toon-memory)")  # fmt: skip


def codex_hook_keys(hooks_path: Path, hooks: Any) -> list[str]:
    """Codex's trust keys (``<file>:<event>:<group>:<handler>``) of our handlers in ``hooks``."""
    keys = []
    events = hooks.get("hooks") if isinstance(hooks, dict) else None
    for event, snake in CODEX_EVENTS.items():
        groups = events.get(event) if isinstance(events, dict) else None
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and is_our_hook(handler.get("command")):
                    keys.append(f"{hooks_path}:{snake}:{g}:{h}")
    return keys


def _codex_hooks_file(scope: str, places: Places) -> Path:
    if scope == "project":
        return places.project / ".codex/hooks.json"
    return CODEX_CONFIG.resolve(places).parent / "hooks.json"


def _codex(scope: str, places: Places) -> str:
    config = _read(CODEX_CONFIG.resolve(places), "toml")
    steps = []
    if scope == "project":
        projects = _table(config, "projects")
        trusted = [p for p, v in projects.items()
                   if isinstance(v, dict) and v.get("trust_level") == "trusted"]  # fmt: skip
        if not any(_within(places.project, rule) for rule in trusted):
            steps.append("Codex's trust of this project (answer its trust question)")
    hooks_path = _codex_hooks_file(scope, places)
    keys = codex_hook_keys(hooks_path, _read(hooks_path, "json"))
    state = _table(_table(config, "hooks"), "state")
    if keys and not all(isinstance(state.get(k), dict) and state[k].get("trusted_hash")
                        for k in keys):  # fmt: skip
        steps.append("hooks: Codex's hook trust (/hooks)")
    return "; ".join(steps)


def _gemini_trusted(places: Places) -> bool:
    flag = places.env.get("GEMINI_CLI_TRUST_WORKSPACE", "")
    if flag in ("true", "false"):
        return flag == "true"
    settings = _read(places.home / ".gemini/settings.json", "jsonc")
    if _table(_table(settings, "security"), "folderTrust").get("enabled") is False:
        return True
    default = places.home / ".gemini/trustedFolders.json"
    rules = _table({"r": _read(Path(places.env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or default),
                               "jsonc")}, "r")  # fmt: skip
    best, level = -1, ""
    for rule, value in rules.items():
        folder = str(Path(rule).parent) if value == "TRUST_PARENT" else rule
        if _within(places.project, folder) and len(rule) > best:
            best, level = len(rule), str(value)
    return level in ("TRUST_FOLDER", "TRUST_PARENT")


def _gemini(scope: str, places: Places) -> str:
    if _gemini_trusted(places):
        return ""
    return ("Gemini CLI's folder trust (its trust dialog, ~/.gemini/trustedFolders.json, "
            "or `gemini --skip-trust`)")  # fmt: skip


def _copilot(scope: str, places: Places) -> str:
    if scope != "project":
        return ""
    home_dir = places.env.get("COPILOT_HOME") or places.home / ".copilot"
    folders = _read(Path(home_dir) / "config.json", "jsonc")
    trusted = folders.get("trusted_folders") if isinstance(folders, dict) else None
    if isinstance(trusted, list) and any(_within(places.project, str(f)) for f in trusted):
        return ""
    return "Copilot CLI's folder trust (answer its question when `copilot` starts here)"


_CHECKS: dict[str, Callable[[str, Places], str]] = {
    "claude": _claude, "codex": _codex, "gemini": _gemini, "copilot-cli": _copilot,
}  # fmt: skip


def waiting_for(agent: str, scope: str, places: Places) -> str:
    """The step the agent still needs before it starts our server in ``places.project``."""
    check = _CHECKS.get(agent)
    return check(scope, places) if check else ""


def forget_codex_hooks(scope: str, places: Places) -> tuple[Path, str] | None:
    """Drop the ``hooks.state`` tables of our hooks from Codex's config.toml: (file, action)."""
    hooks_path = _codex_hooks_file(scope, places)
    keys = codex_hook_keys(hooks_path, _read(hooks_path, "json"))
    config = CODEX_CONFIG.resolve(places)
    if not keys or files.read_text(config) is None:
        return None

    def drop(doc: Any, backup: Any) -> None:
        for key in keys:
            if doc.get(("hooks", "state", key)) is not MISSING:
                doc.delete(("hooks", "state", key))
        for path in (("hooks", "state"), ("hooks",)):
            if doc.get(path) == {}:
                doc.delete(path)

    return config, files.edit_config(config, "toml", config.parent, False, drop)
