"""Benchmark of Swiss pairing (issue: tournament operations). Prints figures only.

Pairs a Swiss round of N teams (default 1,000; target <= 1 s) with the pure pairing module, after R
earlier rounds of history (opponents, byes, sides) and with teams spread over units, so that the
rematch and same-unit repairs have work to do. Run:

    .venv/bin/python bench/bench_pairing.py [--teams 1000] [--rounds 9] [--units 40] [--json]
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

from tournaments.pairing import PairingTeam, swiss_pair  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9, help="earlier rounds to pair first")
    parser.add_argument("--units", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    ids = list(range(1, args.teams + 1))
    unit = {t: rng.randrange(args.units) for t in ids}
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
    figures = {
        "teams": args.teams,
        "round_paired": args.rounds + 1,
        "last_round_seconds": round(timings[-1], 4),
        "median_round_seconds": round(statistics.median(timings), 4),
        "max_round_seconds": round(max(timings), 4),
        "last_round_rematches": rematches,
        "last_round_same_unit_tables": same_unit,
        "target_seconds": 1.0,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
