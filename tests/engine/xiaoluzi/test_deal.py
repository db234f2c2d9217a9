"""A deal as a state machine: declaring, countering, leading, tricks, the end, timeouts,
escapes and views."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.cards import Card, parse_cards
from engine.errors import EngineError, IllegalActionError
from engine.xiaoluzi.actions import Action, ActionKind, Rules
from engine.xiaoluzi.deal import Deal, Phase, deal_hands
from engine.xiaoluzi.plays import PACK
from engine.xiaoluzi.result import CannotEscapeError, DealResult, EscapeResult, Mode

HANDS = [
    "7H 8S 8H 9S 10S JS QS KS",
    "7D 8D 9H 10H JH QH KH AH",
    "8C 9D 10D JD QD KD AS AD",
    "9C 10C JC QC KC AC SJ BJ",
]


def make(holder: int = 0, rules: Rules | None = None) -> Deal:
    """The deal of HANDS turned so that ``holder`` holds 7H (seat s gets HANDS[s - holder])."""
    hands = [HANDS[(s - holder) % 4] for s in range(4)]
    return Deal(hands=hands, rules=rules or Rules())


def act(deal: Deal, *texts: str) -> None:
    for text in texts:
        deal.apply(Action.parse(text))


def answer_none(deal: Deal) -> None:
    """Everybody answers 不宣: mode none."""
    for _ in range(4):
        assert deal.turn is not None
        deal.apply(Action.declare(deal.turn, False))


def strings(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [str(k), *strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return [data] if isinstance(data, str) else []


def shown_cards(view: dict[str, Any]) -> set[Card]:
    tokens = {t for s in strings(view) for t in s.split()}
    return {c for c in PACK if str(c) in tokens}


# -- dealing -----------------------------------------------------------------------------------


def test_seeded_dealing_gives_each_seat_8_cards_of_the_pack():
    deal = Deal(seed=42)
    assert [len(h) for h in deal.hands] == [8, 8, 8, 8]
    assert sorted(c for h in deal.hands for c in h) == sorted(PACK)
    assert deal_hands(42) == Deal(seed=42).hands
    assert deal_hands(42) != deal_hands(43)


def test_hand_made_deals_are_checked():
    with pytest.raises(EngineError):
        Deal(hands=HANDS[:3])
    with pytest.raises(EngineError):
        Deal(hands=[*HANDS[:3], "9C 10C JC QC KC AC SJ"])
    with pytest.raises(EngineError):
        Deal(hands=[*HANDS[:3], "9C 10C JC QC KC AC SJ 8S"])  # 8S twice


# -- declaring ---------------------------------------------------------------------------------


def test_the_7h_holder_is_asked_first_then_in_play_order():
    deal = make(holder=2)
    assert deal.holder_7h == 2 and deal.phase is Phase.DECLARE and deal.turn == 2
    asked = []
    for _ in range(4):
        asked.append(deal.turn)
        assert [a.kind for a in deal.legal_actions(deal.turn)] == [
            ActionKind.DECLARE,
            ActionKind.NO_DECLARE,
        ]
        deal.apply(Action.declare(deal.turn, False))
    assert asked == [2, 3, 0, 1]
    assert deal.mode is Mode.NONE and deal.phase is Phase.PLAY
    assert deal.leader == 2 and deal.turn == 2  # mode none: the 7H holder leads


def test_a_declaration_stops_the_declaring_round_and_starts_the_counter_round():
    deal = make(holder=1)
    act(deal, "1 no_declare", "2 declare")
    assert deal.declarer == 2 and deal.phase is Phase.COUNTER
    assert deal.turn == 3  # d+1 first
    act(deal, "3 no_counter", "0 no_counter")
    assert deal.turn == 1  # the 7H holder said 不宣 and may still 反宣
    act(deal, "1 no_counter")
    assert deal.mode is Mode.DECLARED and deal.phase is Phase.PLAY
    assert deal.leader == 2 and deal.turn == 2  # mode declared: d leads
    assert deal.answers == [
        ("declare", 1, False),
        ("declare", 2, True),
        ("counter", 3, False),
        ("counter", 0, False),
        ("counter", 1, False),
    ]


def test_a_counter_declaration_makes_mode_countered():
    deal = make(holder=0)
    act(deal, "0 declare", "1 no_counter", "2 counter")
    assert deal.mode is Mode.COUNTERED and deal.phase is Phase.PLAY
    assert (deal.declarer, deal.counter, deal.bystanders) == (0, 2, (1, 3))
    assert deal.leader == 2 and deal.turn == 2  # mode countered: c leads


def test_the_7h_holder_who_declined_may_counter():
    deal = make(holder=0)
    act(deal, "0 no_declare", "1 no_declare", "2 declare", "3 no_counter", "0 counter")
    assert deal.mode is Mode.COUNTERED and deal.counter == 0 and deal.bystanders == (1, 3)


def test_answers_out_of_order_are_refused_and_change_nothing():
    deal = make(holder=0)
    before = deal.public_view()
    for text in ("0 counter", "1 declare", "0 play 7H", "0 pass"):
        with pytest.raises(IllegalActionError, match=text.split()[1]):
            deal.apply(Action.parse(text))
    assert deal.public_view() == before
    act(deal, "0 declare")
    with pytest.raises(IllegalActionError, match="out of order"):
        act(deal, "1 declare")  # one declaration per deal
    act(deal, "1 counter")
    with pytest.raises(IllegalActionError):
        act(deal, "2 counter")  # one counter-declaration per deal


# -- tricks ------------------------------------------------------------------------------------


def test_the_leader_may_not_pass_and_may_lead_anything():
    deal = make()
    answer_none(deal)
    assert Action.pass_(0) not in deal.legal_actions(0)
    with pytest.raises(IllegalActionError, match="leader must play"):
        act(deal, "0 pass")
    act(deal, "0 play 9S")  # the first lead need not hold 7H
    assert deal.current_seat == 0 and deal.turn == 1


def test_passing_is_always_allowed_and_a_passer_may_play_again():
    deal = make()
    answer_none(deal)
    act(deal, "0 play 7H")
    assert Action.pass_(1) in deal.legal_actions(1)
    act(deal, "1 pass", "2 play 8C", "3 pass", "0 play 9S", "1 play 10H")
    assert deal.current_seat == 1 and deal.turn == 2
    act(deal, "2 pass", "3 pass", "0 pass")
    assert deal.current is None and deal.turn == 1  # the trick's winner leads
    assert deal.last_trick is not None and deal.last_trick[0] == 1


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1 play AS", "does not hold AS"),
        ("1 play 8D 9H", "not a play"),
        ("1 play 7D", "does not beat"),
        ("1 play 8D 9H 10H 10D 7D", "not a play"),
        ("1 play AH KH", "not a play"),
        ("2 play 8C", "not seat 2's turn"),
    ],
)
def test_refused_plays_name_the_action_and_change_nothing(text, why):
    deal = make()
    answer_none(deal)
    act(deal, "0 play 8S")
    before = (deal.public_view(), [list(h) for h in deal.hands])
    seat, _, cards = text.split(maxsplit=2)
    with pytest.raises(IllegalActionError, match=why) as err:
        deal.apply(Action.play(int(seat), parse_cards(cards)))
    assert text.split()[0] in str(err.value) and "play" in str(err.value)
    assert (deal.public_view(), [list(h) for h in deal.hands]) == before


def test_a_card_given_twice_in_a_play_is_refused():
    deal = make()
    answer_none(deal)
    act(deal, "0 play 8S 8H")
    with pytest.raises(IllegalActionError, match="twice"):
        deal.apply(Action.play(1, parse_cards("9H 9H")))
    assert len(deal.hands[1]) == 8


def test_a_single_cannot_be_played_on_a_pair():
    deal = make()
    answer_none(deal)
    act(deal, "0 play 8S 8H")
    with pytest.raises(IllegalActionError, match="1 cards cannot be played on 2"):
        act(deal, "1 play AH")


def test_the_lead_after_a_player_goes_out_on_a_won_trick():
    deal = make()
    answer_none(deal)
    for lead in ("7H", "8S 8H", "9S", "10S", "JS", "QS"):
        act(deal, f"0 play {lead}", "1 pass", "2 pass", "3 pass")
    act(deal, "0 play KS")
    assert deal.finish == [0] and not deal.over  # out first; mode none goes on
    act(deal, "1 pass", "2 pass", "3 pass")
    assert deal.turn == 1 and deal.current is None  # the next holder from seat 0


def test_a_seat_that_is_out_is_skipped():
    deal = make()
    answer_none(deal)
    for lead in ("7H", "8S 8H", "9S", "10S", "JS", "QS"):
        act(deal, f"0 play {lead}", "1 pass", "2 pass", "3 pass")
    act(deal, "0 play KS", "1 play AH", "2 pass", "3 pass")
    assert deal.turn == 1 and deal.current is None
    act(deal, "1 play 7D", "2 play 8C", "3 play 9C")
    assert deal.turn == 1  # seat 0 is out: after seat 3 comes seat 1


# -- the end of a deal -------------------------------------------------------------------------


def test_mode_declared_ends_at_the_first_out():
    deal = make(holder=0)
    act(deal, "0 no_declare", "1 no_declare", "2 no_declare", "3 declare")
    act(deal, "0 no_counter", "1 no_counter", "2 no_counter")
    assert deal.turn == 3
    # seat 3 holds 9C 10C JC QC KC AC SJ BJ and the others pass everything
    for lead in ("9C", "10C", "JC", "QC", "KC", "AC", "SJ"):
        act(deal, f"3 play {lead}", "0 pass", "1 pass", "2 pass")
    act(deal, "3 play BJ")
    assert deal.over and deal.finish == [3]
    result = deal.result
    assert isinstance(result, DealResult)
    assert result.slam and result.multipliers == (-2, -2, -2, 6)  # 三家全关
    assert [len(h) for h in deal.hands] == [8, 8, 8, 0]  # cards still held are not played


def test_mode_countered_ends_when_d_or_c_goes_out_and_bystanders_never_act():
    deal = make(holder=0)
    act(deal, "0 no_declare", "1 declare", "2 no_counter", "3 counter")
    assert deal.bystanders == (0, 2) and deal.turn == 3
    assert deal.legal_actions(0) == [] and deal.legal_actions(2) == []
    seen = []
    act(deal, "3 play 9C")
    seen.append(deal.turn)
    act(deal, "1 play 10H")
    seen.append(deal.turn)
    act(deal, "3 pass")
    seen.append(deal.turn)
    assert seen == [1, 3, 1]  # one plays, the other beats or passes
    for lead in ("7D", "8D", "9H", "JH", "QH", "KH"):
        act(deal, f"1 play {lead}", "3 pass")
    act(deal, "1 play AH")
    assert deal.over and deal.finish == [1]
    result = deal.result
    assert isinstance(result, DealResult)
    assert result.multipliers == (0, 8, 0, -8) and result.slam  # c played one card: 反宣方全关
    assert deal.cards_played == [0, 8, 0, 1]
    view = deal.public_view()
    assert view["revealed"] == {"0": HANDS[0], "2": HANDS[2]}  # shown to all when it ends


def test_mode_none_ends_at_the_third_out_with_the_fourth_recorded():
    deal = Deal(seed=11)
    answer_none(deal)
    while not deal.over:
        assert deal.turn is not None
        deal.apply(deal.legal_actions(deal.turn)[0])  # the lowest play, never a pass
    assert len(deal.finish) == 4 and len(deal.hands[deal.finish[3]]) > 0
    assert sum(1 for h in deal.hands if h) == 1
    result = deal.result
    assert isinstance(result, DealResult)
    assert sorted(result.multipliers) == [-2, -1, 1, 2] and not result.slam


def test_option_first_lead_7h():
    deal = make(rules=Rules(first_lead_7h=True))
    answer_none(deal)
    assert all(Card.parse("7H") in a.cards for a in deal.legal_actions(0))
    with pytest.raises(IllegalActionError, match="7H"):
        act(deal, "0 play 9S")
    assert str(deal.system_action(0)) == "0 play 7H (system)"
    act(deal, "0 play 7H", "1 pass", "2 pass", "3 pass", "0 play 9S")  # only the first lead
    # in mode declared the declarer leads anything
    deal = make(rules=Rules(first_lead_7h=True))
    act(deal, "0 declare", "1 no_counter", "2 no_counter", "3 no_counter", "0 play 9S")


# -- timeouts ----------------------------------------------------------------------------------


def test_system_actions():
    deal = make(holder=0)
    assert str(deal.timeout(0)) == "0 no_declare (system)"
    act(deal, "1 declare")
    assert str(deal.timeout(2)) == "2 no_counter (system)"
    act(deal, "3 no_counter", "0 no_counter")
    assert str(deal.timeout(1)) == "1 play 7D (system)"  # leading: the lowest single
    assert str(deal.timeout(2)) == "2 pass (system)"  # following: pass
    with pytest.raises(IllegalActionError, match="seat 0"):
        deal.timeout(0)


def test_the_lowest_single_takes_spades_first_among_equal_ranks():
    deal = make()
    answer_none(deal)
    act(deal, "0 play 7H", "1 pass", "2 pass", "3 pass")
    assert str(deal.timeout(0)) == "0 play 8S (system)"


def test_a_system_action_must_be_what_the_system_does():
    deal = make()
    answer_none(deal)
    with pytest.raises(IllegalActionError, match="system"):
        deal.apply(Action.play(0, [Card.parse("9S")], system=True))
    with pytest.raises(IllegalActionError, match=r"^1 pass \(system\): no action of seat 1"):
        deal.apply(Action.pass_(1, system=True))
    deal.apply(Action.play(0, [Card.parse("7H")], system=True))


def test_three_consecutive_system_plays_count_as_an_escape():
    deal = make()
    answer_none(deal)
    deal.timeout(0)  # 0 leads 7H
    act(deal, "1 pass", "2 pass", "3 pass")
    deal.timeout(0)  # 0 leads 8S
    act(deal, "1 pass", "2 pass", "3 pass")
    assert deal.streaks[0] == 2 and not deal.over
    deal.timeout(0)
    assert deal.over
    result = deal.result
    assert isinstance(result, EscapeResult) and result.seat == 0
    assert result.multipliers == (-6, 1, 1, 1)


def test_answers_by_the_system_do_not_count_and_acting_resets_the_count():
    deal = make(holder=0)
    deal.timeout(0)
    deal.timeout(1)
    deal.timeout(2)
    deal.timeout(3)
    assert deal.streaks == [0, 0, 0, 0] and deal.mode is Mode.NONE
    deal.timeout(0)
    act(deal, "1 pass", "2 pass", "3 pass")
    deal.timeout(0)
    act(deal, "1 pass", "2 pass", "3 pass")
    act(deal, "0 play 9S")  # the player acts: the count starts again
    assert deal.streaks[0] == 0
    act(deal, "1 pass", "2 pass", "3 pass")
    deal.timeout(0)
    assert not deal.over


def test_option_system_actions_to_escape():
    deal = make(rules=Rules(system_actions_to_escape=0))
    answer_none(deal)
    for _ in range(5):
        deal.timeout(0)
        act(deal, "1 pass", "2 pass", "3 pass")
    assert not deal.over and deal.streaks[0] == 5


# -- escapes -----------------------------------------------------------------------------------


def test_an_escape_before_any_declaration_is_settled_as_mode_none():
    deal = make()
    act(deal, "0 no_declare")
    result = deal.escape(2)
    assert result.mode is Mode.NONE and result.multipliers == (1, 1, -6, 1)
    assert deal.over and str(deal.actions[-1]) == "2 escape"


def test_an_escape_after_a_declaration_is_settled_as_mode_declared():
    deal = make()
    act(deal, "0 no_declare", "1 declare", "2 no_counter")
    assert deal.escape(1).multipliers == (1, -9, 1, 1)
    deal = make()
    act(deal, "0 no_declare", "1 declare")
    assert deal.escape(3).multipliers == (0, 3, 0, -6)


def test_an_escape_after_a_counter_is_settled_as_mode_countered():
    deal = make()
    act(deal, "0 declare", "1 counter")
    assert deal.escape(0).multipliers == (-12, 4, 0, 0)


def test_bystanders_and_players_out_cannot_escape():
    deal = make()
    act(deal, "0 declare", "1 counter")
    with pytest.raises(CannotEscapeError, match="bystander"):
        deal.escape(2)
    assert not deal.can_escape(3) and deal.can_escape(0) and not deal.over
    deal = make()
    answer_none(deal)
    for lead in ("7H", "8S 8H", "9S", "10S", "JS", "QS", "KS"):
        act(deal, f"0 play {lead}", "1 pass", "2 pass", "3 pass")
    with pytest.raises(CannotEscapeError, match="out already"):
        deal.escape(0)
    result = deal.escape(1)
    assert result.multipliers == (2, -6, 1, 1)  # the player out first keeps its +2
    with pytest.raises(IllegalActionError, match="over"):
        deal.escape(2)


# -- views -------------------------------------------------------------------------------------


def test_views_never_show_a_hidden_card():
    deal = make()
    act(deal, "0 declare", "1 no_counter", "2 counter", "2 play 8C")
    public = deal.public_view()
    assert shown_cards(public) == {Card.parse("8C")}
    json.dumps(public)
    for seat in range(4):
        private = deal.private_view(seat)
        assert shown_cards(private) == set(deal.hands[seat]) | {Card.parse("8C")}
        assert private["hand"] == " ".join(str(c) for c in deal.hand(seat))
    assert deal.private_view(1)["legal"] == []  # a bystander never acts
    with pytest.raises(EngineError):
        deal.private_view(4)


def test_public_view_shows_the_answers_and_roles():
    deal = make()
    act(deal, "0 no_declare", "1 declare")
    view = deal.public_view()
    assert view["answers"] == [["declare", 0, False], ["declare", 1, True]]
    assert view["mode"] is None and view["phase"] == "counter" and view["declarer"] == 1
    assert view["holder_7h"] == 0 and view["counts"] == [8, 8, 8, 8]


def test_mode_declared_the_declarer_loses_as_soon_as_an_opponent_goes_out_first():
    deal = make(holder=0)
    act(deal, "0 declare", "1 no_counter", "2 no_counter", "3 no_counter")
    act(deal, "0 play 7H", "1 pass", "2 pass", "3 play BJ", "0 pass", "1 pass", "2 pass")
    for lead in ("9C", "10C", "JC", "QC", "KC", "AC"):
        act(deal, f"3 play {lead}", "0 pass", "1 pass", "2 pass")
    act(deal, "3 play SJ")
    assert deal.over and deal.finish == [3]
    result = deal.result
    assert isinstance(result, DealResult)
    # d led one single and never played again: 宣牌方全关, each of the three opponents +2
    assert result.slam and result.multipliers == (-6, 2, 2, 2)
    assert deal.cards_played == [1, 0, 0, 8]


def test_option_slam_count_plays_in_a_deal():
    deal = make(holder=0, rules=Rules(slam_count="plays"))
    act(deal, "0 declare", "1 no_counter", "2 no_counter", "3 no_counter")
    act(deal, "0 play 8S 8H", "1 pass", "2 pass", "3 play SJ BJ", "0 pass", "1 pass", "2 pass")
    for lead in ("9C", "10C", "JC", "QC", "KC"):
        act(deal, f"3 play {lead}", "0 pass", "1 pass", "2 pass")
    act(deal, "3 play AC")
    result = deal.result
    assert isinstance(result, DealResult)
    assert result.played == (1, 0, 0, 7) and result.slam  # one play (a pair) by d
    assert result.multipliers == (-6, 2, 2, 2)
