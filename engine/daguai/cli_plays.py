"""``luzi hand``, ``luzi beats`` and ``luzi plays``: settle a dispute at a physical table."""

from __future__ import annotations

import argparse
from typing import Any

from engine.cards import Rank
from engine.cli import cards_arg, emit
from engine.daguai import HAND_SIZE
from engine.daguai.legal import legal_plays
from engine.daguai.plays import Play, PlayType, classify, parse_level

__all__ = ["play_json", "register"]


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
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def register(sub: Any) -> None:
    """Add the play subcommands to ``luzi``."""
    hand = sub.add_parser("hand", help="the play that cards make 这些牌是什么牌型")
    _add_common(hand)
    hand.add_argument("cards", help='cards, e.g. "3H 3S 3D BJ 4C"')
    hand.set_defaults(handler=_hand)

    beats = sub.add_parser("beats", help="whether PLAY beats OVER 能否压过")
    _add_common(beats)
    beats.add_argument("play", help="the play made")
    beats.add_argument("over", help="the play it is played on")
    beats.set_defaults(handler=_beats)

    plays = sub.add_parser("plays", help="every legal play of a hand 所有可出的牌")
    _add_common(plays)
    plays.add_argument("--over", metavar="CARDS", help="the play to beat (default: leading)")
    plays.add_argument("hand", help="the hand, up to 27 cards")
    plays.set_defaults(handler=_plays)


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
