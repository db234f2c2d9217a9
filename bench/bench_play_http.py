"""Benchmark of online play over HTTP and WebSockets (issue: Online play). Prints figures only.

The real stack: an ASGI web server (uvicorn, ``--web-workers`` processes), one Celery worker
process, the database and the broker/channel layer named by the environment. Every table is of
one game (``--game``: daguai, the default, with tables of six; xiaoluzi or shanghai_doudizhu,
tables of four). Background load: ``--bot-tables`` all-bot tables playing long matches, each
deal in one task and then the pause a table makes between deals (``--bot-pause``, 5 s as by
default; 0 makes them play flat out, a simulation's pace, which takes a whole worker process).
Measured: ``--players`` simulated people, each alone with bots at a table, who wait for their
turn on their WebSocket and answer over HTTP (``POST /api/v1/tables/{id}/actions/``, the first
legal action: 大怪路子 in the ``{"action", "cards", "seq"}`` form, the other games sending the
state's legal action back as it is, with ``seq``); beside each table a spectator's WebSocket
watches. Figures:

- action round trip (POST until its 200 answer), p50 and p95 (target p95 <= 100 ms);
- push delay: from sending an action until a *spectator* of that table receives the state that
  includes it (target p95 <= 250 ms).

The client shares the machine, so it measures its own cost too: it runs in one event loop with no
threads (each player keeps one HTTP/1.1 connection open, as a browser does), and it reports its
CPU share and how late its event loop ran (a late loop would add to every figure above), and the
load average before and after.

Run it with PostgreSQL and Redis, as production would (the defaults below):

    .venv/bin/python bench/bench_play_http.py                      # 50 + 50 tables, 60 s
    .venv/bin/python bench/bench_play_http.py --players 10 --bot-tables 10 --seconds 20 --json
    .venv/bin/python bench/bench_play_http.py --game xiaoluzi      # 50 + 50 tables of four

It creates (and empties) the database ``luzi_bench_http`` unless DATABASE_URL is set.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/luzi_bench_http")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/4")
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # DEBUG off: a key is required
os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings",
    DEBUG="false",
    SECURE_SSL_REDIRECT="false",
    SECURE_COOKIES="false",
    ALLOWED_HOSTS="127.0.0.1,localhost",
    LOG_LEVEL=os.environ.get("LOG_LEVEL", "WARNING"),
)


from bench._db import ensure_database  # noqa: E402

ensure_database()

import django  # noqa: E402

django.setup()

import websockets  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import (  # noqa: E402
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,  # noqa: E402
)
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.core.management import call_command  # noqa: E402

from engine.registry import DEFAULT_GAME, get_game, registered_keys  # noqa: E402
from games.models import Deal, Match, Table  # noqa: E402
from games.play import services as play_services  # noqa: E402
from games.tables import services as tables_services  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_table(name: str, game: str, user: Any = None) -> Table:
    players = []
    for seat in range(get_game(game).seat_count):
        if seat == 0 and user is not None:
            players.append(tables_services.player_create(name=user.username, user=user))
        else:
            players.append(
                tables_services.player_create(
                    name=f"{name}-b{seat}", is_bot=True, bot_kind="heuristic"
                )
            )
    return tables_services.table_create(name=name, players=players, game=game)


def session_for(user: Any) -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        args, cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
    )


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


#: Seconds a WebSocket may take to open: a hundred open at once, and on a busy shared machine the
#: library's 10 s ended the whole run before anything was measured.
OPEN_TIMEOUT = 60


class Player:
    """One simulated person: waits for their turn on the WebSocket, answers over HTTP."""

    def __init__(
        self,
        base: str,
        table_id: int,
        session: str,
        csrf: str,
        think: float = 0.0,
        as_is: bool = False,
    ) -> None:
        self.as_is = as_is  # send the legal action back as the state lists it
        self.think = think  # seconds a person takes to choose, on average
        self.rng = random.Random(table_id)
        self.base = base
        self.table_id = table_id
        self.cookie = f"sessionid={session}; csrftoken={csrf}"
        self.csrf = csrf
        self.round_trips: list[float] = []
        self.sent: dict[tuple[int, int], float] = {}  # (deal, seq after) -> time sent
        self.errors: list[str] = []
        self.http: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post_action(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode()
        head = (
            f"POST /api/v1/tables/{self.table_id}/actions/ HTTP/1.1\r\n"
            f"Host: {self.base.split('://', 1)[1]}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nCookie: {self.cookie}\r\n"
            f"X-CSRFToken: {self.csrf}\r\n\r\n"
        )
        for attempt in (1, 2):  # the server may have closed an idle connection: open it again
            try:
                if self.http is None:
                    host, port = self.base.split("://", 1)[1].split(":")
                    self.http = await asyncio.open_connection(host, int(port))
                reader, writer = self.http
                writer.write(head.encode() + data)
                status, payload = await read_response(reader)
                return status, json.loads(payload or b"{}")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.http is not None:
            self.http[1].close()
            self.http = None

    async def play(self, until: float) -> None:
        uri = f"{self.base.replace('http', 'ws', 1)}/ws/tables/{self.table_id}/"
        async with websockets.connect(
            uri,
            origin=self.base,
            additional_headers={"Cookie": self.cookie},
            max_size=2**23,
            open_timeout=OPEN_TIMEOUT,
        ) as ws:
            acted: tuple[int, int] | None = None
            while time.monotonic() < until:
                try:
                    text = await asyncio.wait_for(
                        ws.recv(), timeout=max(0.1, until - time.monotonic())
                    )
                except TimeoutError:
                    return
                state = json.loads(text)["state"]
                deal, you = state.get("deal"), state.get("you") or {}
                key = (state["deal_number"], state["seq"])
                if not deal or 0 not in deal.get("awaiting", []) or not you.get("legal"):
                    continue
                if acted == key:
                    continue
                acted = key
                if self.think:  # a person looks at the cards first (0.5 to 1.5 times the mean)
                    await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                plays = [a for a in you["legal"] if a["kind"] != "pass"]
                choice = (plays or you["legal"])[0]
                if self.as_is:
                    body = {**choice, "seq": key[1]}
                else:
                    body = {
                        "action": choice["kind"],
                        "cards": choice.get("cards", ""),
                        "seq": key[1],
                    }
                sent = time.monotonic()
                self.sent[(key[0], key[1] + 1)] = sent
                status, _answer = await self.post_action(body)
                if status == 200:
                    self.round_trips.append(time.monotonic() - sent)
                elif status != 409:
                    self.errors.append(f"{status} {_answer.get('detail')}")


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """Read one HTTP/1.1 response (Content-Length or chunked): its status and body."""
    status = int((await reader.readuntil(b"\r\n")).split()[1])
    headers = {}
    while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        return status, await reader.readexactly(int(headers["content-length"]))
    body = b""
    while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
        body += (await reader.readexactly(size + 2))[:-2]
    await reader.readuntil(b"\r\n")
    return status, body


async def loop_lag(until: float, lags: list[float], step: float = 0.05) -> None:
    """How late the client's own event loop wakes up (its lateness adds to every figure)."""
    while time.monotonic() < until:
        due = time.monotonic() + step
        await asyncio.sleep(step)
        lags.append(time.monotonic() - due)


async def spectate(base: str, player: Player, until: float, delays: list[float]) -> None:
    """A spectator of the player's table: when a state shows the player's action, the delay."""
    uri = f"{base.replace('http', 'ws', 1)}/ws/tables/{player.table_id}/"
    async with websockets.connect(
        uri, origin=base, max_size=2**23, open_timeout=OPEN_TIMEOUT
    ) as ws:
        while time.monotonic() < until:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
            except TimeoutError:
                return
            now = time.monotonic()
            state = json.loads(text)["state"]
            seen = (state["deal_number"], state["seq"])
            for key in [k for k in player.sent if k <= seen]:  # this state includes the action
                delays.append(now - player.sent.pop(key))


async def measure(
    base: str, players: list[Player], seconds: float
) -> tuple[list[float], list[float]]:
    until = time.monotonic() + seconds
    delays: list[float] = []
    lags: list[float] = []
    await asyncio.gather(
        *(p.play(until) for p in players),
        *(spectate(base, p, until, delays) for p in players),
        loop_lag(until, lags),
    )
    for p in players:
        p.close()
    return delays, lags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", default=DEFAULT_GAME, choices=registered_keys(), help="the game (daguai)"
    )
    parser.add_argument("--players", type=int, default=50, help="people, one per table")
    parser.add_argument("--bot-tables", type=int, default=50, help="all-bot tables (load)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring time")
    parser.add_argument(
        "--bot-delay-ms", type=int, default=600, help="bots' think time (600, the default)"
    )
    parser.add_argument(
        "--think-ms", type=int, default=1000, help="people's mean think time (0: answer at once)"
    )
    parser.add_argument(
        "--bot-pause", type=int, default=5, help="all-bot tables' pause between deals (s)"
    )
    parser.add_argument("--web-workers", type=int, default=2, help="uvicorn processes")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    folder = Path(tempfile.mkdtemp(prefix="luzi-bench-http-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", "purge", "-f", "-Q", "default,games,bots"],
        cwd=ROOT, capture_output=True, check=False,
    )  # fmt: skip
    web = start(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log", "--log-level", "warning",
         "--workers", str(options.web_workers)],
        folder / "web.log",
    )  # fmt: skip
    worker = start(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
         "--loglevel", "WARNING", "-n", f"bench-http-{os.getpid()}@%h", "--without-gossip",
         "--without-mingle"],
        folder / "worker.log",
    )  # fmt: skip
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        User = get_user_model()
        bot_matches = [
            play_services.match_start(
                table=make_table(f"bots{n}", options.game),
                deals_per_match=50,
                bot_delay_ms=0,
                between_deals_seconds=options.bot_pause,
            )
            for n in range(options.bot_tables)
        ]
        players = []
        for n in range(options.players):
            user = User.objects.create_user(f"bench{n}")
            table = make_table(f"people{n}", options.game, user)
            play_services.match_start(
                table=table, deals_per_match=50, bot_delay_ms=options.bot_delay_ms, turn_seconds=60
            )
            players.append(
                Player(
                    base,
                    table.pk,
                    session_for(user),
                    secrets.token_hex(16),
                    think=options.think_ms / 1000,
                    as_is=options.game != DEFAULT_GAME,
                )
            )
        deals_before = Deal.objects.filter(status=Deal.Status.FINISHED).count()
        load_before = os.getloadavg()
        cpu_before = resource.getrusage(resource.RUSAGE_SELF)
        started = time.monotonic()
        delays, lags = asyncio.run(measure(base, players, options.seconds))
        elapsed = time.monotonic() - started
        cpu_after = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (
            cpu_after.ru_stime - cpu_before.ru_stime
        )
        load_after = os.getloadavg()
        deals = Deal.objects.filter(status=Deal.Status.FINISHED).count() - deals_before
        round_trips = [rt for p in players for rt in p.round_trips]
        errors = [e for p in players for e in p.errors]
        figures = {
            "game": options.game,
            "players": options.players,
            "web_workers": options.web_workers,
            "bot_tables": options.bot_tables,
            "bot_pause_seconds": options.bot_pause,
            "bot_delay_ms": options.bot_delay_ms,
            "think_ms": options.think_ms,
            "seconds": round(elapsed, 1),
            "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
            "channel_layer": settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1],
            "actions": len(round_trips),
            "actions_per_second": round(len(round_trips) / elapsed, 1),
            "round_trip_ms_p50": round(1000 * percentile(round_trips, 0.5), 1),
            "round_trip_ms_p95": round(1000 * percentile(round_trips, 0.95), 1),
            "push_delay_ms_p50": round(1000 * percentile(delays, 0.5), 1),
            "push_delay_ms_p95": round(1000 * percentile(delays, 0.95), 1),
            "pushes_measured": len(delays),
            "deals_finished": deals,
            "bot_matches": len(bot_matches),
            "errors": len(errors),
            "first_errors": errors[:3],
            "mean_round_trip_ms": round(1000 * statistics.fmean(round_trips), 1)
            if round_trips
            else None,
            "client_cpu_percent": round(100 * client_cpu / elapsed, 1),
            "client_loop_lag_ms_p95": round(1000 * percentile(lags, 0.95), 1),
            "client_loop_lag_ms_max": round(1000 * max(lags, default=float("nan")), 1),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
        }
        if Match.objects.filter(status=Match.Status.PLAYING).count() == 0:
            figures["note"] = "every match ended before the time was up"
    finally:
        stop(web)
        stop(worker)
    if options.json:
        print(json.dumps(figures))
        return
    print(
        f"{options.game}: {options.players} people over HTTP + {options.bot_tables} all-bot tables "
        f"(pausing {options.bot_pause} s between deals), "
        f"{options.web_workers} uvicorn process(es), "
        f"{figures['database']}, {figures['channel_layer']}, {figures['seconds']} s"
    )
    print(
        f"action round trip: p50 {figures['round_trip_ms_p50']} ms, "
        f"p95 {figures['round_trip_ms_p95']} ms (target p95 <= 100 ms); "
        f"{figures['actions']} actions, {figures['actions_per_second']}/s"
    )
    print(
        f"push to a spectator: p50 {figures['push_delay_ms_p50']} ms, "
        f"p95 {figures['push_delay_ms_p95']} ms (target p95 <= 250 ms); "
        f"{figures['pushes_measured']} measured"
    )
    print(f"deals finished meanwhile: {deals}; errors: {len(errors)} {errors[:3]}")
    print(
        f"client's own cost: {figures['client_cpu_percent']}% of a core, event loop late by "
        f"p95 {figures['client_loop_lag_ms_p95']} ms (max {figures['client_loop_lag_ms_max']} ms)"
    )
    print(
        f"load average before {figures['load_average_before']}, "
        f"after {figures['load_average_after']} (2 cores: others' work counts too)"
    )
    print(f"logs: {folder}")


if __name__ == "__main__":
    main()
