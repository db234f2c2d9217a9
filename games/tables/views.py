"""Pages of the card room: a table (for its players and spectators) and opening a practice table."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.auth import acting_user
from config.exceptions import ApplicationError
from games.models import Table
from games.play import engine_state
from games.play import state as play_state
from games.play.practice import practice_table_open
from games.play.table_ui import game_table_ui, page_words
from games.tables import selectors as tables_selectors
from games.tables.access import table_viewable
from games.tables.context import clock_page, table_context
from games.tables.limits import table_open_throttled


def _plural(singular: str, plural: str) -> dict[str, str]:
    """A count's words for the script: ``one`` (English: 1) and ``other`` (the language's
    plural; Chinese counts with a measure word and has one form)."""
    return {"one": ngettext(singular, plural, 1), "other": ngettext(singular, plural, 2)}


def table_strings(game: Any = None) -> dict[str, Any]:
    """The words the table page's script shows, in the request's language (rule terms keep
    their Chinese names). ``%(name)s`` placeholders are filled in by the script; a count's words
    come in its plural forms (``one``, ``other``). ``game``: the table's game, whose figures are
    named in the language."""
    english = not (get_language() or "").startswith("zh")
    figures = (
        {}
        if game is None
        else {spec.key: spec.label_en if english else spec.label_zh for spec in game.figure_specs}
    )
    return {
        "figureNames": figures,
        "bigJoker": "大怪",
        "smallJoker": "小怪",
        "bot": _("bot"),
        "sideA": _("Team A"),
        "sideB": _("Team B"),
        "botName": _("Bot %(number)s"),
        "dealer": _("dealer (庄)"),
        "cardsLeft": _plural("%(n)s card", "%(n)s cards"),
        "finished": _("finished #%(n)s"),
        # a seat's 托管 count: the system's plays that count and the rules' limit (an escape)
        "systemPlays": _("托管 ×%(n)s"),
        "systemPlaysOf": _("托管 %(n)s of %(limit)s"),
        "passed": _("pass"),
        "toBeat": _("to beat, played by %(name)s:"),
        "leads": _("%(name)s leads"),
        "lastTrick": _("%(name)s won the last trick"),
        "noMatch": _("No match at this table yet."),
        "dealOf": _("deal %(n)s of %(total)s"),
        "dealNumber": _("deal %(n)s"),
        # %(A)s and %(B)s: the sides' names (a team event's teams), else the letters A and B
        "matchOver": _("The match is over."),
        "matchOverCheck": _("The match is over: there is nothing more to play."),
        "matchOverConn": _("match over"),
        "finalPoints": _("Final points"),
        "dealPoints": _("Points of this deal"),
        "matchPoints": _("Points of the match so far"),
        "continue": _("Continue"),
        "continueTitle": _("Close the result and go back to the table"),
        "history": _("Deal history"),
        "historyDeal": _("Deal"),
        "historyResult": _("Result"),
        "figuresTitle": _("The match's figures"),
        "escapeBySystem": _(
            "%(name)s escaped (逃跑): the system played for them (托管) %(n)s times, the limit "
            "of the rules, so the match ends."
        ),
        "betweenDeals": _("The deal is over; the next deal is being dealt."),
        "yourTurnLead": _("Your lead: select cards and play."),
        "yourTurnFollow": _("Your turn: beat the play or pass."),
        "waitingFor": _("Waiting for %(name)s."),
        "escapeDuring": _("%(name)s escaped (逃跑): the match ends."),
        "leftBetween": _("%(name)s left between deals: the match ends."),
        "dealResult": _("Result of deal %(n)s"),
        "finishOrder": _("Finishing order:"),
        "matchWinner": _("%(side)s won the match."),
        "matchTie": _("The match is tied."),
        "endReasons": {
            "deals_played": _("all deals played"),
            "escape": _("escape (逃跑)"),
            "left": _("left between deals"),
        },
        "backToMyPage": _("Back to my page"),
        "progress": _("The match so far"),
        "secondsLeft": _("%(n)s s"),
        "serverError": _("The server could not answer. Try again."),
        "offline": _("No connection to the server."),
        "stale": _(
            "The table moved on before your action arrived: it has been refreshed, and your "
            "selection kept while you still hold its cards."
        ),
        "selectFirst": _("Select cards first."),
        "selectOne": _("Select exactly one card to return (还贡)."),
        "hintCount": _("%(n)s legal plays; tap one to select it."),
        "hintPass": _("You may also pass."),
        "hintNone": _("No play can beat this: pass."),
        "hintMore": _("… and %(n)s more."),
        "groupBySuit": _("Group by suit"),
        "groupByRank": _("Group by rank"),
        "leaveNoted": _(
            "You have left the table: unless you come back before the next deal starts, you "
            "have left between deals."
        ),
        "away": _("offline (离线)"),
        "awayTitle": _("No page of this player is open: the system plays their turns."),
        "auto": _("托管"),
        "autoTitle": _("The system played this seat's last turn (托管)."),
        "bannerOffline": _(
            "Connection lost: reconnecting… You have not left the table; meanwhile the system "
            "plays your turns when your time runs out."
        ),
        "bannerAuto": _plural(
            "托管: the system has played for you %(n)s time.",
            "托管: the system has played for you %(n)s times.",
        ),
        "bannerAutoRow": _plural(
            "托管: the system has played for you %(n)s time in a row.",
            "托管: the system has played for you %(n)s times in a row.",
        ),
        "bannerLimit": _plural(
            "%(n)s more system play is an escape (逃跑): play yourself.",
            "%(n)s more system plays are an escape (逃跑): play yourself.",
        ),
        "bannerLast": _("One more system play is an escape (逃跑): play yourself now."),
        # a game's own words come with its table description (games/play/table_ui.py)
        "score": _("Points so far"),
        "pointsOf": _("%(n)s points"),
        "chooseAny": _("Your decision."),
        "kinds": {},
        "choose": {},
        "conn": {
            "connecting": _("connecting…"),
            "live": _("live"),
            "reconnecting": _("reconnecting…"),
            "polling": _("refreshing every 2 s"),
            "offline": _("disconnected"),
        },
    }


def seat_of_request(request: HttpRequest, table: Table) -> int | None:
    """The seat of the logged-in user at ``table``, or None (spectators, organizers, anonymous)."""
    if not request.user.is_authenticated:
        return None
    return tables_selectors.table_seat_of_user(table=table, user=request.user)


def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The table: a seated player sees their own hand and acts; everyone else watches the public
    view. The page loads its state from the API and keeps it fresh over a WebSocket."""
    table = get_object_or_404(Table, pk=pk)
    seat = seat_of_request(request, table)
    if not table_viewable(table_id=table.pk, user=request.user, seated=seat is not None):
        raise Http404
    config: dict[str, Any] = {
        "table": table.pk,
        "seat": seat,
        "stateUrl": reverse("api:table_state", args=[table.pk]),
        "actionUrl": reverse("api:table_actions", args=[table.pk]),
        "checkUrl": reverse("api:table_check", args=[table.pk]),
        "leaveUrl": reverse("api:table_leave", args=[table.pk]),
        "wsPath": f"/ws/tables/{table.pk}/",
        "csrfToken": get_token(request),
        "mePath": reverse("accounts:me"),
        "state": play_state.table_state(table=table, seat=seat),
        "game": table.game,
        "seatCount": table.seat_count,
    }
    belongs = table_context(table.pk)  # the event and round of a table of a round
    config["sideNames"] = belongs.side_names if belongs is not None else {}
    game = engine_state.game_of(table)
    english = not (get_language() or "").startswith("zh")
    ui = game_table_ui(game)
    config["ui"] = {key: value for key, value in ui.items() if key != "terms"}
    context = {
        "table": table,
        "seat": seat,
        "config": config,
        "strings": page_words(table_strings(game), ui["terms"]),
        "positions": range(table.seat_count),
        "title": belongs.title if belongs is not None else table.title,
        "crumbs": belongs.links if belongs is not None else (),
        "game_name": game.name_en if english else game.name_zh,
        "clock": None
        if belongs is None
        else clock_page(
            state=belongs.clock_state,
            seconds_left=belongs.clock_seconds_left,
            url=belongs.clock_url,
            rule=belongs.clock_rule,
        ),
    }
    return render(request, "games/table.html", context)


@login_required
@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    """Open (or go back to) the user's practice table of the game chosen (form field ``game``,
    大怪路子 when absent): the user and bots of the level chosen (``level``: easy, normal or
    hard; normal when absent). An unknown game or level: 400 with a message; too many practice
    matches of other games going on: 409 naming them; too many openings lately: 429."""
    throttled = table_open_throttled(request)
    if throttled is not None:
        return throttled
    try:
        table = practice_table_open(
            user=acting_user(request),
            game=request.POST.get("game", ""),
            level=request.POST.get("level", ""),
        )
    except ApplicationError as exc:
        return refusal_text(exc)
    return redirect("games:table", pk=table.pk)


def refusal_text(exc: ApplicationError) -> HttpResponse:
    """A service's refusal for a page's form: its message as plain text, with its status."""
    return HttpResponse(
        str(exc.message), status=exc.status_code, content_type="text/plain; charset=utf-8"
    )
