"""Benchmark of standings (issue: tournament operations). Prints figures only.

Builds an event of 1,000 teams (3,000 players) with about 100,000 recorded deals (every match
scored by the engine from random finishing orders, written in bulk), rebuilds every tally once,
then measures:

- team, player and unit standings computed from the tallies: median milliseconds and the number
  of queries (target <= 200 ms, queries not growing with teams or deals);
- the public standings page and the standings API served by gunicorn (4 worker processes) under a
  small concurrent load (4 clients): p50 and p95 milliseconds (target p95 <= 100 ms). Computed
  standings, and the page's rendered table, are cached until a result changes
  (Event.results_version), so most requests reuse them; the figures above never do, nor does
  the page timed right after a result changed, one request at a time.

It uses its own SQLite database under var/ unless DATABASE_URL says otherwise. Run:

    .venv/bin/python bench/bench_standings.py [--teams 1000] [--deals 100000] [--requests 400]
    .venv/bin/python bench/bench_standings.py --teams 100 --deals 5000 --json      # a quick one
    .venv/bin/python bench/bench_standings.py --reuse --settle --no-http   # the event built before,
                                                  # vacuumed and analyzed as autovacuum would
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = ROOT / "var" / "bench_standings.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _setup(fresh: bool) -> None:
    if fresh and os.environ["DATABASE_URL"] == f"sqlite:///{DEFAULT_DB}":
        for suffix in ("", "-wal", "-shm"):
            Path(f"{DEFAULT_DB}{suffix}").unlink(missing_ok=True)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _finish(rng: random.Random) -> tuple[int, ...]:
    """A random finishing order, cut when one side has all three players out."""
    seats = list(range(6))
    rng.shuffle(seats)
    out: list[int] = []
    for seat in seats:
        out.append(seat)
        if sum(1 for s in out if s % 2 == seat % 2) == 3:
            break
    return tuple(out)


def build(teams: int, deals: int, deals_per_match: int, seed: int) -> int:
    """Create the event in bulk and return its id."""
    from django.db import transaction

    from engine.daguai.offline import OfflineEntry, score_match
    from games.models import Deal, FigureStep, Match, Player, Table, TableSeat
    from tournaments.draw.teams import PairingTeam, swiss_pair
    from tournaments.models import (
        Event,
        Meet,
        Pairing,
        PairingTally,
        Round,
        RoundEntry,
        Team,
        TeamMember,
        Unit,
    )

    rng = random.Random(seed)
    with transaction.atomic():
        meet = Meet.objects.create(name="Bench meet", slug=f"bench-{seed}-{time.time_ns()}")
        event = Event.objects.create(
            meet=meet, name="Bench event", deals_per_match=deals_per_match, status="running"
        )
        units = Unit.objects.bulk_create(
            Unit(name=f"bench-unit-{seed}-{i}-{time.time_ns()}") for i in range(50)
        )
        players = Player.objects.bulk_create(Player(name=f"p{i}") for i in range(teams * 3))
        team_rows = Team.objects.bulk_create(
            Team(event=event, name=f"team {i:04d}", unit=units[i % len(units)])
            for i in range(teams)
        )
        TeamMember.objects.bulk_create(
            TeamMember(team=t, event=event, player=players[3 * i + o], order=o, size=3)
            for i, t in enumerate(team_rows)
            for o in range(3)
        )
    members = {t.pk: [players[3 * i + o].pk for o in range(3)] for i, t in enumerate(team_rows)}
    met: dict[int, set[int]] = {t.pk: set() for t in team_rows}
    score = {t.pk: 0 for t in team_rows}
    recorded = 0
    number = 0
    while recorded < deals:
        number += 1
        order = sorted(score, key=lambda t: (-score[t], t))
        draw = swiss_pair([PairingTeam(t, unit=None, opponents=frozenset(met[t])) for t in order])
        with transaction.atomic():
            round_ = Round.objects.create(event=event, number=number, status="completed")
            tables = Table.objects.bulk_create(
                Table(name=f"R{number}·{n}", mode="offline", status="finished")
                for n in range(1, len(draw.tables) + 1)
            )
            seats, matches, scored_all = [], [], []
            for table, pair in zip(tables, draw.tables, strict=True):
                a, b = members[pair.team_a], members[pair.team_b]
                seats += [
                    TableSeat(table=table, seat=s, player_id=(a if s % 2 == 0 else b)[s // 2])
                    for s in range(6)
                ]
                scored = score_match(
                    first_dealer=rng.randrange(6),
                    entries=[OfflineEntry(_finish(rng)) for _ in range(deals_per_match)],
                )
                scored_all.append(scored)
                side_points = {"A": sum(scored.points[0::2]), "B": sum(scored.points[1::2])}
                winner = "" if scored.winner is None else scored.winner.value
                if not winner and side_points["A"] != side_points["B"]:
                    winner = "A" if side_points["A"] > side_points["B"] else "B"
                m = Match(
                    table=table,
                    deals_per_match=deals_per_match,
                    status="finished",
                    current_deal=len(scored.deals),
                    figures={"level": {"A": int(scored.levels.a), "B": int(scored.levels.b)}},
                    end_reason="passed_a" if scored.winner is not None else "deals_played",
                    winner=winner,
                    points=list(scored.points),
                    side_points=side_points,
                )
                matches.append(m)
                score[pair.team_a] += side_points["A"]
                score[pair.team_b] += side_points["B"]
                met[pair.team_a].add(pair.team_b)
                met[pair.team_b].add(pair.team_a)
            TableSeat.objects.bulk_create(seats)
            Match.objects.bulk_create(matches)
            deal_rows, steps = [], []
            for m, scored in zip(matches, scored_all, strict=True):
                for d in scored.deals:
                    row = Deal(
                        match=m,
                        number=d.number,
                        dealer_seat=d.dealer,
                        level_rank=d.level_rank,
                        seed="0",
                        status="finished",
                        finishing_order=list(d.result.finish),
                        result=d.result.to_json(),
                        points=list(d.result.points),
                        side_points={
                            "A": sum(d.result.points[0::2]),
                            "B": sum(d.result.points[1::2]),
                        },
                    )
                    deal_rows.append(row)
                steps += [
                    FigureStep(
                        match=m,
                        deal_number=i,
                        figures={"level": {"A": int(lv.a), "B": int(lv.b)}},
                    )
                    for i, lv in enumerate(scored.ladder)
                ]
            Deal.objects.bulk_create(deal_rows, batch_size=2000)
            FigureStep.objects.bulk_create(steps, batch_size=2000)
            recorded += len(deal_rows)
            pairings = Pairing.objects.bulk_create(
                Pairing(round=round_, number=n, table=t, team_a_id=p.team_a, team_b_id=p.team_b)
                for n, (t, p) in enumerate(zip(tables, draw.tables, strict=True), start=1)
            )
            RoundEntry.objects.bulk_create(
                [
                    RoundEntry(round=round_, team_id=team, pairing=p)
                    for p in pairings
                    for team in (p.team_a_id, p.team_b_id)
                ]
                + ([RoundEntry(round=round_, team_id=draw.bye)] if draw.bye is not None else [])
            )
            PairingTally.objects.bulk_create(PairingTally(pairing=p, event=event) for p in pairings)
    return event.pk


def measure_standings(event_id: int, repeat: int) -> dict[str, object]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Event
    from tournaments.standings.selectors import event_standings_rows
    from tournaments.standings.totals import (
        event_player_standings,
        event_team_standings,
        event_unit_standings,
    )

    event = Event.objects.get(pk=event_id)
    out: dict[str, object] = {}
    for name, fn in (
        ("team", event_team_standings),
        ("player", event_player_standings),
        ("unit", event_unit_standings),
    ):
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn(event=event)
            times.append((time.perf_counter() - start) * 1000)
        with CaptureQueriesContext(connection) as ctx:
            fn(event=event)
        out[f"{name}_standings_ms_median"] = round(statistics.median(times), 1)
        out[f"{name}_standings_queries"] = len(ctx.captured_queries)
    for kind in ("team", "player", "unit"):
        start = time.perf_counter()
        event_standings_rows(event=event, kind=kind)
        out[f"{kind}_rows_with_names_ms"] = round((time.perf_counter() - start) * 1000, 1)
    return out


def _settle() -> float:
    """VACUUM ANALYZE the database (PostgreSQL only), as autovacuum would after the bulk build and
    rebuild: without statistics the planner takes the event's 1,000 teams for a handful and joins
    them to their sums by a nested loop. Returns the seconds it took."""
    from django.db import connection

    start = time.perf_counter()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    return round(time.perf_counter() - start, 2)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def measure_http(event_id: int, requests: int, clients: int) -> dict[str, object]:
    port = _free_port()
    # Production settings serve static files from collectstatic's manifest.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "false"},
        check=True,
    )
    env = {**os.environ, "DEBUG": "false", "SECURE_SSL_REDIRECT": "false", "LOG_LEVEL": "WARNING"}
    env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # DEBUG off refuses the development key
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi",
            "--workers",
            "4",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    out: dict[str, object] = {}
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            except Exception:
                time.sleep(0.2)
        for name, path in (
            ("page", f"/events/{event_id}/standings/"),
            ("api", f"/api/v1/events/{event_id}/standings/?kind=team"),
        ):
            for _ in range(8):  # warm every worker
                urllib.request.urlopen(base + path, timeout=30).read()
            times: list[float] = []
            lock = threading.Lock()
            per_client = max(1, requests // clients)

            def client(
                path: str = path,
                per_client: int = per_client,
                lock: threading.Lock = lock,
                times: list[float] = times,
            ) -> None:
                for _ in range(per_client):
                    start = time.perf_counter()
                    with urllib.request.urlopen(base + path, timeout=30) as response:
                        response.read()
                        assert response.status == 200
                    with lock:
                        times.append((time.perf_counter() - start) * 1000)

            threads = [threading.Thread(target=client) for _ in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            times.sort()
            out[f"http_{name}_p50_ms"] = round(times[len(times) // 2], 1)
            out[f"http_{name}_p95_ms"] = round(times[int(len(times) * 0.95) - 1], 1)
            out[f"http_{name}_requests"] = len(times)
        out["http_page_after_a_result_ms_median"] = _page_after_a_result(base, event_id)
    finally:
        server.terminate()
        server.wait(timeout=10)
    return out


def _page_after_a_result(base: str, event_id: int, times: int = 10) -> float:
    """Median milliseconds of the standings page right after a result changed (nothing cached
    applies: the standings are computed and the table rendered), one request at a time."""
    from django.db.models import F

    from tournaments.models import Event

    spent = []
    for _ in range(times):
        Event.objects.filter(pk=event_id).update(results_version=F("results_version") + 1)
        start = time.perf_counter()
        urllib.request.urlopen(f"{base}/events/{event_id}/standings/", timeout=30).read()
        spent.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(spent), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--deals-per-match", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--requests", type=int, default=400, help="per endpoint")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--no-http", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--reuse", action="store_true", help="measure the event built by an earlier run"
    )
    parser.add_argument(
        "--settle",
        action="store_true",
        help="VACUUM ANALYZE before measuring (PostgreSQL; as autovacuum would after the bulk "
        "build and rebuild, which rewrites every player's total once per chunk of tables)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    _setup(fresh=not args.reuse)
    from tournaments.models import Event

    figures: dict[str, object] = {"database": os.environ["DATABASE_URL"].split(":")[0]}
    last = Event.objects.filter(name="Bench event").order_by("-pk").first()
    if args.reuse and last is not None:
        event_id = last.pk
    else:
        start = time.perf_counter()
        event_id = build(args.teams, args.deals, args.deals_per_match, args.seed)
        figures["build_seconds"] = round(time.perf_counter() - start, 1)
    figures["teams"] = Event.objects.get(pk=event_id).teams.count()

    from games.models import Deal
    from tournaments.models import Pairing
    from tournaments.results.services import tallies_refresh

    figures["deals"] = Deal.objects.filter(match__table__pairing__round__event_id=event_id).count()
    start = time.perf_counter()
    figures["tallies_rebuilt"] = tallies_refresh(
        pairings=Pairing.objects.filter(round__event_id=event_id)
    )
    figures["tallies_rebuild_seconds"] = round(time.perf_counter() - start, 2)
    start = time.perf_counter()
    tallies_refresh(pairings=Pairing.objects.filter(round__event_id=event_id))
    figures["tallies_check_unchanged_seconds"] = round(time.perf_counter() - start, 2)
    if args.settle:
        figures["settled_seconds"] = _settle()
    figures |= measure_standings(event_id, args.repeat)
    if not args.no_http:
        figures |= measure_http(event_id, args.requests, args.clients)
    figures["targets"] = "standings <= 200 ms, bounded queries; HTTP p95 <= 100 ms"
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>32}: {value}")


if __name__ == "__main__":
    main()
