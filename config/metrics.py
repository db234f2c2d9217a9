"""The figures an operator scrapes from ``/metrics`` (Prometheus text format, prometheus_client).

Measured where it happens (the apps call the small functions below; this module imports none of
them at import time):

- ``luzi_actions_total{game, kind}``: the seat actions applied and committed; ``kind`` is
  ``person`` (games.play.services.seat_act), ``bot`` (bot_act, a bot's turn at a table with
  people), ``timer`` (seat_timeout: the system, or the bots under autoplay, acting for a seat
  whose time ran out) or ``bot_deal`` (the actions of whole all-bot deals, bot_deal_play, counted
  when their deal is committed). ``rate(luzi_actions_total[1m])`` is actions per second.
- ``luzi_action_seconds{game, kind}``: one action's time, person, bot and timer alike: from the
  service's call (locking the match, catching the engine up, applying, writing) until its
  transaction committed and what follows it was handed over (the next task queued, the push
  handed to the channel layer). Only committed actions are observed; a refused one is not.
- ``luzi_bot_deal_seconds{game}``: the same for a whole all-bot deal played in one task.
- ``luzi_push_seconds``: from a change at a table (its commit, or a seat coming or going) until a
  socket was sent the new state that shows it (games/live/consumers.py). The change's moment
  travels in the channel-layer message as wall-clock time: a worker on another host counts its
  clock's skew too. A change whose state a socket had already been sent (coalesced, or the
  periodic resync came first) is not observed again.
- ``luzi_sockets_open``: open table WebSockets.
- ``luzi_task_seconds{task, state}``: a Celery task's run time in the worker (task_prerun to
  task_postrun), by task name and final state.

Read at scrape time (by the scraping process, see :func:`scrape_collector`):

- ``luzi_live_tables{game}``: matches being played at online tables (one grouped count;
  ``luzi_live_tables_readable`` is 0 when the database could not be read).
- ``luzi_celery_queue_messages{queue}``: messages waiting in the broker for the queues ``games``,
  ``bots`` and ``default`` (Redis: the lengths of their lists; the embedded SQLite broker: its rows
  per queue). ``luzi_celery_queue_readable`` is 0 when the broker could not be read, and then no
  depth is given: unknown, never 0. Not counted there, whatever the broker: messages a worker has
  taken and holds (with acks_late, prefetched ones, and every task with a countdown, such as turn
  timers and a bot's think time, which waits in the worker until it is due).

Several processes (uvicorn ``--workers``, gunicorn, Celery prefork): when the environment sets
``PROMETHEUS_MULTIPROC_DIR`` (before any process starts; an empty directory, emptied at every
start of the host's processes, one per host or container since files are named by process id),
every process writes its figures there and ``/metrics`` on any web process shows the sum over all
processes that share it: web and Celery workers alike when they run on one host. The open-sockets
gauge counts only processes still alive. Without it each process keeps its own figures and
``/metrics`` shows the answering process's alone (fine for runserver or one uvicorn process; with
several, the scrape sees whichever answered). README's "Monitoring" says more.
"""

from __future__ import annotations

import glob
import hmac
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server

from django.core.exceptions import ImproperlyConfigured
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, ThreadingWSGIServer, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

__all__ = [
    "CONTENT_TYPE_LATEST",
    "action_done",
    "bot_deal_done",
    "exposition",
    "multiprocess_dir",
    "push_done",
    "socket_closed",
    "socket_opened",
    "task_started",
    "task_finished",
]

logger = logging.getLogger(__name__)

disable_created_metrics()  # no ``*_created`` series: Prometheus has no use for them here


def multiprocess_dir() -> str:
    """The folder the processes share their figures in (PROMETHEUS_MULTIPROC_DIR), or ``""``."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()


if "PROMETHEUS_MULTIPROC_DIR" in os.environ and not os.path.isdir(multiprocess_dir()):
    # prometheus_client would write its files in the current folder, or fail at the first figure
    raise ImproperlyConfigured(
        f"PROMETHEUS_MULTIPROC_DIR={os.environ['PROMETHEUS_MULTIPROC_DIR']!r} is not a folder: "
        "create it (empty) before the processes start, or unset it (each process on its own)."
    )

#: The Celery queues whose depth is read at scrape time (settings.CELERY_TASK_QUEUES).
QUEUES = ("games", "bots", "default")

_ACTION_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
_PUSH_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_TASK_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

ACTIONS = Counter("luzi_actions", "Seat actions applied and committed.", ["game", "kind"])
ACTION_SECONDS = Histogram(
    "luzi_action_seconds",
    "One seat action's time, from the service's call to its commit and follow-ups handed over.",
    ["game", "kind"],
    buckets=_ACTION_BUCKETS,
)
BOT_DEAL_SECONDS = Histogram(
    "luzi_bot_deal_seconds",
    "A whole all-bot deal played in one task, to its commit.",
    ["game"],
    buckets=_TASK_BUCKETS,
)
PUSH_SECONDS = Histogram(
    "luzi_push_seconds",
    "From a change at a table to a socket sent the state that shows it.",
    buckets=_PUSH_BUCKETS,
)
SOCKETS = Gauge("luzi_sockets_open", "Open table WebSockets.", multiprocess_mode="livesum")
TASK_SECONDS = Histogram(
    "luzi_task_seconds",
    "A Celery task's run time in the worker (task_prerun to task_postrun).",
    ["task", "state"],
    buckets=_TASK_BUCKETS,
)


# --- measured where it happens --------------------------------------------------------------------


def action_done(game: str, kind: str, started: float) -> None:
    """Once the current transaction commits, count one action of ``kind`` at a ``game`` table
    and observe its time since ``started`` (``time.perf_counter()`` at the service's call).

    Called after everything else the action hands over on commit (games.play.locking's
    ``locked_commit``), so the time includes those. Outside a transaction: at once."""
    _on_commit(partial(_action_observe, game, kind, started))


def _action_observe(game: str, kind: str, started: float) -> None:
    ACTIONS.labels(game, kind).inc()
    ACTION_SECONDS.labels(game, kind).observe(time.perf_counter() - started)


def bot_deal_done(game: str, actions: int, started: float) -> None:
    """Once committed: ``actions`` bot actions of a whole all-bot deal, and the deal's time."""
    _on_commit(partial(_bot_deal_observe, game, actions, started))


def _bot_deal_observe(game: str, actions: int, started: float) -> None:
    if actions:
        ACTIONS.labels(game, "bot_deal").inc(actions)
    BOT_DEAL_SECONDS.labels(game).observe(time.perf_counter() - started)


def _on_commit(callback: Callable[[], None]) -> None:
    from django.db import transaction

    # robust: a failing figure never turns a committed action into an error
    transaction.on_commit(callback, robust=True)


def push_done(changed_at: float) -> None:
    """A socket was sent the state showing a change made at ``changed_at`` (``time.time()``)."""
    PUSH_SECONDS.observe(max(0.0, time.time() - changed_at))


def socket_opened() -> None:
    SOCKETS.inc()


def socket_closed() -> None:
    SOCKETS.dec()


#: The start of each task running in this process, by task id (task_prerun to task_postrun).
_TASKS_RUNNING: dict[str, float] = {}


def task_started(task_id: str | None) -> None:
    if task_id:
        _TASKS_RUNNING[task_id] = time.perf_counter()


def task_finished(task_id: str | None, name: str, state: str | None) -> None:
    started = _TASKS_RUNNING.pop(task_id, None) if task_id else None
    if started is not None:
        TASK_SECONDS.labels(name, state or "UNKNOWN").observe(time.perf_counter() - started)


# --- read at scrape time --------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, another user's
        return True
    return True


class _SharedFiles(Collector):
    """The figures of every process writing to the shared folder (prometheus_client's
    multiprocess files), leaving out the live gauges (open sockets) of processes that are gone:
    a uvicorn worker that died never says so. Reads only."""

    def __init__(self, path: str) -> None:
        self.path = path

    def collect(self) -> Iterator[Metric]:
        files = []
        for name in glob.glob(os.path.join(self.path, "*.db")):
            parts = os.path.basename(name)[:-3].split("_")  # gauge_livesum_<pid>
            live = len(parts) == 3 and parts[0] == "gauge" and parts[1].startswith("live")
            if live and parts[2].isdigit() and not _alive(int(parts[2])):
                continue
            files.append(name)
        yield from MultiProcessCollector.merge(files, accumulate=True)


class _OwnProcess(Collector):
    """This process's own figures (no shared folder)."""

    def collect(self) -> Iterator[Metric]:
        yield from REGISTRY.collect()


def live_tables() -> dict[str, int] | None:
    """Matches being played at online tables, by game (one grouped count); None when the
    database cannot be read."""
    from django.db.models import Count

    from games.models import Match, Table

    rows = (
        Match.objects.filter(status=Match.Status.PLAYING, table__mode=Table.Mode.ONLINE)
        .values_list("game")
        .annotate(count=Count("pk"))
        .order_by()
    )
    try:
        return {game: count for game, count in rows}
    except Exception:  # unknown, said as such by luzi_live_tables_readable 0
        return None


def queue_depths(url: str | None = None, *, timeout: float = 1.0) -> dict[str, int] | None:
    """Messages waiting in the broker for each of :data:`QUEUES`, or None when it cannot be read
    (unreachable, or a transport that does not tell). Declares nothing and takes nothing."""
    from django.conf import settings
    from kombu.connection import Connection
    from kombu.exceptions import ChannelError

    url = url or settings.CELERY_BROKER_URL
    options: dict[str, Any] = dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS)
    if url.startswith(("redis://", "rediss://")):
        options.update(socket_connect_timeout=timeout, socket_timeout=timeout, max_retries=0)
    depths: dict[str, int] = {}
    try:
        with Connection(url, connect_timeout=timeout, transport_options=options) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0)
            channel = conn.default_channel
            for queue in QUEUES:
                try:
                    depths[queue] = int(channel.queue_declare(queue=queue, passive=True)[1])
                except ChannelError:  # no such queue yet (Redis: an empty list is no key)
                    depths[queue] = 0
    except Exception:  # unknown, said as such by luzi_celery_queue_readable 0
        return None
    return depths


class _ScrapeTime(Collector):
    """What is read when scraped: live tables, the broker's queues."""

    def collect(self) -> Iterator[Metric]:
        counts = live_tables()
        yield _readable("luzi_live_tables_readable", "the database", counts)
        tables = GaugeMetricFamily(
            "luzi_live_tables", "Matches being played at online tables.", labels=["game"]
        )
        for game, count in sorted((counts or {}).items()):
            tables.add_metric([game], count)
        yield tables
        depths = queue_depths()
        yield _readable("luzi_celery_queue_readable", "the broker's queue lengths", depths)
        messages = GaugeMetricFamily(
            "luzi_celery_queue_messages",
            "Messages waiting in the broker, by queue (not those a worker holds).",
            labels=["queue"],
        )
        for queue, count in sorted((depths or {}).items()):
            messages.add_metric([queue], count)
        yield messages


def _readable(name: str, what: str, value: object) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, f"1 when {what} could be read now; 0: unknown, none given.")
    family.add_metric([], 0 if value is None else 1)
    return family


def scrape_collector(*, scrape_time: bool = True) -> CollectorRegistry:
    """A registry for one scrape: the processes' figures (shared folder, else this process's)
    and, with ``scrape_time``, what is read now (live tables, queues)."""
    registry = CollectorRegistry(auto_describe=False)
    path = multiprocess_dir()
    registry.register(_SharedFiles(path) if path else _OwnProcess())
    if scrape_time:
        registry.register(_ScrapeTime())
    return registry


def exposition(*, scrape_time: bool = True) -> bytes:
    """The text a scrape reads (the Prometheus text format)."""
    return generate_latest(scrape_collector(scrape_time=scrape_time))


def token_matches(authorization: str) -> bool:
    """Whether an ``Authorization`` header carries ``Bearer <LUZI_METRICS_TOKEN>`` (compared in
    constant time); never when no token is set."""
    from django.conf import settings

    token = str(getattr(settings, "LUZI_METRICS_TOKEN", "") or "")
    scheme, _, given = authorization.partition(" ")
    if not token or scheme.lower() != "bearer" or not given.strip():
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


# --- a worker's own endpoint ----------------------------------------------------------------------


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (the base's name)
        """Scrapes are not logged."""


def _worker_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """``GET /metrics`` with the token: the figures of the processes sharing this host's folder
    (a Celery worker's pool), without what is read at scrape time (the web's /metrics has it)."""
    if environ.get("PATH_INFO") != "/metrics":
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"Not found.\n"]
    if not token_matches(environ.get("HTTP_AUTHORIZATION", "")):
        start_response("403 Forbidden", [("Content-Type", "text/plain")])
        return [b"Authorization: Bearer <LUZI_METRICS_TOKEN>.\n"]
    body = exposition(scrape_time=False)
    start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST)])
    return [body]


def serve_worker(port: int, address: str = "") -> ThreadingWSGIServer:
    """Serve :func:`_worker_app` on ``port`` in a daemon thread of this process (a Celery worker's
    main process: its pool's children write to PROMETHEUS_MULTIPROC_DIR, read here)."""
    server = make_server(address, port, _worker_app, ThreadingWSGIServer, handler_class=_Quiet)
    thread = threading.Thread(target=server.serve_forever, name="luzi-metrics", daemon=True)
    thread.start()
    logger.info("metrics on :%s/metrics (folder %r)", server.server_port, multiprocess_dir())
    return server
