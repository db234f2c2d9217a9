"""The embedded broker (config/broker.py): a SQLite file that holds under concurrent producers and
consumers in several processes (issue 11: kombu's filesystem transport let a worker read a message
half-written and die)."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path
from queue import Empty

import pytest
from kombu import Connection

from config.broker import broker_path, register
from config.env import BASE_DIR, DEFAULT_BROKER_URL, Env, default_broker_url

PRODUCERS = 4
CONSUMERS = 3
PER_PRODUCER = 300


def _produce(url: str, producer: int) -> None:
    register()
    with Connection(url) as conn:
        queue = conn.SimpleQueue("soak")
        for n in range(PER_PRODUCER):
            queue.put({"producer": producer, "n": n, "pad": "x" * (n % 7) * 500})
        queue.close()


def _consume(url: str, out: Path, stop: Path) -> None:
    register()
    got: list[str] = []
    with Connection(url) as conn:
        queue = conn.SimpleQueue("soak")
        idle = 0
        while idle < 20 or not stop.exists():
            try:
                message = queue.get(timeout=0.1)
            except Empty:
                idle += 1
                continue
            idle = 0
            body = message.payload
            assert body["pad"] == "x" * (body["n"] % 7) * 500  # whole, never half-written
            got.append(f"{body['producer']}:{body['n']}")
            message.ack()
        queue.close()
    out.write_text("\n".join(got))


def test_concurrent_producers_and_consumers_lose_and_repeat_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'broker.sqlite3'}"
    stop = tmp_path / "producers-done"
    context = multiprocessing.get_context("fork")
    consumers = [
        context.Process(target=_consume, args=(url, tmp_path / f"consumer-{c}.txt", stop))
        for c in range(CONSUMERS)
    ]
    producers = [context.Process(target=_produce, args=(url, p)) for p in range(PRODUCERS)]
    for process in consumers + producers:
        process.start()
    for process in producers:
        process.join(120)
        assert process.exitcode == 0
    stop.touch()
    for process in consumers:
        process.join(120)
        assert process.exitcode == 0

    received = [
        line
        for c in range(CONSUMERS)
        for line in (tmp_path / f"consumer-{c}.txt").read_text().splitlines()
    ]
    expected = {f"{p}:{n}" for p in range(PRODUCERS) for n in range(PER_PRODUCER)}
    assert len(received) == len(expected)  # nothing delivered twice
    assert set(received) == expected  # nothing lost
    with sqlite3.connect(tmp_path / "broker.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM luzi_message").fetchone() == (0,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_messages_keep_their_order_and_queues_their_size(tmp_path: Path) -> None:
    register()
    with Connection(f"sqlite:///{tmp_path / 'b.sqlite3'}") as conn:
        first, second = conn.SimpleQueue("first"), conn.SimpleQueue("second")
        for n in range(5):
            first.put({"n": n})
        second.put({"n": "other"})
        assert first.qsize() == 5 and second.qsize() == 1
        taken = []
        for _ in range(3):
            message = first.get(timeout=1)
            taken.append(message.payload["n"])
            message.ack()
        assert taken == [0, 1, 2]
        assert first.clear() == 2  # purge
        assert first.qsize() == 0 and second.qsize() == 1
        with pytest.raises(Empty):
            first.get(timeout=0.2)
        first.close()
        second.close()


def test_a_taken_message_is_gone_for_every_other_consumer(tmp_path: Path) -> None:
    register()
    url = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    with Connection(url) as one, Connection(url) as two:
        one.SimpleQueue("q").put({"n": 1})
        assert two.SimpleQueue("q").get(timeout=1).payload == {"n": 1}
        with pytest.raises(Empty):
            one.SimpleQueue("q").get(timeout=0.3)


def test_broker_paths() -> None:
    assert broker_path("sqlite:////tmp/b.sqlite3") == Path("/tmp/b.sqlite3")
    assert broker_path("sqlite:///var/b.sqlite3") == BASE_DIR / "var" / "b.sqlite3"
    for bad in ("sqlite://host/b.sqlite3", "sqlite:///:memory:", "sqlite://", "redis://x/0"):
        with pytest.raises(ValueError, match="sqlite"):
            broker_path(bad)


def test_the_default_broker_is_the_embedded_one_beside_the_database() -> None:
    expected = f"sqlite:///{BASE_DIR / 'var' / 'broker.sqlite3'}"
    assert expected == DEFAULT_BROKER_URL
    assert Env.from_environ({}).broker_url == DEFAULT_BROKER_URL
    # `make test` gives the tests a broker of their own, so a demo worker never takes their
    # messages; a relative folder is taken from the project.
    assert Env.from_environ({"LUZI_BROKER_DIR": "var/broker-test"}).broker_url == (
        default_broker_url("var/broker-test")
    )
    assert default_broker_url("var/broker-test") == (
        f"sqlite:///{BASE_DIR / 'var' / 'broker-test' / 'broker.sqlite3'}"
    )
    # A server named in the environment wins (CI: Redis).
    redis = Env.from_environ({"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"})
    assert redis.broker_url == "redis://127.0.0.1:6379/0"


def test_settings_use_the_embedded_broker_unless_told_otherwise() -> None:
    from django.conf import settings as django_settings

    url = django_settings.CELERY_BROKER_URL
    if url.startswith("sqlite://"):
        assert django_settings.CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] == 0.1
    else:  # CI names Redis: its transport gets none of the embedded broker's options
        assert "polling_interval" not in django_settings.CELERY_BROKER_TRANSPORT_OPTIONS


def test_the_health_check_reaches_the_embedded_broker(tmp_path: Path) -> None:
    from config.health import check_broker

    assert check_broker(f"sqlite:///{tmp_path / 'b.sqlite3'}").ok
    (tmp_path / "file").write_text("")
    # A folder that cannot be made: the check reports it instead of raising.
    result = check_broker(f"sqlite:///{tmp_path / 'file' / 'b.sqlite3'}")
    assert not result.ok
