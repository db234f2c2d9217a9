"""Typed configuration read from the environment (twelve-factor).

Every setting that differs between a laptop, CI and production comes from an environment variable,
parsed here once into a frozen dataclass. A bad value raises ``ImproperlyConfigured`` naming the
variable, so a misconfigured deployment stops at start-up with a message instead of failing later.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

#: Used only when SECRET_KEY is unset; a deploy check refuses it when DEBUG is off.
DEV_SECRET_KEY = "django-insecure-luzi-development-key-do-not-use-in-production"

DEFAULT_DATABASE_URL = f"sqlite:///{VAR_DIR / 'luzi.sqlite3'}"


def default_broker_url(folder: str = "") -> str:
    """Return the embedded broker's URL (config/broker.py): ``broker.sqlite3`` in ``folder``
    (LUZI_BROKER_DIR; relative to the project), else in var/.

    >>> default_broker_url("/tmp/luzi")
    'sqlite:////tmp/luzi/broker.sqlite3'
    """
    directory = BASE_DIR / folder if folder else VAR_DIR  # an absolute folder stays as it is
    return f"sqlite:///{directory / 'broker.sqlite3'}"


#: The embedded broker, a SQLite file of its own beside the database: no server, safe across
#: processes (config/broker.py).
DEFAULT_BROKER_URL = default_broker_url()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}

_POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql", "psql"}
_SQLITE_SCHEMES = {"sqlite"}


def parse_bool(name: str, value: str) -> bool:
    """Return the boolean that ``value`` spells; raise ImproperlyConfigured naming ``name``
    otherwise."""
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean; use one of: true, false, 1, 0, yes, no, on, off."
    )


def parse_int(
    name: str, value: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """Return ``value`` as an int; raise ImproperlyConfigured naming ``name`` otherwise."""
    try:
        number = int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at least {minimum}.")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at most {maximum}.")
    return number


def parse_list(value: str) -> list[str]:
    """Return the comma-separated items of ``value``, stripped, without empty ones."""
    return [item.strip() for item in value.split(",") if item.strip()]


def _test_name(name: str) -> str:
    # One test database file per test process: two test runs side by side (two checkouts, or two
    # people's runs on one machine) must never share, and so corrupt, one SQLite file. Worker
    # processes that tests start are given this name explicitly (tests/workers.py).
    path = Path(name)
    return str(path.with_name(f"test_{os.getpid()}_{path.name}"))


def parse_database_url(url: str, *, conn_max_age: int = 0, pool_size: int = 0) -> dict[str, Any]:
    """Return a Django DATABASES entry for ``url`` (``sqlite:///path`` or
    ``postgres://user:pw@host:port/db``).

    With ``pool_size`` a PostgreSQL database is reached through a pool of at most that many
    connections per process (psycopg_pool), shared by the process's threads; else each thread
    keeps its own connection for ``conn_max_age`` seconds. Under ASGI each request runs in a
    thread of its own, so without a pool every request would open a new connection.

    >>> parse_database_url("postgres://app:s3cret@db:5433/luzi")["PORT"]
    5433
    >>> parse_database_url("sqlite:///:memory:")["NAME"]
    ':memory:'
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    options: dict[str, Any] = dict(parse_qsl(parts.query))
    if scheme in _SQLITE_SCHEMES:
        # sqlite:///relative/path, sqlite:////absolute/path, sqlite:///:memory:
        path = unquote(parts.path)
        if parts.netloc:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r}: a SQLite URL has no host; write sqlite:///relative/path "
                "or sqlite:////absolute/path."
            )
        name = path[1:] if path.startswith("/") else path
        if not name:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: a SQLite URL needs a file path.")
        if name != ":memory:" and not Path(name).is_absolute():
            name = str(BASE_DIR / name)
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": name,
            # Web server and Celery worker share the file: wait for locks, take the write lock up
            # front, and let readers run beside a writer.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Tests run real Celery workers in other processes: the test database is a file too.
            "TEST": {"NAME": None if name == ":memory:" else _test_name(name)},
        }
    if scheme in _POSTGRES_SCHEMES:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: the URL names no database.")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: the port is not a number.") from None
        database = {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": port or "",
            "CONN_MAX_AGE": conn_max_age,
            "CONN_HEALTH_CHECKS": conn_max_age > 0,
            "OPTIONS": options,
        }
        if pool_size:
            pool = {
                "min_size": 1,
                "max_size": pool_size,
                "timeout": 10.0,  # waiting longer for a free connection is an error
                "max_idle": 300.0,
            }
            database["CONN_MAX_AGE"] = 0  # a connection goes back to the pool after each request
            database["CONN_HEALTH_CHECKS"] = True  # the pool never hands out a broken connection
            database["OPTIONS"] = {**options, "pool": pool}
        return database
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r}: unsupported scheme {scheme!r}; use postgres://... or sqlite:///..."
    )


#: PostgreSQL connections each process pools by default (DATABASE_POOL_SIZE), and at most.
DATABASE_POOL_DEFAULT = 10
DATABASE_POOL_MAX = 50


@dataclass(frozen=True, slots=True)
class Env:
    """The settings that come from the environment, parsed and checked."""

    debug: bool
    secret_key: str
    allowed_hosts: list[str]
    csrf_trusted_origins: list[str]
    database: dict[str, Any]
    database_url: str
    broker_url: str
    result_backend: str | None
    secure_ssl_redirect: bool
    secure_cookies: bool
    hsts_seconds: int
    healthz_broker_timeout: float
    log_level: str
    redis_max_connections: int
    trusted_proxy_count: int = 0

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Env:
        """Return the configuration described by ``environ`` (default: ``os.environ``)."""
        env = os.environ if environ is None else environ
        debug = parse_bool("DEBUG", env.get("DEBUG", "false"))
        database_url = env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
        conn_max_age = parse_int("CONN_MAX_AGE", env.get("CONN_MAX_AGE", "60"), minimum=0)
        # PostgreSQL connections per process (README, "PostgreSQL connections"): each web and
        # worker process holds at most this many, so processes x this stays under the server's
        # max_connections; more than DATABASE_POOL_MAX for one process is refused.
        pool_size = parse_int(
            "DATABASE_POOL_SIZE",
            env.get("DATABASE_POOL_SIZE", str(DATABASE_POOL_DEFAULT)),
            minimum=0,
            maximum=DATABASE_POOL_MAX,
        )
        timeout_text = env.get("HEALTHZ_BROKER_TIMEOUT", "1.0")
        try:
            broker_timeout = float(timeout_text)
        except ValueError:
            raise ImproperlyConfigured(
                f"HEALTHZ_BROKER_TIMEOUT={timeout_text!r} is not a number of seconds."
            ) from None
        return cls(
            debug=debug,
            secret_key=env.get("SECRET_KEY", "").strip() or DEV_SECRET_KEY,
            allowed_hosts=parse_list(env.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")),
            csrf_trusted_origins=parse_list(env.get("CSRF_TRUSTED_ORIGINS", "")),
            database=parse_database_url(
                database_url, conn_max_age=conn_max_age, pool_size=pool_size
            ),
            database_url=database_url,
            broker_url=env.get("CELERY_BROKER_URL", "").strip()
            or default_broker_url(env.get("LUZI_BROKER_DIR", "").strip()),
            result_backend=env.get("CELERY_RESULT_BACKEND", "").strip() or None,
            secure_ssl_redirect=parse_bool(
                "SECURE_SSL_REDIRECT", env.get("SECURE_SSL_REDIRECT", "false" if debug else "true")
            ),
            secure_cookies=parse_bool(
                "SECURE_COOKIES", env.get("SECURE_COOKIES", "false" if debug else "true")
            ),
            hsts_seconds=parse_int(
                "SECURE_HSTS_SECONDS",
                env.get("SECURE_HSTS_SECONDS", "0" if debug else "31536000"),
                minimum=0,
            ),
            healthz_broker_timeout=broker_timeout,
            log_level=env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            redis_max_connections=parse_int(
                "REDIS_MAX_CONNECTIONS", env.get("REDIS_MAX_CONNECTIONS", "1000"), minimum=10
            ),
            # Reverse proxies in front whose X-Forwarded-For is believed (config/auth.py);
            # 0: none, the connection's peer is the client.
            trusted_proxy_count=parse_int(
                "TRUSTED_PROXY_COUNT", env.get("TRUSTED_PROXY_COUNT", "0"), minimum=0
            ),
        )
