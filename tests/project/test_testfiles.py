"""test_files_for: the test files of a source file in Python, JS/TS, Go, Rust and Java layouts."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.project.gitrepo import commit_files, init_repo, write

from toon_memory.project.testfiles import is_test_file, test_files_for

PYTHON = {
    "src/shop/cache.py": "", "src/shop/store/cache.py": "", "src/shop/orders.py": "",
    "src/shop/test_orders.py": "", "src/shop/orders_test.py": "",
    "tests/test_cache.py": "", "tests/store/test_cache.py": "", "tests/search/test_cache.py": "",
    "tests/unit/test_orders.py": "", "tests/conftest.py": "",
}  # fmt: skip


@pytest.fixture
def py_repo(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "py")
    commit_files(root, PYTHON, "Python layout")
    return root


def test_python_tests_beside_the_file_and_in_a_tests_tree(py_repo: Path) -> None:
    assert test_files_for(py_repo, "src/shop/orders.py") == [
        "src/shop/orders_test.py", "src/shop/test_orders.py", "tests/unit/test_orders.py",
    ]  # fmt: skip


def test_python_mirrors_must_match_the_source_folders(py_repo: Path) -> None:
    assert test_files_for(py_repo, "src/shop/store/cache.py") == [
        "tests/store/test_cache.py", "tests/test_cache.py",
    ]  # fmt: skip
    assert test_files_for(py_repo, "src/shop/cache.py") == ["tests/test_cache.py"]


def test_a_source_without_tests(py_repo: Path) -> None:
    write(py_repo, {"src/shop/lonely.py": ""})
    assert test_files_for(py_repo, "src/shop/lonely.py") == []


def test_a_test_file_is_its_own_test(py_repo: Path) -> None:
    assert test_files_for(py_repo, "tests/store/test_cache.py") == ["tests/store/test_cache.py"]
    assert test_files_for(py_repo, "tests/store/test_gone.py") == []


def test_paths_may_be_absolute_or_dotted(py_repo: Path) -> None:
    expected = ["tests/store/test_cache.py", "tests/test_cache.py"]
    assert test_files_for(py_repo, py_repo / "src/shop/store/cache.py") == expected
    assert test_files_for(py_repo, "./src/shop/store/../store/cache.py") == expected
    assert test_files_for(py_repo, "../elsewhere/cache.py") == []


def test_deleted_tests_are_not_answered(py_repo: Path) -> None:
    (py_repo / "tests/test_cache.py").unlink()
    assert test_files_for(py_repo, "src/shop/cache.py") == []


def test_js_and_ts_conventions(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "web/src/api/client.ts": "", "web/src/api/client.test.ts": "", "web/src/api/client.spec.js": "",
        "web/src/api/__tests__/client.ts": "", "web/src/api/__tests__/client.test.tsx": "",
        "web/test/api/client.js": "", "web/test/other/client.js": "",
        "web/src/api/client.js": "", "other/test/client.test.ts": "",
        "web/src/user.service.ts": "", "web/src/user.service.spec.ts": "",
    })  # fmt: skip
    assert test_files_for(root, "web/src/api/client.ts") == [
        "web/src/api/__tests__/client.test.tsx", "web/src/api/__tests__/client.ts",
        "web/src/api/client.spec.js", "web/src/api/client.test.ts", "web/test/api/client.js",
    ]  # fmt: skip
    assert test_files_for(root, "web/src/user.service.ts") == ["web/src/user.service.spec.ts"]


def test_go_tests_sit_beside_the_file(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "internal/auth/token.go": "", "internal/auth/token_test.go": "", "test/token_test.go": "",
    })  # fmt: skip
    assert test_files_for(root, "internal/auth/token.go") == ["internal/auth/token_test.go"]


def test_rust_integration_tests_module_tests_and_inline_tests(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "crates/core/src/parser.rs": "fn parse() {}\n\n#[cfg(test)]\nmod tests {}\n",
        "crates/core/src/lexer.rs": "fn lex() {}\n",
        "crates/core/src/lexer/tests.rs": "",
        "crates/core/tests/parser.rs": "", "crates/core/tests/lexer.rs": "",
        "crates/other/tests/parser.rs": "",
    })  # fmt: skip
    assert test_files_for(root, "crates/core/src/parser.rs") == [
        "crates/core/src/parser.rs", "crates/core/tests/parser.rs",
    ]  # fmt: skip
    assert test_files_for(root, "crates/core/src/lexer.rs") == [
        "crates/core/src/lexer/tests.rs", "crates/core/tests/lexer.rs",
    ]  # fmt: skip


def test_java_and_kotlin_maven_layouts(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "src/main/java/com/acme/OrderService.java": "",
        "src/test/java/com/acme/OrderServiceTest.java": "",
        "src/test/java/com/acme/OrderServiceIT.java": "",
        "src/test/java/org/other/OrderServiceTest.java": "",
        "src/main/kotlin/com/acme/Cart.kt": "", "src/test/kotlin/com/acme/CartTests.kt": "",
    })  # fmt: skip
    assert test_files_for(root, "src/main/java/com/acme/OrderService.java") == [
        "src/test/java/com/acme/OrderServiceIT.java", "src/test/java/com/acme/OrderServiceTest.java",
    ]  # fmt: skip
    assert test_files_for(root, "src/main/kotlin/com/acme/Cart.kt") == [
        "src/test/kotlin/com/acme/CartTests.kt",
    ]  # fmt: skip


def test_unknown_kinds_of_files_have_no_tests(tmp_path: Path) -> None:
    root = write(tmp_path, {"docs/guide.md": "", "docs/test_guide.md": "", "Makefile": ""})
    assert test_files_for(root, "docs/guide.md") == []
    assert test_files_for(root, "Makefile") == []


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tests/test_cache.py", True), ("src/cache_test.py", True), ("pkg/x_test.go", True),
        ("a/b.test.ts", True), ("a/b.spec.jsx", True), ("a/__tests__/b.ts", True),
        ("crate/tests/x.rs", True), ("src/test/java/FooTest.java", True), ("FooIT.java", True),
        ("src/cache.py", False), ("tests/conftest.py", False), ("src/testing.py", False),
        ("src/attest.ts", False), ("Testimony.java", False), ("src/x.rs", False),
    ],
)  # fmt: skip
def test_what_is_a_test_file(path: str, expected: bool) -> None:
    assert is_test_file(path) is expected
