"""A selection of cards explained before it is sent: the play it makes, and why it may not go.

Contract: ``docs/shanghai_doudizhu.md``. A play is a play of ranks: whichever copies of a rank the
player picked are the cards he plays (suits never rank). So a selection is accepted when the
seat holds those very cards and their ranks make one of the seat's legal plays, which
:meth:`~engine.shanghai_doudizhu.deal.Deal.legal_plays` lists once per multiset of ranks, with the
lowest suits; the verdict carries the cards selected, not the listed ones.

``view`` is what the seat sees: its private view of the deal (``hand``, ``legal``, ``awaiting``,
``seat``, ``phase``, ``trick``, ``landlord``, ``bombs``, ``bomb_limits``,
``declared_in_hand``), or the site's summary of it with that view under ``deal`` and the play to
beat as ``current``. Messages are English message ids (``%(name)s`` params) the caller
translates; the play names in the params hold the rule terms in Chinese (with the English type
in English).

>>> from engine.shanghai_doudizhu.deal import Deal
>>> view = {"seat": 0, "awaiting": [0], "phase": "play", "hand": "2S 2H 2D 2D 2C 3S",
...         "legal": [{"kind": "play", "seat": 0, "cards": "2S"}]}
>>> verdict = explain_selection(view=view, cards="2H")
>>> verdict.ok, verdict.cards, verdict.params["play"]
(True, '2H', '单牌 2')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, Rank, format_cards, parse_cards
from engine.errors import EngineError
from engine.game import Verdict
from engine.selection import held_selection
from engine.shanghai_doudizhu.plays import Play, PlayType, chain_rank, classify, sort_key

__all__ = ["explain_selection", "play_name"]


def _(message: str) -> str:
    """Marks a message id for the translation catalog; the caller translates it."""
    return message


_JOKER_NAMES = {Rank.SMALL_JOKER: "小王", Rank.BIG_JOKER: "大王"}

#: What to play on each type of play, by the type of the play to beat.
_TO_BEAT: dict[PlayType, str] = {
    PlayType.SINGLE: _("The play to beat is %(current)s: play one higher card or a bomb, or pass."),
    PlayType.PAIR: _(
        "The play to beat is %(current)s: play a higher pair (2 cards of one rank) or a bomb, "
        "or pass."
    ),
    PlayType.TRIPLE: _(
        "The play to beat is %(current)s: play 3 cards of one higher rank or a bomb, or pass."
    ),
    PlayType.TRIPLE_PAIR: _(
        "The play to beat is %(current)s: play a higher triple with a pair (5 cards) or a "
        "bomb, or pass."
    ),
    PlayType.STRAIGHT: _(
        "The play to beat is %(current)s: play a higher straight of %(count)d cards or a "
        "bomb, or pass."
    ),
    PlayType.PAIR_STRAIGHT: _(
        "The play to beat is %(current)s: play %(groups)d higher pairs in a row (%(count)d "
        "cards) or a bomb, or pass."
    ),
    PlayType.TRIPLE_STRAIGHT: _(
        "The play to beat is %(current)s: play %(groups)d higher triples in a row (%(count)d "
        "cards) or a bomb, or pass."
    ),
    PlayType.AIRPLANE: _(
        "The play to beat is %(current)s: play %(groups)d higher triples in a row with "
        "%(groups)d pairs in a row (%(count)d cards) or a bomb, or pass."
    ),
    PlayType.BOMB: _(
        "The play to beat is %(current)s: only a bigger bomb beats it (more cards, or as many "
        "of a higher rank; the four jokers beat every bomb), or pass."
    ),
}


def _rank_name(rank: Rank | None) -> str:
    if rank is None:
        return "四个王"
    return _JOKER_NAMES.get(rank, rank.token)


def play_name(play: Play, english: bool = False) -> str:
    """The play's name for people: its Chinese type (the English one too in English) and what it
    compares by: ``对牌 7``, ``顺子 3-7``, ``炸弹 5张7``, ``炸弹 四个王``.

    >>> play_name(Play.parse("AS 2S 3H 4D 5C")), play_name(Play.parse("7S 7S 7H 7D 7C"), True)
    ('顺子 A-5', '炸弹 (bomb) 5×7')
    """
    name = play.type.chinese
    if english:
        name = f"{name} ({play.type.english})"
    if play.type.is_sequence:
        low = chain_rank(play.key - play.length + 1).token
        return f"{name} {low}-{_rank_name(play.key_rank)}"
    if play.type is PlayType.BOMB and play.key_rank is not None:
        count = f"{play.size}×" if english else f"{play.size}张"
        return f"{name} {count}{_rank_name(play.key_rank)}"
    return f"{name} {_rank_name(play.key_rank)}"


def _ranks(cards: Sequence[Card]) -> Counter[int]:
    return Counter(int(c.rank) for c in cards)


def _matches(legal: Any, kind: str, ranks: Counter[int]) -> bool:
    if not isinstance(legal, Mapping) or legal.get("kind") != kind:
        return False
    try:
        return _ranks(parse_cards(str(legal.get("cards") or ""))) == ranks
    except EngineError:
        return False


def explain_selection(*, view: Mapping[str, Any], cards: str, english: bool = False) -> Verdict:
    """Whether ``cards`` may be sent now by the seat whose view is ``view``, and why not in
    words; an accepted verdict carries exactly the cards selected."""
    read = held_selection(view, cards, lambda cs: sorted(cs, key=sort_key))
    if isinstance(read, Verdict):
        return read
    selected, hand = read
    deal = view.get("deal") or view
    seat = view.get("seat")
    if seat not in (view.get("awaiting") or deal.get("awaiting") or []):
        return Verdict(False, _("It is not your turn."))
    legal = list(view.get("legal") or [])
    text = format_cards(sorted(selected, key=sort_key))
    ranks = _ranks(selected)
    phase = deal.get("phase")
    if phase == "report":
        if any(_matches(a, "report", ranks) for a in legal):
            return Verdict(
                True, _("You declare %(cards)s (报到)."), {"cards": text}, "report", "", text
            )
        return Verdict(
            False,
            _(
                "报到 declares whole sets: the four jokers, or all 7 or 8 cards of a rank; "
                "choose none with the button."
            ),
        )
    if phase is not None and phase != "play":
        return Verdict(False, _("No cards are played yet: answer with the buttons first."))
    play = classify(selected)
    if play is None:
        return _no_play(selected)
    current = _current(view, deal)
    name = play_name(play, english)
    if any(_matches(a, "play", ranks) for a in legal):
        if current is None:
            return Verdict(
                True, _("You lead %(play)s."), {"play": name}, "play", play.type.value, text
            )
        names = {"play": name, "current": play_name(current, english)}
        return Verdict(True, _("%(play)s beats %(current)s."), names, "play", play.type.value, text)
    if current is not None and not play.beats(current):
        return _does_not_beat(play, current, english)
    return _not_allowed(play, name, seat, deal, text)


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
    counts = sorted(_ranks(selected).values(), reverse=True)
    ranks = set(_ranks(selected))
    jokers = ranks & {int(Rank.SMALL_JOKER), int(Rank.BIG_JOKER)}
    if ranks == {int(Rank.SMALL_JOKER), int(Rank.BIG_JOKER)} and counts != [2, 2]:
        return Verdict(
            False,
            _(
                "小王 and 大王 make no pair: a pair is two of one rank (小王 小王 or 大王 大王), "
                "and the four jokers together are a bomb."
            ),
        )
    if counts == [3, 1]:
        return Verdict(
            False,
            _(
                "There is no 三带一 in 上海斗地主: a triple goes alone, with a pair (三带二), "
                "or in a row of triples."
            ),
        )
    if counts[0] >= 4 and len(counts) > 1:
        return Verdict(
            False,
            _("There is no 四带二 in 上海斗地主: four or more of a rank go alone, as a bomb."),
        )
    if counts == [1, 1]:
        return Verdict(False, _("Two cards make a play only as a pair (对牌): two of one rank."))
    if len(set(counts)) == 1 and counts[0] <= 3 and len(counts) > 1:
        if jokers:
            return Verdict(False, _("Jokers are never in a sequence (顺子, 双顺, 3顺)."))
        return Verdict(
            False,
            _(
                "These cards are no sequence: a sequence runs on A 2 3 … K A without a gap (no "
                "K A 2); a 顺子 has at least 5 cards, a 双顺 at least 3 pairs, a 3顺 at least 2 "
                "triples."
            ),
        )
    return Verdict(
        False,
        _(
            "These cards make no play. The plays are: 单牌, 对牌, 三条, 三带二 (a triple with a "
            "pair), 顺子 (5 or more in a row), 双顺 (3 or more pairs in a row), 3顺 (2 or more "
            "triples in a row), 飞机带翅膀 (triples in a row with as many pairs in a row) and "
            "炸弹 (4 to 8 of a rank, or the four jokers)."
        ),
    )


def _does_not_beat(play: Play, current: Play, english: bool) -> Verdict:
    names = {"play": play_name(play, english), "current": play_name(current, english)}
    if play.is_bomb and current.is_bomb:
        return Verdict(
            False,
            _(
                "This is %(play)s: it does not beat %(current)s (a bomb beats a bomb with more "
                "cards, or as many of a higher rank; the four jokers beat every bomb)."
            ),
            names,
        )
    if not current.is_bomb and play.type is current.type and play.size == current.size:
        return Verdict(False, _("This is %(play)s: it does not beat %(current)s."), names)
    groups = current.length
    return Verdict(
        False,
        _TO_BEAT[current.type],
        {"current": names["current"], "count": current.size, "groups": groups},
    )


def _not_allowed(play: Play, name: str, seat: Any, deal: Mapping[str, Any], text: str) -> Verdict:
    """A play that leads or beats, yet is not among the seat's legal plays: a declared 报到 set
    played other than whole and alone, or a bomb over the seat's limit (出炸限制)."""
    declared = deal.get("declared_in_hand") or []
    if seat is not None and seat == deal.get("landlord") and declared:
        locked: set[int] = set()
        for set_text in declared:
            try:
                locked |= set(_ranks(parse_cards(str(set_text))))
            except EngineError:
                continue
        if locked & set(_ranks(play.cards)):
            return Verdict(
                False,
                _("A declared 报到 set goes out whole and alone, as one bomb: %(sets)s."),
                {"sets": ", ".join(map(str, declared))},
            )
    limits = deal.get("bomb_limits") or []
    bombs = deal.get("bombs") or []
    if play.is_bomb and isinstance(seat, int) and 0 <= seat < min(len(limits), len(bombs)):
        limit = limits[seat]
        if isinstance(limit, int) and bombs[seat] >= limit:
            return Verdict(
                False,
                _(
                    "出炸限制: you have played the %(limit)d bomb(s) your bid allows this deal: "
                    "play these cards another way than as %(play)s, or pass."
                ),
                {"limit": limit, "play": name},
            )
    return Verdict(False, _("%(cards)s cannot be played now."), {"cards": text})
