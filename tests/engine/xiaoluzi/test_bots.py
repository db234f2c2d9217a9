"""Bots: random legal play, and the heuristic's declaring, countering and playing."""

from __future__ import annotations

from engine.cards import parse_cards
from engine.xiaoluzi.actions import Action, ActionKind
from engine.xiaoluzi.bots import HeuristicBot, RandomBot, losers, make_bots, play_deal
from engine.xiaoluzi.deal import Deal
from engine.xiaoluzi.plays import PACK

STRONG = "AS AH AD AC KS KH SJ BJ"
WEAK = "7H 8S 9D 10C JS QH 8D 9C"
REST = [c for c in PACK if c not in parse_cards(STRONG) + parse_cards(WEAK)]


def hands_with(strong_seat: int, weak_seat: int) -> list[str]:
    """Four hands: STRONG and WEAK at the given seats, the rest dealt in order."""
    rest = [str(c) for c in REST]
    out = []
    for s in range(4):
        if s == strong_seat:
            out.append(STRONG)
        elif s == weak_seat:
            out.append(WEAK)
        else:
            out.append(" ".join(rest[:8]))
            rest = rest[8:]
    return out


def test_losers_counts_the_groups_the_unseen_cards_could_beat():
    hand = parse_cards(STRONG)
    assert losers(hand, [c for c in PACK if c not in hand]) == 0
    hand = parse_cards(WEAK)
    assert losers(hand, [c for c in PACK if c not in hand]) == 6  # 7, 88, 99, 10, J, Q


def test_the_heuristic_declares_a_hand_that_goes_out_first_and_not_a_weak_one():
    deal = Deal(hands=hands_with(strong_seat=1, weak_seat=0))
    bot = HeuristicBot()
    assert deal.turn == 0
    assert bot.act(deal, 0) == Action.declare(0, False)
    deal.apply(bot.act(deal, 0))
    assert bot.act(deal, 1) == Action.declare(1, True)


def test_the_heuristic_counters_when_it_can_beat_the_declarer():
    deal = Deal(hands=hands_with(strong_seat=2, weak_seat=0))
    deal.apply(Action.declare(0, True))
    bot = HeuristicBot()
    assert bot.act(deal, 1) == Action.counter(1, False)
    deal.apply(Action.counter(1, False))
    assert bot.act(deal, 2) == Action.counter(2, True)


def test_the_declarer_with_a_sure_hand_goes_out_first():
    deal = Deal(hands=hands_with(strong_seat=1, weak_seat=0))
    result = play_deal(deal, [HeuristicBot(seed=s) for s in range(4)])
    assert deal.declarer == 1 and result.finish[0] == 1 and result.multipliers[1] > 0


def test_the_heuristic_goes_out_in_one_play_when_it_can():
    deal = Deal(hands=hands_with(strong_seat=1, weak_seat=0))
    for s in range(4):
        deal.apply(Action.declare(s, False))
    # seat 0 leads its lowest card; later, a hand that is one play is played whole
    bot = HeuristicBot()
    action = bot.act(deal, 0)
    assert action.kind is ActionKind.PLAY and [str(c) for c in action.cards] == ["7H"]


def test_the_heuristic_never_beats_a_fellow_opponent_of_the_declarer():
    deal = Deal(hands=hands_with(strong_seat=3, weak_seat=0))
    deal.apply(Action.declare(0, True))
    for s in (1, 2, 3):
        deal.apply(Action.counter(s, False))
    deal.apply(Action.parse("0 play 7H"))
    bot = HeuristicBot()
    first = bot.act(deal, 1)
    assert first.kind is ActionKind.PLAY  # seat 1 beats the declarer
    deal.apply(first)
    assert bot.act(deal, 2) == Action.pass_(2)  # seat 2 leaves seat 1's play alone


def test_random_bots_take_only_legal_actions_and_are_deterministic():
    for seed in range(20):
        a, b = Deal(seed=seed), Deal(seed=seed)
        bots_a = [RandomBot(seed=s) for s in range(4)]
        bots_b = [RandomBot(seed=s) for s in range(4)]
        while a.turn is not None:
            action = bots_a[a.turn].act(a, a.turn)
            assert action in a.legal_actions(a.turn)
            a.apply(action)
        play_deal(b, bots_b)
        assert a.actions == b.actions


def test_heuristic_bots_are_deterministic_and_beat_random_bots():
    totals = [0, 0]
    for seed in range(100):
        kinds = ["heuristic" if (s + seed) % 2 == 0 else "random" for s in range(4)]
        deal = Deal(seed=seed)
        result = play_deal(deal, make_bots(kinds, seed=seed))
        again = Deal(seed=seed)
        play_deal(again, make_bots(kinds, seed=seed))
        assert again.actions == deal.actions
        for s in range(4):
            totals[(s + seed) % 2] += result.points[s]
    assert totals[0] > totals[1]
