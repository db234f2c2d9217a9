"""One deal of 上海斗地主 as a state machine: dealing, bidding, kitty, 摊打, 报到, play, settlement.

Contract: ``docs/shanghai_doudizhu.md``. :class:`Deal` is the one mutable state; everything goes
in through :meth:`Deal.apply` (or :meth:`Deal.timeout` and :meth:`Deal.escape`, which build the
action and apply it), and :meth:`Deal.legal_actions` is the one source of what a seat may do.

Dealing is a pure function of the seed (:mod:`engine.shanghai_doudizhu.dealing` says how the
cards and the marked card are drawn); what the players see of the deal is built in
:mod:`engine.shanghai_doudizhu.views`.

>>> deal = Deal(seed=7)
>>> deal.phase.value, [len(deal.hand(s)) for s in range(4)], len(deal.kitty)
('bid', [25, 25, 25, 25], 8)
>>> deal.turn == deal.first_bidder == deal.marked_seat
True
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from engine.cards import Card, format_cards
from engine.errors import EngineError, IllegalActionError
from engine.shanghai_doudizhu import views
from engine.shanghai_doudizhu.actions import Action, ActionKind
from engine.shanghai_doudizhu.dealing import HAND_SIZE, KITTY_SIZE, deal_cards
from engine.shanghai_doudizhu.legal import Shape, legal_plays, legal_shapes, report_sets
from engine.shanghai_doudizhu.plays import Play, card_power, classify
from engine.shanghai_doudizhu.result import (
    MAX_HUANGFAN,
    SEATS,
    DealResult,
    EscapeKind,
    Factors,
    Outcome,
    all_pass_result,
    deal_result,
    escape_result,
)
from engine.shanghai_doudizhu.rules import (
    DEFAULT_RULES,
    RULES_VERSION,
    RULES_VERSION_1,
    RULES_VERSIONS,
    Rules,
)

__all__ = ["HAND_SIZE", "KITTY_SIZE", "Deal", "Phase"]


class Phase(enum.Enum):
    """Where a deal is."""

    BID = "bid"
    OPEN = "open"  # the 头撂 landlord chooses 摊打 or not
    REPORT = "report"  # the landlord declares 报到 sets (or none)
    FIGHT = "fight"  # 打 or 不打 after a 报到
    PLAY = "play"
    OVER = "over"


def _low_key(card: Card) -> tuple[int, int]:
    return (card_power(card)[0], card.suit or 0)


class Deal:
    """The state of one deal; build it, then drive it with :meth:`apply`.

    ``huangfan`` is H, the 荒番 factor the match carries into this deal (0 or 1, more under
    ``huangfan=multiply``); ``first_bidder`` is the match's rotation (``None``: from the seed).
    ``hands`` (four hands), ``kitty`` and ``marked`` (seat, card) replace the seeded dealing.
    ``rules_version`` is the contract the deal follows: a record of version 1 (which skipped the
    报到 decision of a landlord without a set) is replayed as it was played.
    """

    def __init__(
        self,
        *,
        seed: int | str = 0,
        rules: Rules = DEFAULT_RULES,
        huangfan: int = 0,
        first_bidder: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        kitty: Sequence[Card] = (),
        marked: tuple[int, Card] | None = None,
        rules_version: str = RULES_VERSION,
    ) -> None:
        if rules_version not in RULES_VERSIONS:
            raise EngineError(
                f"rules version {rules_version!r} is not one of {', '.join(RULES_VERSIONS)}"
            )
        self.rules_version = rules_version
        if not 0 <= huangfan <= MAX_HUANGFAN:
            raise EngineError(f"huangfan must be 0 to {MAX_HUANGFAN}, not {huangfan}")
        self.seed = seed
        self.given_first_bidder = first_bidder
        self.rules = rules
        self.base = rules.base
        self.huangfan = huangfan
        self._rng = random.Random(seed)
        dealt = deal_cards(
            self._rng, rules, first_bidder=first_bidder, hands=hands, kitty=kitty, marked=marked
        )
        self.hands: list[list[Card]] = dealt.hands
        self.kitty: tuple[Card, ...] = dealt.kitty
        self.hand_made = dealt.hand_made
        marked = dealt.marked
        self.marked_seat, self.marked_card = marked
        self.first_bidder = self.marked_seat
        self.initial_hands: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in self.hands)
        self.phase = Phase.BID
        self.turn: int | None = self.first_bidder
        self.actions: list[Action] = []
        self.bids: dict[int, int] = {}  # seat -> bid (0 = PASS), in the order they came
        self.highest = 0
        self.landlord: int | None = None
        self.bid = 0
        self.head = False
        self.open_hand = False
        self.kitty_taken = False
        self.declared: tuple[Play, ...] = ()
        self.locked: list[Play] = []  # declared sets still in the landlord's hand
        self.fight: bool | None = None
        self.bomb_limits: list[int | None] = [None] * 4
        self.bombs = [0, 0, 0, 0]
        self.timeouts = [0, 0, 0, 0]
        self.pile: list[Card] = []
        self.trick: list[Action] = []
        self.current: Play | None = None
        self.current_seat: int | None = None
        self.passes = 0
        self.last_trick: tuple[int, tuple[Action, ...]] | None = None
        self.result: DealResult | None = None

    # -- observers -----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the deal has ended (settled, all passed, or an escape)."""
        return self.phase is Phase.OVER

    @property
    def marked_joker(self) -> bool:
        """Whether the marked card is a joker (标记牌为王, ×2)."""
        return self.marked_card.is_joker

    def factors(self) -> Factors:
        """The factors of the deal as it stands (the highest bid so far while bidding)."""
        return Factors(
            base=self.base,
            bid=self.bid if self.landlord is not None else self.highest,
            head=self.head,
            huangfan=self.huangfan,
            marked_joker=self.marked_joker,
            open=self.open_hand,
            reported=len(self.declared) if self.fight is not None else 0,
            fight=self.fight if self.declared else None,
        )

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, highest first in single order."""
        return tuple(sorted(self.hands[seat], key=card_power, reverse=True))

    def is_farmer(self, seat: int) -> bool:
        """Whether ``seat`` is a farmer (``False`` before the landlord is fixed)."""
        return self.landlord is not None and seat != self.landlord

    def bombs_allowed(self, seat: int) -> bool:
        """Whether ``seat`` may still play a bomb (出炸限制)."""
        limit = self.bomb_limits[seat]
        return limit is None or self.bombs[seat] < limit

    def awaiting(self) -> tuple[int, ...]:
        """The seat whose action the deal waits for (a timer runs for it), or ``()``."""
        return () if self.turn is None else (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every distinct action ``seat`` may take now (empty when it is not his turn).

        Escaping is always possible while the deal goes on and is not listed.
        """
        if seat != self.turn:
            return []
        if self.phase is Phase.BID:
            return [Action.pass_(seat)] + [
                Action.bid(seat, v) for v in (1, 2, 3) if v > self.highest
            ]
        if self.phase is Phase.OPEN:
            return [Action.open(seat, False), Action.open(seat, True)]
        if self.phase is Phase.REPORT:
            sets = report_sets(self.hands[seat])
            return [
                Action.report(seat, [c for p in chosen for c in p.cards])
                for n in range(len(sets) + 1)
                for chosen in combinations(sets, n)
            ]
        if self.phase is Phase.FIGHT:
            return [Action.fight(seat, True), Action.fight(seat, False)]
        actions = [Action.play(seat, p.cards) for p in self.legal_plays(seat)]
        if self.current is not None:
            actions.append(Action.pass_(seat))
        return actions

    def legal_plays(self, seat: int) -> list[Play]:
        """Every play ``seat`` may make now (empty when it is not his turn to play)."""
        if self.phase is not Phase.PLAY or seat != self.turn:
            return []
        return legal_plays(
            self.hands[seat],
            self.current,
            bombs=self.bombs_allowed(seat),
            declared=self.locked if seat == self.landlord else (),
        )

    def legal_shapes(self, seat: int) -> list[Shape]:
        """The plays of :meth:`legal_plays` as shapes, without their cards (for bots)."""
        if self.phase is not Phase.PLAY or seat != self.turn:
            return []
        return legal_shapes(
            self.hands[seat],
            self.current,
            bombs=self.bombs_allowed(seat),
            declared=self.locked if seat == self.landlord else (),
        )

    def system_action(self, seat: int) -> Action:
        """What the system does for ``seat`` on a timeout: PASS when bidding, no 摊打, no 报到,
        打, pass when following, and when leading the lowest single outside the declared sets
        (the weakest declared set, whole, when nothing else is left)."""
        if seat != self.turn:
            raise IllegalActionError.of("doudizhu.not_awaited", seat=seat, state=self._state())
        if self.phase is Phase.BID:
            return Action.pass_(seat, system=True)
        if self.phase is Phase.OPEN:
            return Action.open(seat, False, system=True)
        if self.phase is Phase.REPORT:
            return Action.report(seat, (), system=True)
        if self.phase is Phase.FIGHT:
            return Action.fight(seat, True, system=True)
        if self.current is not None:
            return Action.pass_(seat, system=True)
        locked = {c.rank for p in self.locked for c in p.cards} if seat == self.landlord else set()
        free = [c for c in self.hands[seat] if c.rank not in locked]
        if free:
            return Action.play(seat, (min(free, key=_low_key),), system=True)
        weakest = min(self.locked, key=lambda p: p.bomb_strength)
        return Action.play(seat, weakest.cards, system=True)

    def cards_accounted(self) -> bool:
        """Whether hands, kitty (until taken) and played cards are exactly the cards dealt."""
        now = Counter(self.pile)
        for h in self.hands:
            now.update(h)
        if not self.kitty_taken:
            now.update(self.kitty)
        dealt: Counter[Card] = Counter(self.kitty)
        for initial in self.initial_hands:
            dealt.update(initial)
        return now == dealt

    # -- the one way in ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply ``action``; raises :class:`IllegalActionError` naming the action and why not."""
        if action.seat not in SEATS:
            raise IllegalActionError.of(
                "doudizhu.not_a_seat_action", action=str(action), seat=action.seat
            )
        if self.phase is Phase.OVER:
            raise IllegalActionError.of("doudizhu.deal_over", action=str(action))
        if action.kind is ActionKind.ESCAPE:
            if action.system or action.escape is None:
                raise IllegalActionError.of("doudizhu.escape_kind", action=str(action))
            self.actions.append(action)
            self._end(
                escape_result(action.seat, action.escape, self.landlord, self.factors(), self.rules)
            )
            return
        if action.system:
            expected = self.system_action(action.seat)
            if expected != action:
                raise IllegalActionError.of(
                    "doudizhu.system_plays", action=str(action), expected=str(expected)
                )
        if action.seat != self.turn:
            raise IllegalActionError.of(
                "doudizhu.not_your_turn",
                action=str(action),
                seat=action.seat,
                state=self._state(),
            )
        phase = self.phase
        if phase is Phase.PLAY:
            self._play(action)
        elif phase is Phase.BID:
            self._bid(action)
        elif phase is Phase.OPEN:
            self._open(action)
        elif phase is Phase.REPORT:
            self._report(action)
        else:
            self._fight(action)
        self.actions.append(action)
        self._count_timeout(action)

    def timeout(self, seat: int | None = None) -> Action:
        """Let the system act for the seat whose time ran out (``seat``, if given, must be the
        awaited one); returns the action it took."""
        if self.turn is None or (seat is not None and seat != self.turn):
            raise IllegalActionError.of("doudizhu.not_awaited", seat=seat, state=self._state())
        action = self.system_action(self.turn)
        self.apply(action)
        return action

    def escape(self, seat: int, kind: EscapeKind) -> DealResult:
        """``seat`` counts as escaped (disconnected, timed out, or left): the deal ends."""
        self.apply(Action.escape_(seat, kind))
        assert self.result is not None
        return self.result

    # -- the rules -----------------------------------------------------------------------------

    def _state(self) -> str:
        if self.phase is Phase.OVER:
            return "the deal is over"
        if self.phase is Phase.BID:
            return f"seat {self.turn} to bid, highest so far {self.highest or 'none'}"
        if self.phase is not Phase.PLAY:
            return f"seat {self.turn} to choose {self.phase.value}"
        if self.current is None:
            return f"seat {self.turn} to lead"
        return f"seat {self.turn} to play on {self.current} by seat {self.current_seat}"

    def _expect(self, action: Action, *kinds: ActionKind) -> None:
        if action.kind not in kinds:
            allowed = " or ".join(k.value for k in kinds)
            raise IllegalActionError.of(
                "doudizhu.expected_kind", action=str(action), allowed=allowed, state=self._state()
            )

    def _bid(self, action: Action) -> None:
        self._expect(action, ActionKind.BID, ActionKind.PASS)
        seat = action.seat
        if action.kind is ActionKind.BID:
            if action.value <= self.highest:
                raise IllegalActionError.of(
                    "doudizhu.bid_too_low", action=str(action), highest=self.highest
                )
            self.highest = action.value
        self.bids[seat] = action.value if action.kind is ActionKind.BID else 0
        if self.highest == 3 or len(self.bids) == 4:
            self._close_bidding()
        else:
            self.turn = (seat + 1) % 4

    def _close_bidding(self) -> None:
        if self.highest == 0:
            self._end(all_pass_result(self.factors()))
            return
        landlord = next(s for s, v in self.bids.items() if v == self.highest)
        self.landlord = landlord
        self.bid = self.highest
        self.head = self.bids.get(self.first_bidder) == 3 and len(self.bids) == 1
        for s in SEATS:
            if s == landlord or s not in self.bids:
                self.bomb_limits[s] = None
            else:
                self.bomb_limits[s] = 2 if self.bids[s] == 2 else 1
        self.hands[landlord].extend(self.kitty)
        self.kitty_taken = True
        self.turn = landlord
        if self.head:
            self.phase = Phase.OPEN
        else:
            self._to_report()

    def _to_report(self) -> None:
        """The 报到 decision comes whatever the landlord holds, so that its coming tells no one
        whether he holds a set; it is skipped only without a set in a hand all can see (摊打),
        or in a deal of version 1, which skipped it without a set."""
        assert self.landlord is not None
        if report_sets(self.hands[self.landlord]):
            self.phase = Phase.REPORT
        elif self.open_hand or self.rules_version == RULES_VERSION_1:
            self.phase = Phase.PLAY
        else:
            self.phase = Phase.REPORT

    def apply_logged(self, action: Action) -> None:
        """Apply ``action`` read back from a log of actions that names no rules version (a table's
        committed actions): the landlord's first play where the 报到 decision is awaited, with
        no set in his hand, is a log written under version 1, which skipped the decision; the
        deal then follows version 1. Anything else is :meth:`apply`."""
        landlord = self.landlord
        if (
            self.phase is Phase.REPORT
            and action.kind is ActionKind.PLAY
            and action.seat == landlord
            and self.rules_version == RULES_VERSION
            and not report_sets(self.hands[landlord])
        ):
            self.rules_version = RULES_VERSION_1
            self.phase = Phase.PLAY
            try:
                self.apply(action)
            except IllegalActionError:
                self.rules_version, self.phase = RULES_VERSION, Phase.REPORT
                raise
            return
        self.apply(action)

    def _open(self, action: Action) -> None:
        self._expect(action, ActionKind.OPEN)
        self.open_hand = bool(action.value)
        self._to_report()

    def _report(self, action: Action) -> None:
        self._expect(action, ActionKind.REPORT)
        hand = self.hands[action.seat]
        sets = report_sets(hand)
        wanted = Counter(action.cards)
        chosen: list[Play] = []
        for p in sets:
            ranks = {c.rank for c in p.cards}
            if any(c.rank in ranks for c in wanted):
                chosen.append(p)
        if Counter(c for p in chosen for c in p.cards) != wanted:
            raise IllegalActionError.of(
                "doudizhu.report_whole_sets",
                action=str(action),
                sets=", ".join(map(str, sets)) or "none",
            )
        self.declared = tuple(chosen)
        self.locked = list(chosen)
        if chosen:
            self.phase = Phase.FIGHT
        else:
            self.phase = Phase.PLAY

    def _fight(self, action: Action) -> None:
        self._expect(action, ActionKind.FIGHT)
        self.fight = bool(action.value)
        if self.fight:
            self.phase = Phase.PLAY
            return
        assert self.landlord is not None
        self._end(deal_result(self.landlord, Outcome.REPORT_NO_PLAY, self.factors(), self.rules))

    def _take(self, action: Action) -> None:
        hand = self.hands[action.seat]
        taken: list[Card] = []
        for card in action.cards:
            try:
                hand.remove(card)
            except ValueError:
                hand.extend(taken)
                lacking = Counter(action.cards) - Counter(hand)
                raise IllegalActionError.of(
                    "doudizhu.not_holding",
                    action=str(action),
                    seat=action.seat,
                    cards=format_cards(sorted(lacking.elements())),
                ) from None
            taken.append(card)

    def _play(self, action: Action) -> None:
        seat = action.seat
        if action.kind is ActionKind.PASS:
            if self.current is None:
                raise IllegalActionError.of("doudizhu.leader_must_play", action=str(action))
            self.trick.append(action)
            self.passes += 1
            if self.passes == 3:
                winner = self.current_seat
                assert winner is not None
                self.last_trick = (winner, tuple(self.trick))
                self.trick = []
                self.current = None
                self.current_seat = None
                self.passes = 0
                self.turn = winner
            else:
                self.turn = (seat + 1) % 4
            return
        self._expect(action, ActionKind.PLAY, ActionKind.PASS)
        play, locked_set = self._judge(action)
        self._take(action)
        if locked_set is not None:
            self.locked.remove(locked_set)
        if play.is_bomb:
            self.bombs[seat] += 1
        self.pile.extend(action.cards)
        self.trick.append(action)
        self.current = play
        self.current_seat = seat
        self.passes = 0
        if not self.hands[seat]:
            self.last_trick = (seat, tuple(self.trick))
            assert self.landlord is not None
            outcome = Outcome.LANDLORD if seat == self.landlord else Outcome.FARMERS
            self._end(deal_result(self.landlord, outcome, self.factors(), self.rules))
            return
        self.turn = (seat + 1) % 4

    def _judge(self, action: Action) -> tuple[Play, Play | None]:
        """The play of ``action`` and the declared set it plays (if one), or raise why not
        (holding the cards is checked when they are taken)."""
        seat = action.seat
        play = classify(action.cards)
        if play is None:
            raise IllegalActionError.of(
                "doudizhu.not_a_play", action=str(action), cards=format_cards(action.cards)
            )
        current = self.current
        if current is not None and not play.beats(current):
            raise IllegalActionError.of(
                "doudizhu.does_not_beat",
                action=str(action),
                cards=str(play),
                type=play.type.chinese,
                type_en=play.type.english,
                current=str(current),
                current_type=current.type.chinese,
                current_type_en=current.type.english,
            )
        if play.is_bomb and not self.bombs_allowed(seat):
            raise IllegalActionError.of(
                "doudizhu.bomb_limit", action=str(action), seat=seat, limit=self.bomb_limits[seat]
            )
        locked_set: Play | None = None
        if seat == self.landlord and self.locked:
            ranks = {c.rank for c in play.cards}
            touched = [p for p in self.locked if ranks & {c.rank for c in p.cards}]
            if touched:
                if len(touched) != 1 or Counter(touched[0].cards) != Counter(play.cards):
                    raise IllegalActionError.of(
                        "doudizhu.set_whole",
                        action=str(action),
                        sets=", ".join(map(str, self.locked)),
                    )
                locked_set = touched[0]
        return play, locked_set

    def check_play(self, seat: int, cards: Sequence[Card]) -> Play | None:
        """The play if ``seat`` may play ``cards`` now, else ``None`` (nothing changes)."""
        if self.phase is not Phase.PLAY or seat != self.turn or not cards:
            return None
        if classify(cards) is None or Counter(cards) - Counter(self.hands[seat]):
            return None
        try:
            return self._judge(Action.play(seat, cards))[0]
        except IllegalActionError:
            return None

    def _count_timeout(self, action: Action) -> None:
        seat = action.seat
        if not action.system:
            if self.rules.timeouts_in_a_row:
                self.timeouts[seat] = 0
            return
        self.timeouts[seat] += 1
        if self.timeouts[seat] >= self.rules.timeouts_to_escape and not self.over:
            # the escape is implied by the system action that reached the limit, so a replay
            # reproduces it
            self._end(
                escape_result(seat, EscapeKind.TIMEOUTS, self.landlord, self.factors(), self.rules)
            )

    def _end(self, result: DealResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self.turn = None

    # -- views ---------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        """What every player may see (:func:`engine.shanghai_doudizhu.views.public_view`)."""
        return views.public_view(self)

    def private_view(self, seat: int) -> dict[str, Any]:
        """The public view plus ``seat``'s hand, legal actions and, for the landlord, the kitty
        (:func:`engine.shanghai_doudizhu.views.private_view`)."""
        return views.private_view(self, seat)

    def __repr__(self) -> str:
        return f"<Deal seed={self.seed!r} {self._state()}>"
