"""Benchmark of the ratings (issue 29). Prints figures only.

Builds, in bulk, an individual 小路子 event of ``--players`` players (default 10,000) whose
``--matches`` tables (default 100,000) are finished with random points, then measures:

- ``formula``: one match's rating update by the formula alone (openskill), microseconds;
- ``rebuild``: ``ratings_rebuild`` of the game, seconds: reads every tally, numbers the rated
  matches, replays them in both scopes (all, public) and writes every rating and every change
  (target <= 60 s for 100,000 matches);
- ``update``: one more finished table rated as the hook does (``rated_matches_sync`` of its
  pairing, appended after the 100,000), median milliseconds;
- ``leaderboard``: the first page of ``/ratings/xiaoluzi/`` and of ``/api/v1/ratings/`` (and
  page 100), the number of queries and p50/p95 milliseconds over ``--requests`` requests in one
  process, one at a time.

It uses its own SQLite database under var/ unless DATABASE_URL says otherwise. Run:

    .venv/bin/python bench/bench_ratings.py [--players 10000] [--matches 100000] [--json]
    .venv/bin/python bench/bench_ratings.py --players 1000 --matches 5000      # a quick one
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = ROOT / "var" / "bench_ratings.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
GAME = "xiaoluzi"


def _setup(fresh: bool = True) -> None:
    if fresh and os.environ["DATABASE_URL"] == f"sqlite:///{DEFAULT_DB}":
        DEFAULT_DB.parent.mkdir(exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{DEFAULT_DB}{suffix}").unlink(missing_ok=True)
    else:
        from bench._db import ensure_database

        ensure_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build(players: int, matches: int, seed: int) -> tuple[int, list[int]]:
    """The event and its players, written in bulk; returns the event id and the player ids."""
    from django.db import transaction
    from django.utils import timezone

    from games.models import Match, Player, Table, TableSeat
    from tournaments.models import Event, Meet, Pairing, PairingTally, PlayerTally, Round

    rng = random.Random(seed)
    with transaction.atomic():
        meet = Meet.objects.create(name="Bench meet", slug=f"bench-{time.time_ns()}")
        event = Event.objects.create(meet=meet, name="Bench", game=GAME, status="running")
        people = Player.objects.bulk_create(Player(name=f"p{i}") for i in range(players))
    ids = [p.pk for p in people]
    per_round = players // 4
    now = timezone.now()
    number = 0
    made = 0
    while made < matches:
        number += 1
        count = min(per_round, matches - made)
        order = ids[:]
        rng.shuffle(order)
        with transaction.atomic():
            round_ = Round.objects.create(event=event, number=number, status="completed")
            tables = Table.objects.bulk_create(
                Table(name=f"R{number}·{n}", game=GAME, seat_count=4, mode="offline",
                      status="finished")
                for n in range(count)
            )  # fmt: skip
            TableSeat.objects.bulk_create(
                TableSeat(table=t, seat=s, player_id=order[4 * n + s])
                for n, t in enumerate(tables)
                for s in range(4)
            )
            points = []
            for _ in tables:
                p = [rng.randint(-8, 8) for _ in range(3)]
                points.append([*p, -sum(p)])
            ms = Match.objects.bulk_create(
                Match(table=t, game=GAME, status="finished", end_reason="deals_played",
                      points=points[n], finished_at=now)
                for n, t in enumerate(tables)
            )  # fmt: skip
            pairings = Pairing.objects.bulk_create(
                Pairing(round=round_, number=n + 1, table=t) for n, t in enumerate(tables)
            )
            tallies = PairingTally.objects.bulk_create(
                PairingTally(pairing=p, event=event, match=m, status="finished", fingerprint="b")
                for p, m in zip(pairings, ms, strict=True)
            )
            PlayerTally.objects.bulk_create(
                (
                    PlayerTally(tally=t, event=event, player_id=order[4 * n + s], seat=s,
                                points=points[n][s], deals=2)
                    for n, t in enumerate(tallies)
                    for s in range(4)
                ),
                batch_size=2000,
            )  # fmt: skip
        made += count
    return event.pk, ids


def _ms(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {
        "p50_ms": round(statistics.median(samples) * 1000, 2),
        "p95_ms": round(samples[int(0.95 * (len(samples) - 1))] * 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--pages-only",
        action="store_true",
        help="only the leaderboard, on the database built before",
    )
    parser.add_argument(
        "--reuse", action="store_true", help="measure on the event built before (no build)"
    )
    args = parser.parse_args()
    _setup(fresh=not (args.pages_only or args.reuse))
    if args.pages_only:
        out_pages: dict[str, object] = {}
        _serve(args, out_pages)
        print(json.dumps(out_pages) if args.json else out_pages)
        return
    from ratings import formula
    from ratings.models import RatedMatch
    from ratings.services import rated_matches_sync, ratings_rebuild

    out: dict[str, object] = {"players": args.players, "matches": args.matches}
    started = time.perf_counter()
    if args.reuse:
        from games.models import Player
        from tournaments.models import Event

        event_id = Event.objects.get(name="Bench").pk
        ids = list(Player.objects.filter(name__startswith="p").values_list("pk", flat=True))
    else:
        event_id, ids = build(args.players, args.matches, args.seed)
    out["build_s"] = round(time.perf_counter() - started, 1)
    print(f"built in {out['build_s']} s", file=sys.stderr)

    rng = random.Random(2)
    states: dict[int, formula.State] = {}
    started = time.perf_counter()
    for _ in range(10_000):
        four = rng.sample(ids, 4)
        states.update(formula.rate([[p] for p in four], [0, 1, 1, 3], states))
    out["formula_us_per_match"] = round((time.perf_counter() - started) / 10_000 * 1e6, 1)

    started = time.perf_counter()
    rated = ratings_rebuild(game=GAME)
    out["rebuild_s"] = round(time.perf_counter() - started, 1)
    out["rebuild_matches"] = rated
    print(f"rebuilt in {out['rebuild_s']} s", file=sys.stderr)

    # one more table finishes: rated as the hook's task does
    from games.models import Match, Table, TableSeat
    from tournaments.models import Pairing, PairingTally, PlayerTally, Round

    round_ = Round.objects.create(
        event_id=event_id, number=10_000 + Round.objects.filter(event_id=event_id).count(),
        status="running",
    )  # fmt: skip
    samples = []
    for n in range(20):
        table = Table.objects.create(name=f"extra {n}", game=GAME, seat_count=4, mode="offline")
        four = rng.sample(ids, 4)
        for s, p in enumerate(four):
            TableSeat.objects.create(table=table, seat=s, player_id=p)
        match = Match.objects.create(table=table, game=GAME, status="finished",
                                     end_reason="deals_played", points=[3, 1, -1, -3])  # fmt: skip
        pairing = Pairing.objects.create(round=round_, number=n + 1, table=table)
        tally = PairingTally.objects.create(
            pairing=pairing, event_id=event_id, match=match, status="finished"
        )
        for s, p in enumerate(four):
            PlayerTally.objects.create(
                tally=tally, event_id=event_id, player_id=p, seat=s, points=[3, 1, -1, -3][s]
            )
        started = time.perf_counter()
        rated_matches_sync(pairing_ids=[pairing.pk])
        samples.append(time.perf_counter() - started)
    out["update_ms_p50"] = round(statistics.median(samples) * 1000, 2)
    out["rated_after"] = RatedMatch.objects.filter(game=GAME).count()

    _serve(args, out)
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key}: {value}")


def _serve(args: argparse.Namespace, out: dict[str, object]) -> None:
    from django.conf import settings
    from django.test import Client, override_settings

    plain = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=plain, SECURE_SSL_REDIRECT=False, ALLOWED_HOSTS=["testserver"]):
        _pages(Client(), args, out)


class _Counter:
    """Counts the statements a request sends (a connection's execute wrapper)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.count += 1
        return execute(sql, params, many, context)


def _pages(client, args, out) -> None:  # type: ignore[no-untyped-def]
    from django.db import connection

    for name, url in [
        ("page", f"/ratings/{GAME}/"),
        ("api", f"/api/v1/ratings/?game={GAME}"),
        ("page_100", f"/ratings/{GAME}/?page=100"),
    ]:
        queries = _Counter()
        with connection.execute_wrapper(queries):
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        times = []
        for _ in range(args.requests):
            started = time.perf_counter()
            client.get(url)
            times.append(time.perf_counter() - started)
        out[f"leaderboard_{name}"] = {"queries": queries.count, **_ms(times)}


if __name__ == "__main__":
    main()
