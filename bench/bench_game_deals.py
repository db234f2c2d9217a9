"""Benchmark of whole deals through the one interface (engine.game), for every game: heuristic
bots from ``game.bot()``, every action through ``MatchState.apply``, each deal's record written.
Prints deals and actions per CPU second (the process's CPU time: the machine is shared); asserts
nothing. This is the path of the card room's bot turns and of filled seats, adapter included.

    .venv/bin/python bench/bench_game_deals.py [SECONDS_PER_GAME] [--json]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.registry import get_game, registered_keys  # noqa: E402


def run(key: str, seconds: float) -> dict[str, float]:
    """Whole matches of ``key`` for ``seconds`` of CPU time: deals and actions per CPU second."""
    game = get_game(key)
    deals = actions = seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_match(seed=seed, options=game.default_options())
        bots = [game.bot("heuristic", f"{seed}:{s}") for s in range(game.seat_count)]
        while not state.over:
            state.start_deal()
            while state.in_deal:
                seat = state.awaiting()[0]
                state.apply(bots[seat].act(state, seat))
                actions += 1
            state.record(state.deals_started)
            deals += 1
        seed += 1
    took = time.process_time() - start
    return {
        "deals": deals,
        "deals_per_cpu_second": round(deals / took, 1),
        "actions_per_cpu_second": round(actions / took),
    }


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--json"]
    seconds = float(args[0]) if args else 5.0
    figures = {key: run(key, seconds) for key in registered_keys()}
    if "--json" in sys.argv:
        print(json.dumps(figures))
    else:
        for key, f in figures.items():
            print(
                f"{key}: {f['deals']} deals, {f['deals_per_cpu_second']} deals/CPU s, "
                f"{f['actions_per_cpu_second']} actions/CPU s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
