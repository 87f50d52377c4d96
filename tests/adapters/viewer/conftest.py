"""Fixtures of the viewer tests: the fixture memory and (when chromium exists) a browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.adapters.viewer.helpers import ARTIFACTS, CHROMIUM_ARGS, build_fixture, chromium_path

from toon_memory.memory.api import Memory


@pytest.fixture
def fixture_memory(project: Path) -> Memory:
    return build_fixture(project)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless system chromium driven by Playwright; skipped (with the reason) if absent.

    Module-scoped: Playwright's sync API keeps an event loop running in this thread,
    so it must be gone before a later module calls ``anyio.run``. Keep browser tests
    and ``anyio.run`` tests in separate modules.
    """
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright)")
    executable = chromium_path()
    if executable is None:
        pytest.skip("no chromium on this machine (apt-get install -y chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    opened.page_errors = errors  # uncaught exceptions and console errors (CSP, 404...)
    yield opened
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (gitignored; override with TOON_VIEWER_ARTIFACTS)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
