"""An undeclared 报到 set is private: the 报到 decision looks the same whatever the landlord holds.

Version 1 of the rules skipped the decision when the landlord held no set, so its ``report``
phase told every farmer, spectator and visitor that he held one even when he then declined.
Version 2 always gives the landlord the decision (declaring nothing is his only choice without a
set); it is skipped only after 摊打, when his whole hand is face up. Version 1 records and table
logs are still read as they were played.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank
from engine.errors import IllegalActionError
from engine.shanghai_doudizhu.actions import Action, ActionKind
from engine.shanghai_doudizhu.bots import HeuristicBot, play_deal
from engine.shanghai_doudizhu.deal import Deal, Phase
from engine.shanghai_doudizhu.legal import report_sets
from engine.shanghai_doudizhu.match import Match
from engine.shanghai_doudizhu.record import Record, replay, replay_match
from engine.shanghai_doudizhu.rules import RULES_VERSION, RULES_VERSION_1
from tests.hypothesis_profiles import examples

JOKERS = (Card.parse("SJ"), Card.parse("SJ"), Card.parse("BJ"), Card.parse("BJ"))


def _places(deal: Deal) -> list[list[Card]]:
    return [list(h) for h in deal.initial_hands] + [list(deal.kitty)]


def _swap(places: list[list[Card]], a: int, card_a: Card, b: int, card_b: Card) -> None:
    places[a].remove(card_a)
    places[b].remove(card_b)
    places[a].append(card_b)
    places[b].append(card_a)


def _with_set(deal: Deal, landlord: int) -> list[list[Card]]:
    """The deal's cards with the four jokers moved into the landlord's hand."""
    places = _places(deal)
    for joker in JOKERS:
        if Counter(places[landlord])[joker] >= Counter(JOKERS)[joker]:
            continue
        holder = next(p for p in range(5) if p != landlord and joker in places[p])
        mine = next(c for c in places[landlord] if not c.is_joker and c != deal.marked_card)
        _swap(places, landlord, mine, holder, joker)
    return places


def _without_set(deal: Deal, landlord: int) -> list[list[Card]]:
    """The deal's cards with every 报到 set broken up in the landlord's 33 cards."""
    places = _places(deal)
    while sets := report_sets(places[landlord] + places[4]):
        ranks = {c.rank for c in sets[0].cards}
        kept = Counter(places[landlord] + places[4])
        # the kitty's copy first; never the marked card's last copy in his hand
        where, card = next(
            (p, c)
            for p in (4, landlord)
            for c in places[p]
            if c.rank in ranks and (p == 4 or c != deal.marked_card or places[p].count(c) > 1)
        )
        other = (landlord + 1) % 4
        theirs = next(
            c
            for c in places[other]
            if not c.is_joker
            and c.rank not in ranks
            and kept[c] < 2
            and c.rank != Rank.TWO
            and sum(n for k, n in kept.items() if k.rank == c.rank) <= 4
        )
        _swap(places, where, card, other, theirs)
    return places


def _rebuilt(deal: Deal, places: list[list[Card]]) -> Deal:
    return Deal(hands=places[:4], kitty=places[4], marked=(deal.marked_seat, deal.marked_card))


def _bid(deal: Deal, head: bool) -> int:
    """The first bidder becomes the landlord: 头撂 (3, then no 摊打) or bid 1 and three passes."""
    first = deal.first_bidder
    if head:
        deal.apply(Action.bid(first, 3))
        deal.apply(Action.open(first, False))
    else:
        deal.apply(Action.bid(first, 1))
        for s in (1, 2, 3):
            deal.apply(Action.pass_((first + s) % 4))
    return first


def _watched(deal: Deal, landlord: int) -> dict[str, object]:
    """What the public and each farmer see (a farmer's own hand aside)."""
    seen: dict[str, object] = {"public": deal.public_view()}
    for s in range(4):
        if s != landlord:
            view = deal.private_view(s)
            del view["hand"]
            seen[f"seat {s}"] = view
    seen["awaiting"] = deal.awaiting()
    return seen


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), head=st.booleans())
def test_the_report_point_looks_the_same_with_and_without_a_set(seed: int, head: bool) -> None:
    dealt = Deal(seed=seed)
    landlord = dealt.first_bidder
    with_set = _rebuilt(dealt, _with_set(dealt, landlord))
    without = _rebuilt(dealt, _without_set(dealt, landlord))
    assert report_sets(with_set.hands[landlord] + list(with_set.kitty))
    assert not report_sets(without.hands[landlord] + list(without.kitty))
    seen: list[list[dict[str, object]]] = []
    for deal in (with_set, without):
        steps = [_watched(deal, landlord)]
        _bid(deal, head)
        steps.append(_watched(deal, landlord))
        assert deal.phase is Phase.REPORT and deal.awaiting() == (landlord,)
        assert Action.report(landlord) in deal.legal_actions(landlord)
        assert deal.system_action(landlord) == Action.report(landlord, system=True)
        deal.apply(Action.report(landlord))  # he declines, set or not
        steps.append(_watched(deal, landlord))
        assert deal.phase is Phase.PLAY and deal.turn == landlord
        seen.append(steps)
    assert seen[0] == seen[1]


def test_without_a_set_declaring_nothing_is_the_only_choice_and_a_play_waits() -> None:
    dealt = Deal(seed=11)
    landlord = dealt.first_bidder
    deal = _rebuilt(dealt, _without_set(dealt, landlord))
    _bid(deal, True)
    assert deal.legal_actions(landlord) == [Action.report(landlord)]
    assert deal.public_view()["phase"] == "report"
    card = deal.hands[landlord][0]
    with pytest.raises(IllegalActionError):
        deal.apply(Action.play(landlord, [card]))


def test_after_open_hand_without_a_set_the_decision_is_skipped() -> None:
    dealt = Deal(seed=11)
    landlord = dealt.first_bidder
    deal = _rebuilt(dealt, _without_set(dealt, landlord))
    deal.apply(Action.bid(landlord, 3))
    deal.apply(Action.open(landlord, True))  # the hand is face up: all see there is no set
    assert deal.phase is Phase.PLAY


def _bot_deal(seed: int, version: str) -> Deal:
    deal = Deal(seed=seed, rules_version=version)
    play_deal(deal, [HeuristicBot(seed=s) for s in range(4)])
    return deal


def _landlord_without_set(seed: int) -> bool:
    deal = _bot_deal(seed, RULES_VERSION)
    return deal.landlord is not None and not any(
        a.kind is ActionKind.REPORT and a.cards for a in deal.actions
    )


def test_a_version_1_record_replays_as_it_was_played() -> None:
    seed = next(s for s in range(50) if _landlord_without_set(s))
    old = _bot_deal(seed, RULES_VERSION_1)
    assert not any(a.kind is ActionKind.REPORT for a in old.actions)  # v1 skipped it
    record = Record.from_deal(old)
    assert record.to_json()["headers"]["rules"] == RULES_VERSION_1
    again = replay(Record.loads(record.dumps()))
    assert again.result == old.result and again.actions == old.actions
    new = _bot_deal(seed, RULES_VERSION)
    assert Record.from_deal(new).to_json()["headers"]["rules"] == RULES_VERSION
    assert [a for a in new.actions if a.kind is ActionKind.REPORT] == [
        Action.report(new.landlord or 0)
    ]


def test_a_table_log_of_version_1_is_read_back_and_recorded_as_version_1() -> None:
    seed = next(s for s in range(50) if _landlord_without_set(s))
    old = _bot_deal(seed, RULES_VERSION_1)
    deal = Deal(seed=seed)
    with pytest.raises(IllegalActionError):  # played live, the decision is awaited
        for action in old.actions:
            deal.apply(action)
    logged = Deal(seed=seed)
    for action in old.actions:
        logged.apply_logged(action)
    assert logged.result == old.result and logged.rules_version == RULES_VERSION_1
    assert replay(Record.from_deal(logged)).result == old.result


def test_a_match_of_version_1_records_replays() -> None:
    match = Match(seed=5)
    while not match.over:
        deal = match.start_deal(rules_version=RULES_VERSION_1)
        bots = [HeuristicBot(seed=s) for s in range(4)]
        while not deal.over:
            seat = deal.turn
            assert seat is not None
            match.apply(bots[seat].act(deal, seat))
    records = [Record.from_deal(d, number=i, match_seed=5) for i, d in enumerate(match.deals, 1)]
    assert replay_match(records).points == match.points
