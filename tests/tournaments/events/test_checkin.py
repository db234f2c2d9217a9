"""Check-in before a round (issue 30) for all three games: 大怪路子 as a team event (a team plays
when all its members are in), 小路子 and 上海斗地主 individual (an absent player gets no table).
Services, the draw with ``draw_checked_in_only``, the player's and the organizer's pages, and
who may reach them (another event's organizer or player: 403; an unknown event: 404)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from tests.config.test_reads_never_write import capture_writes
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory
from tournaments.draw import drawers
from tournaments.draw import services as draw_services
from tournaments.events import checkin
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import CheckIn, Event, RoundEntry, RoundLog
from tournaments.rounds import services as rounds_services
from tournaments.standings.totals import event_team_standings

pytestmark = pytest.mark.django_db

INDIVIDUAL = ["xiaoluzi", "shanghai_doudizhu"]
GAMES = ["daguai", *INDIVIDUAL]


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """The services' messages in English, to match them (the pages pick their own language)."""
    with translation.override("en"):
        yield


def _event(game: str, count: int, **fields: Any) -> tuple[Event, Any, list[Any]]:
    """An event of ``game`` with an organizer and ``count`` teams (daguai) or players, each
    player with a login."""
    organizer = UserFactory()
    event = EventFactory(game=game, **fields)
    events_staff.event_organizer_add(event=event, user=organizer)
    if game == "daguai":
        entrants: list[Any] = [TeamFactory(event=event) for _ in range(count)]
        for team in entrants:
            for member in team.members.all():
                member.player.user = UserFactory()
                member.player.save()
    else:
        entrants = [PlayerFactory(user=UserFactory()) for _ in range(count)]
        events_entries.registration_ensure(event=event, players=entrants)
    return event, organizer, entrants


def _players(game: str, entrant: Any) -> list[Any]:
    return [m.player for m in entrant.members.all()] if game == "daguai" else [entrant]


def _check_in_all(event: Event, game: str, entrants: list[Any]) -> None:
    for entrant in entrants:
        for player in _players(game, entrant):
            checkin.check_in(event=event, user=player.user, player=player.pk)


def _finish(round_: Any) -> None:
    """Complete a confirmed round whose tables nobody played (offline, no results)."""
    rounds_services.round_start(round=round_)
    rounds_services.round_complete(round=round_, force=True)


# Services


def test_the_draw_table_covers_every_format_of_both_kinds() -> None:
    kinds = {drawers.EventKind.TEAM, drawers.EventKind.INDIVIDUAL}
    for kind in kinds:
        for fmt in (Event.PairingFormat.SWISS, Event.PairingFormat.MANUAL, drawers.KNOCKOUT):
            assert (kind, fmt) in drawers.DRAWERS
    assert (drawers.EventKind.TEAM, Event.PairingFormat.ROUND_ROBIN) in drawers.DRAWERS
    event = EventFactory(game="xiaoluzi", pairing_format=Event.PairingFormat.ROUND_ROBIN)
    with pytest.raises(ApplicationError, match="Round robin"):
        drawers.drawer_for(event)


@pytest.mark.parametrize("game", GAMES)
def test_a_player_checks_in_only_themselves_once(game: str) -> None:
    event, organizer, entrants = _event(game, 4)
    me, other = _players(game, entrants[0])[0], _players(game, entrants[1])[0]
    row = checkin.check_in(event=event, user=me.user, player=me.pk)
    again = checkin.check_in(event=event, user=me.user, player=me.pk)
    assert row.pk == again.pk and row.round_number == 1 and row.checked_by == me.user
    with pytest.raises(NotAllowedError):
        checkin.check_in(event=event, user=me.user, player=other.pk)
    stranger = PlayerFactory(user=UserFactory())
    with pytest.raises(ApplicationError):
        checkin.check_in(event=event, user=organizer, player=stranger.pk)
    with pytest.raises(NotAllowedError):
        checkin.check_out(event=event, user=me.user, player=me.pk)
    assert checkin.check_out(event=event, user=organizer, player=me.pk) == 1
    assert not CheckIn.objects.filter(event=event).exists()


@pytest.mark.parametrize("game", GAMES)
def test_off_the_draw_ignores_check_ins(game: str) -> None:
    event, _organizer, entrants = _event(game, 5 if game != "daguai" else 4)
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    assert not RoundEntry.objects.filter(round=round_, absent=True).exists()
    placed = RoundEntry.objects.filter(round=round_).count()
    assert placed == len(entrants)


@pytest.mark.parametrize("game", INDIVIDUAL)
def test_on_only_the_players_checked_in_are_drawn(game: str) -> None:
    event, organizer, people = _event(game, 10, draw_checked_in_only=True)
    with pytest.raises(ApplicationError, match="checked in"):
        draw_services.round_create_paired(event=event, user=organizer)
    _check_in_all(event, game, people[:8])
    round_ = draw_services.round_create_paired(event=event, user=organizer, confirm=True)
    seated = set(RoundEntry.objects.filter(round=round_).values_list("player_id", flat=True))
    assert seated == {p.pk for p in people[:8]}
    assert round_.pairings.count() == 2
    log = RoundLog.objects.get(round=round_, action=RoundLog.Action.PAIRED)
    assert "absent" in log.detail
    # Round 2: nobody is checked in until the organizer carries round 1's over.
    _finish(round_)
    assert checkin.next_round_number(event) == 2
    assert checkin.check_in_carry_over(event=event, user=organizer) == 8
    second = draw_services.round_create_paired(event=event, user=organizer)
    assert RoundEntry.objects.filter(round=second).count() == 8


def test_on_an_absent_team_gets_a_bye_of_no_points() -> None:
    event, organizer, teams = _event("daguai", 4, draw_checked_in_only=True, bye_points=2)
    _check_in_all(event, "daguai", teams[:2])
    # One member of the third team is in: the team is not.
    third = teams[2].members.first().player
    checkin.check_in(event=event, user=third.user, player=third.pk)
    # The organizer ticks the fourth team as a whole.
    checkin.check_in(event=event, user=organizer, team=teams[3].pk)
    assert checkin.present_teams(event, teams, 1) == [teams[0], teams[1], teams[3]]
    round_ = draw_services.round_create_paired(event=event, user=organizer, confirm=True)
    absent = RoundEntry.objects.get(round=round_, absent=True)
    assert absent.team == teams[2] and absent.pairing is None
    bye = RoundEntry.objects.get(round=round_, pairing=None, absent=False)
    assert bye.team in {teams[0], teams[1], teams[3]}
    _finish(round_)
    rows = {row.team: row for row in event_team_standings(event=event)}
    assert rows[teams[2].pk].points == 0
    assert rows[bye.team.pk].points == 2


@pytest.mark.parametrize("game", GAMES)
def test_carry_over_and_a_finished_event_refuse_plainly(game: str) -> None:
    event, organizer, _entrants = _event(game, 4)
    with pytest.raises(ApplicationError, match="nothing to carry over"):
        checkin.check_in_carry_over(event=event, user=organizer)
    event.status = Event.Status.FINISHED
    event.save()
    with pytest.raises(ConflictError):
        checkin.check_in(event=event, user=organizer, player=None, team=None)


# Pages and access


@pytest.mark.parametrize("game", GAMES)
def test_a_player_checks_in_on_their_page(game: str) -> None:
    event, _organizer, entrants = _event(game, 4)
    me = _players(game, entrants[0])[0]
    client = Client()
    client.force_login(me.user)
    url = reverse("tournaments:check_in", args=[event.pk])
    writes, wrapper = capture_writes()
    with connection.execute_wrapper(wrapper):
        page = client.get(url)
    assert page.status_code == 200 and b"<form" in page.content
    assert writes == [] and not CheckIn.objects.exists()
    assert client.post(url).status_code == 302
    assert CheckIn.objects.filter(event=event, player=me, round_number=1).exists()
    with connection.execute_wrapper(wrapper):
        again = client.get(url)  # the message of the POST shown, nothing written
    assert again.status_code == 200 and b'role="status"' in again.content
    assert writes == []


@pytest.mark.parametrize("game", GAMES)
def test_who_reaches_the_check_in_pages(game: str) -> None:
    event, organizer, entrants = _event(game, 4)
    other_event, other_organizer, other_entrants = _event(game, 4)
    other_player = _players(game, other_entrants[0])[0]
    mine = reverse("tournaments:check_in", args=[event.pk])
    manage = reverse("tournaments:check_in_manage", args=[event.pk])
    action = reverse("tournaments:check_in_action", args=[event.pk])
    anonymous = Client()
    assert anonymous.get(mine).status_code == 302  # to the login page
    client = Client()
    client.force_login(other_player.user)
    assert client.get(mine).status_code == 403
    assert client.post(mine).status_code == 403
    assert client.get(manage).status_code == 403
    client.force_login(other_organizer)
    assert client.get(manage).status_code == 403
    assert client.post(action, {"action": "carry"}).status_code == 403
    assert client.get(reverse("tournaments:check_in", args=[10**6])).status_code == 404
    assert client.get(reverse("tournaments:check_in_manage", args=[10**6])).status_code == 404
    assert not CheckIn.objects.exists()
    _ = other_event, organizer, entrants


@pytest.mark.parametrize("game", GAMES)
def test_the_organizer_ticks_and_unticks_on_the_list(game: str) -> None:
    event, organizer, entrants = _event(game, 4)
    client = Client()
    client.force_login(organizer)
    manage = reverse("tournaments:check_in_manage", args=[event.pk])
    action = reverse("tournaments:check_in_action", args=[event.pk])
    page = client.get(manage)
    assert page.status_code == 200
    assert b"<svg" in page.content and b"data-check-in-filter" in page.content
    assert b"check-in-counts" in page.content
    key = "team" if game == "daguai" else "player"
    target = entrants[0].pk
    assert client.post(action, {"action": "in", key: target}).status_code == 302
    assert CheckIn.objects.filter(event=event, **{key: target}).count() == 1
    assert client.post(action, {"action": "out", key: target}).status_code == 302
    assert not CheckIn.objects.filter(event=event).exists()
    # Bad input: 400 with a message, nothing written.
    assert client.post(action, {"action": "in", key: "x"}).status_code == 400
    assert client.post(action, {"action": "dance"}).status_code == 400
    assert client.post(action, {"action": "in"}).status_code == 400
    assert client.post(action, {"action": "carry"}).status_code == 400
    assert client.post(action, {"action": "in", "player": 10**6}).status_code == 400
    assert client.get(action).status_code == 405
    assert not CheckIn.objects.filter(event=event).exists()


def test_the_settings_page_turns_the_option_on() -> None:
    event, organizer, _teams = _event("daguai", 2)
    client = Client()
    client.force_login(organizer)
    url = reverse("tournaments:event_settings", args=[event.pk])
    page = client.get(url)
    assert b"draw_checked_in_only" in page.content
    data = {
        "action": "save",
        "name": event.name,
        "pairing_format": event.pairing_format,
        "base_score": event.base_score,
        "deals_per_match": event.deals_per_match,
        "draw_checked_in_only": "on",
    }
    form = page.context["form"]
    for name in form.option_field_names():
        value = form[name].value()
        if value not in (None, False):
            data[name] = value
    assert client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.draw_checked_in_only


def test_the_standings_page_says_what_an_absent_team_gets() -> None:
    event, _organizer, _teams = _event("daguai", 2, draw_checked_in_only=True)
    page = Client().get(reverse("tournaments:standings", args=[event.pk]) + "?kind=team")
    assert page.status_code == 200 and b"check-in-note" in page.content


@pytest.mark.parametrize("game", GAMES)
def test_a_manual_draw_gives_no_bye_to_those_absent(game: str) -> None:
    """A manual event: those not seated get a bye if checked in; the absent a team's 0-point
    absence, or (a player) nothing."""
    event, organizer, entrants = _event(
        game, 5, draw_checked_in_only=True, pairing_format=Event.PairingFormat.MANUAL
    )
    _check_in_all(event, game, entrants[:-1])
    round_ = draw_services.round_create_paired(event=event, user=organizer)
    assert not round_.pairings.exists()
    if game == "daguai":
        tables: list[list[int | None]] = [[entrants[0].pk, entrants[1].pk]]
    else:
        tables = [[p.pk for p in entrants[:4]]]
    draw_services.round_pairings_set(round=round_, tables=tables, user=organizer)
    entries = RoundEntry.objects.filter(round=round_, pairing=None)
    if game == "daguai":
        assert {(e.team_id, e.absent) for e in entries} == {
            (entrants[2].pk, False),
            (entrants[3].pk, False),
            (entrants[4].pk, True),
        }
    else:
        assert not entries.exists()  # the fifth player is absent: no bye, no table


def test_the_round_page_does_not_call_an_absence_a_bye() -> None:
    from tournaments.rounds.selectors import round_byes

    event, organizer, teams = _event("daguai", 3, draw_checked_in_only=True)
    _check_in_all(event, "daguai", teams[:2])
    round_ = draw_services.round_create_paired(event=event, user=organizer, confirm=True)
    assert round_byes(round=round_) == []
    assert RoundEntry.objects.get(round=round_, absent=True).team == teams[2]


def test_the_list_is_in_the_natural_order_of_names() -> None:
    """研发二队 before 研发十队, as people count, not as Unicode sorts (一 三 二 十)."""
    event = EventFactory(game="daguai")
    for name in ("研发十队", "研发三队", "研发一队", "研发二队"):
        TeamFactory(event=event, name=name)
    _count, rows = checkin.check_in_rows(event)
    assert [row.name for row in rows] == ["研发一队", "研发二队", "研发三队", "研发十队"]
