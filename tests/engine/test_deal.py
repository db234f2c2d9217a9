"""The deal state machine: dealing, tribute and return, tricks, going out, the end, the views."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import Card, parse_cards
from engine.daguai.deal import Action, ActionKind, Deal, Phase, Rules
from engine.daguai.result import DealResult, EscapeResult, Levels, Outcome
from engine.errors import IllegalActionError

C = Card.parse


def make(*hands: str, dealer: int = 0, levels: str = "2,2", **kw: object) -> Deal:
    return Deal(
        hands=[parse_cards(h) for h in hands], dealer=dealer, levels=Levels.parse(levels), **kw
    )  # type: ignore[arg-type]


def act(deal: Deal, *texts: str) -> None:
    for text in texts:
        deal.apply(Action.parse(text))


def test_a_seeded_deal_gives_27_cards_each_from_three_decks():
    deal = Deal(seed=42, dealer=3)
    assert [len(deal.hand(s)) for s in range(6)] == [27] * 6
    assert deal.cards_accounted()
    assert deal.phase is Phase.PLAY and deal.turn == 3
    again = Deal(seed=42, dealer=3)
    assert [again.hand(s) for s in range(6)] == [deal.hand(s) for s in range(6)]
    assert Deal(seed=43, dealer=3).hand(0) != deal.hand(0)


def test_level_rank_is_the_dealer_teams_level():
    assert Deal(seed=1, dealer=1, levels=Levels.parse("5,J")).level.token == "J"
    assert Deal(seed=1, dealer=4, levels=Levels.parse("5,J")).level.token == "5"


def test_tribute_pays_the_highest_card_in_the_new_level_order_then_returns():
    # level 7 (team B deals): a 7 is higher than an A, a joker higher than both
    hands = ["AS 7H 3C", "4S 5S", "AC 7D 3D", "6S 6H", "BJ 7C 3H", "8S 8H"]
    deal = make(*hands, dealer=1, levels="2,7", tributes=[(0, 1), (2, 3), (4, 5)])
    assert deal.phase is Phase.RETURN and deal.turn is None
    assert [(t.payer, t.receiver, str(t.card)) for t in deal.tributes] == [
        (0, 1, "7H"),
        (2, 3, "7D"),
        (4, 5, "BJ"),
    ]
    assert C("7H") in deal.hand(1) and C("7H") not in deal.hand(0)
    assert deal.pending_returns() == (1, 3, 5)
    # only a receiver acts, with one card of their choice; nobody plays yet
    assert deal.legal_actions(0) == []
    assert {str(a) for a in deal.legal_actions(1)} == {"1 return 4S", "1 return 5S", "1 return 7H"}
    with pytest.raises(IllegalActionError, match="no playing yet"):
        act(deal, "1 play 4S")
    with pytest.raises(IllegalActionError, match="received no tribute"):
        act(deal, "0 return AS")
    act(deal, "1 return 7H")  # returning the tribute card itself is allowed
    with pytest.raises(IllegalActionError, match="already returned"):
        act(deal, "1 return 4S")
    with pytest.raises(IllegalActionError, match="does not hold"):
        act(deal, "3 return 9S")
    act(deal, "5 return 8S", "3 return 6S")
    assert deal.phase is Phase.PLAY and deal.turn == 1  # the dealer leads
    assert sorted(map(str, deal.hand(0))) == ["3C", "7H", "AS"]
    assert C("6S") in deal.hand(2) and C("8S") in deal.hand(4)
    assert deal.cards_accounted()


def test_a_return_that_times_out_is_a_random_card_replayed_exactly():
    def fresh() -> Deal:
        return Deal(seed=9, dealer=2, tributes=[(1, 2)])

    deal = fresh()
    action = deal.timeout(2)
    assert action.system and action.kind is ActionKind.RETURN
    assert action.cards[0] in deal.hand(1)
    again = fresh()
    again.apply(action)  # the system's choice is checked on replay
    other = fresh()
    wrong = next(a for a in other.legal_actions(2) if a.cards != action.cards)
    with pytest.raises(IllegalActionError, match="the system plays"):
        other.apply(Action.return_(2, wrong.cards[0], system=True))


def test_trick_turns_passes_and_winner_leads():
    deal = make("3S 9S", "4S 10S", "5S JS", "6S QS", "7S KS", "8S AS")
    with pytest.raises(IllegalActionError, match="leader must play"):
        act(deal, "0 pass")
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        act(deal, "1 play 4S")
    act(deal, "0 play 3S", "1 play 4S", "2 pass", "3 play 6S")
    with pytest.raises(IllegalActionError, match="does not beat"):
        act(deal, "4 play 3S")
    with pytest.raises(IllegalActionError, match="does not hold"):
        act(deal, "4 play 2S")
    act(deal, "4 pass", "5 pass", "0 pass", "1 pass")
    assert deal.last_trick is None and deal.turn == 2  # seat 2 passed before: passes again
    act(deal, "2 pass")
    assert deal.last_trick is not None and deal.last_trick[0] == 3
    assert deal.turn == 3 and deal.current is None
    assert [str(a) for a in deal.legal_actions(3)] == ["3 play QS"]


def test_cards_must_be_a_play_of_the_same_count():
    deal = make("3S 3H 9S", "4S 4H 10S", "5S", "6S", "7S", "8S")
    with pytest.raises(IllegalActionError, match="not a play"):
        act(deal, "0 play 3S 9S")
    act(deal, "0 play 3S 3H")
    with pytest.raises(IllegalActionError, match="1 cards cannot be played on 2"):
        act(deal, "1 play 10S")
    act(deal, "1 play 4S 4H")


def test_trick_won_by_a_player_who_went_out_leads_to_the_next_holder():
    hands = ("AS", "3S 4S", "5S 6S", "7S 8S", "9S 10S", "JS QS")
    deal = make(*hands)
    act(deal, "0 play AS", "1 pass", "2 pass", "3 pass", "4 pass", "5 pass")
    assert deal.finish == [0] and deal.turn == 1


def test_option_lead_to_the_next_teammate_still_holding_cards():
    hands = ("AS", "3S 4S", "5S 6S", "7S 8S", "9S 10S", "JS QS")
    deal = make(*hands, rules=Rules(lead_to_teammate=True))
    act(deal, "0 play AS", "1 pass", "2 pass", "3 pass", "4 pass", "5 pass")
    assert deal.turn == 2
    # seat 2 goes out too and wins: its next teammate holding cards is 4
    deal = make("AS", "3S 4S", "KS", "7S 8S", "9S 10S", "JS QS", rules=Rules(lead_to_teammate=True))
    act(deal, "0 play AS", "1 pass", "2 pass", "3 pass", "4 pass", "5 pass")
    act(deal, "2 play KS", "3 pass", "4 pass", "5 pass", "1 pass")
    assert deal.finish == [0, 2] and deal.turn == 4


def test_deal_ends_as_soon_as_a_whole_team_is_out():
    deal = make("AS", "3S 4S", "KS", "7S 8S", "QS", "JS 5S", dealer=0)
    act(deal, "0 play AS", "1 pass", "2 pass", "3 pass", "4 pass", "5 pass")
    act(deal, "1 play 3S", "2 play KS", "3 pass", "4 pass", "5 pass", "1 pass")
    assert deal.finish == [0, 2] and deal.turn == 3  # 2 went out, won: next holder leads
    act(deal, "3 play 7S", "4 play QS")
    assert deal.over and deal.finish == [0, 2, 4]
    result = deal.result
    assert isinstance(result, DealResult)
    assert result.outcome is Outcome.WIN and result.multiplier == 6
    assert result.tributes == ((1, 2), (3, 4), (5, 0))
    assert deal.legal_actions(5) == []
    with pytest.raises(IllegalActionError, match="the deal is over"):
        act(deal, "5 play 5S")


def test_system_plays_lowest_single_when_leading_and_passes_when_following():
    deal = make("2S 3H AS BJ", "4S", "5S", "6S", "7S", "8S", levels="2,2")
    assert str(deal.timeout(0)) == "0 play 3H (system)"  # 2 is the level rank: not lowest
    assert str(deal.timeout(1)) == "1 pass (system)"
    with pytest.raises(IllegalActionError, match="no action of seat 3 is awaited"):
        deal.timeout(3)


def test_consecutive_system_plays_reaching_the_limit_are_an_escape():
    deal = make("3S 4S 5S 6S", "7S", "8S", "9S", "10S", "JS", rules=Rules(system_play_limit=2))
    deal.timeout(0)
    act(deal, "1 play 7S", "2 pass", "3 pass", "4 pass", "5 pass")
    # seat 0 is following: the system passes for it, a second system play in a row
    assert deal.turn == 0
    deal.timeout(0)
    assert deal.over
    assert isinstance(deal.result, EscapeResult) and deal.result.seat == 0
    assert deal.result.points == (-18, 2, 0, 2, 0, 2)  # seat 1 (an opponent) went out first


def test_an_own_action_resets_the_system_play_count():
    deal = make("3S 4S 5S 6S", "7S 2H", "8S", "9S", "10S", "JS", rules=Rules(system_play_limit=2))
    deal.timeout(0)
    act(deal, "1 pass", "2 pass", "3 pass", "4 pass", "5 pass", "0 play 4S")
    assert deal.streaks[0] == 0
    act(deal, "1 play 7S", "2 pass", "3 pass", "4 pass", "5 pass")
    deal.timeout(0)
    assert not deal.over


def test_escape_during_a_deal_ends_it_with_the_escape_points():
    deal = make("AS", "3S 4S", "5S 6S", "7S 8S", "9S 10S", "JS QS", base=2)
    act(deal, "0 play AS", "1 pass", "2 pass", "3 pass", "4 pass", "5 pass")
    result = deal.escape(3)
    assert result.points == (4, 0, 4, -36, 4, 0) and deal.over  # opponents hold 1st: +2b
    assert deal.actions[-1] == Action.escape(3)


def test_public_view_hides_hands_and_private_view_shows_one():
    deal = Deal(seed=5, dealer=2, tributes=[(1, 2), (3, 4)])
    public = deal.public_view()
    text = json.dumps(public)
    assert "hand" not in public and public["counts"] == [27, 26, 28, 26, 28, 27]
    for seat in range(6):
        assert " ".join(map(str, deal.hand(seat))) not in text
    assert [t["payer"] for t in public["tributes"]] == [1, 3]
    private = deal.private_view(2)
    assert private["hand"] == " ".join(map(str, deal.hand(2)))
    assert len(private["legal"]) == len(set(deal.hand(2)))
    action = Action.from_json(private["legal"][0])
    deal.apply(action)
    assert deal.private_view(1)["tributes"][0]["return"] == str(action.cards[0])
    assert "return" not in deal.private_view(0)["tributes"][0]


def test_tribute_and_return_cards_are_seen_only_by_the_two_seats_that_swap_them():
    deal = Deal(seed=5, dealer=2, tributes=[(1, 2), (3, 4)])
    assert all("card" not in t and "return" not in t for t in deal.public_view()["tributes"])
    card = str(deal.tributes[0].card)
    assert deal.private_view(1)["tributes"][0]["card"] == card
    assert deal.private_view(2)["tributes"][0]["card"] == card
    for seat in (0, 3, 4, 5):
        assert "card" not in deal.private_view(seat)["tributes"][0]


def test_the_match_seed_is_never_public():
    from engine.daguai import Match

    match = Match(seed=123456789)
    match.start_deal()
    assert "seed" not in match.public_view()
    assert "123456789" not in json.dumps(match.private_view(0))


def test_actions_round_trip_through_json_and_text():
    for text in ("3 play 3H 3S", "4 pass", "2 return 5H (system)", "1 escape", "0 play BJ"):
        action = Action.parse(text)
        assert str(action) == text
        assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action


def test_random_legal_play_to_the_end_keeps_every_card():
    for seed in range(3):
        rng = random.Random(seed)
        deal = Deal(seed=seed, dealer=2 * seed, tributes=[(1, 0), (3, 2), (5, 4)])
        while not deal.over:
            seat = deal.awaiting()[0]
            deal.apply(rng.choice(deal.legal_actions(seat)))
            assert deal.cards_accounted()
        assert deal.result is not None


@pytest.mark.parametrize(
    ("dealer", "tributes", "message"),
    [
        (0, [(1, 2)], "the dealer \\(seat 0\\) receives tribute"),
        (2, [(1, 2), (1, 4)], "distinct seat pairs"),
        (2, [(4, 2)], "from one team to the other"),
        (2, [(1, 2), (3, 4), (5, 0), (0, 1)], "distinct seat pairs"),
    ],
)
def test_impossible_tribute_pairs_are_refused(dealer, tributes, message):
    from engine.errors import EngineError

    with pytest.raises(EngineError, match=message):
        Deal(seed=1, dealer=dealer, tributes=tributes)


def test_a_streak_that_reached_the_limit_as_the_last_deal_ended_escapes_at_the_next_system_play():
    # [decided] consecutive system plays carry over from deal to deal (the match passes them on)
    deal = Deal(seed=3, dealer=0, streaks=(2, 0, 0, 0, 0, 0), rules=Rules(system_play_limit=2))
    deal.timeout(0)
    assert deal.over and isinstance(deal.result, EscapeResult) and deal.result.seat == 0
