"""Duplicate events through their organizers' pages, the API, the admin, the deal sheets (发牌单),
offline result entry, and the command line."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from engine.duplicate import dealt_deals
from games.models import Match, Table
from tests.games.factories import UserFactory
from tests.tournaments.duplicate.test_duplicate import duplicate_event, play_all, start
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import staff as events_staff
from tournaments.models import Event, Round
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db


def organizer_of(event: Event) -> Client:
    user = UserFactory()
    events_staff.event_organizer_add(event=event, user=user)
    client = Client()
    client.force_login(user)
    return client


def test_an_organizer_sets_the_option_on_the_dashboard_and_the_api_shows_it() -> None:
    event = EventFactory(game="daguai")
    client = organizer_of(event)
    page = client.get(reverse("tournaments:dashboard", args=[event.pk]))
    assert page.status_code == 200 and "复式" in page.content.decode()
    response = client.post(
        reverse("tournaments:duplicate_set", args=[event.pk]),
        {"duplicate": "1", "scoring": "matchpoints"},
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.duplicate and event.duplicate_scoring == "matchpoints"
    data = client.get(f"/api/v1/events/{event.pk}/").json()
    assert data["duplicate"] is True and data["duplicate_scoring"] == "matchpoints"
    # the API: organizers only, bad input answered 4xx with a message
    url = f"/api/v1/events/{event.pk}/duplicate/"
    answer = client.put(
        url, {"duplicate": False, "scoring": "datum"}, content_type="application/json"
    )
    assert answer.status_code == 200 and answer.json()["duplicate"] is False
    bad = client.put(url, {"duplicate": True, "scoring": "best"}, content_type="application/json")
    assert bad.status_code == 400 and "datum" in json.dumps(bad.json())
    assert client.put(url, [1], content_type="application/json").status_code == 400
    stranger = Client()
    stranger.force_login(UserFactory())
    refused = stranger.put(url, {"duplicate": True}, content_type="application/json")
    assert refused.status_code in (403, 404)
    assert stranger.post(reverse("tournaments:duplicate_set", args=[event.pk]),
                         {"duplicate": "1"}).status_code == 403  # fmt: skip
    event.refresh_from_db()
    assert event.duplicate is False


def test_the_option_does_not_change_once_a_round_has_started() -> None:
    event, round, _users = duplicate_event("xiaoluzi", 1)
    start(round)
    client = organizer_of(event)
    answer = client.put(
        f"/api/v1/events/{event.pk}/duplicate/",
        {"duplicate": False, "scoring": "datum"},
        content_type="application/json",
    )
    with translation.override("zh-hans"):  # the site answers in Chinese unless asked
        refusal = gettext("A round has started: the event cannot change to or from duplicate.")
    assert answer.status_code == 400 and answer.json()["detail"] == refusal
    assert Event.objects.get(pk=event.pk).duplicate is True
    # the same in the admin: the event's form refuses it
    admin = UserFactory(is_staff=True, is_superuser=True)
    c = Client()
    c.force_login(admin)
    page = c.get(reverse("admin:tournaments_event_change", args=[event.pk]))
    assert page.status_code == 200 and 'name="duplicate"' in page.content.decode()
    from tournaments.admin.event_form import event_form_for

    form_class = event_form_for(event.game)
    form = form_class(instance=event, data={})
    form.is_valid()
    event.duplicate = False
    from django.core.exceptions import ValidationError

    with translation.override("en"), pytest.raises(ValidationError, match="started"):
        event.clean()


def test_deal_sheets_show_each_seats_cards_as_cards_to_organizers_only() -> None:
    event, round, _users = duplicate_event("shanghai_doudizhu", 2, deals=2)
    url = reverse("tournaments:deal_sheets", args=[event.pk, round.number])
    assert Client().get(url).status_code == 302  # log in first
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(url).status_code == 403
    client = organizer_of(event)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    round.refresh_from_db()
    assert round.deal_seed is not None  # drawn for the sheets, and the tables will deal it
    deals = dealt_deals("shanghai_doudizhu", round.deal_seed, 2)
    assert html.count('class="deal-sheet"') == 2 + 2  # and two spare deals (all pass: again)
    assert html.count('class="card-face') == 4 * 108  # every card of both packs, each deal
    assert "底牌" in html and "♠" in html
    assert not re.search(r"\b(?:10|[2-9JQKA])[SHDC]\b|\b[SB]J\b", html)  # no card codes
    matches = start(round)
    assert {m.seed for m in matches} == {round.deal_seed}
    assert deals[0].seed == matches[0].deals.get(number=1).seed
    # an event that is not duplicate has no deal sheets
    plain = EventFactory()
    assert (
        organizer_of(plain).get(reverse("tournaments:deal_sheets", args=[plain.pk, 1])).status_code
        == 404
    )


def test_an_offline_duplicate_table_records_which_deal_each_entered_deal_was() -> None:
    event = EventFactory(game="daguai", duplicate=True, table_mode=Table.Mode.OFFLINE)
    for unit in (UnitFactory(), UnitFactory()):
        TeamFactory(event=event, unit=unit)
    referee, checker = UserFactory(), UserFactory()
    events_staff.event_organizer_add(event=event, user=referee)
    events_staff.event_organizer_add(event=event, user=checker)
    round = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round)
    round.refresh_from_db()
    assert round.deal_seed is not None
    pairing = round.pairings.get()
    submission = result_submit(
        pairing=pairing,
        user=referee,
        first_dealer=0,
        deals=[{"finish": [0, 2, 4]}, {"finish": [1, 3, 5]}],
    )
    result_confirm(submission=submission, user=checker)
    match = Match.objects.get(table=pairing.table)
    seeds = [d.seed for d in dealt_deals("daguai", round.deal_seed, 2)]
    assert list(match.deals.order_by("number").values_list("seed", flat=True)) == seeds
    assert match.seed == round.deal_seed
    page = Client()
    page.force_login(referee)
    entry = page.get(reverse("tournaments:table_result", args=[event.pk, pairing.pk]))
    assert entry.status_code == 200
    assert "duplicate-entry" in entry.content.decode()
    assert (
        reverse("tournaments:deal_sheets", args=[event.pk, round.number]) in entry.content.decode()
    )


def test_the_standings_page_states_the_duplicate_scoring() -> None:
    event, round, _users = duplicate_event("xiaoluzi", 2, deals=1)
    play_all(start(round))
    html = Client().get(reverse("tournaments:standings", args=[event.pk]) + "?kind=player")
    text = html.content.decode()
    assert html.status_code == 200 and "duplicate-note" in text
    api = Client().get(f"/api/v1/events/{event.pk}/standings/?kind=player").json()
    assert "duplicate" in api["columns"] and all("duplicate" in r for r in api["rows"])
    assert all(isinstance(r["points"], int) for r in api["rows"])


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), str(exc)
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("game", "size"), [("daguai", ("--teams", "4")),
                                           ("xiaoluzi", ("--players", "8"))])  # fmt: skip
def test_simulate_event_plays_a_duplicate_event(game: str, size: tuple[str, str]) -> None:
    from tests.workers import celery_workers

    with celery_workers(1):
        code, out, err = run(
            "simulate_event", "--game", game, "--duplicate", *size, "--rounds", "1",
            "--deals", "2", "--json", "--timeout", "240",
        )  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert set(summary) >= {"event", "rounds", "matches", "deals", "actions", "seconds"}
    event = Event.objects.get(pk=summary["event"])
    assert event.duplicate
    round = Round.objects.get(event=event)
    assert round.deal_seed is not None
    seeds = set(Match.objects.filter(table__pairing__round=round).values_list("seed", flat=True))
    assert seeds == {round.deal_seed}
    rows = json.loads(
        json.dumps(Client().get(f"/api/v1/events/{event.pk}/standings/?kind=player").json())
    )["rows"]
    assert rows and all("duplicate" in r and "points" in r for r in rows)


def test_simulate_event_refuses_bad_duplicate_input() -> None:
    assert run("simulate_event", "--duplicate", "--teams", "1")[0] == 2


def test_the_result_form_of_a_duplicate_table_starts_from_the_deal_sheets_first_dealer() -> None:
    # Issue 26: the deal sheet said "第一副的庄家是 5 号座位" while the form defaulted 首局庄家 to
    # seat 0, and the preview scored deal 1 with the wrong dealer. (Issue 27: people count the
    # seats from 1 on the sheets and forms; the form's values stay the stored seats.)
    from engine.duplicate import first_dealer

    event = EventFactory(game="daguai", duplicate=True, table_mode=Table.Mode.OFFLINE)
    for unit in (UnitFactory(), UnitFactory()):
        TeamFactory(event=event, unit=unit)
    referee = UserFactory()
    events_staff.event_organizer_add(event=event, user=referee)
    round = draw_services.round_create_paired(event=event, confirm=True)
    # a seed whose first dealer is not seat 0, the form's old default
    seed = next(s for s in range(1, 100) if first_dealer("daguai", s) not in (None, 0))
    Round.objects.filter(pk=round.pk).update(deal_seed=seed)
    round.refresh_from_db()
    rounds_services.round_start(round=round)
    client = Client()
    client.force_login(referee)
    sheets = client.get(reverse("tournaments:deal_sheets", args=[event.pk, round.number]))
    round.refresh_from_db()
    assert round.deal_seed == seed
    dealer = first_dealer("daguai", seed)
    assert dealer is not None
    assert f"第一副的庄家是 {dealer + 1} 号座位" in sheets.content.decode()  # seats from 1
    pairing = round.pairings.get()
    page = client.get(reverse("tournaments:table_result", args=[event.pk, pairing.pk]))
    chosen = re.search(
        r'<select name="first_dealer"[^>]*>.*?<option value="(\d)" selected',
        page.content.decode(),
        re.S,
    )
    assert chosen is not None and int(chosen.group(1)) == dealer
