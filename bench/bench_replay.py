"""Benchmark of the replay viewer's steps (``Game.replay_steps``). Prints figures only.

For each registered game, bots play ``--deals`` whole deals; each deal's record is replayed step by
step as the replay page does (every step's public view and every hand), and the script prints the
median and worst time per deal, the steps per deal, and the size of the steps' JSON as the page
sends it (plain and gzipped: the page is gzipped, the steps are cached per deal).

    .venv/bin/python bench/bench_replay.py --deals 20 [--json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import registered_games  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    figures = {}
    for game in registered_games():
        options = game.options_from_json(
            {**game.default_options().to_json(), "deals_per_match": args.deals}
        )
        state = game.new_match(seed=2026, options=options)
        bots = [game.bot(game.bot_kinds[0], f"bench:{s}") for s in range(game.seat_count)]
        while not state.over:
            if not state.in_deal:
                state.start_deal()
            for seat in state.awaiting():
                state.apply(bots[seat].act(state, seat))
                if not state.in_deal:
                    break
        times, sizes, zipped, counts = [], [], [], []
        for number in range(1, state.deals_started + 1):
            record = json.dumps(state.record(number))
            start = time.perf_counter()
            steps = [s.to_json() for s in game.replay_steps(record)]
            times.append((time.perf_counter() - start) * 1000)
            body = json.dumps(steps, ensure_ascii=False).encode()
            sizes.append(len(body) / 1024)
            zipped.append(len(gzip.compress(body)) / 1024)
            counts.append(len(steps))
        figures[game.key] = {
            "deals": len(times),
            "steps_per_deal": round(statistics.mean(counts), 1),
            "ms_median": round(statistics.median(times), 1),
            "ms_max": round(max(times), 1),
            "kib_median": round(statistics.median(sizes), 1),
            "kib_gzip_median": round(statistics.median(zipped), 1),
        }
    if args.json:
        print(json.dumps(figures))
        return
    for key, f in figures.items():
        print(
            f"{key}: {f['deals']} deals, {f['steps_per_deal']} steps per deal, "
            f"{f['ms_median']} ms median ({f['ms_max']} ms worst) per deal, "
            f"{f['kib_median']} KiB of steps ({f['kib_gzip_median']} KiB gzipped)"
        )


if __name__ == "__main__":
    main()
