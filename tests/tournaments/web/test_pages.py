"""Public pages and organizer pages render for the right people, and bad input on them becomes a
message, never a server error."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, ResultSubmission, Round, Team
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for _ in range(5):
        TeamFactory(event=event, unit=UnitFactory())
    organizer, second = UserFactory(), UserFactory()
    event_organizer_add(event=event, user=organizer)
    event_organizer_add(event=event, user=second)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    pairing = round_.pairings.first()
    s = result_submit(
        pairing=pairing,
        user=organizer,
        first_dealer=0,
        deals=[{"finish": [0, 2, 4]}, {"finish": [1, 3, 5]}, {"finish": [0, 2, 4]}],
    )
    result_confirm(submission=s, user=second)
    return {
        "event": event,
        "round": round_,
        "pairing": pairing,
        "organizer": organizer,
        "second": second,
    }


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def test_public_pages_render_without_login(world) -> None:
    event, pairing = world["event"], world["pairing"]
    c = _client()
    for url in [
        f"/events/{event.pk}/",
        f"/events/{event.pk}/rounds/1/",
        f"/events/{event.pk}/standings/",
        f"/events/{event.pk}/standings/?kind=player",
        f"/events/{event.pk}/standings/?kind=unit",
        f"/events/{event.pk}/projector/",
        f"/teams/{pairing.team_a_id}/",
        f"/events/{event.pk}/players/{pairing.team_a.members.first().player_id}/",
        f"/meets/{event.meet.slug}/",
        f"/meets/{event.meet.slug}/standings.csv",
    ]:
        response = c.get(url)
        assert response.status_code == 200, url
    page = c.get(f"/teams/{pairing.team_a_id}/").content.decode()
    assert "<svg" in page and "polyline" in page  # the level ladder
    standings = c.get(f"/events/{event.pk}/standings/").content.decode()
    assert pairing.team_a.name in standings and 'http-equiv="refresh"' in standings
    csv = c.get(f"/events/{event.pk}/standings.csv?kind=player")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")


def test_private_event_pages_are_hidden(world) -> None:
    Event.objects.filter(pk=world["event"].pk).update(is_private=True)
    assert _client().get(f"/events/{world['event'].pk}/standings/").status_code == 404
    assert (
        _client(world["organizer"]).get(f"/events/{world['event'].pk}/standings/").status_code
        == 200
    )


def test_dashboard_is_for_organizers(world) -> None:
    url = f"/events/{world['event'].pk}/manage/"
    assert _client().get(url).status_code == 302
    assert _client(UserFactory()).get(url).status_code == 403
    page = _client(world["organizer"]).get(url)
    assert page.status_code == 200
    assert "1 / 2" in page.content.decode()  # one of two tables finished


def test_round_controls_report_refusals_as_messages(world) -> None:
    event = world["event"]
    c = _client(world["organizer"])
    response = c.post(f"/events/{event.pk}/manage/rounds/pair/", follow=True)
    assert response.status_code == 200
    assert "第1轮还有未打完的牌桌" in response.content.decode()
    # Forcing asks for a confirmation and a reason, which goes into the round's log.
    for missing in ({"reason": "缺人"}, {"confirm": "1"}, {"confirm": "1", "reason": " "}):
        response = c.post(
            f"/events/{event.pk}/manage/rounds/complete/",
            {"round": world["round"].pk, "force": "1", **missing},
            follow=True,
        )
        assert "写明原因" in response.content.decode()
        world["round"].refresh_from_db()
        assert world["round"].status == "running"
    response = c.post(
        f"/events/{event.pk}/manage/rounds/complete/",
        {"round": world["round"].pk, "force": "1", "confirm": "1", "reason": "第2桌停电"},
        follow=True,
    )
    assert response.status_code == 200
    world["round"].refresh_from_db()
    assert world["round"].status == "completed"
    assert "第2桌停电" in world["round"].log.get(action="completed").detail
    c.post(f"/events/{event.pk}/manage/rounds/pair/")
    draft = event.rounds.get(number=2)
    teams = list(Team.objects.filter(event=event).values_list("pk", flat=True))
    response = c.post(
        f"/events/{event.pk}/manage/rounds/tables/",
        {"round": draft.pk, "count": "2", "a1": teams[0], "b1": teams[0]},
        follow=True,
    )
    assert "一支队伍在一轮中只能坐一张桌。" in response.content.decode()
    response = c.post(
        f"/events/{event.pk}/manage/rounds/tables/",
        {
            "round": draft.pk,
            "count": "2",
            "a1": teams[0],
            "b1": teams[1],
            "mode1": "online",
            "a2": teams[2],
            "b2": teams[3],
            "mode2": "offline",
        },
        follow=True,
    )
    assert draft.pairings.count() == 2
    assert _client(UserFactory()).post(f"/events/{event.pk}/manage/rounds/pair/").status_code == 403


def test_referee_pages_enter_confirm_and_refuse_the_same_person(world) -> None:
    event = world["event"]
    other = world["round"].pairings.exclude(pk=world["pairing"].pk).first()
    url = f"/events/{event.pk}/manage/tables/{other.pk}/result/"
    c = _client(world["organizer"])
    assert c.get(url).status_code == 200
    assert c.get(f"/events/{event.pk}/manage/tables/{other.pk}/sheet/").status_code == 200
    assert c.get(f"/events/{event.pk}/manage/rounds/1/sheets/").status_code == 200
    bad = c.post(url, {"action": "submit", "first_dealer": "0", "deals": "0 2 4 1"})
    assert bad.status_code == 200 and not ResultSubmission.objects.filter(pairing=other).exists()
    bad = c.post(url, {"action": "submit", "first_dealer": "x", "deals": "0 2 4"})
    assert "1 到 6" in bad.content.decode()  # the form error, in Chinese by default
    c.post(url, {"action": "submit", "first_dealer": "0", "deals": "0 2 4\n1 3 5\n0 2 4"})
    submission = ResultSubmission.objects.get(pairing=other)
    same = c.post(url, {"action": "confirm", "submission": submission.pk}, follow=True)
    assert "成绩须由另一人审核：这一版是你自己录入的。" in same.content.decode()
    _client(world["second"]).post(url, {"action": "confirm", "submission": submission.pk})
    submission.refresh_from_db()
    assert submission.status == "confirmed"


def test_import_page_previews_then_imports(world) -> None:
    event = EventFactory()
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    c = _client(organizer)
    url = f"/events/{event.pk}/manage/import/"
    from django.core.files.uploadedfile import SimpleUploadedFile

    bad = SimpleUploadedFile("p.csv", "姓名,部门\n张伟,研发\n张伟,研发\n".encode())
    page = c.post(url, {"step": "preview", "file": bad, "create_units": "1"}).content.decode()
    assert "选手重复：研发的张伟已出现在第2行" in page
    good = SimpleUploadedFile("p.csv", "姓名,部门\n甲,研发\n乙,研发\n丙,研发\n".encode())
    page = c.post(url, {"step": "preview", "file": good, "create_units": "1"}).content.decode()
    assert "研发一队" in page and not event.teams.exists()
    c.post(url, {"step": "import"})
    assert list(event.teams.values_list("name", flat=True)) == ["研发一队"]
    wrong = SimpleUploadedFile("p.pdf", b"%PDF")
    assert "csv" in c.post(url, {"step": "preview", "file": wrong}).content.decode()


def _table(response) -> str:
    """The standings table and its page links (the rest of a page carries a fresh CSRF token)."""
    html = response.content.decode()
    start = html.index('<table class="standings">')
    return html[start : html.index('<p class="meta">', start)]


def test_standings_page_shows_a_new_result_at_once(world) -> None:
    # The rendered table is reused between requests; a confirmed result must not wait for it.
    event, round_ = world["event"], world["round"]
    c = _client()
    url = f"/events/{event.pk}/standings/"
    before = _table(c.get(url))
    other = round_.pairings.exclude(pk=world["pairing"].pk).first()
    assert _table(c.get(url)) == before
    s = result_submit(
        pairing=other,
        user=world["organizer"],
        first_dealer=0,
        deals=[{"finish": [1, 3, 5]}] * 3,
    )
    result_confirm(submission=s, user=world["second"])
    after = _table(c.get(url))
    assert after != before
    points = {
        row["team"]: row["points"]
        for row in c.get(f"/api/v1/events/{event.pk}/standings/?kind=team").json()["rows"]
    }
    assert points[other.team_b.name] > 0
    assert f">{points[other.team_b.name]}</td>" in after


def test_standings_page_follows_the_language(world) -> None:
    # The reused table is kept per language: switching must not serve the other one's headers.
    url = f"/events/{world['event'].pk}/standings/"
    chinese = _client().get(url).content.decode()
    c = _client()
    c.cookies["django_language"] = "en"
    english = c.get(url).content.decode()
    assert "Head-to-head" in english and "Head-to-head" not in chinese
    assert english.count("<tr>") == chinese.count("<tr>")
    assert "Head-to-head" not in _client().get(url).content.decode()


def test_standings_page_pages_through_many_teams() -> None:
    event = EventFactory()
    names = sorted(f"team {i:03d}" for i in range(105))
    for name in names:
        TeamFactory(event=event, name=name)
    c = _client()
    url = f"/events/{event.pk}/standings/"
    first = _table(c.get(url))
    second = _table(c.get(url + "?page=2"))
    assert "page=2" in first and names[0] in first and names[-1] not in first
    assert names[-1] in second and names[0] not in second
    assert _table(c.get(url + "?page=99")) == second  # the last page
    assert _table(c.get(url + "?page=x")) == first


def test_result_entry_previews_with_names_before_entering(world) -> None:
    # Issue 15: seat pickers with names, a preview of the engine's figures, the same preview for
    # the person who confirms, and no entry form once a version is confirmed.
    event = world["event"]
    other = world["round"].pairings.exclude(pk=world["pairing"].pk).first()
    url = f"/events/{event.pk}/manage/tables/{other.pk}/result/"
    names = {s.seat: s.player.name for s in other.table.seats.select_related("player")}
    c = _client(world["organizer"])
    form = c.get(url).content.decode()
    assert 'name="d1_1"' in form and names[3] in form
    picks = {"action": "preview", "first_dealer": "0"}
    picks |= {"d1_1": "0", "d1_2": "2", "d1_3": "4", "d2_1": "1", "d2_2": "0", "d2_escape": "3"}
    page = c.post(url, picks).content.decode()
    assert not ResultSubmission.objects.filter(pairing=other).exists()  # a preview writes nothing
    assert "录入这份成绩" in page
    assert names[0] in page and names[3] in page
    assert "逃跑" in page
    assert "庄家方" in page  # why the winners went up
    assert 'name="deals" value="0 2 4\n1 0 escape 3"' in page
    c.post(url, {"action": "submit", "first_dealer": "0", "deals": "0 2 4\n1 0 escape 3"})
    submission = ResultSubmission.objects.get(pairing=other)
    checker = _client(world["second"]).get(url).content.decode()
    assert names[3] in checker and "逃跑" in checker and 'value="confirm"' in checker
    _client(world["second"]).post(url, {"action": "confirm", "submission": submission.pk})
    after = c.get(url).content.decode()
    assert '<details class="correction">' in after and "已确认" in after
    bad = c.post(url, {"action": "preview", "first_dealer": "0", "d1_1": "9"}).content.decode()
    assert "1 到 6" in bad


def test_a_winner_that_was_not_dealing_is_told_why_it_did_not_go_up(world) -> None:
    event = world["event"]
    other = world["round"].pairings.exclude(pk=world["pairing"].pk).first()
    url = f"/events/{event.pk}/manage/tables/{other.pk}/result/"
    page = (
        _client(world["organizer"])
        .post(url, {"action": "preview", "first_dealer": "0", "deals": "1 3 5"})
        .content.decode()
    )
    assert "只有庄家方升级" in page and other.team_b.name in page


def test_login_codes_for_a_whole_event_print_on_one_sheet_with_qr_codes(world) -> None:
    from accounts.models import LoginCode

    event = world["event"]
    url = f"/events/{event.pk}/manage/codes/"
    c = _client(world["organizer"])
    assert _client(UserFactory()).get(url).status_code == 403
    assert "scope" in c.get(url).content.decode()
    staff = world["pairing"].team_a.members.order_by("order").first().player
    staff.user = UserFactory(is_staff=True)
    staff.save(update_fields=["user"])
    response = c.post(url, {"scope": "event"})
    page = response.content.decode()
    assert response["Cache-Control"] == "no-store"
    assert page.count('class="code-card"') == 5 * 3 - 1  # every player but the staff account
    assert page.count("<svg") >= 14 and "/accounts/code/" in page
    assert staff.name in page and "工作人员或管理员" in page  # the refusal is shown
    first = set(LoginCode.objects.values_list("pk", flat=True))
    c.post(url, {"scope": "event"})
    unused = LoginCode.objects.filter(used_at__isnull=True).values_list("pk", flat=True)
    assert not first & set(unused)  # the first sheet's codes stop working
    round_page = c.post(url, {"scope": str(world["round"].pk)}).content.decode()
    assert round_page.count('class="code-card"') == 4 * 3 - 1  # the round's two tables
    assert c.post(url, {"scope": "x"}).status_code == 400


def test_the_meet_leaderboard_counts_finished_events_only_and_says_so(world) -> None:
    # Issue 15: provisional until every event is complete; no placement points for an event that
    # has not finished; each event named once per unit.
    event = world["event"]
    url = f"/meets/{event.meet.slug}/"
    page = _client().get(url).content.decode()
    assert "暂定" in page and "0 / 1" not in page
    assert '<td class="unit">' not in page  # no placement points yet
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    page = _client().get(url).content.decode()
    assert "暂定" not in page
    assert page.count('<td class="unit">') >= 1
    assert page.count(f"{event.name} #") == page.count('<span class="placement">')


def test_a_team_page_explains_each_deal_and_an_escape(world) -> None:
    # Issue 15: the ladder labels its deals and is left out for a match not yet played; a deal
    # says why the winner did or did not go up; an escape says what it cost.
    pairing = world["pairing"]
    other = world["round"].pairings.exclude(pk=pairing.pk).first()
    unplayed = _client().get(f"/teams/{other.team_a_id}/").content.decode()
    assert 'class="ladder"' not in unplayed
    page = _client().get(f"/teams/{pairing.team_a_id}/").content.decode()
    assert page.count('class="axis tick"') == 3  # deals 1, 2, 3 under the chart
    assert "作为庄家方获胜" in page  # deal 1: the dealer team won and went up
    assert "只有庄家方升级" in page  # deal 2: the other team won but was not dealing
    s = result_submit(
        pairing=other,
        user=world["organizer"],
        first_dealer=0,
        deals=[{"finish": [1, 0], "escape": 3}],
    )
    result_confirm(submission=s, user=world["second"])
    escaped = _client().get(f"/teams/{other.team_b_id}/").content.decode()
    assert "逃跑" in escaped and "逃跑罚分" in escaped
    assert 'class="escape"' in escaped


def test_a_team_page_explains_leaving_between_deals(world) -> None:
    other = world["round"].pairings.exclude(pk=world["pairing"].pk).first()
    s = result_submit(
        pairing=other,
        user=world["organizer"],
        first_dealer=0,
        deals=[{"finish": [0, 2, 4]}, {"finish": [], "leave": 5}],
    )
    result_confirm(submission=s, user=world["second"])
    page = _client().get(f"/teams/{other.team_b_id}/").content.decode()
    left = other.table.seats.get(seat=5).player.name
    assert f"{left}（{other.team_b.name}）在两局之间离开牌桌" in page


def test_a_team_page_says_every_score_in_one_order_the_team_first(world) -> None:
    # Issue 26: the match line was the team's own score first ("-3 : 3") while each deal line was
    # side A first ("3 : -3"); both now put the team first, labelled with the teams' names.
    other = world["round"].pairings.exclude(pk=world["pairing"].pk).first()
    s = result_submit(
        pairing=other, user=world["organizer"], first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )
    result_confirm(submission=s, user=world["second"])
    other.tally.refresh_from_db()
    mine, theirs = other.tally.points_b, other.tally.points_a
    assert mine != theirs
    page = _client().get(f"/teams/{other.team_b_id}/").content.decode()
    line = re.search(r'<span class="score-line">(.*?)</span>', page, re.S)
    assert line is not None
    assert re.sub(r"<[^>]+>|\s+", " ", line.group(1)).split() == [
        other.team_b.name,
        str(mine),
        ":",
        str(theirs),
        other.team_a.name,
    ]
    deal = re.search(r'<ol class="deal-notes"><li[^>]*><b>[^<]*</b> (-?\d+) : (-?\d+)', page)
    assert deal is not None
    assert (int(deal.group(1)), int(deal.group(2))) == (mine, theirs)
    assert "2 : 2 → 2 : 3" in page  # B's level first: side A (the dealer) went up to 3


def test_the_round_page_says_which_tables_wait_for_a_confirmation(world) -> None:
    # Issue 26: an offline table whose result was entered but not confirmed said 未开始.
    other = world["round"].pairings.exclude(pk=world["pairing"].pk).order_by("number").first()
    result_submit(
        pairing=other, user=world["organizer"], first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )
    page = _client().get(f"/events/{world['event'].pk}/rounds/1/").content.decode()
    row = re.search(rf'<tr id="table-{other.number}">.*?</tr>', page, re.S)
    assert row is not None
    assert "成绩已录入，待确认" in row.group(0) and "未开始" not in row.group(0)


def test_the_round_page_says_an_online_table_in_play_is_playing() -> None:
    # Issue 26: "未开始 观看直播" for a table in play whose first deal had not ended.
    event = EventFactory(table_mode=Table.Mode.ONLINE)
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    round_ = round_create_paired(event=event, confirm=True)
    pairing = round_.pairings.get()
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
    Table.objects.filter(pk=pairing.table_id).update(status=Table.Status.PLAYING)
    page = _client().get(f"/events/{event.pk}/rounds/1/").content.decode()
    row = re.search(rf'<tr id="table-{pairing.number}">.*?</tr>', page, re.S)
    assert row is not None
    assert "进行中" in row.group(0) and "未开始" not in row.group(0)
    assert "观看直播" in row.group(0)


def test_the_typed_lines_take_the_players_names_or_seats_from_1(world) -> None:
    event = world["event"]
    other = world["round"].pairings.exclude(pk=world["pairing"].pk).first()
    url = f"/events/{event.pk}/manage/tables/{other.pk}/result/"
    names = {s.seat: s.player.name for s in other.table.seats.select_related("player")}
    c = _client(world["organizer"])
    lines = f"{names[0]} {names[2]} {names[4]}\n2 1 逃跑 4"
    page = c.post(url, {"action": "preview", "first_dealer": "0", "lines": lines})
    assert 'name="deals" value="0 2 4\n1 0 escape 3"' in page.content.decode()  # stored: from 0
    assert not ResultSubmission.objects.filter(pairing=other).exists()
    bad = c.post(url, {"action": "preview", "first_dealer": "0", "lines": "0 2 4"})
    assert "第1行" in bad.content.decode() and "1 到 6" in bad.content.decode()
