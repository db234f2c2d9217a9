"""Benchmark of the search bots against the heuristic bots (issue: stronger bots and an arena).
Prints figures only.

For each game it runs ``luzi arena`` (search against heuristic, duplicated deals) at a budget of
50 ms a move over ``--deals`` deals and at the 困难 budget (250 ms a move, at most 500 ms) over
``--hard-deals`` deals, with the thinking measured in CPU time (``--clock cpu``: the machine is
shared), and prints each report: the search bot's mean points per deal above the heuristic's with
the 95% interval, the deals it won, and its median and maximum think time per move. Logs go to
``--logs`` (default ``bench/arena-logs/``, gzip-compressed; the logs of the figures in README.md
are kept there) so a long run stopped early can still be reported with
``luzi arena --from-log``, and is carried on where it stopped when the benchmark runs again
(``--resume``).

    .venv/bin/python bench/bench_bots.py                       # 400 and 200 deals: hours
    .venv/bin/python bench/bench_bots.py --deals 20 --hard-deals 5 --games xiaoluzi
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

GAMES = ("daguai", "xiaoluzi", "shanghai_doudizhu")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--hard-deals", type=int, default=200)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="fig")
    parser.add_argument("--logs", default=str(Path(__file__).parent / "arena-logs"))
    args = parser.parse_args()
    logs = Path(args.logs)
    logs.mkdir(parents=True, exist_ok=True)
    for game in args.games.split(","):
        for budget, deals in ((50, args.deals), (250, args.hard_deals)):
            log = logs / f"{game}_{budget}.jsonl.gz"
            command = [
                sys.executable, "-m", "engine", "arena", "--game", game, "--a", "search",
                "--b", "heuristic", "--deals", str(deals), "--seed", args.seed,
                "--budget-ms", str(budget), "--clock", "cpu", "--workers", str(args.workers),
                "--log", str(log), "--resume", "--json",
            ]  # fmt: skip
            out = subprocess.run(command, capture_output=True, text=True, check=False)
            if out.returncode != 0:
                print(out.stderr, file=sys.stderr)
                return out.returncode
            report = json.loads(out.stdout)
            search = report["kinds"]["search"]
            won, lost = search["won"], report["kinds"]["heuristic"]["won"]
            share = won / (won + lost) if won + lost else 0.0
            print(
                f"{game} @ {budget} ms: {report['deals']} deals, search - heuristic "
                f"{report['diff']['a_minus_b']:+.3f} (95% {report['diff']['ci95']}), won {won}, "
                f"lost {lost}, drawn {report['drawn']} ({share:.0%} of decided deals), think "
                f"median {search['think_ms_median']} ms, max {search['think_ms_max']} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
