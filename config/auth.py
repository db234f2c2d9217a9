"""Password login throttling with django-axes: failed logins are counted per account and per
address (settings: AXES_*), and a locked-out login is refused even with the right password."""

from __future__ import annotations

import ipaddress
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_address(request: HttpRequest) -> str:
    """The address a request comes from, as every throttle counts it (django-axes' password
    lockout, AXES_CLIENT_IP_CALLABLE, and the login-code guess limit).

    With TRUSTED_PROXY_COUNT = 0 (the default: no proxy in front) it is REMOTE_ADDR, the peer of
    the connection, which a client cannot choose; X-Forwarded-For is ignored (the ASGI server
    must not rewrite REMOTE_ADDR from it either: uvicorn runs with --no-proxy-headers). Behind N
    reverse proxies, each of which appends the address it was reached from, it is the N-th entry
    of X-Forwarded-For from the right: the one the outermost proxy saw. Entries further left were
    sent by the client and are ignored. Without a usable entry, REMOTE_ADDR.
    """
    remote = str(request.META.get("REMOTE_ADDR") or "")
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if count > 0:
        forwarded = [
            hop.strip() for hop in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")
        ]
        forwarded = [hop for hop in forwarded if hop]
        if forwarded:
            candidate = forwarded[-count] if len(forwarded) >= count else forwarded[0]
            try:
                return str(ipaddress.ip_address(candidate))
            except ValueError:
                pass  # not an address: a misconfigured proxy; fall back to the peer
    return remote


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
