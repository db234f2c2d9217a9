"""The bracket as its page, API and CSV show it: entrants with their names, each match's scores
and how it was decided in words, the tie rule stated, the final placement."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _

from tournaments.common.exports import csv_download
from tournaments.knockout import decided as knockout_decided
from tournaments.knockout import selectors as knockout_selectors
from tournaments.models import (
    Event,
    KnockoutMatch,
    KnockoutStage,
    Membership,
    PairingTally,
    Team,
)

CSV_HEADER = (
    "round",
    "match",
    "places",
    "table",
    "seed",
    "entrant",
    "unit",
    "points",
    "tiebreak_points",
    "position",
    "through",
    "decided_by",
)


PLACEMENT_HEADER = ("place", "id", "entrant", "unit", "stage", "seed", "tied", "final")


def _decided_label(how: str) -> str:
    return {
        knockout_decided.DECIDED_PASSED_A: _("passed A (过A)"),
        knockout_decided.DECIDED_LEVELS: _("higher level"),
        knockout_decided.DECIDED_POINTS: _("points"),
        knockout_decided.DECIDED_TIEBREAK: _("the tie-break deal"),
        knockout_decided.DECIDED_LAST_FINISH: _("the earlier finisher of the last deal"),
        knockout_decided.DECIDED_SEED: _("the better seed"),
        knockout_decided.DECIDED_WALKOVER: _("walkover (the organizer's decision)"),
    }.get(how, "")


def tie_rule_text(stage: KnockoutStage) -> str:
    """The tie rule as the bracket page states it."""
    if stage.event.is_individual:
        return _(
            "A tie after the last deal that decides who goes through or a place is broken by one "
            "more deal at the same table: the tied players are ordered by that deal's points, "
            "then by who finished earlier in it, then by seed."
        )
    return _(
        "A match tied after its last deal is extended by one more deal at the same seats: that "
        "deal's points decide, then the team whose player finished first in it, then the better "
        "seed."
    )


def length_text(match: KnockoutMatch) -> str:
    if match.to_a:
        return _("to A, at most %(count)d deals") % {"count": match.deals}
    return _("%(count)d deals") % {"count": match.deals}


def entrant_names_shown(stage: KnockoutStage) -> dict[int, dict[str, Any]]:
    """Each seed's entrant: id, name, unit (one query or two)."""
    rows = stage.entrants.select_related("team__unit", "player").order_by("seed")
    out: dict[int, dict[str, Any]] = {}
    player_units: dict[int, str] = {}
    if stage.event.is_individual:
        for player, unit in (
            Membership.objects.filter(player__in=[r.player_id for r in rows])
            .order_by("player_id", "pk")
            .values_list("player_id", "unit__name")
        ):
            player_units.setdefault(player, unit)
    for row in rows:
        if row.team is not None:
            out[row.seed] = {
                "seed": row.seed,
                "id": row.team_id,
                "name": row.team.name,
                "unit": row.team.unit.name if row.team.unit else "",
            }
        elif row.player is not None:
            out[row.seed] = {
                "seed": row.seed,
                "id": row.player_id,
                "name": row.player.name,
                "unit": player_units.get(row.player.pk, ""),
            }
    return out


def _match_name(key: str, lo: int, hi: int, size: int, counts: dict[tuple[int, int], int]) -> str:
    label = knockout_selectors.match_label(lo, hi, size)
    _round, _lo, index = key.split("-")
    round_number = int(_round)
    if counts.get((round_number, lo), 1) > 1:
        return f"{label} {index}"
    return label


def _scores(
    row: KnockoutMatch | None, individual: bool, tallies: dict[int, PairingTally]
) -> tuple[dict[int, int], dict[int, int], str]:
    """Each seed's points in the match and in its tie-break deal, and the table's state."""
    if row is None:
        return {}, {}, "waiting"

    def points_of(pairing_id: int | None) -> dict[int, int]:
        if pairing_id is None or pairing_id not in tallies:
            return {}
        tally = tallies[pairing_id]
        if not individual:
            a, b = row.entrants
            return {a: tally.points_a, b: tally.points_b}
        seats = {p.seat: p.points for p in tally.players.all()}
        return {seed: seats[seat] for seat, seed in enumerate(row.entrants) if seat in seats}

    main = points_of(row.pairing_id)
    extra = points_of(row.tiebreak_id)
    if row.result:
        state = "decided"
    elif row.tiebreak_id is not None:
        state = "tiebreak"
    else:
        tally = tallies.get(row.pairing_id)
        state = tally.status if tally is not None else "pending"
    return main, extra, state


def bracket_data(event: Event) -> dict[str, Any] | None:
    """Everything the bracket page, API and CSV show (None: the event has no knockout stage)."""
    stage = KnockoutStage.objects.select_related("event").filter(event_id=event.pk).first()
    if stage is None:
        return None
    rows = {
        m.key: m
        for m in KnockoutMatch.objects.filter(stage=stage).select_related(
            "pairing__round", "pairing__table", "tiebreak__round", "tiebreak__table"
        )
    }
    pairings = [m.pairing_id for m in rows.values()] + [
        m.tiebreak_id for m in rows.values() if m.tiebreak_id is not None
    ]
    tallies = {
        t.pairing_id: t
        for t in PairingTally.objects.filter(pairing_id__in=pairings).prefetch_related("players")
    }
    individual = event.is_individual
    size = knockout_selectors.match_size(event)
    drawn = knockout_selectors.stage_bracket(stage)
    names = entrant_names_shown(stage)
    counts: dict[tuple[int, int], int] = {}
    for planned in drawn.matches:
        counts[(planned.round, planned.lo)] = counts.get((planned.round, planned.lo), 0) + 1
    by_key = {planned.key: planned for planned in drawn.matches}
    champion = next(
        (seed for seed, (place, final) in drawn.places.items() if place == 1 and final), None
    )

    def name_of(key: str) -> str:
        planned = by_key[key]
        return _match_name(key, planned.lo, planned.hi, size, counts)

    def feed_text(kind: str, key: str) -> str:
        if kind == "W":
            text = _("top two of %(match)s") if size > 2 else _("winner of %(match)s")
        else:
            text = _("3rd and 4th of %(match)s") if size > 2 else _("loser of %(match)s")
        return text % {"match": name_of(key)}

    rounds: list[dict[str, Any]] = []
    for number in range(1, drawn.rounds + 1):
        matches = []
        for planned in drawn.round_matches(number):
            row = rows.get(planned.key)
            main, extra, state = _scores(row, individual, tallies)
            order = list(row.result) if row is not None and row.result else []
            advance = (
                order[: len(order) // 2]
                if order and planned.hi - planned.lo + 1 > len(order)
                else order[:1]
            )
            entrants = [
                {
                    **names.get(seed, {"seed": seed, "id": None, "name": "", "unit": ""}),
                    "points": main.get(seed),
                    "tiebreak_points": extra.get(seed),
                    "position": order.index(seed) + 1 if seed in order else None,
                    "through": seed in advance,
                }
                for seed in planned.entrants or ()
            ]
            matches.append(
                {
                    "key": planned.key,
                    "name": name_of(planned.key),
                    "places": [planned.lo, planned.hi],
                    "entrants": entrants,
                    "feeds": []
                    if planned.entrants is not None
                    else [feed_text(kind, key) for kind, key in planned.feeds],
                    "state": state,
                    "result": order,
                    "decided_by": row.decided_by if row is not None else "",
                    "decided_by_text": _decided_label(row.decided_by) if row is not None else "",
                    "length": length_text(row) if row is not None else "",
                    "deals": row.deals if row is not None else None,
                    "to_a": row.to_a if row is not None else stage.to_a,
                    "round": row.pairing.round.number if row is not None else None,
                    "table": row.pairing.number if row is not None else None,
                    "table_id": row.pairing.table_id if row is not None else None,
                    "mode": row.pairing.table.mode if row is not None else None,
                    "tiebreak": None
                    if row is None or row.tiebreak is None
                    else {
                        "round": row.tiebreak.round.number,
                        "table": row.tiebreak.number,
                        "table_id": row.tiebreak.table_id,
                    },
                    "champion_path": champion is not None
                    and champion in (planned.entrants or ())
                    and planned.lo == 1,
                }
            )
        head = next((m for m in drawn.round_matches(number) if m.lo == 1), None)
        label = knockout_selectors.match_label(head.lo, head.hi, size) if head is not None else ""
        rounds.append({"number": number, "label": label, "matches": matches})
    placement = knockout_selectors.event_final_placement(event=event) or []
    ids = [p.entrant for p in placement]
    if individual:
        from games.models import Player
        from tournaments.events.selectors import player_units
        from tournaments.models import Unit

        units = player_units(event)
        unit_names = dict(
            Unit.objects.filter(pk__in={u for u in units.values() if u}).values_list("pk", "name")
        )
        entrant_names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
        entrant_units = {pk: unit_names.get(units.get(pk) or 0, "") for pk in ids}
    else:
        teams = Team.objects.filter(pk__in=ids).select_related("unit")
        entrant_names = {t.pk: t.name for t in teams}
        entrant_units = {t.pk: t.unit.name if t.unit else "" for t in teams}
    return {
        "event": event.pk,
        "status": stage.status,
        "status_text": stage.get_status_display(),
        "size": stage.size,
        "places_played": stage.places_played,
        "match_size": size,
        "individual": individual,
        "deals_per_match": stage.deals_per_match,
        "final_deals": stage.final_deals,
        "to_a": stage.to_a,
        "tie_breaks": event.tie_break_labels(),
        "tie_rule": tie_rule_text(stage),
        "cut_tied": stage.note,
        "entrants": [names[s] for s in sorted(names)],
        "rounds": rounds,
        "champion": names.get(champion) if champion is not None else None,
        "complete": drawn.complete,
        "placement": [
            {
                "place": p.place,
                "id": p.entrant,
                "name": entrant_names.get(p.entrant, ""),
                "unit": entrant_units.get(p.entrant, ""),
                "stage": p.stage,
                "seed": p.seed,
                "tied": p.tied,
                "final": p.final,
            }
            for p in placement
        ],
    }


def bracket_csv(event: Event, kind: str) -> HttpResponse:
    data = bracket_data(event)
    if data is None:
        raise Http404("This event has no knockout stage.")
    if kind == "placement":
        rows = [
            [p[c if c != "entrant" else "name"] for c in PLACEMENT_HEADER]
            for p in data["placement"]
        ]
        return csv_download(f"event-{event.pk}-placement.csv", PLACEMENT_HEADER, rows)
    out: list[list[object]] = []
    for round_ in data["rounds"]:
        for match in round_["matches"]:
            for e in match["entrants"] or [{}]:
                out.append(
                    [
                        round_["number"],
                        match["name"],
                        f"{match['places'][0]}-{match['places'][1]}",
                        match["table"],
                        e.get("seed"),
                        e.get("name", ""),
                        e.get("unit", ""),
                        e.get("points"),
                        e.get("tiebreak_points"),
                        e.get("position"),
                        e.get("through", False),
                        match["decided_by"],
                    ]
                )
    return csv_download(f"event-{event.pk}-bracket.csv", CSV_HEADER, out)
