"""The knockout stage's pages, API and CSV: the public bracket (phone and projector), the
organizer's knockout page (break, seeds, confirm, start, complete, a match's length), and the
bracket's API (read for the public, writes for the event's organizers only).

Reads come from :func:`bracket_data`; writes go through tournaments.knockout.services's services, so
an ApplicationError is a message (pages) or a 4xx with its message (API), never a server error.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.auth import acting_user
from config.converters import MAX_ID
from config.exceptions import ApplicationError, NotAllowedError
from tournaments.common.api import parsed_input
from tournaments.common.exports import csv_download
from tournaments.common.organizers import event_is_organizer
from tournaments.common.qr import qr_svg
from tournaments.common.requests import organized_event, visible_event
from tournaments.knockout import services as knockout
from tournaments.models import (
    Event,
    KnockoutMatch,
    KnockoutStage,
    Membership,
    PairingTally,
    Team,
)

# --- Reading --------------------------------------------------------------------------------------


def _decided_label(how: str) -> str:
    return {
        knockout.DECIDED_PASSED_A: _("passed A (过A)"),
        knockout.DECIDED_LEVELS: _("higher level"),
        knockout.DECIDED_POINTS: _("points"),
        knockout.DECIDED_TIEBREAK: _("the tie-break deal"),
        knockout.DECIDED_LAST_FINISH: _("the earlier finisher of the last deal"),
        knockout.DECIDED_SEED: _("the better seed"),
        knockout.DECIDED_WALKOVER: _("walkover (the organizer's decision)"),
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


def _entrant_names(stage: KnockoutStage) -> dict[int, dict[str, Any]]:
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
    label = knockout.match_label(lo, hi, size)
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
    size = knockout.match_size(event)
    drawn = knockout.stage_bracket(stage)
    names = _entrant_names(stage)
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
        label = knockout.match_label(head.lo, head.hi, size) if head is not None else ""
        rounds.append({"number": number, "label": label, "matches": matches})
    placement = knockout.event_final_placement(event=event) or []
    ids = [p.entrant for p in placement]
    if individual:
        from games.models import Player
        from tournaments.events.memberships import player_units
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


# --- Public pages ---------------------------------------------------------------------------------


def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket: entrants, results as they come, the winner's path, the final placement."""
    event = visible_event(request, pk)
    data = bracket_data(event)
    projector = request.GET.get("projector") == "1"
    url = request.build_absolute_uri(reverse("tournaments:bracket", args=[event.pk]))
    return render(
        request,
        "tournaments/bracket_projector.html" if projector else "tournaments/bracket.html",
        {
            "event": event,
            "data": data,
            "is_organizer": event_is_organizer(event=event, user=request.user),
            "refresh_seconds": 20 if projector else 30,
            "qr": qr_svg(url, scale=4) if projector else "",
            "short_url": url.split("://", 1)[-1],
        },
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


def bracket_download(request: HttpRequest, pk: int) -> HttpResponse:
    kind = request.GET.get("kind", "matches")
    return bracket_csv(
        visible_event(request, pk), "placement" if kind == "placement" else "matches"
    )


# --- The organizer's page -------------------------------------------------------------------------


def _candidates(event: Event) -> list[tuple[int, str]]:
    """Who may be seeded by hand, in the group stage's order when there is one."""
    eligible = knockout.eligible_entrants(event)
    names = knockout.entrant_names(event, sorted(eligible))
    stage = KnockoutStage.objects.filter(event=event).first()
    order = [pk for _rank, pk in stage.group_ranking] if stage is not None else []
    ranked = [pk for pk in order if pk in eligible]
    ranked += sorted(pk for pk in eligible if pk not in set(order))
    return [(pk, names.get(pk, str(pk))) for pk in ranked]


@login_required
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    event = organized_event(request, pk)
    data = bracket_data(event)
    stage = KnockoutStage.objects.filter(event=event).first()
    current = knockout.stage_current_round(stage) if stage is not None else None
    unstarted = (
        KnockoutMatch.objects.filter(stage=stage, pairing__table__matches__isnull=True)
        .select_related("pairing")
        .order_by("bracket_round", "key")
        if stage is not None
        else []
    )
    size = knockout.match_size(event)
    names = _entrant_names(stage) if stage is not None else {}
    # each match by the name the bracket gives it (半决赛 1, 半决赛 2), never by its key
    bracket_matches = [
        match
        for bracket_round in (data or {}).get("rounds", [])
        for match in bracket_round["matches"]
    ]
    match_names = {match["key"]: match["name"] for match in bracket_matches}
    who = {match["key"]: [e["name"] for e in match["entrants"]] for match in bracket_matches}
    return render(
        request,
        "tournaments/manage/knockout.html",
        {
            "event": event,
            "stage": stage,
            "data": data,
            "current": current,
            "sizes": knockout.stage_sizes(event),
            "candidates": _candidates(event),
            "seeds": [e["id"] for e in data["entrants"]] if data else [],
            "unstarted": [
                (
                    m,
                    match_names.get(m.key) or knockout.match_label(m.lo, m.hi, size),
                    length_text(m),
                    [(seed, names.get(seed, {}).get("name", seed)) for seed in m.entrants],
                    who.get(m.key, []),
                )
                for m in unstarted
                if not m.result
            ],
            "to_a_allowed": knockout.plays_to_a(event.game),
            "is_organizer": True,
        },
    )


def _int(value: str | None) -> int | None:
    if value is not None and value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_ID:
        return int(value)
    return None


def _form_int(request: HttpRequest, name: str, label: str) -> int:
    value = _int(request.POST.get(name))
    if value is None:
        raise ApplicationError(_("%(field)s: a whole number, 1 or more.") % {"field": label})
    return value


@login_required
@require_POST
def manage_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    event = organized_event(request, pk)
    user = acting_user(request)
    stage = KnockoutStage.objects.filter(event=event).first()
    back = redirect("tournaments:knockout_manage", event.pk)
    done = {
        "break": _("The top entrants are seeded: check the seeds, then confirm."),
        "seeds": _("Seeds saved."),
        "replace": _("The next one in the group stage's order takes the seed."),
        "cancel": _("The break is withdrawn: the group stage goes on."),
        "confirm": _("Confirmed: the first knockout round's tables are seated."),
        "start": _("Started."),
        "complete": _("Completed."),
        "length": _("The match's length is saved."),
        "walkover": _("The match is awarded."),
    }
    if action not in done:
        raise Http404
    try:
        if action == "break":
            knockout.knockout_break(
                event=event,
                user=user,
                size=_form_int(request, "size", _("Entrants")),
                places_played=_form_int(request, "places_played", _("Places played for")),
                deals_per_match=_form_int(request, "deals_per_match", _("Deals per match")),
                final_deals=_form_int(request, "final_deals", _("Deals in the final")),
                to_a=request.POST.get("to_a") == "1",
            )
        elif stage is None:
            raise ApplicationError(_("Break the top entrants first."))
        elif action == "seeds":
            ids = [_int(request.POST.get(f"seed_{s}")) for s in range(1, stage.size + 1)]
            if any(i is None for i in ids):
                raise ApplicationError(_("Choose an entrant for every seed."))
            knockout.knockout_seeds_set(stage=stage, entrants=[i for i in ids if i], user=user)
        elif action == "replace":
            knockout.knockout_replace(
                stage=stage, seed=_form_int(request, "seed", _("Seed")), user=user
            )
        elif action == "cancel":
            knockout.knockout_cancel(stage=stage, user=user)
        elif action == "confirm":
            knockout.knockout_confirm(stage=stage, user=user)
        elif action == "start":
            knockout.knockout_start(stage=stage, user=user)
        elif action == "complete":
            stage = knockout.knockout_complete(stage=stage, user=user)
            if KnockoutMatch.objects.filter(
                stage=stage, result=[], tiebreak__isnull=False, tiebreak__round__status="running"
            ).exists():
                done["complete"] = _(
                    "A tie: one more deal is played at the tied tables; complete again when it "
                    "is in."
                )
        elif action == "walkover":
            match_id = _int(request.POST.get("match"))
            match = get_object_or_404(KnockoutMatch, pk=match_id or 0, stage=stage)
            order = [_int(v) for v in request.POST.getlist("order")]
            knockout.knockout_walkover(
                match=match,
                order=[o for o in order if o is not None],
                reason=request.POST.get("reason", "")[:300],
                user=user,
            )
        elif action == "length":
            match_id = _int(request.POST.get("match"))
            match = get_object_or_404(KnockoutMatch, pk=match_id or 0, stage=stage)
            knockout.knockout_match_length_set(
                match=match,
                deals=_form_int(request, "deals", _("Deals")),
                to_a=request.POST.get("to_a") == "1",
                user=user,
            )
    except ApplicationError as error:
        messages.error(request, error.message)
        return back
    messages.success(request, done[action])
    return back


# --- API ------------------------------------------------------------------------------------------


class BreakInput(serializers.Serializer):
    size = serializers.IntegerField()
    places_played = serializers.IntegerField(required=False, default=4)
    deals_per_match = serializers.IntegerField(required=False, min_value=1, max_value=99)
    final_deals = serializers.IntegerField(required=False, min_value=1, max_value=99)
    to_a = serializers.BooleanField(required=False, default=False)


class SeedsInput(serializers.Serializer):
    entrants = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), max_length=16
    )


class SeedInput(serializers.Serializer):
    seed = serializers.IntegerField(min_value=1, max_value=16)


class LengthInput(serializers.Serializer):
    deals = serializers.IntegerField(min_value=1, max_value=99)
    to_a = serializers.BooleanField(required=False, default=False)


BracketOutput = inline_serializer(
    "Bracket",
    {
        "event": serializers.IntegerField(),
        "status": serializers.CharField(),
        "size": serializers.IntegerField(),
        "rounds": serializers.ListField(child=serializers.DictField()),
        "placement": serializers.ListField(child=serializers.DictField()),
    },
)


class BracketApi(APIView):
    """GET the bracket: entrants, every match (entrants, points, result), the final placement."""

    @extend_schema(responses=BracketOutput)
    def get(self, request: Request, pk: int) -> Response:
        event = visible_event(request, pk)
        data = bracket_data(event)
        if data is None:
            raise Http404
        return Response(data)


class BracketCsvApi(APIView):
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, pk: int) -> HttpResponse:
        kind = request.query_params.get("kind", "matches")
        return bracket_csv(
            visible_event(request, pk), "placement" if kind == "placement" else "matches"
        )


class BracketActionApi(APIView):
    """POST break / seeds / replace / cancel / confirm / start / complete (organizers only)."""

    action = ""

    @extend_schema(request=None, responses=BracketOutput)
    def post(self, request: Request, pk: int) -> Response:
        event = visible_event(request, pk)
        if not request.user.is_authenticated:
            raise NotAllowedError(_("Log in as an organizer of the event to do this."))
        user = acting_user(request)
        if self.action == "break":
            data = parsed_input(BreakInput, request.data)
            knockout.knockout_break(event=event, user=user, **data)
        else:
            stage = KnockoutStage.objects.filter(event=event).first()
            if stage is None:
                if not event_is_organizer(event=event, user=user):
                    raise NotAllowedError(
                        _("Only the organizers of %(event)s may do this.") % {"event": event.name}
                    )
                raise ApplicationError(_("Break the top entrants first."))
            if self.action == "seeds":
                data = parsed_input(SeedsInput, request.data)
                knockout.knockout_seeds_set(stage=stage, entrants=data["entrants"], user=user)
            elif self.action == "replace":
                data = parsed_input(SeedInput, request.data)
                knockout.knockout_replace(stage=stage, seed=data["seed"], user=user)
            elif self.action == "cancel":
                knockout.knockout_cancel(stage=stage, user=user)
                return Response(status=204)
            elif self.action == "confirm":
                knockout.knockout_confirm(stage=stage, user=user)
            elif self.action == "start":
                knockout.knockout_start(stage=stage, user=user)
            elif self.action == "complete":
                knockout.knockout_complete(stage=stage, user=user)
        return Response(bracket_data(event))


class WalkoverInput(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=16), max_length=16
    )
    reason = serializers.CharField(max_length=300)


class BracketMatchWalkoverApi(APIView):
    """POST ``{"order": [seeds best first], "reason": "..."}``: award a match that cannot be
    played, before it begins (organizers only)."""

    @extend_schema(request=None, responses=BracketOutput)
    def post(self, request: Request, pk: int, key: str) -> Response:
        event = visible_event(request, pk)
        if not request.user.is_authenticated:
            raise NotAllowedError(_("Log in as an organizer of the event to do this."))
        match = get_object_or_404(KnockoutMatch, stage__event=event, key=key[:20])
        data = parsed_input(WalkoverInput, request.data)
        knockout.knockout_walkover(match=match, user=acting_user(request), **data)
        return Response(bracket_data(event))


class BracketMatchLengthApi(APIView):
    """POST a knockout match's length ``{"deals": 5, "to_a": false}`` before it begins."""

    @extend_schema(request=None, responses=BracketOutput)
    def post(self, request: Request, pk: int, key: str) -> Response:
        event = visible_event(request, pk)
        if not request.user.is_authenticated:
            raise NotAllowedError(_("Log in as an organizer of the event to do this."))
        match = get_object_or_404(KnockoutMatch, stage__event=event, key=key[:20])
        data = parsed_input(LengthInput, request.data)
        knockout.knockout_match_length_set(match=match, user=acting_user(request), **data)
        return Response(bracket_data(event))


__all__ = [
    "BracketActionApi",
    "BracketApi",
    "BracketCsvApi",
    "BracketMatchLengthApi",
    "BracketMatchWalkoverApi",
    "bracket",
    "bracket_data",
    "bracket_download",
    "manage",
    "manage_action",
]
