"""``curation.versions``: an entry is superseded only by an active entry naming the same
subject at a strictly newer version and about the same thing; quantities are not versions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.entry import Entry
from toon_memory.rules.curation.versions import (
    plan_versions,
    same_subject,
    subject_versions,
    version_mentions,
)


def entry(n: int, key: str, content: str, **fields: object) -> Entry:
    return Entry(id=f"{n:08x}", category="knowledge", key=key, content=content,
                 **fields)  # type: ignore[arg-type]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "subject", "version"),
    [("We use React 18 here", "react", (18, 0, 0, 0)), ("pin react@18.2", "react", (18, 2, 0, 0)),
     ("Next.js v14 app router", "nextjs", (14, 0, 0, 0)), ("vite ^5.0.0", "vite", (5, 0, 0, 0)),
     ("python version 3.12.1", "python", (3, 12, 1, 0)), ("node 20.x", "node", (20, 0, 0, 0))],
)  # fmt: skip
def test_version_mentions(text: str, subject: str, version: tuple[int, ...]) -> None:
    mentions = version_mentions(text)
    assert [(m.subject, m.version) for m in mentions] == [(subject, version)]


@pytest.mark.parametrize("text", ["timeout 30 seconds", "listen on port 8080", "use 3 retries",
                                  "upgrade to 18", "limit 50 items", "a 5", "takes 200ms",
                                  "about 40% faster"])  # fmt: skip
def test_quantities_are_not_versions(text: str) -> None:
    assert version_mentions(text) == []


def test_an_older_version_is_superseded_by_the_newest_related_one() -> None:
    old = entry(1, "react-version", "Frontend on React 17 with class components")
    new = entry(2, "react-version", "Frontend on React 18 with hooks")
    unrelated = entry(3, "docs-site", "The docs site still uses React 16 for the widgets gallery")
    plan = plan_versions([old, new, unrelated])
    assert plan.mode == "versions"
    assert [(r.entry.id, r.keep.id if r.keep else "") for r in plan.removals] == [(old.id, new.id)]
    assert plan.removals[0].reason == "react 17 -> 18"


def test_pinned_inactive_and_equal_versions_are_left_alone() -> None:
    pinned = entry(1, "react", "React 17 setup", priority=1)
    gone = entry(2, "react-x", "React 16 setup", status="obsolete")
    same = entry(3, "react-y", "React 18 setup")
    newest = entry(4, "react", "React 18 setup and hooks")
    assert plan_versions([pinned, gone, same, newest]).removals == ()
    assert "react" in subject_versions([pinned, same, newest])
    assert subject_versions([same, newest]) == {}  # one version only: nothing to compare


def test_same_subject_by_keys_stems_or_content() -> None:
    a = entry(1, "vite-config", "Build with Vite 4 and esbuild")
    b = entry(2, "vite-setup", "Bundler is Vite 5")
    assert same_subject(a, b, "vite")
    c = entry(3, "build-v4", "Fast builds with the bundler")
    d = entry(4, "build-v5", "Totally different words here")
    assert same_subject(c, d, "vite")
    e = entry(5, "alpha", "deploy pipeline uses vite 4 for bundling assets")
    f = entry(6, "beta", "deploy pipeline uses vite 5 for bundling assets")
    g = entry(7, "gamma", "marketing site with vite 5 and a blog")
    assert same_subject(e, f, "vite") and not same_subject(e, g, "vite")


@given(st.lists(st.tuples(st.sampled_from(["react", "vite", "django"]), st.integers(1, 4),
                          st.booleans(), st.integers(0, 1)), max_size=8))  # fmt: skip
def test_a_removal_is_always_by_a_strictly_newer_active_entry(
    rows: list[tuple[str, int, bool, int]],
) -> None:
    entries = [entry(n, f"{lib}-notes", f"We build on {lib} {major}",
                     status="active" if live else "obsolete", priority=p)
               for n, (lib, major, live, p) in enumerate(rows)]  # fmt: skip
    plan = plan_versions(entries)
    removed = {r.entry.id for r in plan.removals}
    assert len(removed) == len(plan.removals)
    for removal in plan.removals:
        assert removal.keep is not None and removal.keep.active and removal.entry.active
        assert removal.entry.priority == 0 and removal.keep.id not in removed
        old = version_mentions(removal.entry.content)[0]
        new = version_mentions(removal.keep.content)[0]
        assert old.subject == new.subject and new.version > old.version
