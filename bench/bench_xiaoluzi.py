"""Benchmark of the 小路子 engine (issue 14): legal plays of a hand, and bot deals per second
against RLCard's raw 3-player Dou Dizhu measured side by side in the same run.

Prints figures; asserts nothing. RLCard is only needed for the comparison and is not a
dependency of the project; install it into the virtualenv to measure it:

    .venv/bin/pip install rlcard
    taskset -c 0 .venv/bin/python bench/bench_xiaoluzi.py          # or without taskset
    .venv/bin/python bench/bench_xiaoluzi.py --seconds 5 --json

Targets: all legal plays of an 8-card hand <= 0.2 ms median; heuristic-bot deals per second
(declaring included) >= 5 times RLCard's raw Dou Dizhu games per second (random legal moves).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.xiaoluzi.bots import make_bots  # noqa: E402
from engine.xiaoluzi.deal import Deal  # noqa: E402
from engine.xiaoluzi.plays import PACK, classify, legal_plays  # noqa: E402

INSTALL = "RLCard is not installed: `.venv/bin/pip install rlcard` to compare (not a dependency)"


def bench_legal_plays(hands: int, seed: int) -> dict[str, Any]:
    """Median time of every legal play of random 8-card hands, leading and over a random play."""
    rng = random.Random(seed)
    lead: list[float] = []
    follow: list[float] = []
    for _ in range(hands):
        cards = rng.sample(PACK, 16)
        hand, other = cards[:8], cards[8:]
        over = None
        while over is None:
            over = classify(rng.sample(other, rng.randint(1, 4)))
        for samples, target in ((lead, None), (follow, over)):
            start = time.perf_counter()
            legal_plays(hand, target)
            samples.append(time.perf_counter() - start)
    return {
        "hands": hands,
        "leading_median_ms": round(statistics.median(lead) * 1000, 4),
        "following_median_ms": round(statistics.median(follow) * 1000, 4),
        "leading_max_ms": round(max(lead) * 1000, 4),
    }


def xiaoluzi_round(seconds: float, seed: int) -> tuple[int, float]:
    """Heuristic bots play whole deals (declaring included) for ``seconds``: deals, time."""
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = Deal(seed=f"{seed}:{deals}")
        bots = make_bots(["heuristic"] * 4, seed=deals)
        while deal.turn is not None:
            deal.apply(bots[deal.turn].act(deal, deal.turn))
        deals += 1
    return deals, time.perf_counter() - start


def rlcard_round_factory(seed: int) -> Callable[[float], tuple[int, float]] | None:
    """RLCard's raw Dou Dizhu game with random legal moves, or ``None`` when not installed."""
    try:
        import numpy as np
        from rlcard.games.doudizhu.game import DoudizhuGame
    except ImportError:
        return None
    game = DoudizhuGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)

    def run(seconds: float) -> tuple[int, float]:
        games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state, _ = game.init_game()
            while not game.is_over():
                state, _ = game.step(rng.choice(state["actions"]))
            games += 1
        return games, time.perf_counter() - start

    return run


def bench_deals(seconds: float, rounds: int, seed: int) -> dict[str, Any]:
    """Both games in alternating rounds of ``seconds / rounds`` each, so load hits both alike."""
    rlcard = rlcard_round_factory(seed)
    ours = [0, 0.0]
    theirs = [0, 0.0]
    for r in range(rounds):
        n, t = xiaoluzi_round(seconds / rounds, seed + r * 100_000)
        ours[0] += n
        ours[1] += t
        if rlcard is not None:
            n, t = rlcard(seconds / rounds)
            theirs[0] += n
            theirs[1] += t
    result: dict[str, Any] = {
        "xiaoluzi_deals": ours[0],
        "xiaoluzi_deals_per_second": round(ours[0] / ours[1], 1),
    }
    if rlcard is None:
        result["rlcard"] = INSTALL
        return result
    result["rlcard_doudizhu_games"] = theirs[0]
    result["rlcard_doudizhu_games_per_second"] = round(theirs[0] / theirs[1], 1)
    result["ratio"] = round((ours[0] / ours[1]) / (theirs[0] / theirs[1]), 2)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="random hands for legal plays")
    parser.add_argument("--seconds", type=float, default=10.0, help="time for each game's deals")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    plays = bench_legal_plays(args.hands, args.seed)
    deals = bench_deals(args.seconds, args.rounds, args.seed)
    if args.json:
        print(json.dumps({"legal_plays": plays, "deals": deals}))
        return
    print(f"legal plays of an 8-card hand ({plays['hands']} hands; target <= 0.2 ms median):")
    print(
        f"  leading   median {plays['leading_median_ms']:.4f} ms (max {plays['leading_max_ms']} ms)"
    )
    print(f"  following median {plays['following_median_ms']:.4f} ms")
    print("deals per second, side by side:")
    print(
        f"  小路子 heuristic bots, declaring included: {deals['xiaoluzi_deals_per_second']:>8.1f}"
    )
    if "ratio" in deals:
        theirs = deals["rlcard_doudizhu_games_per_second"]
        print(f"  RLCard Dou Dizhu, raw game, random moves: {theirs:>8.1f}")
        print(f"  ratio {deals['ratio']:.2f} (target >= 5)")
    else:
        print(f"  {deals['rlcard']}")


if __name__ == "__main__":
    main()
