"""The viewer's HTTP app and its lifecycle: routes, guards, live events, stopping.

The app runs in a thread for the route tests; the lifecycle tests run the real
``toon-memory viewer`` in a subprocess (a pipe, a pty, signals, a parent that dies).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.adapters.viewer.helpers import build_fixture, start_viewer, stop_viewer
from tests.conftest import run_cli

from toon_memory.adapters.viewer.http import ViewerApp, ViewerServer
from toon_memory.adapters.viewer.page import asset
from toon_memory.adapters.viewer.watch import Changes, FileWatcher, signature
from toon_memory.memory.api import Memory


@pytest.fixture
def served(project: Path) -> Iterator[tuple[ViewerServer, Memory]]:
    memory = build_fixture(project)
    server = ViewerServer(ViewerApp(memory), 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server, memory
    server.app.changes.close()
    server.shutdown()
    server.server_close()


def _get(server: ViewerServer, path: str, method: str = "GET", **headers: str) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", server.app.port, timeout=10)
    conn.request(method, path, headers=headers)
    response = conn.getresponse()
    response.body = response.read()
    conn.close()
    return response


def test_it_listens_on_loopback_only(served: tuple[ViewerServer, Memory]) -> None:
    server, _ = served
    assert server.server_address[0] == "127.0.0.1"


def test_own_routes_only(served: tuple[ViewerServer, Memory]) -> None:
    server, memory = served
    page = _get(server, "/")
    assert page.status == 200 and page.getheader("Content-Type").startswith("text/html")
    assert b"/assets/viewer.js" in page.body
    d3 = _get(server, "/assets/d3.min.js")
    assert d3.status == 200 and d3.body == asset("d3.min.js")
    graph = json.loads(_get(server, "/api/graph").body)
    assert [e["id"] for e in graph["entries"]] == [e.id for e in memory.entries()]
    for path in ("/assets/index.html", "/assets/../page.py", "/assets/%2e%2e/page.py",
                 "/etc/passwd", "/api", "/api/graph/x", "//evil.example/"):  # fmt: skip
        assert _get(server, path).status == 404, path
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "PATCH", "HEAD"):
        assert _get(server, "/api/graph", method).status == 405, method


def test_foreign_host_or_origin_is_refused(served: tuple[ViewerServer, Memory]) -> None:
    server, _ = served
    port = server.app.port
    for headers in ({"Host": f"evil.example:{port}"}, {"Host": "evil.example"},
                    {"Host": f"127.0.0.1:{port + 1}"},
                    {"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": f"http://127.0.0.1:{port}.evil.example"}):  # fmt: skip
        for path in ("/", "/api/graph", "/api/events", "/assets/viewer.js"):
            assert _get(server, path, **headers).status == 403, (path, headers)
    assert _get(server, "/api/graph", Host=f"localhost:{port}").status == 200
    assert _get(server, "/api/graph", Origin=f"http://127.0.0.1:{port}").status == 200


def test_no_cors_and_a_strict_policy_on_every_answer(served: tuple[ViewerServer, Memory]) -> None:
    server, _ = served
    for response in (_get(server, "/"), _get(server, "/api/graph", Origin="http://evil.example"),
                     _get(server, "/nope"), _get(server, "/", "OPTIONS")):  # fmt: skip
        names = {name.lower() for name, _ in response.getheaders()}
        assert not {n for n in names if n.startswith("access-control-")}
        assert response.getheader("X-Content-Type-Options") == "nosniff"
        assert "default-src 'none'" in response.getheader("Content-Security-Policy")


def test_path_route_is_memory_graph_path(served: tuple[ViewerServer, Memory]) -> None:
    server, memory = served
    ids = [e.id for e in memory.entries()]
    for a in ids:
        for b in ids:
            body = json.loads(_get(server, f"/api/path?from={a}&to={b}").body)
            assert body == {"path": [e.id for e in memory.graph_path(a, b)]}
    missing = _get(server, "/api/path?from=auth-decision&to=nope")
    assert missing.status == 404 and "to_key" in json.loads(missing.body)["error"]
    assert _get(server, "/api/path?to=auth-decision").status == 400


def _events(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


def _read_until(sock: socket.socket, marker: bytes) -> bytes:
    data = b""
    while marker not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def test_a_write_from_another_process_is_an_event(served: tuple[ViewerServer, Memory],
                                                  project: Path) -> None:  # fmt: skip
    server, memory = served
    watcher = FileWatcher([memory.paths.data, memory.paths.journal], server.app.changes.bump, 0.05)
    watcher.start()
    sock = _events(server.app.port)
    try:
        head = _read_until(sock, b"event: hello")
        assert b"text/event-stream" in head and b"Access-Control" not in head
        run_cli("remember", "-c", "bug", "-k", "evt-one", "--content", "x", project=project,
                check=True)  # fmt: skip
        assert b"event: change" in _read_until(sock, b"event: change")
        graph = json.loads(_get(server, "/api/graph").body)
        assert "evt-one" in {e["key"] for e in graph["entries"]}
    finally:
        sock.close()
        watcher.stop()


def test_closing_stops_the_event_streams(served: tuple[ViewerServer, Memory]) -> None:
    server, _ = served
    with _events(server.app.port) as sock:
        _read_until(sock, b"event: hello")
        server.app.changes.close()
        rest = _read_until(sock, b"\x00never")
    assert b"event: change" not in rest  # the stream ended instead of waiting


def test_signature_and_changes(tmp_path: Path) -> None:
    target = tmp_path / "data.toon"
    before = signature([target])
    assert before == (None,)
    target.write_text("x")
    assert signature([target]) != before
    changes = Changes()
    assert changes.wait_past(0, 0.01) == 0
    threading.Timer(0.05, changes.bump).start()
    assert changes.wait_past(0, 10) == 1


# -- the real process -------------------------------------------------------------------
def _port_closed(url: str) -> bool:
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return True
    return False


def _ignored() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _blocked() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


@pytest.mark.parametrize(
    "inherited", [None, _ignored, _blocked], ids=["default", "ignored", "blocked"]
)
def test_ctrl_c_stops_cleanly(project: Path, inherited: Any) -> None:
    """Also when the viewer was started with SIGINT ignored or blocked (both are inherited
    across exec from whatever started it)."""
    viewer = start_viewer(project, preexec_fn=inherited)
    viewer.process.send_signal(signal.SIGINT)
    assert viewer.process.wait(timeout=20) == 0
    out = viewer.process.stdout.read() if viewer.process.stdout else ""
    assert "viewer stopped" in out
    assert "Traceback" not in (viewer.process.stderr.read() if viewer.process.stderr else "")
    stop_viewer(viewer)
    assert _port_closed(viewer.url)


def test_it_stops_when_its_input_closes_and_on_q(project: Path) -> None:
    viewer = start_viewer(project)
    assert stop_viewer(viewer) == 0  # closes the pipe it reads
    assert _port_closed(viewer.url)
    again = start_viewer(project)
    assert again.process.stdin is not None
    again.process.stdin.write("r\nq\n")
    again.process.stdin.flush()
    assert again.process.wait(timeout=20) == 0
    assert again.process.stdout is not None
    assert "reloaded from disk" in again.process.stdout.read()
    stop_viewer(again)


def test_it_stops_when_its_terminal_goes_away(project: Path) -> None:
    ptyprocess = pytest.importorskip("ptyprocess")
    env = dict(os.environ, TOON_MEMORY_PROJECT=str(project))
    child = ptyprocess.PtyProcessUnicode.spawn(
        [sys.executable, "-m", "toon_memory", "viewer", "--no-open"], env=env
    )
    seen = ""
    deadline = time.monotonic() + 60
    while "http://127.0.0.1:" not in seen and time.monotonic() < deadline:
        seen += child.read(200)
    assert "http://127.0.0.1:" in seen
    os.close(child.fd)  # the terminal window closes
    deadline = time.monotonic() + 20
    while child.isalive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not child.isalive()
    assert (child.exitstatus, child.signalstatus) == (0, None)  # a clean stop, not killed by SIGHUP


def test_it_stops_when_its_parent_dies(project: Path, tmp_path: Path) -> None:
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to see a zombie")
    out = tmp_path / "viewer.out"
    launcher = (
        "import subprocess, sys, time\n"
        f"p = subprocess.Popen([sys.executable, '-m', 'toon_memory', 'viewer', '--no-open'],"
        f" stdin=subprocess.DEVNULL, stdout=open({str(out)!r}, 'w'))\n"
        "print(p.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    env = dict(os.environ, TOON_MEMORY_PROJECT=str(project), PYTHONUNBUFFERED="1")
    parent = subprocess.Popen([sys.executable, "-c", launcher], stdout=subprocess.PIPE, text=True,
                              env=env)  # fmt: skip
    assert parent.stdout is not None
    pid = int(parent.stdout.readline())
    parent.stdout.close()
    deadline = time.monotonic() + 60
    while (
        "http://" not in (out.read_text() if out.exists() else "") and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    assert _alive(pid)
    parent.kill()
    parent.wait(timeout=10)
    deadline = time.monotonic() + 20
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), "the viewer outlived its parent"
    assert "viewer stopped" in out.read_text()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_a_busy_port_is_a_clear_error(project: Path) -> None:
    Memory(project)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run_cli("viewer", "--no-open", "--port", str(port), project=project)
    assert done.returncode == 2
    assert f"--port {port}" in done.stderr


def test_export_with_and_without_a_file_name(project: Path, tmp_path: Path) -> None:
    build_fixture(project)
    named = run_cli("viewer", "--export", str(tmp_path / "v.html"), project=project, check=True)
    assert "10 entries" in named.stdout and (tmp_path / "v.html").exists()
    env_cwd = subprocess.run(
        [sys.executable, "-m", "toon_memory", "viewer", "--export"], cwd=tmp_path,
        env=dict(os.environ, TOON_MEMORY_PROJECT=str(project)), capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert env_cwd.returncode == 0, env_cwd.stderr
    assert (tmp_path / "toon-memory-viewer.html").exists()
