"""Reads of the knockout stage that the rest of tournaments needs without its services: a match's
size, label and length, the bracket as its decided matches stand, and the event's final placement
(knockout places first, then the group stage's order). :mod:`tournaments.knockout.services` holds
the writes (break, seeds, confirm, start, complete)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.formats import Placement
from tournaments.knockout import bracket as plan_
from tournaments.models import Event, KnockoutMatch, KnockoutStage, Pairing, Round

__all__ = [
    "Placement",
    "event_final_placement",
    "match_label",
    "match_size",
    "pairing_deals",
    "stage_bracket",
    "stage_current_round",
    "stage_results",
]


def match_size(event: Event) -> int:
    """Entrants per knockout match: two teams, or a table of the game's seats (individual)."""
    return event.table_size if event.is_individual else 2


def match_label(lo: int, hi: int, size: int) -> str:
    """A match's name: 决赛, 半决赛, 三四名决赛, 第5–8名排位赛 ... in the page's language."""
    places = hi - lo + 1
    if lo == 1:
        if places == size:
            return _("Final")
        if places == 2 * size:
            return _("Semi-final")
        if places == 4 * size:
            return _("Quarter-final")
        return _("Round of %(count)d") % {"count": places}
    if places == size:
        if (lo, hi) == (3, 4):
            return _("Third-place match")
        return _("Match for places %(lo)d–%(hi)d") % {"lo": lo, "hi": hi}
    return _("Places %(lo)d–%(hi)d") % {"lo": lo, "hi": hi}


def stage_results(stage: KnockoutStage) -> dict[str, list[int]]:
    return {
        key: list(result)
        for key, result in stage.matches.exclude(result=[]).values_list("key", "result")
    }


def stage_bracket(stage: KnockoutStage) -> plan_.Bracket:
    """The stage's bracket as its decided matches stand."""
    return plan_.plan(
        stage.size,
        match_size(stage.event),
        min(stage.places_played, stage.size),
        stage_results(stage),
    )


def _stage_rounds(stage: KnockoutStage) -> Any:
    return (
        Round.objects.filter(
            Q(pairings__knockout_match__stage=stage) | Q(pairings__knockout_tiebreak__stage=stage)
        )
        .distinct()
        .order_by("number")
    )


def stage_current_round(stage: KnockoutStage) -> Round | None:
    """The knockout round being played (or about to be): its latest round not completed."""
    return _stage_rounds(stage).exclude(status=Round.Status.COMPLETED).last()


def table_deals(pk: int) -> int | None:
    """tournaments.formats: the deals a knockout table's match is played for (a knockout match's
    own length, its cap when played to A; one for a tie-break table); None for any other table."""
    row = (
        KnockoutMatch.objects.filter(Q(pairing_id=pk) | Q(tiebreak_id=pk))
        .values_list("pairing_id", "deals")
        .first()
    )
    if row is None:
        return None
    return int(row[1]) if row[0] == pk else 1


def pairing_deals(pairing: Pairing | int, default: int) -> int:
    """The deals a table's match is played for: a knockout match's own length, one for a
    tie-break table, else ``default`` (the event's)."""
    deals = table_deals(pairing if isinstance(pairing, int) else pairing.pk)
    return default if deals is None else deals


def _entrant_ids(stage: KnockoutStage) -> list[int]:
    field = "player_id" if stage.event.is_individual else "team_id"
    return [pk for pk in stage.entrants.order_by("seed").values_list(field, flat=True)]


def _placement(stage: KnockoutStage) -> list[Placement]:
    ids = {seed: pk for seed, pk in enumerate(_entrant_ids(stage), start=1)}
    places = stage_bracket(stage).places
    counts: dict[int, int] = defaultdict(int)
    for place, _final in places.values():
        counts[place] += 1
    rows = [
        Placement(place, ids[seed], "knockout", counts[place] > 1, final, seed)
        for seed, (place, final) in places.items()
        if seed in ids
    ]
    rows.sort(key=lambda r: (r.place, r.seed or 0))
    seeded = set(ids.values())
    rest = [(rank, pk) for rank, pk in stage.group_ranking if pk not in seeded]
    rank_counts: dict[int, int] = defaultdict(int)
    for rank, _pk in rest:
        rank_counts[rank] += 1
    place, previous = stage.size, None
    for i, (rank, pk) in enumerate(rest):
        if rank != previous:
            place = stage.size + i + 1
            previous = rank
        rows.append(Placement(place, pk, "group", rank_counts[rank] > 1, True))
    return rows


def final_placement(event: Event) -> list[Placement] | None:
    """tournaments.formats: the final placement of an event closed by a knockout stage."""
    return event_final_placement(event=event)


def event_final_placement(*, event: Event) -> list[Placement] | None:
    """The event's final placement (None: the event has no knockout stage)."""
    stage = KnockoutStage.objects.select_related("event").filter(event_id=event.pk).first()
    if stage is None:
        return None
    return _placement(stage)
