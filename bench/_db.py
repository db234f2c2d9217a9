"""What the benchmarks share: their PostgreSQL database, made when it is missing."""

from __future__ import annotations

import os


def ensure_database() -> None:
    """Create the PostgreSQL database of DATABASE_URL if it does not exist yet."""
    url = os.environ["DATABASE_URL"]
    if not url.startswith("postgres"):
        return
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
