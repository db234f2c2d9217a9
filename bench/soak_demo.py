"""Soak test of the embedded broker under the demo's load (issue 11). Prints figures; exit 1 on a
loss.

What `make demo` runs, on the embedded defaults (a SQLite database and the SQLite broker, no
Redis): `load_demo`, one Celery worker with beat (`--concurrency 2`, as the demo), `demo_play`
(bots play the demo event round after round, 8 tables at a time) and a web process (uvicorn on
127.0.0.1) that a client reads the event's API from all along. For ``--minutes`` (default 15) the
worker and the web process are each killed (SIGKILL, worker pool and beat included) and started
again twice. Then the load stops, the matches in play are given ``--drain-minutes`` to finish, and
it checks that nothing was lost:

- every match of the event finished (or, after the drain, every unfinished one is still moving);
- `manage.py verify_records` replays every deal clean;
- the worker never died on its own (the filesystem broker's `Unrecoverable error`).

Everything lives in a folder of its own (``--dir``, default a new temporary one): the database file,
the broker file, the logs; the site's var/ is never touched. Only 127.0.0.1 is used.

    .venv/bin/python bench/soak_demo.py                 # 15 minutes, then the drain
    .venv/bin/python bench/soak_demo.py --minutes 3 --json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Set by Redis-backed set-ups; the soak is about the embedded defaults.
_SERVER_VARIABLES = ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "CHANNEL_LAYER_URL")


@dataclass
class Figures:
    minutes: float
    folder: str
    worker_restarts: int = 0
    web_restarts: int = 0
    worker_deaths_unplanned: int = 0
    worker_critical_lines: int = 0
    web_requests_ok: int = 0
    web_requests_failed: int = 0
    rounds_completed: int = 0
    matches: int = 0
    matches_finished: int = 0
    matches_still_moving: int = 0
    deals_played: int = 0
    actions: int = 0
    broker_messages_published: int = 0
    broker_messages_left: int = 0
    verify_records_ok: bool = False
    verify_records: str = ""
    lost: int = 0
    problems: list[str] = field(default_factory=list)


class Proc:
    """A process in a group of its own (a SIGKILL takes its children too), logging to a file."""

    def __init__(self, name: str, args: list[str], folder: Path) -> None:
        self.name = name
        self.args = args
        self.log = folder / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                self.args, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole group, as a crash would."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)

    def stop(self, timeout: float = 30.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # the group leader alone: it stops its children itself
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def manage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def get(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 (loopback only)
            response.read()
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def wait_until_up(base: str, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if get(f"{base}/healthz"):
            return True
        time.sleep(0.5)
    return False


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="load time (default 15)")
    parser.add_argument(
        "--drain-minutes",
        type=float,
        default=10.0,
        help="time the matches in play get to finish after the load (default 10)",
    )
    parser.add_argument("--dir", type=Path, help="working folder (default: a new temporary one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options = parser.parse_args(argv)
    if options.minutes <= 0 or options.drain_minutes < 0:
        parser.exit(2, "soak_demo: --minutes must be above 0 and --drain-minutes 0 or more\n")
    return options


def environment(folder: Path) -> None:
    for name in _SERVER_VARIABLES:
        os.environ.pop(name, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{folder / 'luzi.sqlite3'}",
        LUZI_BROKER_DIR=str(folder),  # the embedded broker: folder/broker.sqlite3
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        ALLOWED_HOSTS="127.0.0.1",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )


def main(argv: list[str] | None = None) -> int:
    options = arguments(argv)
    folder = (options.dir or Path(tempfile.mkdtemp(prefix="luzi-soak-"))).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    if (folder / "luzi.sqlite3").exists():
        print(f"soak_demo: {folder} already holds a database; give a new --dir", file=sys.stderr)
        return 2
    environment(folder)
    figures = Figures(minutes=options.minutes, folder=str(folder))

    for step in (("migrate", "--noinput"), ("load_demo",)):
        result = manage(*step)
        if result.returncode != 0:
            print(f"soak_demo: manage.py {step[0]} failed:\n{result.stderr}", file=sys.stderr)
            return 1

    import django

    django.setup()
    from django.db.models import Q
    from django.utils import timezone

    from games.models import Action, Deal, Match
    from tournaments.events.demo import EVENT_NAME, MEET_SLUG
    from tournaments.models import Event, Round

    event = Event.objects.get(meet__slug=MEET_SLUG, name=EVENT_NAME)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    python = sys.executable
    worker = Proc(
        "worker",
        [python, "-m", "celery", "-A", "config", "worker", "--beat", "--loglevel", "WARNING",
         "--concurrency", "2", "--schedule", str(folder / "celerybeat-schedule")],
        folder,
    )  # fmt: skip
    web = Proc(
        "web",
        [python, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port",
         str(port), "--log-level", "warning"],
        folder,
    )  # fmt: skip
    play = Proc("demo-play", [python, "manage.py", "demo_play", "--rounds", "15"], folder)
    procs = [worker, web, play]
    pages = [  # JSON only: HTML pages need `collectstatic` when DEBUG is off
        "/healthz",
        f"/api/v1/events/{event.pk}/",
        f"/api/v1/events/{event.pk}/standings/?kind=team",
        f"/api/v1/events/{event.pk}/rounds/",
        f"/api/v1/events/{event.pk}/standings/?kind=player",
    ]
    seconds = options.minutes * 60
    # (fraction of the load time, process): each is killed twice, never both at once.
    kills = sorted([(0.25, worker), (0.4, web), (0.6, worker), (0.8, web)], key=lambda k: k[0])
    try:
        if not wait_until_up(base):
            figures.problems.append("the web process did not come up")
        started = time.monotonic()
        request = 0
        while (elapsed := time.monotonic() - started) < seconds:
            if kills and elapsed >= kills[0][0] * seconds:
                _, proc = kills.pop(0)
                proc.kill()
                proc.start()
                if proc is worker:
                    figures.worker_restarts += 1
                else:
                    figures.web_restarts += 1
                    wait_until_up(base)
            if not worker.alive():  # died on its own: the failure this soak looks for
                figures.worker_deaths_unplanned += 1
                worker.kill()
                worker.start()
            if not play.alive() and play.process is not None and play.process.returncode != 0:
                figures.problems.append(f"demo_play exited {play.process.returncode}")
                break
            if get(base + pages[request % len(pages)]):
                figures.web_requests_ok += 1
            else:
                figures.web_requests_failed += 1
            request += 1
            time.sleep(1.0)

        play.stop()  # no new rounds; the matches in play go on
        drain_until = time.monotonic() + options.drain_minutes * 60
        matches = Match.objects.filter(table__pairing__round__event=event)
        while time.monotonic() < drain_until:
            if not matches.exclude(status=Match.Status.FINISHED).exists():
                break
            if not worker.alive():
                figures.worker_deaths_unplanned += 1
                worker.kill()
                worker.start()
            time.sleep(2.0)

        recent = timezone.now() - timedelta(seconds=60)
        unfinished = matches.exclude(status=Match.Status.FINISHED)
        moving = unfinished.filter(
            Q(updated_at__gte=recent)
            | Q(pk__in=Action.objects.filter(created_at__gte=recent).values("deal__match"))
        )
        figures.matches = matches.count()
        figures.matches_finished = matches.filter(status=Match.Status.FINISHED).count()
        figures.matches_still_moving = moving.count()
        figures.lost = unfinished.count() - figures.matches_still_moving
        figures.deals_played = Deal.objects.filter(
            match__in=matches, status=Deal.Status.FINISHED
        ).count()
        figures.actions = Action.objects.filter(deal__match__in=matches).count()
        figures.rounds_completed = Round.objects.filter(
            event=event, status=Round.Status.COMPLETED
        ).count()
    finally:
        for proc in procs:
            proc.stop()

    with sqlite3.connect(folder / "broker.sqlite3") as broker:
        # AUTOINCREMENT ids are never reused: the last one counts every message ever published.
        row = broker.execute(
            "SELECT seq FROM sqlite_sequence WHERE name = 'luzi_message'"
        ).fetchone()
        figures.broker_messages_published = int(row[0]) if row else 0
        left = broker.execute("SELECT count(*) FROM luzi_message").fetchone()
        figures.broker_messages_left = int(left[0])
    worker_log = worker.log.read_text(errors="replace")
    figures.worker_critical_lines = sum(
        1 for line in worker_log.splitlines() if "CRITICAL" in line or "Unrecoverable" in line
    )
    verify = manage("verify_records", "--event", str(event.pk))
    figures.verify_records_ok = verify.returncode == 0
    figures.verify_records = (verify.stdout.strip().splitlines() or [verify.stderr.strip()])[-1]

    if figures.matches_finished == 0:
        figures.problems.append("no match finished: the load never ran")
    if figures.lost:
        figures.problems.append(f"{figures.lost} matches stopped moving")
    if figures.worker_deaths_unplanned or figures.worker_critical_lines:
        figures.problems.append("the worker died on its own")
    if not figures.verify_records_ok:
        figures.problems.append("verify_records found problems")

    if options.json:
        print(json.dumps(asdict(figures), ensure_ascii=False))
    else:
        report(figures)
    return 1 if figures.problems else 0


def report(figures: Figures) -> None:
    values: dict[str, Any] = asdict(figures)
    print(f"soak_demo: {figures.minutes:g} minutes of the demo's load on the embedded defaults")
    for key in (
        "deals_played",
        "matches",
        "matches_finished",
        "matches_still_moving",
        "rounds_completed",
        "actions",
        "broker_messages_published",
        "broker_messages_left",
        "worker_restarts",
        "web_restarts",
        "worker_deaths_unplanned",
        "worker_critical_lines",
        "web_requests_ok",
        "web_requests_failed",
        "verify_records",
        "lost",
    ):
        print(f"  {key.replace('_', ' ')}: {values[key]}")
    print(f"  folder (logs, database, broker): {figures.folder}")
    for problem in figures.problems:
        print(f"  PROBLEM: {problem}")
    print("soak_demo: " + ("FAILED" if figures.problems else "ok, no message lost"))


if __name__ == "__main__":
    sys.exit(main())
