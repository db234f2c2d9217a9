"""The demo meet: a company staff sports meet with a 大怪路子 team event and two individual events
(上海斗地主, 小路子) of the same departments, loaded idempotently.

Everything is looked up by natural keys (unit names, employee numbers, team names), so loading twice
changes nothing and a half-finished earlier load is completed.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from games.models import Player
from games.tables.services import player_create
from tournaments.events.entries import (
    membership_ensure,
    registration_ensure,
    team_create,
    unit_get_or_create,
)
from tournaments.events.staff import event_organizer_add, organizer_group_ensure
from tournaments.models import Event, Meet, Membership, Team, Unit

COMPANY = "华东精工集团"
MEET_SLUG = "staff-sports-meet-2026"
MEET_NAME = "华东精工集团2026年职工运动会"
EVENT_NAME = "大怪路子团体赛"

#: Departments and their players (a multiple of three each), employee numbers assigned in this
# order.
DEPARTMENTS: dict[str, list[str]] = {
    "研发中心": ["张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄婷", "周杰"],
    "市场部": ["吴敏", "徐强", "孙丽", "马超", "朱琳", "胡军"],
    "财务部": ["郭燕", "何鹏", "高洁", "林峰", "罗欣", "郑浩"],
    "生产制造部": ["梁勇", "谢红", "宋涛", "唐慧", "许斌", "韩雪", "冯刚", "邓倩", "曹阳"],
    "销售部": ["彭亮", "曾颖", "萧晨", "田野", "董梅", "袁志"],
    "人力资源部": ["潘玉", "蒋松", "蔡璐"],
    "质量管理部": ["余波", "杜鹃", "叶青", "程锋", "魏然", "吕佳"],
    "行政部": ["丁一", "沈月", "姜山"],
}

TEAM_NAMES = ["一队", "二队", "三队"]

#: The meet's individual events: name, game, deals per match, and how many players of each
#: department enter (the first ones listed).
INDIVIDUAL_EVENTS: tuple[tuple[str, str, int, int], ...] = (
    ("上海斗地主个人赛", "shanghai_doudizhu", 2, 2),
    ("小路子个人赛", "xiaoluzi", 4, 2),
)


@dataclass(frozen=True, slots=True)
class DemoAccount:
    username: str
    password: str
    role: str


@dataclass(frozen=True, slots=True)
class DemoSummary:
    meet: Meet
    event: Event
    units: int
    players: int
    teams: int
    accounts: tuple[DemoAccount, ...]


def _player_for(unit: Unit, name: str, employee_number: str) -> Player:
    membership = (
        Membership.objects.select_related("player")
        .filter(unit=unit, employee_number=employee_number)
        .first()
    )
    if membership is not None:
        return membership.player
    player = player_create(name=name)
    membership_ensure(player=player, unit=unit, employee_number=employee_number)
    return player


def _account(username: str, password: str, *, superuser: bool) -> None:
    User = get_user_model()
    user, _created = User.objects.get_or_create(username=username)
    user.is_staff = True
    user.is_superuser = superuser
    user.set_password(password)
    user.save()


@transaction.atomic
def demo_load(*, admin_password: str, organizer_password: str) -> DemoSummary:
    """Load (or complete) the demo meet and its accounts; return what is there afterwards."""
    for username, password in (("admin", admin_password), ("organizer", organizer_password)):
        if len(password) < 8:
            raise ApplicationError(
                _("The password of “%(username)s” must have at least 8 characters.")
                % {"username": username}
            )
    company = unit_get_or_create(name=COMPANY, kind=Unit.Kind.COMPANY)
    meet, _created = Meet.objects.get_or_create(
        slug=MEET_SLUG,
        defaults={
            "name": MEET_NAME,
            "organizer_unit": company,
            "starts_on": datetime.date(2026, 12, 5),
            "ends_on": datetime.date(2026, 12, 6),
            "venue": "集团职工活动中心",
            "description": (
                "一年一度的职工运动会：大怪路子、掼蛋、象棋、乒乓球等项目，以部门为单位计团体总分。"
            ),
        },
    )
    event, _created = Event.objects.get_or_create(
        meet=meet,
        name=EVENT_NAME,
        defaults={
            "game": "daguai",
            "base_score": 1,
            "deals_per_match": 3,
            "pairing_format": Event.PairingFormat.SWISS,
            "status": Event.Status.REGISTRATION,
        },
    )
    number = 0
    for department, names in DEPARTMENTS.items():
        unit = unit_get_or_create(name=department, kind=Unit.Kind.DEPARTMENT, parent=company)
        players = []
        for name in names:
            number += 1
            players.append(_player_for(unit, name, f"HD{number:04d}"))
        size = event.team_size
        for index in range(0, len(players), size):
            team_name = f"{department}{TEAM_NAMES[index // size]}"
            if not Team.objects.filter(event=event, name=team_name).exists():
                team_create(
                    event=event,
                    name=team_name,
                    players=players[index : index + size],
                    unit=unit,
                )

    for name, game, deals, per_unit in INDIVIDUAL_EVENTS:
        single, _created = Event.objects.get_or_create(
            meet=meet,
            name=name,
            defaults={
                "game": game,
                "base_score": 1,
                "deals_per_match": deals,
                "pairing_format": Event.PairingFormat.SWISS,
                "status": Event.Status.REGISTRATION,
                "bye_points": 0,
                "unit_best": 2,
            },
        )
        entrants = [
            membership.player
            for department in DEPARTMENTS
            for membership in Membership.objects.filter(unit__name=department, unit__parent=company)
            .select_related("player")
            .order_by("employee_number")[:per_unit]
        ]
        registration_ensure(event=single, players=entrants)

    _account("admin", admin_password, superuser=True)
    _account("organizer", organizer_password, superuser=False)
    organizer_group_ensure()
    organizer = get_user_model().objects.get(username="organizer")
    for organized in Event.objects.filter(meet=meet):
        event_organizer_add(event=organized, user=organizer)

    return DemoSummary(
        meet=meet,
        event=event,
        units=Unit.objects.filter(parent=company).count(),
        players=Player.objects.filter(memberships__unit__parent=company).distinct().count(),
        teams=event.teams.count(),
        accounts=(
            DemoAccount("admin", admin_password, "superuser"),
            DemoAccount("organizer", organizer_password, f"organizer of {meet.name}'s events"),
        ),
    )
