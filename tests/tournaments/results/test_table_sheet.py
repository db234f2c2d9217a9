"""A table that scores itself (issue 30): an offline table's seated players enter each deal on
their phones, a player of another side confirms or disputes it, and the match is recorded (the
standings follow) when its last deal is confirmed; the event's staff keep every power. For the
three games: 大怪路子 in a team event, 小路子 and 上海斗地主 in individual events."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from engine.registry import get_game
from games.models import Match, Player, Table
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import Event, EventReferee, Pairing, ResultSubmission, SheetDeal
from tournaments.results import table_sheet
from tournaments.rounds import services as rounds_services
from tournaments.standings.selectors import event_standings_rows

pytestmark = pytest.mark.django_db

GAMES = ("daguai", "xiaoluzi", "shanghai_doudizhu")


def deal_of(game: str, n: int = 1) -> dict[str, Any]:
    """A deal of the game's sheet in which seat 0 (or its side) does well."""
    if game == "daguai":
        return {"finish": [0, 2, 4]}
    if game == "xiaoluzi":
        return {"mode": "none", "finish": [0, 1, 2], "played": [8, 8, 8, 5]}
    return {"landlord": 0, "bid": 2, "winner": "landlord"}


def other_deal(game: str) -> dict[str, Any]:
    if game == "daguai":
        return {"finish": [1, 3, 5]}
    if game == "xiaoluzi":
        return {"mode": "none", "finish": [1, 0, 2], "played": [8, 8, 8, 5]}
    return {"landlord": 1, "bid": 3, "winner": "farmers"}


@dataclass
class Hall:
    event: Event
    pairing: Pairing
    other: Pairing  # another table of the same round
    organizer: Any
    referee: Any
    users: dict[int, Any]  # seat -> the user of the player seated there

    def access(self, user: Any, pairing: Pairing | None = None) -> table_sheet.SheetAccess:
        return table_sheet.sheet_access(pairing or self.pairing, user)

    def opponent(self, seat: int) -> Any:
        """A user at a seat of another side than ``seat``."""
        game = get_game(self.event.game)
        for s, user in self.users.items():
            if s == seat:
                continue
            if self.event.teams.exists() and game.side_of(s) == game.side_of(seat):
                continue
            return user
        raise AssertionError("no opponent")

    def partner(self, seat: int) -> Any:
        game = get_game(self.event.game)
        return next(
            u for s, u in self.users.items() if s != seat and game.side_of(s) == game.side_of(seat)
        )


def hall(game: str, *, deals: int = 1) -> Hall:
    users = get_user_model().objects
    organizer = users.create_user(username=f"org-{game}")
    referee = users.create_user(username=f"ref-{game}")
    individual = game != "daguai"
    event = EventFactory(
        game=game,
        table_mode=Table.Mode.OFFLINE,
        deals_per_match=deals,
        **({"pairing_format": "swiss"} if individual else {}),
    )
    events_staff.event_organizer_add(event=event, user=organizer)
    EventReferee.objects.create(event=event, user=referee, added_by=organizer)
    if individual:
        seats = get_game(game).seat_count
        players = [PlayerFactory() for _ in range(seats * 2)]
        for i, p in enumerate(players):
            events_entries.membership_ensure(player=p, unit=UnitFactory(name=f"部门{game}{i}"))
        events_entries.registration_ensure(event=event, players=players)
    else:
        for _ in range(4):
            TeamFactory(event=event, unit=UnitFactory())
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=organizer)
    rounds_services.round_start(round=round_, user=organizer)
    pairing, other = list(round_.pairings.order_by("number"))[:2]
    seated: dict[int, Any] = {}
    for p in (pairing, other):
        for s in p.table.seats.select_related("player"):
            user = users.create_user(username=f"{game}-{p.number}-{s.seat}")
            Player.objects.filter(pk=s.player_id).update(user=user)
            if p is pairing:
                seated[s.seat] = user
    return Hall(event, pairing, other, organizer, referee, seated)


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> str:
    return str(request.param)


# --- Services ------------------------------------------------------------------------------


def test_a_player_enters_another_side_confirms_and_the_match_is_recorded(game: str) -> None:
    h = hall(game)
    entered, created = table_sheet.deal_enter(
        access=h.access(h.users[0]), number=1, deal=deal_of(game), first_dealer=0
    )
    assert created and entered.status == SheetDeal.Status.PENDING
    assert not Match.objects.filter(table=h.pairing.table).exists()  # nothing recorded yet
    state = table_sheet.sheet_state(h.access(h.opponent(0)))
    assert state["deals"][0]["what"]  # the game's words
    assert state["deals"][0]["can_confirm"] and not state["recorded"]
    kind = "player" if game != "daguai" else "team"
    assert not any(r.points for r in event_standings_rows(event=h.event, kind=kind))
    table_sheet.deal_confirm(access=h.access(h.opponent(0)), number=1)
    result = ResultSubmission.objects.get(pairing=h.pairing)
    assert result.status == ResultSubmission.Status.CONFIRMED
    assert result.deals == [deal_of(game)]
    assert Match.objects.get(table=h.pairing.table).status == Match.Status.FINISHED
    h.pairing.refresh_from_db()
    assert h.pairing.tally.match_id is not None  # the tallies follow the recorded match
    rows = event_standings_rows(event=h.event, kind=kind)
    assert any(r.points for r in rows)  # the standings follow
    state = table_sheet.sheet_state(h.access(h.users[0]))
    assert state["recorded"] and state["next"] is None


def test_the_match_is_recorded_only_after_its_last_deal(game: str) -> None:
    h = hall(game, deals=2)
    me, them = h.users[0], h.opponent(0)
    table_sheet.deal_enter(access=h.access(me), number=1, deal=deal_of(game), first_dealer=0)
    table_sheet.deal_confirm(access=h.access(them), number=1)
    assert not ResultSubmission.objects.filter(pairing=h.pairing).exists()
    progress = table_sheet.tables_progress([h.pairing, h.other])
    assert progress[h.pairing.pk].entered == 1 and progress[h.pairing.pk].confirmed == 1
    assert h.other.pk not in progress
    table_sheet.deal_enter(access=h.access(them), number=2, deal=other_deal(game))
    assert not ResultSubmission.objects.filter(pairing=h.pairing).exists()
    table_sheet.deal_confirm(access=h.access(me), number=2)
    result = ResultSubmission.objects.get(pairing=h.pairing)
    assert result.deals == [deal_of(game), other_deal(game)]
    assert result.submitted_by == them and result.reviewed_by == me


def test_a_resend_with_the_same_client_id_records_the_deal_once(game: str) -> None:
    h = hall(game, deals=2)
    client = uuid.uuid4()
    kwargs = {"number": 1, "deal": deal_of(game), "first_dealer": 0, "client_id": str(client)}
    first, created = table_sheet.deal_enter(access=h.access(h.users[0]), **kwargs)
    again, created_again = table_sheet.deal_enter(access=h.access(h.users[0]), **kwargs)
    assert created and not created_again and again.pk == first.pk
    assert SheetDeal.objects.filter(pairing=h.pairing).count() == 1


def test_the_second_phone_hears_what_the_first_entered(game: str) -> None:
    h = hall(game, deals=2)
    table_sheet.deal_enter(
        access=h.access(h.users[0]), number=1, deal=deal_of(game), first_dealer=0
    )
    name = h.pairing.table.seats.get(seat=0).player.name
    with pytest.raises(ConflictError) as refused:
        table_sheet.deal_enter(
            access=h.access(h.opponent(0)), number=1, deal=other_deal(game), first_dealer=0
        )
    assert name in refused.value.message and refused.value.message.strip().endswith(
        table_sheet.sheet_state(h.access(h.users[0]))["deals"][0]["what"]
    )
    assert refused.value.extra["entered"]["deal"] == deal_of(game)


def test_who_may_confirm(game: str) -> None:
    h = hall(game, deals=2)
    table_sheet.deal_enter(
        access=h.access(h.users[0]), number=1, deal=deal_of(game), first_dealer=0
    )
    with pytest.raises(NotAllowedError):  # not by whoever entered it
        table_sheet.deal_confirm(access=h.access(h.users[0]), number=1)
    if game == "daguai":  # nor by a teammate
        with pytest.raises(NotAllowedError):
            table_sheet.deal_confirm(access=h.access(h.partner(0)), number=1)
    with pytest.raises(NotAllowedError):  # a player of another table reaches nothing
        other_user = h.other.table.seats.first().player.user
        table_sheet.sheet_access(h.pairing, other_user)
    table_sheet.deal_confirm(access=h.access(h.referee), number=1)  # the staff may
    assert SheetDeal.objects.get().reviewed_by == h.referee


def test_a_dispute_flags_the_table_and_the_referee_settles_it(game: str) -> None:
    h = hall(game)
    table_sheet.deal_enter(
        access=h.access(h.users[0]), number=1, deal=deal_of(game), first_dealer=0
    )
    table_sheet.deal_dispute(access=h.access(h.opponent(0)), number=1, reason="错了")
    assert table_sheet.tables_progress([h.pairing])[h.pairing.pk].disputed
    with pytest.raises(ConflictError):  # the players wait for the referee
        table_sheet.deal_confirm(access=h.access(h.users[0]), number=1)
    # the referee corrects it: a new version, confirmed by a player
    table_sheet.deal_enter(
        access=h.access(h.referee), number=1, deal=other_deal(game), first_dealer=0
    )
    table_sheet.deal_confirm(access=h.access(h.users[0]), number=1)
    versions = list(SheetDeal.objects.order_by("version").values_list("status", "note"))
    assert versions == [("superseded", "错了"), ("confirmed", "")]
    assert ResultSubmission.objects.get(pairing=h.pairing).deals == [other_deal(game)]
    assert not table_sheet.tables_progress([h.pairing])[h.pairing.pk].disputed


def test_bad_deals_are_refused_with_a_reason(game: str) -> None:
    h = hall(game, deals=2)
    access = h.access(h.users[0])
    with pytest.raises(ApplicationError):
        table_sheet.deal_enter(access=access, number=2, deal=deal_of(game), first_dealer=0)
    with pytest.raises(ApplicationError):
        table_sheet.deal_enter(access=access, number=1, deal={"nonsense": 1}, first_dealer=0)
    with pytest.raises(ApplicationError):
        table_sheet.deal_enter(access=access, number=1, deal=deal_of(game), client_id="x")
    assert not SheetDeal.objects.exists()


def test_the_organizer_keeps_the_dashboard_entry(game: str) -> None:
    """A result entered and confirmed from the dashboard closes the players' sheet."""
    from tournaments.results.services import result_confirm, result_submit

    h = hall(game)
    sub = result_submit(pairing=h.pairing, user=h.organizer, first_dealer=0, deals=[deal_of(game)])
    result_confirm(submission=sub, user=h.referee)
    with pytest.raises(ConflictError):
        table_sheet.deal_enter(
            access=h.access(h.users[0]), number=1, deal=deal_of(game), first_dealer=0
        )


# --- Pages and the API ----------------------------------------------------------------------


def _client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_who_reaches_the_page_and_the_api(game: str) -> None:
    h = hall(game)
    table = h.pairing.table_id
    page, api = f"/tables/{table}/sheet/", f"/api/v1/tables/{table}/sheet/"
    other_event = hall_other_event()
    stranger = h.other.table.seats.first().player.user
    for user in (h.users[0], h.organizer, h.referee):
        assert _client(user).get(page).status_code == 200
        assert _client(user).get(api).status_code == 200
    for user in (stranger, other_event):
        assert _client(user).get(page).status_code == 403
        assert _client(user).get(api).status_code == 403
        posted = _client(user).post(
            api,
            {"action": "enter", "number": 1, "deal": deal_of(game)},
            content_type="application/json",
        )
        assert posted.status_code == 403
    assert _client(None).get(page).status_code == 302  # to the login page, then back
    assert _client(None).get(api).status_code == 403
    assert _client(h.users[0]).get("/tables/999999/sheet/").status_code == 404
    assert _client(h.users[0]).get("/api/v1/tables/999999/sheet/").status_code == 404
    online = Table.objects.create(name="线上")
    assert _client(h.organizer).get(f"/api/v1/tables/{online.pk}/sheet/").status_code == 404
    assert not SheetDeal.objects.exists()


def hall_other_event() -> Any:
    """A user seated at a table of another event."""
    user = get_user_model().objects.create_user(username="elsewhere")
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round_)
    seat = round_.pairings.get().table.seats.first()
    Player.objects.filter(pk=seat.player_id).update(user=user)
    return user


def test_the_api_enters_resends_confirms_and_refuses(game: str) -> None:
    h = hall(game)
    api = f"/api/v1/tables/{h.pairing.table_id}/sheet/"
    me, them = _client(h.users[0]), _client(h.opponent(0))
    body = {"action": "enter", "number": 1, "deal": deal_of(game), "first_dealer": 0}
    body["client_id"] = str(uuid.uuid4())
    first = me.post(api, body, content_type="application/json")
    assert first.status_code == 201, first.content
    again = me.post(api, body, content_type="application/json")
    assert again.status_code == 200 and again.json()["deal"]["version"] == 1
    clash = them.post(
        api,
        {"action": "enter", "number": 1, "deal": other_deal(game), "client_id": str(uuid.uuid4())},
        content_type="application/json",
    )
    assert clash.status_code == 409 and clash.json()["entered"]["deal"] == deal_of(game)
    bad = them.post(api, {"action": "fly", "number": 1}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["detail"]
    mine = me.post(api, {"action": "confirm", "number": 1}, content_type="application/json")
    assert mine.status_code == 403 and mine.json()["detail"]
    done = them.post(api, {"action": "confirm", "number": 1}, content_type="application/json")
    assert done.status_code == 200 and done.json()["state"]["recorded"]
    assert SheetDeal.objects.count() == 1
    assert ResultSubmission.objects.filter(pairing=h.pairing).count() == 1


def test_the_form_picks_are_read_as_the_referee_form_reads_them() -> None:
    h = hall("daguai")
    api = f"/api/v1/tables/{h.pairing.table_id}/sheet/"
    fields = {"first_dealer": "0", "d1_1": "0", "d1_2": "2", "d1_3": "4", "d1_escape": ""}
    answer = _client(h.users[1]).post(
        api, {"action": "enter", "number": 1, "picks": fields}, content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    assert SheetDeal.objects.get().deal == {"finish": [0, 2, 4]}
    missing = _client(h.users[1]).post(
        api, {"action": "enter", "number": 1, "picks": {}}, content_type="application/json"
    )
    assert missing.status_code in (400, 409)


def test_the_page_shows_names_to_tap_and_the_dashboard_the_progress() -> None:
    h = hall("daguai", deals=2)
    table_sheet.deal_enter(
        access=h.access(h.users[0]), number=1, deal=deal_of("daguai"), first_dealer=0
    )
    page = _client(h.users[1]).get(f"/tables/{h.pairing.table_id}/sheet/").content.decode()
    for s in h.pairing.table.seats.select_related("player"):
        assert s.player.name in page
    assert 'type="radio"' in page and "sheet-config" in page
    dashboard = _client(h.organizer).get(f"/events/{h.event.pk}/manage/").content.decode()
    assert "sheet-progress" in dashboard


def test_the_service_worker_and_the_manifest() -> None:
    sw = Client().get("/sw.js")
    assert sw.status_code == 200 and sw["Service-Worker-Allowed"] == "/"
    assert "javascript" in sw["Content-Type"] and b"caches" in sw.content
    manifest = Client().get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.json()["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest.json()["icons"]}
    assert {"192x192", "512x512"} <= sizes


def test_the_printed_sheet_and_the_players_page_lead_to_the_score_page() -> None:
    h = hall("xiaoluzi")
    link = f"/tables/{h.pairing.table_id}/sheet/"
    sheet = (
        _client(h.organizer)
        .get(f"/events/{h.event.pk}/manage/tables/{h.pairing.pk}/sheet/")
        .content.decode()
    )
    assert link in sheet and "<svg" in sheet  # the QR code of the score page
    sheets = (
        _client(h.organizer)
        .get(f"/events/{h.event.pk}/manage/rounds/{h.pairing.round.number}/sheets/")
        .content.decode()
    )
    assert link in sheets and f"/tables/{h.other.table_id}/sheet/" in sheets
    me = _client(h.users[0]).get("/accounts/me/").content.decode()
    assert 'id="current-sheet"' in me and link in me


def test_the_dashboard_counts_the_deals_of_each_table() -> None:
    h = hall("shanghai_doudizhu", deals=3)
    me, them = h.access(h.users[0]), h.access(h.opponent(0))
    table_sheet.deal_enter(access=me, number=1, deal=deal_of("shanghai_doudizhu"), first_dealer=0)
    table_sheet.deal_confirm(access=them, number=1)
    table_sheet.deal_enter(access=me, number=2, deal=other_deal("shanghai_doudizhu"))
    client = _client(h.organizer)
    client.cookies["django_language"] = "en"
    dashboard = client.get(f"/events/{h.event.pk}/manage/").content.decode()
    assert f"Table {h.pairing.number}</a>: deal 2 of 3 entered, 1 confirmed" in dashboard
    table_sheet.deal_dispute(access=them, number=2)
    dashboard = client.get(f"/events/{h.event.pk}/manage/").content.decode()
    assert "disputed: a referee is called" in dashboard


def test_the_preview_says_what_a_deal_would_record_and_writes_nothing(game: str) -> None:
    h = hall(game)
    api = f"/api/v1/tables/{h.pairing.table_id}/sheet/"
    body = {"action": "preview", "number": 1, "deal": deal_of(game), "first_dealer": 0}
    answer = _client(h.users[0]).post(api, body, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["preview"]["what"] and answer.json()["preview"]["finished"]
    bad = dict(body, deal={"nonsense": True})
    refused = _client(h.users[0]).post(api, bad, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["detail"]
    assert not SheetDeal.objects.exists()


def test_a_referee_corrects_a_recorded_match_and_it_is_recorded_again() -> None:
    h = hall("daguai")
    table_sheet.deal_enter(
        access=h.access(h.users[0]), number=1, deal=deal_of("daguai"), first_dealer=0
    )
    table_sheet.deal_confirm(access=h.access(h.opponent(0)), number=1)
    first = Match.objects.get(table=h.pairing.table)
    assert first.side_points
    table_sheet.deal_enter(
        access=h.access(h.referee), number=1, deal=other_deal("daguai"), first_dealer=0
    )
    table_sheet.deal_confirm(access=h.access(h.organizer), number=1)
    versions = list(
        ResultSubmission.objects.filter(pairing=h.pairing)
        .order_by("version")
        .values_list("status", "deals")
    )
    assert versions == [("superseded", [deal_of("daguai")]), ("confirmed", [other_deal("daguai")])]
    again = Match.objects.get(table=h.pairing.table)
    assert again.side_points != first.side_points  # the other team won this time
    history = table_sheet.sheet_state(h.access(h.users[0]))["history"]
    assert [(v["version"], v["status"]) for v in history] == [(1, "superseded"), (2, "confirmed")]


def test_the_referees_page_shows_each_tables_progress() -> None:
    h = hall("daguai", deals=2)
    table_sheet.deal_enter(
        access=h.access(h.users[0]), number=1, deal=deal_of("daguai"), first_dealer=0
    )
    client = _client(h.referee)
    client.cookies["django_language"] = "en"
    page = client.get(f"/events/{h.event.pk}/referee/").content.decode()
    assert f"/tables/{h.pairing.table_id}/sheet/" in page
    assert "deal 1 of 2 entered, 0 confirmed" in page


def test_the_score_page_shows_the_rounds_clock(game: str) -> None:
    """A table's players see on their score page how long the round has left, as every other
    page of the round shows it (the clock's own script counts it down)."""
    from tournaments.rounds import clock as rounds_clock

    h = hall(game)
    page = f"/tables/{h.pairing.table_id}/sheet/"
    assert "data-round-clock" not in _client(h.users[0]).get(page).content.decode()
    Event.objects.filter(pk=h.event.pk).update(round_minutes=40)
    rounds_clock.clock_start(round=h.pairing.round, user=h.organizer)
    html = _client(h.users[0]).get(page).content.decode()
    assert "data-round-clock" in html and "clock.js" in html
    assert 'data-state="running"' in html
