"""One deal of 大怪路子 as a state machine: dealing, tribute and return, tricks, the end.

Contract: ``shared/rules/daguai.md``, sections *A trick*, *End of a deal*, *Tribute* and
*Match, escapes and timeouts*. :class:`Deal` is the one mutable state; everything goes in
through :meth:`Deal.apply` (or :meth:`Deal.timeout` and :meth:`Deal.escape`, which build the
action and apply it), and :meth:`Deal.legal_actions` is the one source of what a seat may do.

>>> deal = Deal(seed=7, dealer=2)
>>> deal.phase, deal.turn, deal.level.token, [len(deal.hand(s)) for s in range(6)]
(<Phase.PLAY: 'play'>, 2, '2', [27, 27, 27, 27, 27, 27])
>>> action = deal.timeout(2)
>>> str(action), deal.turn
('2 play 3D (system)', 3)
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, format_cards, pack
from engine.daguai.actions import DEFAULT_RULES, RULES_VERSION, Action, ActionKind, Rules
from engine.daguai.legal import legal_plays
from engine.daguai.plays import Play, classify, power
from engine.daguai.result import (
    SEATS,
    DealResult,
    EscapeResult,
    Levels,
    Team,
    deal_result,
    escape_result,
    streak_escape_result,
)
from engine.errors import EngineError, IllegalActionError

__all__ = [
    "DEFAULT_RULES",
    "RULES_VERSION",
    "START_LEVELS",
    "Action",
    "ActionKind",
    "Deal",
    "Phase",
    "Rules",
    "Tribute",
]


class Phase(enum.Enum):
    """Where a deal is: receivers returning a card, players playing, or over."""

    RETURN = "return"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Tribute:
    """One tribute: ``payer`` gave ``card`` (their highest) to ``receiver``."""

    payer: int
    receiver: int
    card: Card


#: Both teams at level 2, as a match starts.
START_LEVELS = Levels()


def _power_key(level: int) -> Any:
    def key(card: Card) -> tuple[int, int]:
        return (power(card.rank, level), card.code)

    return key


class Deal:
    """The state of one deal; build it, then drive it with :meth:`apply`.

    ``tributes`` are the (payer, receiver) pairs of the previous deal's result (empty for the
    first deal of a match, or after a draw); ``streaks`` are the seats' consecutive system plays
    before this deal. ``hands`` replaces the seeded shuffle (for tests and hand-made records).
    """

    def __init__(
        self,
        *,
        seed: int | str = 0,
        dealer: int = 0,
        levels: Levels = START_LEVELS,
        tributes: Sequence[tuple[int, int]] = (),
        rules: Rules = DEFAULT_RULES,
        base: int = 1,
        hands: Sequence[Sequence[Card]] | None = None,
        streaks: Sequence[int] = (0, 0, 0, 0, 0, 0),
    ) -> None:
        if dealer not in SEATS:
            raise EngineError(f"dealer must be a seat 0-5, not {dealer!r}")
        if base < 0:
            raise EngineError.of("daguai.base_negative", base=base)
        if len(streaks) != 6 or any(s < 0 for s in streaks):
            raise EngineError(f"streaks are six counts of 0 or more, not {streaks!r}")
        self.seed = seed
        self.dealer = dealer
        self.levels = levels
        self.dealer_team = Team.of(dealer)
        self.level = levels[self.dealer_team]
        self.rules = rules
        self.base = base
        self.start_streaks = tuple(streaks)
        self.streaks = list(streaks)
        self._rng = random.Random(seed)
        self._key = _power_key(self.level)
        if hands is None:
            cards = pack(3)
            self._rng.shuffle(cards)
            self.hands: list[list[Card]] = [cards[27 * s : 27 * s + 27] for s in SEATS]
            self.hand_made = False
        else:
            if len(hands) != 6:
                raise EngineError(f"a deal has six hands, not {len(hands)}")
            self.hands = [list(h) for h in hands]
            if not all(self.hands):
                raise EngineError("every seat starts a deal with cards")
            for card, count in Counter(c for h in self.hands for c in h).items():
                if count > 3:
                    raise EngineError(f"{count} copies of {card} in the hands, the pack has three")
            self.hand_made = True
        self.initial_hands: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in self.hands)
        self.pile: list[Card] = []
        self.actions: list[Action] = []
        self.finish: list[int] = []
        self.result: DealResult | EscapeResult | None = None
        self.trick: list[Action] = []
        self.current: Play | None = None
        self.current_seat: int | None = None
        self.passes = 0
        self.last_trick: tuple[int, tuple[Action, ...]] | None = None
        self.plays = 0
        self._holders = 6
        self.tributes: tuple[Tribute, ...] = self._pay_tributes(tributes)
        self.returns: dict[int, Card] = {}
        if self.tributes:
            self.phase = Phase.RETURN
            self.turn: int | None = None
        else:
            self.phase = Phase.PLAY
            self.turn = dealer
            self._check_lead_has_cards()

    # -- setup ---------------------------------------------------------------------------------

    def _pay_tributes(self, pairs: Sequence[tuple[int, int]]) -> tuple[Tribute, ...]:
        payers = [p for p, _ in pairs]
        receivers = [r for _, r in pairs]
        seats = payers + receivers
        if any(s not in SEATS for s in seats) or len(set(seats)) != len(seats) or len(pairs) > 3:
            raise EngineError(f"tribute pairs must be up to three distinct seat pairs: {pairs!r}")
        if any(Team.of(p) is Team.of(r) for p, r in pairs):
            raise EngineError(f"tribute goes from one team to the other: {pairs!r}")
        if receivers and self.dealer not in receivers:
            # the dealer went out first last deal: it is the first receiver, its team receives
            raise EngineError(f"the dealer (seat {self.dealer}) receives tribute: {pairs!r}")
        tributes = []
        for payer, receiver in sorted(pairs):
            hand = self.hands[payer]
            if not hand:
                raise EngineError(f"seat {payer} has no card to pay tribute with")
            card = max(hand, key=self._key)
            hand.remove(card)
            self.hands[receiver].append(card)
            tributes.append(Tribute(payer, receiver, card))
        return tuple(tributes)

    def _check_lead_has_cards(self) -> None:
        if not self.hands[self.dealer]:
            raise EngineError(f"the dealer (seat {self.dealer}) has no cards to lead")

    # -- observers -----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the deal has ended (a team out, or an escape)."""
        return self.phase is Phase.OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, highest first in the deal's single-card order."""
        return tuple(sorted(self.hands[seat], key=self._key, reverse=True))

    def pending_returns(self) -> tuple[int, ...]:
        """The receivers who still have to return a card, in seat order."""
        if self.phase is not Phase.RETURN:
            return ()
        return tuple(sorted(t.receiver for t in self.tributes if t.receiver not in self.returns))

    def awaiting(self) -> tuple[int, ...]:
        """The seats whose action the deal waits for (a timer runs for each)."""
        if self.phase is Phase.RETURN:
            return self.pending_returns()
        if self.phase is Phase.PLAY and self.turn is not None:
            return (self.turn,)
        return ()

    def legal_actions(self, seat: int) -> list[Action]:
        """Every distinct action ``seat`` may take now (empty when it is not their turn).

        Escaping is always possible while the deal goes on and is not listed.
        """
        if self.phase is Phase.RETURN:
            if seat not in self.pending_returns():
                return []
            return [Action.return_(seat, c) for c in sorted(set(self.hands[seat]), key=self._key)]
        if self.phase is not Phase.PLAY or seat != self.turn:
            return []
        actions = [
            Action.play(seat, p.cards)
            for p in legal_plays(self.hands[seat], self.level, self.current)
        ]
        if self.current is not None:
            actions.append(Action.pass_(seat))
        return actions

    def system_action(self, seat: int) -> Action:
        """What the system plays for ``seat`` on a timeout: pass when following, the lowest single
        when leading, a random card of the hand as the return. Returning consumes randomness."""
        if seat not in self.awaiting():
            raise IllegalActionError.of("daguai.not_awaited", seat=seat, state=self._state())
        hand = self.hands[seat]
        if self.phase is Phase.RETURN:
            return Action.return_(seat, self._rng.choice(sorted(hand)), system=True)
        if self.current is not None:
            return Action.pass_(seat, system=True)
        return Action.play(seat, (min(hand, key=self._key),), system=True)

    def cards_accounted(self) -> bool:
        """Whether the hands and the played cards are exactly the cards dealt (tribute and
        returns only move cards between hands)."""
        now = Counter(self.pile)
        for h in self.hands:
            now.update(h)
        dealt: Counter[Card] = Counter()
        for dealt_hand in self.initial_hands:
            dealt.update(dealt_hand)
        return now == dealt

    # -- the one way in ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply ``action``; raises :class:`IllegalActionError` naming the action and why not."""
        if action.seat not in SEATS:
            raise IllegalActionError.of(
                "daguai.not_a_seat_action", action=str(action), seat=action.seat
            )
        if self.phase is Phase.OVER:
            raise IllegalActionError.of("daguai.deal_over", action=str(action))
        if action.kind is ActionKind.ESCAPE:
            if action.system:
                raise IllegalActionError.of("daguai.escape_system", action=str(action))
            self._escape(action)
            return
        if action.system:
            expected = self.system_action(action.seat)
            if expected != action:
                raise IllegalActionError.of(
                    "daguai.system_plays", action=str(action), expected=str(expected)
                )
        self._do(action)

    def timeout(self, seat: int) -> Action:
        """Let the system act for ``seat``, whose time ran out; returns the action it took."""
        action = self.system_action(seat)
        self._do(action)
        return action

    def escape(self, seat: int) -> EscapeResult:
        """``seat`` leaves the table: the deal ends with the escape's points."""
        self.apply(Action.escape(seat))
        assert isinstance(self.result, EscapeResult)
        return self.result

    # -- the rules -----------------------------------------------------------------------------

    def _state(self) -> str:
        if self.phase is Phase.RETURN:
            return f"waiting for returns from seats {list(self.pending_returns())}"
        if self.phase is Phase.OVER:
            return "the deal is over"
        if self.current is None:
            return f"seat {self.turn} to lead"
        return f"seat {self.turn} to play on {self.current} by seat {self.current_seat}"

    def _do(self, action: Action) -> None:
        if action.kind is ActionKind.RETURN:
            self._return(action)
        elif action.kind is ActionKind.PASS:
            self._pass(action)
        else:
            self._play(action)
        self.actions.append(action)
        self._count_streak(action)

    def _take(self, action: Action) -> None:
        """Check that the seat holds the action's cards, and remove them from the hand."""
        hand = self.hands[action.seat]
        taken: list[Card] = []
        for card in action.cards:
            try:
                hand.remove(card)
            except ValueError:
                hand.extend(taken)
                lacking = Counter(action.cards) - Counter(hand)
                raise IllegalActionError.of(
                    "daguai.not_holding",
                    action=str(action),
                    seat=action.seat,
                    cards=format_cards(sorted(lacking.elements())),
                ) from None
            taken.append(card)

    def _escape(self, action: Action) -> None:
        if action.seat in self.finish:
            raise IllegalActionError.of(
                "daguai.escape_after_out", action=str(action), seat=action.seat
            )
        self.actions.append(action)
        self._end(escape_result(action.seat, self.finish, base=self.base))

    def _return(self, action: Action) -> None:
        if self.phase is not Phase.RETURN:
            raise IllegalActionError.of(
                "daguai.no_return_now", action=str(action), state=self._state()
            )
        seat = action.seat
        tribute = next((t for t in self.tributes if t.receiver == seat), None)
        if tribute is None:
            raise IllegalActionError.of("daguai.no_tribute_received", action=str(action), seat=seat)
        if seat in self.returns:
            raise IllegalActionError.of("daguai.already_returned", action=str(action), seat=seat)
        if len(action.cards) != 1:
            raise IllegalActionError.of("daguai.return_one_card", action=str(action))
        self._take(action)
        self.hands[tribute.payer].append(action.cards[0])
        self.returns[seat] = action.cards[0]
        if len(self.returns) == len(self.tributes):
            self.phase = Phase.PLAY
            self.turn = self.dealer
            self._check_lead_has_cards()

    def _check_turn(self, action: Action) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalActionError.of(
                "daguai.not_playing_yet", action=str(action), state=self._state()
            )
        if action.seat != self.turn:
            raise IllegalActionError.of(
                "daguai.not_your_turn", action=str(action), seat=action.seat, state=self._state()
            )

    def _pass(self, action: Action) -> None:
        self._check_turn(action)
        if self.current is None:
            raise IllegalActionError.of("daguai.leader_must_play", action=str(action))
        self.trick.append(action)
        self.passes += 1
        winner = self.current_seat
        assert winner is not None
        others = self._holders - (1 if self.hands[winner] else 0)
        if self.passes < others:
            self.turn = self._next_holder(action.seat)
            return
        # everybody else still holding cards passed: the trick is won
        self.last_trick = (winner, tuple(self.trick))
        self.trick = []
        self.current = None
        self.current_seat = None
        self.passes = 0
        if self.hands[winner]:
            self.turn = winner
        elif self.rules.lead_to_teammate:
            self.turn = next(s for s in ((winner + k) % 6 for k in (2, 4)) if self.hands[s])
        else:
            self.turn = self._next_holder(winner)

    def _play(self, action: Action) -> None:
        self._check_turn(action)
        if action.kind is not ActionKind.PLAY or not action.cards:
            raise IllegalActionError.of("daguai.play_needs_cards", action=str(action))
        play = classify(action.cards, self.level)
        if play is None:
            raise IllegalActionError.of(
                "daguai.not_a_play", action=str(action), cards=format_cards(action.cards)
            )
        current = self.current
        if current is not None and not play.beats(current):
            if len(play.cards) != len(current.cards):
                raise IllegalActionError.of(
                    "daguai.wrong_count",
                    action=str(action),
                    count=len(play.cards),
                    current_count=len(current.cards),
                )
            raise IllegalActionError.of(
                "daguai.does_not_beat",
                action=str(action),
                cards=str(play),
                type=play.type.chinese,
                type_en=play.type.english,
                current=str(current),
                current_type=current.type.chinese,
                current_type_en=current.type.english,
            )
        self._take(action)
        seat = action.seat
        self.pile.extend(action.cards)
        self.plays += 1
        self.trick.append(action)
        self.current = play
        self.current_seat = seat
        self.passes = 0
        if not self.hands[seat]:
            self.finish.append(seat)
            self._holders -= 1
            team = Team.of(seat)
            if all(not self.hands[s] for s in team.seats):
                self.last_trick = (seat, tuple(self.trick))
                self._end(
                    deal_result(
                        self.finish,
                        dealer_team=self.dealer_team,
                        levels=self.levels,
                        base=self.base,
                    )
                )
                return
        self.turn = self._next_holder(seat)

    def _next_holder(self, seat: int) -> int:
        for k in range(1, 6):
            s = (seat + k) % 6
            if self.hands[s]:
                return s
        raise AssertionError("a deal going on has players holding cards")

    def _count_streak(self, action: Action) -> None:
        seat = action.seat
        if not action.system:
            self.streaks[seat] = 0
            return
        self.streaks[seat] += 1
        limit = self.rules.system_play_limit
        if limit and self.streaks[seat] >= limit and self.phase is not Phase.OVER:
            # Too many consecutive system plays count as an escape (the escape is implied by
            # the system action that reached the limit, so a replay reproduces it).
            self._end(streak_escape_result(seat, self.finish, base=self.base))

    def _end(self, result: DealResult | EscapeResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self.turn = None

    # -- views ---------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        """What every player may see: counts, the trick, finishing order, tributes; never a hand."""
        return {
            "phase": self.phase.value,
            "dealer": self.dealer,
            "dealer_team": self.dealer_team.value,
            "level": self.level.token,
            "levels": self.levels.to_json(),
            "base": self.base,
            "turn": self.turn,
            "awaiting": list(self.awaiting()),
            "counts": [len(h) for h in self.hands],
            "trick": {
                "actions": [a.to_json() for a in self.trick],
                "current": None if self.current is None else format_cards(self.current.cards),
                "current_type": None if self.current is None else self.current.type.value,
                "current_seat": self.current_seat,
                "passes": self.passes,
            },
            "last_trick": None
            if self.last_trick is None
            else {
                "winner": self.last_trick[0],
                "actions": [a.to_json() for a in self.last_trick[1]],
            },
            "finish": list(self.finish),
            "tributes": [
                {"payer": t.payer, "receiver": t.receiver, "returned": t.receiver in self.returns}
                for t in self.tributes
            ],
            "moves": len(self.actions),
            "streaks": list(self.streaks),
            "result": None if self.result is None else self.result.to_json(),
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        """The public view plus what ``seat`` alone sees: their hand, legal actions, own return."""
        if seat not in SEATS:
            raise EngineError(f"seat must be 0-5, not {seat!r}")
        view = self.public_view()
        view["seat"] = seat
        view["hand"] = format_cards(self.hand(seat))
        view["legal"] = [a.to_json() for a in self.legal_actions(seat)]
        # the tribute card and the returned card are seen by the two seats that swapped them
        for t, tribute in zip(view["tributes"], self.tributes, strict=True):
            if seat in (tribute.payer, tribute.receiver):
                t["card"] = str(tribute.card)
                if tribute.receiver in self.returns:
                    t["return"] = str(self.returns[tribute.receiver])
        return view

    def __repr__(self) -> str:
        return f"<Deal dealer={self.dealer} level={self.level.token} {self._state()}>"
