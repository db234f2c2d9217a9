"""Events of each game as people meet them in the browser tests: an offline event whose first
round is played and confirmed and whose knockout stage is drawn, run by two organizers (a
referee enters, the other confirms), with one player who has an account."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from games.models import Player, Table
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.knockout import services as knockout
from tournaments.models import Event, KnockoutStage, Pairing
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import services as rounds_services

PASSWORD = "correct horse battery staple"
GAMES = ("daguai", "xiaoluzi", "shanghai_doudizhu")
NAMES = ["欧阳明远", "张伟", "李娜娜", "王芳", "刘洋", "陈静", "杨帆", "赵磊", "黄婷"]


@dataclass
class Built:
    event: Event
    stage: KnockoutStage
    organizer: Any
    checker: Any
    player: Player  # has the organizer's account


def deals_of(game: str, pairing: Pairing) -> list[dict[str, Any]]:
    """One deal of the game's offline sheet: seat 0 (side A) does best."""
    if game == "daguai":
        return [{"finish": [0, 2, 4]}]
    if game == "xiaoluzi":
        return [{"mode": "none", "finish": [0, 1, 2], "played": [8, 8, 8, 5]}]
    return [{"landlord": 0, "bid": 2, "winner": "landlord"}]


def enter(pairing: Pairing, built: Built, game: str) -> None:
    submission = result_submit(
        pairing=pairing, user=built.organizer, first_dealer=0, deals=deals_of(game, pairing)
    )
    result_confirm(submission=submission, user=built.checker)


def build(game: str, *, start_knockout: bool = True) -> Built:
    users = get_user_model().objects
    organizer = users.create_user(username=f"organizer-{game}", password=PASSWORD)
    checker = users.create_user(username=f"checker-{game}", password=PASSWORD)
    individual = game != "daguai"
    event = EventFactory(
        game=game,
        table_mode=Table.Mode.OFFLINE,
        deals_per_match=1,
        name={"daguai": "大怪路子团体赛", "xiaoluzi": "小路子个人赛"}.get(game, "上海斗地主个人赛"),
        **({"pairing_format": "swiss"} if individual else {}),
    )
    events_staff.event_organizer_add(event=event, user=organizer)
    events_staff.event_organizer_add(event=event, user=checker)
    if individual:
        players = [PlayerFactory(name=name) for name in NAMES[:8]]
        for i, p in enumerate(players):
            events_entries.membership_ensure(player=p, unit=UnitFactory(name=f"质量管理部{i}"))
        events_entries.registration_ensure(event=event, players=players)
        player = players[0]
    else:
        teams = [
            TeamFactory(
                event=event, unit=UnitFactory(name=f"生产制造部{i}"), name=f"生产制造部{n}队"
            )
            for i, n in enumerate("一二三四五六七八")
        ]
        player = teams[0].members.first().player
    Player.objects.filter(pk=player.pk).update(user=organizer, name="欧阳明远")
    player.refresh_from_db()
    built = Built(event, None, organizer, checker, player)  # type: ignore[arg-type]
    group = draw_services.round_create_paired(event=event, confirm=True, user=organizer)
    rounds_services.round_start(round=group, user=organizer)
    for pairing in group.pairings.all():
        enter(pairing, built, game)
    rounds_services.round_complete(round=group, user=organizer)
    built.stage = knockout.knockout_break(event=event, size=8 if individual else 4, user=organizer)
    if start_knockout:
        knockout.knockout_confirm(stage=built.stage, user=organizer)
        knockout.knockout_start(stage=built.stage, user=organizer)
    return built


def log_in(browser: Any, base: str, username: str, language: str = "zh-hans") -> Any:
    """A phone (390x844) in ``language``, logged in as ``username``."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    return page
