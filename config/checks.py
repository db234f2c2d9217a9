"""System checks that `manage.py check --deploy` adds to Django's own, and the start-up refusal of
the development SECRET_KEY and of a weak one."""

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

#: A SECRET_KEY shorter than this, or of fewer distinct characters, is refused outside DEBUG
#: (Django's own deploy check warns below 50 characters too).
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_DISTINCT = 10

WEAK_KEY_REFUSED = (
    "SECRET_KEY is too weak and DEBUG is off: it must be at least %(length)d characters long "
    "with at least %(distinct)d different characters (this one: %(has_length)d characters, "
    "%(has_distinct)d different). Whoever guesses it can sign sessions and login links. Set "
    "SECRET_KEY to a long random string (python -c 'import secrets; "
    "print(secrets.token_urlsafe(50))')."
)


def secret_key_weakness(key: str) -> str:
    """Why ``key`` is too weak to sign sessions with (empty if it is not): too short, too few
    distinct characters, or Django's generated "insecure" development key."""
    if (
        len(key) >= SECRET_KEY_MIN_LENGTH
        and len(set(key)) >= SECRET_KEY_MIN_DISTINCT
        and not key.startswith("django-insecure-")
    ):
        return ""
    return WEAK_KEY_REFUSED % {
        "length": SECRET_KEY_MIN_LENGTH,
        "distinct": SECRET_KEY_MIN_DISTINCT,
        "has_length": len(key),
        "has_distinct": len(set(key)),
    }


def refuse_development_secret_key() -> None:
    """Raise ImproperlyConfigured when requests would be served with DEBUG off and the built-in
    development SECRET_KEY (sessions, CSRF tokens and login links signed with a public key), or
    with a weak one (``SECRET_KEY=x``: short, or of few distinct characters).

    Called where a web server starts (config/wsgi.py, config/asgi.py: gunicorn, uvicorn, daphne,
    runserver). Commands and workers do not serve requests and are left alone, and so is a pytest
    run (PYTEST_VERSION, which pytest sets), so the tests need no configuration.
    """
    if settings.DEBUG or os.environ.get("PYTEST_VERSION"):
        return
    if settings.SECRET_KEY == settings.LUZI_DEV_SECRET_KEY:
        raise ImproperlyConfigured(DEVELOPMENT_KEY_REFUSED)
    weakness = secret_key_weakness(str(settings.SECRET_KEY))
    if weakness:
        raise ImproperlyConfigured(weakness)


@register(Tags.security, deploy=True)
def check_secret_key_is_set(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Refuse the built-in development SECRET_KEY, or a weak one, in a deployment."""
    if settings.SECRET_KEY == settings.LUZI_DEV_SECRET_KEY:
        return [
            Error(
                "SECRET_KEY is not set: the development key is in use.",
                hint="Set the SECRET_KEY environment variable to a long random string.",
                id="luzi.E001",
            )
        ]
    weakness = secret_key_weakness(str(settings.SECRET_KEY))
    if weakness:
        return [Error(weakness, id="luzi.E003")]
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
