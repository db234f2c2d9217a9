"""PostgreSQL connections are bounded (issue 31, README "PostgreSQL connections"): each process
pools at most DATABASE_POOL_SIZE of them, read from the environment and itself bounded, and the
processes of docker-compose.yml times that stays under PostgreSQL's max_connections."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from config.env import BASE_DIR, DATABASE_POOL_DEFAULT, DATABASE_POOL_MAX, Env

POSTGRES = "postgres://luzi:secret@db:5432/luzi"
#: PostgreSQL's defaults: max_connections, and superuser_reserved_connections within it.
POSTGRES_MAX_CONNECTIONS = 100
POSTGRES_RESERVED = 3


def pool_of(environ: dict[str, str]) -> dict[str, float]:
    return dict(Env.from_environ({"DATABASE_URL": POSTGRES, **environ}).database["OPTIONS"]["pool"])


def compose_processes() -> dict[str, int]:
    """The processes of docker-compose.yml that may each hold a pool of their own."""
    compose = (BASE_DIR / "docker-compose.yml").read_text()

    def number(pattern: str) -> int:
        found = re.search(pattern, compose)
        assert found, pattern
        return int(found.group(1))

    return {
        "web (uvicorn --workers)": number(r"--workers \$\$\{WEB_CONCURRENCY:-(\d+)\}"),
        "worker children (--concurrency)": number(r"celery -A config worker .*--concurrency (\d+)"),
        "worker's main process": 1,
        "beat": 1,
        "a management command (migrate, shell, a benchmark)": 1,
    }


def test_the_pool_is_read_from_the_environment_and_bounded() -> None:
    default = pool_of({})
    assert default["max_size"] == DATABASE_POOL_DEFAULT and default["min_size"] == 1
    assert 0 < default["timeout"] <= 30  # waiting for a free connection ends, in an error
    assert pool_of({"DATABASE_POOL_SIZE": "4"})["max_size"] == 4
    assert pool_of({"DATABASE_POOL_SIZE": str(DATABASE_POOL_MAX)})["max_size"] == DATABASE_POOL_MAX
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_SIZE='51' must be at most 50"):
        pool_of({"DATABASE_POOL_SIZE": str(DATABASE_POOL_MAX + 1)})


def test_the_compose_deployment_stays_under_postgres_max_connections() -> None:
    processes = compose_processes()
    assert (
        processes["web (uvicorn --workers)"] >= 1 and processes["worker children (--concurrency)"]
    )
    needed = sum(processes.values()) * DATABASE_POOL_DEFAULT  # 7 x 10 with the defaults
    assert needed <= POSTGRES_MAX_CONNECTIONS - POSTGRES_RESERVED


@pytest.mark.django_db
def test_the_pools_fit_the_postgres_server_the_tests_run_on() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs a PostgreSQL server to read its max_connections "
            "(CI runs it; the embedded SQLite has none)"
        )
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_connections")
        server_max = int(cursor.fetchone()[0])
        cursor.execute("SHOW superuser_reserved_connections")
        reserved = int(cursor.fetchone()[0])
    pool = connection.settings_dict["OPTIONS"].get("pool")
    per_process = pool["max_size"] if pool else 1
    assert sum(compose_processes().values()) * per_process <= server_max - reserved
