"""The team server: real ``toon-memory mcp --http --database`` processes on 127.0.0.1 over a
real PostgreSQL cluster, spoken to with the ``mcp`` SDK's streamable HTTP client.

Tokens (401), projects (403, 404), roles (a read token's write is a tool error), projects
kept apart, authors, three servers under concurrent writers losing nothing, and the agents'
hooks of two machines (``hook --server``) seeing each other's sessions through two servers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from tests.adapters.server.helpers import SERVER_CMD, TODAY, free_port, text_of, wait_listening

from toon_memory.errors import InputError
from toon_memory.memory.team import Team

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}}}  # fmt: skip
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
Spawn = Callable[..., int]


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "TOON_MEMORY_HOME": str(home), "TOON_MEMORY_TODAY": TODAY}
    for name in ("TOON_MEMORY_TOKEN", "TOON_MEMORY_DATABASE_URL", "TOON_MEMORY_PROJECT"):
        env.pop(name, None)
    return env


def _no_entry_cap(root: Path, project: str) -> None:
    """No 100-entry auto-archive in ``project``'s side folder (the writers add hundreds)."""
    folder = root / project / ".toon-memory" / "memory"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text('{"autoArchive": {"maxEntries": 0}}\n', encoding="utf-8")


@pytest.fixture
def team(team_database: str, tmp_path: Path) -> Team:
    return Team(team_database, tmp_path / "cli-home")


@pytest.fixture
def spawn(team_database: str, tmp_path: Path) -> Iterator[Spawn]:
    """Start team servers (``spawn()`` -> port); every one is stopped at the end."""
    procs: list[subprocess.Popen[str]] = []

    def start(*extra: str) -> int:
        port, n = free_port(), len(procs)
        root = tmp_path / f"server-{n}"
        _no_entry_cap(root, "acme")
        cmd = [*SERVER_CMD, "--http", "--host", "127.0.0.1", "--port", str(port),
               "--database", team_database, "--root", str(root), *extra]  # fmt: skip
        proc = subprocess.Popen(cmd, env=_env(tmp_path / "home"), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        procs.append(proc)
        wait_listening(port, proc)
        return port

    try:
        yield start
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate(timeout=15)


def _post(port: int, path: str, token: str | None) -> httpx2.Response:
    headers = {**ACCEPT, **({"Authorization": f"Bearer {token}"} if token else {})}
    return httpx2.post(f"http://127.0.0.1:{port}{path}", json=INIT, headers=headers, timeout=30)


async def _session_calls(
    port: int, project: str, token: str, calls: list[tuple[str, dict[str, Any]]]
) -> list[Any]:
    """One MCP session (the SDK client) making ``calls`` in order; their results."""
    path = "/mcp" if project == "default" else f"/mcp/{project}"
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=120) as http:
        transport = streamable_http_client(f"http://127.0.0.1:{port}{path}", http_client=http)
        async with Client(transport) as client:
            return [
                await (client.read_resource(args["uri"]) if name == "resource"
                       else client.call_tool(name, args))
                for name, args in calls
            ]  # fmt: skip


def _calls(port: int, project: str, token: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    async def play() -> list[Any]:
        return await _session_calls(port, project, token, list(calls))

    return anyio.run(play)


def _remember(key: str, content: str) -> tuple[str, dict[str, Any]]:
    return "memory_remember", {"category": "decision", "key": key, "content": content}


def _recall(query: str) -> tuple[str, dict[str, Any]]:
    return "memory_recall", {"query": query}


def _keys(result: Any) -> list[str]:
    return [row["key"] for row in result.structured_content["results"]]


def _rows(url: str, project: str) -> list[tuple[str, dict[str, Any]]]:
    with psycopg.connect(url) as conn:
        found = conn.execute(
            "SELECT key, row FROM entries WHERE project = %s AND row IS NOT NULL ORDER BY pos",
            (project,),
        ).fetchall()
    return [(key, row) for key, row in found]


def _author(row: dict[str, Any]) -> str:
    """``meta.author`` of a stored row (its ``meta`` column holds JSON text)."""
    meta = row["meta"]
    return str((json.loads(meta) if isinstance(meta, str) else meta).get("author", ""))


def test_tokens_and_projects_are_checked_before_mcp(team: Team, spawn: Spawn) -> None:
    port = spawn()
    everywhere = team.create_token("alice", "write").token
    acme_only = team.create_token("bob", "read", project="acme").token
    revoked = team.create_token("carol", "admin").token
    team.revoke_token("carol")
    assert _post(port, "/mcp/acme", None).status_code == 401
    assert _post(port, "/mcp/acme", "not-a-token").status_code == 401
    assert _post(port, "/mcp/acme", revoked).status_code == 401
    assert _post(port, "/mcp/acme", everywhere).status_code == 200
    assert _post(port, "/mcp", everywhere).status_code == 200
    assert _post(port, "/mcp/acme", acme_only).status_code == 200
    refused = _post(port, "/mcp/web", acme_only)
    assert refused.status_code == 403 and "acme" in refused.text
    assert _post(port, "/mcp", acme_only).status_code == 403
    assert _post(port, "/elsewhere", everywhere).status_code == 404
    assert _post(port, "/mcp/bad%20name", everywhere).status_code == 404
    assert _post(port, "/mcp/a/b", everywhere).status_code == 404
    team.revoke_token("alice")  # refused from the next request on
    assert _post(port, "/mcp/acme", everywhere).status_code == 401


def test_a_read_token_reads_and_its_writes_are_refused(
    team: Team, spawn: Spawn, team_database: str
) -> None:
    port = spawn()
    writer = team.create_token("alice", "write").token
    reader = team.create_token("ci", "read").token
    _calls(port, "acme", writer, _remember("team-db", "postgres for the team"))
    found, refused, tagged = _calls(port, "acme", reader, _recall("postgres"),
                                    _remember("sneaky", "a read token writing"),
                                    ("memory_tag", {"keys": "team-db", "action": "add",
                                                    "tags": "x"}))  # fmt: skip
    assert not found.is_error and _keys(found) == ["team-db"]
    for result in (refused, tagged):
        assert result.is_error
        assert "'ci' has role read" in text_of(result)
    assert [key for key, _ in _rows(team_database, "acme")] == ["team-db"]
    assert "x" not in _rows(team_database, "acme")[0][1]["tags"].split(";")


def test_projects_are_kept_apart(team: Team, spawn: Spawn, team_database: str) -> None:
    port = spawn()
    token = team.create_token("alice", "write").token
    for project in ("acme", "web", "default"):
        _calls(port, project, token, _remember(f"{project}-db", "the shared database choice"))
    for project in ("acme", "web", "default"):
        found, dump = _calls(port, project, token, _recall("database choice"),
                             ("resource", {"uri": "toon://memory/entries"}))  # fmt: skip
        assert _keys(found) == [f"{project}-db"]
        text = dump.contents[0].text
        assert f"{project}-db" in text and all(
            f"{p}-db" not in text for p in {"acme", "web", "default"} - {project}
        )
        assert [key for key, _ in _rows(team_database, project)] == [f"{project}-db"]


def test_a_write_through_one_server_is_recalled_through_another(team: Team, spawn: Spawn) -> None:
    first, second = spawn(), spawn()
    token = team.create_token("alice", "write").token
    (before,) = _calls(second, "acme", token, _recall("rollout"))  # second has the state
    assert _keys(before) == []
    _calls(first, "acme", token, _remember("rollout-plan", "canary rollout first"))
    (after,) = _calls(second, "acme", token, _recall("rollout"))  # the very next call
    assert _keys(after) == ["rollout-plan"]


def _index_rev(index: Path) -> int | None:
    """The revision a server's local index of a project describes (None: not there yet)."""
    import sqlite3

    from toon_memory.store.team.team_index import decode

    if not index.exists():
        return None
    with sqlite3.connect(f"file:{index}?mode=ro", uri=True) as conn:
        found = conn.execute("SELECT v FROM meta WHERE k = 'position'").fetchone()
    position = decode(str(found[0])) if found else None
    return None if position is None else position[1]


def test_a_write_through_one_server_reaches_another_servers_index_with_no_call(
    team: Team, spawn: Spawn, team_database: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    from toon_memory.store.paths import MemoryPaths
    from toon_memory.store.team.team_index import index_file

    first, second = spawn(), spawn()
    token = team.create_token("alice", "write").token
    (before,) = _calls(second, "acme", token, _recall("rollout"))  # second opens acme
    assert _keys(before) == []
    monkeypatch.setenv("TOON_MEMORY_HOME", str(tmp_path / "home"))  # the servers' home
    index = index_file(MemoryPaths.for_project(tmp_path / "server-1" / "acme"), team_database,
                       "acme")  # fmt: skip
    assert _index_rev(index) == 0
    _calls(first, "web", token, _remember("web-db", "a project the second never opened"))
    _calls(first, "acme", token, _remember("rollout-plan", "canary rollout first"))
    with psycopg.connect(team_database) as conn:
        rev = conn.execute("SELECT rev FROM projects WHERE name = 'acme'").fetchone()
    assert rev is not None and rev[0] >= 1
    deadline = time.monotonic() + 1.0  # pushed: within 1 s, with no call to the second
    while _index_rev(index) != rev[0] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _index_rev(index) == rev[0]
    # web's notice came first and was ignored: the second never opened web, and does not now
    assert not (tmp_path / "server-1" / "web").exists()
    (after,) = _calls(second, "acme", token, _recall("rollout"))
    assert _keys(after) == ["rollout-plan"]


def test_every_write_records_its_author_and_the_diff_shows_it(
    team: Team, spawn: Spawn, team_database: str
) -> None:
    port = spawn()
    alice = team.create_token("alice", "write").token
    bob = team.create_token("bob", "admin").token
    _calls(port, "acme", alice, _remember("db", "postgres"))
    _calls(port, "acme", bob, _remember("cache", "redis"),
           ("memory_pin", {"key": "db"}))  # fmt: skip
    rows = dict(_rows(team_database, "acme"))
    assert _author(rows["cache"]) == "bob"
    assert _author(rows["db"]) == "bob"  # the pin was bob's change
    assert rows["db"]["origin"] == "agent"
    diff, brief = _calls(port, "acme", alice, ("memory_diff", {"since": "7d"}),
                         ("context_diff", {"since": "7d"}))  # fmt: skip
    assert "cache (" in text_of(diff) and "— by bob" in text_of(diff)
    assert "redis — by bob" in text_of(brief)
    created = {e["key"]: e["meta"]["author"] for e in diff.structured_content["created"]}
    assert created == {"db": "bob", "cache": "bob"}


def test_three_servers_with_concurrent_writers_lose_nothing(
    team: Team, spawn: Spawn, team_database: str
) -> None:
    servers, clients, writes = 3, 4, 25
    ports = [spawn() for _ in range(servers)]
    tokens = [team.create_token(f"writer-{s}", "write").token for s in range(servers)]

    async def writer(s: int, c: int, results: list[Any]) -> None:
        calls = [_remember(f"s{s}-c{c}-w{w}", f"write {w} of client {c} on server {s}")
                 for w in range(writes)]  # fmt: skip
        results.extend(await _session_calls(ports[s], "acme", tokens[s], calls))

    async def play() -> list[Any]:
        results: list[Any] = []
        async with anyio.create_task_group() as group:
            for s in range(servers):
                for c in range(clients):
                    group.start_soon(writer, s, c, results)
        return results

    results = anyio.run(play)
    assert len(results) == servers * clients * writes
    assert [text_of(r) for r in results if r.is_error] == []
    rows = _rows(team_database, "acme")
    assert len({key for key, _ in rows}) == len(rows) == servers * clients * writes
    by_author: dict[str, int] = {}
    for key, row in rows:
        assert _author(row) == f"writer-{key[1]}"
        by_author[_author(row)] = by_author.get(_author(row), 0) + 1
    assert by_author == {f"writer-{s}": clients * writes for s in range(servers)}
    (found,) = _calls(ports[0], "acme", tokens[0], ("memory_stats", {}))
    assert found.structured_content["total"] == servers * clients * writes


def test_sigterm_stops_a_team_server_cleanly(team: Team, team_database: str,
                                             tmp_path: Path) -> None:  # fmt: skip
    port = free_port()
    cmd = [*SERVER_CMD, "--http", "--port", str(port), "--database", team_database,
           "--root", str(tmp_path / "root")]  # fmt: skip
    proc = subprocess.Popen(cmd, env=_env(tmp_path / "home"), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        wait_listening(port, proc)
        token = team.create_token("alice", "write").token
        _calls(port, "acme", token, _remember("db", "postgres"))
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert out == "" and token not in err
    assert "/mcp/<project>" in err and (tmp_path / "root" / "acme" / ".toon-memory").is_dir()


def _refused_start(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SERVER_CMD, *args], env=_env(home), text=True, capture_output=True,
                          timeout=60, check=False)  # fmt: skip


def test_plain_http_beyond_loopback_is_refused(team_database: str, tmp_path: Path) -> None:
    done = _refused_start(["--http", "--host", "0.0.0.0", "--port", str(free_port()),
                           "--database", team_database], tmp_path)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert "TLS" in done.stderr and "--insecure-http" in done.stderr


def test_the_insecure_flag_allows_another_host() -> None:
    from toon_memory.adapters.server.team_http import check_host

    check_host("10.0.0.5", insecure=True)
    check_host("127.0.0.1", insecure=False)
    with pytest.raises(InputError) as caught:
        check_host("10.0.0.5", insecure=False)
    assert caught.value.field == "host"


def test_a_database_without_team_init_is_refused_at_start(database: str, tmp_path: Path) -> None:
    done = _refused_start(["--http", "--port", str(free_port()), "--database", database],
                          tmp_path)  # fmt: skip
    assert done.returncode == 1 and "team init" in done.stderr


def test_database_needs_http(team_database: str, tmp_path: Path) -> None:
    done = _refused_start(["--database", team_database], tmp_path)
    assert done.returncode == 2 and "--http" in done.stderr


_NAMES = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", fullmatch=True)


@given(_NAMES)
def test_a_project_path_names_its_project(name: str) -> None:
    from toon_memory.adapters.server.team_http import project_of

    assert project_of(f"/mcp/{name}") == name
    assert project_of(f"/mcp/{name}/") == name
    assert project_of(f"/mcp/{name}/tools") is None
    assert project_of(f"/other/{name}") is None


@given(st.text(max_size=80))
def test_any_other_path_names_a_valid_project_or_none(path: str) -> None:
    from toon_memory.adapters.server.team_http import project_of

    found = project_of(path)
    if found is not None:
        assert path.rstrip("/") in ("/mcp", f"/mcp/{found}")
        assert 1 <= len(found) <= 64 and "/" not in found and not found.startswith(".")


def _hook(root: Path, action: str, payload: dict[str, Any], url: str,
          token: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """``toon-memory hook ACTION --agent claude --server URL`` run in ``root`` (a machine)."""
    env = {**_env(root / "home"), "TEAM_TOKEN": token}
    args = ["hook", action, "--agent", "claude", "--server", url, "--token-env", "TEAM_TOKEN"]
    return subprocess.run([*SERVER_CMD[:-1], *args], cwd=root, env=env, input=json.dumps(payload),
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def test_hooks_on_two_machines_see_each_others_sessions_through_two_servers(
    team: Team, spawn: Spawn, tmp_path: Path
) -> None:
    """Alice's agent hooks through one server, Bob's through another, one database: each
    sees the other's session and their soft conflict; Alice's stop ends hers for Bob too. A
    read token's session-start still gets the primer (its hook call is refused)."""
    ports = spawn(), spawn()
    tokens = [team.create_token(name, "write").token for name in ("alice", "bob")]
    _calls(ports[0], "acme", tokens[0], _remember("team-db", "postgres for the team"))
    told = []
    for n, name in enumerate(("alice", "bob")):
        root = tmp_path / name
        (root / ".git").mkdir(parents=True)
        url = f"http://127.0.0.1:{ports[n]}/mcp/acme"
        start = {"session_id": f"{name}-1", "hook_event_name": "SessionStart", "cwd": str(root)}
        edit = {**start, "hook_event_name": "PostToolUse", "tool_name": "Write",
                "tool_input": {"file_path": str(root / "src/db.py")}}  # fmt: skip
        for action, payload in (("session-start", start), ("post-tool", edit)):
            done = _hook(root, action, payload, url, tokens[n])
            assert done.returncode == 0 and done.stderr == "", done.stderr
            told.append(done.stdout)
    assert "team-db" in told[0] and "alice-1" in told[2] and told[1] == told[3] == ""
    (listed,) = _calls(ports[1], "acme", tokens[1], ("memory_sessions", {}))
    text = text_of(listed)
    assert "alice-1" in text and "bob-1" in text and "Soft conflicts (1)" in text, text
    assert "src/db.py" in text and str(tmp_path) not in text
    stop = _hook(tmp_path / "alice", "stop", {"session_id": "alice-1"},
                 f"http://127.0.0.1:{ports[0]}/mcp/acme", tokens[0])  # fmt: skip
    assert (stop.returncode, stop.stdout, stop.stderr) == (0, "", "")
    (after,) = _calls(ports[1], "acme", tokens[1], ("memory_sessions", {}))
    assert "No soft conflicts." in text_of(after), text_of(after)
    reader = team.create_token("ci", "read").token
    primed = _hook(tmp_path / "bob", "session-start", {"session_id": "ci-1"},
                   f"http://127.0.0.1:{ports[1]}/mcp/acme", reader)  # fmt: skip
    assert primed.returncode == 0 and "team-db" in primed.stdout, primed.stderr
    (last,) = _calls(ports[1], "acme", tokens[1], ("memory_sessions", {}))
    assert "ci-1" not in text_of(last) and "bob-1" in text_of(last)
