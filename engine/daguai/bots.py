"""Bots that play 大怪路子: a random-legal bot and a cheap heuristic bot, and drivers.

A bot sees only what its seat may see: its own hand and the public state of the deal (the
current play and who made it, the card counts). Both are deterministic given their seed.

>>> from engine.daguai.deal import Deal
>>> deal = Deal(seed=3, dealer=0)
>>> result = play_deal(deal, [HeuristicBot(seed=s) for s in range(6)])
>>> deal.over and deal.cards_accounted()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.cards import Card, Rank
from engine.daguai.deal import Action, Deal, Phase
from engine.daguai.legal import legal_plays
from engine.daguai.match import Match
from engine.daguai.plays import Play, classify, power
from engine.daguai.result import DealResult, EscapeResult

__all__ = ["Bot", "HeuristicBot", "RandomBot", "play_deal", "play_match", "make_bots"]


class Bot(Protocol):
    """Anything that chooses an action for a seat whose action a deal awaits."""

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


#: Natural cards at or above this power (A, the level rank) and jokers are kept for later.
_HIGH = 14
#: Jokers have the highest card codes, so a play's cards (sorted by code) end with them.
_JOKER_CODE = 52
#: An opponent with this many cards or fewer, or an own hand this small, is worth fighting for.
_URGENT = 6


class HeuristicBot:
    """Plays sensibly and cheaply: sheds its lowest groups first, keeps jokers, level cards and
    aces for when they matter, never beats a teammate's winning play, and plays out when it can.
    """

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, deal: Deal, seat: int) -> Action:
        """The heuristic's action for ``seat``."""
        hand = deal.hands[seat]
        level = deal.level
        if deal.phase is Phase.RETURN:
            return Action.return_(seat, _lowest_loose(hand, level))
        current = deal.current
        if current is None:
            return Action.play(seat, self._lead(deal, seat, hand, level))
        return self._follow(deal, seat, hand, level, current)

    # -- leading -------------------------------------------------------------------------------

    def _lead(self, deal: Deal, seat: int, hand: list[Card], level: Rank) -> tuple[Card, ...]:
        if len(hand) <= 5 and classify(hand, level) is not None:
            return tuple(hand)  # out in one play
        groups = _groups(hand)
        ranks = sorted(groups, key=lambda r: power(r, level))
        low = [r for r in ranks if power(r, level) < _HIGH] or ranks
        if not low:  # jokers only
            jokers = sorted(hand, key=lambda c: c.code)
            return tuple(jokers[:3]) if len(jokers) in (3, 4) else (jokers[0],)
        danger = _short_opponent(deal, seat)
        rank = low[0]
        cards = groups[rank]
        n = len(cards)
        if n >= 5:
            return tuple(cards[:5])
        if n == 4:
            kicker = next((groups[r][0] for r in low if len(groups[r]) == 1), None)
            return tuple(cards) + (kicker,) if kicker is not None else tuple(cards[:3])
        if n == 3:
            pair = next((r for r in low if r != rank and len(groups[r]) == 2), None)
            return tuple(cards) + tuple(groups[pair]) if pair is not None else tuple(cards)
        if n == 2:
            return tuple(cards)
        straight = _low_straight(groups, rank, level)
        if straight is not None:
            return straight
        if danger == 1:
            # an opponent about to go out on a single: lead the lowest group of two or more
            bigger = next((r for r in low if len(groups[r]) >= 2), None)
            if bigger is not None:
                return tuple(groups[bigger][:3])
        return (cards[0],)

    # -- following -----------------------------------------------------------------------------

    def _follow(
        self, deal: Deal, seat: int, hand: list[Card], level: Rank, current: Play
    ) -> Action:
        size = len(current.cards)
        if len(hand) == size:
            out = classify(hand, level)
            if out is not None and out.beats(current):
                return Action.play(seat, hand)
        assert deal.current_seat is not None
        if (deal.current_seat - seat) % 2 == 0:
            return Action.pass_(seat)  # a teammate is winning the trick
        if len(hand) < size:
            return Action.pass_(seat)
        groups = _groups(hand)
        urgent = len(hand) <= _URGENT or _short_opponent(deal, seat) <= _URGENT
        if size <= 3:
            # a natural group above the play, neither high nor broken if possible: no generator
            floor = current.key[0]
            options = [
                (n != size, p, r)
                for r, cards in groups.items()
                if (n := len(cards)) >= size and floor < (p := power(r, level)) < _HIGH
            ]
            if options:
                _, _, rank = min(options)
                return Action.play(seat, groups[rank][:size])
            if not urgent:
                return Action.pass_(seat)
            # it matters: aces and level cards now, still before any joker
            options = [
                (n != size, p, r)
                for r, cards in groups.items()
                if (n := len(cards)) >= size and floor < (p := power(r, level))
            ]
            if options:
                _, _, rank = min(options)
                return Action.play(seat, groups[rank][:size])
        else:
            # natural five-card plays of low cards (no joker, no ace or level card) first
            fives = [
                play
                for cards in _natural_fives(groups, level)
                if (play := classify(cards, level)) is not None and play.beats(current)
            ]
            if fives:
                best = min(fives, key=lambda p: _cost(p, groups, level))
                return Action.play(seat, best.cards)
            if not urgent:
                return Action.pass_(seat)
        plays = legal_plays(hand, level, current)
        if not plays:
            return Action.pass_(seat)
        # the cheap plays first: no joker, no high card; a costlier one only when it matters
        cheap = [p for p in plays if p.cards[-1].code < _JOKER_CODE and _top(p, level) < _HIGH]
        if not cheap:
            if not urgent:
                return Action.pass_(seat)
            cheap = plays
        best = min(cheap, key=lambda p: _cost(p, groups, level))
        return Action.play(seat, best.cards)


def _groups(hand: Sequence[Card]) -> dict[int, list[Card]]:
    """The hand's natural cards by rank (jokers left out)."""
    groups: dict[int, list[Card]] = {}
    for card in hand:
        if card.suit is not None:
            groups.setdefault(card.rank, []).append(card)
    return groups


def _lowest_loose(hand: Sequence[Card], level: Rank) -> Card:
    """The card to give back: a low natural card, one alone of its rank before one of a group."""
    groups = _groups(hand)
    naturals = [c for c in hand if c.suit is not None] or list(hand)
    low = [c for c in naturals if power(c.rank, level) < _HIGH] or naturals

    def key(c: Card) -> tuple[int, int, int]:
        return (min(len(groups.get(c.rank, ())), 2), power(c.rank, level), c.code)

    return min(low, key=key)


def _short_opponent(deal: Deal, seat: int) -> int:
    """The fewest cards an opponent still holding cards has (99 when none)."""
    counts = [len(deal.hands[s]) for s in range((seat + 1) % 2, 6, 2)]
    return min((c for c in counts if c), default=99)


def _low_straight(groups: dict[int, list[Card]], rank: int, level: Rank) -> tuple[Card, ...] | None:
    """A natural straight starting at ``rank`` (or A2345) made of cards that are alone or low."""
    for start in (rank, rank - 1, rank - 2, rank - 3, rank - 4):
        window = [14 if r == 1 else r for r in range(start, start + 5)]
        if start < 1 or start > 10 or not all(r in groups for r in window):
            continue
        if any(power(r, level) >= _HIGH for r in window if r != 14 or start != 1):
            continue
        cards = tuple(groups[r][0] for r in window)
        play = classify(cards, level)
        if play is not None:
            return cards
    return None


def _natural_fives(groups: dict[int, list[Card]], level: Rank) -> list[tuple[Card, ...]]:
    """Five-card plays of low natural cards (below A and the level rank) that keep groups
    whole where they can: full houses, fours with one, fives of a kind, straights."""
    low = {r: cards for r, cards in groups.items() if power(r, level) < _HIGH}
    by_power = sorted(low, key=lambda r: power(r, level))
    pairs = [r for r in by_power if len(low[r]) >= 2]
    singles = [r for r in by_power if len(low[r]) == 1]
    found: list[tuple[Card, ...]] = []
    for r in by_power:
        cards = low[r]
        n = len(cards)
        if n >= 5:
            found.append(tuple(cards[:5]))
        if n >= 4:
            kicker = next((k for k in singles if k != r), None)
            if kicker is not None:
                found.append(tuple(cards[:4]) + (low[kicker][0],))
        if n >= 3:
            pair = next((k for k in pairs if k != r), None)
            if pair is not None:
                found.append(tuple(cards[:3]) + tuple(low[pair][:2]))
    for start in range(1, 11):
        window = [14 if r == 1 else r for r in range(start, start + 5)]
        if all(r in low for r in window):
            found.append(tuple(low[r][0] for r in window))
    return found


def _top(play: Play, level: Rank) -> int:
    """The highest power of the play's natural cards."""
    if len(play.cards) <= 3:
        return play.key[0]
    return max(power(c.rank, level) for c in play.cards if c.suit is not None)


def _cost(play: Play, groups: dict[int, list[Card]], level: Rank) -> tuple[int, int, int, int]:
    """Lower is better: few jokers, no broken groups, low type, low key."""
    broken = 0
    used: dict[int, int] = {}
    for c in play.cards:
        if c.suit is not None:
            used[c.rank] = used.get(c.rank, 0) + 1
    for r, n in used.items():
        if n < len(groups[r]):
            broken += 1
    high = sum(1 for c in play.cards if c.suit is not None and power(c.rank, level) >= _HIGH)
    return (play.jokers * 4 + high * 2 + broken, play.type.strength, play.key[0], len(play.cards))


def play_deal(
    deal: Deal,
    bots: Sequence[Bot],
    *,
    check: Callable[[Deal], None] | None = None,
) -> DealResult | EscapeResult:
    """Let the bots (one per seat) play ``deal`` to its end; ``check`` runs after every action."""
    while not deal.over:
        for seat in deal.awaiting():
            deal.apply(bots[seat].act(deal, seat))
            if check is not None:
                check(deal)
            if deal.over:
                break
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
        while not deal.over:
            for seat in deal.awaiting():
                match.apply(bots[seat].act(deal, seat))
                if check is not None:
                    check(deal)
                if deal.over:
                    break
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
