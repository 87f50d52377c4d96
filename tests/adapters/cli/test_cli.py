"""The CLI contract outside checks rely on, run as real subprocesses."""

from __future__ import annotations

import json
from pathlib import Path

import toon_format
from tests.conftest import SHARED, run_cli


def test_remember_recall_export_contract(project: Path, tmp_path: Path) -> None:
    content = 'Smoke test: pipes | colons: and quotes " survive'
    run_cli("remember", "--category", "decision", "--key", "hook-smoke", "--content", content,
            "--tags", "smoke;test", "--file", "src/a.py", "--links", "other-key", "--ttl", "30d",
            "--importance", "high", project=project, check=True)  # fmt: skip
    run_cli(
        "remember",
        "-c",
        "bug",
        "-k",
        "unrelated",
        "-m",
        "Kafka consumer lag",
        project=project,
        check=True,
    )
    done = run_cli(
        "recall", "smoke test pipes", "--limit", "3", "--json", project=project, check=True
    )
    results = json.loads(done.stdout)["results"]
    assert results[0]["key"] == "hook-smoke" and results[0]["content"] == content
    assert {"key", "id", "category", "content", "score"} <= set(results[0])
    out = tmp_path / "out.json"
    run_cli("export", str(out), project=project, check=True)
    exported = {e["key"]: e for e in json.loads(out.read_text())["entries"]}
    assert exported["hook-smoke"]["tags"] == ["smoke", "test"]
    assert exported["hook-smoke"]["importance"] == "high"
    data = (project / ".toon-memory" / "memory" / "data.toon").read_text()
    assert toon_format.loads(data, strict=True)["entries"][0]["content"] == content


def test_exit_codes_and_errors_on_stderr(project: Path) -> None:
    bad = run_cli("remember", "--category", "nope", "--key", "k", "--content", "c", project=project)
    assert bad.returncode == 2 and "category" in bad.stderr and bad.stdout == ""
    missing = run_cli("get", "no-such-key", project=project)
    assert missing.returncode == 2 and "no-such-key" in missing.stderr
    usage = run_cli("remember", "--key", "k", project=project)
    assert usage.returncode == 2
    assert not (project / ".toon-memory" / "memory" / "data.toon").exists()


def test_corrupt_file_fails_clearly_and_restore_recovers(project: Path) -> None:
    run_cli(
        "remember", "-c", "decision", "-k", "keep-me", "-m", "precious", project=project, check=True
    )
    run_cli("backup", project=project, check=True)
    data = project / ".toon-memory" / "memory" / "data.toon"
    broken = data.read_text().replace("precious", '"precious')
    data.write_text(broken)
    failed = run_cli("remember", "-c", "decision", "-k", "x", "-m", "y", project=project)
    assert failed.returncode == 1 and "data.toon:3" in failed.stderr
    assert data.read_text() == broken
    doctor = run_cli("doctor", project=project)
    assert doctor.returncode == 1 and "data.toon" in doctor.stdout
    run_cli("restore", project=project, check=True)
    assert "precious" in run_cli("get", "keep-me", project=project, check=True).stdout
    assert list(data.parent.glob("data.toon.broken-*"))


def test_stats_json_and_import_of_plain_list(project: Path, tmp_path: Path) -> None:
    source = tmp_path / "list.json"
    source.write_text(
        json.dumps([{"key": "a", "content": "alpha"}, {"key": "b", "content": "beta"}])
    )
    done = run_cli("import", str(source), "--json", project=project, check=True)
    assert json.loads(done.stdout)["added"] == 2
    stats = json.loads(run_cli("stats", "--json", project=project, check=True).stdout)
    assert stats["active"] == 2


def test_project_discovery_from_a_subfolder(project: Path) -> None:
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "TOON_MEMORY_PROJECT"}
    subprocess.run([sys.executable, "-m", "toon_memory", "remember", "-c", "knowledge", "-k", "here",
                    "-m", "found the root"], cwd=sub, env=env, check=True, capture_output=True)  # fmt: skip
    assert (project / ".toon-memory" / "memory" / "data.toon").exists()


def test_demo_runs(tmp_path: Path) -> None:
    done = run_cli("demo", "--dir", str(tmp_path / "demo"), check=True)
    assert "redis-pool-timeout" in done.stdout


def test_imports_typescript_sample_files_when_shared_is_present(project: Path) -> None:
    import pytest

    samples = SHARED / "datasets" / "ts-samples"
    if not samples.is_dir():
        pytest.skip("../shared/datasets/ts-samples is not here (fresh clone)")
    for name, count in (("sgp-data.toon", 7), ("opencode-data.toon", 5)):
        done = run_cli("import", str(samples / name), "--json", project=project, check=True)
        report = json.loads(done.stdout)
        assert report["added"] + report["skipped"] == count, report
    stats = json.loads(run_cli("stats", "--json", project=project, check=True).stdout)
    assert stats["total"] == 11 and stats["active"] == 10


def test_search_filters_by_all_tags_and_category(project: Path) -> None:
    run_cli("remember", "-c", "bug", "-k", "a", "-m", "redis pool timeout", "--tags", "redis;prod",
            project=project, check=True)  # fmt: skip
    run_cli(
        "remember",
        "-c",
        "bug",
        "-k",
        "b",
        "-m",
        "redis cache miss",
        "--tags",
        "redis",
        project=project,
        check=True,
    )
    run_cli("remember", "-c", "decision", "-k", "c", "-m", "redis as the cache", "--tags", "redis;prod",
            project=project, check=True)  # fmt: skip
    done = run_cli("search", "redis", "--tags", "redis;prod", "--category", "bug", "--json",
                   "--budget-tokens", "0", project=project, check=True)  # fmt: skip
    assert [r["key"] for r in json.loads(done.stdout)["results"]] == ["a"]


def test_init_scans_dependencies_into_the_tag_vocabulary(project: Path) -> None:
    (project / "package.json").write_text(
        json.dumps({"dependencies": {"zod": "^3", "@prisma/client": "5"}})
    )
    (project / "requirements.txt").write_text("fastapi==0.110\n# comment\nsqlalchemy>=2\n")
    done = run_cli("init", "--json", project=project, check=True)
    assert {"zod", "client", "fastapi", "sqlalchemy"} <= set(json.loads(done.stdout)["vocab"])
    saved = run_cli("remember", "-c", "pattern", "-k", "schemas", "-m", "Every payload has a zod schema",
                    "--json", project=project, check=True)  # fmt: skip
    assert "zod" in json.loads(saved.stdout)["entry"]["tags"]
