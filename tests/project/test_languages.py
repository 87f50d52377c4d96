"""describe_project: package managers, languages with versions and main dependencies."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.project.gitrepo import write

from toon_memory.project.languages import Language, ProjectFacts, describe_project
from toon_memory.project.packages import Dependency


def deps(facts: ProjectFacts) -> list[tuple[str, str]]:
    return [(d.name, d.spec) for d in facts.dependencies]


def test_a_uv_python_project(tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": '[project]\nname = "shop"\nrequires-python = ">=3.10"\n'
        'dependencies = ["fastapi[all]>=0.110", "redis ; python_version >= \'3.8\'", "pydantic==2.7.1"]\n'
        "[project.optional-dependencies]\ntest = [\"pytest\"]\n[tool.uv]\ndev-dependencies = [\"ruff\"]\n",
        "uv.lock": "version = 1\n",
    })  # fmt: skip
    facts = describe_project(tmp_path)
    assert facts.name == "shop" and facts.root == str(tmp_path.resolve())
    assert facts.package_manager == "uv" and facts.package_managers == ("uv",)
    assert facts.languages == (Language("Python", ">=3.10", "pyproject.toml"),)
    assert deps(facts) == [("fastapi", ">=0.110"), ("redis", ""), ("pydantic", "==2.7.1")]
    assert facts.manifests == ("pyproject.toml",)


def test_a_poetry_project_without_its_lock(tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": '[tool.poetry]\nname = "svc"\n[tool.poetry.dependencies]\n'
        'python = "^3.11"\nrequests = "^2.31"\nsqlalchemy = { version = "^2.0", extras = ["asyncio"] }\n'
        "[tool.poetry.group.dev.dependencies]\npytest = \"^8\"\n",
    })  # fmt: skip
    facts = describe_project(tmp_path)
    assert (facts.name, facts.package_manager) == ("svc", "poetry")
    assert facts.languages == (Language("Python", "^3.11", "pyproject.toml"),)
    assert deps(facts) == [("requests", "^2.31"), ("sqlalchemy", "^2.0")]


def test_a_pipenv_project(tmp_path: Path) -> None:
    write(tmp_path, {
        "Pipfile": '[packages]\nflask = "*"\n[dev-packages]\npytest = "*"\n[requires]\npython_version = "3.9"\n',
        "Pipfile.lock": "{}",
    })  # fmt: skip
    facts = describe_project(tmp_path)
    assert facts.package_manager == "pipenv"
    assert facts.languages == (Language("Python", "3.9", "Pipfile"),)
    assert deps(facts) == [("flask", "*")]


def test_a_pip_project_with_a_python_version_file(tmp_path: Path) -> None:
    write(tmp_path, {
        "requirements.txt": "# pinned\n-r base.txt\nDjango>=5.0  # web\ncelery[redis]==5.3.6\n\n",
        ".python-version": "3.12.1\n",
    })  # fmt: skip
    facts = describe_project(tmp_path)
    assert facts.name == tmp_path.name
    assert facts.package_manager == "pip"
    assert facts.languages == (Language("Python", "3.12.1", ".python-version"),)
    assert deps(facts) == [("Django", ">=5.0"), ("celery", "==5.3.6")]


def test_an_npm_typescript_project(tmp_path: Path) -> None:
    package = {
        "name": "@acme/web", "engines": {"node": ">=18"},
        "dependencies": {"react": "^18.2.0", "zod": "3.22.4"},
        "devDependencies": {"typescript": "~5.3.3", "vitest": "^1"},
    }  # fmt: skip
    write(tmp_path, {"package.json": json.dumps(package), "package-lock.json": "{}"})
    facts = describe_project(tmp_path)
    assert (facts.name, facts.package_manager) == ("@acme/web", "npm")
    assert facts.languages == (
        Language("TypeScript", "~5.3.3", "package.json"), Language("Node.js", ">=18", "package.json"),
    )  # fmt: skip
    assert deps(facts) == [("react", "^18.2.0"), ("zod", "3.22.4")]


def test_js_lock_files_and_the_package_manager_field(tmp_path: Path) -> None:
    for lock, manager in (("pnpm-lock.yaml", "pnpm"), ("yarn.lock", "yarn"), ("bun.lockb", "bun")):
        root = write(tmp_path / manager, {"package.json": "{}", lock: ""})
        assert describe_project(root).package_manager == manager
    root = write(tmp_path / "field", {"package.json": '{"packageManager": "pnpm@8.15.0"}'})
    assert describe_project(root).package_managers == ("pnpm",)
    root = write(tmp_path / "odd", {"package.json": '{"packageManager": "deno@1"}'})
    assert describe_project(root).package_managers == ("npm",)


def test_plain_javascript_with_an_nvmrc(tmp_path: Path) -> None:
    write(tmp_path, {"package.json": '{"name": "cli"}', ".nvmrc": "v20.11.0\n"})
    assert describe_project(tmp_path).languages == (
        Language("JavaScript"), Language("Node.js", "v20.11.0", ".nvmrc"),
    )  # fmt: skip


def test_a_tsconfig_alone_means_typescript_of_unknown_version(tmp_path: Path) -> None:
    write(tmp_path, {"package.json": "{}", "tsconfig.json": "{}"})
    assert describe_project(tmp_path).languages == (Language("TypeScript"),)


def test_a_cargo_project(tmp_path: Path) -> None:
    write(tmp_path, {
        "Cargo.toml": '[package]\nname = "engine"\nedition = "2021"\nrust-version = "1.74"\n'
        '[dependencies]\nserde = { version = "1.0", features = ["derive"] }\ntokio = "1.35"\n'
        'local = { path = "../local" }\n[dev-dependencies]\ncriterion = "0.5"\n',
        "Cargo.lock": "",
    })  # fmt: skip
    facts = describe_project(tmp_path)
    assert (facts.name, facts.package_manager) == ("engine", "cargo")
    assert facts.languages == (Language("Rust", "1.74", "Cargo.toml", "2021"),)
    assert deps(facts) == [("serde", "1.0"), ("tokio", "1.35"), ("local", "")]


def test_a_rust_toolchain_file_gives_the_version(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "x"\n',
            "rust-toolchain.toml": '[toolchain]\nchannel = "1.76.0"\n',
        },
    )
    assert describe_project(tmp_path).languages == (
        Language("Rust", "1.76.0", "rust-toolchain.toml"),
    )


def test_a_go_module(tmp_path: Path) -> None:
    write(tmp_path, {
        "go.mod": "module github.com/acme/api\n\ngo 1.22\n\nrequire (\n\tgithub.com/gin-gonic/gin v1.9.1\n"
        "\tgolang.org/x/sync v0.6.0 // indirect\n)\n\nrequire github.com/lib/pq v1.10.9\n",
        "go.sum": "",
    })  # fmt: skip
    facts = describe_project(tmp_path)
    assert (facts.name, facts.package_manager) == ("api", "go")
    assert facts.languages == (Language("Go", "1.22", "go.mod"),)
    assert deps(facts) == [("github.com/gin-gonic/gin", "v1.9.1"), ("github.com/lib/pq", "v1.10.9")]


def test_java_versions_from_maven_and_gradle(tmp_path: Path) -> None:
    pom = "<project><properties><maven.compiler.release>21</maven.compiler.release></properties></project>"
    assert describe_project(write(tmp_path / "m", {"pom.xml": pom})).languages == (
        Language("Java", "21", "pom.xml"),
    )
    gradle = "java {\n  toolchain {\n    languageVersion = JavaLanguageVersion.of(17)\n  }\n}\n"
    assert describe_project(write(tmp_path / "g", {"build.gradle.kts": gradle})).languages == (
        Language("Java", "17", "build.gradle.kts"),
    )


def test_a_polyglot_project_puts_locked_ecosystems_first(tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": '[project]\nname = "mono"\ndependencies = ["httpx"]\n',
        "package.json": '{"dependencies": {"vue": "^3.4"}, "devDependencies": {"typescript": "5.4.2"}}',
        "pnpm-lock.yaml": "",
    })  # fmt: skip
    facts = describe_project(tmp_path)
    assert facts.package_managers == ("pnpm", "pip")
    assert [lang.name for lang in facts.languages] == ["Python", "TypeScript"]
    assert [d.ecosystem for d in facts.dependencies] == ["python", "js"]


def test_dependencies_are_bounded_per_ecosystem(tmp_path: Path) -> None:
    many = {f"dep{i}": "1.0" for i in range(50)}
    write(tmp_path, {"package.json": json.dumps({"dependencies": many})})
    assert len(describe_project(tmp_path).dependencies) == 20


def test_an_empty_or_missing_folder(tmp_path: Path) -> None:
    assert describe_project(tmp_path) == ProjectFacts(
        name=tmp_path.name, root=str(tmp_path.resolve())
    )
    assert describe_project(tmp_path / "nope").name == "nope"
    assert describe_project(tmp_path).package_manager is None


def test_broken_manifests_are_skipped(tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": "[project\nname = ",
        "package.json": "[1, 2, 3]",
        "Cargo.toml": 'package = "not a table"\n',
        "go.mod": "garbage",
        ".python-version": "",
    })  # fmt: skip
    (tmp_path / "Pipfile").mkdir()
    facts = describe_project(tmp_path)
    assert facts.name == tmp_path.name
    assert [lang.name for lang in facts.languages] == ["Python", "JavaScript", "Rust", "Go"]
    assert all(lang.version is None for lang in facts.languages)
    assert facts.dependencies == ()


def test_a_huge_manifest_is_not_read(tmp_path: Path) -> None:
    write(tmp_path, {"package.json": json.dumps({"name": "big", "pad": "x" * 1_100_000})})
    assert describe_project(tmp_path).name == tmp_path.name


MANIFEST_NAMES = [
    "pyproject.toml",
    "package.json",
    "Cargo.toml",
    "go.mod",
    "Pipfile",
    "pom.xml",
    ".nvmrc",
]


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(MANIFEST_NAMES), st.binary(max_size=300) | st.text(max_size=300)
    )
)
def test_describing_never_fails_on_any_manifest_bytes(files: dict[str, bytes | str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, content in files.items():
            data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
            (root / name).write_bytes(data)
        facts = describe_project(root)
        assert facts.root == str(root.resolve())
        assert all(isinstance(d, Dependency) and d.name for d in facts.dependencies)
