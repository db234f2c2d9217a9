"""One application error type, mapped to HTTP by one DRF exception handler.

Services raise ``ApplicationError`` (or a subclass) with a message meant for the user; the API
answers with that message and the status the subclass names. Anything else is a programming error
and stays a 500.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApplicationError(Exception):
    """A user error: bad input or a request the current state refuses (HTTP 400)."""

    status_code = status.HTTP_400_BAD_REQUEST

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
    return exception_handler(exc, context)
