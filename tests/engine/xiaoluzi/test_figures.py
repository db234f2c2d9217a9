"""小路子's figures per seat (issue 16): silver, declarations made (宣牌成功) and slams won (全关),
counted over the match the same way online, in record replays and on a referee's score sheet
(``docs/xiaoluzi.md``, *Figures*)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.registry import get_game
from engine.xiaoluzi import Mode, deal_result, declaration_made, escape_result, slam_winners
from engine.xiaoluzi.result import leave_result
from tests.hypothesis_profiles import examples

XL = get_game("xiaoluzi")
KEYS = ("silver", "declared_won", "slams")


def counted(results: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """The figures as the contract counts them, from each deal's result JSON alone: the declarer
    or counter-declarer who went out first made the declaration; in a slam deal every seat whose
    multiplier is positive won the slam; escapes and leaving count neither."""
    silver, made, slams = [0] * 4, [0] * 4, [0] * 4
    for r in results:
        for s in range(4):
            silver[s] += r["silver"][s]
        if r["kind"] != "deal":
            continue
        first = r["finish"][0] if r["finish"] else None
        if r["mode"] != "none" and first in (r["declarer"], r["counter"]):
            made[first] += 1
        if r["slam"]:
            for s in range(4):
                slams[s] += r["multipliers"][s] > 0
    return {
        "silver": {str(s): v for s, v in enumerate(silver)},
        "declared_won": {str(s): v for s, v in enumerate(made)},
        "slams": {str(s): v for s, v in enumerate(slams)},
    }


# -- one deal each way ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "made", "slam"),
    [
        (deal_result(Mode.NONE, [3, 1, 0], [8, 8, 5, 8]), None, ()),
        # 一打三: the declarer out first made it; an opponent out first: nobody did
        (deal_result(Mode.DECLARED, [2], [3, 1, 8, 2], declarer=2), 2, ()),
        (deal_result(Mode.DECLARED, [0], [8, 1, 4, 2], declarer=2), None, ()),
        # 三家全关: the declarer wins the slam; 宣牌方全关: the three opponents do
        (deal_result(Mode.DECLARED, [2], [0, 0, 8, 0], declarer=2), 2, (2,)),
        (deal_result(Mode.DECLARED, [1], [2, 8, 1, 3], declarer=2), None, (0, 1, 3)),
        # 一对一: whichever of the declarer and the counter-declarer went out first made it
        (deal_result(Mode.COUNTERED, [0], [8, 3, 0, 0], declarer=0, counter=1), 0, ()),
        (deal_result(Mode.COUNTERED, [1], [3, 8, 0, 0], declarer=0, counter=1), 1, ()),
        (deal_result(Mode.COUNTERED, [0], [8, 1, 0, 0], declarer=0, counter=1), 0, (0,)),
        (deal_result(Mode.COUNTERED, [1], [0, 8, 0, 0], declarer=0, counter=1), 1, (1,)),
        # nothing was played out: an escape or a leaving counts neither
        (escape_result(0, Mode.DECLARED, declarer=2), None, ()),
        (escape_result(2, Mode.COUNTERED, declarer=2, counter=3), None, ()),
        (leave_result(1), None, ()),
    ],
)
def test_what_a_deal_counts(result: Any, made: int | None, slam: tuple[int, ...]) -> None:
    assert declaration_made(result) == made
    assert slam_winners(result) == slam
    # the sheet of that one deal counts the same
    data = result.to_json()
    if data["kind"] == "leave":
        deal: dict[str, Any] = {"leave": data["seat"]}
    else:
        deal = {k: data[k] for k in ("mode", "declarer", "counter", "finish")}
        if data["kind"] == "escape":
            deal["escape"] = data["seat"]
        else:
            deal["played"] = data["played"]
    sheet = XL.score_sheet({"deals": [deal]}, options=XL.default_options())
    assert sheet.figures[-1] == counted([data])
    assert sheet.figures[0] == counted([])


def test_the_figures_are_the_games_specs_in_tie_break_order() -> None:
    specs = [(f.key, f.label_zh, f.holder, f.start) for f in XL.figure_specs]
    assert specs == [
        ("silver", "银子", "seat", 0),
        ("declared_won", "宣牌成功", "seat", 0),
        ("slams", "全关", "seat", 0),
    ]
    assert [f["key"] for f in XL.to_json()["figures"]] == list(KEYS)
    state = XL.new_match(seed=1, options=XL.default_options())
    assert state.figures() == counted([])


# -- whole matches: online, replayed, deal by deal, and on a sheet ------------------------------


def sheet_deal(info: Any) -> dict[str, Any]:
    r = info.result
    deal = {"mode": r["mode"], "declarer": r["declarer"], "counter": r["counter"]}
    deal.update(finish=r["finish"], holder_7h=info.dealer)
    if r["kind"] == "escape":
        return {**deal, "escape": r["seat"]}
    return {**deal, "played": r["played"]}


@settings(max_examples=examples(25), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    bots=st.lists(st.sampled_from(["random", "heuristic"]), min_size=4, max_size=4),
    deals=st.integers(1, 6),
    end=st.sampled_from([None, "escape", "leave"]),
    slam_count=st.sampled_from(["cards", "plays"]),
)
def test_a_matchs_figures_are_the_counts_of_its_deals(
    seed: int, bots: list[str], deals: int, end: str | None, slam_count: str
) -> None:
    rules = dataclasses.replace(XL.default_options(), deals_per_match=deals, slam_count=slam_count)
    state = XL.new_match(seed=seed, options=rules, base=1 + seed % 3)
    players = [XL.bot(kind, f"{seed}:{s}") for s, kind in enumerate(bots)]
    stop = (1 + seed % deals, seed % 7)  # the deal and the action an escape or a leaving is at
    left = None
    while not state.over:
        if end == "leave" and state.deals_started == stop[0] and state.deals_started < deals:
            left = seed % 4
            state.leave(left)
            break
        info = state.start_deal()
        while state.in_deal:
            seat = state.awaiting()[0]
            at = (info.number, len(state.deal_actions(info.number)))
            if end == "escape" and at == stop:
                state.escape(seat)
                break
            state.apply(players[seat].act(state, seat))
    results = state.results()
    figures = state.figures()
    assert figures == counted(results)
    assert sum(figures["declared_won"].values()) <= state.deals_started
    # the records replay to the same figures, as a match and deal by deal (verify_records)
    records = [state.record(n) for n in range(1, state.deals_started + 1)]
    assert XL.replay_match(records, left=left).figures() == figures
    running = {key: {str(s): 0 for s in range(4)} for key in ("declared_won", "slams")}
    for record in records:
        one = XL.replay_record(record)["figures"]
        assert one == counted([record["result"]])
        for key, by in running.items():
            for s in by:
                by[s] += one[key][s]
    assert running == {k: figures[k] for k in running}
    # the referee's sheet of the same match gives the same figures after every deal
    entries = [sheet_deal(state.deal_info(n)) for n in range(1, state.deals_started + 1)]
    if left is not None:
        entries.append({"leave": left})
    sheet = XL.score_sheet({"deals": entries}, options=state.options, base=state.base)
    assert sheet.figures[-1] == figures
    assert list(sheet.figures) == [counted(results[:n]) for n in range(len(results) + 1)]


def test_random_matches_make_and_slam_declarations() -> None:
    """Forty matches of random bots (who declare and counter often): the counts are seen at
    work, and every one equals what the deals' results say."""
    made = slams = 0
    for seed in range(40):
        state = XL.new_match(seed=seed, options=XL.default_options())
        players = [XL.bot("random", f"{seed}:{s}") for s in range(4)]
        while not state.over:
            state.start_deal()
            while state.in_deal:
                seat = state.awaiting()[0]
                state.apply(players[seat].act(state, seat))
        figures = state.figures()
        assert figures == counted(state.results())
        made += sum(figures["declared_won"].values())
        slams += sum(figures["slams"].values())
    assert made > 40 and slams > 0
