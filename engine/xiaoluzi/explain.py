"""A selection of cards explained before it is sent: the play it makes, and why it may not go.

Contract: ``docs/xiaoluzi.md``. Every card of the pack is unique, and
:func:`~engine.xiaoluzi.plays.legal_plays` lists every set of cards that makes a legal play, so a
selection is accepted when it is one of the seat's listed plays. Suits never rank, but the 7H
holder asks first and leads first in mode none, and under ``first_lead_7h`` that first lead
holds 7H: so the cards are the cards selected, never another copy.

``view`` is what the seat sees: its private view of the deal (``hand``, ``legal``, ``awaiting``,
``seat``, ``phase``, ``trick``), or the site's summary of it with that view under ``deal`` and
the play to beat as ``current``. Messages are English message ids (``%(name)s`` params) the
caller translates; the play names hold the rule terms in Chinese (the English type too in
English).

>>> view = {"seat": 0, "awaiting": [0], "phase": "play", "hand": "9S 9H KD",
...         "legal": [{"kind": "pass", "seat": 0}], "trick": {"current": "10S 10D"}}
>>> verdict = explain_selection(view=view, cards="9S 9H")
>>> verdict.ok, verdict.message % verdict.params
(False, 'This is 对子 9: it does not beat 对子 10.')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, Rank, format_cards, parse_cards
from engine.errors import EngineError
from engine.game import Verdict
from engine.selection import held_selection
from engine.xiaoluzi.plays import SEVEN_OF_HEARTS, Play, classify, sort_cards

__all__ = ["explain_selection", "play_name"]


def _(message: str) -> str:
    """Marks a message id for the translation catalog; the caller translates it."""
    return message


_JOKER_NAMES = {Rank.SMALL_JOKER: "小王", Rank.BIG_JOKER: "大王"}


def play_name(play: Play, english: bool = False) -> str:
    """The play's name for people: its Chinese type (the English one too in English) and the
    rank it compares by: ``对子 9``, ``三张 Q``, ``对子 大王小王``.

    >>> play_name(Play.parse("QS SJ BJ")), play_name(Play.parse("BJ SJ"), english=True)
    ('三张 Q', '对子 (pair) 大王小王')
    """
    name = play.type.chinese
    if english:
        name = f"{name} ({play.type.value})"
    if all(c.is_joker for c in play.cards) and len(play.cards) == 2:
        return f"{name} 大王小王"
    return f"{name} {_JOKER_NAMES.get(play.rank, play.rank.token)}"


def explain_selection(*, view: Mapping[str, Any], cards: str, english: bool = False) -> Verdict:
    """Whether ``cards`` may be sent now by the seat whose view is ``view``, and why not in
    words."""
    read = held_selection(view, cards, sort_cards)
    if isinstance(read, Verdict):
        return read
    selected, hand = read
    deal = view.get("deal") or view
    if view.get("seat") not in (view.get("awaiting") or deal.get("awaiting") or []):
        return Verdict(False, _("It is not your turn."))
    phase = deal.get("phase")
    if phase is not None and phase != "play":
        return Verdict(False, _("No cards are played yet: answer with the buttons first."))
    play = classify(selected)
    if play is None:
        return _no_play(selected)
    current = _current(view, deal)
    name = play_name(play, english)
    plays = [_cards(a) for a in view.get("legal") or [] if _is_play(a)]
    text = format_cards(play.cards)
    if Counter(selected) in [Counter(p) for p in plays]:
        if current is None:
            return Verdict(
                True, _("You lead %(play)s."), {"play": name}, "play", play.type.value, text
            )
        names = {"play": name, "current": play_name(current, english)}
        return Verdict(True, _("%(play)s beats %(current)s."), names, "play", play.type.value, text)
    if current is not None and not play.beats(current):
        names = {"play": name, "current": play_name(current, english)}
        if len(play.cards) != len(current.cards):
            return Verdict(
                False,
                _("The play to beat is %(current)s: play %(count)d cards or pass."),
                {"current": names["current"], "count": len(current.cards)},
            )
        if play.rank == current.rank:
            return Verdict(
                False,
                _(
                    "This is %(play)s: as high as %(current)s, so it does not beat it (a joker "
                    "takes the rank of the cards it joins)."
                ),
                names,
            )
        return Verdict(False, _("This is %(play)s: it does not beat %(current)s."), names)
    if current is None and plays and all(SEVEN_OF_HEARTS in p for p in plays):
        return Verdict(False, _("The first lead holds 7H (红桃7) at this table."))
    if play.rank == Rank.SEVEN and len(play.cards) >= 3:
        return Verdict(
            False, _("At this table jokers make no triple or four of 7 (joker_sevens is off).")
        )
    return Verdict(False, _("%(cards)s cannot be played now."), {"cards": text})


def _is_play(action: Any) -> bool:
    return isinstance(action, Mapping) and action.get("kind") == "play"


def _cards(action: Mapping[str, Any]) -> list[Card]:
    try:
        return parse_cards(str(action.get("cards") or ""))
    except EngineError:
        return []


def _current(view: Mapping[str, Any], deal: Mapping[str, Any]) -> Play | None:
    text = view.get("current")
    if text is None:
        trick = deal.get("trick")
        text = trick.get("current") if isinstance(trick, Mapping) else None
    if not text:
        return None
    try:
        return classify(parse_cards(str(text)))
    except EngineError:
        return None


def _no_play(selected: Sequence[Card]) -> Verdict:
    if len(selected) > 4:
        return Verdict(
            False,
            _(
                "Only 1 to 4 cards make a play in 小路子 (单张, 对子, 三张, 四张): there are no "
                "straights and no bombs."
            ),
        )
    naturals = {c.rank for c in selected if not c.is_joker}
    if len(naturals) > 1:
        return Verdict(
            False,
            _(
                "%(count)d cards of different ranks make no play: a 对子, 三张 or 四张 is of one "
                "rank, and 大王 or 小王 may join it (百搭)."
            ),
            {"count": len(selected)},
        )
    return Verdict(
        False,
        _(
            "These cards make no play: the plays are 单张, and 对子, 三张 or 四张 of one rank that "
            "大王 and 小王 may join (百搭); 大王小王 together are the highest pair."
        ),
    )
