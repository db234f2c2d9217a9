"""/metrics (config/metrics.py): who may read it, that playing moves the figures, that the text
parses, and that several processes' figures add up (issue 31, "Operators can see it")."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from config import metrics
from config.exceptions import ApplicationError
from games import tasks
from games.models import Match
from games.play import services as play_services
from tests.games.factories import UserFactory
from tests.games.play.test_apis import people_table
from tests.games.play.test_play import _human_turn, bot_table, human_table

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "s3cret-scrape-token-for-tests"


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def families(text: str) -> dict[str, Any]:
    return {family.name: family for family in text_string_to_metric_families(text)}


@pytest.fixture
def token(settings: Any) -> str:
    settings.LUZI_METRICS_TOKEN = TOKEN
    return TOKEN


# --- who may read it --------------------------------------------------------------------------


@pytest.mark.django_db
def test_anonymous_and_plain_users_are_refused(token: str) -> None:
    assert Client().get("/metrics").status_code == 403
    client = Client()
    client.force_login(UserFactory())
    assert client.get("/metrics").status_code == 403


@pytest.mark.django_db
def test_staff_reads_it_with_their_session() -> None:
    client = Client()
    client.force_login(UserFactory(is_staff=True))
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain; version=")
    assert "no-store" in answer["Cache-Control"] or "no-cache" in answer["Cache-Control"]


@pytest.mark.django_db
def test_a_scraper_reads_it_with_the_token_and_a_wrong_one_is_refused(token: str) -> None:
    assert Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200
    for wrong in (f"Bearer {token}x", "Bearer ", f"Basic {token}", token, "Bearer nope"):
        assert Client().get("/metrics", HTTP_AUTHORIZATION=wrong).status_code == 403, wrong


@pytest.mark.django_db
def test_without_a_token_set_no_token_opens_it(settings: Any) -> None:
    settings.LUZI_METRICS_TOKEN = ""
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 403
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer x").status_code == 403


@pytest.mark.django_db
def test_only_get(token: str) -> None:
    answer = Client().post("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert answer.status_code == 405


# --- the text -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_text_parses_with_every_family_and_the_live_tables(token: str) -> None:
    play_services.match_start(table=bot_table(), seed=5)
    text = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode()
    found = families(text)
    for name in (
        "luzi_actions",
        "luzi_action_seconds",
        "luzi_bot_deal_seconds",
        "luzi_push_seconds",
        "luzi_sockets_open",
        "luzi_task_seconds",
        "luzi_live_tables",
        "luzi_live_tables_readable",
        "luzi_celery_queue_readable",
        "luzi_celery_queue_messages",
    ):
        assert name in found, name
    live = {s.labels["game"]: s.value for s in found["luzi_live_tables"].samples}
    assert live == {"daguai": 1.0}
    assert [s.value for s in found["luzi_celery_queue_readable"].samples] == [1.0]
    queues = {s.labels["queue"] for s in found["luzi_celery_queue_messages"].samples}
    assert queues == {"games", "bots", "default"}


def test_an_unreachable_broker_is_unknown_never_zero(settings: Any) -> None:
    assert metrics.queue_depths("redis://127.0.0.1:1/0", timeout=0.2) is None


@pytest.mark.django_db
def test_the_embedded_broker_counts_its_messages(settings: Any, tmp_path: Path) -> None:
    from kombu.connection import Connection

    url = f"sqlite:///{tmp_path / 'broker.sqlite3'}"
    with Connection(url) as conn:
        queue = conn.SimpleQueue("bots")
        queue.put({"n": 1})
        queue.put({"n": 2})
        queue.close()
    depths = metrics.queue_depths(url)
    assert depths == {"games": 0, "bots": 2, "default": 0}


# --- playing moves the figures ---------------------------------------------------------------


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """Run a service and the callbacks its commit runs (the figures are taken on commit)."""

    def run(service: Callable[..., Any], **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return run


@pytest.mark.django_db
def test_a_persons_action_moves_the_counter_and_the_histogram(committed: Any) -> None:
    table = human_table(human_seat=2)
    play_services.match_start(table=table, seed=3)
    match, deal = _human_turn(table, 2)
    seq = match.deals.get(number=match.current_deal).seq
    labels = {"game": "daguai", "kind": "person"}
    before = sample("luzi_actions_total", **labels), sample("luzi_action_seconds_count", **labels)
    with pytest.raises(ApplicationError):  # a refused action is not counted
        committed(play_services.seat_act, table=table, seat=2, kind="dance", seq=seq)
    assert sample("luzi_actions_total", **labels) == before[0]
    legal = deal.legal_actions(2)[0]
    cards = " ".join(map(str, legal.cards))
    committed(
        play_services.seat_act, table=table, seat=2, kind=legal.kind.value, cards=cards, seq=seq
    )
    assert sample("luzi_actions_total", **labels) == before[0] + 1
    assert sample("luzi_action_seconds_count", **labels) == before[1] + 1
    assert sample("luzi_action_seconds_sum", **labels) > 0


@pytest.mark.django_db
def test_bots_and_timers_count_as_their_own_kinds(committed: Any) -> None:
    table = human_table(human_seat=0)
    match = play_services.match_start(table=table, seed=1)
    bot = {"game": "daguai", "kind": "bot"}
    timer = {"game": "daguai", "kind": "timer"}
    bots_before, timers_before = (
        sample("luzi_actions_total", **bot),
        sample("luzi_actions_total", **timer),
    )
    acted = 0
    for _ in range(40):  # bots until it is the person's turn, then the person's time runs out
        match.refresh_from_db()
        deal_row = match.deals.get(number=match.current_deal)
        from games.play import engine_state

        state = engine_state.engine_match(match, deal_row).deal
        assert state is not None
        seat = state.awaiting()[0]
        if seat == 0:
            assert committed(
                play_services.seat_timeout,
                match_id=match.pk,
                number=match.current_deal,
                seq=deal_row.seq,
                seat=0,
            )
            break
        assert committed(
            play_services.bot_act,
            match_id=match.pk,
            number=match.current_deal,
            seq=deal_row.seq,
            seat=seat,
        )
        acted += 1
    assert sample("luzi_actions_total", **bot) == bots_before + acted
    assert sample("luzi_action_seconds_count", **bot) >= acted
    assert sample("luzi_actions_total", **timer) == timers_before + 1
    # a stale timer does nothing and counts nothing
    assert not committed(
        play_services.seat_timeout, match_id=match.pk, number=match.current_deal, seq=0, seat=0
    )
    assert sample("luzi_actions_total", **timer) == timers_before + 1


@pytest.mark.django_db
def test_a_whole_bot_deal_counts_its_actions_and_its_time(committed: Any) -> None:
    match = play_services.match_start(table=bot_table(), seed=7)
    labels = {"game": "daguai", "kind": "bot_deal"}
    before = sample("luzi_actions_total", **labels)
    deals = sample("luzi_bot_deal_seconds_count", game="daguai")
    assert committed(play_services.bot_deal_play, match_id=match.pk, number=1)
    seq = Match.objects.get(pk=match.pk).deals.get(number=1).seq
    assert sample("luzi_actions_total", **labels) == before + seq > before
    assert sample("luzi_bot_deal_seconds_count", game="daguai") == deals + 1


def test_a_tasks_run_is_timed_by_name_and_state() -> None:
    labels = {"task": "games.ping", "state": "SUCCESS"}
    before = sample("luzi_task_seconds_count", **labels)
    assert tasks.ping.apply().get() == "pong"
    assert sample("luzi_task_seconds_count", **labels) == before + 1


@pytest.mark.django_db(transaction=True)
def test_a_socket_counts_open_and_its_push_is_timed() -> None:
    from games.play import state as play_state
    from tests.games.live.test_realtime import drive_bots_once, next_state, socket
    from tests.games.play.test_apis import _first_legal

    def move(table: Any) -> None:
        """A bot's move, else the person's."""
        if not drive_bots_once(table):
            body = _first_legal(play_state.table_state(table=table, seat=0))
            play_services.seat_act(
                table=table, seat=0, kind=body["action"], cards=body["cards"], seq=body["seq"]
            )

    table, _users = people_table((0,))
    play_services.match_start(table=table, seed=20261129, deals_per_match=1)
    open_before = sample("luzi_sockets_open")
    pushes_before = sample("luzi_push_seconds_count")

    async def run() -> None:
        comm = socket(table)
        connected, _code = await comm.connect()
        assert connected
        await next_state(comm)
        assert sample("luzi_sockets_open") == open_before + 1
        await database_sync_to_async(move)(table)
        await next_state(comm, timeout=2.0)
        assert sample("luzi_push_seconds_count") == pushes_before + 1
        await comm.disconnect(timeout=10)

    async_to_sync(run)()
    assert sample("luzi_sockets_open") == open_before


# --- several processes ---------------------------------------------------------------------------


def _child(folder: Path, code: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    program = f"from config import metrics\n{code}"
    return subprocess.Popen(
        [sys.executable, "-c", program], cwd=ROOT, env=env, stdout=subprocess.PIPE
    )


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "prometheus"
    path.mkdir()
    yield path


def test_several_processes_add_up_and_a_dead_ones_sockets_are_gone(folder: Path) -> None:
    finished = _child(
        folder,
        "metrics._action_observe('daguai', 'person', 0.0)\n"
        "metrics.socket_opened(); metrics.socket_opened()\n",
    )
    assert finished.wait(60) == 0  # gone, its two sockets with it (it never said so)
    running = _child(
        folder,
        "import time\n"
        "metrics._action_observe('daguai', 'person', 0.0)\n"
        "metrics.socket_opened(); print('ready', flush=True)\n"
        "time.sleep(60)\n",
    )
    try:
        assert running.stdout is not None
        assert running.stdout.readline().strip() == b"ready"
        found = {m.name: m for m in metrics._SharedFiles(str(folder)).collect()}
        actions = {
            (s.labels["game"], s.labels["kind"]): s.value for s in found["luzi_actions"].samples
        }
        assert actions == {("daguai", "person"): 2.0}
        assert [s.value for s in found["luzi_sockets_open"].samples] == [1.0]
    finally:
        running.kill()
        running.wait(10)


def test_a_folder_that_is_not_there_stops_start_up(tmp_path: Path) -> None:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "missing")}
    done = subprocess.run(
        [sys.executable, "-c", "import config.metrics"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert b"PROMETHEUS_MULTIPROC_DIR" in done.stderr and b"is not a folder" in done.stderr


def test_a_workers_own_endpoint_wants_the_token(token: str) -> None:
    import urllib.error
    import urllib.request

    server = metrics.serve_worker(0, "127.0.0.1")
    base = f"http://127.0.0.1:{server.server_port}"

    def get(path: str, authorization: str = "") -> tuple[int, bytes]:
        request = urllib.request.Request(base + path)
        if authorization:
            request.add_header("Authorization", authorization)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, b""

    try:
        status, body = get("/metrics", f"Bearer {token}")
        assert status == 200
        found = families(body.decode())
        assert "luzi_actions" in found and "luzi_task_seconds" in found
        assert "luzi_live_tables" not in found  # read at scrape time by the web's /metrics only
        assert get("/metrics")[0] == 403
        assert get("/metrics", "Bearer wrong")[0] == 403
        assert get("/other", f"Bearer {token}")[0] == 404
    finally:
        server.shutdown()
        server.server_close()
