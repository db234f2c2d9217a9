"""``luzi VERB --game xiaoluzi``: the referee verbs of 小路子 (:mod:`engine.cli`).

Verbs: ``hand``, ``beats``, ``plays``, ``declare``, ``score``, ``escape``, ``simulate`` and
``replay``. Exit status: 0 an answer, 1 a "no" the command reports (cards that make no play, a
seat that cannot escape, an answer out of order, a record that breaks the rules), 2 malformed
input, with one line on stderr and never a traceback.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from engine.cards import Card, format_cards
from engine.cli import (
    CommandError,
    add_play_verbs,
    add_replay_verb,
    add_simulate_verb,
    emit,
    json_flag,
    match_deals,
    positive_arg,
    read_json,
    rejected,
    seat_arg,
)
from engine.cli import Refused as _Refused
from engine.errors import EngineError, IllegalActionError
from engine.xiaoluzi.actions import SEATS, Action, Rules
from engine.xiaoluzi.deal import Deal, Phase
from engine.xiaoluzi.plays import PACK, Play, classify, legal_plays, parse_hand
from engine.xiaoluzi.record import Record, RecordError, ReplayError, replay, replay_match
from engine.xiaoluzi.result import (
    CannotEscapeError,
    Mode,
    deal_result,
    escape_result,
    leave_result,
)
from engine.xiaoluzi.simulate import BOT_MODES, simulate

_seat = seat_arg(4)  # a seat on the command line

__all__ = ["play_json", "register"]

GAME = "xiaoluzi"


def play_json(play: Play) -> dict[str, Any]:
    """A play as JSON: type and the rank it compares by, its cards, how many, its jokers."""
    return {
        "type": play.type.value,
        "rank": play.rank.token,
        "cards": str(play),
        "size": len(play.cards),
        "jokers": play.jokers,
        "name_zh": play.type.chinese,
    }


# -- argument types ----------------------------------------------------------------------------


def _seats(text: str, what: str) -> list[int]:
    seats = []
    for token in text.replace(" ", ",").split(","):
        if not token:
            continue
        try:
            seat = int(token)
        except ValueError:
            raise CommandError(f"not a seat: {token!r} in {what} {text!r} (use 0-3)") from None
        if seat not in SEATS:
            raise CommandError(f"not a seat: {token!r} in {what} {text!r} (use 0-3)")
        seats.append(seat)
    if len(set(seats)) != len(seats):
        raise CommandError(f"a seat is given twice in {what} {text!r}")
    return seats


def _counts(text: str) -> list[int]:
    counts = []
    for token in text.replace(" ", ",").split(","):
        if not token:
            continue
        try:
            counts.append(int(token))
        except ValueError:
            raise CommandError(f"not a count: {token!r} in --cards-played {text!r}") from None
    if len(counts) != 4:
        raise CommandError(f"--cards-played needs four counts n0,n1,n2,n3, not {text!r}")
    return counts


def _mode(text: str) -> Mode:
    try:
        return Mode(text.strip().lower())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"unknown mode {text!r} (use none, declared or countered)"
        ) from None


_YES = {"y", "yes", "1", "true", "宣", "反宣", "是"}
_NO = {"n", "no", "0", "false", "不宣", "不反宣", "不", "否"}


def _answers(text: str) -> list[bool]:
    answers = []
    for token in text.replace(" ", ",").split(","):
        if not token:
            continue
        word = token.strip().lower()
        if word in _YES:
            answers.append(True)
        elif word in _NO:
            answers.append(False)
        else:
            raise CommandError(f"not an answer: {token!r} in --answers {text!r} (use y or n)")
    return answers


# -- the parser --------------------------------------------------------------------------------


def _play_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-joker-sevens", action="store_true", help="option joker_sevens=False")
    json_flag(parser)


def _ledger_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", type=positive_arg, default=1, metavar="X", help="base score (1)")
    parser.add_argument(
        "--silver", type=positive_arg, default=1, metavar="Y", help="base silver 基础银两 (1)"
    )


def _roles_flags(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument("--mode", type=_mode, required=required, metavar="none|declared|countered")
    parser.add_argument("--declarer", type=_seat, metavar="S", help="the declarer 宣牌方")
    parser.add_argument("--counter", type=_seat, metavar="S", help="the counter-declarer 反宣方")


def register(sub: Any) -> None:
    """Add 小路子's verbs to ``luzi`` (``--game xiaoluzi``)."""
    add_play_verbs(
        sub, (_hand, _beats, _plays), example="9S BJ", hand="the hand", options=_play_flags
    )

    declare = sub.add_parser("declare", help="the declaring and counter rounds 宣牌与反宣")
    declare.add_argument("--holder-7h", type=_seat, required=True, metavar="S")
    declare.add_argument("--answers", required=True, metavar="y,n,...", help="in asking order")
    json_flag(declare)
    declare.set_defaults(handler=_declare)

    score = sub.add_parser("score", help="the settlement of a deal 结算")
    _roles_flags(score, required=True)
    score.add_argument("--finish", required=True, metavar="a,b,c", help="seats in order out")
    score.add_argument("--cards-played", required=True, metavar="n0,n1,n2,n3")
    score.add_argument("--slam-count", choices=("cards", "plays"), default="cards")
    _ledger_flags(score)
    json_flag(score)
    score.set_defaults(handler=_score)

    escape = sub.add_parser("escape", help="the settlement of an escape 逃跑")
    escape.add_argument("--seat", type=_seat, required=True, metavar="S", help="who leaves")
    escape.add_argument("--between-deals", action="store_true", help="left between deals")
    _roles_flags(escape, required=False)
    escape.add_argument("--finish", metavar="a,b", help="the seats already out ('' for none)")
    _ledger_flags(escape)
    json_flag(escape)
    escape.set_defaults(handler=_escape)

    add_simulate_verb(sub, _simulate, bots=BOT_MODES)
    add_replay_verb(sub, _replay)


# -- plays -------------------------------------------------------------------------------------


def _cards(text: str, what: str) -> list[Card]:
    try:
        return parse_hand(text)
    except EngineError as exc:
        raise CommandError(f"{what}: {exc}") from None


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(joker_sevens=not getattr(args, "no_joker_sevens", False))


def _play(text: str, what: str, rules: Rules) -> Play:
    cards = _cards(text, what)
    play = classify(cards, joker_sevens=rules.joker_sevens)
    if play is None:
        shown = format_cards(cards) or "no cards"
        raise _Refused(f"{what} {shown!r} 不成牌型 is not a play")
    return play


def _describe(play: Play) -> str:
    return f"{play.type.chinese} {play.type.value} of {play.rank.token}: {play}"


def _hand(args: argparse.Namespace) -> int:
    play = _play(args.cards, "cards", _rules(args))
    emit(args, play_json(play), _describe(play))
    return 0


def _disjoint(a: Sequence[Card], b: Sequence[Card], what: str) -> None:
    both = [c for c in a if c in b]
    if both:
        raise CommandError(f"{format_cards(both)} in both {what}: the pack has one of each card")


def _beats(args: argparse.Namespace) -> int:
    rules = _rules(args)
    _disjoint(_cards(args.play, "PLAY"), _cards(args.over, "OVER"), "PLAY and OVER")
    play = _play(args.play, "PLAY", rules)
    over = _play(args.over, "OVER", rules)
    beats = play.beats(over)
    if len(play.cards) != len(over.cards):
        reason = "张数不同，不能相比 different card counts never beat each other"
    elif beats:
        reason = "同张数，点数更大 same count, higher rank"
    else:
        reason = "同张数，点数不更大 same count, not higher (equal plays do not beat)"
    data = {"beats": beats, "reason": reason, "play": play_json(play), "over": play_json(over)}
    verdict = "能压过 beats" if beats else "压不过 does not beat"
    emit(args, data, f"{play} ({_describe(play)}) {verdict} {over} ({_describe(over)}): {reason}")
    return 0


def _plays(args: argparse.Namespace) -> int:
    rules = _rules(args)
    hand = _cards(args.hand, "HAND")
    if not hand:
        raise CommandError("HAND: no cards given")
    over: Play | None = None
    if args.over is not None:
        _disjoint(hand, _cards(args.over, "OVER"), "HAND and OVER")
        over = _play(args.over, "OVER", rules)
    plays = legal_plays(hand, over, joker_sevens=rules.joker_sevens)
    data = {
        "over": None if over is None else play_json(over),
        "count": len(plays),
        "plays": [play_json(p) for p in plays],
    }
    lines = [f"{len(plays)} 种出法 plays" + ("" if over is None else f" over {over}")]
    lines += [f"  {p.type.value:<6} {p.rank.token:>2}  {p}" for p in plays]
    if over is not None and not plays:
        lines.append("要不起 no play beats it: pass")
    emit(args, data, "\n".join(lines))
    return 0


# -- declaring ---------------------------------------------------------------------------------


def _declare(args: argparse.Namespace) -> int:
    answers = _answers(args.answers)
    holder = args.holder_7h
    # a deal whose seat ``holder`` holds 7H (the pack in order, 8 cards a seat from there)
    hands: list[list[Card]] = [[] for _ in SEATS]
    for i, card in enumerate(PACK):
        hands[(holder + i // 8) % 4].append(card)
    deal = Deal(hands=hands)
    for i, yes in enumerate(answers, 1):
        seat = deal.turn
        if deal.phase not in (Phase.DECLARE, Phase.COUNTER) or seat is None:
            raise _Refused(
                f"answer {i} is out of order: the rounds end after {len(deal.answers)} answers"
            )
        if deal.phase is Phase.DECLARE:
            deal.apply(Action.declare(seat, yes))
        else:
            deal.apply(Action.counter(seat, yes))
    if deal.phase in (Phase.DECLARE, Phase.COUNTER):
        question = "宣" if deal.phase is Phase.DECLARE else "反宣"
        raise CommandError(
            f"--answers: {len(answers)} answers, but seat {deal.turn} is asked {question} next"
        )
    data = {
        "asked": [[q, s] for q, s, _ in deal.answers],
        "answers": [yes for _, _, yes in deal.answers],
        "mode": deal.mode.value,
        "declarer": deal.declarer,
        "counter": deal.counter,
        "leader": deal.leader,
        "bystanders": list(deal.bystanders),
    }
    asked = ", ".join(f"{q} {s}: {'y' if y else 'n'}" for q, s, y in deal.answers)
    text = (
        f"asked 询问: {asked}\n"
        f"mode 模式: {deal.mode.value} {deal.mode.chinese}; declarer {deal.declarer}, "
        f"counter {deal.counter}, leader 先出 {deal.leader}, bystanders 旁观 "
        f"{list(deal.bystanders)}"
    )
    emit(args, data, text)
    return 0


# -- settling ----------------------------------------------------------------------------------


def _ledgers_text(points: Sequence[int], silver: Sequence[int]) -> str:
    return "  ".join(
        f"seat {s}: {p:+d} 分 {v:+d} 两"
        for s, (p, v) in enumerate(zip(points, silver, strict=True))
    )


def _score(args: argparse.Namespace) -> int:
    r = deal_result(
        args.mode,
        _seats(args.finish, "--finish"),
        _counts(args.cards_played),
        declarer=args.declarer,
        counter=args.counter,
        base_score=args.base,
        base_silver=args.silver,
        slam_count=args.slam_count,
    )
    data = {
        "points": list(r.points),
        "silver": list(r.silver),
        "slam": r.slam,
        "multipliers": list(r.multipliers),
        "mode": r.mode.value,
        "finish": list(r.finish),
    }
    slam = " 全关 slam x2" if r.slam else ""
    emit(args, data, f"{r.mode.value} {r.mode.chinese}{slam}\n{_ledgers_text(r.points, r.silver)}")
    return 0


def _escape(args: argparse.Namespace) -> int:
    if args.between_deals:
        if args.mode is not None or args.finish:
            raise CommandError("--between-deals takes no --mode and no --finish")
        r = leave_result(args.seat, base_score=args.base, base_silver=args.silver)
    else:
        if args.mode is None:
            raise CommandError("give --between-deals or --mode (and --finish)")
        try:
            r = escape_result(
                args.seat,
                args.mode,
                _seats(args.finish or "", "--finish"),
                declarer=args.declarer,
                counter=args.counter,
                base_score=args.base,
                base_silver=args.silver,
            )
        except CannotEscapeError as exc:
            raise _Refused(str(exc)) from None
    data = {
        "points": list(r.points),
        "silver": list(r.silver),
        "multipliers": list(r.multipliers),
        "kind": r.kind,
    }
    head = "left between deals 离开" if r.kind == "leave" else "escaped 逃跑"
    emit(args, data, f"seat {r.seat} {head}\n{_ledgers_text(r.points, r.silver)}")
    return 0


# -- simulate and replay -----------------------------------------------------------------------


def _simulate(args: argparse.Namespace) -> int:
    stats = simulate(
        deals=args.deals, seed=args.seed, bots=args.bots, verify_records=args.verify_records
    )
    data = stats.to_json()
    text = (
        f"{stats.deals} deals in {stats.matches} matches, {stats.bots} bots, seed {stats.seed}\n"
        f"modes {stats.modes}, declarer won {stats.declarer_wins}, counter won "
        f"{stats.counter_wins}, slams {stats.slams}, escapes {stats.escapes}\n"
        f"{stats.deals_per_second:.1f} deals/s ({stats.seconds:.2f} s)"
    )
    emit(args, data, text)
    return 0


def _deal_json(deal: Deal) -> dict[str, Any]:
    return {
        "actions": len(deal.actions),
        "mode": deal.mode.value if deal.phase in (Phase.PLAY, Phase.OVER) else None,
        "finish": list(deal.finish),
        "over": deal.over,
        "result": None if deal.result is None else deal.result.to_json(),
    }


def _replay(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    try:
        deals = match_deals(data)
        if deals is not None:
            left = None if isinstance(data, list) else data.get("left")
            if left is not None and (type(left) is not int or left not in SEATS):
                raise RecordError(f"left must be a seat 0-3, not {left!r}")
            records = [Record.from_json(item) for item in deals]
            match = replay_match(records, left=left)
            out: dict[str, Any] = {
                "ok": True,
                "game": GAME,
                "deals": [_deal_json(d) for d in match.deals],
                "match": match.to_json(),
            }
            emit(
                args,
                out,
                f"verified 核对无误: a match of {len(records)} deals, "
                f"points {match.points}, silver {match.silver}",
            )
            return 0
        record = Record.from_json(data)
        deal = replay(record)
    except ReplayError as exc:
        return rejected(args, exc, exc.index)
    except IllegalActionError as exc:  # a leaver the match cannot take
        return rejected(args, exc, None)
    out = {
        "ok": True,
        "game": GAME,
        "headers": record.headers.to_json(),
        **_deal_json(deal),
        "view": deal.public_view(),
    }
    lines = ["verified 核对无误", *(str(a) for a in deal.actions)]
    if deal.result is not None:
        lines.append(f"result: {json.dumps(deal.result.to_json(), ensure_ascii=False)}")
    emit(args, out, "\n".join(lines))
    return 0
