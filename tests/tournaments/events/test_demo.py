"""`manage.py load_demo` builds a realistic demo meet, idempotently, and refuses bad input."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from games.models import Player, Table
from tournaments.models import Event, Meet, Team, TeamMember, Unit

pytestmark = pytest.mark.django_db


def load(*args: str) -> str:
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Meet, Event, Unit, Player, Team, TeamMember, Table))


def test_load_demo_builds_the_meet() -> None:
    output = load()
    event = Event.objects.get(game="daguai")
    assert event.status == "registration"
    # the same departments also play 上海斗地主 and 小路子, each player for themselves
    singles = Event.objects.exclude(pk=event.pk).order_by("name")
    assert sorted(e.game for e in singles) == ["shanghai_doudizhu", "xiaoluzi"]
    for single in singles:
        assert single.is_individual and single.meet_id == event.meet_id
        assert single.registrations.count() >= 12
    assert Unit.objects.filter(kind="department").count() >= 6
    assert Player.objects.count() >= 36
    assert event.teams.count() >= 12
    for team in event.teams.all():
        members = list(team.members.select_related("player"))
        assert len(members) == 3
        assert {m.player.memberships.get().unit_id for m in members} == {team.unit_id}
    assert "username 'admin'" in output and "username 'organizer'" in output
    organizer = authenticate(username="organizer", password="luzi-organizer-demo")
    assert organizer is not None and organizer.is_staff and not organizer.is_superuser
    assert set(organizer.organized_events.all()) == set(Event.objects.all())
    admin = authenticate(username="admin", password="luzi-admin-demo")
    assert admin is not None and admin.is_superuser


def test_load_demo_twice_changes_nothing() -> None:
    load()
    before = counts()
    load()
    assert counts() == before


def test_load_demo_uses_given_passwords() -> None:
    load("--admin-password", "another-secret-1", "--organizer-password", "another-secret-2")
    assert authenticate(username="admin", password="another-secret-1") is not None


def test_load_demo_refuses_a_short_password_with_exit_code_2() -> None:
    # A command speaks the site's default language (Django activates no other): Chinese.
    with pytest.raises(CommandError, match="“admin”的密码至少需要 8 个字符") as info:
        load("--admin-password", "short")
    assert info.value.returncode == 2
    assert not Meet.objects.exists()
