"""Benchmark of the play engine: classification and legal-play generation (issue: Rules engine I).

Prints figures; asserts nothing. Run on one core, e.g.:

    taskset -c 0 python bench/bench_plays.py            # or: make bench
    python bench/bench_plays.py --hands 300 --json

Targets on the project machine: classify <= 10 us median; all legal plays against a lead
<= 2 ms median; all plays when leading <= 10 ms median; no hand over 100 ms.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import Card, Rank, pack  # noqa: E402
from engine.daguai import HAND_SIZE, Play, PlayType, classify, legal_plays  # noqa: E402

NATURALS = [c for c in pack(3) if not c.is_joker]
JOKERS = [c for c in pack(3) if c.is_joker]


def timed(fn: Callable[[], object], repeat: int = 1) -> float:
    """Seconds per call, the best of ``repeat`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def random_hand(rng: random.Random, jokers: int | None = None) -> list[Card]:
    if jokers is None:
        return rng.sample(pack(3), HAND_SIZE)
    return rng.sample(NATURALS, HAND_SIZE - jokers) + rng.sample(JOKERS, jokers)


def five_card_plays(rng: random.Random, count: int) -> list[list[Card]]:
    """Five-card sets that make a play, with 0-3 jokers, types mixed."""
    found: list[list[Card]] = []
    while len(found) < count:
        hand = random_hand(rng, rng.randint(0, 3))
        plays = [p for p in legal_plays(hand, Rank.TWO) if len(p.cards) == 5 and p.jokers <= 3]
        for play in rng.sample(plays, min(5, len(plays))):
            cards = list(play.cards)
            rng.shuffle(cards)
            found.append(cards)
    return found[:count]


def summary(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    return {
        "median_ms": round(statistics.median(ms), 4),
        "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 4),
        "max_ms": round(ms[-1], 4),
        "n": len(ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands per case")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    level = Rank.TWO
    results: dict[str, object] = {}

    # 1. classification of five-card plays with 0-3 jokers
    sets = five_card_plays(rng, 2000)
    per = []
    for cards in sets:
        start = time.perf_counter()
        for _ in range(20):
            classify(cards, level)
        per.append((time.perf_counter() - start) / 20)
    results["classify_5_us"] = {
        "median_us": round(statistics.median(per) * 1e6, 2),
        "max_us": round(max(per) * 1e6, 2),
        "n": len(per),
    }

    # 2. leading: all plays of a random 27-card hand, and of hands with 5-6 jokers
    for label, jokers in (("lead_random", None), ("lead_5_6_jokers", -1)):
        samples = []
        counts = []
        for _ in range(args.hands):
            j = rng.choice((5, 6)) if jokers == -1 else None
            hand = random_hand(rng, j)
            lvl = Rank(rng.randint(2, 14))
            samples.append(timed(lambda h=hand, lv=lvl: legal_plays(h, lv), repeat=3))
            counts.append(len(legal_plays(hand, lvl)))
        results[label] = {**summary(samples), "median_plays": statistics.median(counts)}

    # 3. following: each lead type, against random hands (and hands with 5-6 jokers)
    for label, jokers in (("follow_random", None), ("follow_5_6_jokers", -1)):
        by_type: dict[str, list[float]] = {t.value: [] for t in PlayType}
        for _ in range(args.hands):
            j = rng.choice((5, 6)) if jokers == -1 else None
            hand = random_hand(rng, j)
            lvl = Rank(rng.randint(2, 14))
            leads_by_type: dict[PlayType, list[Play]] = {}
            for p in legal_plays(random_hand(rng, rng.randint(0, 3)), lvl):
                leads_by_type.setdefault(p.type, []).append(p)
            for kind, leads in leads_by_type.items():
                lead = rng.choice(leads)
                by_type[kind.value].append(
                    timed(lambda h=hand, lv=lvl, o=lead: legal_plays(h, lv, o), 3)
                )
        results[label] = {k: summary(v) for k, v in by_type.items() if v}
        every = [s for v in by_type.values() for s in v]
        results[label]["all"] = summary(every)  # type: ignore[index]

    if args.json:
        print(json.dumps(results, indent=2))
        return
    c = results["classify_5_us"]
    print(f"python {sys.version.split()[0]}, seed {args.seed}, {args.hands} hands per case")
    print(f"classify a 5-card play (0-3 jokers): median {c['median_us']} us, max {c['max_us']} us")  # type: ignore[index]
    for label in ("lead_random", "lead_5_6_jokers"):
        r = results[label]
        print(
            f"{label:>18}: median {r['median_ms']} ms, p95 {r['p95_ms']} ms, "  # type: ignore[index]
            f"max {r['max_ms']} ms ({r['median_plays']} plays median)"  # type: ignore[index]
        )
    for label in ("follow_random", "follow_5_6_jokers"):
        print(f"{label}:")
        for kind, r in results[label].items():  # type: ignore[attr-defined]
            figures = f"median {r['median_ms']} ms, p95 {r['p95_ms']} ms, max {r['max_ms']} ms"
            print(f"  {kind:>15}: {figures}")


if __name__ == "__main__":
    main()
