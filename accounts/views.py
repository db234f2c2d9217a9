"""Players log in (password or one-time code) and see their page; organizers issue codes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import selectors, services
from accounts.forms import CodeForm
from config.exceptions import ApplicationError
from tournaments.models import Team


def _client(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR", ""))


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("accounts:me")


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
                messages.success(request, _("Welcome, %(name)s.") % {"name": user.get_username()})
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
            "current_table": selectors.user_current_table(user=user),
            "tables": selectors.user_tables(user=user)[:10],
            "teams": selectors.organizer_teams(user=user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def team_codes(request: HttpRequest, team_id: int) -> HttpResponse:
    """An organizer issues one-time login codes to a team's players (POST), shown only once."""
    team = get_object_or_404(Team.objects.select_related("event"), pk=team_id)
    if not services.can_issue_codes(user=request.user, team=team):
        raise PermissionDenied(_("Only an organizer of this event can issue login codes."))
    issued: list[services.IssuedCode] = []
    if request.method == "POST":
        issued = services.team_login_codes_issue(team=team, issued_by=request.user)
    link = request.build_absolute_uri(reverse("accounts:code_login"))
    rows = [{"issued": i, "link": f"{link}?code={i.code}"} for i in issued]
    response = render(request, "accounts/team_codes.html", {"team": team, "rows": rows})
    response["Cache-Control"] = "no-store"  # the codes are shown once
    return response
