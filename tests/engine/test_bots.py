"""Bots: legal, deterministic, and the heuristic plays sensibly and beats the random bot."""

from __future__ import annotations

from engine.cards import parse_cards
from engine.daguai.bots import HeuristicBot, RandomBot, make_bots, play_deal
from engine.daguai.deal import Action, ActionKind, Deal
from engine.daguai.result import Levels, Team


def make(*hands: str, dealer: int = 0, levels: str = "2,2") -> Deal:
    return Deal(hands=[parse_cards(h) for h in hands], dealer=dealer, levels=Levels.parse(levels))


def test_bots_are_deterministic_given_their_seeds():
    for kinds in (["heuristic"] * 6, ["random"] * 6):
        runs = []
        for _ in range(2):
            deal = Deal(seed=12, dealer=1, tributes=[(0, 1), (2, 3)])
            play_deal(deal, make_bots(kinds, seed=5))
            runs.append([str(a) for a in deal.actions])
        assert runs[0] == runs[1]


def test_heuristic_does_not_beat_a_teammate_who_is_winning_the_trick():
    deal = make("3S 9S", "5S 6S", "4S KS QS", "7S 8S", "9H 10S", "JS QH")
    for text in ("0 play 3S", "1 pass"):
        deal.apply(Action.parse(text))
    assert HeuristicBot().act(deal, 2).kind is ActionKind.PASS
    deal = make("3S 9S", "5S 6S", "4S KS QS", "7S 8S", "9H 10S", "JS QH")
    deal.apply(Action.parse("0 play 3S"))
    assert str(HeuristicBot().act(deal, 1)) == "1 play 5S"  # the lowest that beats, an opponent's


def test_heuristic_plays_out_when_it_can():
    deal = make("3S 8S", "5S", "4S", "7S", "9H", "JS")
    deal.apply(Action.parse("0 play 3S"))
    assert str(HeuristicBot().act(deal, 1)) == "1 play 5S"
    deal = make("4S 4H", "5S 5H", "4D", "7S", "9H", "JS")
    deal.apply(Action.parse("0 play 4S 4H"))
    assert str(HeuristicBot().act(deal, 1)) == "1 play 5S 5H"
    deal = make("3S 3H 3D 9S 9H", "5S", "4S", "7S", "9D", "JS")
    assert str(HeuristicBot().act(deal, 0)) == "0 play 3S 3H 3D 9S 9H"


def test_heuristic_keeps_jokers_and_level_cards_early():
    hand = "BJ SJ 2S AS KH 3S 3H 4C 6D 7D 8S 9S 10C JC QD 5H 5C 6C 7C 8C 9D 10D JD QS KS 4D 4H"
    deal = make(hand, "5S", "6S", "7S", "8D", "9C")
    lead = HeuristicBot().act(deal, 0)
    assert lead.kind is ActionKind.PLAY
    assert all(c.suit is not None and c.rank not in (2, 14) for c in lead.cards)
    many = "QH AH 4S 5D 6H 7H 8H 9S 3C 10H JH"
    deal = make(hand, "5S", "6S", "7S", "8D", many, dealer=5)
    deal.apply(Action.parse("5 play QH"))
    assert str(HeuristicBot().act(deal, 0)) == "0 play KH"  # the cheapest card that beats
    seven = "5S 6D 7H 8S 9D 10S 3D"
    deal = make(hand, seven, "6S", seven, "8D", many, dealer=5)
    deal.apply(Action.parse("5 play AH"))
    assert str(HeuristicBot().act(deal, 0)) == "0 pass"  # only the level 2 or a joker beats A


def test_heuristic_returns_a_low_loose_card():
    deal = Deal(hands=[parse_cards(h) for h in ("3S 3H 4S AS", "9S", "5S", "6S", "7S", "8S")],
                dealer=0, tributes=[(1, 0)])  # fmt: skip
    action = HeuristicBot().act(deal, 0)
    assert str(action) == "0 return 4S"


def test_heuristic_team_beats_the_random_team_clearly():
    wins = losses = 0
    for i in range(24):
        heuristic = Team.A if i % 2 == 0 else Team.B
        kinds = ["heuristic" if Team.of(s) is heuristic else "random" for s in range(6)]
        deal = Deal(seed=1000 + i, dealer=i % 6)
        result = play_deal(deal, make_bots(kinds, seed=i))
        winner = getattr(result, "winner", None)
        wins += winner is heuristic
        losses += winner is heuristic.other
    assert wins >= 20 and losses <= 2


def test_random_bot_only_makes_legal_moves():
    deal = Deal(seed=2, dealer=5, tributes=[(0, 5)])
    play_deal(deal, [RandomBot(s) for s in range(6)], check=lambda d: None)
    assert deal.over and deal.cards_accounted()
