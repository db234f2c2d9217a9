"""The embedded Celery broker: a kombu transport on a SQLite file (``sqlite:///var/broker.sqlite3``).

A fresh clone has no Redis, so the web process, the worker and beat exchange messages through a
SQLite file of their own (not the site's database). Every operation is one SQLite statement, so a
message is either wholly in the queue or not at all, whatever process dies when:

- publishing is one ``INSERT`` (a reader never sees half a message, unlike kombu's filesystem
  transport, which creates a message file and only then writes it);
- taking a message reads the oldest row of the queue and claims it with ``DELETE ... WHERE id =``:
  only the consumer whose ``DELETE`` removed the row delivers it, so two workers never run the
  same message and none is dropped by a race.

The file is in WAL mode (readers never wait for the writer) and every connection waits up to
``timeout`` seconds for the write lock instead of failing. Polling an empty queue only reads.

A message taken by a worker that is then killed is gone, as with the filesystem transport before:
the games watchdog (Celery beat) queues the work of a stalled match again, and every task is
idempotent. Fanout exchanges (``celery inspect``, remote control) are not carried across
processes; use Redis for those.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from queue import Empty
from typing import Any
from urllib.parse import unquote, urlsplit

from kombu.transport import TRANSPORT_ALIASES, virtual

#: How long a statement waits for another process's write to finish before it fails.
DEFAULT_TIMEOUT = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS luzi_message (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    queue TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS luzi_message_queue_id ON luzi_message (queue, id);
"""

# Connections opened by a parent process and inherited through fork() are never used nor closed
# in the child (SQLite forbids carrying a connection across fork); kept here, never collected.
_INHERITED: list[sqlite3.Connection] = []


def broker_path(url: str, *, base_dir: Path | None = None) -> Path:
    """Return the file named by ``sqlite:///relative/path`` or ``sqlite:////absolute/path``;
    a relative path is taken from the project folder.

    >>> broker_path("sqlite:////tmp/broker.sqlite3")
    PosixPath('/tmp/broker.sqlite3')
    """
    parts = urlsplit(url)
    if parts.scheme != "sqlite" or parts.netloc:
        raise ValueError(f"{url!r} is not a sqlite:///path URL")
    name = unquote(parts.path)[1:]
    if not name or name == ":memory:":
        raise ValueError(f"{url!r}: the embedded broker needs a file path")
    path = Path(name)
    if not path.is_absolute():
        path = (base_dir or Path(__file__).resolve().parent.parent) / path
    return path


def connect(path: Path, *, timeout: float = DEFAULT_TIMEOUT) -> sqlite3.Connection:
    """Open the broker file (creating it and its folder), in WAL mode, in autocommit."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")  # durable across a killed process; WAL keeps it fast
    db.executescript(_SCHEMA)
    return db


class Channel(virtual.Channel):
    """A channel whose queues are rows of one SQLite table."""

    _db: sqlite3.Connection | None = None
    _pid: int = 0

    def __init__(self, connection: Any, **kwargs: Any) -> None:
        options = connection.client.transport_options
        self._path = broker_path(connection.client.hostname)
        self._timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
        self._lock = threading.Lock()
        super().__init__(connection, **kwargs)
        self.db  # noqa: B018  (opens the file now: a broker that cannot be reached says so at once)

    @property
    def db(self) -> sqlite3.Connection:
        """This process's connection (a new one after fork)."""
        if self._db is not None and self._pid != os.getpid():
            _INHERITED.append(self._db)
            self._db = None
        if self._db is None:
            self._db = connect(self._path, timeout=self._timeout)
            self._pid = os.getpid()
        return self._db

    def _put(self, queue: str, message: dict[str, Any], **kwargs: Any) -> None:
        with self._lock:
            self.db.execute(
                "INSERT INTO luzi_message (queue, payload) VALUES (?, ?)",
                (queue, json.dumps(message)),
            )

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:
        with self._lock:
            db = self.db
            while True:
                row = db.execute(
                    "SELECT id, payload FROM luzi_message WHERE queue = ? ORDER BY id LIMIT 1",
                    (queue,),
                ).fetchone()
                if row is None:
                    raise Empty()
                # The one statement that claims it: another consumer may have taken it first.
                if db.execute("DELETE FROM luzi_message WHERE id = ?", (row[0],)).rowcount == 1:
                    return json.loads(row[1])

    def _size(self, queue: str) -> int:
        with self._lock:
            row = self.db.execute(
                "SELECT count(*) FROM luzi_message WHERE queue = ?", (queue,)
            ).fetchone()
        return int(row[0])

    def _purge(self, queue: str) -> int:
        with self._lock:
            return self.db.execute("DELETE FROM luzi_message WHERE queue = ?", (queue,)).rowcount

    def _delete(self, queue: str, *args: Any, **kwargs: Any) -> None:
        self._purge(queue)

    def close(self) -> None:
        super().close()
        with self._lock:
            if self._db is not None and self._pid == os.getpid():
                self._db.close()
            self._db = None


class Transport(virtual.Transport):
    """kombu transport ``sqlite://``: the embedded broker (see the module's docstring)."""

    Channel = Channel
    can_parse_url = True  # the whole URL reaches the channel, which reads the path from it
    default_port = 0  # type: ignore[assignment]  # kombu types it None
    driver_type = "sqlite"
    driver_name = "sqlite3"
    connection_errors = (*virtual.Transport.connection_errors, sqlite3.OperationalError)  # type: ignore[assignment]
    channel_errors = (*virtual.Transport.channel_errors, sqlite3.DatabaseError)  # type: ignore[assignment]

    def driver_version(self) -> str:
        return sqlite3.sqlite_version


def register() -> None:
    """Make ``sqlite://`` broker URLs reach this transport (idempotent)."""
    TRANSPORT_ALIASES.setdefault("sqlite", "config.broker:Transport")
