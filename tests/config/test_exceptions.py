"""One application error type, mapped to HTTP statuses by the DRF exception handler."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import BadRequest, SuspiciousOperation, ValidationError

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


# --- Every API error is JSON (issue 11: a 3 MB body was an HTML 400) ------------------------------


@pytest.fixture
def seated(db):
    from django.test import Client

    from tests.games.factories import TableFactory, UserFactory

    table = TableFactory()
    user = UserFactory()
    player = table.seats.get(seat=0).player
    player.user = user
    player.save()
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client, table


def test_a_body_over_the_upload_limit_is_a_json_413(seated, settings) -> None:
    client, table = seated
    body = json.dumps({"action": "play", "cards": "x" * (3 * 1024 * 1024), "seq": 0})
    assert len(body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = client.post(
        f"/api/v1/tables/{table.pk}/actions/", body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in response.json()["detail"]
    form = client.post(f"/api/v1/tables/{table.pk}/actions/", {"cards": "x" * (3 * 1024 * 1024)})
    assert form.status_code == 413 and form["Content-Type"] == "application/json"


def test_suspicious_requests_in_an_api_view_are_a_json_400() -> None:
    response = api_exception_handler(SuspiciousOperation("odd header"), {})
    assert response is not None and response.status_code == 400
    assert response.data["detail"] and "odd header" not in response.data["detail"]
    assert api_exception_handler(BadRequest("no"), {}).status_code == 400


def test_errors_under_api_are_json_and_pages_stay_pages(client, db) -> None:
    for url in ("/api/v1/tables/abc/state/", "/api/v1/nothing/", f"/api/v1/events/{2**64}/"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json" and response.json()["detail"]
    page = client.get("/events/abc/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_a_server_error_under_api_is_json(rf) -> None:
    from config.exceptions import server_error

    response = server_error(rf.get("/api/v1/events/"))
    assert response.status_code == 500 and json.loads(response.content)["detail"]
    assert server_error(rf.get("/events/")).status_code == 500
