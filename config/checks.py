"""System checks that `manage.py check --deploy` adds to Django's own, and the start-up refusal of
the development SECRET_KEY."""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register
from django.core.exceptions import ImproperlyConfigured

DEVELOPMENT_KEY_REFUSED = (
    "SECRET_KEY is not set and DEBUG is off: Luzi does not serve requests with its built-in "
    "development key, which anyone can read. Set SECRET_KEY to a long random string (python -c "
    "'import secrets; print(secrets.token_urlsafe(50))'), or DEBUG=true on a laptop."
)


def refuse_development_secret_key() -> None:
    """Raise ImproperlyConfigured when requests would be served with DEBUG off and the built-in
    development SECRET_KEY (sessions, CSRF tokens and login links signed with a public key).

    Called where a web server starts (config/wsgi.py, config/asgi.py: gunicorn, uvicorn, daphne,
    runserver). Commands and workers do not serve requests and are left alone, and so is a pytest
    run (PYTEST_VERSION, which pytest sets), so the tests need no configuration.
    """
    if settings.DEBUG or settings.SECRET_KEY != settings.LUZI_DEV_SECRET_KEY:
        return
    if os.environ.get("PYTEST_VERSION"):
        return
    raise ImproperlyConfigured(DEVELOPMENT_KEY_REFUSED)


@register(Tags.security, deploy=True)
def check_secret_key_is_set(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Refuse the built-in development SECRET_KEY in a deployment."""
    if settings.SECRET_KEY == settings.LUZI_DEV_SECRET_KEY:
        return [
            Error(
                "SECRET_KEY is not set: the development key is in use.",
                hint="Set the SECRET_KEY environment variable to a long random string.",
                id="luzi.E001",
            )
        ]
    return []


@register(Tags.database, deploy=True)
def check_database_is_server(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Warn when a deployment runs on the SQLite file meant for a laptop."""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return [
            Error(
                "DATABASE_URL is not set: the SQLite development database is in use.",
                hint="Set DATABASE_URL=postgres://user:password@host:5432/luzi.",
                id="luzi.E002",
            )
        ]
    return []
