"""`make demo`'s supervisor (config/demo_run.py, issue 26): Ctrl-C ends the whole demo within a
few seconds, even with a worker that ignores every signal but SIGKILL (as a Celery worker in a
warm shutdown waiting for its tasks did, for over 90 s), and a worker that dies by itself is
started again. Stand-in commands replace the site, the worker and the bots' play."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

STUBBORN = """
import os, signal, sys, time
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT):
    signal.signal(s, signal.SIG_IGN)
child = os.fork()
if child == 0:  # a pool process, as stubborn
    time.sleep(600)
    os._exit(0)
with open(sys.argv[1], "a") as f:
    f.write(f"{os.getpid()} {child}\\n")
time.sleep(600)
"""

SITE = """
import os, sys, time
with open(sys.argv[1], "a") as f:
    f.write(f"{os.getpid()}\\n")
time.sleep(600)
"""

DYING = """
import sys
with open(sys.argv[1], "a") as f:
    f.write("started\\n")
sys.exit(3)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


def wait_for(path: Path, lines: int, seconds: float = 30.0) -> list[str]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and len(found := path.read_text().split("\n")[:-1]) >= lines:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{path} did not get {lines} lines")


def start(tmp_path: Path, worker: str, *extra: str) -> subprocess.Popen[bytes]:
    """The supervisor as `make demo` starts it, in a process group of its own (a terminal's)."""
    py = shlex.quote(sys.executable)
    (tmp_path / "site.py").write_text(SITE)
    (tmp_path / "worker.py").write_text(worker)
    return subprocess.Popen(
        [sys.executable, "-m", "config.demo_run", "--var", str(tmp_path / "var"), *extra]
        + ["--site", f"{py} {tmp_path / 'site.py'} {tmp_path / 'site.pids'}"]
        + ["--worker", f"{py} {tmp_path / 'worker.py'} {tmp_path / 'worker.pids'}"]
        + ["--play", f"{py} {tmp_path / 'site.py'} {tmp_path / 'play.pids'}"],
        start_new_session=True,
        # Ctrl-C's default action, whatever the test runner's (a background job ignores it)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        stderr=subprocess.PIPE,
    )


def test_ctrl_c_ends_the_whole_demo_within_a_few_seconds(tmp_path: Path) -> None:
    supervisor = start(tmp_path, STUBBORN, "--grace", "1")
    worker, pool = map(int, wait_for(tmp_path / "worker.pids", 1)[0].split())
    site = int(wait_for(tmp_path / "site.pids", 1)[0])
    play = int(wait_for(tmp_path / "play.pids", 1)[0])
    began = time.monotonic()
    os.killpg(supervisor.pid, signal.SIGINT)  # Ctrl-C: the terminal's foreground group
    supervisor.wait(timeout=20)
    took = time.monotonic() - began
    assert took < 5, took
    assert supervisor.returncode == 0
    time.sleep(0.2)
    assert not [p for p in (worker, pool, site, play) if alive(p)]
    assert supervisor.stderr is not None
    said = supervisor.stderr.read().decode()
    assert "stopping" in said and "the worker still ran after 1 s: killed" in said
    assert len(wait_for(tmp_path / "worker.pids", 1)) == 1  # never started again


def test_a_worker_that_dies_is_started_again_until_ctrl_c(tmp_path: Path) -> None:
    supervisor = start(tmp_path, DYING, "--grace", "1")
    wait_for(tmp_path / "worker.pids", 2)  # it died and was started again
    os.killpg(supervisor.pid, signal.SIGINT)
    supervisor.wait(timeout=20)
    log = (tmp_path / "var" / "demo-worker.log").read_text()
    assert "the worker exited (3), starting it again" in log
    count = len(wait_for(tmp_path / "worker.pids", 1))
    time.sleep(1.5)
    assert len(wait_for(tmp_path / "worker.pids", 1)) == count  # none after the stop
