"""One application error type, mapped to HTTP by one DRF exception handler.

Services raise ``ApplicationError`` (or a subclass) with a message meant for the user; the API
answers with that message and the status the subclass names. Anything else is a programming error
and stays a 500.

Everything under ``/api/`` answers in JSON, errors included: a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413) or another request Django finds suspicious (400) inside a
DRF view, and, through the ``handler*`` views that config/urls.py installs, a URL that matches no
pattern (404), a refusal outside DRF (403) and a server error (500).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApplicationError(Exception):
    """A user error: bad input or a request the current state refuses (HTTP 400)."""

    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, message: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}


class NotAllowedError(ApplicationError):
    """The user may not do this (HTTP 403)."""

    status_code = status.HTTP_403_FORBIDDEN


class ConflictError(ApplicationError):
    """The state moved on since the client looked (a stale sequence number, HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Return a JSON response ``{"detail": message, ...}`` for user errors; None (a 500) for
    bugs."""
    if isinstance(exc, ApplicationError):
        return Response({"detail": exc.message, **exc.extra}, status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        return Response({"detail": exc.messages}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):
        _log_suspicious(exc)
        return Response({"detail": _too_big()}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, SuspiciousOperation | BadRequest):
        if isinstance(exc, SuspiciousOperation):
            _log_suspicious(exc)
        return Response({"detail": _bad_request()}, status=status.HTTP_400_BAD_REQUEST)
    return exception_handler(exc, context)


def _log_suspicious(exc: Exception) -> None:
    """Log as Django does for a SuspiciousOperation it answers itself."""
    logging.getLogger(f"django.security.{exc.__class__.__name__}").error(str(exc))


def _too_big() -> str:
    return _("The request body is larger than %(size)d bytes.") % {
        "size": settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    }


def _bad_request() -> str:
    return _("The request could not be understood.")


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400: JSON under /api/, else the site's page."""
    if _is_api(request):
        detail = _too_big() if isinstance(exception, RequestDataTooBig) else _bad_request()
        status_code = 413 if isinstance(exception, RequestDataTooBig) else 400
        return JsonResponse({"detail": detail}, status=status_code)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403: JSON under /api/, else the site's page."""
    if _is_api(request):
        return JsonResponse({"detail": _("You may not do this.")}, status=403)
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: JSON under /api/, else the site's page."""
    if _is_api(request):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON under /api/, else the site's page."""
    if _is_api(request):
        # as templates/500.html: in both languages, without translating in a broken state
        detail = (
            "出了点问题，已记录。请稍后再试。 "
            "Something went wrong and was logged; please try again later."
        )
        return JsonResponse({"detail": detail}, status=500)
    return defaults.server_error(request)
