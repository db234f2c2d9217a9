"""Explain a selection of cards before it is sent: what play it makes and whether it beats the
current play. The game answers (its ``explain_selection``, from the registry); the browser keeps
no copy of the rules. Reads only: nothing here changes a deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.game import Verdict
from engine.registry import get_game

MAX_CARDS_TEXT = 200


@dataclass(frozen=True, slots=True)
class SeatView:
    """What a seat knows when it selects cards: its hand, the level, the play to beat, whose turn,
    and whether it owes a return (还贡)."""

    hand: str
    level: str
    current: str | None
    my_turn: bool
    returning: bool
    #: for games that read the seat's private view (小路子, 斗地主): the seat, the seats the deal
    #: waits for and the seat's legal actions
    seat: int | None = None
    awaiting: tuple[int, ...] = ()
    legal: tuple[dict[str, Any], ...] = field(default=())
    #: the seat's view of the deal as its state shows it (the game reads what it needs: the
    #: phase, the trick, 斗地主's bomb limits and declared sets)
    deal: dict[str, Any] = field(default_factory=dict)


def verdict_json(verdict: Verdict) -> dict[str, object]:
    """The API's answer for ``verdict`` (its message translated already)."""
    return {
        "ok": verdict.ok,
        "message": verdict.message,
        "action": verdict.kind,
        "type": verdict.play_type,
        "cards": verdict.cards,
    }


def selection_explain(*, view: SeatView, cards: str, game: str | None = None) -> Verdict:
    """Say whether ``cards`` may be played (or returned) now, and why not in words: the game
    (大怪路子 unless ``game`` names another) decides, and the message is translated here."""
    if len(cards) > MAX_CARDS_TEXT:
        return Verdict(ok=False, message=_("Too many cards selected."))
    english = not (get_language() or "").startswith("zh")
    seat = {
        "hand": view.hand,
        "level": view.level,
        "current": view.current,
        "my_turn": view.my_turn,
        "returning": view.returning,
        "seat": view.seat,
        "awaiting": list(view.awaiting),
        "legal": list(view.legal),
        "deal": view.deal,
    }
    verdict = get_game(game).explain_selection(view=seat, cards=cards, english=english)
    message = _(verdict.message)
    if verdict.params:
        message = message % dict(verdict.params)
    return replace(verdict, message=message, params={})
