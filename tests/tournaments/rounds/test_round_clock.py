"""The round clock (issue 30, "The round clock"): an event's round length; its organizers start,
pause, resume and extend a running round's clock (the dashboard and the API; anyone else gets
403, a round not running 409); pages read the time left from a JSON; when the time is up an
online table finishes the deal in play and deals no new one (games.tables.next_deal), its match
recorded as any finished match; unfinished offline tables are flagged on the dashboard. Time is
frozen by replacing ``django.utils.timezone.now``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from games.models import Match, Table
from games.play import services as games_services
from games.tables.next_deal import next_deal_allowed
from tests.games.factories import BotFactory, UserFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.events.forms import EventSettingsForm
from tournaments.events.services import event_settings_update
from tournaments.models import Event, PairingTally, Round, RoundAction, RoundLog
from tournaments.rounds import clock as rounds_clock
from tournaments.rounds import running
from tournaments.rounds import services as rounds_services
from tournaments.rounds.log import log_detail

pytestmark = pytest.mark.django_db

GAMES = ("daguai", "xiaoluzi", "shanghai_doudizhu")
T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


class Frozen:
    """``timezone.now`` fixed at a moment the test moves on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.at = T0
        monkeypatch.setattr(timezone, "now", lambda: self.at)

    def move(self, **delta: float) -> None:
        self.at += timedelta(**delta)


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> Frozen:
    return Frozen(monkeypatch)


def event_of(
    game: str, *, minutes: int | None = 40, mode: str = "online", tables: int = 1
) -> Event:
    """An event of ``game`` with bots at ``tables`` tables, 3 deals a match, its first round
    confirmed; ``minutes`` the round length."""
    event = EventFactory(game=game, deals_per_match=3, round_minutes=minutes, table_mode=mode)
    unit = UnitFactory()
    if game == "daguai":
        for t in range(2 * tables):
            events_entries.team_create(
                event=event, name=f"队{t}", players=[BotFactory() for _ in range(3)], unit=unit
            )
    else:
        players = [BotFactory() for _ in range(4 * tables)]
        for p in players:
            events_entries.membership_ensure(player=p, unit=unit)
        events_entries.registration_ensure(event=event, players=players)
    draw_services.round_create_paired(event=event, confirm=True)
    return event


def running_round(game: str, **kwargs: Any) -> tuple[Round, list[Match]]:
    """The event's first round started, its tables played by the system's bots (no Celery: the
    tests play each deal themselves, as a worker would)."""
    event = event_of(game, **kwargs)
    round = event.rounds.get()
    running.round_tables_start(round=round, bots=True, bot_delay_ms=0)
    round.refresh_from_db()
    matches = list(Match.objects.filter(table__pairing__round=round))
    return round, matches


def deal_played(match: Match) -> int:
    """Play the match's current deal to its end; return its number."""
    match.refresh_from_db()
    number = match.current_deal
    assert games_services.bot_deal_play(match_id=match.pk, number=number)
    return number


def next_deal(match: Match, number: int) -> None:
    """What the worker's deal_start task does after deal ``number`` (a no-op when the match
    dealt on by itself)."""
    match.refresh_from_db()
    if match.status == Match.Status.PLAYING and match.current_deal == number:
        games_services.deal_start(match_id=match.pk, number=number + 1)
    match.refresh_from_db()


# --- the service ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_start_pause_resume_extend_and_the_time_left(game: str, frozen: Frozen) -> None:
    round, _matches = running_round(game)
    view = rounds_clock.clock_of(round)
    assert (view.state, view.minutes, view.seconds_left) == ("ready", 40, 2400)

    view = rounds_clock.clock_start(round=round, user=None)
    assert (view.state, view.seconds_left, view.deadline) == (
        "running",
        2400,
        T0 + timedelta(minutes=40),
    )
    frozen.move(minutes=10)
    assert rounds_clock.clock_of(round).seconds_left == 1800

    assert rounds_clock.clock_pause(round=round, user=None).state == "paused"
    frozen.move(minutes=7)  # a pause does not count
    paused = rounds_clock.clock_of(round)
    assert (paused.state, paused.seconds_left, paused.deadline) == ("paused", 1800, None)
    assert rounds_clock.clock_resume(round=round, user=None).seconds_left == 1800
    frozen.move(seconds=30.5)
    assert rounds_clock.clock_of(round).seconds_left == 1770  # whole seconds, rounded up

    view = rounds_clock.clock_extend(round=round, user=None, minutes=5)
    assert (view.minutes, view.extra_minutes) == (45, 5)
    assert view.seconds_left == 1770 + 300
    assert view.deadline == frozen.at + timedelta(seconds=2069.5)

    frozen.move(seconds=2069.5)
    assert rounds_clock.clock_of(round).state == "over"
    assert rounds_clock.clock_of(round).seconds_left == 0
    # extended after the time ran out (a minute ago): the minutes count from now
    frozen.move(minutes=1)
    assert rounds_clock.clock_extend(round=round, user=None, minutes="3").seconds_left == 180

    details = [
        log_detail(e.detail)
        for e in RoundLog.objects.filter(round=round, action=RoundAction.CLOCK).order_by("id")
    ]
    assert details == [
        "计时开始：40 分钟",
        "计时暂停",
        "计时继续",
        "加时：+5 分钟",
        "加时：+3 分钟",
    ]


@pytest.fixture
def english() -> Any:
    with translation.override("en"):
        yield


def test_what_the_clock_refuses(frozen: Frozen, english: None) -> None:
    event = event_of("daguai")
    round = event.rounds.get()
    with pytest.raises(ConflictError, match="not running"):
        rounds_clock.clock_start(round=round, user=None)  # confirmed, not started
    running.round_tables_start(round=round, bots=True, bot_delay_ms=0)
    with pytest.raises(ConflictError, match="has not been started"):
        rounds_clock.clock_pause(round=round, user=None)
    rounds_clock.clock_start(round=round, user=None)
    with pytest.raises(ConflictError, match="already been started"):
        rounds_clock.clock_start(round=round, user=None)
    with pytest.raises(ConflictError, match="not paused"):
        rounds_clock.clock_resume(round=round, user=None)
    rounds_clock.clock_pause(round=round, user=None)
    with pytest.raises(ConflictError, match="already paused"):
        rounds_clock.clock_pause(round=round, user=None)
    for bad in (0, -1, 121, "x", "", "1.5", None):
        with pytest.raises(ApplicationError, match="whole number") as raised:
            rounds_clock.clock_extend(round=round, user=None, minutes=bad)
        assert raised.value.status_code == 400
    stranger = UserFactory()
    with pytest.raises(NotAllowedError):
        rounds_clock.clock_resume(round=round, user=stranger)


def test_an_event_without_a_length_has_no_clock_until_one_is_named(english: None) -> None:
    event = event_of("xiaoluzi", minutes=None)
    round = event.rounds.get()
    running.round_tables_start(round=round, bots=True, bot_delay_ms=0)
    assert rounds_clock.clock_of(round).state == "none"
    with pytest.raises(ApplicationError, match="sets no round length"):
        rounds_clock.clock_start(round=round, user=None)
    assert rounds_clock.clock_start(round=round, user=None, minutes=25).minutes == 25


# --- access and the JSON -------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_only_the_events_organizers_change_the_clock(game: str) -> None:
    round, _matches = running_round(game)
    organizer, stranger = UserFactory(), UserFactory()
    events_staff.event_organizer_add(event=round.event, user=organizer)
    start = reverse("tournaments-api:round-clock-start", args=[round.pk])

    anonymous = APIClient()
    assert anonymous.post(start, {}, format="json").status_code == 403
    other = APIClient()
    other.force_authenticate(stranger)
    refused = other.post(start, {}, format="json")
    assert refused.status_code == 403 and "组织者" in refused.json()["detail"]

    api = APIClient()
    api.force_authenticate(organizer)
    answer = api.post(start, {}, format="json")
    assert answer.status_code == 200 and answer.json()["state"] == "running"
    for action in ("pause", "resume", "extend"):
        url = reverse(f"tournaments-api:round-clock-{action}", args=[round.pk])
        assert other.post(url, {"minutes": 5}, format="json").status_code == 403
        assert api.post(url, {"minutes": 5}, format="json").status_code == 200
    bad = api.post(
        reverse("tournaments-api:round-clock-extend", args=[round.pk]), {"minutes": 0}, "json"
    )
    assert bad.status_code == 400 and bad.json()["detail"]
    again = api.post(start, {}, format="json")
    assert again.status_code == 409 and "已经开始" in again.json()["detail"]

    # the dashboard's buttons: only an organizer's change anything
    page = Client()
    page.force_login(stranger)
    dash = reverse("tournaments:round_action", args=[round.event_id, "clock_pause"])
    assert page.post(dash, {"round": round.pk}).status_code in (403, 404)
    assert rounds_clock.clock_of(round).state == "running"
    page.force_login(organizer)
    assert page.post(dash, {"round": round.pk}).status_code == 302
    assert rounds_clock.clock_of(round).state == "paused"


def test_a_clock_action_on_a_round_not_running_is_409_with_a_message() -> None:
    event = event_of("daguai")
    round = event.rounds.get()
    organizer = UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    api = APIClient()
    api.force_authenticate(organizer)
    answer = api.post(reverse("tournaments-api:round-clock-start", args=[round.pk]), {}, "json")
    assert answer.status_code == 409
    assert answer.json()["detail"] == "第 1 轮状态为“已确认”，不在进行中：不能改动它的计时。"
    api.cookies["django_language"] = "en"
    en = api.post(reverse("tournaments-api:round-clock-pause", args=[round.pk]), {}, "json")
    assert en.status_code == 409
    assert "not running: its clock cannot change" in en.json()["detail"]


def test_the_clock_json_says_the_state_and_the_seconds_left(frozen: Frozen) -> None:
    round, _matches = running_round("shanghai_doudizhu")
    url = reverse("tournaments-api:round-clock", args=[round.pk])
    assert url == f"/api/v1/rounds/{round.pk}/clock/"
    before = Client().get(url)
    assert before.status_code == 200 and before["Cache-Control"] == "no-store"
    assert before.json() | {} == {
        "round": round.pk,
        "state": "ready",
        "minutes": 40,
        "extra_minutes": 0,
        "seconds_left": 2400,
        "deadline": None,
    }
    rounds_clock.clock_start(round=round, user=None)
    frozen.move(minutes=15)
    data = Client().get(url).json()
    assert (data["state"], data["seconds_left"]) == ("running", 1500)
    assert datetime.fromisoformat(data["deadline"]) == T0 + timedelta(minutes=40)
    assert Client().get(f"/api/v1/rounds/{round.pk + 999}/clock/").status_code == 404


# --- when the time is up -------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_after_the_time_is_up_a_table_finishes_its_deal_and_deals_no_new_one(
    game: str, frozen: Frozen
) -> None:
    round, (match,) = running_round(game)
    rounds_clock.clock_start(round=round, user=None)
    assert next_deal_allowed(match.table_id)
    frozen.move(minutes=39)
    first = deal_played(match)
    next_deal(match, first)
    assert (match.status, match.current_deal) == (Match.Status.PLAYING, first + 1)

    frozen.move(minutes=2)  # the time is up during the deal in play: it is played to its end
    assert not next_deal_allowed(match.table_id)
    second = deal_played(match)
    next_deal(match, second)
    for _ in range(10):  # 上海斗地主: an all-pass deal does not count, and is dealt again
        if match.status != Match.Status.PLAYING:
            break
        assert game == "shanghai_doudizhu" and match.current_deal == second + 1
        second = deal_played(match)
        next_deal(match, second)
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == Match.EndReason.TIME_UP
    assert match.current_deal == second  # no new deal was dealt
    assert 1 <= match.deals_per_match <= second
    assert match.deals_per_match < 3 or game == "shanghai_doudizhu"

    # a match stopped after its first deal (or the first that counts)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.COMPLETED)
    short_round, (short,) = running_round(game)
    rounds_clock.clock_start(round=short_round, user=None, minutes=1)
    frozen.move(minutes=2)
    for _ in range(10):
        played = deal_played(short)
        next_deal(short, played)
        if short.status != Match.Status.PLAYING:
            break
    assert (short.status, short.end_reason) == (Match.Status.FINISHED, Match.EndReason.TIME_UP)
    assert short.deals.count() == played and short.finished_at is not None
    assert short.deals_per_match == (1 if game != "shanghai_doudizhu" else short.deals_per_match)
    assert short.winner in ("", "A", "B", *[str(s) for s in range(6)])
    # recorded as any finished match: its tally follows and the round completes without force
    tally = PairingTally.objects.get(pairing__table_id=short.table_id)
    assert tally.status == PairingTally.Status.FINISHED and tally.deals == played
    rounds_services.round_complete(round=short_round, user=None)


def test_a_paused_or_extended_clock_lets_tables_deal_on(frozen: Frozen) -> None:
    round, (match,) = running_round("xiaoluzi")
    rounds_clock.clock_start(round=round, user=None, minutes=1)
    rounds_clock.clock_pause(round=round, user=None)
    frozen.move(minutes=5)
    assert next_deal_allowed(match.table_id)  # paused with time left
    rounds_clock.clock_resume(round=round, user=None)
    frozen.move(minutes=2)
    assert not next_deal_allowed(match.table_id)
    rounds_clock.clock_extend(round=round, user=None, minutes=10)
    assert next_deal_allowed(match.table_id)
    number = deal_played(match)
    next_deal(match, number)
    assert match.status == Match.Status.PLAYING and match.current_deal == number + 1


def test_a_table_of_no_round_is_never_stopped() -> None:
    table = Table.objects.create(name="练习")
    assert next_deal_allowed(table.pk)


def test_offline_tables_not_done_when_time_is_up_are_flagged_on_the_dashboard(
    frozen: Frozen,
) -> None:
    event = event_of("daguai", mode="offline", tables=2)
    round = event.rounds.get()
    organizer = UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    rounds_services.round_start(round=round, user=organizer)
    page = Client()
    page.force_login(organizer)
    dashboard = reverse("tournaments:dashboard", args=[event.pk])
    html = page.get(dashboard).content.decode()
    assert "data-round-clock" in html and 'data-state="ready"' in html
    assert 'id="clock-overdue"' not in html
    start = reverse("tournaments:round_action", args=[event.pk, "clock_start"])
    assert page.post(start, {"round": round.pk}).status_code == 302
    frozen.move(minutes=30)
    html = page.get(dashboard).content.decode()
    assert 'data-state="running"' in html and "10:00" in html
    frozen.move(minutes=11)
    html = page.get(dashboard).content.decode()
    assert 'id="clock-overdue"' in html
    assert "线下牌桌 1、2 还没有打完" in html


def test_the_clock_is_shown_on_the_table_projector_event_and_player_pages(
    frozen: Frozen,
) -> None:
    round, (match,) = running_round("daguai")
    event = round.event
    rounds_clock.clock_start(round=round, user=None)
    frozen.move(minutes=1, seconds=1)
    player = match.table.seats.first().player_id
    pages = {
        "table": reverse("games:table", args=[match.table_id]),
        "projector": reverse("tournaments:projector", args=[event.pk]),
        "event": reverse("tournaments:event_detail", args=[event.pk]),
        "player": reverse("tournaments:player_detail", args=[event.pk, player]),
    }
    json_url = reverse("tournaments-api:round-clock", args=[round.pk])
    for name, url in pages.items():
        html = Client().get(url).content.decode()
        assert "data-round-clock" in html, name
        assert f'data-url="{json_url}"' in html, name
        assert 'data-left="2339"' in html and "38:59" in html, name
        assert "clock.js" in html, name
        assert "线上牌桌打完正在进行的一副后不再开新的一副" in html, name
    assert "round-clock-big" in Client().get(pages["projector"]).content.decode()


def test_a_clock_change_is_pushed_to_the_rounds_online_tables(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    round, (match,) = running_round("daguai")
    pushed: list[int] = []
    monkeypatch.setattr(rounds_clock.events, "table_clock_changed", pushed.append)
    with django_capture_on_commit_callbacks(execute=True):
        rounds_clock.clock_start(round=round, user=None)
    assert pushed == [match.table_id]
    with django_capture_on_commit_callbacks(execute=True):
        rounds_clock.clock_extend(round=round, user=None, minutes=5)
    assert pushed == [match.table_id] * 2


def test_the_event_settings_form_sets_the_round_length() -> None:
    event = EventFactory(game="xiaoluzi")
    organizer = UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    shown = EventSettingsForm(event=event, locked=True, own_meet=True)
    assert shown["round_minutes"].value() is None and not shown.fields["round_minutes"].disabled
    data = {
        name: value for name in shown.fields if (value := shown[name].value()) not in (None, False)
    }
    for bad in ("0", "601", "x"):
        assert not EventSettingsForm(
            data=data | {"round_minutes": bad}, event=event, locked=True, own_meet=True
        ).is_valid()
    form = EventSettingsForm(
        data=data | {"round_minutes": "40"}, event=event, locked=True, own_meet=True
    )
    assert form.is_valid(), form.errors
    event_settings_update(event=event, user=organizer, settings=form.settings())
    event.refresh_from_db()
    assert event.round_minutes == 40
    form = EventSettingsForm(
        data=data | {"round_minutes": ""}, event=event, locked=True, own_meet=True
    )
    assert form.is_valid()
    event_settings_update(event=event, user=organizer, settings=form.settings())
    event.refresh_from_db()
    assert event.round_minutes is None  # no clock
