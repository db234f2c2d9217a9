"""Bots that play 上海斗地主: a random-legal bot, a cheap heuristic bot, and drivers.

A bot sees only what its seat may see: its own hand and the public state of the deal (bids,
the current play and who made it, the card counts). Both are deterministic given their seed.

>>> from engine.shanghai_doudizhu.deal import Deal
>>> deal = Deal(seed=3)
>>> result = play_deal(deal, [HeuristicBot(seed=s) for s in range(4)])
>>> deal.over and deal.cards_accounted() and sum(result.points) == 0
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from engine.cards import Card, Rank
from engine.shanghai_doudizhu.actions import Action
from engine.shanghai_doudizhu.deal import Deal, Phase
from engine.shanghai_doudizhu.legal import Shape, play_of, report_sets
from engine.shanghai_doudizhu.match import Match
from engine.shanghai_doudizhu.plays import JOKER_BOMB_SIZE, PlayType, power
from engine.shanghai_doudizhu.result import DealResult

__all__ = ["Bot", "HeuristicBot", "RandomBot", "hand_strength", "play_deal", "play_match"]


class Bot(Protocol):
    """Anything that chooses an action for the seat whose action a deal awaits."""

    def act(self, deal: Deal, seat: int) -> Action:
        """The action ``seat`` takes now."""
        ...


class RandomBot:
    """Chooses uniformly among the seat's legal actions (passing is one of them)."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, deal: Deal, seat: int) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(deal.legal_actions(seat))


def hand_strength(hand: Sequence[Card]) -> float:
    """A rough strength of a hand for bidding: jokers, 2s and aces, and bombs by their size.

    >>> hand_strength([]) == 0
    True
    """
    counts = Counter(c.rank for c in hand)
    score = 2.0 * counts[Rank.BIG_JOKER] + 1.5 * counts[Rank.SMALL_JOKER]
    score += 1.0 * counts[Rank.TWO] + 0.5 * counts[Rank.ACE]
    score += sum(n - 2 for r, n in counts.items() if n >= 4)
    if counts[Rank.SMALL_JOKER] == 2 and counts[Rank.BIG_JOKER] == 2:
        score += 3
    return score


#: Strength thresholds for bidding 1, 2, 3; for 摊打; for 打 after 报到.
_BID_AT = (8.0, 10.5, 13.0)
_OPEN_AT = 19.0
_FIGHT_AT = 19.0
#: An opponent with this many cards or fewer is worth a bomb.
_URGENT = 8


def _lead_order(shape: Shape) -> tuple[int, int, int]:
    """Lowest card first, then the longest play, then the lowest key."""
    parts = shape[4]
    return (min(power(r) for r, _ in parts), -sum(n for _, n in parts), shape[1])


def _bomb_order(shape: Shape) -> tuple[int, int]:
    """Weakest bomb first: fewest cards (the four jokers last), then the lowest rank."""
    size = sum(n for _, n in shape[4])
    return (JOKER_BOMB_SIZE if shape[2] is None else size, shape[1])


class HeuristicBot:
    """Bids by hand strength, declares every 报到 set (and 打 only with a very strong hand),
    keeps bombs for when an opponent is close to going out, leads its lowest (and longest)
    group, and as a farmer never overtakes a farmer partner who is winning the trick."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, deal: Deal, seat: int) -> Action:
        """The action ``seat`` takes now."""
        phase = deal.phase
        hand = deal.hands[seat]
        if phase is Phase.BID:
            strength = hand_strength(hand)
            target = sum(1 for t in _BID_AT if strength >= t)
            if target > deal.highest:
                return Action.bid(seat, target)
            return Action.pass_(seat)
        if phase is Phase.OPEN:
            return Action.open(seat, hand_strength(hand) >= _OPEN_AT)
        if phase is Phase.REPORT:
            # 报到 pays: 不打 is a sure win, 打 doubles it and costs nothing when lost
            return Action.report(seat, [c for p in report_sets(hand) for c in p.cards])
        if phase is Phase.FIGHT:
            return Action.fight(seat, hand_strength(hand) >= _FIGHT_AT)
        return self._play(deal, seat)

    def _play(self, deal: Deal, seat: int) -> Action:
        hand = deal.hands[seat]
        if deal.check_play(seat, hand) is not None:
            return Action.play(seat, hand)  # go out
        current = deal.current
        if current is not None:
            winner = deal.current_seat
            assert winner is not None
            if deal.is_farmer(seat) and deal.is_farmer(winner):
                return Action.pass_(seat)  # never overtake a farmer partner
        counts = [0] * 17
        for card in hand:
            counts[card.rank] += 1
        kept = [n >= 4 for n in counts]
        if counts[Rank.SMALL_JOKER] == 2 and counts[Rank.BIG_JOKER] == 2:
            kept[Rank.SMALL_JOKER] = kept[Rank.BIG_JOKER] = True
        shapes = deal.legal_shapes(seat)
        plain: list[Shape] = []
        bombs: list[Shape] = []
        for shape in shapes:
            if shape[0] is PlayType.BOMB:
                bombs.append(shape)
                continue
            for r, _ in shape[4]:
                if kept[r]:
                    break
            else:
                plain.append(shape)
        if current is None:
            if plain:
                best = min(plain, key=_lead_order)
            else:
                others = [s for s in shapes if s[0] is not PlayType.BOMB]
                best = min(others or shapes, key=_lead_order)
            return Action.play(seat, play_of(hand, best).cards)
        if plain:
            best = min(plain, key=lambda s: s[1])
            return Action.play(seat, play_of(hand, best).cards)
        if bombs and self._urgent(deal, seat):
            best = min(bombs, key=_bomb_order)
            return Action.play(seat, play_of(hand, best).cards)
        return Action.pass_(seat)

    def _urgent(self, deal: Deal, seat: int) -> bool:
        if seat == deal.landlord:
            return any(len(deal.hands[s]) <= _URGENT for s in range(4) if s != seat)
        assert deal.landlord is not None
        return len(deal.hands[deal.landlord]) <= _URGENT + 4


def play_deal(deal: Deal, bots: Sequence[Bot]) -> DealResult:
    """Let ``bots`` (one per seat) play ``deal`` to its end; returns its result."""
    while not deal.over:
        seat = deal.turn
        assert seat is not None
        deal.apply(bots[seat].act(deal, seat))
    assert deal.result is not None
    return deal.result


def play_match(match: Match, bots: Sequence[Bot]) -> Match:
    """Let ``bots`` play ``match`` to its end (all-pass deals are dealt again)."""
    while not match.over:
        deal = match.start_deal()
        while not deal.over:
            seat = deal.turn
            assert seat is not None
            match.apply(bots[seat].act(deal, seat))
    return match
