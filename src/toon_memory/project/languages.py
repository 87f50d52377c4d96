"""What a project is: name, package managers, languages with versions, main dependencies.

Invariant: ``describe_project`` never raises and never writes. Every fact
comes from a file at the project root (manifests, lock files, version
files); a language's version is what a manifest says, else ``None``, never
a guess from the machine we run on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toon_memory.project.packages import (
    PYTHON_FILES,
    Dependency,
    main_dependencies,
    package_managers,
)
from toon_memory.project.readers import read_json, read_text, read_toml, text_at

MANIFESTS = (
    "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile", ".python-version",
    "package.json", "tsconfig.json", ".nvmrc", ".node-version",
    "Cargo.toml", "rust-toolchain.toml", "rust-toolchain", "go.mod",
    "pom.xml", "build.gradle", "build.gradle.kts",
)  # fmt: skip


@dataclass(frozen=True)
class Language:
    """A language (or runtime) the project uses; ``version`` and ``source`` as a manifest says.

    ``edition`` is Rust's edition; ``None`` elsewhere.
    """

    name: str
    version: str | None = None
    source: str | None = None
    edition: str | None = None


@dataclass(frozen=True)
class ProjectFacts:
    """A description of the project at ``root``; empty tuples when nothing is known."""

    name: str
    root: str
    package_managers: tuple[str, ...] = ()
    languages: tuple[Language, ...] = ()
    dependencies: tuple[Dependency, ...] = ()
    manifests: tuple[str, ...] = ()

    @property
    def package_manager(self) -> str | None:
        """The main package manager: the first one found, ``None`` when there is none."""
        return self.package_managers[0] if self.package_managers else None


def _first_line(root: Path, name: str) -> str | None:
    lines = (read_text(root / name, 4096) or "").strip().splitlines()
    return lines[0].strip() if lines else None


def _python(root: Path) -> Language | None:
    pyproject = read_toml(root / "pyproject.toml")
    candidates = (
        (text_at(pyproject, "project", "requires-python"), "pyproject.toml"),
        (text_at(pyproject, "tool", "poetry", "dependencies", "python"), "pyproject.toml"),
        (_first_line(root, ".python-version"), ".python-version"),
        (text_at(read_toml(root / "Pipfile"), "requires", "python_version"), "Pipfile"),
    )
    for version, source in candidates:
        if version:
            return Language("Python", version, source)
    if any((root / name).is_file() for name in (*PYTHON_FILES, ".python-version")):
        return Language("Python")
    return None


def _dep_spec(package: dict[str, Any], name: str) -> str | None:
    for section in ("dependencies", "devDependencies", "peerDependencies"):
        spec = text_at(package, section, name)
        if spec:
            return spec
    return None


def _javascript(root: Path) -> list[Language]:
    package = read_json(root / "package.json")
    has_package = (root / "package.json").is_file()
    typescript = _dep_spec(package, "typescript")
    found = []
    if typescript or (root / "tsconfig.json").is_file():
        found.append(Language("TypeScript", typescript, "package.json" if typescript else None))
    elif has_package:
        found.append(Language("JavaScript"))
    node = text_at(package, "engines", "node")
    source = "package.json"
    for name in (".nvmrc", ".node-version"):
        if not node:
            node, source = _first_line(root, name), name
    if node:
        found.append(Language("Node.js", node, source))
    return found


def _rust(root: Path) -> Language | None:
    cargo = read_toml(root / "Cargo.toml")
    if not cargo and not (root / "Cargo.toml").is_file():
        return None
    version = text_at(cargo, "package", "rust-version") or text_at(
        cargo, "workspace", "package", "rust-version"
    )
    source = "Cargo.toml" if version else None
    if not version:
        version = text_at(read_toml(root / "rust-toolchain.toml"), "toolchain", "channel")
        source = "rust-toolchain.toml" if version else None
    if not version:
        version = _first_line(root, "rust-toolchain")
        source = "rust-toolchain" if version else None
    edition = text_at(cargo, "package", "edition") or text_at(
        cargo, "workspace", "package", "edition"
    )
    return Language("Rust", version, source, edition)


_GO_DIRECTIVE = re.compile(r"(?m)^go\s+(\d+(?:\.\d+)*)\s*$")


def _go(root: Path) -> Language | None:
    text = read_text(root / "go.mod")
    if text is None:
        return None
    match = _GO_DIRECTIVE.search(text)
    return Language("Go", match.group(1), "go.mod") if match else Language("Go")


_JAVA_VERSION = (
    re.compile(r"<(?:maven\.compiler\.(?:release|source)|java\.version)>\s*([\d.]+)\s*<"),
    re.compile(r"languageVersion(?:\.set)?\s*[(=]\s*JavaLanguageVersion\.of\(\s*(\d+)\s*\)"),
    re.compile(r"sourceCompatibility\s*=\s*(?:JavaVersion\.VERSION_)?['\"]?([\d._]+)"),
)


def _java(root: Path) -> Language | None:
    for name in ("pom.xml", "build.gradle", "build.gradle.kts"):
        text = read_text(root / name)
        if text is None:
            continue
        for pattern in _JAVA_VERSION:
            match = pattern.search(text)
            if match:
                return Language("Java", match.group(1).replace("_", "."), name)
        return Language("Java")
    return None


def languages(root: Path) -> list[Language]:
    """The languages a project's root files declare, with versions where a manifest says."""
    python = _python(root)
    found = [python] if python else []
    found += _javascript(root)
    found += [lang for lang in (_rust(root), _go(root), _java(root)) if lang]
    return found


def _name(root: Path) -> str:
    pyproject = read_toml(root / "pyproject.toml")
    module = re.search(r"(?m)^module\s+(\S+)", read_text(root / "go.mod") or "")
    for name in (
        text_at(pyproject, "project", "name"),
        text_at(pyproject, "tool", "poetry", "name"),
        text_at(read_json(root / "package.json"), "name"),
        text_at(read_toml(root / "Cargo.toml"), "package", "name"),
        module.group(1).rstrip("/").rsplit("/", 1)[-1] if module else None,
    ):
        if name:
            return name
    return root.name


def describe_project(root: Path) -> ProjectFacts:
    """Name, root, package managers, languages and main dependencies of the project at ``root``."""
    try:
        root = root.resolve()
        return ProjectFacts(
            name=_name(root),
            root=str(root),
            package_managers=tuple(package_managers(root)),
            languages=tuple(languages(root)),
            dependencies=tuple(main_dependencies(root)),
            manifests=tuple(name for name in MANIFESTS if (root / name).is_file()),
        )
    except (OSError, ValueError, RuntimeError):
        return ProjectFacts(name=root.name, root=str(root))
