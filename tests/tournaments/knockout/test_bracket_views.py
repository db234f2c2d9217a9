"""The knockout stage's API, CSV and pages: public reads, organizer-only writes (API and the
organizer's page), clear 4xx messages, the bracket page in Chinese by default."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import staff as events_staff
from tournaments.models import KnockoutMatch, KnockoutStage
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db


def api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def world() -> dict[str, Any]:
    event = EventFactory(table_mode=Table.Mode.OFFLINE, deals_per_match=1)
    teams = [TeamFactory(event=event, unit=UnitFactory(), name=f"队{i}") for i in range(4)]
    organizer, second, stranger = UserFactory(), UserFactory(), UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    events_staff.event_organizer_add(event=event, user=second)
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=organizer)
    rounds_services.round_start(round=round_, user=organizer)
    for pairing in round_.pairings.all():
        sub = result_submit(
            pairing=pairing, user=organizer, first_dealer=0, deals=[{"finish": [0, 2, 4]}]
        )
        result_confirm(submission=sub, user=second)
    return {
        "event": event,
        "teams": teams,
        "organizer": organizer,
        "second": second,
        "stranger": stranger,
    }


def _enter_all(world: dict[str, Any], stage: KnockoutStage) -> None:
    for match in KnockoutMatch.objects.filter(stage=stage, result=[]):
        sub = result_submit(
            pairing=match.pairing,
            user=world["organizer"],
            first_dealer=0,
            deals=[{"finish": [0, 2, 4]}],
        )
        result_confirm(submission=sub, user=world["second"])


def test_the_bracket_is_driven_through_the_api_by_organizers_only(world: dict[str, Any]) -> None:
    event = world["event"]
    base = f"/api/v1/events/{event.pk}/bracket"
    assert api().get(f"{base}/").status_code == 404  # no knockout stage yet
    assert api().post(f"{base}/break/", {"size": 4}, format="json").status_code == 403
    refused = api(world["stranger"]).post(f"{base}/break/", {"size": 4}, format="json")
    assert refused.status_code == 403
    bad = api(world["organizer"]).post(f"{base}/break/", {"size": 3}, format="json")
    assert bad.status_code == 400 and "2、4、8、16" in bad.json()["detail"]
    junk = api(world["organizer"]).post(f"{base}/break/", ["size"], format="json")
    assert junk.status_code == 400
    made = api(world["organizer"]).post(
        f"{base}/break/", {"size": 4, "places_played": 4, "final_deals": 1}, format="json"
    )
    assert made.status_code == 200, made.json()
    data = made.json()
    assert data["status"] == "draft" and len(data["entrants"]) == 4
    assert [r["label"] for r in data["rounds"]] == ["半决赛", "决赛"]
    ids = [e["id"] for e in data["entrants"]]
    swapped = api(world["organizer"]).post(
        f"{base}/seeds/", {"entrants": [ids[1], ids[0], ids[2], ids[3]]}, format="json"
    )
    assert swapped.status_code == 200 and swapped.json()["entrants"][0]["id"] == ids[1]
    assert api(world["stranger"]).post(f"{base}/confirm/", {}, format="json").status_code == 403
    assert api(world["organizer"]).post(f"{base}/confirm/").status_code == 200
    started = api(world["organizer"]).post(f"{base}/start/").json()
    semis = started["rounds"][0]["matches"]
    assert [m["state"] for m in semis] == ["pending", "pending"]
    early = api(world["organizer"]).post(f"{base}/complete/")
    assert early.status_code == 409 and "未打完" in early.json()["detail"]
    stage = KnockoutStage.objects.get(event=event)
    _enter_all(world, stage)
    after = api(world["organizer"]).post(f"{base}/complete/").json()
    assert [m["state"] for m in after["rounds"][0]["matches"]] == ["decided", "decided"]
    final = after["rounds"][1]["matches"][0]
    assert final["name"] == "决赛" and final["table"] == 1 and len(final["entrants"]) == 2
    length = api(world["organizer"]).post(
        f"{base}/matches/{final['key']}/length/", {"deals": 2}, format="json"
    )
    assert length.status_code == 200
    assert KnockoutMatch.objects.get(stage=stage, key=final["key"]).deals == 2
    assert (
        api(world["stranger"])
        .post(f"{base}/matches/{final['key']}/length/", {"deals": 3}, format="json")
        .status_code
        == 403
    )
    # the public reads the bracket and its CSV
    public = api().get(f"{base}/").json()
    assert public["rounds"][1]["matches"][0]["entrants"][0]["name"]
    rows = list(csv.reader(io.StringIO(api().get(f"{base}.csv").content.decode("utf-8-sig"))))
    assert rows[0][:6] == ["round", "match", "places", "table", "seed", "entrant"]
    assert len(rows) == 1 + 2 * 2 + 2 * 2  # two semi-finals, the final, the third-place match


def test_a_private_events_bracket_is_hidden_from_the_public(world: dict[str, Any]) -> None:
    event = world["event"]
    event.is_private = True
    event.save()
    assert Client().get(f"/events/{event.pk}/bracket/").status_code == 404
    assert api().get(f"/api/v1/events/{event.pk}/bracket/").status_code == 404


def test_the_organizers_page_breaks_seeds_and_plays_the_bracket(world: dict[str, Any]) -> None:
    event = world["event"]
    stranger = Client()
    stranger.force_login(world["stranger"])
    assert stranger.get(f"/events/{event.pk}/manage/knockout/").status_code == 403
    assert (
        stranger.post(f"/events/{event.pk}/manage/knockout/break/", {"size": "4"}).status_code
        == 403
    )
    assert not KnockoutStage.objects.exists()
    org = Client()
    org.force_login(world["organizer"])
    page = org.get(f"/events/{event.pk}/manage/knockout/")
    assert page.status_code == 200 and 'data-form="break"' in page.content.decode()
    form = {"size": "4", "places_played": "2", "deals_per_match": "1", "final_deals": "1"}
    bad = org.post(f"/events/{event.pk}/manage/knockout/break/", {**form, "size": "x"}, follow=True)
    assert bad.status_code == 200 and not KnockoutStage.objects.exists()
    assert "出线人数" in bad.content.decode()
    org.post(f"/events/{event.pk}/manage/knockout/break/", form)
    stage = KnockoutStage.objects.get(event=event)
    assert stage.places_played == 2
    dashboard = org.get(f"/events/{event.pk}/manage/").content.decode()
    assert "淘汰赛：前 4 名已排种子" in dashboard  # the round log, in the page's language
    page = org.get(f"/events/{event.pk}/manage/knockout/").content.decode()
    assert 'name="seed_4"' in page
    org.post(f"/events/{event.pk}/manage/knockout/confirm/")
    org.post(f"/events/{event.pk}/manage/knockout/start/")
    _enter_all(world, stage)
    org.post(f"/events/{event.pk}/manage/knockout/complete/")
    org.post(f"/events/{event.pk}/manage/knockout/start/")
    _enter_all(world, stage)
    org.post(f"/events/{event.pk}/manage/knockout/complete/")
    stage.refresh_from_db()
    assert stage.status == KnockoutStage.Status.COMPLETED
    assert org.post(f"/events/{event.pk}/manage/knockout/nonsense/").status_code == 404
    public = Client().get(f"/events/{event.pk}/bracket/").content.decode()
    assert "冠军" in public and "决赛" in public and "最终名次" in public
    projector = Client().get(f"/events/{event.pk}/bracket/?projector=1")
    assert projector.status_code == 200 and "<svg" in projector.content.decode()
    placement = Client().get(f"/events/{event.pk}/bracket.csv?kind=placement")
    rows = list(csv.reader(io.StringIO(placement.content.decode("utf-8-sig"))))
    assert rows[0] == ["place", "id", "entrant", "unit", "stage", "seed", "tied", "final"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "3"]  # no third-place match: both 3rd


def test_a_walkover_through_the_api_and_the_organizers_page(world: dict[str, Any]) -> None:
    event = world["event"]
    base = f"/api/v1/events/{event.pk}/bracket"
    api(world["organizer"]).post(f"{base}/break/", {"size": 4}, format="json")
    api(world["organizer"]).post(f"{base}/confirm/")
    body = {"order": [4, 1], "reason": "未到场"}
    url = f"{base}/matches/1-1-1/walkover/"
    assert api(world["stranger"]).post(url, body, format="json").status_code == 403
    assert api().post(url, body, format="json").status_code == 403
    bad = api(world["organizer"]).post(url, {"order": [4, 1]}, format="json")
    assert bad.status_code == 400 and "reason" in bad.json()["errors"]
    done = api(world["organizer"]).post(url, body, format="json")
    assert done.status_code == 200
    semi = done.json()["rounds"][0]["matches"][0]
    assert semi["result"] == [4, 1] and semi["decided_by"] == "walkover"
    assert semi["decided_by_text"] == "判定胜负（组织者决定）"
    org = Client()
    org.force_login(world["organizer"])
    page = org.get(f"/events/{event.pk}/manage/knockout/").content.decode()
    assert (
        'data-unstarted="1-1-2"' in page and 'data-unstarted="1-1-1"' not in page
    )  # awarded already
    # issue 26: a match is named as the bracket names it, with who plays it, never by its key
    unstarted = re.search(r'<li data-unstarted="1-1-2"><b>(.*?)</b> · (.*?) · ', page, re.S)
    assert unstarted is not None and "(1-1-2)" not in page
    assert unstarted.group(1) == "半决赛 2" and " 对 " in unstarted.group(2)
    other = KnockoutMatch.objects.get(stage__event=event, key="1-1-2")
    org.post(
        f"/events/{event.pk}/manage/knockout/walkover/",
        {"match": other.pk, "order": ["3", "2"], "reason": "弃权"},
    )
    other.refresh_from_db()
    assert other.result == [3, 2]
    assert org.post(f"/events/{event.pk}/manage/knockout/start/").status_code == 302
    org.post(f"/events/{event.pk}/manage/knockout/complete/")
    final = KnockoutMatch.objects.get(stage__event=event, key="2-1-1")
    assert final.entrants == [3, 4]


def test_the_admin_shows_an_organizer_their_own_knockout_stages_read_only(
    world: dict[str, Any],
) -> None:
    event = world["event"]
    api(world["organizer"]).post(f"/api/v1/events/{event.pk}/bracket/break/", {"size": 2})
    stage = KnockoutStage.objects.get(event=event)
    other = EventFactory(name="别的项目")
    events_staff.event_organizer_add(event=other, user=world["stranger"])
    org = Client()
    org.force_login(world["organizer"])
    listed = org.get("/admin/tournaments/knockoutstage/")
    assert listed.status_code == 200 and event.name in listed.content.decode()
    page = org.get(f"/admin/tournaments/knockoutstage/{stage.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    changed = org.post(f"/admin/tournaments/knockoutstage/{stage.pk}/change/", {"size": 16})
    assert changed.status_code == 403
    assert org.get("/admin/tournaments/knockoutstage/add/").status_code == 403
    outsider = Client()
    outsider.force_login(world["stranger"])
    assert outsider.get(f"/admin/tournaments/knockoutstage/{stage.pk}/change/").status_code == 403
    assert event.name not in outsider.get("/admin/tournaments/knockoutstage/").content.decode()


def test_an_organizer_of_another_event_reaches_nothing_of_this_bracket(
    world: dict[str, Any],
) -> None:
    """Organizer B (of another event) is refused every write of A's bracket, and A cannot seed
    B's teams into A's bracket: the stage stays as it was."""
    event = world["event"]
    other = EventFactory(table_mode=Table.Mode.OFFLINE, deals_per_match=1)
    theirs = [TeamFactory(event=other, unit=UnitFactory()) for _ in range(4)]
    events_staff.event_organizer_add(event=other, user=world["stranger"])
    base = f"/api/v1/events/{event.pk}/bracket"
    broken = api(world["organizer"]).post(f"{base}/break/", {"size": 4}, format="json")
    assert broken.status_code == 200, broken.content
    stage = KnockoutStage.objects.get(event=event)
    seeds = list(stage.entrants.order_by("seed").values_list("seed", "team_id"))
    b = api(world["stranger"])
    for action, body in (
        ("seeds", {"entrants": [t.pk for t in reversed(world["teams"])]}),
        ("replace", {"seed": 1}),
        ("confirm", {}),
        ("cancel", {}),
    ):
        assert b.post(f"{base}/{action}/", body, format="json").status_code == 403, action
    assert b.post(f"{base}/matches/1-1-1/length/", {"deals": 3}, format="json").status_code in (
        403,
        404,
    )
    refused = api(world["organizer"]).post(
        f"{base}/seeds/", {"entrants": [t.pk for t in theirs]}, format="json"
    )
    assert refused.status_code == 400
    assert list(stage.entrants.order_by("seed").values_list("seed", "team_id")) == seeds
    assert KnockoutStage.objects.filter(event=other).count() == 0
