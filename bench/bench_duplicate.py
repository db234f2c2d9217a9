"""Benchmark of a duplicate event's standings (issue 17). Prints figures only.

Builds a duplicate 大怪路子 team event of 1,000 teams: 500 tables a round, 10 deals per match,
``--rounds`` rounds (the last one still running: each table has finished between half and all
of its deals, so the publication rule holds back the deals not every table has played). Rows are
written in bulk, as bench_standings.py does (every deal scored by the engine from random finishing
orders); each round's deals carry one seed, as a duplicate round's do. Then it measures, one at a
time and never from a cache:

- the tallies' refresh of the running round (the deals counted only once every table finished
  them) when nothing changed, and when the tables furthest behind finish a deal, so that the
  deal is published and every table's tally moves at once: milliseconds and queries;
- the duplicate scores of the whole event (datum and matchpoints): milliseconds and queries;
- the team, player and unit standings rows with the duplicate score (what the page and the API
  read): median milliseconds and queries.

It uses its own SQLite database under var/ unless DATABASE_URL says otherwise. Run:

    .venv/bin/python bench/bench_duplicate.py [--tables 500] [--deals 10] [--rounds 3] [--json]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/luzi_bench .venv/bin/python \
        bench/bench_duplicate.py
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
DEFAULT_DB = ROOT / "var" / "bench_duplicate.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _setup() -> None:
    if os.environ["DATABASE_URL"] == f"sqlite:///{DEFAULT_DB}":
        DEFAULT_DB.parent.mkdir(exist_ok=True)
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


def build(tables: int, deals: int, rounds: int, seed: int) -> int:
    """Create the event in bulk and return its id."""
    from django.db import transaction

    from engine.daguai.actions import Rules
    from engine.daguai.offline import OfflineEntry, score_match
    from engine.errors import EngineError
    from games.models import Deal, FigureStep, Match, Player, Table, TableSeat
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
    rules = Rules(deals_per_match=deals)
    teams = 2 * tables
    with transaction.atomic():
        meet = Meet.objects.create(name="Bench meet", slug=f"bench-dup-{time.time_ns()}")
        event = Event.objects.create(
            meet=meet,
            name="Bench duplicate",
            deals_per_match=deals,
            status="running",
            duplicate=True,
        )
        units = Unit.objects.bulk_create(
            Unit(name=f"bench-dup-unit-{i}-{time.time_ns()}") for i in range(50)
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
    ids = [t.pk for t in team_rows]
    for number in range(1, rounds + 1):
        running = number == rounds
        rng.shuffle(ids)
        pairs = [(ids[2 * i], ids[2 * i + 1]) for i in range(tables)]
        round_seed = rng.getrandbits(62)
        with transaction.atomic():
            round_ = Round.objects.create(
                event=event,
                number=number,
                status="running" if running else "completed",
                deal_seed=round_seed,
            )
            table_rows = Table.objects.bulk_create(
                Table(name=f"R{number}·{n}", mode="offline", status="finished")
                for n in range(1, tables + 1)
            )
            seats, matches, scored_all = [], [], []
            for table, (a_id, b_id) in zip(table_rows, pairs, strict=True):
                a, b = members[a_id], members[b_id]
                seats += [
                    TableSeat(table=table, seat=s, player_id=(a if s % 2 == 0 else b)[s // 2])
                    for s in range(6)
                ]
                played = rng.randrange(deals // 2, deals + 1) if running else deals
                dealer = rng.randrange(6)
                entries = [OfflineEntry(_finish(rng)) for _ in range(played)]
                while True:
                    try:
                        scored = score_match(first_dealer=dealer, entries=entries, rules=rules)
                        break
                    except EngineError:  # passed A (过A) before the last entry: fewer deals
                        entries = entries[:-1]
                        played = len(entries)
                scored_all.append(scored)
                side_points = {"A": sum(scored.points[0::2]), "B": sum(scored.points[1::2])}
                over = scored.end is not None
                winner = "" if scored.winner is None else scored.winner.value
                if over and not winner and side_points["A"] != side_points["B"]:
                    winner = "A" if side_points["A"] > side_points["B"] else "B"
                matches.append(
                    Match(
                        table=table,
                        deals_per_match=deals,
                        seed=round_seed,
                        status="finished" if over else "playing",
                        current_deal=len(scored.deals),
                        figures={"level": {"A": int(scored.levels.a), "B": int(scored.levels.b)}},
                        end_reason=(
                            ("passed_a" if scored.winner is not None else "deals_played")
                            if over
                            else ""
                        ),
                        winner=winner if over else "",
                        points=list(scored.points),
                        side_points=side_points,
                    )
                )
            TableSeat.objects.bulk_create(seats, batch_size=2000)
            Match.objects.bulk_create(matches)
            deal_rows, steps = [], []
            for m, scored in zip(matches, scored_all, strict=True):
                for d in scored.deals:
                    deal_rows.append(
                        Deal(
                            match=m,
                            number=d.number,
                            dealer_seat=d.dealer,
                            level_rank=d.level_rank,
                            seed=f"{round_seed}/{d.number}",
                            status="finished",
                            finishing_order=list(d.result.finish),
                            result=d.result.to_json(),
                            points=list(d.result.points),
                            side_points={
                                "A": sum(d.result.points[0::2]),
                                "B": sum(d.result.points[1::2]),
                            },
                        )
                    )
                steps += [
                    FigureStep(
                        match=m, deal_number=i, figures={"level": {"A": int(lv.a), "B": int(lv.b)}}
                    )
                    for i, lv in enumerate(scored.ladder)
                ]
            Deal.objects.bulk_create(deal_rows, batch_size=2000)
            FigureStep.objects.bulk_create(steps, batch_size=2000)
            pairings = Pairing.objects.bulk_create(
                Pairing(round=round_, number=n, table=t, team_a_id=a, team_b_id=b)
                for n, (t, (a, b)) in enumerate(zip(table_rows, pairs, strict=True), start=1)
            )
            RoundEntry.objects.bulk_create(
                RoundEntry(round=round_, team_id=team, pairing=p)
                for p in pairings
                for team in (p.team_a_id, p.team_b_id)
            )
            PairingTally.objects.bulk_create(PairingTally(pairing=p, event=event) for p in pairings)
    return event.pk


def _timed(fn, repeat: int) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """Median milliseconds of ``fn`` over ``repeat`` runs, and the queries of one run."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    queries = 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as ctx:
            started = time.perf_counter()
            fn()
            times.append((time.perf_counter() - started) * 1000)
        queries = len(ctx.captured_queries)
    return round(statistics.median(times), 1), queries


def _advance(running_id: int) -> int:
    """The tables furthest behind in the running round finish one more deal (a copy of another
    table's deal of that number): the next deal is published. Returns how many tables moved."""
    from django.db import transaction

    from games.models import Deal, FigureStep, Match

    matches = list(Match.objects.filter(table__pairing__round_id=running_id, status="playing"))
    if not matches:
        return 0
    behind = min(m.current_deal for m in matches)
    model = Deal.objects.filter(
        match__table__pairing__round_id=running_id, number=behind + 1
    ).first()
    if model is None:
        return 0
    moved = 0
    with transaction.atomic():
        for m in matches:
            if m.current_deal != behind:
                continue
            Deal.objects.create(
                match=m,
                number=behind + 1,
                dealer_seat=model.dealer_seat,
                level_rank=model.level_rank,
                seed=model.seed,
                status="finished",
                finishing_order=model.finishing_order,
                result=model.result,
                points=model.points,
                side_points=model.side_points,
            )
            FigureStep.objects.create(match=m, deal_number=behind + 1, figures=m.figures)
            m.current_deal = behind + 1
            m.points = [a + b for a, b in zip(m.points, model.points, strict=True)]
            m.side_points = {k: m.side_points.get(k, 0) + v for k, v in model.side_points.items()}
            if m.current_deal >= m.deals_per_match:
                m.status, m.end_reason = "finished", "deals_played"
            m.save()
            moved += 1
    return moved


def measure(event_id: int, repeat: int) -> dict[str, object]:
    from games.models import Deal
    from tournaments.duplicate import deals as duplicate
    from tournaments.models import Event, Pairing, Round
    from tournaments.results.services import tallies_refresh
    from tournaments.standings.selectors import event_standings_rows

    event = Event.objects.get(pk=event_id)
    running = Round.objects.get(event=event, status="running")
    in_round = Pairing.objects.filter(round=running)
    figures: dict[str, object] = {
        "tables_per_round": in_round.count(),
        "rounds": Round.objects.filter(event=event).count(),
        "deals": Deal.objects.filter(match__table__pairing__round__event=event).count(),
    }
    started = time.perf_counter()
    tallies_refresh(pairings=Pairing.objects.filter(round__event=event))
    figures["tallies_first_build_ms (one-off)"] = round((time.perf_counter() - started) * 1000, 1)
    ms, queries = _timed(lambda: tallies_refresh(pairings=in_round), 1)
    figures["tallies_refresh_nothing_new_ms"] = ms
    figures["tallies_refresh_nothing_new_queries"] = queries
    figures["published_before"] = duplicate.rounds_published([running.pk])[running.pk]
    figures["tables_that_finished_the_deal"] = _advance(running.pk)
    figures["published_after"] = duplicate.rounds_published([running.pk])[running.pk]
    ms, queries = _timed(lambda: tallies_refresh(pairings=in_round), 1)
    figures["tallies_refresh_deal_published_ms"] = ms  # every table's tally moves at once
    figures["tallies_refresh_deal_published_queries"] = queries
    for scoring in ("datum", "matchpoints"):
        event.duplicate_scoring = scoring
        ms, queries = _timed(lambda: duplicate.duplicate_totals(event=event), repeat)
        figures[f"duplicate_scores_{scoring}_ms"] = ms
        figures[f"duplicate_scores_{scoring}_queries"] = queries
    event.duplicate_scoring = "datum"
    for kind in ("team", "player", "unit"):
        ms, queries = _timed(lambda kind=kind: event_standings_rows(event=event, kind=kind), repeat)
        figures[f"standings_{kind}_ms"] = ms
        figures[f"standings_{kind}_queries"] = queries
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--deals", type=int, default=10, help="deals per match")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    _setup()
    from django.db import connection

    started = time.perf_counter()
    event_id = build(args.tables, args.deals, args.rounds, args.seed)
    figures: dict[str, object] = {
        "database": connection.vendor,
        "build_seconds": round(time.perf_counter() - started, 1),
    }
    figures.update(measure(event_id, args.repeat))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:36} {value}")


if __name__ == "__main__":
    main()
