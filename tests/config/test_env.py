"""Settings come from the environment, with clear errors for bad values."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    BASE_DIR,
    DEFAULT_BROKER_URL,
    DEV_SECRET_KEY,
    Env,
    parse_bool,
    parse_database_url,
)


def test_postgres_url() -> None:
    db = parse_database_url("postgres://luzi:p%40ss@db.internal:5433/luzi?sslmode=require")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "luzi",
        "luzi",
        "p@ss",
        "db.internal",
        5433,
    )
    assert db["OPTIONS"] == {"sslmode": "require"}
    assert parse_database_url("postgresql://u@h/x", conn_max_age=60)["CONN_HEALTH_CHECKS"] is True


def test_postgres_connections_are_pooled_per_process() -> None:
    db = parse_database_url("postgres://u@h/x?sslmode=require", conn_max_age=60, pool_size=8)
    assert db["CONN_MAX_AGE"] == 0  # Django's pool takes no persistent connections
    pool = db["OPTIONS"]["pool"]
    assert (pool["min_size"], pool["max_size"]) == (1, 8)
    assert db["CONN_HEALTH_CHECKS"] is True  # the pool never hands out a broken connection
    assert db["OPTIONS"]["sslmode"] == "require"
    assert "pool" not in parse_database_url("sqlite:////tmp/x.sqlite3", pool_size=8)["OPTIONS"]
    assert Env.from_environ({"DATABASE_URL": "postgres://u@h/x"}).database["OPTIONS"]["pool"]
    unpooled = Env.from_environ({"DATABASE_URL": "postgres://u@h/x", "DATABASE_POOL_SIZE": "0"})
    assert unpooled.database["CONN_MAX_AGE"] == 60 and "pool" not in unpooled.database["OPTIONS"]


def test_sqlite_urls() -> None:
    assert parse_database_url("sqlite:////tmp/x.sqlite3")["NAME"] == "/tmp/x.sqlite3"
    assert parse_database_url("sqlite:///var/x.sqlite3")["NAME"] == str(BASE_DIR / "var/x.sqlite3")
    assert parse_database_url("sqlite:///:memory:")["NAME"] == ":memory:"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://u@h/db", "unsupported scheme"),
        ("postgres://u@h:port/db", "port is not a number"),
        ("postgres://u@h:5432/", "names no database"),
        ("sqlite://host/db", "no host"),
        ("nonsense", "unsupported scheme"),
    ],
)
def test_bad_database_urls_are_named(url: str, message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        parse_database_url(url)


def test_defaults_need_no_server() -> None:
    env = Env.from_environ({})
    assert env.debug is False
    assert env.database["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(env.database["NAME"]).parent == BASE_DIR / "var"
    assert (
        env.broker_url == DEFAULT_BROKER_URL == f"sqlite:///{BASE_DIR / 'var' / 'broker.sqlite3'}"
    )
    assert env.secret_key == DEV_SECRET_KEY
    assert env.allowed_hosts == ["localhost", "127.0.0.1", "[::1]"]
    assert env.secure_ssl_redirect is True and env.secure_cookies is True and env.hsts_seconds > 0


def test_values_from_the_environment() -> None:
    env = Env.from_environ(
        {
            "DEBUG": "yes",
            "SECRET_KEY": "k" * 60,
            "ALLOWED_HOSTS": " luzi.example.com, .example.org ,",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/luzi",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        }
    )
    assert env.debug is True and env.secure_ssl_redirect is False and env.hsts_seconds == 0
    assert env.secure_cookies is False
    assert env.allowed_hosts == ["luzi.example.com", ".example.org"]
    assert env.database["HOST"] == "127.0.0.1"
    assert env.broker_url == "redis://127.0.0.1:6379/0"


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("TRUE", True), ("off", False)])
def test_booleans(value: str, expected: bool) -> None:
    assert parse_bool("DEBUG", value) is expected


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DEBUG", "maybe"),
        ("CONN_MAX_AGE", "-1"),
        ("DATABASE_POOL_SIZE", "-2"),
        ("DATABASE_POOL_SIZE", "51"),
        ("SECURE_HSTS_SECONDS", "soon"),
        ("SECURE_COOKIES", "perhaps"),
        ("REDIS_MAX_CONNECTIONS", "many"),
        ("REDIS_MAX_CONNECTIONS", "5"),
    ],
)
def test_bad_values_name_their_variable(variable: str, value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=variable):
        Env.from_environ({variable: value})


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ)
    for name in (
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "REDIS_MAX_CONNECTIONS",
    ):
        environ.pop(name, None)
    environ |= {"DJANGO_SETTINGS_MODULE": "config.settings", **env}
    return subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), *args],
        env=environ,
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "luzi.example.com",
    "DATABASE_URL": "postgres://luzi:secret@db:5432/luzi",
    "CELERY_BROKER_URL": "redis://redis:6379/0",
}


def test_production_settings_pass_check_deploy() -> None:
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_refuses_the_development_defaults() -> None:
    result = run_manage("check", "--deploy", DEBUG="false")
    assert result.returncode != 0
    assert "luzi.E001" in result.stderr and "luzi.E002" in result.stderr


def test_settings_module_reads_the_environment() -> None:
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.DEBUG, s.ALLOWED_HOSTS, s.DATABASES['default']['ENGINE'], "
        "s.DATABASES['default']['NAME'], s.CELERY_BROKER_URL]))"
    )
    result = run_manage("shell", "-c", script, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [
        False,
        ["luzi.example.com"],
        "django.db.backends.postgresql",
        "luzi",
        "redis://redis:6379/0",
    ]


@pytest.mark.parametrize(("value", "expected"), [(None, 1000), ("2500", 2500)])
def test_the_redis_pools_are_sized_from_the_settings(value: str | None, expected: int) -> None:
    """Regression (issue 31): the channel layer's pool kept redis-py's 100 connections, and 200+
    sockets on one process raised MaxConnectionsError at their handshakes."""
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "from channels_redis.utils import create_pool; "
        "from django.core.cache import caches; "
        "host = s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]; "
        "cache = caches['presence']._cache._pool_options['max_connections']; "
        "print(json.dumps([s.LUZI_REDIS_MAX_CONNECTIONS, create_pool(host).max_connections, "
        "cache]))"
    )
    env = dict(PRODUCTION) | ({} if value is None else {"REDIS_MAX_CONNECTIONS": value})
    result = run_manage("shell", "-c", script, **env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [expected] * 3


def test_a_bad_setting_stops_manage_py_with_a_message() -> None:
    result = run_manage("check", DATABASE_URL="mysql://x@y/z")
    assert result.returncode == 2
    assert result.stderr.startswith(
        "Configuration error: DATABASE_URL='mysql://x@y/z': unsupported"
    )
    assert "Traceback" not in result.stderr


def test_docker_compose_defaults_start_with_warnings_only() -> None:
    # docker-compose.yml serves plain HTTP and runs `check --deploy` before migrating: it must pass.
    compose = PRODUCTION | {"SECURE_SSL_REDIRECT": "false", "SECURE_COOKIES": "false"}
    result = run_manage("check", "--deploy", **compose)
    assert result.returncode == 0, result.stderr
    assert "security.W008" in result.stderr  # the HTTPS redirect is reported as off
