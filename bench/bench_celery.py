"""Benchmark of game play through Celery (issue: Celery runs the games). Prints figures only.

Starts one real worker process (solo pool), plays all-bot matches of one game (``--game``:
daguai, the default, xiaoluzi or shanghai_doudizhu) through it, then mixed tables (one silent
person, bots in the other seats), and reads the worker's own task timings from its log:

- all-bot deals per second per worker process (target >= 20): the worker first plays one match
  untimed (its imports and connections), then every timed match is started in one transaction,
  so the clock runs from the moment their first tasks are sent until the last match ends;
- worker time of one bot action at a mixed table, median and p95 (target <= 20 ms median);
- the ratio of an all-bot deal through Celery to the same deal played by the engine alone;
- the worker process's own CPU time per all-bot deal (``worker_cpu_ms_per_deal``): on a shared,
  busy machine the deals per second fall with the load, this much less (the database's work is
  not in it).

It uses its own database and broker unless told otherwise, e.g. with PostgreSQL and Redis:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/luzi_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/1 .venv/bin/python bench/bench_celery.py
    .venv/bin/python bench/bench_celery.py --tables 8 --json      # SQLite + the embedded broker
    .venv/bin/python bench/bench_celery.py --game shanghai_doudizhu   # tables of four

A PostgreSQL database named by DATABASE_URL is created when it does not exist yet.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench.sqlite3'}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench._db import ensure_database  # noqa: E402

ensure_database()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from engine.registry import DEFAULT_GAME, get_game, registered_keys  # noqa: E402
from games.models import Action, Deal, FigureStep, Match, Table  # noqa: E402
from games.play import services as play_services  # noqa: E402
from games.tables import services as tables_services  # noqa: E402

TASK_LINE = re.compile(r"Task (games\.\w+)\[[^\]]+\] succeeded in ([0-9.e-]+)s")


def bot_table(name: str, game: str, humans: int = 0) -> Table:
    players = [
        tables_services.player_create(name=f"{name}-p{s}")
        if s < humans
        else tables_services.player_create(name=f"{name}-b{s}", is_bot=True, bot_kind="heuristic")
        for s in range(get_game(game).seat_count)
    ]
    return tables_services.table_create(name=name, players=players, game=game)


def start_worker(log: Path) -> subprocess.Popen[bytes]:
    subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", "purge", "-f", "-Q", "default,games,bots"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
         "--loglevel", "INFO", "-n", f"bench-{os.getpid()}@%h", "--without-gossip",
         "--without-mingle"],
        cwd=ROOT,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait(match_ids: list[int], timeout: float, start: float) -> float:
    """Seconds from ``start`` until every match finished."""
    while time.monotonic() - start < timeout:
        done = Match.objects.filter(pk__in=match_ids, status=Match.Status.FINISHED).count()
        if done == len(match_ids):
            break
        time.sleep(0.1)
    return time.monotonic() - start


def engine_alone(game_key: str, deals: int, per_match: int = 3) -> float:
    """Seconds per deal, heuristic bots, no database: the engine's match played as the worker
    plays it (matches of ``per_match`` deals, each deal to its end)."""
    game = get_game(game_key)
    options = game.options_from_json({"deals_per_match": per_match})
    played = 0
    start = time.perf_counter()
    for seed in range(deals):
        match = game.new_match(seed=seed, options=options)
        bots = [game.bot("heuristic", f"{seed}:{s}") for s in range(game.seat_count)]
        while not match.over and played < deals:
            match.start_deal()
            while match.in_deal:
                for seat in match.awaiting():
                    match.apply(bots[seat].act(match, seat))
                    if not match.in_deal:
                        break
            played += 1
        if played >= deals:
            break
    return (time.perf_counter() - start) / max(played, 1)


def settle() -> None:
    """On PostgreSQL, VACUUM ANALYZE the card room's tables first: runs pile up in the bench's
    database, and where autovacuum is off (as on the shared machine) their dead rows slowed every
    statement: 26-37 all-bot deals/s against 50-53 on the same code with a fresh database."""
    if django.db.connection.vendor != "postgresql":
        return
    tables = [model._meta.db_table for model in (Match, Deal, Table, Action, FigureStep)]
    with django.db.connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'VACUUM ANALYZE "{table}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", default=DEFAULT_GAME, choices=registered_keys(), help="the game (daguai)"
    )
    parser.add_argument("--tables", type=int, default=40, help="all-bot tables (3 deals each)")
    parser.add_argument("--mixed", type=int, default=8, help="mixed tables (one silent person)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    settle()
    folder = Path(tempfile.mkdtemp(prefix="luzi-bench-"))
    log = folder / "worker.log"
    worker = start_worker(log)
    load_before = os.getloadavg()
    try:
        time.sleep(3)  # let the worker connect
        stamp = int(time.time())
        # one match first, not timed: a worker runs for hours, and its first tasks' imports and
        # connections are not its pace
        warm = play_services.match_start(
            table=bot_table(f"bench-{stamp}-warm", args.game),
            seed=999,
            deals_per_match=3,
            bot_delay_ms=0,
            between_deals_seconds=0,
        )
        wait([warm.pk], 600, time.monotonic())
        time.sleep(0.5)  # its last task's line written
        timed_from = log.stat().st_size  # task timings are read from here on
        tables = [bot_table(f"bench-{stamp}-{i}", args.game) for i in range(args.tables)]
        # every match is started in one transaction: their first tasks are sent together at its
        # commit, and the clock starts then, so the figure is the worker's pace alone (before,
        # the matches were started one by one while the worker played them, and the figure also
        # timed this process starting them)
        with transaction.atomic():
            matches = [
                play_services.match_start(
                    table=table, seed=i, deals_per_match=3, bot_delay_ms=0, between_deals_seconds=0
                ).pk
                for i, table in enumerate(tables)
            ]
            cpu_before = cpu_seconds(worker.pid)
            start = time.monotonic()  # the commit sends the first tasks
        seconds = wait(matches, 600, start)
        worker_cpu = cpu_seconds(worker.pid) - cpu_before
        deals = Deal.objects.filter(match_id__in=matches).count()
        mixed = [
            play_services.match_start(
                table=bot_table(f"bench-{stamp}-m{i}", args.game, humans=1),
                seed=100 + i,
                deals_per_match=1,
                turn_seconds=1,
                bot_delay_ms=0,
            ).pk
            for i in range(args.mixed)
        ]
        wait(mixed, 600, time.monotonic())
        time.sleep(1)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(30)
    timings: dict[str, list[float]] = {}
    timed = log.read_bytes()[timed_from:].decode(errors="replace")
    for name, value in TASK_LINE.findall(timed):
        timings.setdefault(name, []).append(float(value) * 1000)
    bot_ms = sorted(timings.get("games.bot_turn", [0.0]))
    deal_ms = sorted(timings.get("games.bot_deal", [0.0]))
    alone = engine_alone(args.game, 50)
    celery_per_deal = seconds / max(deals, 1)
    results = {
        "game": args.game,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "database": django.db.connection.vendor,
        "broker": os.environ.get("CELERY_BROKER_URL", "embedded sqlite (default)").split(":")[0],
        "all_bot_tables": args.tables,
        "all_bot_deals": deals,
        "all_bot_seconds": round(seconds, 2),
        "all_bot_deals_per_second_per_worker": round(deals / seconds, 1),
        # the worker's own CPU time per deal (not the database's): what one worker process with a
        # core of its own would take, however busy a shared machine is
        "worker_cpu_ms_per_deal": round(1000 * worker_cpu / max(deals, 1), 1),
        "bot_deal_task_median_ms": round(statistics.median(deal_ms), 1),
        "bot_action_tasks": len(bot_ms),
        "bot_action_worker_ms_median": round(statistics.median(bot_ms), 2),
        "bot_action_worker_ms_p95": round(bot_ms[int(0.95 * (len(bot_ms) - 1))], 2),
        "engine_alone_ms_per_deal": round(alone * 1000, 2),
        "celery_ms_per_deal": round(celery_per_deal * 1000, 2),
        "celery_to_engine_ratio": round(celery_per_deal / alone, 2),
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for key, value in results.items():
        print(f"{key:>38}: {value}")


if __name__ == "__main__":
    main()
