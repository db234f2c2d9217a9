"""What the engine made of an offline table's sheet, with names: the preview a referee reads
before entering a result and the confirmer reads before confirming it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from engine.registry import get_game
from games.models import Match
from tournaments.models import Pairing
from tournaments.selectors import figure_label


@dataclass(frozen=True, slots=True)
class PreviewSeat:
    """A seat of the table as the preview names it."""

    seat: int
    name: str
    team: str


@dataclass(frozen=True, slots=True)
class PreviewDeal:
    """One deal as the engine scored it, with names: what the referee and the confirmer read."""

    number: int
    dealer: PreviewSeat | None
    finish: tuple[PreviewSeat, ...]
    escape: PreviewSeat | None
    leave: PreviewSeat | None
    winner: str  # a team's name, "" for a draw or an escape
    multiplier: int
    payers: tuple[PreviewSeat, ...]
    receivers: tuple[PreviewSeat, ...]
    points_a: int
    points_b: int
    levels_before: tuple[str, str]
    levels: tuple[str, str]
    passed_a: bool
    why: str  # why the levels moved (or did not)


@dataclass(frozen=True, slots=True)
class ResultPreview:
    """What the engine computed from a referee's sheet, before anything is written."""

    team_a: str
    team_b: str
    deals: tuple[PreviewDeal, ...]
    points_a: int
    points_b: int
    level_a: str
    level_b: str
    finished: bool
    winner: str
    end_reason: str


def levels_why(result: dict[str, Any], names: dict[str, str]) -> str:
    """Why the levels moved after a deal, or why they did not: only the dealer team goes up."""
    winner, dealer = result.get("winner"), result.get("dealer_team")
    before, after = result.get("levels_before") or {}, result.get("levels") or {}
    if winner is None:
        return _("A draw: nobody goes up.")
    if result.get("passed_a"):
        return _("%(team)s passed A and wins the match (过A).") % {"team": names[winner]}
    if before.get(winner) != after.get(winner):
        return _("%(team)s won as the dealer team: up from %(before)s to %(after)s.") % {
            "team": names[winner],
            "before": before.get(winner),
            "after": after.get(winner),
        }
    if winner != dealer:
        return _(
            "%(team)s won but was not the dealer team: no level up (only the dealer team goes "
            "up); %(team)s deals next."
        ) % {"team": names[winner]}
    return _("%(team)s won at its level: no level up.") % {"team": names[winner]}


def _level_label(match: Match, side: str) -> str:
    """A side's level as the game writes it (大怪路子: 2..10, J, Q, K, A)."""
    level = int(((match.figures or {}).get("level") or {}).get(side, 2))
    return figure_label(match.game, "level", level)


@dataclass(frozen=True, slots=True)
class SeatsDeal:
    """One deal of a game without fixed sides, as the engine scored it, with names."""

    number: int
    dealer: PreviewSeat | None
    what: str  # what happened, in words (the landlord and the factors, the mode and the slam)
    finish: tuple[PreviewSeat, ...]
    escape: PreviewSeat | None
    leave: PreviewSeat | None
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatsPreview:
    """What the engine computed from the sheet of a table whose seats play for themselves
    (上海斗地主, 小路子): each deal's points per seat, the totals and the game's figures."""

    seats: tuple[PreviewSeat, ...]
    deals: tuple[SeatsDeal, ...]
    points: tuple[int, ...]
    figures: tuple[tuple[str, tuple[int, ...]], ...]  # (label, value per seat)
    finished: bool
    winner: str  # a player's name, "" while it goes on or for a tie
    end_reason: str
    kind: str = "seats"


def _yes(flag: Any, text: str) -> list[str]:
    return [text] if flag else []


def _doudizhu_what(result: dict[str, Any], name: Any) -> str:
    """A deal of 上海斗地主 in words: the landlord, the bid and each factor, who won."""
    factors = result.get("factors") or {}
    outcome = result.get("outcome")
    parts: list[str] = []
    if result.get("landlord") is not None:
        parts.append(
            _("Landlord %(name)s, bid %(bid)d")
            % {"name": name(result["landlord"]), "bid": factors.get("bid", 0)}
        )
    parts += _yes(factors.get("head_bid"), _("头撂"))
    parts += _yes(factors.get("open_hand"), _("摊打"))
    if factors.get("reported"):
        how = _("打") if factors.get("fight") else _("不打")
        parts.append(_("报到 ×%(sets)d %(how)s") % {"sets": factors["reported"], "how": how})
    parts += _yes(factors.get("marked_joker"), _("marked joker (标记王)"))
    if factors.get("huangfan"):
        parts.append(_("荒番 %(count)d") % {"count": factors["huangfan"]})
    if outcome == "all_pass":
        parts.insert(0, _("All pass: dealt again (荒番)"))
    elif outcome == "escape":
        parts.append(_("%(name)s escaped (逃跑)") % {"name": name(result.get("escaper"))})
    elif outcome == "farmers":
        parts.append(_("the farmers win"))
    else:
        parts.append(_("the landlord wins"))
    return " · ".join(parts)


def _xiaoluzi_what(result: dict[str, Any], name: Any) -> str:
    """A deal of 小路子 in words: the mode, the declarer and the counter-declarer, the slam."""
    mode = result.get("mode")
    if mode == "declared":
        parts = [_("%(name)s declared") % {"name": name(result.get("declarer"))}]
    elif mode == "countered":
        parts = [
            _("%(name)s declared, %(counter)s counter-declared")
            % {"name": name(result.get("declarer")), "counter": name(result.get("counter"))}
        ]
    else:
        parts = [_("No declaration")]
    if result.get("kind") == "escape":
        parts.append(_("%(name)s escaped (逃跑)") % {"name": name(result.get("seat"))})
    parts += _yes(result.get("slam"), _("slam (关牌)"))
    return " · ".join(parts)


_WHAT = {"shanghai_doudizhu": _doudizhu_what, "xiaoluzi": _xiaoluzi_what}


def seats_preview_of(pairing: Pairing, match: Match) -> SeatsPreview:
    """The preview of a table whose seats play for themselves."""
    game = get_game(match.game)
    people = {
        s.seat: PreviewSeat(s.seat, s.player.name, "")
        for s in pairing.table.seats.select_related("player")
    }

    def seat(value: Any) -> PreviewSeat | None:
        if not isinstance(value, int):
            return None
        return people.get(value) or PreviewSeat(value, str(value), "")

    def name(value: Any) -> str:
        found = seat(value)
        return found.name if found is not None else "–"

    what = _WHAT.get(match.game)
    deals = []
    for row in match.deals.order_by("number"):
        result = row.result or {}
        escape = result.get(
            "escaper", result.get("seat") if result.get("kind") == "escape" else None
        )
        deals.append(
            SeatsDeal(
                number=row.number,
                dealer=seat(row.dealer_seat),
                what=what(result, name) if what is not None else "",
                finish=tuple(x for x in map(seat, row.finishing_order or []) if x is not None),
                escape=seat(escape),
                leave=None,
                points=tuple(row.points or []),
            )
        )
    if match.left_seat is not None:
        deals.append(
            SeatsDeal(
                number=len(deals) + 1,
                dealer=None,
                what=_("Leaving before a deal ends the match."),
                finish=(),
                escape=None,
                leave=seat(match.left_seat),
                points=tuple(
                    p - sum(d.points[s] for d in deals if d.points)
                    for s, p in enumerate(match.points or [])
                ),
            )
        )
    english = translation.get_language() == "en"
    figures = tuple(
        (
            spec.label_en if english else spec.label_zh,
            tuple(
                int(((match.figures or {}).get(spec.key) or {}).get(str(s), spec.start))
                for s in range(game.seat_count)
            ),
        )
        for spec in game.figure_specs
        if spec.holder == "seat"
    )
    winner = seat(int(match.winner)) if match.winner.isdigit() else None
    return SeatsPreview(
        seats=tuple(people[s] for s in sorted(people)),
        deals=tuple(deals),
        points=tuple(match.points or []),
        figures=figures,
        finished=match.status == Match.Status.FINISHED,
        winner=winner.name if winner is not None else "",
        end_reason=match.get_end_reason_display() if match.end_reason else "",
    )


def preview_of(pairing: Pairing, match: Match) -> ResultPreview | SeatsPreview:
    if pairing.team_a_id is None or not get_game(match.game).fixed_sides:
        return seats_preview_of(pairing, match)
    assert pairing.team_a is not None and pairing.team_b is not None
    names = {"A": pairing.team_a.name, "B": pairing.team_b.name}
    people = {
        s.seat: PreviewSeat(s.seat, s.player.name, names["A" if s.seat % 2 == 0 else "B"])
        for s in pairing.table.seats.select_related("player")
    }

    def seat(value: Any) -> PreviewSeat | None:
        if value is None:
            return None
        return people.get(value) or PreviewSeat(value, "", names["A" if value % 2 == 0 else "B"])

    def seats(values: Iterable[Any]) -> tuple[PreviewSeat, ...]:
        return tuple(x for x in (seat(v) for v in values) if x is not None)

    deals = []
    for row in match.deals.order_by("number"):
        result = row.result or {}
        before = result.get("levels_before") or {}
        after = result.get("levels") or before
        escape = result.get("seat") if result.get("outcome") == "escape" else None
        deals.append(
            PreviewDeal(
                number=row.number,
                dealer=seat(row.dealer_seat),
                finish=seats(row.finishing_order or result.get("finish") or []),
                escape=seat(escape),
                leave=None,
                winner=names.get(result.get("winner") or "", ""),
                multiplier=int(result.get("multiplier") or 0),
                payers=seats(result.get("payers") or []),
                receivers=seats(result.get("receivers") or []),
                points_a=(row.side_points or {}).get("A", 0),
                points_b=(row.side_points or {}).get("B", 0),
                levels_before=(str(before.get("A", "")), str(before.get("B", ""))),
                levels=(str(after.get("A", "")), str(after.get("B", ""))),
                passed_a=bool(result.get("passed_a")),
                why=_("An escape ends the match.")
                if escape is not None
                else levels_why(result, names),
            )
        )
    if match.left_seat is not None:
        deals.append(
            PreviewDeal(
                number=len(deals) + 1,
                dealer=None,
                finish=(),
                escape=None,
                leave=seat(match.left_seat),
                winner="",
                multiplier=0,
                payers=(),
                receivers=(),
                points_a=match.side_points.get("A", 0) - sum(d.points_a for d in deals),
                points_b=match.side_points.get("B", 0) - sum(d.points_b for d in deals),
                levels_before=("", ""),
                levels=("", ""),
                passed_a=False,
                why=_("Leaving before a deal ends the match."),
            )
        )
    return ResultPreview(
        team_a=names["A"],
        team_b=names["B"],
        deals=tuple(deals),
        points_a=match.side_points.get("A", 0),
        points_b=match.side_points.get("B", 0),
        level_a=_level_label(match, "A"),
        level_b=_level_label(match, "B"),
        finished=match.status == Match.Status.FINISHED,
        winner=names.get(match.winner or "", ""),
        end_reason=match.get_end_reason_display() if match.end_reason else "",
    )
