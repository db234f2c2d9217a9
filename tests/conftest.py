"""Shared pytest set-up. The engine's tests (tests/engine/) need no database and are untouched by
this."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _test_settings(settings: Any) -> None:
    # Production uses whitenoise's manifest storage, which needs `collectstatic` first; templates
    # rendered in
    # tests use plain storage instead.
    settings.SECURE_SSL_REDIRECT = False  # the test client speaks plain HTTP
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher"
    ]  # fast, tests only
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
