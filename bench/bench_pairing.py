"""Benchmark of Swiss pairing (issue: tournament operations; issue 12). Prints figures only.

Teams: pairs a Swiss round of N teams (default 1,000; target <= 1 s) with the pure pairing module
(a maximum-weight matching), after R earlier rounds of history (opponents, byes, sides) and with
teams spread over units, so that the rematch and same-unit conflicts have work to do.

Players: seats an individual Swiss round of P players (default 2,000) at tables of four
(target <= 2 s), after the same R earlier rounds of history (tablemates, seats), over units.

Run:

    .venv/bin/python bench/bench_pairing.py [--teams 1000] [--players 2000] [--rounds 9]
        [--units 40] [--big-unit 0.6] [--table-size 4] [--fill byes|bots] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.draw.players import Fill, PairingPlayer, individual_swiss  # noqa: E402
from tournaments.draw.teams import PairingTeam, swiss_pair  # noqa: E402


def bench_teams(args: argparse.Namespace) -> dict[str, object]:
    rng = random.Random(args.seed)
    ids = list(range(1, args.teams + 1))
    unit = {t: rng.randrange(args.units) for t in ids}
    for t in rng.sample(ids, round(args.big_unit * len(ids))):
        unit[t] = 0  # an adversarial field: one unit holds this share of the teams
    met: dict[int, set[int]] = {t: set() for t in ids}
    byes = dict.fromkeys(ids, 0)
    side = dict.fromkeys(ids, 0)
    score = dict.fromkeys(ids, 0)
    timings = []
    rematches = same_unit = 0
    for _ in range(args.rounds + 1):
        ordered = sorted(ids, key=lambda t: (-score[t], t))
        teams = [
            PairingTeam(t, unit=unit[t], opponents=frozenset(met[t]), byes=byes[t], side_a=side[t])
            for t in ordered
        ]
        start = time.perf_counter()
        draw = swiss_pair(teams)
        timings.append(time.perf_counter() - start)
        rematches, same_unit = draw.rematches, draw.same_unit
        for table in draw.tables:
            a, b = table.team_a, table.team_b
            met[a].add(b)
            met[b].add(a)
            side[a] += 1
            side[b] -= 1
            winner = a if rng.random() < 0.5 else b
            score[winner] += rng.choice((1, 3, 6))
        if draw.bye is not None:
            byes[draw.bye] += 1
    return {
        "teams": args.teams,
        "big_unit_share": args.big_unit,
        "round_paired": args.rounds + 1,
        "last_round_seconds": round(timings[-1], 4),
        "median_round_seconds": round(statistics.median(timings), 4),
        "max_round_seconds": round(max(timings), 4),
        "last_round_rematches": rematches,
        "last_round_same_unit_tables": same_unit,
        "target_seconds": 1.0,
    }


def bench_players(args: argparse.Namespace) -> dict[str, object]:
    rng = random.Random(args.seed)
    ids = list(range(1, args.players + 1))
    unit = {p: rng.randrange(args.units) for p in ids}
    mates: dict[int, set[int]] = {p: set() for p in ids}
    seats: dict[int, list[int]] = {p: [] for p in ids}
    byes = dict.fromkeys(ids, 0)
    score = dict.fromkeys(ids, 0)
    timings = []
    repeats = same_unit = 0
    most_in_one_seat = 0
    for _ in range(args.rounds + 1):
        ordered = sorted(ids, key=lambda p: (-score[p], p))
        players = [
            PairingPlayer(
                p,
                unit=unit[p],
                tablemates=frozenset(mates[p]),
                byes=byes[p],
                seats=tuple(seats[p]),
            )
            for p in ordered
        ]
        start = time.perf_counter()
        draw = individual_swiss(players, table_size=args.table_size, fill=Fill(args.fill))
        timings.append(time.perf_counter() - start)
        repeats, same_unit = draw.repeats, draw.same_unit
        for table in draw.tables:
            at = table.players
            for seat, p in enumerate(table.seats):
                if p is not None:
                    seats[p].append(seat)
                    mates[p].update(q for q in at if q != p)
            points = list(range(len(at)))
            rng.shuffle(points)
            for p, gained in zip(at, points, strict=True):
                score[p] += gained
        for p in draw.byes:
            byes[p] += 1
    most_in_one_seat = max(max(seats[p].count(s) for s in set(seats[p])) for p in ids if seats[p])
    return {
        "players": args.players,
        "table_size": args.table_size,
        "fill": args.fill,
        "round_paired": args.rounds + 1,
        "last_round_seconds": round(timings[-1], 4),
        "median_round_seconds": round(statistics.median(timings), 4),
        "max_round_seconds": round(max(timings), 4),
        "last_round_repeated_tablemates": repeats,
        "last_round_same_unit_tablemates": same_unit,
        "most_rounds_in_one_seat": most_in_one_seat,
        "target_seconds": 2.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=9, help="earlier rounds to pair first")
    parser.add_argument("--units", type=int, default=40)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--fill", choices=[f.value for f in Fill], default=Fill.BYES.value)
    parser.add_argument(
        "--big-unit",
        type=float,
        default=0.0,
        help="share of the teams in one unit (0.6: an adversarial field of a majority unit)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    figures = {"swiss_teams": bench_teams(args), "swiss_players": bench_players(args)}
    if args.json:
        print(json.dumps(figures))
    else:
        for name, part in figures.items():
            print(name)
            for key, value in part.items():
                print(f"{key:>32}: {value}")


if __name__ == "__main__":
    main()
