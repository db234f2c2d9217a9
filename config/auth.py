"""Password login throttling with django-axes: failed logins are counted per account and per
address (settings: AXES_*), and a locked-out login is refused even with the right password."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class LoginThrottleBackend(AxesStandaloneBackend):
    """axes' lockout check, first of AUTHENTICATION_BACKENDS: it refuses every login from a
    locked-out account or address; the next backend checks the password.

    A call without a request (a shell, a management command, a test's ``authenticate()``) comes
    from no address and serves no request: it is left to the next backend instead of raising.
    Every web login (``/accounts/login/``, ``/admin/login/``) passes its request.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username=username, password=password, **kwargs)
        return None


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The page a locked-out login gets (429), in the visitor's language."""
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    return render(
        request,
        "accounts/locked_out.html",
        {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes},
        status=429,
    )


def acting_user(request: HttpRequest) -> User:
    """The logged-in user of a request behind ``login_required`` (typed for services that record
    who acted). An anonymous request here is refused; the decorator sends it to login first."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Log in first.")
    return user
