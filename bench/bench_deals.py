"""Benchmark of whole deals (issue: Rules engine II): deals per second, heuristic vs random.

Prints figures; asserts nothing. Run on one core, e.g.:

    taskset -c 0 python bench/bench_deals.py
    python bench/bench_deals.py --deals 2000 --versus 1000 --json

Three figures:
- raw: heuristic bots play whole matches (dealing, tribute, returns, every action checked by
  ``Deal.apply``), no extra invariant checks. Target: at least 100 deals/s on one core.
- checked: the same through ``luzi simulate`` (card count after every action; result, zero-sum
  and hidden hands after every deal).
- versus: a heuristic team against a random team, sides alternating from match to match; the
  heuristic team's share of the decided deals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.daguai.bots import make_bots, play_match  # noqa: E402
from engine.daguai.match import Match  # noqa: E402
from engine.daguai.simulate import simulate  # noqa: E402


def raw(deals: int, seed: int) -> dict[str, float]:
    """Heuristic bots at every seat, whole matches, until ``deals`` deals are played."""
    played = plays = 0
    number = 0
    start = time.perf_counter()
    while played < deals:
        match = play_match(Match(seed=f"{seed}:{number}"), make_bots(["heuristic"] * 6, number))
        number += 1
        played += len(match.deals)
        plays += sum(d.plays for d in match.deals)
    seconds = time.perf_counter() - start
    return {
        "deals": played,
        "matches": number,
        "plays_per_deal": round(plays / played, 1),
        "seconds": round(seconds, 3),
        "deals_per_second": round(played / seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals for the speed figures")
    parser.add_argument("--versus", type=int, default=1000, help="deals heuristic vs random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    speed = raw(args.deals, args.seed)
    checked = simulate(deals=args.deals, seed=args.seed, bots="heuristic").to_json()
    versus = simulate(deals=args.versus, seed=args.seed, bots="mixed").to_json()
    report = {
        "raw": speed,
        "checked": {k: checked[k] for k in ("deals", "seconds", "deals_per_second")},
        "versus": {
            k: versus[k]
            for k in ("deals", "heuristic_wins", "random_wins", "draws", "heuristic_win_rate")
        },
    }
    if args.json:
        print(json.dumps(report))
        return
    print(
        f"raw:     {speed['deals_per_second']:8.1f} deals/s  ({speed['deals']} deals, "
        f"{speed['matches']} matches, {speed['plays_per_deal']} plays/deal, heuristic bots)"
    )
    print(
        f"checked: {checked['deals_per_second']:8.1f} deals/s  (luzi simulate, invariants checked)"
    )
    v = report["versus"]
    print(
        f"versus:  heuristic team won {v['heuristic_wins']}, random team won {v['random_wins']}, "
        f"draws {v['draws']} of {v['deals']} deals: "
        f"heuristic win rate {v['heuristic_win_rate']:.1%}"
    )


if __name__ == "__main__":
    main()
