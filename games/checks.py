"""Explain a selection of cards before it is sent: what play it makes and whether it beats the
current play. The engine answers (``classify`` and ``Play.beats``); the browser keeps no copy of
the rules. Reads only: nothing here changes a deal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.cards import format_cards, parse_cards
from engine.daguai import Play, classify, parse_level
from engine.errors import EngineError

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


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    message: str
    kind: str = ""  # "play" or "return" when ok
    play_type: str = ""
    cards: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "message": self.message,
            "action": self.kind,
            "type": self.play_type,
            "cards": self.cards,
        }


def play_name(play: Play) -> str:
    """The play's name for people: its Chinese type name (with the English one in English) and
    the rank it is compared by."""
    name = play.type.chinese
    if not (get_language() or "").startswith("zh"):
        name = f"{name} ({play.type.english})"
    return f"{name} {play.rank.token}"


def selection_explain(*, view: SeatView, cards: str) -> Verdict:
    """Say whether ``cards`` may be played (or returned) now, and why not in words."""
    if len(cards) > MAX_CARDS_TEXT:
        return Verdict(False, _("Too many cards selected."))
    try:
        selected = parse_cards(cards)
        hand = parse_cards(view.hand)
        level = parse_level(view.level)
    except EngineError as error:
        return Verdict(False, _("These are not cards: %(error)s") % {"error": error})
    if not selected:
        return Verdict(False, _("Select cards first."))
    lacking = Counter(selected) - Counter(hand)
    if lacking:
        return Verdict(
            False,
            _("You do not hold %(cards)s.") % {"cards": format_cards(sorted(lacking.elements()))},
        )
    if view.returning:
        if len(selected) != 1:
            return Verdict(False, _("Select exactly one card to return (还贡)."))
        return Verdict(
            True,
            _("Return %(card)s (还贡).") % {"card": format_cards(selected)},
            kind="return",
            cards=format_cards(selected),
        )
    if not view.my_turn:
        return Verdict(False, _("It is not your turn."))
    play = classify(selected, level)
    if play is None:
        if len(selected) not in (1, 2, 3, 5):
            return Verdict(False, _("Only 1, 2, 3 or 5 cards make a play."))
        if len(selected) < 5:
            return Verdict(
                False,
                _("%(count)d cards of different ranks make no play.") % {"count": len(selected)},
            )
        return Verdict(
            False,
            _(
                "These five cards make no play: five cards must be a straight, a flush, "
                "a full house, four with one, a straight flush or five of a kind."
            ),
        )
    text = format_cards(play.cards)
    if view.current is None:
        return Verdict(
            True,
            _("You lead %(play)s.") % {"play": play_name(play)},
            kind="play",
            play_type=play.type.value,
            cards=text,
        )
    current = classify(parse_cards(view.current), level)
    if current is None:  # cannot happen for a play the engine accepted; say so plainly
        return Verdict(False, _("The current play cannot be read."))
    if len(play.cards) != len(current.cards):
        return Verdict(
            False,
            _("The play to beat is %(current)s: play %(count)d cards or pass.")
            % {"current": play_name(current), "count": len(current.cards)},
        )
    if not play.beats(current):
        return Verdict(
            False,
            _("%(play)s does not beat %(current)s.")
            % {"play": play_name(play), "current": play_name(current)},
        )
    return Verdict(
        True,
        _("%(play)s beats %(current)s.") % {"play": play_name(play), "current": play_name(current)},
        kind="play",
        play_type=play.type.value,
        cards=text,
    )
