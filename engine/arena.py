"""The bot arena: two kinds of bot play the same deals from both sides (duplicate seating).

``luzi arena --game G --a KIND --b KIND --deals N --seed S [--budget-ms MS] [--workers W]
[--clock wall|cpu] [--log FILE [--resume]] [--from-log FILE] [--json]``

Each deal (dealt from ``S`` and its number) is played twice, the kinds swapping seats, so the
luck of the cards cancels: in the first replay kind A sits in the even seats (大怪路子: side A,
seats 0 2 4; 4-seat games: seats 0 and 2) and kind B in the odd ones; in the second, the other
way round. Each kind so sits in every seat once per deal, whatever roles (地主, 宣牌) the deal
then gives the seats. A kind's points on a deal are the mean of its seats' points in a replay,
summed over the two replays (so in a zero-sum game A's points are minus B's); it *wins* the deal
when its points are above the other kind's. The report gives per kind the mean points per deal
with a 95% confidence interval (normal approximation over the deals), deals won, and the mean,
median and maximum thinking time per move; ``diff`` is A's points less B's per deal, with its
interval.

Deals are independent: ``--workers`` plays them in that many processes; a progress bar shows on
a terminal. ``--log FILE`` appends one JSON line per deal as it finishes (a long run can be
summarised from its log by ``--from-log FILE`` even if it was stopped, and carried on by
``--resume``, which plays only the deals the log lacks and reports them all). A log whose name
ends in ``.gz`` is kept gzip-compressed. A run killed while writing leaves its log cut short (a
gzip member without its end, or half a line): reading keeps every whole deal, and ``--resume``
writes the log again whole before it appends.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import statistics
import sys
import time
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any, Literal, NoReturn

from engine.errors import EngineError
from engine.game import Bot, Game, UnknownGameError
from engine.registry import get_game, registered_keys
from engine.search import DEFAULT_BUDGET_MS, SearchBot

__all__ = ["KINDS", "DealOutcome", "main", "make_bot", "play_duplicate", "summarize"]

#: The kinds of bot the arena knows.
KINDS: tuple[str, ...] = ("random", "heuristic", "search")

#: z for a two-sided 95% interval.
_Z95 = 1.959963984540054


#: The clocks a run may measure thinking (and give the search bot its budget) by.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def make_bot(
    game: Game,
    kind: str,
    seed: str,
    budget_ms: float,
    clock: Callable[[], float] = time.perf_counter,
) -> Bot:
    """A bot of ``kind`` for ``game`` (the search bot with ``budget_ms`` per decision by
    ``clock``)."""
    if kind == "search":
        return SearchBot(game, seed=seed, budget_ms=budget_ms, clock=clock)
    if kind not in KINDS:
        raise EngineError(f"unknown bot kind {kind!r} (use {', '.join(KINDS)})")
    return game.bot(kind, seed)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One duplicated deal: each kind's points (summed over the two replays) and its think
    times per decision in ms."""

    deal: int
    points: dict[str, float]
    think_ms: dict[str, list[float]]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "points": self.points,
            "think_ms": {k: [round(t, 2) for t in v] for k, v in self.think_ms.items()},
        }

    @classmethod
    def from_json(cls, data: Any) -> DealOutcome:
        return cls(
            int(data["deal"]),
            {str(k): float(v) for k, v in data["points"].items()},
            {str(k): [float(t) for t in v] for k, v in data["think_ms"].items()},
        )


def seats_of(game: Game, replay: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats of kind A and kind B in ``replay`` (0 or 1) of a deal."""
    even = tuple(range(0, game.seat_count, 2))
    odd = tuple(range(1, game.seat_count, 2))
    return (even, odd) if replay == 0 else (odd, even)


def play_duplicate(
    game_key: str,
    a: str,
    b: str,
    seed: str | int,
    number: int,
    budget_ms: float,
    clock_name: str = "wall",
) -> DealOutcome:
    """Play deal ``number`` of the run ``seed`` twice, A and B swapping seats; thinking is
    measured (and the search bot's budget kept) by the clock ``clock_name``."""
    game = get_game(game_key)
    clock = CLOCKS[clock_name]
    labels = ("a", "b")
    points = {"a": 0.0, "b": 0.0}
    think: dict[str, list[float]] = {"a": [], "b": []}
    for replay in (0, 1):
        state = game.new_match(seed=f"{seed}:{number}", options=game.default_options())
        info = state.start_deal()
        seats = seats_of(game, replay)
        label_of = {s: labels[i] for i, group in enumerate(seats) for s in group}
        kind_of = {"a": a, "b": b}
        bots = {
            s: make_bot(
                game, kind_of[label_of[s]], f"{seed}:{number}:{replay}:{s}", budget_ms, clock
            )
            for s in range(game.seat_count)
        }
        while not state.deal_info(info.number).over:
            for seat in state.awaiting():
                start = clock()
                action = bots[seat].act(state, seat)
                think[label_of[seat]].append((clock() - start) * 1000.0)
                state.apply(action)
                if state.deal_info(info.number).over:
                    break
        result = state.deal_info(info.number).points
        assert result is not None
        for i, group in enumerate(seats):
            points[labels[i]] += sum(result[s] for s in group) / len(group)
    return DealOutcome(number, points, think)


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = _Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def summarize(
    game_key: str,
    a: str,
    b: str,
    outcomes: Sequence[DealOutcome],
    *,
    budget_ms: float,
    clock: str = "wall",
) -> dict[str, Any]:
    """The report of a run (``luzi arena --json``)."""
    kinds: dict[str, Any] = {}
    names = {"a": a, "b": b}
    if a == b:
        names = {"a": f"{a}:a", "b": f"{b}:b"}
    for label, other in (("a", "b"), ("b", "a")):
        values = [o.points[label] for o in outcomes]
        mean, lo, hi = _interval(values)
        times = [t for o in outcomes for t in o.think_ms[label]]
        kinds[names[label]] = {
            "mean_points": round(mean, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "won": sum(1 for o in outcomes if o.points[label] > o.points[other]),
            "think_ms_mean": round(statistics.fmean(times), 3) if times else 0.0,
            "think_ms_median": round(statistics.median(times), 3) if times else 0.0,
            "think_ms_max": round(max(times), 3) if times else 0.0,
            "moves": len(times),
        }
    diffs = [o.points["a"] - o.points["b"] for o in outcomes]
    mean, lo, hi = _interval(diffs)
    drawn = sum(1 for d in diffs if d == 0)
    return {
        "game": game_key,
        "deals": len(outcomes),
        "a": names["a"],
        "b": names["b"],
        "budget_ms": budget_ms if "search" in (a, b) else None,
        "clock": clock,
        "kinds": kinds,
        "drawn": drawn,
        "diff": {"a_minus_b": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]},
    }


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"luzi arena: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="luzi arena",
        description="Two kinds of bot play the same deals from both sides (duplicate seating).",
    )
    parser.add_argument("--game", default="daguai", help="the game (default daguai)")
    parser.add_argument("--a", default="search", help=f"kind A: {', '.join(KINDS)}")
    parser.add_argument("--b", default="heuristic", help=f"kind B: {', '.join(KINDS)}")
    parser.add_argument("--deals", type=int, default=100, help="deals, each played twice")
    parser.add_argument("--seed", default="0", help="the run's seed (deals are dealt from it)")
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=DEFAULT_BUDGET_MS,
        help=f"the search bot's time per decision (default {DEFAULT_BUDGET_MS})",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="measure thinking (and the search budget) in wall time or the process's CPU time",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes playing deals")
    parser.add_argument("--log", help="append one JSON line per finished deal to this file")
    parser.add_argument("--from-log", help="summarise the deals of a log instead of playing")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with --log: keep the deals the log already holds and play only the others",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _check(args: argparse.Namespace) -> None:
    try:
        get_game(args.game)
    except UnknownGameError:
        raise EngineError(
            f"unknown game {args.game!r} (known: {', '.join(registered_keys())})"
        ) from None
    for name in ("a", "b"):
        if getattr(args, name) not in KINDS:
            raise EngineError(
                f"--{name}: unknown bot kind {getattr(args, name)!r} (use {', '.join(KINDS)})"
            )
    if args.deals < 1:
        raise EngineError(f"--deals must be at least 1, not {args.deals}")
    if not 0 < args.budget_ms <= 60_000:
        raise EngineError(f"--budget-ms must be above 0 and at most 60000, not {args.budget_ms}")
    if args.workers < 1:
        raise EngineError(f"--workers must be at least 1, not {args.workers}")
    if args.resume and not args.log:
        raise EngineError("--resume needs --log (the log of the run to carry on)")


def _job(job: tuple[str, str, str, str, int, float, str]) -> DealOutcome:
    return play_duplicate(*job)


def _run(args: argparse.Namespace, done: Collection[int] = ()) -> Iterator[DealOutcome]:
    jobs = [
        (args.game, args.a, args.b, args.seed, n, args.budget_ms, args.clock)
        for n in range(1, args.deals + 1)
        if n not in done
    ]
    if args.workers == 1:
        yield from map(_job, jobs)
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        yield from pool.imap_unordered(_job, jobs)


def _progress(outcomes: Iterable[DealOutcome], total: int) -> Iterable[DealOutcome]:
    if not sys.stderr.isatty():
        return outcomes
    from tqdm import tqdm

    return tqdm(outcomes, total=total, unit="deal", file=sys.stderr)


def _text(report: dict[str, Any]) -> str:
    lines = [f"{report['game']}: {report['deals']} duplicated deals ({report['drawn']} drawn)"]
    for kind, row in report["kinds"].items():
        lo, hi = row["ci95"]
        lines.append(
            f"  {kind}: {row['mean_points']:+.3f} points per deal (95% {lo:+.3f} .. {hi:+.3f}), "
            f"won {row['won']}, think median {row['think_ms_median']:.1f} ms, "
            f"max {row['think_ms_max']:.1f} ms"
        )
    diff = report["diff"]
    lines.append(
        f"  A - B: {diff['a_minus_b']:+.3f} (95% {diff['ci95'][0]:+.3f} .. {diff['ci95'][1]:+.3f})"
    )
    return "\n".join(lines)


def _open_log(path: str, mode: Literal["a", "w"], *, gz: bool) -> IO[str]:
    """A log to write, as text: gzip-compressed when ``gz`` (logs named ``*.gz``; appending
    adds a gzip member, which reading joins), so long runs can be kept small beside the code."""
    if gz:
        return gzip.open(path, "at" if mode == "a" else "wt", encoding="utf-8")
    return open(path, mode, encoding="utf-8")  # noqa: SIM115


def _log_lines(path: str) -> tuple[list[str], bool]:
    """The whole lines of the log at ``path``, and whether it was cut short (its writer killed:
    the last gzip member lacks its end, or the last line its newline)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise EngineError(f"cannot read the log {path}: {exc.strerror}") from None
    cut = False
    if path.endswith(".gz"):
        parts: list[bytes] = []
        while data:
            member = zlib.decompressobj(wbits=31)  # one gzip member; appending adds another
            try:
                parts.append(member.decompress(data))
            except zlib.error:
                raise EngineError(f"{path} is not a gzip-compressed arena log") from None
            if not member.eof:  # flushed line by line, but never closed
                cut = True
                break
            data = member.unused_data
        data = b"".join(parts)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise EngineError(f"{path} is not an arena log (one JSON object per deal)") from None
    if text and not text.endswith("\n"):
        text, cut = text[: text.rfind("\n") + 1], True
    return [line for line in text.splitlines() if line.strip()], cut


def _outcomes(path: str, lines: list[str]) -> list[DealOutcome]:
    try:
        return [DealOutcome.from_json(json.loads(line)) for line in lines]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise EngineError(f"{path} is not an arena log (one JSON object per deal)") from None


def _read_log(path: str) -> list[DealOutcome]:
    return _outcomes(path, _log_lines(path)[0])


def _resumed(path: str, deals: int) -> list[DealOutcome]:
    """The deals 1..``deals`` that the log at ``path`` already holds (none if it is absent),
    each once. A log cut short is first written again with its whole lines, so that what is
    appended next follows a whole log."""
    if not os.path.exists(path):
        return []
    lines, cut = _log_lines(path)
    outcomes = _outcomes(path, lines)
    if cut:
        temporary = f"{path}.{os.getpid()}.tmp"
        with _open_log(temporary, "w", gz=path.endswith(".gz")) as handle:
            handle.writelines(line + "\n" for line in lines)
        os.replace(temporary, path)
    kept: dict[int, DealOutcome] = {}
    for outcome in outcomes:
        if 1 <= outcome.deal <= deals:
            kept.setdefault(outcome.deal, outcome)
    return list(kept.values())


def main(argv: Sequence[str] | None = None) -> int:
    """``luzi arena``; returns the exit status (2 with a message for bad arguments)."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        _check(args)
        if args.from_log:
            outcomes = _read_log(args.from_log)
            if not outcomes:
                raise EngineError(f"the log {args.from_log} holds no deal")
        else:
            outcomes = _resumed(args.log, args.deals) if args.resume else []
            done = {o.deal for o in outcomes}
            log = _open_log(args.log, "a", gz=args.log.endswith(".gz")) if args.log else None
            try:
                for outcome in _progress(_run(args, done), args.deals - len(done)):
                    outcomes.append(outcome)
                    if log is not None:
                        log.write(json.dumps(outcome.to_json()) + "\n")
                        log.flush()
            finally:
                if log is not None:
                    log.close()
            outcomes.sort(key=lambda o: o.deal)
    except (EngineError, OSError) as exc:
        print(f"luzi arena: error: {exc}", file=sys.stderr)
        return 2
    report = summarize(
        args.game, args.a, args.b, outcomes, budget_ms=args.budget_ms, clock=args.clock
    )
    print(json.dumps(report, ensure_ascii=False) if args.json else _text(report))
    return 0
