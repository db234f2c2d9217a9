"""Real Celery worker (and beat) processes for tests, on the test database and the real broker.

Tests that use them need committed data: mark them ``django_db(transaction=True)``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

BASE_DIR = Path(settings.BASE_DIR)


def test_database_url() -> str:
    """A DATABASE_URL naming the database this test process uses (the test database)."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        if not str(db["NAME"]).startswith("/"):
            raise RuntimeError("worker tests need the test database in a file, not in memory")
        return f"sqlite:///{db['NAME']}"
    user = quote(db.get("USER") or "")
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}{port}/{db['NAME']}"


def _die_with_parent() -> None:
    """On Linux, have the kernel kill the process when the test run dies (no orphan workers)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = test_database_url()
    env["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL
    env["PYTHONUNBUFFERED"] = "1"
    return env


class Proc:
    """A worker or beat process with its log."""

    def __init__(self, args: list[str], log: Path) -> None:
        self.log = log
        self._file = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *args],
            cwd=BASE_DIR,
            env=_env(),
            stdout=self._file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )

    def kill(self) -> None:
        """SIGKILL, as a crashed machine would."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        self._file.close()

    def output(self) -> str:
        self._file.flush()
        return self.log.read_text(errors="replace")


def purge_queues() -> None:
    """Drop messages left over from earlier runs (their database is gone)."""
    subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", "purge", "-f", "-Q", "default,games,bots"],
        cwd=BASE_DIR,
        env=_env(),
        capture_output=True,
        timeout=60,
        check=False,
    )


@contextmanager
def celery_workers(count: int = 1, *, beat: bool = True) -> Iterator[list[Proc]]:
    """Start ``count`` workers (one process each) and, with ``beat``, Celery beat."""
    folder = Path(tempfile.mkdtemp(prefix="luzi-workers-"))
    purge_queues()
    procs: list[Proc] = []
    try:
        for n in range(count):
            procs.append(start_worker(folder, f"w{n}"))
        if beat:
            procs.append(
                Proc(
                    ["beat", "-s", str(folder / "beat-schedule"), "--loglevel", "INFO"],
                    folder / "beat.log",
                )
            )
        yield procs
    finally:
        for proc in procs:
            proc.stop()


def start_worker(folder: Path, name: str) -> Proc:
    """One worker process (solo pool: SIGKILL takes it down whole) serving every queue."""
    return Proc(
        [
            "worker",
            "--pool",
            "solo",
            "-n",
            f"{name}-{os.getpid()}@%h",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
        ],
        folder / f"{name}.log",
    )


def wait_for(condition: Callable[[], bool], *, timeout: float, procs: list[Proc]) -> None:
    """Poll ``condition`` until true; on timeout fail with the processes' logs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.3)
    logs = "\n".join(f"--- {p.log.name}\n{p.output()[-3000:]}" for p in procs)
    raise AssertionError(f"timed out after {timeout} s\n{logs}")
