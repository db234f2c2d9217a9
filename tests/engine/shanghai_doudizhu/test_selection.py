"""A play is a play of ranks (issue 26): whichever copies of a rank a person selects are the cards
they play. The check (the game's ``explain_selection`` on the seat's view, as the site asks it,
and ``Deal.check_play``) and ``Deal.apply`` accept every held selection whose ranks make a legal
play, the hand loses exactly those cards, and the record replays them; a refusal says in words
what the selection makes and why it does not go."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, format_cards, parse_cards
from engine.registry import get_game
from engine.shanghai_doudizhu.actions import Action
from engine.shanghai_doudizhu.bots import RandomBot
from engine.shanghai_doudizhu.deal import Deal, Phase
from engine.shanghai_doudizhu.record import Record, replay
from tests.engine.shanghai_doudizhu.helpers import rig
from tests.hypothesis_profiles import examples

GAME = get_game("shanghai_doudizhu")
FIVE_TWOS = "2S 2H 2D 2D 2C"


def ranks(cards: Any) -> Counter[int]:
    return Counter(int(c.rank) for c in cards)


def to_play(seed: int, moves: int) -> Deal:
    """A seeded deal driven by random bots into its play, then ``moves`` actions further."""
    deal = Deal(seed=seed)
    rng = random.Random(seed)
    bots = [RandomBot(seed=seed * 4 + s) for s in range(4)]
    while not deal.over and deal.phase is not Phase.PLAY:
        seat = deal.turn
        assert seat is not None
        legal = deal.legal_actions(seat)
        # a bid (never four passes), and 打 after a 报到, so that the deal is played
        choice = [a for a in legal if a.kind.value in ("bid", "fight") and a.value] or legal
        deal.apply(rng.choice(choice))
    for _ in range(moves):
        if deal.over:
            break
        seat = deal.turn
        assert seat is not None
        deal.apply(bots[seat].act(deal, seat))
    return deal


def verdict(deal: Deal, seat: int, cards: list[Card]) -> Any:
    return GAME.explain_selection(view=deal.private_view(seat), cards=format_cards(cards))


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 40), data=st.data())
def test_any_copies_whose_ranks_make_a_legal_play_are_accepted(
    seed: int, moves: int, data: st.DataObject
) -> None:
    deal = to_play(seed, moves)
    if deal.over:
        return
    seat = deal.turn
    assert seat is not None
    hand = list(deal.hands[seat])
    plays = deal.legal_plays(seat)
    if not plays:  # only a pass
        return
    play = data.draw(st.sampled_from(plays))
    held: dict[int, list[Card]] = {}
    for card in hand:
        held.setdefault(int(card.rank), []).append(card)
    selection: list[Card] = []
    for rank, count in ranks(play.cards).items():
        selection += data.draw(st.permutations(held[rank]))[:count]
    selection = data.draw(st.permutations(selection))
    assert deal.check_play(seat, selection) is not None
    checked = verdict(deal, seat, selection)
    assert checked.ok and checked.kind == "play", checked
    assert Counter(parse_cards(checked.cards)) == Counter(selection)  # the cards selected
    deal.apply(Action.play(seat, selection))
    assert Counter(deal.hands[seat]) == Counter(hand) - Counter(selection)
    assert Counter(deal.actions[-1].cards) == Counter(selection)
    again = replay(Record.loads(Record.from_deal(deal).dumps()))
    assert [Counter(h) for h in again.hands] == [Counter(h) for h in deal.hands]


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 40), data=st.data())
def test_the_check_accepts_exactly_what_the_rules_allow(
    seed: int, moves: int, data: st.DataObject
) -> None:
    """Any held selection: the check says yes exactly when its ranks make a legal play, and
    ``apply`` agrees; a no is said in words, never the bare "cannot be played now" when the cards
    make no play or do not beat."""
    deal = to_play(seed, moves)
    if deal.over:
        return
    seat = deal.turn
    assert seat is not None
    hand = sorted(deal.hands[seat])
    picks = data.draw(st.sets(st.integers(0, len(hand) - 1), min_size=1, max_size=8))
    selection = [hand[i] for i in sorted(picks)]
    legal = [ranks(p.cards) for p in deal.legal_plays(seat)]
    allowed = ranks(selection) in legal
    checked = verdict(deal, seat, selection)
    assert checked.ok is allowed, (checked, format_cards(selection))
    assert (deal.check_play(seat, selection) is not None) is allowed
    if not allowed:
        assert checked.message != "%(cards)s cannot be played now."


def led(seat_cards: str = FIVE_TWOS) -> Deal:
    """A deal whose landlord (seat 0, bid 1) holds ``seat_cards`` and leads."""
    deal = rig({0: seat_cards}, marked=(0, seat_cards.split()[0]))
    deal.apply(Action.bid(0, 1))
    for seat in (1, 2, 3):
        deal.apply(Action.pass_(seat))
    if deal.phase is Phase.REPORT:
        deal.apply(Action.report(0))
    assert deal.phase is Phase.PLAY and deal.turn == 0 and deal.current is None
    return deal


def test_the_issues_hand_every_copy_of_the_twos_leads() -> None:
    """Holding 2S 2H 2D 2D 2C and leading, tapping 2H (or any copy) is a play; so is any pair,
    triple or bomb of those copies; the hand loses exactly the copies tapped."""
    deal = led(FIVE_TWOS)
    twos = parse_cards(FIVE_TWOS)
    for n in range(1, 6):
        for i in range(5 - n + 1):
            chosen = twos[i : i + n]
            checked = verdict(deal, 0, chosen)
            assert checked.ok and checked.cards == format_cards(chosen), (chosen, checked)
    single = GAME.explain_selection(view=deal.private_view(0), cards="2H")
    assert single.ok and single.cards == "2H" and single.params == {"play": "单牌 2"}
    before = Counter(deal.hands[0])
    deal.apply(Action.play(0, parse_cards("2H")))
    assert Counter(deal.hands[0]) == before - Counter(parse_cards("2H"))
    assert Card.parse("2S") in deal.hands[0]
    assert deal.actions[-1].cards == (Card.parse("2H"),)


def follow(current: str, seat_cards: str) -> Deal:
    """Seat 1 to play on ``current``, led by the landlord (seat 0); seat 1 holds
    ``seat_cards``."""
    deal = rig({0: current, 1: seat_cards}, marked=(0, current.split()[0]))
    deal.apply(Action.bid(0, 1))
    for seat in (1, 2, 3):
        deal.apply(Action.pass_(seat))
    if deal.phase is Phase.REPORT:
        deal.apply(Action.report(0))
    deal.apply(Action.play(0, parse_cards(current)))
    assert deal.turn == 1
    return deal


def say(deal: Deal, seat: int, cards: str, english: bool = False) -> str:
    checked = GAME.explain_selection(view=deal.private_view(seat), cards=cards, english=english)
    assert not checked.ok, checked
    return checked.message % dict(checked.params)


def test_a_refusal_says_what_the_play_is_and_why_it_does_not_beat() -> None:
    deal = follow("9S 9H", "7S 7D 5S 5H 5D 3C 4C")
    assert say(deal, 1, "7S 7D") == "This is 对牌 7: it does not beat 对牌 9."
    assert say(deal, 1, "7S 7D", english=True) == (
        "This is 对牌 (pair) 7: it does not beat 对牌 (pair) 9."
    )
    assert say(deal, 1, "5S 5H 5D") == (
        "The play to beat is 对牌 9: play a higher pair (2 cards of one rank) or a bomb, or pass."
    )
    assert say(deal, 1, "3C 4C").startswith("Two cards make a play only as a pair")
    triple = follow("5S 5H 5D", "4S 4H 4D 9C")
    assert say(triple, 1, "9C").startswith(
        "The play to beat is 三条 5: play 3 cards of one higher rank"
    )
    assert say(triple, 1, "4S 4H 4D") == "This is 三条 4: it does not beat 三条 5."
    straight = follow("3S 4S 5S 6S 7S", "4H 5H 6H 7H 8H 9H")
    assert say(straight, 1, "4H 5H 6H 7H 8H 9H").startswith(
        "The play to beat is 顺子 3-7: play a higher straight of 5 cards"
    )


def test_a_selection_that_makes_no_play_names_the_plays_there_are() -> None:
    deal = led("2S 3S 3H 3D 4C 6H SJ BJ 9S 9H 9D 9C 8S")
    assert "三带一" in say(deal, 0, "3S 3H 3D 4C")
    assert "四带二" in say(deal, 0, "9S 9H 9D 9C 3S 4C")
    assert "小王 and 大王 make no pair" in say(deal, 0, "SJ BJ")
    assert "no sequence" in say(deal, 0, "2S 3S 4C 6H 8S")
    general = say(deal, 0, "9S 9H 9D 3S 3H 4C 6H")
    for kind in ("单牌", "对牌", "三条", "三带二", "顺子", "双顺", "3顺", "飞机带翅膀", "炸弹"):
        assert kind in general


def test_bomb_limit_and_declared_sets_are_named() -> None:
    # seat 1 passed the bidding: one bomb at most
    deal = follow("3S", "9S 9H 9D 9C 10S 10H 10D 10C")
    deal.apply(Action.play(1, parse_cards("9S 9H 9D 9C")))
    for seat in (2, 3, 0):
        deal.apply(Action.pass_(seat))
    assert "出炸限制" in say(deal, 1, "10S 10H 10D 10C")
    assert GAME.explain_selection(view=deal.private_view(1), cards="10H 10C 10D").ok
    sevens = "7S 7S 7H 7H 7D 7D 7C 7C"
    reported = rig({0: sevens}, marked=(0, "7S"))
    reported.apply(Action.bid(0, 1))
    for seat in (1, 2, 3):
        reported.apply(Action.pass_(seat))
    reported.apply(Action.report(0, parse_cards(sevens)))
    reported.apply(Action.fight(0, True))
    assert "报到" in say(reported, 0, "7S 7H 7D 7C")
    assert GAME.explain_selection(view=reported.private_view(0), cards=sevens).ok
