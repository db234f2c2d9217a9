"""The deal as a state machine: dealing, bidding, 头撂, 摊打, 报到, bomb limits, play, timeouts."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.cards import Card, parse_cards
from engine.errors import EngineError, IllegalActionError
from engine.shanghai_doudizhu.actions import Action, ActionKind
from engine.shanghai_doudizhu.deal import Deal, Phase
from engine.shanghai_doudizhu.result import EscapeKind, Outcome
from engine.shanghai_doudizhu.rules import FirstBidder, Rules

from .helpers import rig


def act(deal: Deal, text: str) -> None:
    deal.apply(Action.parse(text))


def test_dealing_is_a_pure_function_of_the_seed() -> None:
    a, b, c = Deal(seed=7), Deal(seed=7), Deal(seed=8)
    assert a.initial_hands == b.initial_hands and a.kitty == b.kitty
    assert (a.marked_seat, a.marked_card) == (b.marked_seat, b.marked_card)
    assert a.initial_hands != c.initial_hands
    every = Counter([*a.kitty, *(x for h in a.initial_hands for x in h)])
    assert len(every) == 54 and set(every.values()) == {2}  # 108 cards, each exactly twice
    assert [len(h) for h in a.hands] == [25] * 4 and len(a.kitty) == 8


def test_marked_card_holder_bids_first() -> None:
    for seed in range(20):
        deal = Deal(seed=seed)
        assert deal.marked_card in deal.hands[deal.marked_seat]
        assert deal.turn == deal.first_bidder == deal.marked_seat


def test_rotate_first_bidder_and_marked_card_in_his_hand() -> None:
    deal = Deal(seed=3, rules=Rules(first_bidder=FirstBidder.ROTATE), first_bidder=2)
    assert deal.first_bidder == 2 and deal.marked_card in deal.hands[2]


def test_bidding_one_round_highest_bidder_is_landlord() -> None:
    deal = rig(marked=(1, "3S"), cards={1: "3S"})
    assert deal.turn == 1
    act(deal, "1 bid 1")
    with pytest.raises(IllegalActionError, match="2 bid 1: a bid must be above"):
        act(deal, "2 bid 1")
    act(deal, "2 pass")
    act(deal, "3 bid 2")
    act(deal, "0 pass")
    assert deal.landlord == 3 and deal.bid == 2 and not deal.head
    assert deal.turn == 3 and len(deal.hands[3]) == 33  # the kitty goes to the landlord
    # bomb limits: bid 1 -> 1, pass -> 1; the landlord none
    assert deal.bomb_limits == [1, 1, 1, None]


def test_a_bid_of_3_ends_bidding_and_later_seats_have_no_limit() -> None:
    deal = rig(marked=(0, "3S"), cards={0: "3S"})
    act(deal, "0 bid 2")
    act(deal, "1 bid 3")
    assert deal.landlord == 1 and deal.bid == 3 and not deal.head  # a later 3 is no 头撂
    assert deal.bomb_limits == [2, None, None, None]


def test_all_pass_is_huangfan() -> None:
    deal = rig()
    for s in range(4):
        act(deal, f"{s} pass")
    assert deal.over and deal.result is not None
    assert deal.result.outcome is Outcome.ALL_PASS and deal.result.points == (0, 0, 0, 0)


def test_head_bid_then_open_hand_choice() -> None:
    deal = rig()
    act(deal, "0 bid 3")
    assert deal.head and deal.phase is Phase.OPEN
    assert [str(a) for a in deal.legal_actions(0)] == ["0 open no", "0 open yes"]
    act(deal, "0 open yes")
    view = deal.public_view()
    assert view["open_hand"] and len(parse_cards(view["landlord_hand"])) == 33
    assert view["kitty"] is not None


def test_no_open_hand_outside_head_bid() -> None:
    deal = rig(marked=(0, "3S"), cards={0: "3S"})
    act(deal, "0 bid 1")
    act(deal, "1 bid 3")
    assert deal.phase is Phase.REPORT  # no 摊打: the 报到 decision, set or not
    with pytest.raises(IllegalActionError):
        act(deal, "1 open yes")


def test_kitty_is_hidden_from_farmers() -> None:
    deal = rig(kitty="BJ BJ SJ 2S 2H 2D 2C AS")
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    assert deal.public_view()["kitty"] is None and deal.public_view()["landlord_hand"] is None
    assert deal.private_view(0)["kitty"] == "BJ BJ SJ 2S 2H 2D 2C AS"
    assert "kitty" not in deal.private_view(1) or deal.private_view(1)["kitty"] is None
    text = json.dumps(deal.private_view(2))
    hand0 = set(str(c) for c in deal.hands[0])
    assert json.loads(text)["hand"] == " ".join(str(c) for c in deal.hand(2))
    assert not any(
        f'"{c}"' in json.dumps(deal.public_view()) for c in hand0 - {str(deal.marked_card)}
    )


def _head_landlord_with(cards: str, **kw: object) -> Deal:
    deal = rig({0: "3H " + cards}, marked=(0, "3H"), **kw)  # type: ignore[arg-type]
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    return deal


def test_report_four_jokers_then_no_play_is_a_landlord_win() -> None:
    deal = _head_landlord_with("SJ SJ BJ BJ")
    assert deal.phase is Phase.REPORT
    assert [str(a) for a in deal.legal_actions(0)] == ["0 report", "0 report SJ SJ BJ BJ"]
    act(deal, "0 report SJ SJ BJ BJ")
    assert deal.public_view()["declared"] == ["SJ SJ BJ BJ"]
    act(deal, "0 fight no")
    assert deal.result is not None and deal.result.outcome is Outcome.REPORT_NO_PLAY
    assert deal.result.points == (12, -4, -4, -4)


def test_double_report_and_fight_locks_the_sets() -> None:
    deal = _head_landlord_with("SJ SJ BJ BJ 9S 9S 9H 9H 9D 9D 9C 9C")
    assert len(deal.legal_actions(0)) == 4  # none, either set, both
    with pytest.raises(IllegalActionError, match="whole sets"):
        act(deal, "0 report 9S 9S 9H 9H 9D 9D")
    act(deal, "0 report SJ SJ BJ BJ 9S 9S 9H 9H 9D 9D 9C 9C")
    act(deal, "0 fight yes")
    assert deal.phase is Phase.PLAY and deal.turn == 0
    with pytest.raises(IllegalActionError, match="whole and alone"):
        act(deal, "0 play 9S")
    with pytest.raises(IllegalActionError, match="whole and alone"):
        act(deal, "0 play 9S 9S 9H 9H")
    act(deal, "0 play 9S 9S 9H 9H 9D 9D 9C 9C")
    assert deal.public_view()["declared_in_hand"] == ["SJ SJ BJ BJ"]


def test_report_is_optional_and_undeclared_sets_split() -> None:
    deal = _head_landlord_with("9S 9S 9H 9H 9D 9D 9C 9C")
    act(deal, "0 report")
    assert deal.phase is Phase.PLAY
    act(deal, "0 play 9S")


def test_landlord_leads_and_the_leader_may_not_pass() -> None:
    deal = rig(marked=(2, "3S"), cards={2: "3S"})
    act(deal, "2 bid 1")
    for s in (3, 0, 1):
        act(deal, f"{s} pass")
    act(deal, "2 report")
    assert deal.turn == 2 and deal.phase is Phase.PLAY
    with pytest.raises(IllegalActionError, match="the leader must play"):
        act(deal, "2 pass")


def test_trick_won_after_three_passes_and_a_passer_may_play_again() -> None:
    deal = rig({0: "3S 4S 5H 5S", 1: "6S 7S", 2: "8S"})
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    act(deal, "0 report")
    act(deal, "0 play 3S")
    act(deal, "1 pass")
    act(deal, "2 pass")
    act(deal, "3 pass")
    assert deal.turn == 0 and deal.current is None
    act(deal, "0 play 4S")
    act(deal, "1 pass")
    act(deal, "2 play 8S")
    act(deal, "3 pass")
    act(deal, "0 pass")
    act(deal, "1 pass")  # passed twice in one trick; may still play below
    assert deal.turn == 2 and deal.current is None


def test_passer_may_play_later_in_the_same_trick() -> None:
    deal = rig({0: "3S 4S", 1: "6S 9S", 2: "8S"})
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    act(deal, "0 report")
    act(deal, "0 play 3S")
    act(deal, "1 pass")
    act(deal, "2 play 8S")
    act(deal, "3 pass")
    act(deal, "0 pass")
    act(deal, "1 play 9S")
    assert deal.current_seat == 1


def test_farmer_bomb_limit() -> None:
    deal = rig({0: "3S", 1: "4S 4H 4D 4C 5S 5H 5D 5C 6S"}, marked=(0, "3S"))
    act(deal, "0 bid 1")
    act(deal, "1 pass")
    act(deal, "2 pass")
    act(deal, "3 pass")
    act(deal, "0 report")
    assert deal.bomb_limits[1] == 1
    act(deal, "0 play 3S")
    assert any(p.is_bomb for p in deal.legal_plays(1))
    act(deal, "1 play 4S 4H 4D 4C")
    for s in (2, 3, 0):
        act(deal, f"{s} pass")
    assert deal.bombs[1] == 1 and not deal.bombs_allowed(1)
    assert not any(p.is_bomb for p in deal.legal_plays(1))
    with pytest.raises(IllegalActionError, match="bomb"):
        act(deal, "1 play 5S 5H 5D 5C")
    act(deal, "1 play 5S 5H 5D")  # the same cards as another type


def test_deal_ends_when_a_farmer_goes_out() -> None:
    deal = rig({0: "3S"}, fill_seed=2)
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    if deal.phase is Phase.REPORT:
        act(deal, "0 report")
    # farmer 1 gets down to one card by hand-editing the state is not possible: play it out
    deal.hands[1] = parse_cards("BJ")  # a test-only shortcut: the end rule itself is checked
    deal.initial_hands = (deal.initial_hands[0], tuple(deal.hands[1]), *deal.initial_hands[2:])
    act(deal, "0 play 3S")
    act(deal, "1 play BJ")
    assert deal.result is not None and deal.result.outcome is Outcome.FARMERS
    assert deal.result.points == (-9, 3, 3, 3) and deal.result.rating == (-3, 1, 1, 1)


def test_system_actions() -> None:
    deal = rig({0: "3H 3S SJ SJ BJ BJ"}, marked=(0, "3H"))
    assert str(deal.timeout()) == "0 pass (system)"
    deal = rig({0: "3H 3S SJ SJ BJ BJ"}, marked=(0, "3H"))
    act(deal, "0 bid 3")
    assert str(deal.timeout()) == "0 open no (system)"
    assert str(deal.timeout()) == "0 report (system)"
    deal = rig({0: "3H 3S SJ SJ BJ BJ"}, marked=(0, "3H"))
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    act(deal, "0 report SJ SJ BJ BJ")
    assert str(deal.timeout()) == "0 fight yes (system)"
    # lowest single, first in suit order S H D C
    assert str(deal.timeout()) == "0 play 3S (system)"
    assert str(deal.timeout()) == "1 pass (system)"


def test_system_lead_with_only_declared_sets_left() -> None:
    deal = rig({0: "SJ SJ BJ BJ"})
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    act(deal, "0 report SJ SJ BJ BJ")
    act(deal, "0 fight yes")
    deal.hands[0] = parse_cards("SJ SJ BJ BJ")
    assert str(deal.system_action(0)) == "0 play SJ SJ BJ BJ (system)"


def test_fifth_timeout_in_a_deal_is_an_escape() -> None:
    deal = rig({0: "3S"})
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    act(deal, "0 report")
    for _ in range(4):
        deal.timeout()  # 0 leads, 1 2 3 pass
        for _ in range(3):
            deal.apply(deal.legal_actions(deal.turn)[-1])  # others pass by themselves
        assert not deal.over
    deal.timeout()
    assert deal.result is not None and deal.result.outcome is Outcome.ESCAPE
    assert deal.result.escaper == 0 and deal.result.escape_kind is EscapeKind.TIMEOUTS


def test_timeouts_in_a_row_option_resets_on_own_action() -> None:
    deal = rig({0: "3S"}, rules=Rules(timeouts_in_a_row=True, timeouts_to_escape=2))
    act(deal, "0 bid 3")
    act(deal, "0 open no")
    act(deal, "0 report")
    deal.timeout()
    for _ in range(3):
        deal.apply(deal.legal_actions(deal.turn)[-1])
    deal.apply(deal.legal_actions(0)[0])  # his own lead resets the streak
    for _ in range(3):
        deal.apply(deal.legal_actions(deal.turn)[-1])
    deal.timeout()
    assert not deal.over
    for _ in range(3):
        deal.apply(deal.legal_actions(deal.turn)[-1])
    deal.timeout()
    assert deal.over


def test_a_wrong_system_action_is_refused() -> None:
    deal = rig()
    with pytest.raises(IllegalActionError, match=r"the system plays 0 pass \(system\)"):
        deal.apply(Action.bid(0, 1, system=True))


def test_escape_during_bidding() -> None:
    deal = rig(marked=(0, "3S"), cards={0: "3S"})
    act(deal, "0 bid 2")
    result = deal.escape(1, EscapeKind.ACTIVE)
    assert result.points == (2, -7, 2, 2) and result.rating == (1, -3, 1, 1)
    with pytest.raises(IllegalActionError, match="over"):
        deal.escape(2, EscapeKind.ACTIVE)


def test_illegal_actions_name_the_action() -> None:
    deal = rig()
    with pytest.raises(IllegalActionError, match="^2 bid 1: not seat 2's turn"):
        act(deal, "2 bid 1")
    with pytest.raises(IllegalActionError, match="^0 play 3S: now a bid or pass"):
        act(deal, "0 play 3S")


def test_hand_made_deals_are_checked() -> None:
    with pytest.raises(EngineError):
        Deal(hands=[parse_cards("3S 3S 3S")] * 4)
    with pytest.raises(EngineError, match="marked"):
        hands = [parse_cards(t) for t in ("3S", "3H", "3D", "3C")]
        Deal(hands=hands, marked=(0, Card.parse("4S")))


def test_action_round_trips() -> None:
    for text in (
        "0 bid 3",
        "1 pass",
        "0 open yes",
        "0 report SJ SJ BJ BJ",
        "0 report",
        "0 fight no",
        "2 play 3H 3S",
        "3 escape disconnect",
        "1 pass (system)",
    ):
        action = Action.parse(text)
        assert str(action) == text and Action.from_json(action.to_json()) == action
    assert Action.parse("0 report").kind is ActionKind.REPORT
