"""What the figures of /metrics cost a seat action (config/metrics.py). Prints figures only.

Plays ``--actions`` person actions (games.play.services.seat_act, at a table of six people, each
acting in turn with their first legal action) in rounds, alternately with the figures taken and
with ``config.metrics.action_done`` replaced by nothing, and prints the median time per action
of each; then the cost of taking one action's figures alone (counter and histogram), many times.
Run it once as it is (each process its own figures) and once with ``PROMETHEUS_MULTIPROC_DIR``
set to an empty folder (every figure written to a shared file):

    .venv/bin/python bench/bench_metrics.py --actions 1000
    PROMETHEUS_MULTIPROC_DIR=$(mktemp -d) .venv/bin/python bench/bench_metrics.py --actions 1000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/luzi_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/1 .venv/bin/python bench/bench_metrics.py

It uses its own SQLite database and embedded broker (a folder of its own) unless told otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-metrics.sqlite3'}")
os.environ.setdefault("LUZI_BROKER_DIR", tempfile.mkdtemp(prefix="luzi-bench-metrics-"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench._db import ensure_database  # noqa: E402

ensure_database()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from config import metrics  # noqa: E402
from games.models import Match, Table  # noqa: E402
from games.play import engine_state  # noqa: E402
from games.play import services as play_services  # noqa: E402
from games.tables import services as tables_services  # noqa: E402


def people_table(name: str) -> Table:
    players = [tables_services.player_create(name=f"{name}-p{s}") for s in range(6)]
    return tables_services.table_create(name=name, players=players)


class Player:
    """Six people at one table acting in turn, a new match when one ends."""

    def __init__(self, name: str) -> None:
        self.table = people_table(name)
        self.match = play_services.match_start(table=self.table, seed=7, deals_per_match=1000)

    def next_action(self) -> dict[str, object]:
        """The arguments of the next person's action (a new deal or match dealt first)."""
        while True:
            match = Match.objects.get(pk=self.match.pk)
            if match.status != Match.Status.PLAYING:
                self.match = play_services.match_start(
                    table=self.table, seed=match.seed + 1, deals_per_match=1000
                )
                continue
            deal_row = match.deals.get(number=match.current_deal)
            state = engine_state.engine_match(match, deal_row).deal
            if state is None or not state.awaiting():
                play_services.deal_start(match_id=match.pk, number=match.current_deal + 1)
                continue
            seat = state.awaiting()[0]
            legal = state.legal_actions(seat)[0]
            cards = " ".join(map(str, legal.cards))
            return {"seat": seat, "kind": legal.kind.value, "cards": cards, "seq": deal_row.seq}


def timed_round(player: Player, actions: int) -> float:
    """Seconds per action of ``actions`` person actions: seat_act's own time, to its commit and
    the callbacks after it (the reads that choose each action are not timed)."""
    spent = 0.0
    for _ in range(actions):
        action = player.next_action()
        started = time.perf_counter()
        play_services.seat_act(table=player.table, **action)  # type: ignore[arg-type]
        spent += time.perf_counter() - started
    return spent / actions


def observe_cost(times: int = 100_000) -> float:
    """Microseconds to take one action's figures (what each action pays on commit)."""
    started = time.perf_counter()
    for _ in range(times):
        metrics._action_observe("daguai", "person", 0.0)
    return (time.perf_counter() - started) / times * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000, help="person actions per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds with, and as many without")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    real = metrics.action_done
    player = Player(f"bench-metrics-{os.getpid()}")
    timed_round(player, 50)  # warm up: imports, caches, connections
    with_figures: list[float] = []
    without: list[float] = []
    for _ in range(args.rounds):
        metrics.action_done = real  # type: ignore[assignment]
        with_figures.append(timed_round(player, args.actions))
        metrics.action_done = lambda *a, **k: None  # type: ignore[assignment]
        without.append(timed_round(player, args.actions))
    metrics.action_done = real  # type: ignore[assignment]
    on, off = statistics.median(with_figures), statistics.median(without)
    result = {
        "database": django.db.connection.vendor,
        "multiprocess_dir": bool(metrics.multiprocess_dir()),
        "actions_per_round": args.actions,
        "rounds": args.rounds,
        "ms_per_action_with_metrics": round(on * 1000, 3),
        "ms_per_action_without": round(off * 1000, 3),
        "difference_ms": round((on - off) * 1000, 3),
        "rounds_with_ms": [round(x * 1000, 3) for x in with_figures],
        "rounds_without_ms": [round(x * 1000, 3) for x in without],
        "figures_of_one_action_us": round(observe_cost(), 2),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:32} {value}")


if __name__ == "__main__":
    main()
