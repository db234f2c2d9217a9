"""The referee verbs of 上海斗地主: ``luzi VERB --game shanghai_doudizhu ...`` (:mod:`engine.cli`).

Verbs: ``hand``, ``beats``, ``plays``, ``score``, ``escape``, ``simulate``, ``replay``. Exit
status: 0 an answer, 1 a "no" the command reports (cards that make no play, a record whose
replay fails), 2 malformed input, always with one line on stderr and never a traceback.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

from engine.cards import Card, parse_cards
from engine.cli import (
    CommandError,
    add_play_verbs,
    add_replay_verb,
    add_simulate_verb,
    emit,
    json_flag,
    match_deals,
    read_json,
    rejected,
)
from engine.errors import EngineError
from engine.shanghai_doudizhu.bots import Bot, HeuristicBot, RandomBot, play_deal
from engine.shanghai_doudizhu.deal import Deal
from engine.shanghai_doudizhu.legal import legal_plays, report_sets
from engine.shanghai_doudizhu.match import deal_seed
from engine.shanghai_doudizhu.plays import Play, PlayType, classify
from engine.shanghai_doudizhu.record import (
    Record,
    ReplayError,
    replay,
    replay_match,
)
from engine.shanghai_doudizhu.result import (
    MAX_HUANGFAN,
    DealResult,
    EscapeKind,
    Factors,
    Outcome,
    all_pass_result,
    deal_result,
    escape_result,
    farmer_amount,
)
from engine.shanghai_doudizhu.rules import (
    DoubleReport,
    EscapeRounding,
    Huangfan,
    ReportLossRating,
    Rules,
)

__all__ = ["play_json", "register"]

#: The most cards a hand holds (the landlord's 25 + 8).
MOST_CARDS = 33


def _cards(text: str, what: str, most: int = MOST_CARDS) -> list[Card]:
    cards = parse_cards(text)
    if not cards:
        raise CommandError(f"no {what} given")
    if len(cards) > most:
        raise CommandError(f"{what}: {len(cards)} cards, at most {most} allowed")
    for card, count in Counter(cards).items():
        if count > 2:
            raise CommandError(f"{what}: {count} copies of {card}, the two packs have two")
    return cards


def play_json(play: Play) -> dict[str, Any]:
    """A play as JSON: type, key (the rank token it compares by), size, cards and names."""
    return {
        "type": play.type.value,
        "key": play.key_token,
        "size": play.size,
        "cards": str(play),
        "length": play.length,
        "bomb_class": play.bomb_class or None,
        "name_zh": play.type.chinese,
    }


def _describe(play: Play) -> str:
    key = play.key_token or "四王"
    return f"{play.type.chinese} {play.type.english}, {key}: {play}"


def _classify(text: str, what: str) -> Play | None:
    return classify(_cards(text, what))


def _no_play(args: argparse.Namespace, what: str, text: str) -> int:
    message = f"{what} {text.strip()!r} 不成牌型 is not a play"
    emit(args, {"error": message}, message)
    return 1


def _hand(args: argparse.Namespace) -> int:
    play = _classify(args.cards, "cards")
    if play is None:
        return _no_play(args, "cards", args.cards)
    emit(args, play_json(play), _describe(play))
    return 0


def _beats(args: argparse.Namespace) -> int:
    play = _classify(args.play, "PLAY")
    over = _classify(args.over, "OVER")
    if play is None:
        return _no_play(args, "PLAY", args.play)
    if over is None:
        return _no_play(args, "OVER", args.over)
    beats = play.beats(over)
    if play.is_bomb and not over.is_bomb:
        reason = "炸弹大于其他牌型 a bomb beats every other type"
    elif play.is_bomb:
        reason = "炸弹比大小 bomb against bomb: " + ("higher" if beats else "not higher")
    elif over.is_bomb:
        reason = "只有炸弹能压炸弹 only a bomb beats a bomb"
    elif play.type is not over.type:
        reason = "不同牌型不能比较 different types never compare"
    elif play.size != over.size:
        reason = "张数不同 a different number of cards"
    elif beats:
        reason = "同类同张数，更大 same type and size, higher"
    else:
        reason = "同类同张数，不大于 same type and size, not higher"
    verdict = "能压过 beats" if beats else "压不过 does not beat"
    data = {"beats": beats, "reason": reason, "play": play_json(play), "over": play_json(over)}
    emit(args, data, f"{play} {verdict} {over}: {reason}")
    return 0


def _plays(args: argparse.Namespace) -> int:
    hand = _cards(args.hand, "HAND")
    over: Play | None = None
    if args.over is not None:
        over = _classify(args.over, "OVER")
        if over is None:
            return _no_play(args, "OVER", args.over)
    declared: list[Play] = []
    if args.declared is not None:
        wanted = Counter(_cards(args.declared, "--declared"))
        sets = report_sets(hand)
        for p in sets:
            if set(p.cards) & set(wanted):
                declared.append(p)
        if Counter(c for p in declared for c in p.cards) != wanted:
            raise CommandError(
                f"--declared must be whole 报到 sets of the hand: "
                f"{', '.join(map(str, sets)) or 'the hand has none'}"
            )
    plays = legal_plays(hand, over, bombs=not args.no_bombs, declared=declared)
    order = {t: i for i, t in enumerate(PlayType)}
    plays.sort(key=lambda p: (order[p.type], p.size, p.bomb_strength, p.key))
    data = {
        "over": None if over is None else play_json(over),
        "count": len(plays),
        "plays": [play_json(p) for p in plays],
    }
    lines = [f"{len(plays)} 种出法 plays" + (f" 压 over {over}" if over else "")]
    lines += [f"  {_describe(p)}" for p in plays]
    if not plays:
        lines.append("要不起 no play beats it: pass")
    emit(args, data, "\n".join(lines))
    return 0


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(
        base=args.base,
        huangfan=Huangfan(args.huangfan),
        double_report=DoubleReport(args.double_report),
        active_escape_percent=args.active_escape_percent,
        active_escape_rounding=EscapeRounding(args.active_escape_rounding),
        report_loss_rating=ReportLossRating(args.report_loss_rating),
    )


def _huangfan(args: argparse.Namespace, rules: Rules) -> int:
    if args.redeals < 0:
        raise CommandError(f"--redeals must be 0 or more, not {args.redeals}")
    if rules.huangfan is Huangfan.MULTIPLY:
        if args.redeals > MAX_HUANGFAN:
            raise CommandError(
                f"--redeals under --huangfan multiply is at most {MAX_HUANGFAN}, not {args.redeals}"
            )
        return int(args.redeals)
    return 1 if args.redeals else 0


def _seat(value: int | None, what: str) -> None:
    if value is not None and value not in range(4):
        raise CommandError(f"{what} must be a seat 0-3, not {value}")


def _factors(args: argparse.Namespace, rules: Rules, bid: int, report: str | None) -> Factors:
    if args.head_bid and bid != 3:
        raise CommandError("--head-bid (头撂) is a bid of 3: give --bid 3")
    if args.open_hand and not args.head_bid:
        raise CommandError("--open-hand (摊打) happens only with --head-bid (头撂)")
    reported = 0
    fight: bool | None = None
    if report is not None:
        reported = 2 if report.startswith("double") else 1
        fight = not report.endswith("no_play")
    return Factors(
        base=rules.base,
        bid=bid,
        head=args.head_bid,
        huangfan=_huangfan(args, rules),
        marked_joker=args.marked_joker,
        open=args.open_hand,
        reported=reported,
        fight=fight,
    )


def _result_json(result: DealResult, extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "points": list(result.points),
        "rating": list(result.rating),
        **extra,
        "result": result.to_json(),
    }


def _result_text(result: DealResult) -> str:
    seats = ", ".join(
        f"seat {s}: {p:+d} 分, {r:+d} 等级分"
        for s, (p, r) in enumerate(zip(result.points, result.rating, strict=True))
    )
    return f"{result.outcome.value}: {seats}"


def _score(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.all_pass:
        result = all_pass_result()
        emit(args, _result_json(result, {"farmer_amount": 0}), _result_text(result))
        return 0
    missing = [n for n in ("landlord", "winner", "bid") if getattr(args, n) is None]
    if missing:
        raise CommandError(f"give --{' --'.join(missing)} (or --all-pass)")
    _seat(args.landlord, "--landlord")
    factors = _factors(args, rules, args.bid, args.report)
    if args.winner == "landlord":
        no_play = args.report is not None and args.report.endswith("no_play")
        outcome = Outcome.REPORT_NO_PLAY if no_play else Outcome.LANDLORD
    else:
        if args.report is not None and args.report.endswith("no_play"):
            raise CommandError("报到 不打 (--report ...no_play) is a landlord win")
        outcome = Outcome.FARMERS
    result = deal_result(args.landlord, outcome, factors, rules)
    f = farmer_amount(factors, outcome is not Outcome.FARMERS, rules)
    emit(args, _result_json(result, {"farmer_amount": f}), _result_text(result))
    return 0


def _escape(args: argparse.Namespace) -> int:
    rules = _rules(args)
    _seat(args.seat, "--seat")
    _seat(args.landlord, "--landlord")
    if args.landlord is None:
        if args.head_bid or args.open_hand or args.report is not None:
            raise CommandError("without --landlord the escape came during the bidding")
        if args.bid == 3:
            raise CommandError("a bid of 3 ends the bidding at once: give --landlord")
        factors = _factors(args, rules, args.bid or 0, None)
    else:
        if args.bid is None:
            raise CommandError("give --bid with --landlord")
        factors = _factors(args, rules, args.bid, args.report)
    result = escape_result(args.seat, EscapeKind(args.kind), args.landlord, factors, rules)
    pays = -result.points[args.seat]
    emit(args, _result_json(result, {"pays": pays}), _result_text(result))
    return 0


def _match_seed(text: str) -> int | str:
    """A match seed on the command line: a number, or else text."""
    return int(text) if text.isdigit() else text


def _simulate(args: argparse.Namespace) -> int:
    match_seed: int | str = args.seed
    outcomes: Counter[str] = Counter()
    zero_sum = True
    verified = 0
    start = time.perf_counter()
    for i in range(1, args.deals + 1):
        seed = deal_seed(match_seed, i)
        bots: list[Bot] = [
            RandomBot(f"{seed}/{s}") if args.bots == "random" else HeuristicBot(f"{seed}/{s}")
            for s in range(4)
        ]
        deal = Deal(seed=seed)
        result = play_deal(deal, bots)
        outcomes[result.outcome.value] += 1
        if result.outcome is not Outcome.ESCAPE and sum(result.points) != 0:
            zero_sum = False
        if args.verify_records:
            again = replay(Record.loads(Record.from_deal(deal).dumps()))
            if again.result != deal.result:
                raise EngineError(f"deal {seed}: the replay differs from the deal")
            verified += 1
    seconds = time.perf_counter() - start
    data = {
        "deals": args.deals,
        "seed": match_seed,
        "bots": args.bots,
        "seconds": round(seconds, 4),
        "deals_per_second": round(args.deals / seconds, 2) if seconds > 0 else None,
        "outcomes": dict(sorted(outcomes.items())),
        "zero_sum": zero_sum,
        "records_verified": verified,
    }
    text = (
        f"{args.deals} deals in {seconds:.2f} s ({data['deals_per_second']} deals/s); "
        + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
    )
    emit(args, data, text)
    return 0


def _replay(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    try:
        deals = match_deals(data)
        if deals is not None:
            records = [Record.from_json(item) for item in deals]
            match = replay_match(records)
            out = {"ok": True, "match": match.to_json()}
            emit(args, out, f"verified 核对无误: {len(records)} deals, points {match.points}")
            return 0
        record = Record.from_json(data)
        deal = replay(record)
    except ReplayError as exc:
        return rejected(args, exc, exc.index)
    out = {
        "ok": True,
        "headers": record.headers.to_json(),
        "actions": len(deal.actions),
        "over": deal.over,
        "result": None if deal.result is None else deal.result.to_json(),
        "view": deal.public_view(),
    }
    text = "verified 核对无误: " + (
        _result_text(deal.result) if deal.result else f"{len(deal.actions)} actions, not over"
    )
    emit(args, out, text)
    return 0


def _scoring_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", type=int, default=1, help="底分 base score (default 1)")
    parser.add_argument("--bid", type=int, choices=(1, 2, 3), help="当局档数 the bid")
    parser.add_argument("--landlord", type=int, metavar="S", help="the landlord's seat 0-3")
    parser.add_argument("--head-bid", action="store_true", help="头撂")
    parser.add_argument("--open-hand", action="store_true", help="摊打")
    parser.add_argument("--redeals", type=int, default=0, metavar="N", help="荒番: all-pass deals")
    parser.add_argument("--marked-joker", action="store_true", help="标记牌为王")
    parser.add_argument("--huangfan", choices=[m.value for m in Huangfan], default="flag")
    parser.add_argument("--double-report", choices=[m.value for m in DoubleReport], default="x2")
    parser.add_argument("--active-escape-percent", type=int, default=110)
    parser.add_argument(
        "--active-escape-rounding", choices=[m.value for m in EscapeRounding], default="ceil"
    )
    parser.add_argument(
        "--report-loss-rating", choices=[m.value for m in ReportLossRating], default="normal"
    )


def register(sub: Any) -> None:
    """Add 上海斗地主's verbs to ``luzi`` (``--game shanghai_doudizhu``)."""

    plays = add_play_verbs(
        sub, (_hand, _beats, _plays), example="3H 3S 3D 4C 4C", hand="the hand, up to 33 cards"
    )
    plays.add_argument("--no-bombs", action="store_true", help="the seat is at its bomb limit")
    plays.add_argument("--declared", metavar="CARDS", help="the declared 报到 sets of the hand")

    score = sub.add_parser("score", help="points and rating of a deal 积分")
    json_flag(score)
    _scoring_options(score)
    score.add_argument("--winner", choices=("landlord", "farmers"))
    score.add_argument(
        "--report", choices=("play", "no_play", "double_play", "double_no_play"), help="报到"
    )
    score.add_argument("--all-pass", action="store_true", help="荒番: nobody bid")
    score.set_defaults(handler=_score)

    escape = sub.add_parser("escape", help="points and rating of an escape 逃跑")
    json_flag(escape)
    _scoring_options(escape)
    escape.add_argument("--seat", type=int, required=True, metavar="S", help="the escaper")
    escape.add_argument("--kind", choices=[k.value for k in EscapeKind], required=True)
    escape.add_argument("--report", choices=("play", "double_play"), help="报到 打")
    escape.set_defaults(handler=_escape)

    add_simulate_verb(
        sub,
        _simulate,
        bots=("heuristic", "random"),
        seed=_match_seed,
        what="bots play whole deals 模拟",
    )
    add_replay_verb(sub, _replay)
