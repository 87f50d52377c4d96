"""Health findings on a real project tree, and the 0-100 score."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tests.search.builders import entry

from toon_memory.model.entry import Entry
from toon_memory.rules.curation import Finding, health_findings, health_score
from toon_memory.rules.curation.health import KIND_CAP, WEIGHTS

TODAY = date(2026, 7, 15)


def exists_in(root: Path):  # type: ignore[no-untyped-def]
    def file_exists(path: str) -> bool:
        return any(root.glob(path)) if any(c in path for c in "*?[") else (root / path).exists()

    return file_exists


def test_each_kind_of_finding(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "db.py").write_text("x")
    entries = [
        entry(
            "migrations",
            "Run migrations before seeding",
            links=["db-seed", "pool"],
            file="src/db.py:12-20",
            date="2026-07-01",
        ),
        entry("pool", "Redis pool size stays at ten", file="src/legacy.ts", date="2026-07-01"),
        entry("pool-copy", "redis pool size stays at ten", date="2026-07-01", quality=0.0),
        entry("sprint", "Sprint deadline is Friday", ttl="2026-07-10"),
        entry("scoped", "Handlers validate input", path_scope="src/api/**", date="2026-07-01"),
        entry("scoped-ok", "DB layer is sync", path_scope="src/*.py", date="2026-07-01"),
        entry(
            "auth-old",
            "Auth tokens are JWT signed with HS256 and expire after one hour",
            category="decision",
            date="2026-01-01",
        ),
        entry(
            "auth-new",
            "Auth tokens are JWT signed with RS256 and expire after fifteen minutes, "
            "refresh tokens stored server side",
            category="decision",
            date="2026-06-01",
        ),
        entry(
            "gone", "old", status="obsolete", links=["nowhere"], ttl="2020-01-01", file="missing.py"
        ),
        entry("superseded-target", "kept for history", status="superseded"),
        entry(
            "points-to-history",
            "see the old one",
            links=["supersedes:superseded-target"],
            date="2026-07-01",
        ),
    ]
    findings = health_findings(entries, TODAY, exists_in(tmp_path), stale_sessions=2)
    got = [(f.kind, f.key, f.related) for f in findings]
    assert got == [
        ("orphan_link", "migrations", "db-seed"),
        ("duplicate", "pool-copy", "pool"),
        ("broken_file", "pool", "src/legacy.ts"),
        ("missing_evidence", "scoped", "src/api/**"),
        ("expired_ttl", "sprint", "2026-07-10"),
        ("stale_claim", "auth-old", "auth-new"),
        ("stale_session", "", ""),
    ]
    assert findings[-1].count == 2
    assert findings[0].detail == "migrations -> db-seed (key not found)"
    expected = 100 - sum(WEIGHTS[k] for k, _, _ in got) - WEIGHTS["stale_session"]
    assert health_score(findings) == expected


def test_a_clean_memory_scores_100(tmp_path: Path) -> None:
    entries = [
        entry("a", "Deploys run from main", date="2026-07-01"),
        entry("b", "Tests use pytest fixtures", date="2026-07-01", links=["a"]),
    ]
    assert health_findings(entries, TODAY, exists_in(tmp_path)) == []
    assert health_score([]) == 100


def test_score_caps_each_kind_and_never_goes_below_zero() -> None:
    many_orphans = [Finding("orphan_link", f"k{n}", "x") for n in range(100)]
    assert health_score(many_orphans) == 100 - KIND_CAP
    everything = [Finding(kind, "k", "x", count=50) for kind in WEIGHTS]
    assert health_score(everything) == max(0, 100 - KIND_CAP * len(WEIGHTS))
    assert health_score(everything) == 0
    assert health_score([Finding("broken_file", "k", "x")]) == 100 - WEIGHTS["broken_file"]


def test_stale_claims_need_one_category_two_days_and_no_link() -> None:
    from toon_memory.rules.curation.consolidate import category_sets
    from toon_memory.rules.curation.health import stale_claims as claims_in

    def stale_claims(entries: list[Entry]) -> list[Finding]:
        return claims_in(category_sets(entries))

    old = "Auth tokens are JWT signed with HS256 and expire after one hour"
    new = "Auth tokens are JWT signed with RS256 and expire after fifteen minutes, refresh later"
    pair = [entry("o", old, date="2026-01-01"), entry("n", new, date="2026-06-01")]
    assert [(f.key, f.related) for f in stale_claims(pair)] == [("o", "n")]
    assert stale_claims([pair[0], entry("n", new, date="2026-06-01", category="warning")]) == []
    assert stale_claims([pair[0], entry("n", new, date="2026-01-01")]) == []
    assert stale_claims([pair[0], entry("n", new, date="2026-06-01", links=["o"])]) == []
    assert stale_claims([pair[0], entry("n", old + " indeed", date="2026-06-01")]) == []  # a dup
