"""Issue 26: the admin's event form shows the chosen game's rule options only, in words, for
every game; an event is added for each game, and an event without rounds changes its game."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.registry import get_game, registered_keys
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, MeetFactory, RoundFactory
from tournaments.events.option_fields import event_option_specs
from tournaments.models import Event

pytestmark = pytest.mark.django_db

ADD = "admin:tournaments_event_add"


def _superuser() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _inlines() -> dict[str, str]:
    form: dict[str, str] = {}
    for prefix in ("registrations", "teams", "rounds"):
        form |= {
            f"{prefix}-TOTAL_FORMS": "0",
            f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0",
            f"{prefix}-MAX_NUM_FORMS": "1000",
        }
    return form


def _option_names(game: str) -> set[str]:
    return {s.name for s in event_option_specs(game)}


@pytest.mark.parametrize("game", registered_keys())
def test_the_add_form_shows_the_chosen_games_options_only(game: str) -> None:
    response = _superuser().get(reverse(ADD) + f"?game={game}")
    assert response.status_code == 200
    form = response.context["adminform"].form
    shown = {name.removeprefix("option_") for name in form.fields if name.startswith("option_")}
    assert shown == _option_names(game)
    others = set().union(*(_option_names(k) for k in registered_keys() if k != game))
    page = response.content.decode()
    for name in others - shown:
        assert f'name="option_{name}"' not in page
    assert form.initial["game"] == game
    assert form.initial["deals_per_match"] == get_game(game).default_options().deals_per_match


def test_choices_are_shown_in_words_with_help() -> None:
    page = _superuser().get(reverse(ADD) + "?game=shanghai_doudizhu").content.decode()
    assert '<option value="marked_card" selected>标记牌持有者</option>' in page
    assert ">向上取整</option>" in page and ">ceil<" not in page
    assert "谁先叫分" in page  # the option's help
    page = _superuser().get(reverse(ADD) + "?game=xiaoluzi").content.decode()
    assert ">按张数</option>" in page


def _add_form(game: str, name: str, **options: str) -> dict[str, Any]:
    return {
        "meet": MeetFactory().pk,
        "name": name,
        "game": game,
        "options_game": game,
        "base_score": "1",
        "deals_per_match": str(get_game(game).default_options().deals_per_match),
        "pairing_format": "swiss",
        "tie_break_1": "head_to_head",
        "status": "draft",
        "bye_points": "0",
        "unit_best": "3",
        "table_mode": "online",
        "duplicate_scoring": "datum",
        **{f"option_{k}": v for k, v in options.items()},
        **_inlines(),
    }


@pytest.mark.parametrize(
    ("game", "options", "stored"),
    [
        ("daguai", {"system_play_limit": "4"}, {"system_play_limit": 4, "lead_to_teammate": False}),
        (
            "xiaoluzi",
            {"slam_count": "plays", "joker_sevens": "on", "base_silver": ""},
            {"slam_count": "plays", "joker_sevens": True, "base_silver": 1},
        ),
        (
            "shanghai_doudizhu",
            {
                "first_bidder": "rotate",
                "huangfan": "queue",
                "double_report": "x2",
                "active_escape_rounding": "half_up",
                "report_loss_rating": "normal",
                "turn_seconds": "20",
            },
            {
                "first_bidder": "rotate",
                "huangfan": "queue",
                "active_escape_rounding": "half_up",
                "turn_seconds": 20,
            },
        ),
    ],
)
def test_an_event_of_each_game_is_added(
    game: str, options: dict[str, str], stored: dict[str, Any]
) -> None:
    response = _superuser().post(reverse(ADD), _add_form(game, f"{game} 赛", **options))
    assert response.status_code == 302, response.context and response.context["errors"]
    event = Event.objects.get(name=f"{game} 赛")
    assert event.game == game
    for key, value in stored.items():
        assert event.rule_options[key] == value
    assert set(event.rule_options) <= _option_names(game)
    get_game(game).options_from_json(event.rule_options)


def _change_form(event: Event, game: str, shown: str) -> dict[str, Any]:
    form = _add_form(game, event.name)
    form["meet"] = event.meet_id
    form["options_game"] = shown
    # what the page showed: the old game's options
    form |= {"option_lead_to_teammate": "on", "option_system_play_limit": "2"}
    return form


def test_switching_the_game_of_an_event_without_rounds_works() -> None:
    event = EventFactory(game="daguai", rule_options={"system_play_limit": 2})
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    response = _superuser().post(url, _change_form(event, "shanghai_doudizhu", "daguai"))
    assert response.status_code == 302, response.context and response.context["errors"]
    event.refresh_from_db()
    assert event.game == "shanghai_doudizhu"
    assert set(event.rule_options) <= _option_names("shanghai_doudizhu")
    get_game("shanghai_doudizhu").options_from_json(event.rule_options)
    page = _superuser().get(url).content.decode()
    assert 'name="option_first_bidder"' in page and 'name="option_lead_to_teammate"' not in page


def test_an_event_with_rounds_keeps_its_game() -> None:
    event = EventFactory(game="daguai")
    RoundFactory(event=event)
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    response = _superuser().post(url, _change_form(event, "xiaoluzi", "daguai"))
    assert response.status_code == 200
    assert "game" in response.context["adminform"].form.errors
    event.refresh_from_db()
    assert event.game == "daguai"
