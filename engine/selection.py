"""What every game's check of a selection says first, whatever the game: too many cards, text
that is no cards, nothing selected, or cards the seat does not hold (the game's own rules come
after, in its package)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.cards import Card, format_cards, parse_cards
from engine.errors import EngineError
from engine.game import Verdict

#: The longest selection text a check reads (a whole hand is far shorter).
MAX_CARDS_TEXT = 200


def _(message: str) -> str:
    """Marks a message id for the translation catalog; the caller translates it."""
    return message


def held_selection(
    view: Mapping[str, Any], cards: str, order: Callable[[Iterable[Card]], list[Card]]
) -> Verdict | tuple[list[Card], list[Card]]:
    """``(selected, hand)`` when ``cards`` are cards the seat holds, else the refusal; ``order``
    sorts the cards a refusal names as the game shows them."""
    if len(cards) > MAX_CARDS_TEXT:
        return Verdict(False, _("Too many cards selected."))
    try:
        selected = parse_cards(cards)
        hand = parse_cards(str(view.get("hand") or ""))
    except EngineError as error:
        return Verdict(False, _("These are not cards: %(error)s"), {"error": str(error)})
    if not selected:
        return Verdict(False, _("Select cards first."))
    lacking = Counter(selected) - Counter(hand)
    if lacking:
        return Verdict(
            False,
            _("You do not hold %(cards)s."),
            {"cards": format_cards(order(lacking.elements()))},
        )
    return selected, hand
