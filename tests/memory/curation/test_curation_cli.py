"""The curation commands through the real CLI (subprocesses): consolidate, reflect, promote, compress."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import run_cli
from tests.memory.curation.curating_helpers import seed, store_bytes

from toon_memory import Memory


@pytest.fixture
def seeded(project: Path) -> Path:
    seed(Memory(project))
    return project


def cli_json(project: Path, *args: str) -> Any:
    return json.loads(run_cli(*args, "--json", project=project, check=True).stdout)


def test_consolidate_dry_run_then_apply_then_restore(seeded: Path) -> None:
    before = store_bytes(seeded)
    text = run_cli("consolidate", "--mode", "similar", project=seeded, check=True).stdout
    assert "(dry run)" in text and "redis-pool" in text and "--apply" in text
    dry = cli_json(seeded, "consolidate", "--mode", "similar")
    assert store_bytes(seeded) == before
    (pair,) = dry["removals"]
    assert pair["action"] == "supersede" and 0.5 < pair["similarity"] < 1
    done = cli_json(seeded, "consolidate", "--mode", "similar", "--apply")
    assert done["applied"] == 1 and done["dry_run"] is False
    assert Memory(seeded).history(pair["key"])[0].status == "superseded"
    run_cli("forget", pair["key"], "--action", "restore", project=seeded, check=True)
    assert Memory(seeded).get(pair["key"]).active


def test_consolidate_versions_and_low_quality(seeded: Path) -> None:
    versions = cli_json(seeded, "consolidate", "--mode", "versions", "--apply")
    assert [(r["key"], r["keep"]) for r in versions["removals"]] == [
        ("react-setup", "react-upgrade")
    ]
    low = cli_json(seeded, "consolidate", "--mode", "low-quality", "--min-quality", "0.2")
    assert [r["key"] for r in low["removals"]] == ["vague-note"] and low["min_quality"] == 0.2
    nothing = run_cli("consolidate", "--mode", "identical", "--apply", project=seeded, check=True)
    assert "removed (soft)" in nothing.stdout
    again = run_cli("consolidate", project=seeded, check=True)
    assert "nothing to do" in again.stdout


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["consolidate", "--mode", "fuzzy", "--apply"], "mode"),
        (["consolidate", "--mode", "low-quality", "--min-quality", "2", "--apply"], "min_quality"),
        (["reflect", "--limit", "0"], "limit"),
        (["compress", "no-such-key", "--summary", "short"], "key"),
        (["compress", "redis-pool", "--summary", "  "], "summary"),
    ],
)
def test_bad_arguments_exit_2_and_write_nothing(seeded: Path, args: list[str], word: str) -> None:
    before = store_bytes(seeded)
    done = run_cli(*args, project=seeded)
    assert done.returncode == 2, done.stderr
    assert word in done.stderr
    assert store_bytes(seeded) == before


def test_reflect(seeded: Path) -> None:
    before = store_bytes(seeded)
    data = cli_json(seeded, "reflect", "--limit", "3")
    assert len(data["attention"]) <= 3 and data["attention"][0]["key"] == "vague-note"
    assert set(data) == {"attention", "tag_pairs", "contradictions"}
    text = run_cli("reflect", project=seeded, check=True).stdout
    assert text.startswith("🪞 Reflection:") and "vague-note" in text
    assert store_bytes(seeded) == before


def test_promote_dry_run_then_apply(seeded: Path) -> None:
    Memory(seeded).remember("knowledge", "ttl-guess", "Session cache TTL is probably five minutes",
                            confidence=0.5)  # fmt: skip
    before = store_bytes(seeded)
    dry = cli_json(seeded, "promote")
    assert [p["key"] for p in dry["promote"]] == ["ttl-guess"] and dry["applied"] == 0
    assert store_bytes(seeded) == before
    text = run_cli("promote", "--apply", project=seeded, check=True).stdout
    assert "ttl-guess (0.50 → 0.75)" in text
    assert Memory(seeded).get("ttl-guess").confidence == 0.75


def test_compress_with_a_summary(seeded: Path) -> None:
    done = cli_json(seeded, "compress", "api-port", "--summary", "API: port 8080, behind nginx.")
    assert done["status"] == "applied" and done["history_id"]
    versions = Memory(seeded).history("api-port")
    assert [v.content for v in versions] == [
        "API: port 8080, behind nginx.",
        "The API listens on port 8080 behind nginx",
    ]
