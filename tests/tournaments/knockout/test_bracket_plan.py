"""The bracket plan (tournaments.knockout.bracket), pure: whatever the results, every seed has one
place in range, a played bracket gives every place exactly as the places played say, and the plan
never seats a seed twice in a round."""

from __future__ import annotations

import doctest
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from tournaments.knockout import bracket
from tournaments.knockout.bracket import TABLE_SIZES, TEAM_SIZES, plan

SHAPES = [(size, 2, played) for size in TEAM_SIZES for played in (2, 4, 8, 16) if played <= size]
SHAPES += [(size, 4, played) for size in TABLE_SIZES for played in (4, 8, 16) if played <= size]


@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_a_bracket_played_through_places_every_seed(
    shape: tuple[int, int, int], data: st.DataObject
) -> None:
    size, match_size, played = shape
    results: dict[str, tuple[int, ...]] = {}
    while True:
        drawn = plan(size, match_size, played, results)
        for seed, (place, _final) in drawn.places.items():
            assert 1 <= seed <= size and 1 <= place <= size
        open_ = [m for m in drawn.matches if m.entrants is not None and m.result is None]
        if not open_:
            break
        for match in open_:
            seated = [s for m in drawn.round_matches(match.round) for s in (m.entrants or ())]
            assert len(seated) == len(set(seated))  # nobody twice in a round
            assert match.entrants is not None
            results[match.key] = tuple(data.draw(st.permutations(match.entrants)))
    assert drawn.complete
    assert sorted(drawn.places) == list(range(1, size + 1))
    assert all(final for _place, final in drawn.places.values())
    counts = Counter(place for place, _final in drawn.places.values())
    for place in range(1, min(played, size) + 1):
        assert counts[place] == 1  # every place played for is one seed's
    for place, count in counts.items():  # shared places cover the places below them
        assert place + count - 1 <= size
        assert all(counts[p] == 0 for p in range(place + 1, place + count))


@given(shape=st.sampled_from([s for s in SHAPES if s[1] == 2]))
def test_the_better_seed_always_winning_gives_the_seeds_order(shape: tuple[int, int, int]) -> None:
    size, match_size, played = shape
    results: dict[str, tuple[int, ...]] = {}
    while True:
        drawn = plan(size, match_size, played, results)
        open_ = [m for m in drawn.matches if m.entrants is not None and m.result is None]
        if not open_:
            break
        for match in open_:
            assert match.entrants is not None
            assert list(match.entrants) == sorted(match.entrants)  # the better seed is side A
            results[match.key] = tuple(sorted(match.entrants))
    top = sorted(drawn.places, key=lambda s: drawn.places[s])[: min(played, size)]
    assert top == list(range(1, min(played, size) + 1))


def test_doctests() -> None:
    assert doctest.testmod(bracket).failed == 0
