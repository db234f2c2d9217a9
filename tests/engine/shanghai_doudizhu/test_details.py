"""The contract's remaining lines: notation, sizes, options, the marked joker, details."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import EngineError
from engine.shanghai_doudizhu.actions import Action
from engine.shanghai_doudizhu.legal import legal_plays
from engine.shanghai_doudizhu.plays import Play, PlayType, classify
from engine.shanghai_doudizhu.result import EscapeKind, Outcome
from engine.shanghai_doudizhu.rules import (
    DEFAULT_RULES,
    DoubleReport,
    EscapeRounding,
    FirstBidder,
    Huangfan,
    ReportLossRating,
    Rules,
)

from .helpers import rig

CHAIN = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_card_tokens_t_symbols_and_chinese_jokers() -> None:
    play = Play.parse("TH JH QH KH AH")
    assert (play.type, play.key_token) == (PlayType.STRAIGHT, "A")
    assert classify(parse_cards("♠7 7♥")) == Play.parse("7S 7H")
    assert Play.parse("小王 小怪 大王 大怪") == Play.parse("SJ SJ BJ BJ")


def test_largest_sizes_fit_only_the_landlord() -> None:
    eleven = " ".join(f"{r}S {r}H {r}D" for r in CHAIN[2:13])
    play = Play.parse(eleven)  # 3..K: 11 triples, 33 cards
    assert (play.type, play.size, play.key_token) == (PlayType.TRIPLE_STRAIGHT, 33, "K")
    assert any(p.size == 33 for p in legal_plays(parse_cards(eleven)))
    wings = " ".join(f"{r}S {r}H {r}D" for r in CHAIN[1:7]) + " "
    wings += " ".join(f"{r}C {r}C" for r in CHAIN[7:13])
    airplane = Play.parse(wings)  # 2..7 triples + 8..K pairs
    assert (airplane.type, airplane.size, airplane.key_token) == (PlayType.AIRPLANE, 30, "7")


def test_count_profile_decides_the_type() -> None:
    assert Play.parse("3S 3H 4S 4H 5S 5H").type is PlayType.PAIR_STRAIGHT
    assert Play.parse("3S 3H 3D 4S 4H 4D").type is PlayType.TRIPLE_STRAIGHT
    assert Play.parse("3S 3H 3D 3C 3S").type is PlayType.BOMB  # a triple + a same-rank pair
    assert Play.parse("3S 3H 3D 3C 3S").bomb_class == 5


def test_eight_of_a_rank_may_go_out_as_smaller_bombs_or_groups() -> None:
    eight = parse_cards("9S 9S 9H 9H 9D 9D 9C 9C")
    sizes = sorted(p.size for p in legal_plays(eight) if p.is_bomb)
    assert sizes == [4, 5, 6, 7, 8]
    assert {p.type for p in legal_plays(eight)} == {
        PlayType.SINGLE,
        PlayType.PAIR,
        PlayType.TRIPLE,
        PlayType.BOMB,
    }


def test_rules_defaults_and_json_round_trip() -> None:
    r = DEFAULT_RULES
    assert (r.base, r.turn_seconds, r.disconnect_seconds, r.timeouts_to_escape, r.deals) == (
        1,
        30,
        180,
        5,
        4,
    )
    assert r.first_bidder is FirstBidder.MARKED_CARD and r.huangfan is Huangfan.FLAG
    assert r.double_report is DoubleReport.X2 and not r.timeouts_in_a_row
    assert r.active_escape_percent == 110 and r.active_escape_rounding is EscapeRounding.CEIL
    assert r.report_loss_rating is ReportLossRating.NORMAL
    other = Rules(
        base=3,
        first_bidder=FirstBidder.ROTATE,
        huangfan=Huangfan.MULTIPLY,
        double_report=DoubleReport.PER_SET,
        timeouts_in_a_row=True,
        active_escape_rounding=EscapeRounding.HALF_UP,
        report_loss_rating=ReportLossRating.VOID,
    )
    assert Rules.from_json(other.to_json()) == other
    assert Rules.from_json({}) == DEFAULT_RULES


@pytest.mark.parametrize(
    "data",
    [{"base": 0}, {"huangfan": "twice"}, {"deals": "4"}, {"colour": 1}, {"timeouts_in_a_row": 1}],
)
def test_rules_refuse_bad_options(data: dict[str, object]) -> None:
    with pytest.raises(EngineError):
        Rules.from_json(data)


def test_marked_joker_doubles_the_deal() -> None:
    deal = rig({0: "BJ", 1: "3S"}, marked=(0, "BJ"), fill_seed=3)
    assert deal.marked_joker and deal.first_bidder == 0
    deal.apply(Action.bid(0, 1))
    for s in (1, 2, 3):
        deal.apply(Action.pass_(s))
    result = deal.escape(1, EscapeKind.DISCONNECT)
    # landlord 0 at d = 1 would win 3 * 2 = 6, farmers 2 each
    assert result.points == (6, -10, 2, 2)


def test_a_report_not_yet_fought_counts_as_undeclared_in_an_escape() -> None:
    deal = rig({0: "3H SJ SJ BJ BJ"}, marked=(0, "3H"))
    deal.apply(Action.bid(0, 3))
    deal.apply(Action.open(0, False))
    deal.apply(Action.report(0, parse_cards("SJ SJ BJ BJ")))
    result = deal.escape(2, EscapeKind.DISCONNECT)
    assert result.points == (12, 3, -18, 3)  # no 报到 factor yet


def test_landlord_going_out_wins() -> None:
    deal = rig({0: "3S 4S"}, fill_seed=4)
    deal.apply(Action.bid(0, 3))
    deal.apply(Action.open(0, False))
    if deal.phase.value == "report":
        deal.apply(Action.report(0))
    deal.hands[0] = parse_cards("3S")  # a test-only shortcut to the last card
    deal.initial_hands = (tuple(deal.hands[0]), *deal.initial_hands[1:])
    deal.apply(Action.play(0, parse_cards("3S")))
    assert deal.result is not None and deal.result.outcome is Outcome.LANDLORD
    assert deal.result.points == (12, -4, -4, -4) and deal.result.rating == (3, -1, -1, -1)


def test_open_hand_doubles_win_or_lose_in_a_deal() -> None:
    deal = rig({0: "3S 4S"}, fill_seed=4)
    deal.apply(Action.bid(0, 3))
    deal.apply(Action.open(0, True))
    assert deal.factors().open and deal.factors().head
    result = deal.escape(0, EscapeKind.DISCONNECT)
    assert result.points == (-18, 6, 6, 6)
