"""The seeds' behaviour through the MCP client over stdio (issue 22: seed conformance).

Each test drives a real server (``python -m toon_memory mcp``) with the calls the
issue describes and checks what an agent reads back.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from tests.adapters.server.helpers import make_project, stdio_params, text_of

Call = tuple[str, dict[str, Any]]


def play(
    project: Path, home: Path, calls: Sequence[Call], env: dict[str, str] | None = None
) -> list[Any]:
    """The results of ``calls``, in order, from one stdio server."""

    async def run() -> list[Any]:
        async with Client(stdio_params(project, home, env)) as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(run)


def texts(project: Path, home: Path, calls: Sequence[Call]) -> list[str]:
    return [text_of(result) for result in play(project, home, calls)]


def remember(key: str, content: str, category: str = "decision", **more: Any) -> Call:
    return "memory_remember", {"key": key, "content": content, "category": category, **more}


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    return make_project(tmp_path)


# -- 1, 2: pins ---------------------------------------------------------------------
PINS = [
    remember("deploy-window", "Deploys happen on Tuesdays after the standup"),
    remember("code-owners", "Every pull request needs a review from the team lead"),
    remember("node-version", "The services run on Node 20 LTS in every environment"),
    ("memory_pin", {"key": "deploy-window", "priority": 5}),
    ("memory_pin", {"key": "code-owners", "priority": 4}),
    ("memory_pin", {"key": "node-version", "priority": 3}),
    remember("stripe-webhooks", "Verify stripe webhooks with the signing secret header"),
    remember("stripe-retries", "Stripe webhooks are retried for three days; handlers idempotent"),
    remember("jwt-auth", "JWT auth: access tokens expire after 15 minutes, refresh rotates"),
    remember("redis-cache", "Redis caches sessions with a 1h TTL", category="pattern"),
]


def test_pins_never_fill_every_place_and_stay_out_of_suggest_focus_visualize(
    places: tuple[Path, Path],
) -> None:
    out = texts(*places, [*PINS,
        ("memory_suggest", {"context": "how do we verify stripe webhooks", "limit": 2}),
        ("memory_recall", {"query": "verify stripe webhooks", "limit": 2}),
        ("context_focus", {"query": "jwt auth"}),
        ("memory_visualize", {"query": "redis"}),
        ("memory_recall", {"query": "stripe webhooks", "budget": "tiny"}),
    ])  # fmt: skip
    suggest, recall, focus, visualize, tiny = out[len(PINS) :]
    assert "stripe-webhooks" in suggest and "deploy-window" not in suggest
    assert "code-owners" not in suggest
    # recall: a pin leads, the best match keeps a place
    assert recall.index("deploy-window") < recall.index("stripe-webhooks")
    assert "code-owners" not in recall
    assert "jwt-auth" in focus
    assert not any(key in focus for key in ("deploy-window", "code-owners", "node-version"))
    assert "redis-cache" in visualize and "1 entry matches" in visualize
    assert "deploy-window" not in visualize
    assert "stripe-webhooks" in tiny and "stripe-retries" in tiny


def test_index_header_counts_what_it_lists(places: tuple[Path, Path]) -> None:
    out = texts(*places, [*PINS,
        ("memory_recall", {"query": "stripe", "mode": "index"}),
        ("memory_recall", {"query": "zebra-kumquat", "mode": "index"}),
    ])  # fmt: skip
    matches, nothing = out[len(PINS) :]
    assert matches.startswith("📇 Memory index (5 of 5 entries)"), matches
    assert nothing.startswith("📇 Memory index (3 of 3 entries)"), nothing


# -- 3: context_diff ----------------------------------------------------------------
def test_context_diff_does_not_call_a_resaved_entry_forgotten(places: tuple[Path, Path]) -> None:
    out = texts(*places, [
        remember("use-zod", "Validate payloads with zod schemas"),
        remember("use-zod", "Validate every payload with zod schemas in src/schemas"),
        remember("old-lib", "Use yup for validation"),
        ("memory_forget", {"key": "old-lib"}),
        ("context_diff", {"since": "1d"}),
    ])  # fmt: skip
    diff = out[-1]
    assert "forgotten [decision] use-zod" not in diff, diff
    assert "forgotten [decision] old-lib" in diff, diff
    assert "use-zod" in diff


# -- 4: merge_sessions promote --------------------------------------------------------
def test_promoting_merged_observations_dedups_against_the_memory(
    places: tuple[Path, Path],
) -> None:
    project, home = places
    results = play(project, home, [
        remember("types-generated", "Types are generated from the OpenAPI schema by make types",
                 category="knowledge", file="src/types.ts"),
        ("memory_merge_sessions", {"file": "src/types.ts", "promote": True}),
        ("memory_stats", {}),
    ])  # fmt: skip
    merged = text_of(results[1])
    assert "Types are generated" in merged
    assert "CONTRADICTION" not in merged and "Promoted" not in merged, merged
    assert "Already in memory (not promoted again): types-generated" in merged
    assert results[2].structured_content["active"] == 1


# -- 5: archive age -------------------------------------------------------------------
def test_archive_counts_age_from_the_last_change(places: tuple[Path, Path]) -> None:
    project, home = places
    play(project, home, [
        remember("old-edited", "Queue workers restart nightly"),
        remember("old-untouched", "The staging database is reset weekly"),
    ], env={"TOON_MEMORY_TODAY": "2026-05-01"})  # fmt: skip
    out = texts(project, home, [
        ("memory_forget", {"key": "old-edited", "action": "soft"}),
        ("memory_forget", {"key": "old-edited", "action": "restore"}),
        ("memory_archive", {}),
        ("memory_recall", {"query": "queue workers restart"}),
    ])  # fmt: skip
    archived = out[2]
    assert "old-untouched" in archived and "old-edited" not in archived, archived
    assert "old-edited" in out[3]


# -- 13: small ones -------------------------------------------------------------------
def test_unpin_of_an_entry_without_a_pin_says_so(places: tuple[Path, Path]) -> None:
    out = texts(*places, [
        remember("use-zod", "Validate payloads with zod"),
        ("memory_unpin", {"key": "use-zod"}),
        ("memory_pin", {"key": "use-zod"}),
        ("memory_unpin", {"key": "use-zod"}),
    ])  # fmt: skip
    assert "was not pinned" in out[1] and not out[1].startswith("Unpinned"), out[1]
    assert out[3].startswith("Unpinned use-zod")


def test_a_ttl_already_past_is_saved_with_a_warning(places: tuple[Path, Path]) -> None:
    out = texts(*places, [
        remember("old-flag", "The beta flag is on", ttl="2026-01-01"),
        remember("new-flag", "The gamma flag is on", ttl="2026-12-31"),
    ])  # fmt: skip
    assert "⚠️ TTL 2026-01-01 is already past" in out[0], out[0]
    assert "already past" not in out[1]


def test_related_entries_on_save_share_a_term(places: tuple[Path, Path]) -> None:
    out = texts(*places, [*PINS,
        remember("stripe-signing", "Renew the stripe signing secret each quarter"),
    ])  # fmt: skip
    saved = out[-1]
    related = saved[saved.index("Related") :] if "Related" in saved else ""
    assert "stripe-webhooks" in related, saved
    assert not any(k in related for k in ("deploy-window", "code-owners", "node-version",
                                          "jwt-auth", "redis-cache")), saved  # fmt: skip


# -- 11: context_focus on a file path -------------------------------------------------
def test_focus_on_a_file_path_lists_the_files_that_import_it(places: tuple[Path, Path]) -> None:
    project, home = places
    (project / ".git").rmdir()
    files = {
        "src/auth/jwt.ts": "export function verifyToken(t: string) { return t }\n",
        "src/api/login.ts": "import { verifyToken } from '../auth/jwt';\nverifyToken('x');\n",
        "src/api/admin.ts": "import * as jwt from '@/auth/jwt.ts';\n",
        "src/other.ts": "export const jwtless = 1;\n",
        "tests/auth/jwt.test.ts": "import { verifyToken } from '../../src/auth/jwt';\n",
    }
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    out = texts(project, home, [
        remember("jwt-expiry", "JWT access tokens expire after 15 minutes", file="src/auth/jwt.ts"),
        ("context_focus", {"query": "src/auth/jwt.ts"}),
    ])  # fmt: skip
    focus = out[-1]
    callers = focus[focus.index("## Callers") :] if "## Callers" in focus else ""
    assert "src/api/login.ts" in callers and "src/api/admin.ts" in callers, focus
    assert "src/other.ts" not in callers and "src/auth/jwt.ts:" not in callers


# -- 10: config.verbatim --------------------------------------------------------------
def test_verbatim_skips_tag_inference_and_quality_scoring(places: tuple[Path, Path]) -> None:
    project, home = places
    content = "Stripe webhooks are verified with the signing secret in src/payments/hooks.ts"
    scored = text_of(play(project, home, [remember("scored", content)])[0])
    assert "Inferred tags" in scored, scored
    folder = project / ".toon-memory" / "memory"
    (folder / "config.json").write_text(json.dumps({"verbatim": True}), encoding="utf-8")
    results = play(project, home, [
        remember("as-given", content),
        ("memory_recall", {"ids": "as-given", "budget": "deep"}),
    ])  # fmt: skip
    saved = text_of(results[0])
    assert "Inferred tags" not in saved and "Quality: 0.50" in saved, saved
    assert "payment" not in text_of(results[1]).split("Tags")[-1][:80]


# -- 6: global memory -----------------------------------------------------------------
def test_global_export_shares_conventions_and_import_counts_what_it_brought(
    tmp_path: Path,
) -> None:
    one, home = make_project(tmp_path / "one")
    two, _ = make_project(tmp_path / "two")
    exported = texts(one, home, [
        remember("use-zod", "Validate payloads with zod"),
        remember("use-zod", "Validate every payload with zod schemas"),
        remember("tabs-not-spaces", "Indent with tabs", category="pattern"),
        ("memory_pin", {"key": "tabs-not-spaces"}),
        ("memory_checkpoint", {"note": "before the refactor"}),
        ("memory_export_global", {}),
    ])[-1]  # fmt: skip
    assert "2 entries added" in exported, exported
    imported = play(two, home, [
        remember("own-rule", "Deploy on Tuesdays"),
        ("memory_import_global", {"merge": True}),
        ("memory_recall", {"query": "tabs zod checkpoint", "budget": "deep"}),
        ("memory_stats", {}),
    ])  # fmt: skip
    report = text_of(imported[1])
    assert "2 entries added" in report and "0 unchanged" in report, report
    assert imported[3].structured_content["active"] == 3
    assert "📌" not in text_of(imported[2]) and "checkpoint-" not in text_of(imported[2])


# -- 8: the seeds' 100+ auto-archive rule ---------------------------------------------
def test_over_max_entries_the_least_used_move_to_the_archive(places: tuple[Path, Path]) -> None:
    project, home = places
    folder = project / ".toon-memory" / "memory"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"autoArchive": {"maxEntries": 4}}))
    topics = ["kafka topics", "grpc deadlines", "sentry sampling", "terraform state",
              "docker layers", "nginx buffers"]  # fmt: skip
    notes = [remember(f"note-{n}", f"Notes about {t}") for n, t in enumerate(topics)]
    calls: list[Call] = [*notes[:4], ("memory_pin", {"key": "note-0"}),
                         ("memory_recall", {"query": "sentry sampling", "limit": 1}),
                         ("memory_recall", {"query": "terraform state", "limit": 1}),
                         *notes[4:]]  # fmt: skip
    results = play(project, home, [*calls,
        ("memory_stats", {}),
        ("memory_search", {"query": "grpc deadlines", "from_date": "2026-01-01"}),
        ("memory_forget", {"key": "note-1", "action": "restore"}),
        ("memory_stats", {}),
    ])  # fmt: skip
    saved = [text_of(r) for r in results[: len(calls)]]
    assert "📦 Auto-archived 1: note-1" in saved[-2], saved[-2]  # moved at a remember
    assert "📦 Auto-archived 1: note-4" in saved[-1], saved[-1]
    assert results[-4].structured_content["active"] == 4
    assert "note-1" in text_of(results[-3])  # still searchable (a dated search reads the archive)
    assert not results[-2].is_error and results[-1].structured_content["active"] == 5


def test_max_entries_zero_turns_the_cap_off(places: tuple[Path, Path]) -> None:
    project, home = places
    folder = project / ".toon-memory" / "memory"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"autoArchive": {"maxEntries": 0}}))
    calls = [remember(f"note-{n}", f"Note number {n} about service {n}") for n in range(6)]
    results = play(project, home, [*calls, ("memory_archive", {}), ("memory_stats", {})])
    assert results[-1].structured_content["active"] == 6, text_of(results[-2])
