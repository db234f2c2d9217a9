"""Issue 26: organizers create and set up their own events from the site (every game, its options
from the registry with their Chinese names, help and choices in words), add co-organizers from
the dashboard, and the result review page says who can confirm. Another organizer's event stays
out of reach."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from config.exceptions import ConflictError
from engine.registry import get_game
from games.models import Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, RoundFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events import services as event_services
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, Meet, ResultSubmission, Round
from tournaments.results.services import result_submit
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db

NEW = reverse("tournaments:event_new")


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def world() -> dict[str, Any]:
    """Two organizers, each of one event in a meet of their own; and a plain player account."""
    data: dict[str, Any] = {"player": UserFactory()}
    for key in ("a", "b"):
        event = EventFactory()
        organizer = UserFactory()
        event_organizer_add(event=event, user=organizer)
        data[key] = {"event": event, "organizer": organizer, "client": _client(organizer)}
    return data


def _create_form(game: str, **fields: Any) -> dict[str, Any]:
    form = {
        "game": game,
        "meet": "",
        "meet_name": "",
        "name": "新赛事",
        "pairing_format": "swiss",
        "base_score": "1",
        "deals_per_match": str(get_game(game).default_options().deals_per_match),
    }
    form.update({k: str(v) for k, v in fields.items()})
    return form


def test_a_daguai_team_event_is_created_in_the_organizers_meet(world: dict[str, Any]) -> None:
    a = world["a"]
    form = _create_form(
        "daguai",
        meet=a["event"].meet_id,
        name="大怪路子团体赛",
        option_lead_to_teammate="on",
        option_system_play_limit=2,
    )
    response = a["client"].post(NEW, form)
    event = Event.objects.get(name="大怪路子团体赛")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:dashboard", args=[event.pk])
    assert event.meet == a["event"].meet and not event.is_individual
    assert event.rule_options == {"lead_to_teammate": True, "system_play_limit": 2}
    assert list(event.organizers.all()) == [a["organizer"]]
    page = a["client"].get(response["Location"])
    assert page.status_code == 200 and "大怪路子团体赛" in page.content.decode()


def test_a_xiaoluzi_individual_event_is_created_in_a_new_meet(world: dict[str, Any]) -> None:
    a = world["a"]
    form = _create_form(
        "xiaoluzi",
        meet_name="春季联赛",
        starts_on="2027-03-01",
        ends_on="2027-03-02",
        name="小路子个人赛",
        option_base_silver=2,
        option_joker_sevens="on",
        option_slam_count="plays",
        option_system_actions_to_escape="",  # empty: the game's default
        is_private="on",
    )
    response = a["client"].post(NEW, form)
    assert response.status_code == 302
    event = Event.objects.get(name="小路子个人赛")
    assert event.game == "xiaoluzi" and event.is_individual and event.is_private
    assert event.meet.name == "春季联赛" and str(event.meet.starts_on) == "2027-03-01"
    assert event.rule_options["slam_count"] == "plays"
    assert event.rule_options["base_silver"] == 2
    assert event.rule_options["system_actions_to_escape"] == 3
    assert event.rule_options["first_lead_7h"] is False
    assert event_services.event_options_locked(event) is False
    assert event.organizers.get() == a["organizer"]


def test_a_shanghai_doudizhu_event_is_created_with_its_options(world: dict[str, Any]) -> None:
    a = world["a"]
    page = a["client"].get(NEW + "?game=shanghai_doudizhu").content.decode()
    assert 'name="option_first_bidder"' in page and 'name="option_lead_to_teammate"' not in page
    assert "首叫" in page and "谁先叫分" in page  # the Chinese name and help
    assert ">标记牌持有者</option>" in page and ">marked_card<" not in page
    form = _create_form(
        "shanghai_doudizhu",
        meet=a["event"].meet_id,
        name="上海斗地主个人赛",
        option_first_bidder="rotate",
        option_huangfan="multiply",
        option_double_report="per_set",
        option_turn_seconds=20,
        option_disconnect_seconds=120,
        option_timeouts_to_escape=4,
        option_active_escape_percent=120,
        option_active_escape_rounding="half_up",
        option_report_loss_rating="void",
    )
    response = a["client"].post(NEW, form)
    assert response.status_code == 302
    event = Event.objects.get(name="上海斗地主个人赛")
    assert event.game == "shanghai_doudizhu" and event.is_individual
    assert event.deals_per_match == 4
    options = get_game("shanghai_doudizhu").options_from_json(
        {**event.rule_options, "deals_per_match": 4}
    )
    assert options.to_json()["first_bidder"] == "rotate"
    assert event.rule_options["active_escape_percent"] == 120
    assert event.rule_options["timeouts_in_a_row"] is False


def test_the_game_picker_lists_every_game(world: dict[str, Any]) -> None:
    page = world["a"]["client"].get(NEW).content.decode()
    for key in ("daguai", "xiaoluzi", "shanghai_doudizhu"):
        assert f"?game={key}" in page
    assert 'name="option_' not in page


def test_bad_input_is_answered_on_the_page(world: dict[str, Any]) -> None:
    a = world["a"]
    response = a["client"].post(NEW, _create_form("xiaoluzi", name="无赛会"))
    assert response.status_code == 200 and not Event.objects.filter(name="无赛会").exists()
    assert "meet_name" in response.context["form"].errors
    taken = _create_form("daguai", meet=a["event"].meet_id, name=a["event"].name)
    response = a["client"].post(NEW, taken)
    assert response.status_code == 200
    assert Event.objects.filter(name=a["event"].name).count() == 1
    below = _create_form("shanghai_doudizhu", meet_name="会", option_active_escape_percent=50)
    response = a["client"].post(NEW, below)
    assert (
        response.status_code == 200
        and "option_active_escape_percent" in response.context["form"].errors
    )
    unknown = _create_form("daguai", meet_name="x", name="象棋") | {"game": "chess"}
    assert a["client"].post(NEW, unknown).status_code == 400
    assert not Event.objects.filter(name="象棋").exists()


def test_a_plain_player_may_not_create_events(world: dict[str, Any]) -> None:
    client = _client(world["player"])
    assert client.get(NEW).status_code == 403
    assert client.post(NEW, _create_form("daguai", meet_name="x", name="偷建")).status_code == 403
    assert not Event.objects.filter(name="偷建").exists()
    anonymous = Client().get(NEW)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    home = client.get(reverse("tournaments:home")).content.decode()
    assert NEW not in home
    assert NEW in world["a"]["client"].get(reverse("tournaments:home")).content.decode()


def test_an_organizer_cannot_add_an_event_to_another_organizers_meet(
    world: dict[str, Any],
) -> None:
    b_meet = world["b"]["event"].meet
    form = _create_form("daguai", meet=b_meet.pk, name="闯入")
    response = world["a"]["client"].post(NEW, form)
    assert response.status_code == 200 and "meet" in response.context["form"].errors
    assert not Event.objects.filter(name="闯入").exists()
    with pytest.raises(event_services.NotAllowedError):
        event_services.event_create(
            user=world["a"]["organizer"],
            game="daguai",
            meet=b_meet,
            settings=event_services.EventSettings("闯入", "swiss", 1, 3, {}, False),
        )


def _settings_url(event: Event) -> str:
    return reverse("tournaments:event_settings", args=[event.pk])


def _settings_form(event: Event, **fields: Any) -> dict[str, Any]:
    form = {
        "action": "save",
        "name": event.name,
        "pairing_format": event.pairing_format,
        "base_score": str(event.base_score),
        "deals_per_match": str(event.deals_per_match),
    }
    form.update({k: str(v) for k, v in fields.items()})
    return form


def test_the_settings_page_changes_name_options_format_dates_and_visibility(
    world: dict[str, Any],
) -> None:
    a = world["a"]
    event = a["event"]
    page = a["client"].get(_settings_url(event)).content.decode()
    assert 'name="option_system_play_limit"' in page and "托管次数上限" in page
    form = _settings_form(
        event,
        name="改名赛",
        pairing_format="round_robin",
        option_system_play_limit=7,
        is_private="on",
        starts_on="2027-05-01",
        ends_on="2027-05-03",
    )
    response = a["client"].post(_settings_url(event), form)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "改名赛" and event.pairing_format == "round_robin" and event.is_private
    assert event.rule_options["system_play_limit"] == 7
    assert str(event.meet.starts_on) == "2027-05-01"


def test_options_are_locked_once_a_round_has_started(world: dict[str, Any]) -> None:
    a = world["a"]
    event = a["event"]
    RoundFactory(event=event, status=Round.Status.RUNNING)
    page = a["client"].get(_settings_url(event)).content.decode()
    assert "规则选项、计分和编排方式已固定" in page
    assert 'name="option_system_play_limit"' in page and "disabled" in page
    form = _settings_form(event, name="新名", option_system_play_limit=1, pairing_format="manual")
    response = a["client"].post(_settings_url(event), form)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "新名" and event.pairing_format == "swiss"
    assert "system_play_limit" not in event.rule_options
    settings = event_services.EventSettings("新名", "swiss", 1, 3, {"system_play_limit": 1}, False)
    with pytest.raises(ConflictError):
        event_services.event_settings_update(event=event, user=a["organizer"], settings=settings)


def test_the_game_of_an_event_without_rounds_changes_on_the_settings_page(
    world: dict[str, Any],
) -> None:
    a = world["a"]
    event = a["event"]
    event.rule_options = {"system_play_limit": 2}
    event.save()
    response = a["client"].post(_settings_url(event), {"action": "game", "game": "xiaoluzi"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.game == "xiaoluzi" and event.rule_options == {} and event.deals_per_match == 4
    page = a["client"].get(_settings_url(event)).content.decode()
    assert 'name="option_slam_count"' in page and 'name="option_system_play_limit"' not in page
    RoundFactory(event=event)
    a["client"].post(_settings_url(event), {"action": "game", "game": "shanghai_doudizhu"})
    event.refresh_from_db()
    assert event.game == "xiaoluzi"


def test_a_team_event_with_teams_does_not_become_individual(world: dict[str, Any]) -> None:
    a = world["a"]
    TeamFactory(event=a["event"])
    a["client"].post(_settings_url(a["event"]), {"action": "game", "game": "xiaoluzi"})
    a["event"].refresh_from_db()
    assert a["event"].game == "daguai"


def test_another_organizer_cannot_reach_an_event(world: dict[str, Any]) -> None:
    a_event = world["a"]["event"]
    b = world["b"]
    assert b["client"].get(_settings_url(a_event)).status_code == 403
    form = _settings_form(a_event, name="被改")
    assert b["client"].post(_settings_url(a_event), form).status_code == 403
    game = {"action": "game", "game": "xiaoluzi"}
    assert b["client"].post(_settings_url(a_event), game).status_code == 403
    add = reverse("tournaments:staff_add", args=[a_event.pk])
    username = b["organizer"].username
    assert b["client"].post(add, {"username": username, "role": "organizer"}).status_code == 403
    assert b["client"].post(add, {"username": username, "role": "referee"}).status_code == 403
    assert _client(world["player"]).post(add, {"username": "x"}).status_code == 403
    a_event.refresh_from_db()
    assert a_event.name != "被改" and a_event.game == "daguai"
    assert not a_event.organizers.filter(pk=b["organizer"].pk).exists()
    missing = reverse("tournaments:event_settings", args=[10**9])
    assert b["client"].get(missing).status_code == 404
    assert b["client"].get(add).status_code == 405  # no GET that writes


def test_an_organizer_adds_a_co_organizer_from_the_dashboard(world: dict[str, Any]) -> None:
    a = world["a"]
    event = a["event"]
    dashboard = reverse("tournaments:dashboard", args=[event.pk])
    page = a["client"].get(dashboard).content.decode()
    assert reverse("tournaments:staff_add", args=[event.pk]) in page
    helper = UserFactory(username="helper")
    add = reverse("tournaments:staff_add", args=[event.pk])
    response = a["client"].post(add, {"username": "helper", "role": "organizer"}, follow=True)
    assert "helper" in response.content.decode()
    helper.refresh_from_db()
    assert event.organizers.filter(pk=helper.pk).exists()
    assert helper.is_staff and not helper.is_superuser  # what event_organizer_add grants
    assert not world["b"]["event"].organizers.filter(pk=helper.pk).exists()
    response = a["client"].post(add, {"username": "nobody", "role": "organizer"}, follow=True)
    assert "nobody" in response.content.decode()
    assert response.redirect_chain[-1][1] == 302


def _offline_round(organizer: Any) -> tuple[Event, Any]:
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    event_organizer_add(event=event, user=organizer)
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    return event, round_.pairings.get()


def test_the_review_page_says_who_can_confirm(world: dict[str, Any]) -> None:
    a = world["a"]
    event, pairing = _offline_round(a["organizer"])
    result_submit(
        pairing=pairing, user=a["organizer"], first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )
    url = reverse("tournaments:table_result", args=[event.pk, pairing.pk])
    page = a["client"].get(url).content.decode()
    # alone: no confirm button that only answers "someone else must", but the way to add one
    assert 'value="confirm"' not in page
    assert "没有其他组织者" in page and "#organizers" in page
    second = UserFactory(username="second", first_name="", last_name="")
    add = reverse("tournaments:staff_add", args=[event.pk])
    a["client"].post(add, {"username": "second", "role": "organizer"})
    page = a["client"].get(url).content.decode()
    assert "second" in page and 'value="confirm"' not in page
    other = _client(second).get(url).content.decode()
    assert 'value="confirm"' in other and a["organizer"].username in other
    response = _client(second).post(
        url,
        {
            "action": "confirm",
            "submission": ResultSubmission.objects.get().pk,
        },
    )
    assert response.status_code == 302
    assert ResultSubmission.objects.get().status == ResultSubmission.Status.CONFIRMED
    assert Meet.objects.count() >= 1


def test_a_referee_enters_and_confirms_results_and_nothing_more(world: dict[str, Any]) -> None:
    a = world["a"]
    event, pairing = _offline_round(a["organizer"])
    referee = UserFactory(username="ref")
    add = reverse("tournaments:staff_add", args=[event.pk])
    a["client"].post(add, {"username": "ref", "role": "referee"})
    referee.refresh_from_db()
    assert event.referees.filter(user=referee).exists()
    assert not referee.is_staff and not referee.groups.exists()  # no admin, no staff
    assert not event.organizers.filter(pk=referee.pk).exists()
    dashboard = a["client"].get(reverse("tournaments:dashboard", args=[event.pk]))
    assert "ref" in dashboard.content.decode()
    result_submit(
        pairing=pairing, user=a["organizer"], first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )
    url = reverse("tournaments:table_result", args=[event.pk, pairing.pk])
    assert "ref" in a["client"].get(url).content.decode()  # who can confirm
    ref = _client(referee)
    me = ref.get(reverse("accounts:me")).content.decode()
    assert "我担任裁判的赛事" in me
    assert reverse("tournaments:referee_tables", args=[event.pk]) in me
    tables = ref.get(reverse("tournaments:referee_tables", args=[event.pk]))
    assert tables.status_code == 200 and url in tables.content.decode()
    assert "待确认" in tables.content.decode()
    page = ref.get(url)
    assert page.status_code == 200 and 'value="confirm"' in page.content.decode()
    submission = ResultSubmission.objects.get()
    response = ref.post(url, {"action": "confirm", "submission": submission.pk})
    assert response.status_code == 302
    assert ResultSubmission.objects.get().status == ResultSubmission.Status.CONFIRMED
    tables = ref.get(reverse("tournaments:referee_tables", args=[event.pk])).content.decode()
    assert "已确认" in tables and "待确认" not in tables
    # a referee does not run the event, nor adds people to it
    for name in ("dashboard", "event_settings"):
        assert ref.get(reverse(f"tournaments:{name}", args=[event.pk])).status_code == 403
    assert ref.post(add, {"username": "ref", "role": "organizer"}).status_code == 403
    pair = reverse("tournaments:round_action", args=[event.pk, "pair"])
    assert ref.post(pair).status_code == 403
    # nor reaches another event's tables
    other, other_pairing = _offline_round(world["b"]["organizer"])
    foreign = reverse("tournaments:table_result", args=[other.pk, other_pairing.pk])
    assert ref.get(foreign).status_code == 403
    assert ref.get(reverse("tournaments:referee_tables", args=[other.pk])).status_code == 403
    assert a["client"].post(add, {"username": "ref", "role": "referee"}).status_code == 302
    assert event.referees.count() == 1  # added once


def test_a_shared_meets_dates_stay_with_its_organizers(world: dict[str, Any]) -> None:
    a, b = world["a"], world["b"]
    shared = EventFactory(meet=b["event"].meet)
    event_organizer_add(event=shared, user=a["organizer"])  # a organizes one event of b's meet
    page = a["client"].get(_settings_url(shared)).content.decode()
    assert "其中还有其他组织者的赛事" in page
    form = _settings_form(shared, starts_on="2030-01-01", is_private="on")
    assert a["client"].post(_settings_url(shared), form).status_code == 302
    shared.refresh_from_db()
    assert shared.is_private and shared.meet.starts_on is None  # the dates were not theirs
    settings = event_services.EventSettings(
        shared.name, "swiss", 1, 3, {}, False, starts_on=None, ends_on=None
    )
    event_services.event_settings_update(event=shared, user=a["organizer"], settings=settings)
    moved = replace(settings, starts_on=date(2030, 1, 1))
    with pytest.raises(event_services.NotAllowedError):
        event_services.event_settings_update(event=shared, user=a["organizer"], settings=moved)
