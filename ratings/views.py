"""The ratings' pages: a game's leaderboard (``/ratings/<game>/``) and a player's profile
(``/players/<id>/``), both in the scope the visitor may see."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.translation import get_language

from config.exceptions import ApplicationError
from engine.registry import get_game, registered_keys
from ratings import selectors
from ratings.apis import board_input, profile_for
from ratings.chart import history_chart
from tournaments.models import Event, Meet, Unit

PAGE_SIZE = 50


def _chinese() -> bool:
    return get_language() != "en"


def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    if game not in registered_keys():
        raise Http404("No such game.")
    query = request.GET.dict()
    page_text = query.pop("page", "1")
    if not page_text.isdigit() or not 1 <= int(page_text) <= 10**6:
        return HttpResponseBadRequest("page: a number from 1.")
    page = int(page_text)
    query = {k: v for k, v in query.items() if v != ""}
    try:
        args = board_input({**query, "game": game})
    except ApplicationError as exc:
        return HttpResponseBadRequest(exc.message)
    args.pop("game")
    args.pop("offset", None)
    args.pop("limit", None)
    scope = selectors.scope_for(request.user)
    rows, total = selectors.leaderboard(
        game=game, scope=scope, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE, **args
    )
    events = Event.objects.filter(game=game)
    if scope == "public":
        events = events.filter(is_private=False)
    meets = Meet.objects.filter(pk__in=events.values("meet_id")).order_by("-starts_on", "name")
    units = Unit.objects.order_by("name")
    if args.get("meet"):
        units = units.filter(meet_id=args["meet"])
    info = get_game(game)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "game": game,
            "game_name": info.name_zh if _chinese() else info.name_en,
            "games": [
                (k, get_game(k).name_zh if _chinese() else get_game(k).name_en)
                for k in registered_keys()
            ],
            "rows": rows,
            "total": total,
            "page": page,
            "pages": max(1, -(-total // PAGE_SIZE)),
            "meets": meets[:100],
            "units": units[:200],
            "periods": list(selectors.PERIODS),
            "chosen": args,
            "bots": args.get("bots", False),
        },
    )


def profile(request: HttpRequest, player_id: int) -> HttpResponse:
    data = profile_for(request, player_id, chinese=_chinese())
    charts = [
        (career, history_chart([value for _n, value, _at in career.history]))
        for career in data.careers
    ]
    return render(request, "ratings/profile.html", {"profile": data, "charts": charts})
