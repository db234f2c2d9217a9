"""The referee verbs of 大怪路子 (``luzi VERB``, the default game; :mod:`engine.cli`).

``hand``, ``beats`` and ``plays`` settle a dispute at a physical table; ``result``, ``escape``,
``simulate`` and ``replay`` answer for deals, matches and their records. Exit status as for
every ``luzi`` command: 0 done, 1 a "no" the command reports (cards that make no play, a record
that breaks the rules: reported on stdout, the reason on stderr), 2 malformed input, one line on
stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.cards import Rank
from engine.cli import (
    CommandError,
    add_play_verbs,
    add_replay_verb,
    add_simulate_verb,
    cards_arg,
    emit,
    json_flag,
    match_deals,
    read_json,
    rejected,
    seat_arg,
)
from engine.daguai import HAND_SIZE
from engine.daguai.deal import Deal
from engine.daguai.legal import legal_plays
from engine.daguai.match import Match
from engine.daguai.plays import Play, PlayType, classify, parse_level
from engine.daguai.record import Record, RecordError, ReplayError, replay, replay_match
from engine.daguai.result import (
    DealResult,
    EscapeResult,
    Levels,
    Team,
    deal_result,
    escape_result,
    leave_result,
)
from engine.daguai.simulate import BOT_MODES, simulate

_seat = seat_arg(6)  # a seat on the command line

__all__ = ["play_json", "register"]


def register(sub: Any) -> None:
    """Add 大怪路子's verbs to ``luzi``: the plays', then the deals' and matches'."""
    _register_plays(sub)
    _register_match(sub)


# -- plays ---------------------------------------------------------------------------------------


def play_json(play: Play) -> dict[str, Any]:
    """A play as JSON: type, rank (the rank it is compared by), cards, and names."""
    return {
        "type": play.type.value,
        "rank": play.rank.token,
        "cards": str(play),
        "size": len(play.cards),
        "jokers": play.jokers,
        "name_zh": play.type.chinese,
        "key": list(play.key),
    }


def _level(token: str) -> Rank:
    return parse_level(token)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--level",
        default="2",
        metavar="R",
        help="the deal's level rank 级牌 (2..10, J, Q, K, A; default 2)",
    )
    json_flag(parser)


def _register_plays(sub: Any) -> None:
    """Add the play subcommands to ``luzi``."""
    add_play_verbs(
        sub,
        (_hand, _beats, _plays),
        example="3H 3S 3D BJ 4C",
        hand="the hand, up to 27 cards",
        options=_add_common,
    )


def _describe(play: Play) -> str:
    return f"{play.type.chinese} {play.type.english}, {play.rank.token}: {play}"


def _classify_arg(text: str, level: Rank, what: str) -> tuple[Play | None, str]:
    cards = cards_arg(text, most=5, what=what)
    play = classify(cards, level)
    if play is None:
        return None, f"{' '.join(map(str, cards))!r} 不成牌型 is not a play"
    return play, ""


def _hand(args: argparse.Namespace) -> int:
    level = _level(args.level)
    play, error = _classify_arg(args.cards, level, "cards")
    if play is None:
        emit(args, {"error": error, "level": level.token}, error)
        return 1
    emit(args, {**play_json(play), "level": level.token}, f"{_describe(play)} (级牌 level {level})")
    return 0


def _beats(args: argparse.Namespace) -> int:
    level = _level(args.level)
    play, error = _classify_arg(args.play, level, "PLAY")
    over, over_error = _classify_arg(args.over, level, "OVER")
    if play is None or over is None:
        message = f"PLAY {error}" if play is None else f"OVER {over_error}"
        emit(args, {"error": message, "level": level.token}, message)
        return 1
    beats = play.beats(over)
    if len(play.cards) != len(over.cards):
        reason = "张数不同，不能相比 different card counts never beat each other"
    elif play.type is not over.type:
        higher = play.type.strength > over.type.strength
        reason = "牌型更大 a higher type" if higher else "牌型更小 a lower type"
    elif beats:
        reason = "同牌型，更大 same type, higher"
    else:
        reason = "同牌型，不大于 same type, not higher (equal plays do not beat)"
    verdict = "能压过 beats" if beats else "压不过 does not beat"
    text = f"{play} ({_describe(play)}) {verdict} {over} ({_describe(over)}): {reason}"
    data = {
        "beats": beats,
        "reason": reason,
        "play": play_json(play),
        "over": play_json(over),
        "level": level.token,
    }
    emit(args, data, text)
    return 0


def _plays(args: argparse.Namespace) -> int:
    level = _level(args.level)
    hand = cards_arg(args.hand, most=HAND_SIZE, what="HAND")
    over: Play | None = None
    if args.over is not None:
        over, error = _classify_arg(args.over, level, "OVER")
        if over is None:
            message = f"OVER {error}"
            emit(args, {"error": message, "level": level.token}, message)
            return 1
    plays = legal_plays(hand, level, over)
    order = {t: i for i, t in enumerate(PlayType)}
    plays.sort(key=lambda p: (order[p.type], p.key, p.jokers))
    data = {
        "level": level.token,
        "over": None if over is None else play_json(over),
        "count": len(plays),
        "plays": [play_json(p) for p in plays],
    }
    lines = [f"{len(plays)} 种出法 plays (级牌 level {level})"]
    if over is not None:
        lines[0] += f" 压 over {over} ({_describe(over)})"
    current: PlayType | None = None
    for p in plays:
        if p.type is not current:
            current = p.type
            lines.append(f"{p.type.chinese} {p.type.english}:")
        lines.append(f"  {p.rank.token:>2}  {p}")
    if not plays:
        lines.append("要不起 no play beats it: pass")
    emit(args, data, "\n".join(lines))
    return 0


# -- deals, matches and records -----------------------------------------------------------------


def _register_match(sub: Any) -> None:
    """Add the deal and match subcommands to ``luzi``."""
    result = sub.add_parser("result", help="the result of a deal from its finishing order 结算")
    result.add_argument("--dealer-team", required=True, metavar="A|B", help="the dealer's team")
    result.add_argument("--levels", required=True, metavar="LA,LB", help="both teams' levels")
    result.add_argument(
        "--finish", required=True, metavar="S,S,...", help="seats in the order they went out"
    )
    _add_base_json(result)
    result.set_defaults(handler=_result)

    escape = sub.add_parser("escape", help="the points of an escape 逃跑")
    escape.add_argument("--seat", required=True, type=_seat, metavar="S", help="who left")
    when = escape.add_mutually_exclusive_group(required=True)
    when.add_argument(
        "--finish", metavar="S,S,...", help="who had gone out before the escape ('' for nobody)"
    )
    when.add_argument("--between-deals", action="store_true", help="left between deals")
    _add_base_json(escape)
    escape.set_defaults(handler=_escape)

    add_simulate_verb(
        sub,
        _simulate,
        bots=BOT_MODES,
        bots_help="heuristic or random at every seat, or mixed: heuristic team vs random team",
    )
    add_replay_verb(sub, _replay)


def _add_base_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", type=int, default=1, metavar="N", help="base score 底分 (1)")
    json_flag(parser)


def _seats(text: str) -> list[int]:
    seats = []
    for token in text.replace(" ", ",").split(","):
        if not token:
            continue
        try:
            seats.append(int(token))
        except ValueError:
            raise CommandError(f"not a seat: {token!r} in --finish {text!r} (use 0-5)") from None
    return seats


def _base(value: int) -> int:
    if value < 0:
        raise CommandError(f"--base must not be negative: {value}")
    return value


def _points_text(points: tuple[int, ...]) -> str:
    return "  ".join(f"seat {s} ({Team.of(s).value}): {p:+d}" for s, p in enumerate(points))


def _result_text(r: DealResult) -> str:
    if r.winner is None:
        head = f"平局 draw: seat {r.finish[0]} went out first, a teammate of it was left last"
    else:
        head = (
            f"team {r.winner.value} wins 胜, {len(r.payers)} to pay tribute 进贡, x{r.multiplier}"
        )
    lines = [head, f"finishing order 出完顺序: {', '.join(map(str, r.finish))}"]
    if r.tributes:
        pairs = ", ".join(f"{p}->{q}" for p, q in r.tributes)
        lines.append(f"tribute 进贡 (payer->receiver): {pairs}")
    lines.append(
        f"next dealer 庄家: seat {r.next_dealer} (team {Team.of(r.next_dealer).value}); "
        f"levels 级: A {r.levels.a.token}, B {r.levels.b.token}"
    )
    if r.passed_a:
        lines.append(f"team {r.dealer_team.value} passed A 过A: the match is won")
    lines.append("points 分: " + _points_text(r.points))
    return "\n".join(lines)


def _result(args: argparse.Namespace) -> int:
    r = deal_result(
        _seats(args.finish),
        dealer_team=Team.parse(args.dealer_team),
        levels=Levels.parse(args.levels),
        base=_base(args.base),
    )
    emit(args, r.to_json(), _result_text(r))
    return 0


def _escape(args: argparse.Namespace) -> int:
    base = _base(args.base)
    if args.between_deals:
        r = leave_result(args.seat, base=base)
        text = f"seat {args.seat} left between deals 未满回合离开: "
    else:
        r = escape_result(args.seat, _seats(args.finish), base=base)
        text = f"seat {args.seat} escaped during the deal 逃跑: "
    emit(args, r.to_json(), text + _points_text(r.points))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    bar = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        if bar and (done == total or done % max(1, total // 100) == 0):
            filled = 30 * done // total
            print(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} deals",
                end="",
                file=sys.stderr,
            )
            if done == total:
                print(file=sys.stderr)

    stats = simulate(
        deals=args.deals,
        seed=args.seed,
        bots=args.bots,
        verify_records=args.verify_records,
        progress=progress,
    )
    data = stats.to_json()
    lines = [
        f"{stats.deals} deals in {stats.matches} matches, {stats.bots} bots, seed {stats.seed}",
        f"plays {stats.plays}, actions {stats.actions}",
        f"wins {stats.wins}, draws {stats.draws}, escapes {stats.escapes}, "
        f"passed A {stats.passed_a}",
        "tributes by payers: " + ", ".join(f"{k}: {v}" for k, v in stats.tributes.items()),
    ]
    if stats.bots == "mixed":
        lines.append(
            f"heuristic team won {stats.heuristic_wins}, random team won {stats.random_wins}"
            f" (win rate {data['heuristic_win_rate']})"
        )
    lines.append(f"{stats.deals_per_second:.1f} deals/s ({stats.seconds:.2f} s)")
    emit(args, data, "\n".join(lines))
    return 0


def _deal_text(deal: Deal, record: Record, title: str = "") -> list[str]:
    h = record.headers
    labels = " ".join(
        f"{k} {v}" for k, v in (("event", h.event), ("round", h.round), ("table", h.table)) if v
    )
    lines = [
        f"{title}{labels + ' ' if labels else ''}dealer 庄家 seat {h.dealer} "
        f"(team {Team.of(h.dealer).value}),"
        f" level 级牌 {deal.level.token}, levels A {h.levels.a.token} B {h.levels.b.token},"
        f" base {h.base}, seed {h.seed}"
    ]
    if any(h.seats):
        lines.append("seats: " + ", ".join(f"{s}={name}" for s, name in enumerate(h.seats)))
    for t in deal.tributes:
        returned = deal.returns.get(t.receiver)
        back = f", returned {returned}" if returned is not None else ""
        lines.append(f"tribute 进贡: seat {t.payer} gave {t.card} to seat {t.receiver}{back}")
    # one line per trick: replay the actions again to see where each trick ends
    step = record.new_deal()
    trick: list[str] = []
    for action in deal.actions:
        step.apply(action)
        if action.kind.value == "return":
            continue
        trick.append(str(action))
        if step.current is None:
            lines.append("  " + "; ".join(trick))
            trick = []
    if trick:
        lines.append("  " + "; ".join(trick))
    lines.append(f"finishing order 出完顺序: {', '.join(map(str, deal.finish)) or '-'}")
    result = deal.result
    if isinstance(result, DealResult):
        lines.append(_result_text(result))
    elif isinstance(result, EscapeResult):
        lines.append(f"seat {result.seat} escaped 逃跑: " + _points_text(result.points))
    else:
        lines.append(f"the deal is not over: {len(deal.actions)} actions so far")
    return lines


def _replay(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    try:
        deals = match_deals(data)
        if deals is not None:
            left = None if isinstance(data, list) else data.get("left")
            if left is not None and not isinstance(left, int):
                raise RecordError(f"left must be a seat, not {left!r}")
            records = [Record.from_json(item) for item in deals]
            match = replay_match(records, left=left)
            return _print_match(args, match, records)
        record = Record.from_json(data)
        deal = replay(record)
    except ReplayError as exc:
        return rejected(args, exc, exc.index)
    out = {
        "ok": True,
        "headers": record.headers.to_json(),
        "actions": len(deal.actions),
        "finish": list(deal.finish),
        "over": deal.over,
        "result": None if deal.result is None else deal.result.to_json(),
        "view": deal.public_view(),
    }
    emit(args, out, "\n".join(["verified 核对无误", *_deal_text(deal, record)]))
    return 0


def _print_match(args: argparse.Namespace, match: Match, records: list[Record]) -> int:
    lines = [f"verified 核对无误: a match of {len(records)} deals, seed {match.seed!r}"]
    for i, (deal, record) in enumerate(zip(match.deals, records, strict=True), 1):
        lines += _deal_text(deal, record, title=f"deal {i}: ")
    end = match.end.value if match.end else "not over"
    teams = match.team_points()
    lines.append(
        f"match: {end}; levels A {match.levels.a.token} B {match.levels.b.token}; "
        f"points A {teams[Team.A]:+d}, B {teams[Team.B]:+d}"
    )
    emit(args, {"ok": True, "match": match.to_json()}, "\n".join(lines))
    return 0
