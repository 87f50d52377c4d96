"""``recall``/``remember``/``primer`` and the hooks with ``--server``: a real team server.

Every test runs the real CLI in a subprocess against a real ``toon-memory mcp --http``
on 127.0.0.1 (``teamserver.py``) with the token in an environment variable: what one
command remembers there, the next recalls and the session-start hook primes with, while
the caller's own project keeps no memory. A wrong or missing token, a dead port, a wrong
path and a tool error each give exit code != 0 and one clear line that names the URL (or
the variable) and never holds the token. The local path imports nothing of the client.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.adapters.cli.teamserver import TOKEN, TeamServer, dead_url, team_server
from tests.conftest import run_cli

from toon_memory.adapters.cli.hook_run import ACTIONS, HookLine, fast_argv


@pytest.fixture
def server(tmp_path: Path) -> TeamServer:  # type: ignore[misc]
    with team_server(tmp_path) as running:
        yield running


@pytest.fixture
def caller(tmp_path: Path) -> Path:
    """The project the CLI runs in: no memory of its own."""
    root = tmp_path / "caller"
    (root / ".git").mkdir(parents=True)
    return root


def cli(caller: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("TOON_MEMORY_TOKEN")}
    full.update(env)
    full.pop("TOON_MEMORY_PROJECT", None)
    return subprocess.run([sys.executable, "-m", "toon_memory", *args], cwd=caller, env=full,
                          input=stdin, capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def test_remember_then_recall_then_session_start_on_the_team_server(
    server: TeamServer, caller: Path
) -> None:
    saved = cli(caller, "remember", "-c", "decision", "-k", "team-db", "-m",
                "Postgres holds the team memory", "--server", server.url, TEAM_TOKEN=TOKEN,
                TOON_MEMORY_TOKEN="not-this-one")  # fmt: skip
    assert saved.returncode == 1  # the default variable holds a wrong token: refused
    saved = cli(caller, "remember", "-c", "decision", "-k", "team-db", "-m",
                "Postgres holds the team memory", "--server", server.url, "--token-env",
                "TEAM_TOKEN", TEAM_TOKEN=TOKEN)  # fmt: skip
    assert saved.returncode == 0, saved.stderr
    assert "team-db" in saved.stdout
    assert "team-db" in server.data
    found = cli(caller, "recall", "postgres", "--json", TOON_MEMORY_SERVER=server.url,
                TOON_MEMORY_TOKEN=TOKEN)  # fmt: skip
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["results"][0]["key"] == "team-db"
    payload = json.dumps({"session_id": "s1", "hook_event_name": "SessionStart",
                          "cwd": str(caller)})  # fmt: skip
    hook = cli(caller, "hook", "session-start", "--agent", "claude", "--server", server.url,
               stdin=payload, TOON_MEMORY_TOKEN=TOKEN)  # fmt: skip
    assert hook.returncode == 0 and hook.stderr == "", hook.stderr
    context = json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith(f"Team memory ({server.url}):") and "team-db" in context
    assert "s1" in context  # the sessions report: the hook's own session, now on the server
    assert not (caller / ".toon-memory").exists()


def _edit(session: str, root: Path, file: str) -> str:
    """A Claude PostToolUse payload: ``Edit`` of ``root/file``, with a secret in its input."""
    return json.dumps({"session_id": session, "hook_event_name": "PostToolUse", "cwd": str(root),
                       "tool_name": "Edit", "tool_input": {"file_path": str(root / file),
                       "description": "set password=hunter2-very-secret"}})  # fmt: skip


def _sessions(caller: Path, server: TeamServer) -> str:
    shown = cli(caller, "sessions", "--server", server.url, TOON_MEMORY_TOKEN=TOKEN)
    assert shown.returncode == 0, shown.stderr
    return shown.stdout


def test_post_tool_and_stop_act_on_the_server_sessions_two_machines_see_each_other(
    server: TeamServer, tmp_path: Path
) -> None:
    """Two callers (two machines' checkouts): their post-tool hooks record the same file on
    the server, which reports the soft conflict to both; stop ends a session there."""
    machines, told = [tmp_path / "alice", tmp_path / "bob"], []
    for n, root in enumerate(machines):
        (root / ".git").mkdir(parents=True)
        start = json.dumps({"session_id": f"s-{n}", "hook_event_name": "SessionStart",
                            "cwd": str(root)})  # fmt: skip
        for action, payload in (("session-start", start),
                                ("post-tool", _edit(f"s-{n}", root, "src/app.py"))):  # fmt: skip
            done = cli(root, "hook", action, "--agent", "claude", "--server", server.url,
                       stdin=payload, TOON_MEMORY_TOKEN=TOKEN)  # fmt: skip
            assert done.returncode == 0 and done.stderr == "", done.stderr
            assert (done.stdout == "") == (action == "post-tool")
            if action == "session-start":
                told.append(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])
    assert "s-1" not in told[0] and "s-0" in told[1]  # bob's start saw alice's session
    listed = _sessions(machines[1], server)
    assert "s-0" in listed and "s-1" in listed and "src/app.py" in listed, listed
    assert "Soft conflicts (1)" in listed and str(machines[0]) not in listed
    assert "hunter2" not in listed and not any((r / ".toon-memory").exists() for r in machines)
    stop = cli(machines[0], "hook", "stop", "--agent", "claude", "--server", server.url,
               stdin=json.dumps({"session_id": "s-0"}), TOON_MEMORY_TOKEN=TOKEN)  # fmt: skip
    assert (stop.returncode, stop.stdout, stop.stderr) == (0, "", "")
    after = _sessions(machines[1], server)
    assert "No soft conflicts." in after and "s-1" in after, after


def test_a_session_start_of_a_live_session_tells_nothing_twice(
    server: TeamServer, caller: Path
) -> None:
    """Only a start event (or a session's first beat) gets the context, as locally."""
    first = json.dumps({"session_id": "s9", "hook_event_name": "BeforeAgent"})
    hook = ["hook", "session-start", "--agent", "gemini", "--server", server.url]
    told = cli(caller, *hook, stdin=first, TOON_MEMORY_TOKEN=TOKEN)
    assert told.returncode == 0 and server.url in told.stdout, told.stderr
    again = cli(caller, *hook, stdin=first, TOON_MEMORY_TOKEN=TOKEN)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


def test_the_click_hook_path_and_the_primer_command_reach_the_server(
    server: TeamServer, caller: Path
) -> None:
    cli(caller, "remember", "-c", "pattern", "-k", "shared-schemas", "-m", "Zod schemas live "
        "in src/schemas", "--server", server.url, TOON_MEMORY_TOKEN=TOKEN)  # fmt: skip
    primer = cli(caller, "primer", "--server", server.url, TOON_MEMORY_TOKEN=TOKEN)
    assert primer.returncode == 0 and "shared-schemas" in primer.stdout, primer.stderr
    via_click = cli(caller, "--project", str(caller), "hook", "session-start", "--agent=codex",
                    f"--server={server.url}", stdin="{}", TOON_MEMORY_TOKEN=TOKEN)  # fmt: skip
    assert "shared-schemas" in via_click.stdout, via_click.stderr


def test_a_wrong_or_missing_token_is_refused_without_showing_it(
    server: TeamServer, caller: Path
) -> None:
    wrong = "wrong-token-8d1e2f3a4b5c"
    refused = cli(caller, "recall", "x", "--server", server.url, TOON_MEMORY_TOKEN=wrong)
    assert refused.returncode == 1
    assert refused.stderr.startswith("error: ") and "401" in refused.stderr
    assert "TOON_MEMORY_TOKEN" in refused.stderr and server.url in refused.stderr
    assert wrong not in refused.stderr + refused.stdout and TOKEN not in refused.stderr
    missing = cli(caller, "remember", "-c", "bug", "-k", "never-saved", "-m", "m", "--server",
                  server.url, "--token-env", "NO_SUCH_VAR")  # fmt: skip
    assert missing.returncode == 1 and "set NO_SUCH_VAR" in missing.stderr, missing.stderr
    hook = cli(caller, "hook", "session-start", "--server", server.url, stdin="{}",
               TOON_MEMORY_TOKEN=wrong)  # fmt: skip
    assert hook.returncode == 0 and hook.stdout == ""  # a hook never fails its agent
    assert "401" in hook.stderr and wrong not in hook.stderr
    assert "never-saved" not in server.data


def test_a_dead_port_and_a_wrong_path_name_the_url(server: TeamServer, caller: Path) -> None:
    url = dead_url()
    down = cli(caller, "recall", "anything", "--server", url, TOON_MEMORY_TOKEN=TOKEN)
    assert down.returncode == 1 and f"cannot reach the team server at {url}" in down.stderr
    wrong_path = server.url + "/no/such"
    lost = cli(caller, "recall", "anything", "--server", wrong_path, TOON_MEMORY_TOKEN=TOKEN)
    assert lost.returncode == 1 and f"no MCP endpoint at {wrong_path} (404)" in lost.stderr
    hook = cli(caller, "hook", "session-start", "--server", url, stdin="{}",
               TOON_MEMORY_TOKEN=TOKEN)  # fmt: skip
    assert hook.returncode == 0 and url in hook.stderr
    edit = cli(caller, "hook", "post-tool", "--server", url, stdin=_edit("s1", caller, "a.py"),
               TOON_MEMORY_TOKEN=TOKEN)  # fmt: skip
    assert (edit.returncode, edit.stdout) == (0, "") and len(edit.stderr.splitlines()) == 1
    assert url in edit.stderr and "post-tool" in edit.stderr


def test_tool_errors_and_bad_options_are_passed_through(server: TeamServer, caller: Path) -> None:
    bad = cli(caller, "recall", "x", "-n", "0", "--server", server.url, TOON_MEMORY_TOKEN=TOKEN)
    assert bad.returncode == 1 and "memory_recall" in bad.stderr and "'limit'" in bad.stderr
    url = cli(caller, "recall", "x", "--server", "ftp://example.com/mcp", TOON_MEMORY_TOKEN=TOKEN)
    assert url.returncode == 2 and url.stderr.startswith("error: server: "), url.stderr
    name = cli(caller, "recall", "x", "--server", server.url, "--token-env", "1BAD")
    assert name.returncode == 2 and "token_env" in name.stderr


@pytest.mark.parametrize(
    ("args", "parsed"),
    [(["session-start", "--server", "http://h/mcp"],
      HookLine("session-start", None, "http://h/mcp")),
     (["--token-env=T", "stop", "--agent", "codex", "--server=https://h/mcp/acme"],
      HookLine("stop", "codex", "https://h/mcp/acme", "T")),
     (["stop", "--server"], None), (["stop", "--server", "a", "--server", "b"], None)],
)  # fmt: skip
def test_fast_argv_takes_the_server_lines_init_writes(
    args: list[str], parsed: HookLine | None
) -> None:
    assert fast_argv(args) == parsed


VALUES = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)


@given(st.sampled_from(sorted(ACTIONS)), st.lists(st.booleans(), min_size=3, max_size=3),
       st.tuples(VALUES, VALUES, VALUES), st.lists(st.booleans(), min_size=3, max_size=3),
       st.randoms(use_true_random=False))  # fmt: skip
def test_fast_argv_reads_back_any_line_of_its_options(
    action: str, present: list[bool], values: tuple[str, str, str], joined: list[bool], rnd: Any
) -> None:
    """Whatever the values, their order and their ``--opt=value``/``--opt value`` form."""
    names = ("--agent", "--server", "--token-env")
    words: list[list[str]] = [[action]]
    for name, value, here, eq in zip(names, values, present, joined, strict=True):
        if here:
            words.append([f"{name}={value}"] if eq else [name, value])
    rnd.shuffle(words)
    expected = HookLine(
        action, *(v if here else None for v, here in zip(values, present, strict=True))
    )
    assert fast_argv([w for group in words for w in group]) == expected


CLI = "import sys; sys.argv[0] = 'toon-memory'; from toon_memory.adapters.cli.main import main; main()"


@pytest.mark.parametrize("args", [["recall", "zod"], ["remember", "-c", "bug", "-k", "k", "-m",
                                  "m"], ["hook", "session-start", "--agent", "claude"]])  # fmt: skip
def test_the_local_path_imports_no_client(args: list[str], project: Path) -> None:
    run_cli("init", "local", "--agents", "claude", "--yes", project=project, check=True)
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", CLI, *args], cwd=project,
                          input="{}", env={**os.environ, "TOON_MEMORY_PROJECT": str(project)},
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    loaded = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
              if line.startswith("import time:")]  # fmt: skip
    assert "toon_memory.adapters.cli.main" in loaded and done.returncode == 0, done.stderr[-500:]
    client = [name for name in loaded if name.startswith(("mcp", "httpx"))]
    assert client == [] and done.stdout, (client, done.stdout)
