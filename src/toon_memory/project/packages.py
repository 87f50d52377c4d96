"""Package managers and main dependencies, read from lock files and manifests.

Invariant: never raises and never writes; an absent or malformed manifest
contributes nothing. Dependencies are the runtime ones a manifest declares
(not dev/test groups), in manifest order, bounded per ecosystem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toon_memory.project.readers import read_json, read_text, read_toml, table, text_at

MAX_DEPS = 20
# (ecosystem, lock file or marker, package manager), strongest evidence first.
LOCKS = (
    ("python", "uv.lock", "uv"),
    ("python", "poetry.lock", "poetry"),
    ("python", "Pipfile.lock", "pipenv"),
    ("python", "pdm.lock", "pdm"),
    ("js", "bun.lockb", "bun"),
    ("js", "bun.lock", "bun"),
    ("js", "pnpm-lock.yaml", "pnpm"),
    ("js", "yarn.lock", "yarn"),
    ("js", "package-lock.json", "npm"),
    ("js", "npm-shrinkwrap.json", "npm"),
    ("rust", "Cargo.lock", "cargo"),
    ("go", "go.sum", "go"),
)
JS_MANAGERS = ("npm", "pnpm", "yarn", "bun")
_PEP508 = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;#]*)")


@dataclass(frozen=True)
class Dependency:
    """A declared dependency: its name, the version spec as written ("" if none), ecosystem."""

    name: str
    spec: str
    ecosystem: str


PYTHON_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile")
ECOSYSTEMS = ("python", "js", "rust", "go")


def _has(root: Path, name: str) -> bool:
    try:
        return (root / name).is_file()
    except OSError:
        return False


def _python_manager(root: Path) -> str | None:
    tool = table(read_toml(root / "pyproject.toml"), "tool")
    for manager in ("poetry", "uv", "pdm"):
        if manager in tool:
            return manager
    if _has(root, "Pipfile"):
        return "pipenv"
    return "pip" if any(_has(root, name) for name in PYTHON_FILES) else None


def _js_manager(root: Path) -> str | None:
    if not _has(root, "package.json"):
        return None
    declared = text_at(read_json(root / "package.json"), "packageManager") or ""
    name = declared.split("@", 1)[0]
    return name if name in JS_MANAGERS else "npm"


def _manifest_manager(root: Path, ecosystem: str) -> str | None:
    if ecosystem == "python":
        return _python_manager(root)
    if ecosystem == "js":
        return _js_manager(root)
    if ecosystem == "rust":
        return "cargo" if _has(root, "Cargo.toml") else None
    return "go" if _has(root, "go.mod") else None


def package_managers(root: Path) -> list[str]:
    """The package managers in use at ``root``: those with a lock file first, then the rest.

    One per ecosystem (Python, JS/TS, Rust, Go); a lock file wins over what a
    manifest suggests, a ``packageManager`` field over the npm default.
    """
    locked: dict[str, str] = {}
    for ecosystem, lock, manager in LOCKS:
        if ecosystem not in locked and _has(root, lock):
            locked[ecosystem] = manager
    found = list(locked.values())
    for ecosystem in ECOSYSTEMS:
        declared = None if ecosystem in locked else _manifest_manager(root, ecosystem)
        if declared:
            found.append(declared)
    return found


def _pep508(items: object, ecosystem: str = "python") -> list[Dependency]:
    deps = []
    for item in items if isinstance(items, list) else []:
        match = _PEP508.match(item) if isinstance(item, str) else None
        if match:
            deps.append(Dependency(match.group(1), match.group(2).strip(), ecosystem))
    return deps


def _spec_of(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dict) and isinstance(value.get("version"), str):
        return str(value["version"]).strip()
    return ""


def _table_deps(
    block: dict[str, Any], ecosystem: str, skip: tuple[str, ...] = ()
) -> list[Dependency]:
    return [Dependency(k, _spec_of(v), ecosystem) for k, v in block.items() if k not in skip]


def _requirements(text: str | None) -> list[Dependency]:
    lines = [line for line in (text or "").splitlines() if not line.strip().startswith(("#", "-"))]
    return _pep508([line.split(" #", 1)[0] for line in lines])


def python_dependencies(root: Path) -> list[Dependency]:
    pyproject = read_toml(root / "pyproject.toml")
    deps = _pep508(table(pyproject, "project").get("dependencies"))
    deps += _table_deps(table(pyproject, "tool", "poetry", "dependencies"), "python", ("python",))
    if not deps:
        deps = _table_deps(table(read_toml(root / "Pipfile"), "packages"), "python")
    if not deps:
        deps = _requirements(read_text(root / "requirements.txt"))
    return deps


def js_dependencies(root: Path) -> list[Dependency]:
    block = table(read_json(root / "package.json"), "dependencies")
    return [Dependency(k, _spec_of(v), "js") for k, v in block.items()]


def rust_dependencies(root: Path) -> list[Dependency]:
    return _table_deps(table(read_toml(root / "Cargo.toml"), "dependencies"), "rust")


_GO_REQUIRE = re.compile(r"^\s*(?:require\s+)?([\w.~-]+(?:/[\w.~-]+)+)\s+(v\S+)(.*)$")


def go_dependencies(root: Path) -> list[Dependency]:
    deps = []
    for line in (read_text(root / "go.mod") or "").splitlines():
        match = _GO_REQUIRE.match(line)
        if match and "// indirect" not in match.group(3):
            deps.append(Dependency(match.group(1), match.group(2), "go"))
    return deps


def main_dependencies(root: Path, limit: int = MAX_DEPS) -> list[Dependency]:
    """Runtime dependencies declared at ``root``, at most ``limit`` per ecosystem."""
    found: list[Dependency] = []
    for reader in (python_dependencies, js_dependencies, rust_dependencies, go_dependencies):
        unique: dict[str, Dependency] = {}
        for dep in reader(root):
            unique.setdefault(dep.name, dep)  # the first declaration wins
        found += list(unique.values())[:limit]
    return found
