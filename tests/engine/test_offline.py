"""Offline matches scored from a referee's entries (contract: End of a deal, Match/escapes)."""

from __future__ import annotations

import pytest

from engine.daguai.match import MatchEnd
from engine.daguai.offline import OfflineEntry, score_match
from engine.daguai.result import Team
from engine.errors import EngineError


def test_levels_dealers_and_points_follow_each_deal() -> None:
    scored = score_match(
        first_dealer=0,
        entries=[
            OfflineEntry(finish=(0, 2, 4)),  # dealer team A wins 1-2-3: A up to 3, 6x
            OfflineEntry(finish=(1, 0, 3, 5)),  # B first and completes: 2 payers, 3x, B deals
            OfflineEntry(finish=(1, 2, 0, 4)),  # B first, A completes: a draw
        ],
        base=2,
    )
    assert [d.dealer for d in scored.deals] == [0, 0, 1]
    assert [d.level_rank for d in scored.deals] == [2, 3, 2]
    assert scored.points == (6, -6, 6, -6, 6, -6)  # +12 -6 +0 for A, base 2
    assert [str(lv) for lv in scored.ladder] == ["2,2", "3,2", "3,2", "3,2"]
    assert scored.end is MatchEnd.DEALS and scored.winner is None
    assert scored.team_points() == {Team.A: 18, Team.B: -18}


def test_passing_a_ends_the_match() -> None:
    entries = [OfflineEntry(finish=(0, 2, 4))] * 13
    scored = score_match(first_dealer=0, entries=entries, rules=_rules(20))
    assert scored.end is MatchEnd.PASSED_A and scored.winner is Team.A
    assert len(scored.deals) == 13 and str(scored.levels) == "A,2"
    with pytest.raises(EngineError, match="deal 14: the match has already ended"):
        score_match(first_dealer=0, entries=[*entries, entries[0]], rules=_rules(20))


def test_an_escape_and_a_leaver_end_the_match_with_their_points() -> None:
    scored = score_match(first_dealer=0, entries=[OfflineEntry(finish=(0,), escape=3)])
    assert scored.points == (2, 0, 2, -18, 2, 0) and scored.end is MatchEnd.ESCAPE
    scored = score_match(
        first_dealer=0, entries=[OfflineEntry(finish=(0, 2, 4)), OfflineEntry(leave=1)]
    )
    assert scored.end is MatchEnd.LEFT and scored.left is not None
    assert scored.points == (7, -9, 7, -6, 7, -6)  # leaver -3, each opponent +1


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([OfflineEntry(finish=(0, 0, 2, 4))], "deal 1"),
        ([OfflineEntry(finish=(0, 2))], "deal 1"),  # nobody's team is all out
        ([OfflineEntry(finish=(0, 2, 4, 1))], "deal 1"),  # seats after the deal ended
        ([OfflineEntry(finish=(0, 2, 4)), OfflineEntry(finish=(7, 1, 3, 5))], "deal 2"),
        ([OfflineEntry(finish=(3,), escape=3)], "escaped after going out"),
    ],
)
def test_impossible_entries_name_the_deal(entries: list[OfflineEntry], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        score_match(first_dealer=0, entries=entries)


def test_bad_entries_and_dealers_are_refused() -> None:
    with pytest.raises(EngineError):
        OfflineEntry(finish=(0,), leave=1)
    with pytest.raises(EngineError):
        OfflineEntry(escape=1, leave=1)
    with pytest.raises(EngineError, match="first dealer"):
        score_match(first_dealer=6, entries=[])


def _rules(deals: int):  # type: ignore[no-untyped-def]
    from engine.daguai import Rules

    return Rules(deals_per_match=deals)
