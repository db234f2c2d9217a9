"""Players log in (password or one-time code) and see their page; organizers issue codes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import selectors, services
from accounts.forms import CodeForm
from config.auth import acting_user, client_address
from config.exceptions import ApplicationError
from engine.registry import registered_games
from games.play.practice import DEFAULT_PRACTICE_LEVEL, PRACTICE_LEVELS
from tournaments.models import Event, Team


def _client(request: HttpRequest) -> str:
    """The caller's address as the password throttle reads it (config.auth.client_address);
    callers without one share a single throttle."""
    return client_address(request) or "unknown"


def _organized_events(user: Any) -> QuerySet[Event]:
    """The events whose dashboard ``user`` may open (every event for a superuser), newest first."""
    if not user.is_authenticated:
        return Event.objects.none()
    events = Event.objects.select_related("meet")
    if not getattr(user, "is_superuser", False):
        events = events.filter(organizers=user)
    return events.order_by("-created_at", "-id")


def _landing(user: Any) -> str:
    """Where a login leads: the dashboard of the one event a user organizes that is not over,
    else their page (which links every dashboard of theirs)."""
    open_events = list(
        _organized_events(user)
        .exclude(status=Event.Status.FINISHED)
        .values_list("pk", flat=True)[:2]
    )
    if len(open_events) == 1:
        return reverse("tournaments:dashboard", args=[open_events[0]])
    return reverse("accounts:me")


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return _landing(request.user)


def _display_name(user: Any) -> str:
    """The player's name for a greeting, else the username."""
    player = selectors.player_of_user(user=user)
    return player.name if player is not None else user.get_username()


class LoginView(auth_views.LoginView):
    """Password login; without a ``next`` an organizer lands on their event's dashboard."""

    template_name = "accounts/login.html"

    def get_default_redirect_url(self) -> str:
        return _landing(self.request.user)


@require_http_methods(["GET", "POST"])
def code_login(request: HttpRequest) -> HttpResponse:
    """Log in with a one-time code. A link ``?code=...`` fills the form; only a POST uses it (so
    a link preview or prefetch never spends the code)."""
    if request.method == "POST":
        form = CodeForm(request.POST)
        if form.is_valid():
            try:
                user = services.login_code_redeem(
                    code=form.cleaned_data["code"], client=_client(request)
                )
            except ApplicationError as error:
                form.add_error("code", error.message)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, _("Welcome, %(name)s.") % {"name": _display_name(user)})
                return redirect(_next_url(request))
        status = 400
    else:
        form = CodeForm(initial={"code": request.GET.get("code", "")[:20]})
        status = 200
    return render(
        request,
        "accounts/code_login.html",
        {"form": form, "next": _next_url(request)},
        status=status,
    )


@login_required
def me(request: HttpRequest) -> HttpResponse:
    """The player's page: the current table, earlier tables, practice, and codes for organizers."""
    user = request.user
    return render(
        request,
        "accounts/me.html",
        {
            "player": selectors.player_of_user(user=user),
            "current_table": (current := selectors.user_current_table(user=user)),
            "current_label": selectors.table_label(current) if current else "",
            "sheet_table": (sheet := selectors.user_sheet_table(user=user)),
            "sheet_label": selectors.table_label(sheet) if sheet else "",
            "tables": [
                (table, selectors.table_label(table))
                for table in selectors.user_tables(user=user)[:10]
            ],
            "teams": selectors.organizer_teams(user=user),
            "events": _organized_events(user)[:20],
            "refereed": Event.objects.filter(referees__user=acting_user(request))
            .select_related("meet")
            .order_by("-created_at")[:20],
            "display_name": _display_name(user),
            "has_password": acting_user(request).has_usable_password(),
            "allows_codes": services.codes_allowed(acting_user(request)),
            "games": _practice_games(),
            "practice_levels": [
                (key, label, key == DEFAULT_PRACTICE_LEVEL)
                for key, (label, _kind) in PRACTICE_LEVELS.items()
            ],
        },
    )


@login_required
@require_POST
def code_consent(request: HttpRequest) -> HttpResponse:
    """The account owner allows or forbids organizers' login codes for their account."""
    allows = request.POST.get("allows_codes") == "1"
    services.code_consent_set(user=acting_user(request), allows_codes=allows)
    messages.success(
        request,
        _("Organizers' login codes now log you in.")
        if allows
        else _("Organizers' login codes no longer log you in; use your password."),
    )
    return redirect("accounts:me")


def _practice_games() -> list[tuple[str, str]]:
    """Every registered game, for the practice table's choice: (key, "name (you and N bots)")."""
    english = get_language() == "en"
    return [
        (
            game.key,
            _("%(game)s (you and %(bots)d bots)")
            % {"game": game.name_en if english else game.name_zh, "bots": game.seat_count - 1},
        )
        for game in registered_games()
    ]


@login_required
@require_http_methods(["GET", "POST"])
def team_codes(request: HttpRequest, team_id: int) -> HttpResponse:
    """An organizer issues one-time login codes to a team's players (POST), shown only once."""
    team = get_object_or_404(Team.objects.select_related("event"), pk=team_id)
    if not services.can_issue_codes(user=acting_user(request), team=team):
        raise PermissionDenied(_("Only an organizer of this event can issue login codes."))
    issued: list[services.IssuedCode] = []
    if request.method == "POST":
        issued = services.team_login_codes_issue(team=team, issued_by=acting_user(request))
    link = request.build_absolute_uri(reverse("accounts:code_login"))
    rows = [{"issued": i, "link": f"{link}?code={i.code}"} for i in issued]
    response = render(request, "accounts/team_codes.html", {"team": team, "rows": rows})
    response["Cache-Control"] = "no-store"  # the codes are shown once
    return response
