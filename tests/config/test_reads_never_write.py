"""No GET request writes to the database (issue 28, "Reads never write").

Every URL pattern of the site and the API (found by walking Django's resolver, as the fuzz test
does) is requested with GET, with the real ids of populated events, as an anonymous visitor, a
player and an organizer: a team event of 大怪路子 with a finished round played online by bots,
a running round with a result waiting and a knockout stage started; a duplicate event of every
game with online tables, some finished and some still playing, and one whose first round is
confirmed and not started. Every SQL statement of every GET is
captured; any INSERT, UPDATE or DELETE fails the test, the session's own included (``force_login``
writes the session before the walk; a GET must not touch it again). Each GET is rolled back
after it, so every URL meets the same rows (one GET's writes would hide the next one's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client

from games.models import Table, TableSeat
from games.play.services import match_start
from tests.config.test_fuzz import World, fill, url_patterns
from tests.games.factories import BotFactory, PlayerFactory, UserFactory
from tests.tournaments.duplicate.test_duplicate import duplicate_event, play_all, play_deal, start
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import staff as events_staff
from tournaments.knockout.services import knockout_break, knockout_confirm, knockout_start
from tournaments.models import KnockoutMatch, KnockoutStage
from tournaments.results import table_sheet
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import clock as rounds_clock
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


def _team_event(organizer: Any, second: Any) -> dict[str, str]:
    """大怪路子, offline: a finished round, a knockout stage started, a result waiting."""
    event = EventFactory(table_mode=Table.Mode.OFFLINE, deals_per_match=1)
    teams = [TeamFactory(event=event, unit=UnitFactory(), name=f"队{i}") for i in range(4)]
    events_staff.event_organizer_add(event=event, user=organizer)
    events_staff.event_organizer_add(event=event, user=second)
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=organizer)
    rounds_services.round_start(round=round_, user=organizer)
    for pairing in round_.pairings.all():
        sub = result_submit(
            pairing=pairing, user=organizer, first_dealer=0, deals=[{"finish": [0, 2, 4]}]
        )
        result_confirm(submission=sub, user=second)
    stage = knockout_break(event=event, size=4, places_played=4, final_deals=1, user=organizer)
    knockout_confirm(stage=stage, user=organizer)
    knockout_start(stage=stage, user=organizer)
    stage = KnockoutStage.objects.get(event=event)
    match = KnockoutMatch.objects.filter(stage=stage).exclude(pairing=None).first()
    assert match is not None
    submission = result_submit(
        pairing=match.pairing, user=organizer, first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )  # waiting for a second organizer's confirmation
    # the table's players' score page (issue 30) shows a deal entered there, waiting
    table_sheet.deal_enter(
        access=table_sheet.sheet_access(match.pairing, organizer),
        number=1,
        deal={"finish": [0, 2, 4]},
        first_dealer=0,
    )
    return {
        "event": str(event.pk),
        "meet": str(event.meet_id),
        "slug": event.meet.slug,
        "round": str(round_.pk),
        "number": str(round_.number),
        "pairing": str(match.pairing.pk),
        "submission": str(submission.pk),
        "team": str(teams[0].pk),
        "player": str(teams[0].players.order_by("pk").first().pk),
        "table": str(match.pairing.table_id or round_.pairings.first().table_id),
        "match": match.key,
    }


def _duplicate_event(game: str, organizer: Any, *, started: bool = True) -> dict[str, str]:
    """A duplicate event of ``game``, online, bots: one table finished, the others mid-match (or
    its first round confirmed and not started)."""
    event, round_, _users = duplicate_event(game, 3, deals=2)
    events_staff.event_organizer_add(event=event, user=organizer)
    matches = start(round_) if started else []
    if started:
        play_all(matches[:1])
        play_deal(matches[1])
        # the round's clock runs (its JSON, the table, projector and player pages read it);
        # 小路子's is paused
        rounds_clock.clock_start(round=round_, user=None, minutes=40)
        if game == "xiaoluzi":
            rounds_clock.clock_pause(round=round_, user=None)
    pairing = round_.pairings.order_by("number").first()
    return {
        "event": str(event.pk),
        "meet": str(event.meet_id),
        "slug": event.meet.slug,
        "round": str(round_.pk),
        "number": str(round_.number),
        "pairing": str(pairing.pk),
        "submission": "1",
        "team": str(event.teams.order_by("pk").first().pk) if event.teams.exists() else "1",
        "player": str(pairing.table.seats.first().player_id) if started else "1",
        "table": str(pairing.table_id),
        "match": "1",
    }


@pytest.fixture
def worlds() -> list[World]:
    organizer, second = UserFactory(), UserFactory()
    player_user = UserFactory()
    table = Table.objects.create(name="线上桌")
    for seat in range(6):
        person = PlayerFactory(user=player_user) if seat == 0 else BotFactory()
        TableSeat.objects.create(table=table, seat=seat, player=person)
    match_start(table=table, seed=7)
    users = {"anonymous": None, "player": player_user, "organizer": organizer}
    sets = [_team_event(organizer, second)]
    sets += [_duplicate_event(g, organizer) for g in ("daguai", "xiaoluzi", "shanghai_doudizhu")]
    sets.append(_duplicate_event("xiaoluzi", organizer, started=False))
    return [World(ids=ids | {"content_type": "1"}, users=users) for ids in sets]


def capture_writes() -> tuple[list[str], Callable[..., Any]]:
    writes: list[str] = []

    def wrapper(
        execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        if WRITE.match(sql):
            writes.append(sql[:160])
        return execute(sql, params, many, context)

    return writes, wrapper


def get_routes() -> Iterator[str]:
    for route, _pattern in url_patterns():
        if route.startswith("admin/"):
            continue  # the admin is Django's own; its GETs are reads too, walked by test_fuzz
        yield route


@pytest.mark.parametrize("who", ["anonymous", "player", "organizer"])
def test_no_get_request_writes_to_the_database(worlds: list[World], who: str) -> None:
    found: dict[str, set[str]] = {}
    count = 0
    for world in worlds:
        client = Client(raise_request_exception=False)
        if world.users[who] is not None:
            client.force_login(world.users[who])
        for route in get_routes():
            url = fill(route, world)
            if "<" in url or "(?P" in url:
                continue
            writes, wrapper = capture_writes()
            # each GET starts from the same rows: what one GET wrote is rolled back
            with transaction.atomic():
                with connection.execute_wrapper(wrapper):
                    client.get(url)
                transaction.set_rollback(True)
            count += 1
            for sql in writes:
                table = re.search(r'(?:INTO|UPDATE|FROM)\s+"?(\w+)"?', sql, re.IGNORECASE)
                found.setdefault(route, set()).add(
                    f"{sql.split()[0].upper()} {table.group(1) if table else sql[:40]}"
                )
    assert count > 100, count
    report = [f"GET /{r}: {', '.join(sorted(w))}" for r, w in sorted(found.items())]
    assert not found, "\n".join(report)


def test_the_metrics_endpoint_never_writes(settings: Any) -> None:
    """/metrics is walked above as everyone else (403); read here as staff and with the token,
    with a match being played (the live tables' count, the broker's queue lengths)."""
    settings.LUZI_METRICS_TOKEN = "scrape-token"
    table = Table.objects.create(name="线上桌")
    for seat in range(6):
        TableSeat.objects.create(table=table, seat=seat, player=BotFactory())
    match_start(table=table, seed=7)
    assert "metrics" in set(get_routes())
    staff = Client()
    staff.force_login(UserFactory(is_staff=True))
    scraper = Client(HTTP_AUTHORIZATION="Bearer scrape-token")
    for client in (staff, scraper):
        writes, wrapper = capture_writes()
        with connection.execute_wrapper(wrapper):
            answer = client.get("/metrics")
        assert answer.status_code == 200
        assert b'luzi_live_tables{game="daguai"} 1.0' in answer.content
        assert writes == []
