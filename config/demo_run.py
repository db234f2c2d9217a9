"""`make demo`'s processes: the site (runserver), a Celery worker with beat (started again if it
dies) and the bots' play of the demo event; Ctrl-C stops them all within a few seconds.

Every child runs in a session (a process group) of its own, so Ctrl-C, which the terminal sends
to its whole foreground group, reaches only this supervisor, which stops them itself:

- the site and the bots' play get SIGINT, as they would from the terminal;
- the worker gets SIGQUIT, Celery's cold shutdown: running tasks are cut short, which is safe
  here (every task is idempotent, and the games watchdog queues the work of a stalled match
  again when a worker runs next);
- whatever still runs ``--grace`` seconds later is killed, with its whole group (the worker's
  pool and beat); a second Ctrl-C kills at once.

A worker that ends by itself is started again, never once stopping began. (Before, the shell
recipe let Ctrl-C reach the worker directly: it ended while the site was still stopping, the
recipe's loop started a new one, and that one then sat in a warm shutdown waiting for its tasks
for over 90 s, taking two more Ctrl-C to end.)

``python -m config.demo_run --port 8000`` (the Makefile passes its interpreter and port); the
commands can be replaced (``--site``, ``--worker``, ``--play``, each a shell-quoted command line)
to test the stop path without Django.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO

#: seconds between a Ctrl-C and killing what still runs
DEFAULT_GRACE = 3.0
_POLL = 0.1


@dataclass
class Child:
    """One process of the demo, in a session of its own."""

    name: str
    command: list[str]
    stop_signal: signal.Signals
    log: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        out: IO[bytes] | None = self.log.open("ab") if self.log is not None else None
        try:
            self.process = subprocess.Popen(
                self.command,
                stdout=out,
                stderr=subprocess.STDOUT if out is not None else None,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                env={**os.environ, **self.env},
            )
        finally:
            if out is not None:
                out.close()

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal_group(self, sig: signal.Signals) -> None:
        """Send ``sig`` to the child's whole group (its own pool and helpers too)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)

    def signal_main(self, sig: signal.Signals) -> None:
        if self.process is not None and self.running():
            self.process.send_signal(sig)  # Popen ignores a process already gone


class Supervisor:
    """Starts the children, starts the worker again when it dies, stops everything on a signal."""

    def __init__(self, *, site: Child, worker: Child, play: Child, grace: float) -> None:
        self.site, self.worker, self.play = site, worker, play
        self.grace = grace
        self.stop_asked = 0  # Ctrl-C (or SIGTERM) count

    def _asked(self, signum: int, frame: FrameType | None) -> None:
        self.stop_asked += 1

    def _say(self, text: str) -> None:
        print(f"make demo: {text}", file=sys.stderr, flush=True)

    def run(self) -> int:
        signal.signal(signal.SIGINT, self._asked)
        signal.signal(signal.SIGTERM, self._asked)
        try:
            self.worker.start()
            self.play.start()
            self.site.start()
            while not self.stop_asked and self.site.running():
                if not self.worker.running():
                    code = self.worker.process.returncode if self.worker.process else None
                    self._note_restart(code)
                    time.sleep(1)
                    if self.stop_asked:
                        break
                    self.worker.signal_group(signal.SIGKILL)  # what is left of the old one
                    self.worker.start()
                time.sleep(_POLL)
            return self.stop()
        finally:
            for child in self.children():
                child.signal_group(signal.SIGKILL)

    def _note_restart(self, code: int | None) -> None:
        if self.worker.log is None:
            return
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with self.worker.log.open("a", encoding="utf-8") as log:
            log.write(f"{stamp} make demo: the worker exited ({code}), starting it again\n")

    def children(self) -> tuple[Child, ...]:
        return (self.site, self.worker, self.play)

    def stop(self) -> int:
        """Stop every child: its stop signal, then SIGKILL for its group after the grace time
        (at once on a second Ctrl-C). Returns the site's exit status (0 when stopped)."""
        asked = self.stop_asked
        self._say("stopping…")
        for child in self.children():
            child.signal_main(child.stop_signal)
        deadline = time.monotonic() + self.grace
        while any(c.running() for c in self.children()):
            if time.monotonic() >= deadline or self.stop_asked > asked:
                for child in self.children():
                    if child.running():
                        self._say(f"{child.name} still ran after {self.grace:g} s: killed")
                    child.signal_group(signal.SIGKILL)
                break
            time.sleep(_POLL)
        for child in self.children():
            child.signal_group(signal.SIGKILL)  # a pool child or beat left behind
            if child.process is not None:
                child.process.wait()
        code = self.site.process.returncode if self.site.process is not None else 0
        return 0 if asked or code is None or code < 0 else code


def _command(text: str | None, default: Sequence[str]) -> list[str]:
    return shlex.split(text) if text else list(default)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.demo_run", description=__doc__)
    parser.add_argument("--port", default="8000")
    parser.add_argument("--var", type=Path, default=Path("var"), help="the folder of the logs")
    parser.add_argument("--grace", type=float, default=DEFAULT_GRACE)
    parser.add_argument("--rounds", default="2", help="rounds the bots play (demo_play)")
    parser.add_argument("--site", help="the site's command line (default: runserver)")
    parser.add_argument("--worker", help="the worker's command line (default: Celery with beat)")
    parser.add_argument("--play", help="the bots' play's command line (default: demo_play)")
    options = parser.parse_args(argv)
    py = sys.executable
    var: Path = options.var
    var.mkdir(parents=True, exist_ok=True)
    (var / "demo-worker.log").write_bytes(b"")
    worker = Child(
        "the worker",
        _command(
            options.worker,
            [py, "-m", "celery", "-A", "config", "worker", "--beat", "--loglevel", "WARNING"]
            + ["--concurrency", "2", "--schedule", str(var / "celerybeat-schedule")],
        ),
        signal.SIGQUIT,
        log=var / "demo-worker.log",
    )
    play = Child(
        "the bots' play",
        _command(options.play, [py, "manage.py", "demo_play", "--rounds", options.rounds]),
        signal.SIGINT,
        log=var / "demo-play.log",
    )
    (var / "demo-play.log").write_bytes(b"")
    site = Child(
        "the site",
        _command(
            options.site, [py, "manage.py", "runserver", "--noreload", f"127.0.0.1:{options.port}"]
        ),
        signal.SIGINT,
        env={"DEBUG": os.environ.get("DEBUG", "true")},
    )
    return Supervisor(site=site, worker=worker, play=play, grace=options.grace).run()


if __name__ == "__main__":
    sys.exit(main())
