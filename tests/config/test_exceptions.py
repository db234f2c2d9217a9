"""One application error type, mapped to HTTP statuses by the DRF exception handler."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from config.exceptions import (
    ApplicationError,
    ConflictError,
    NotAllowedError,
    api_exception_handler,
)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (ApplicationError("bad cards: 11X"), 400),
        (NotAllowedError("not your seat"), 403),
        (ConflictError("stale seq 4", extra={"seq": 5}), 409),
    ],
)
def test_application_errors_become_json_with_their_status(
    error: ApplicationError, status: int
) -> None:
    response = api_exception_handler(error, {})
    assert response is not None
    assert response.status_code == status
    assert response.data["detail"] == error.message
    assert all(response.data[k] == v for k, v in error.extra.items())


def test_django_validation_errors_are_400() -> None:
    response = api_exception_handler(ValidationError("bad"), {})
    assert response is not None and response.status_code == 400


def test_programming_errors_are_left_to_the_500_handler() -> None:
    assert api_exception_handler(KeyError("bug"), {}) is None
