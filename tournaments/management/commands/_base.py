"""What every Luzi management command shares: a database that cannot be reached or is not set up
is told in a sentence (exit status 2), never with a traceback; output cut off by its reader
(``manage.py verify_records --json | head``) ends the command quietly with status 1."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import gettext as _

from engine.cli import stdout_closed_by_reader


def _unapplied_migrations() -> int | None:
    """How many migrations the database lacks (None when that cannot be read either)."""
    try:
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    except DatabaseError:
        return None


def _explained(exc: DatabaseError) -> CommandError | None:
    """The sentence for a database error that comes from the set-up, not from the command: the
    database out of reach, or its tables not made yet. None for any other error."""
    if connections[DEFAULT_DB_ALIAS].connection is None:  # it never connected
        lines = str(exc).strip().splitlines()
        return CommandError(
            _("Cannot reach the database (%(error)s): is DATABASE_URL right, and is it running?")
            % {"error": lines[0] if lines else type(exc).__name__},
            returncode=2,
        )
    unapplied = _unapplied_migrations()
    if unapplied:
        return CommandError(
            _(
                "The database is not set up (%(count)d migrations not applied): run "
                "`make migrate` (or `.venv/bin/python manage.py migrate`) first."
            )
            % {"count": unapplied},
            returncode=2,
        )
    return None


class LuziCommand(BaseCommand):
    """A management command of Luzi (see the module). Arguments are checked first, as ever; a
    database error is then explained when the set-up caused it, and raised as it is otherwise
    (a bug, whose traceback is the report)."""

    def execute(self, *args: Any, **options: Any) -> Any:
        try:
            return super().execute(*args, **options)
        except DatabaseError as exc:
            explained = _explained(exc)
            if explained is None:
                raise
            raise explained from None

    def run_from_argv(self, argv: list[str]) -> None:
        try:
            super().run_from_argv(argv)
            sys.stdout.flush()  # inside the try: a closed pipe shows at the last write
        except BrokenPipeError:
            sys.exit(stdout_closed_by_reader())
