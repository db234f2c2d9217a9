"""Many WebSockets at one table on one uvicorn process (issue 31): how many handshakes open, how
many are refused and how (1013, or a 500 before the fix), and the seat's presence count while they
are open and after they are closed.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/luzi_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/6 \\
    .venv/bin/python bench/bench_sockets.py --sockets 300 --seated 50 --redis-max-connections 20

``--seated`` of the sockets are pages of the one person seated at seat 0 (the others watch);
``--redis-max-connections`` is REDIS_MAX_CONNECTIONS for the server (small: to run out);
``--app-dir`` serves another checkout (to compare with an older one). The database (its name must
hold "bench") is emptied first.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup() -> tuple[int, str]:
    """A table with one person (seat 0) and bots, its match started; the person's cookie."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from bench._db import ensure_database

    ensure_database()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    name = str(settings.DATABASES["default"]["NAME"])
    if "bench" not in name:
        sys.exit(f"the database is emptied first: name one with 'bench' in it, not {name!r}")
    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    from games.play import services
    from tests.games.play.test_apis import people_table

    table, users = people_table()
    services.match_start(table=table, seed=5)
    client = Client()
    client.force_login(users[0])
    return table.pk, f"sessionid={client.cookies['sessionid'].value}"


def count(table_id: int) -> int:
    from django.core.cache import caches

    from games.live.presence import presence_keys

    return int(caches["presence"].get(presence_keys(table_id, 0)[0]) or 0)


async def one(url: str, origin: str, cookie: str | None, outcomes: collections.Counter) -> Any:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    headers = {"Cookie": cookie} if cookie else {}
    try:
        ws = await connect(url, origin=origin, additional_headers=headers, open_timeout=30)  # type: ignore[arg-type]
    except InvalidStatus as error:
        outcomes[f"handshake {error.response.status_code}"] += 1
        return None
    except Exception as error:  # noqa: BLE001 - a measurement: count whatever happens
        outcomes[f"connect {type(error).__name__}"] += 1
        return None
    try:
        await asyncio.wait_for(ws.recv(), 30)
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else "none"
        outcomes[f"closed {code}"] += 1
        return None
    except TimeoutError:
        outcomes["no state in 30 s"] += 1
        await ws.close()
        return None
    outcomes["live (got its state)"] += 1
    return ws


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def measure(args: argparse.Namespace, table_id: int, cookie: str, port: int) -> None:
    url, origin = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", f"http://127.0.0.1:{port}"
    outcomes: collections.Counter[str] = collections.Counter()
    started = time.monotonic()
    print(f"opening {args.sockets} sockets", flush=True)
    sockets = await asyncio.gather(
        *(
            one(url, origin, cookie if n < args.seated else None, outcomes)
            for n in range(args.sockets)
        )
    )
    took = time.monotonic() - started
    live = [ws for ws in sockets if ws is not None]
    seated_live = sum(1 for n, ws in enumerate(sockets) if ws is not None and n < args.seated)
    await asyncio.sleep(1)
    open_count = await asyncio.to_thread(count, table_id)
    await asyncio.gather(*(ws.close() for ws in live))
    await asyncio.sleep(args.settle)
    closed_count = await asyncio.to_thread(count, table_id)
    print(f"{args.sockets} sockets ({args.seated} of seat 0) in {took:.1f} s:")
    for outcome, n in sorted(outcomes.items()):
        print(f"  {outcome}: {n}")
    print(f"  seat 0's count with its {seated_live} live pages open: {open_count}")
    print(f"  seat 0's count {args.settle:.0f} s after all were closed: {closed_count}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=300)
    parser.add_argument("--seated", type=int, default=50)
    parser.add_argument("--redis-max-connections", type=int, default=20)
    parser.add_argument("--settle", type=float, default=3.0)
    parser.add_argument("--app-dir", default=str(ROOT))
    args = parser.parse_args()
    if not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"):
        parser.error("set CELERY_BROKER_URL=redis://... (the channel layer must be Redis)")
    table_id, cookie = setup()
    port = free_port()
    env = dict(os.environ, DEBUG="true", REDIS_MAX_CONNECTIONS=str(args.redis_max_connections))
    with tempfile.TemporaryFile("w+") as log:  # a pipe nobody reads would block the server
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)]
            + ["--no-proxy-headers", "--log-level", "warning", "--app-dir", args.app_dir],
            cwd=args.app_dir,
            env=env,
            stderr=log,
        )
        try:
            for _ in range(100):
                with socket.socket() as s:
                    if s.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.2)
            asyncio.run(measure(args, table_id, cookie, port))
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:  # a server that does not stop (before issue 31)
                server.kill()
                server.wait()
            log.seek(0)
            lines = log.read().splitlines()
        tracebacks = sum("Traceback" in x for x in lines)
        print(f"  server log: {len(lines)} lines, {tracebacks} tracebacks")
        for line in [x for x in lines if "WARNING" in x or "ERROR" in x][:5]:
            print(f"    {line[:160]}")


if __name__ == "__main__":
    main()
