"""The knockout stage's pages: the public bracket (phone and projector) and its download, and the
organizers' knockout page (break, seeds, confirm, start, complete, walkovers). Writes go through
tournaments.knockout's services, so an ApplicationError is a message on the page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.auth import acting_user
from config.converters import MAX_ID
from config.exceptions import ApplicationError
from tournaments.common.qr import qr_svg
from tournaments.events.organizers import event_is_organizer
from tournaments.knockout import deciding as knockout_deciding
from tournaments.knockout import selectors as knockout_selectors
from tournaments.knockout import services as knockout_services
from tournaments.knockout.display import bracket_csv, bracket_data, entrant_names_shown, length_text
from tournaments.models import (
    Event,
    KnockoutMatch,
    KnockoutStage,
)
from tournaments.web.requests import organized_event, visible_event


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


def bracket_download(request: HttpRequest, pk: int) -> HttpResponse:
    kind = request.GET.get("kind", "matches")
    return bracket_csv(
        visible_event(request, pk), "placement" if kind == "placement" else "matches"
    )


def _candidates(event: Event) -> list[tuple[int, str]]:
    """Who may be seeded by hand, in the group stage's order when there is one."""
    eligible = knockout_services.eligible_entrants(event)
    names = knockout_services.entrant_names(event, sorted(eligible))
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
    current = knockout_selectors.stage_current_round(stage) if stage is not None else None
    unstarted = (
        KnockoutMatch.objects.filter(stage=stage, pairing__table__matches__isnull=True)
        .select_related("pairing")
        .order_by("bracket_round", "key")
        if stage is not None
        else []
    )
    size = knockout_selectors.match_size(event)
    names = entrant_names_shown(stage) if stage is not None else {}
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
            "sizes": knockout_services.stage_sizes(event),
            "candidates": _candidates(event),
            "seeds": [e["id"] for e in data["entrants"]] if data else [],
            "unstarted": [
                (
                    m,
                    match_names.get(m.key) or knockout_selectors.match_label(m.lo, m.hi, size),
                    length_text(m),
                    [(seed, names.get(seed, {}).get("name", seed)) for seed in m.entrants],
                    who.get(m.key, []),
                )
                for m in unstarted
                if not m.result
            ],
            "to_a_allowed": knockout_services.plays_to_a(event.game),
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
            knockout_services.knockout_break(
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
            knockout_services.knockout_seeds_set(
                stage=stage, entrants=[i for i in ids if i], user=user
            )
        elif action == "replace":
            knockout_services.knockout_replace(
                stage=stage, seed=_form_int(request, "seed", _("Seed")), user=user
            )
        elif action == "cancel":
            knockout_services.knockout_cancel(stage=stage, user=user)
        elif action == "confirm":
            knockout_services.knockout_confirm(stage=stage, user=user)
        elif action == "start":
            knockout_services.knockout_start(stage=stage, user=user)
        elif action == "complete":
            stage = knockout_deciding.knockout_complete(stage=stage, user=user)
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
            knockout_services.knockout_walkover(
                match=match,
                order=[o for o in order if o is not None],
                reason=request.POST.get("reason", "")[:300],
                user=user,
            )
        elif action == "length":
            match_id = _int(request.POST.get("match"))
            match = get_object_or_404(KnockoutMatch, pk=match_id or 0, stage=stage)
            knockout_services.knockout_match_length_set(
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
