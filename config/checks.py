"""System checks that `manage.py check --deploy` adds to Django's own."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register


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
