"""Bots that play 小路子: a random-legal bot, a cheap heuristic bot, and drivers.

A bot sees only what its seat may see: its own hand, the cards played, the answers, the
counts. Both are deterministic given their seed.

>>> deal = Deal(seed=3)
>>> result = play_deal(deal, [HeuristicBot(seed=s) for s in range(4)])
>>> deal.over and deal.cards_accounted()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from typing import Protocol

from engine.cards import Card, Rank
from engine.xiaoluzi.actions import Action
from engine.xiaoluzi.deal import Deal, Phase
from engine.xiaoluzi.match import Match
from engine.xiaoluzi.plays import PACK, Play, classify, sort_key
from engine.xiaoluzi.result import DealResult, EscapeResult, Mode

__all__ = [
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "losers",
    "make_bots",
    "play_deal",
    "play_match",
]


class Bot(Protocol):
    """Anything that chooses an action for a seat whose action a deal awaits."""

    def act(self, deal: Deal, seat: int) -> Action:
        """The action ``seat`` takes now."""
        ...


class RandomBot:
    """Chooses uniformly among the seat's legal actions (answers and passing included)."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, deal: Deal, seat: int) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(deal.legal_actions(seat))


def _groups(hand: Sequence[Card]) -> tuple[list[list[Card]], list[Card]]:
    """The natural cards of a hand in card order by rank, low ranks first, and its jokers (SJ
    before BJ). A deal keeps its hands in card order."""
    groups: list[list[Card]] = []
    jokers: list[Card] = []
    for card in hand:
        if card.suit is None:
            jokers.append(card)
        elif groups and groups[-1][0].rank == card.rank:
            groups[-1].append(card)
        else:
            groups.append([card])
    return groups, jokers


#: How many natural cards of each rank the pack has.
_FULL = {r: (2 if r == Rank.SEVEN else 4) for r in range(Rank.SEVEN, Rank.ACE + 1)}


class _Unseen:
    """What the other players may still hold, as counts: enough to tell whether a play is top."""

    __slots__ = ("naturals", "jokers", "high")

    def __init__(self, known: Iterable[Card]) -> None:
        """The cards that are not ``known`` (held by the bot, or played)."""
        naturals = dict(_FULL)
        jokers = {Rank.SMALL_JOKER, Rank.BIG_JOKER}
        for c in known:
            if c.suit is None:
                jokers.discard(c.rank)
            else:
                naturals[c.rank] -= 1
        self.naturals = naturals
        self.jokers = len(jokers)
        self.high = max(jokers) if jokers else max((r for r, n in naturals.items() if n), default=0)

    def can_beat(self, size: int, rank: int) -> bool:
        """Whether the unseen cards could make a play of ``size`` cards above ``rank``."""
        if size == 1:
            return self.high > rank
        if size == 2 and self.jokers == 2 and rank < Rank.SMALL_JOKER:
            return True
        need = size - self.jokers
        return any(r > rank and n >= need and n for r, n in self.naturals.items())


def _unseen(deal: Deal, seat: int) -> _Unseen:
    return _Unseen(chain(deal.hands[seat], deal.pile))


def losers(hand: Sequence[Card], unseen: Sequence[Card]) -> int:
    """How many of the hand's groups (natural ranks whole, each joker alone) the ``unseen``
    cards could beat: a hand with at most one such group goes out first when it leads.

    >>> from engine.xiaoluzi.plays import parse_hand
    >>> hand = parse_hand("AS AH AD AC KS KH 8S 9S")
    >>> losers(hand, [c for c in PACK if c not in hand])  # KK (the joker pair), 8S, 9S
    3
    """
    seen = set(unseen)
    return _losers(sorted(hand, key=sort_key), _Unseen(c for c in PACK if c not in seen))


def _losers(hand: Sequence[Card], unseen: _Unseen) -> int:
    groups, jokers = _groups(hand)
    count = sum(1 for g in groups if unseen.can_beat(len(g), g[0].rank))
    return count + sum(1 for j in jokers if unseen.can_beat(1, j.rank))


class HeuristicBot:
    """Declares (宣) or counters (反宣) when its hand goes out first for sure once it leads (at
    most one group the unseen cards could beat); plays to go out first: leads its lowest group
    whole, or its top groups before its last one; follows with the lowest natural group that
    beats, spending jokers and broken groups only when a race is close; never beats a fellow
    opponent of the declarer.
    """

    #: Declare (and counter) with at most this many groups the unseen cards could beat.
    max_losers = 3

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, deal: Deal, seat: int) -> Action:
        """The heuristic's action for ``seat``."""
        if deal.phase is Phase.DECLARE:
            sure = _losers(deal.hands[seat], _unseen(deal, seat)) <= self.max_losers
            return Action.declare(seat, sure)
        if deal.phase is Phase.COUNTER:
            sure = _losers(deal.hands[seat], _unseen(deal, seat)) <= self.max_losers
            return Action.counter(seat, sure)
        hand = deal.hands[seat]
        current = deal.current
        if current is None:
            return Action.play(seat, self._lead(deal, seat, hand))
        return self._follow(deal, seat, hand, current)

    def _lead(self, deal: Deal, seat: int, hand: list[Card]) -> Sequence[Card]:
        if len(hand) <= 4 and classify(hand, joker_sevens=deal.rules.joker_sevens) is not None:
            return hand  # out in one play
        groups, jokers = _groups(hand)
        unseen = _unseen(deal, seat)
        weak = [g for g in groups if unseen.can_beat(len(g), g[0].rank)]
        weak_jokers = [j for j in jokers if unseen.can_beat(1, j.rank)]
        if len(weak) + len(weak_jokers) <= 1:
            top = [g for g in groups if g not in weak]
            if top:
                return top[0]
            strong = [j for j in jokers if j not in weak_jokers]
            if strong:
                return [strong[-1]]
        if weak:
            return weak[0]
        if groups:
            return groups[0]
        return [jokers[0]]

    def _follow(self, deal: Deal, seat: int, hand: list[Card], current: Play) -> Action:
        winner = deal.current_seat
        assert winner is not None
        mode = deal.mode
        d = deal.declarer
        if mode is Mode.DECLARED and seat != d and winner != d:
            return Action.pass_(seat)  # a fellow opponent of the declarer is winning
        size = len(current.cards)
        if len(hand) < size:
            return Action.pass_(seat)
        joker_sevens = deal.rules.joker_sevens
        if len(hand) == size:
            out = classify(hand, joker_sevens=joker_sevens)
            if out is not None and out.beats(current):
                return Action.play(seat, hand)
        groups, jokers = _groups(hand)
        floor = current.rank
        for g in groups:
            if len(g) == size and g[0].rank > floor:
                return Action.play(seat, g)  # the lowest natural group that beats, whole
        if mode is Mode.NONE and len(hand) > 3:
            short = min(len(h) for s, h in enumerate(deal.hands) if h and s != seat)
            if short > 3:
                return Action.pass_(seat)  # no race is close: keep jokers and groups
        bigger = [g for g in groups if len(g) > size and g[0].rank > floor]
        if bigger:
            return Action.play(seat, bigger[0][:size])
        for g in groups:
            need = size - len(g)
            if g[0].rank > floor and 0 < need <= len(jokers):
                return Action.play(seat, g + jokers[:need])
        if size == 1:
            higher = [j for j in jokers if j.rank > floor]
            if higher:
                return Action.play(seat, higher[:1])
        if size == 2 and len(jokers) == 2 and floor < Rank.SMALL_JOKER:
            return Action.play(seat, jokers)
        return Action.pass_(seat)


def play_deal(
    deal: Deal,
    bots: Sequence[Bot],
    *,
    check: Callable[[Deal], None] | None = None,
) -> DealResult | EscapeResult:
    """Let the bots (one per seat) play ``deal`` to its end; ``check`` runs after every action."""
    while deal.turn is not None:
        deal.apply(bots[deal.turn].act(deal, deal.turn))
        if check is not None:
            check(deal)
    assert deal.result is not None
    return deal.result


def play_match(
    match: Match,
    bots: Sequence[Bot],
    *,
    check: Callable[[Deal], None] | None = None,
) -> Match:
    """Let the bots play every deal of ``match`` until it ends."""
    while not match.over:
        deal = match.deal or match.start_deal()
        while deal.turn is not None:
            match.apply(bots[deal.turn].act(deal, deal.turn))
            if check is not None:
                check(deal)
    return match


def make_bots(kinds: Sequence[str], seed: int | str = 0) -> list[Bot]:
    """One bot per seat by name (``heuristic`` or ``random``), seeded from ``seed`` and the seat."""
    bots: list[Bot] = []
    for seat, kind in enumerate(kinds):
        if kind == "heuristic":
            bots.append(HeuristicBot(seed=f"{seed}:{seat}"))
        elif kind == "random":
            bots.append(RandomBot(seed=f"{seed}:{seat}"))
        else:
            raise ValueError(f"unknown bot {kind!r} (use heuristic or random)")
    return bots
