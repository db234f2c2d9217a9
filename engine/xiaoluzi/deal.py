"""One deal of 小路子 as a state machine: dealing, declaring (宣牌), countering (反宣), tricks, end.

Contract: ``docs/xiaoluzi.md``, sections *Declaring*, *Who leads*, *A trick*, *End of a deal* and
*Timeouts and escapes*. :class:`Deal` is the one mutable state; everything goes in through
:meth:`Deal.apply` (or :meth:`Deal.timeout` and :meth:`Deal.escape`, which build the action and
apply it), and :meth:`Deal.legal_actions` is the one source of what a seat may do.

>>> deal = Deal(hands=["7H 8S 8H 9S 10S JS QS KS", "7D 8D 9H 10H JH QH KH AH",
...                    "8C 9D 10D JD QD KD AD AS", "9C 10C JC QC KC AC SJ BJ"])
>>> deal.phase, deal.turn, [str(a) for a in deal.legal_actions(0)]
(<Phase.DECLARE: 'declare'>, 0, ['0 declare', '0 no_declare'])
>>> for seat in (0, 1, 2, 3):
...     deal.apply(Action.declare(seat, False))
>>> deal.mode, deal.phase, str(deal.timeout(0))
(<Mode.NONE: 'none'>, <Phase.PLAY: 'play'>, '0 play 7H (system)')
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any

from engine.cards import Card, format_cards
from engine.errors import EngineError, IllegalActionError
from engine.xiaoluzi.actions import DEFAULT_RULES, SEATS, Action, ActionKind, Rules
from engine.xiaoluzi.plays import (
    PACK,
    SEVEN_OF_HEARTS,
    Play,
    check_cards,
    classify,
    legal_plays,
    parse_hand,
    sort_cards,
    sort_key,
)
from engine.xiaoluzi.result import (
    HAND_SIZE,
    CannotEscapeError,
    DealResult,
    EscapeResult,
    Mode,
    deal_result,
    escape_result,
)

__all__ = ["Deal", "Phase", "deal_hands"]


class Phase(enum.Enum):
    """Where a deal is: the declaring round, the counter round, the play, or over."""

    DECLARE = "declare"
    COUNTER = "counter"
    PLAY = "play"
    OVER = "over"


def deal_hands(seed: int | str) -> list[list[Card]]:
    """The four hands of 8 cards that ``seed`` deals (the pack shuffled by ``random.Random``),
    each in card order."""
    cards = list(PACK)
    random.Random(seed).shuffle(cards)
    return [sorted(cards[8 * s : 8 * s + 8], key=sort_key) for s in SEATS]


class Deal:
    """The state of one deal; build it, then drive it with :meth:`apply`.

    ``hands`` replaces the seeded shuffle (four hands of 8 cards, the whole pack, as card lists
    or text); ``rules`` are the table's options.
    """

    def __init__(
        self,
        *,
        seed: int | str = 0,
        rules: Rules = DEFAULT_RULES,
        hands: Sequence[Sequence[Card] | str] | None = None,
    ) -> None:
        self.seed = seed
        self.rules = rules
        if hands is None:
            self.hands = deal_hands(seed)
            self.hand_made = False
        else:
            if len(hands) != 4:
                raise EngineError(f"a deal has four hands, not {len(hands)}")
            self.hands = [parse_hand(h) if isinstance(h, str) else list(h) for h in hands]
            if any(len(h) != HAND_SIZE for h in self.hands):
                raise EngineError(f"every hand has 8 cards, not {[len(h) for h in self.hands]}")
            check_cards([c for h in self.hands for c in h])
            self.hand_made = True
        for hand in self.hands:
            hand.sort(key=sort_key)  # kept in card order: removing cards keeps it
        self.initial_hands: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in self.hands)
        self.holder_7h = next(s for s in SEATS if SEVEN_OF_HEARTS in self.hands[s])
        self.phase = Phase.DECLARE
        self.turn: int | None = self.holder_7h
        self.mode = Mode.NONE
        self.declarer: int | None = None
        self.counter: int | None = None
        self.bystanders: tuple[int, ...] = ()
        self.active: tuple[int, ...] = SEATS
        self.leader: int | None = None
        #: The questions asked so far: ("declare" or "counter", seat, the answer).
        self.answers: list[tuple[str, int, bool]] = []
        self.actions: list[Action] = []
        self.pile: list[Card] = []
        self.cards_played = [0, 0, 0, 0]
        self.plays_made = [0, 0, 0, 0]
        self.finish: list[int] = []
        self.trick: list[Action] = []
        self.current: Play | None = None
        self.current_seat: int | None = None
        self.passes = 0
        self.last_trick: tuple[int, tuple[Action, ...]] | None = None
        self.streaks = [0, 0, 0, 0]
        self.result: DealResult | EscapeResult | None = None
        self._holders = 4

    # -- observers -----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the deal has ended."""
        return self.phase is Phase.OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, in single-card order (low first)."""
        return tuple(sort_cards(self.hands[seat]))

    def awaiting(self) -> tuple[int, ...]:
        """The seats whose action the deal waits for (a timer runs for each)."""
        return () if self.turn is None else (self.turn,)

    def can_escape(self, seat: int) -> bool:
        """Whether ``seat`` may escape now: the deal goes on and it acts in it (not out, not a
        bystander)."""
        return (
            self.phase is not Phase.OVER
            and seat in SEATS
            and bool(self.hands[seat])
            and seat not in self.bystanders
        )

    def legal_actions(self, seat: int) -> list[Action]:
        """Every distinct action ``seat`` may take now (empty when it is not their turn).

        Escaping is possible while :meth:`can_escape` and is not listed.
        """
        if seat != self.turn:
            return []
        if self.phase is Phase.DECLARE:
            return [Action.declare(seat, True), Action.declare(seat, False)]
        if self.phase is Phase.COUNTER:
            return [Action.counter(seat, True), Action.counter(seat, False)]
        plays = legal_plays(self.hands[seat], self.current, joker_sevens=self.rules.joker_sevens)
        if self._must_lead_7h():
            plays = [p for p in plays if SEVEN_OF_HEARTS in p.cards]
        actions = [Action.play(seat, p.cards) for p in plays]
        if self.current is not None:
            actions.append(Action.pass_(seat))
        return actions

    def system_action(self, seat: int) -> Action:
        """What the system does for ``seat`` on a timeout: 不宣 or 不反宣 when asked, pass when
        following, the lowest single when leading (among equal ranks the first of S H D C)."""
        if seat != self.turn:
            raise IllegalActionError.of("xiaoluzi.not_awaited", seat=seat, state=self._state())
        if self.phase is Phase.DECLARE:
            return Action.declare(seat, False, system=True)
        if self.phase is Phase.COUNTER:
            return Action.counter(seat, False, system=True)
        if self.current is not None:
            return Action.pass_(seat, system=True)
        if self._must_lead_7h():
            return Action.play(seat, (SEVEN_OF_HEARTS,), system=True)
        return Action.play(seat, (min(self.hands[seat], key=sort_key),), system=True)

    def cards_accounted(self) -> bool:
        """Whether the hands and the played cards are exactly the 32 cards dealt."""
        now = sorted(self.pile + [c for h in self.hands for c in h])
        return now == sorted(PACK)

    def _must_lead_7h(self) -> bool:
        return (
            self.rules.first_lead_7h
            and self.mode is Mode.NONE
            and not self.pile
            and SEVEN_OF_HEARTS in self.hands[self.holder_7h]
        )

    # -- the one way in ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply ``action``; raises :class:`IllegalActionError` naming the action and why not
        (the state is then unchanged)."""
        if action.seat not in SEATS:
            raise IllegalActionError.of(
                "xiaoluzi.not_a_seat_action", action=str(action), seat=action.seat
            )
        if self.phase is Phase.OVER:
            raise IllegalActionError.of("xiaoluzi.deal_over", action=str(action))
        if action.kind is ActionKind.ESCAPE:
            if action.system:
                raise IllegalActionError.of("xiaoluzi.escape_system", action=str(action))
            self._escape(action)
            return
        if action.system:
            try:
                expected = self.system_action(action.seat)
            except IllegalActionError as exc:
                raise IllegalActionError.of(
                    "xiaoluzi.system_not_awaited", action=str(action), **exc.params
                ) from None
            if expected != action:
                raise IllegalActionError.of(
                    "xiaoluzi.system_takes", action=str(action), expected=str(expected)
                )
        self._do(action)

    def timeout(self, seat: int) -> Action:
        """Let the system act for ``seat``, whose time ran out; returns the action it took."""
        action = self.system_action(seat)
        self._do(action)
        return action

    def escape(self, seat: int) -> EscapeResult:
        """``seat`` escapes (逃跑): the deal ends with the escape's settlement.

        Raises :class:`CannotEscapeError` when the seat is out, a bystander, or the deal over.
        """
        self.apply(Action.escape(seat))
        assert isinstance(self.result, EscapeResult)
        return self.result

    # -- the rules -----------------------------------------------------------------------------

    def _state(self) -> str:
        if self.phase is Phase.OVER:
            return "the deal is over"
        if self.phase is Phase.DECLARE:
            return f"seat {self.turn} to answer 宣/不宣"
        if self.phase is Phase.COUNTER:
            return f"seat {self.turn} to answer 反宣/不反宣 (seat {self.declarer} declared)"
        if self.current is None:
            return f"seat {self.turn} to lead"
        return f"seat {self.turn} to play on {self.current} by seat {self.current_seat}"

    def _do(self, action: Action) -> None:
        seat = action.seat
        if seat != self.turn:
            raise IllegalActionError.of(
                "xiaoluzi.not_your_turn", action=str(action), seat=seat, state=self._state()
            )
        kind = action.kind
        if kind is ActionKind.PLAY:
            self._play(action)
        elif kind is ActionKind.PASS:
            self._pass(action)
        else:
            self._answer(action)
        self.actions.append(action)
        if not action.system:
            self.streaks[seat] = 0
        elif not kind.is_answer:
            self.streaks[seat] += 1
            limit = self.rules.system_actions_to_escape
            if limit and self.streaks[seat] >= limit and self.can_escape(seat):
                # too many consecutive system actions count as an escape; it is implied by the
                # system action that reached the limit, so a replay reproduces it
                self._settle_escape(seat)

    def _answer(self, action: Action) -> None:
        kind, seat = action.kind, action.seat
        if self.phase is Phase.DECLARE:
            if kind not in (ActionKind.DECLARE, ActionKind.NO_DECLARE):
                raise IllegalActionError.of(
                    "xiaoluzi.out_of_order", action=str(action), state=self._state()
                )
            yes = kind is ActionKind.DECLARE
            self.answers.append(("declare", seat, yes))
            if yes:
                self.declarer = seat
                self.mode = Mode.DECLARED
                self.phase = Phase.COUNTER
                self.turn = (seat + 1) % 4
            elif len(self.answers) == 4:
                self._start_play(self.holder_7h)
            else:
                self.turn = (seat + 1) % 4
            return
        if self.phase is Phase.COUNTER:
            if kind not in (ActionKind.COUNTER, ActionKind.NO_COUNTER):
                raise IllegalActionError.of(
                    "xiaoluzi.out_of_order", action=str(action), state=self._state()
                )
            d = self.declarer
            assert d is not None
            yes = kind is ActionKind.COUNTER
            self.answers.append(("counter", seat, yes))
            if yes:
                self.counter = seat
                self.mode = Mode.COUNTERED
                self.bystanders = tuple(s for s in SEATS if s not in (d, seat))
                self.active = (d, seat) if d < seat else (seat, d)
                self._start_play(seat)
            elif (seat - d) % 4 == 3:
                self._start_play(d)
            else:
                self.turn = (seat + 1) % 4
            return
        raise IllegalActionError.of("xiaoluzi.no_question", action=str(action), state=self._state())

    def _start_play(self, leader: int) -> None:
        self.phase = Phase.PLAY
        self.leader = leader
        self.turn = leader
        self._holders = len(self.active)

    def _take(self, action: Action) -> None:
        hand = self.hands[action.seat]
        lacking = [c for c in action.cards if c not in hand]
        if lacking or len(set(action.cards)) != len(action.cards):
            if not lacking:
                raise IllegalActionError.of(
                    "xiaoluzi.card_twice", action=str(action), seat=action.seat
                )
            raise IllegalActionError.of(
                "xiaoluzi.not_holding",
                action=str(action),
                seat=action.seat,
                cards=format_cards(lacking),
            )
        for card in action.cards:
            hand.remove(card)

    def _pass(self, action: Action) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalActionError.of(
                "xiaoluzi.not_playing_yet", action=str(action), state=self._state()
            )
        if self.current is None:
            raise IllegalActionError.of("xiaoluzi.leader_must_play", action=str(action))
        self.trick.append(action)
        self.passes += 1
        winner = self.current_seat
        assert winner is not None
        others = self._holders - (1 if self.hands[winner] else 0)
        if self.passes < others:
            self.turn = self._next_holder(action.seat)
            return
        # every other active player still holding cards passed: the trick is won
        self.last_trick = (winner, tuple(self.trick))
        self.trick = []
        self.current = None
        self.current_seat = None
        self.passes = 0
        self.turn = winner if self.hands[winner] else self._next_holder(winner)

    def _play(self, action: Action) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalActionError.of(
                "xiaoluzi.not_playing_yet", action=str(action), state=self._state()
            )
        play = classify(action.cards, joker_sevens=self.rules.joker_sevens)
        if play is None:
            raise IllegalActionError.of(
                "xiaoluzi.not_a_play", action=str(action), cards=format_cards(action.cards)
            )
        current = self.current
        if current is not None and not play.beats(current):
            if len(play.cards) != len(current.cards):
                raise IllegalActionError.of(
                    "xiaoluzi.wrong_count",
                    action=str(action),
                    count=len(play.cards),
                    current_count=len(current.cards),
                )
            raise IllegalActionError.of(
                "xiaoluzi.does_not_beat",
                action=str(action),
                cards=str(play),
                rank=str(play.rank),
                current=str(current),
                current_rank=str(current.rank),
            )
        if self._must_lead_7h() and SEVEN_OF_HEARTS not in action.cards:
            raise IllegalActionError.of("xiaoluzi.lead_7h", action=str(action))
        self._take(action)
        seat = action.seat
        self.pile.extend(action.cards)
        self.cards_played[seat] += len(action.cards)
        self.plays_made[seat] += 1
        self.trick.append(action)
        self.current = play
        self.current_seat = seat
        self.passes = 0
        if not self.hands[seat]:
            self.finish.append(seat)
            self._holders -= 1
            if self.mode is not Mode.NONE or len(self.finish) == 3:
                if self.mode is Mode.NONE:
                    self.finish.append(next(s for s in SEATS if self.hands[s]))
                self.last_trick = (seat, tuple(self.trick))
                self._end(self._result())
                return
        self.turn = self._next_holder(seat)

    def _result(self) -> DealResult:
        counts = self.cards_played if self.rules.slam_count == "cards" else self.plays_made
        return deal_result(
            self.mode,
            self.finish,
            counts,
            declarer=self.declarer,
            counter=self.counter,
            base_score=self.rules.base_score,
            base_silver=self.rules.base_silver,
            slam_count=self.rules.slam_count,
        )

    def _next_holder(self, seat: int) -> int:
        hands = self.hands
        if len(self.active) == 2:
            other = self.active[0] if seat == self.active[1] else self.active[1]
            return other if hands[other] else seat
        for k in (1, 2, 3):
            s = (seat + k) % 4
            if hands[s]:
                return s
        raise AssertionError("a deal going on has players holding cards")

    def _escape(self, action: Action) -> None:
        seat = action.seat
        if not self.can_escape(seat):
            code = "xiaoluzi.escape_bystander" if seat in self.bystanders else "xiaoluzi.escape_out"
            raise CannotEscapeError.of(code, action=str(action), seat=seat)
        self.actions.append(action)
        self._settle_escape(seat)

    def _settle_escape(self, seat: int) -> None:
        self._end(
            escape_result(
                seat,
                self.mode,
                self.finish,
                declarer=self.declarer,
                counter=self.counter,
                base_score=self.rules.base_score,
                base_silver=self.rules.base_silver,
            )
        )

    def _end(self, result: DealResult | EscapeResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self.turn = None

    # -- views ---------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        """What every player may see: answers, roles, counts, the trick, the finish; never a
        card in a hand (the bystanders' hands are shown once the deal is over)."""
        decided = self.phase in (Phase.PLAY, Phase.OVER)
        return {
            "phase": self.phase.value,
            "holder_7h": self.holder_7h,
            "answers": [[q, s, yes] for q, s, yes in self.answers],
            "mode": self.mode.value if decided else None,
            "declarer": self.declarer,
            "counter": self.counter,
            "bystanders": list(self.bystanders),
            "leader": self.leader,
            "turn": self.turn,
            "awaiting": list(self.awaiting()),
            "counts": [len(h) for h in self.hands],
            "played": list(self.cards_played),
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
            "streaks": list(self.streaks),
            "moves": len(self.actions),
            "result": None if self.result is None else self.result.to_json(),
            "revealed": {str(s): format_cards(self.hand(s)) for s in self.bystanders}
            if self.over
            else {},
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        """The public view plus what ``seat`` alone sees: its hand and its legal actions."""
        if seat not in SEATS:
            raise EngineError.of("common.seat_range", seat=seat, high=3)
        view = self.public_view()
        view["seat"] = seat
        view["hand"] = format_cards(self.hand(seat))
        view["legal"] = [a.to_json() for a in self.legal_actions(seat)]
        view["can_escape"] = self.can_escape(seat)
        return view

    def __repr__(self) -> str:
        return f"<Deal seed={self.seed!r} {self._state()}>"
