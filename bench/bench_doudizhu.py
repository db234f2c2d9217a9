"""Benchmark of the 上海斗地主 engine (issue 13): classify, legal plays, whole bot deals vs RLCard.

Prints figures; asserts nothing. Run on one core, e.g.:

    taskset -c 0 .venv/bin/python bench/bench_doudizhu.py
    .venv/bin/python bench/bench_doudizhu.py --hands 300 --seconds 10 --json

Targets: classify <= 20 us for up to 10 cards; all legal plays when leading with a 33-card
landlord hand <= 20 ms median (none over 200 ms), when following <= 2 ms median; heuristic-bot
deals per second at least half of RLCard's raw 3-player Dou Dizhu games per second (random legal
moves), measured side by side in the same run.

RLCard is not a dependency of the project; it is imported only here. Install it into the
virtualenv to get the comparison (the rest runs without it):

    .venv/bin/pip install rlcard
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import Card, pack  # noqa: E402
from engine.shanghai_doudizhu import Deal, HeuristicBot, classify, legal_plays  # noqa: E402
from engine.shanghai_doudizhu.bots import play_deal  # noqa: E402

PACK = pack(2)
INSTALL_RLCARD = ".venv/bin/pip install rlcard"


def _median_max(samples: list[float]) -> dict[str, float]:
    return {
        "median": statistics.median(samples),
        "max": max(samples),
        "p95": sorted(samples)[int(0.95 * (len(samples) - 1))],
    }


def bench_classify(rng: random.Random, hands: int) -> dict[str, float]:
    """Microseconds per classify of 1..10 random cards, and of real plays up to 10 cards."""
    samples: list[float] = []
    inputs: list[list[Card]] = []
    for _ in range(hands):
        hand = rng.sample(PACK, 33)
        plays = [p for p in legal_plays(hand) if p.size <= 10]
        inputs.append(list(rng.choice(plays).cards))
        inputs.append(rng.sample(PACK, rng.randint(1, 10)))
    for cards in inputs:
        best = float("inf")
        for _ in range(3):  # the best of three runs of 20 calls, to leave out scheduling noise
            start = time.perf_counter()
            for _ in range(20):
                classify(cards)
            best = min(best, (time.perf_counter() - start) / 20 * 1e6)
        samples.append(best)
    return _median_max(samples)


def _landlord_hands(rng: random.Random, hands: int) -> list[list[Card]]:
    out = []
    for i in range(hands):
        deal = Deal(seed=rng.randrange(10**9) + i)
        out.append([*deal.hands[0], *deal.kitty])
    return out


def bench_leading(hands: list[list[Card]]) -> dict[str, float]:
    """Milliseconds to list every legal play when leading with a 33-card landlord hand."""
    samples = []
    for hand in hands:
        start = time.perf_counter()
        legal_plays(hand)
        samples.append((time.perf_counter() - start) * 1e3)
    return _median_max(samples)


def bench_following(rng: random.Random, hands: list[list[Card]]) -> dict[str, float]:
    """Milliseconds to list every legal play of a 25-card hand on a random lead."""
    samples = []
    for hand in hands:
        other = rng.sample([c for c in PACK], 33)
        lead = rng.choice(legal_plays(other))
        mine = hand[:25]
        start = time.perf_counter()
        legal_plays(mine, lead)
        samples.append((time.perf_counter() - start) * 1e3)
    return _median_max(samples)


def bench_deals(seconds: float) -> dict[str, float]:
    """Heuristic-bot deals per second (whole deals with bidding; all-pass deals count too)."""
    bots = [HeuristicBot(seed=s) for s in range(4)]
    deals = 0
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = Deal(seed=f"bench/{deals}")
        play_deal(deal, bots)
        deals += 1
        actions += len(deal.actions)
    elapsed = time.perf_counter() - start
    return {
        "deals_per_second": deals / elapsed,
        "deals": deals,
        "actions_per_deal": actions / deals,
    }


def bench_rlcard(seconds: float) -> dict[str, Any] | None:
    """RLCard's raw 3-player Dou Dizhu games per second with random legal moves (``None`` when
    rlcard is not installed)."""
    try:
        import numpy as np
        from rlcard.games.doudizhu.game import DoudizhuGame
    except ImportError:
        return None
    game = DoudizhuGame(allow_step_back=False)
    game.np_random = np.random.RandomState(0)
    rng = random.Random(0)
    games = 0
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = game.init_game()
        while not game.is_over():
            state, _ = game.step(rng.choice(state["actions"]))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "games_per_second": games / elapsed,
        "games": games,
        "actions_per_game": actions / games,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per measurement")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per deal benchmark")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    landlord = _landlord_hands(rng, args.hands)
    figures: dict[str, Any] = {
        "classify_us": bench_classify(rng, args.hands),
        "leading_33_ms": bench_leading(landlord),
        "following_ms": bench_following(rng, landlord),
    }
    # side by side in the same run: RLCard, then ours, then RLCard again (the mean of the two)
    first = bench_rlcard(args.seconds / 2)
    ours = bench_deals(args.seconds)
    second = bench_rlcard(args.seconds / 2)
    figures["heuristic_deals"] = ours
    if first is None or second is None:
        figures["rlcard"] = None
        figures["ratio"] = None
    else:
        rl = (first["games_per_second"] + second["games_per_second"]) / 2
        figures["rlcard"] = {"games_per_second": rl, "actions_per_game": first["actions_per_game"]}
        figures["ratio"] = ours["deals_per_second"] / rl
    if args.json:
        print(json.dumps(figures))
        return 0
    c, lead, follow = figures["classify_us"], figures["leading_33_ms"], figures["following_ms"]
    print(
        f"classify (1..10 cards):       median {c['median']:.1f} us, max {c['max']:.1f} us"
        "   (target <= 20 us)"
    )
    print(
        f"legal plays, leading 33 cards: median {lead['median']:.2f} ms, max {lead['max']:.2f} ms"
        "   (target median <= 20 ms, none over 200 ms)"
    )
    print(
        f"legal plays, following:        median {follow['median']:.3f} ms, "
        f"max {follow['max']:.3f} ms   (target median <= 2 ms)"
    )
    print(
        f"heuristic-bot deals:           {ours['deals_per_second']:.1f} deals/s "
        f"({ours['actions_per_deal']:.0f} actions a deal)"
    )
    if figures["rlcard"] is None:
        print(f"RLCard doudizhu (random):      not installed; to compare: {INSTALL_RLCARD}")
    else:
        rl_figures = figures["rlcard"]
        print(
            f"RLCard doudizhu (random):      {rl_figures['games_per_second']:.1f} games/s "
            f"({rl_figures['actions_per_game']:.0f} actions a game)"
        )
        print(f"ratio ours / RLCard:           {figures['ratio']:.2f}   (target >= 0.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
