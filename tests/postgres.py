"""A throw-away PostgreSQL cluster for the team store's tests (``initdb`` in a temp folder).

It listens on a Unix socket in its own folder only (no TCP port to collide on, nothing
reachable from the network), runs as the ``postgres`` user when the tests run as root
(PostgreSQL refuses root), and is stopped when the test session ends; a watchdog process
stops it too if the test process dies without cleaning up, so no server outlives its tests.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The user the cluster is made for (trust authentication, socket only).
USER = "toon"


def binaries() -> Path | None:
    """The folder of initdb/pg_ctl: Debian's versioned folder, else PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if found:
        return Path(found[0]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_owner(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    runuser = shutil.which("runuser")
    if runuser is None:
        raise RuntimeError("running as root without runuser: PostgreSQL refuses to run as root")
    return [runuser, "-u", "postgres", "--", *cmd]


@dataclass
class Cluster:
    folder: Path
    bindir: Path
    watchdog: subprocess.Popen[bytes] | None = None

    @property
    def socket_dir(self) -> Path:
        return self.folder

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{USER}@/{dbname}?host={self.folder}"

    def start(self) -> None:
        data = self.folder / "data"
        subprocess.run(
            _as_owner([str(self.bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", USER,
                       "--no-sync", "-E", "UTF8", "--locale", "C"]),
            check=True, capture_output=True,
        )  # fmt: skip
        self._start_server()
        self.watchdog = subprocess.Popen(
            [sys.executable, "-c", _WATCHDOG, str(os.getpid()), *_as_owner(self._stop_cmd())],
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip

    def _start_server(self) -> None:
        data = self.folder / "data"
        options = (
            f"-k {self.folder} -h '' -c fsync=off -c synchronous_commit=off -c max_connections=200"
        )
        subprocess.run(
            _as_owner([str(self.bindir / "pg_ctl"), "-D", str(data), "-l",
                       str(self.folder / "log"), "-o", options, "-w", "start"]),
            check=True, capture_output=True,
        )  # fmt: skip

    def pause(self) -> None:
        """Stop the server, keeping its data (``resume`` starts it again)."""
        subprocess.run(_as_owner([str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"),
                                  "-m", "fast", "-w", "stop"]), capture_output=True, check=True)  # fmt: skip

    def resume(self) -> None:
        self._start_server()

    def _stop_cmd(self) -> list[str]:
        return [str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                "stop"]  # fmt: skip

    def stop(self) -> None:
        subprocess.run(_as_owner(self._stop_cmd()), capture_output=True, check=False)
        if self.watchdog is not None:
            self.watchdog.kill()
            self.watchdog.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


#: Waits for the test process to go away, then stops the cluster (argv: pid, stop command).
_WATCHDOG = """
import os, subprocess, sys, time
pid = int(sys.argv[1])
while True:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        break
    time.sleep(1)
subprocess.run(sys.argv[2:], capture_output=True)
"""


def start_cluster() -> Cluster | str:
    """A running cluster, or why there can be none here (the tests skip with it)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'toon-memory[team]')"
    bindir = binaries()
    if bindir is None:
        return "PostgreSQL's initdb is not installed (Debian: apt-get install postgresql)"
    folder = Path(tempfile.mkdtemp(prefix="tmpg", dir="/tmp"))
    folder.chmod(0o777)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    cluster = Cluster(folder, bindir)
    try:
        cluster.start()
    except (subprocess.CalledProcessError, RuntimeError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        shutil.rmtree(folder, ignore_errors=True)
        return f"could not start PostgreSQL: {exc} {detail.decode(errors='replace')[-300:]}"
    return cluster
