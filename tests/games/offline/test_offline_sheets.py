"""Offline tables of every game: the referee's sheet (the game's own format) is scored by the
engine, stored as entered, and scored again by the audit (verify_records)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import translation

from config.exceptions import ApplicationError
from engine.registry import get_game
from games.models import Deal, FigureStep, Match, Table, TableSeat
from games.offline import services
from games.replay import audit
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db

SHEETS: dict[str, dict[str, Any]] = {
    "daguai": {"first_dealer": 0, "deals": [{"finish": [0, 2, 4]}, {"finish": [1, 0, 3, 5]}]},
    "shanghai_doudizhu": {
        "deals": [
            {"landlord": 0, "bid": 2, "winner": "landlord"},
            {"all_pass": True},
            {"landlord": 1, "bid": 3, "head_bid": True, "marked_joker": True, "winner": "farmers"},
        ]
    },
    "xiaoluzi": {
        "deals": [
            {"mode": "declared", "declarer": 2, "finish": [2], "played": [0, 0, 8, 0]},
            {"mode": "none", "finish": [3, 1, 0], "played": [8, 8, 5, 8]},
        ]
    },
}


def offline_table(game: str) -> Table:
    seats = get_game(game).seat_count
    table = Table.objects.create(
        name=f"桌 {game}", game=game, seat_count=seats, mode=Table.Mode.OFFLINE
    )
    for seat in range(seats):
        TableSeat.objects.create(table=table, seat=seat, player=PlayerFactory())
    return table


def record(table: Table, sheet: Any) -> Match:
    return services.offline_match_record(table=table, sheet=sheet, base_score=1, deals_per_match=8)


def fresh(match: Match) -> list[Match]:
    return [Match.objects.get(pk=match.pk)]


@pytest.mark.parametrize("game", sorted(SHEETS))
def test_an_entered_sheet_scores_as_the_engine_says_and_audits_clean(game: str) -> None:
    table = offline_table(game)
    sheet = SHEETS[game]
    match = record(table, sheet)
    engine = get_game(game)
    scored = engine.score_sheet(
        sheet, options=engine.options_from_json({"deals_per_match": 8}), base=1
    )
    match.refresh_from_db()
    assert match.sheet == sheet and match.game == game
    assert match.points == list(scored.points)
    assert match.figures == scored.figures[-1]
    deals = list(match.deals.order_by("number"))
    assert [d.result for d in deals] == [d.result for d in scored.deals]
    assert [d.points for d in deals] == [list(d.points) for d in scored.deals]
    assert [d.dealer_seat for d in deals] == [d.dealer for d in scored.deals]
    steps = FigureStep.objects.filter(match=match).order_by("deal_number")
    assert [s.figures for s in steps] == list(scored.figures)
    assert audit.matches_audit([match]).ok


def test_the_figures_are_the_games_own() -> None:
    doudizhu = record(offline_table("shanghai_doudizhu"), SHEETS["shanghai_doudizhu"])
    # deal 1: landlord 0 wins at bid 2 (6, -2, -2, -2); deal 3 after one 荒番 deal, 头撂 and the
    # marked joker: the farmers win against seat 1
    assert doudizhu.figures["landlord_wins"] == {"0": 1, "1": 0, "2": 0, "3": 0}
    assert doudizhu.deals.count() == 3 and sum(doudizhu.points) == 0
    xiaoluzi = record(offline_table("xiaoluzi"), SHEETS["xiaoluzi"])
    assert xiaoluzi.deals.get(number=1).points == [-2, -2, 6, -2]
    assert set(xiaoluzi.figures) == {"silver", "declared_won", "slams"}
    assert sum(xiaoluzi.points) == 0
    # deal 1: seat 2 declared, went out first and kept the three others from playing (三家全关)
    assert xiaoluzi.figures["declared_won"] == {"0": 0, "1": 0, "2": 1, "3": 0}
    assert xiaoluzi.figures["slams"] == {"0": 0, "1": 0, "2": 1, "3": 0}


@pytest.mark.parametrize(
    ("game", "sheet", "reason"),
    [
        (
            "shanghai_doudizhu",
            {"deals": [{"landlord": 0, "bid": 4, "winner": "landlord"}]},
            "deal 1: bid",
        ),
        (
            "shanghai_doudizhu",
            {"deals": [{"landlord": 0, "bid": 2, "winner": "landlord"}, {"landlord": 1, "bid": 2}]},
            "deal 2: winner",
        ),
        ("xiaoluzi", {"deals": [{"mode": "declared", "finish": [2]}]}, "deal 1: declarer"),
        (
            "xiaoluzi",
            {"deals": [{"mode": "none", "finish": [3, 1, 0], "slam": True}]},
            "deal 1: slam",
        ),
        (
            "daguai",
            {"first_dealer": 0, "deals": [{"finish": [0, 2, 4]}, {"finish": [1, 1]}]},
            "deal 2",
        ),
    ],
)
def test_a_bad_sheet_is_refused_with_the_engines_reason_and_nothing_changes(
    game: str, sheet: dict[str, Any], reason: str
) -> None:
    table = offline_table(game)
    with (
        pytest.raises(ApplicationError, match=reason),
        transaction.atomic(),
        translation.override("en"),  # the site's words for the engine's reason, in English
    ):
        record(table, sheet)
    assert not Match.objects.filter(table=table).exists()


@pytest.mark.parametrize("game", sorted(SHEETS))
def test_a_tampered_stored_result_is_reported(game: str) -> None:
    match = record(offline_table(game), SHEETS[game])
    deal = match.deals.get(number=1)
    Deal.objects.filter(pk=deal.pk).update(result={**deal.result, "tampered": True})
    problems = audit.matches_audit([match]).problems
    assert [(p.deal_number, p.message) for p in problems] == [(1, "the stored result differs")]


@pytest.mark.parametrize("game", sorted(SHEETS))
def test_tampered_points_figures_and_sheet_are_reported(game: str) -> None:
    match = record(offline_table(game), SHEETS[game])
    points = [p + 1 if s == 0 else p for s, p in enumerate(match.points)]
    Match.objects.filter(pk=match.pk).update(points=points)
    assert any("points" in str(p) for p in audit.matches_audit(fresh(match)).problems)
    Match.objects.filter(pk=match.pk).update(points=match.points, figures={})
    assert any("figures" in str(p) for p in audit.matches_audit(fresh(match)).problems)
    first, *rest = SHEETS[game]["deals"]
    Match.objects.filter(pk=match.pk).update(
        figures=match.figures, sheet={**SHEETS[game], "deals": rest}
    )
    assert not audit.matches_audit(fresh(match)).ok


def test_the_old_finishing_order_path_still_scores_daguai() -> None:
    table = offline_table("daguai")
    match = services.offline_match_record(
        table=table,
        first_dealer=0,
        deals=[services.OfflineDeal(finish=(0, 2, 4)), services.OfflineDeal(finish=(1, 0, 3, 5))],
        base_score=1,
        deals_per_match=3,
    )
    assert match.sheet == SHEETS["daguai"]
    assert match.points == [3, -3, 3, -3, 3, -3]
    assert audit.matches_audit([match]).ok


def test_a_match_stored_before_sheets_is_scored_from_its_deals() -> None:
    match = record(offline_table("daguai"), SHEETS["daguai"])
    Match.objects.filter(pk=match.pk).update(sheet={})
    match.refresh_from_db()
    assert audit.matches_audit([match]).ok
    Match.objects.filter(pk=match.pk).update(points=[9, 0, 0, 0, 0, 0])
    match.refresh_from_db()
    assert not audit.matches_audit([match]).ok


def verify_records() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_records", stdout=out, stderr=io.StringIO())
    except CommandError as exc:
        return exc.returncode, out.getvalue()
    return 0, out.getvalue()


def test_verify_records_scores_every_games_sheet_again() -> None:
    matches = [record(offline_table(game), SHEETS[game]) for game in sorted(SHEETS)]
    assert verify_records()[0] == 0
    tampered = matches[1]  # 上海斗地主
    deal = tampered.deals.get(number=3)
    Deal.objects.filter(pk=deal.pk).update(points=[0, 0, 0, 0])
    code, out = verify_records()
    assert code == 1 and f"match {tampered.pk} deal 3" in out
