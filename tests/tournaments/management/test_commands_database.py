"""Every management command of Luzi meets a database that is missing or not set up with a
sentence and exit status 2, never a traceback; output cut off by its reader ends quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[3]

COMMANDS = [
    ["verify_records"],
    ["simulate_event", "--teams", "4", "--rounds", "1"],
    ["run_round", "1", "1"],
    ["import_players", "1", "players.csv"],
    ["load_demo"],
    ["demo_play"],
    ["simulate_hall", "--tables", "1"],
]


def manage(
    *args: str, database: str, stdout: int | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": database}
    environ.pop("CELERY_BROKER_URL", None)
    return subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), *args],
        env=environ,
        cwd=BASE_DIR,
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_database_not_set_up_is_told_in_a_sentence(args: list[str], tmp_path: Path) -> None:
    result = manage(*args, database=f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    assert result.returncode == 2, result.stderr
    assert "make migrate" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_database_out_of_reach_is_told_in_a_sentence() -> None:
    result = manage("verify_records", database="postgres://postgres@127.0.0.1:1/luzi")
    assert result.returncode == 2, result.stderr
    assert "DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_output_cut_off_by_its_reader_ends_quietly(tmp_path: Path) -> None:
    """``manage.py verify_records --json | head -c 0``: status 1, nothing on stderr."""
    database = f"sqlite:///{tmp_path / 'luzi.sqlite3'}"
    migrated = manage("migrate", "--verbosity", "0", database=database)
    assert migrated.returncode == 0, migrated.stderr
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write to the pipe now fails (EPIPE)
    try:
        result = manage("verify_records", "--json", database=database, stdout=write_end)
    finally:
        os.close(write_end)
    assert result.returncode == 1
    assert result.stderr == ""
