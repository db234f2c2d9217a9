"""Duplicate events (复式): the same deals at every table of a round, seat by seat; scoring against
the field (datum and matchpoints); nothing of deal k reaches a table still playing deal k."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.duplicate import dealt_deals
from games.models import Deal, Match, Table
from games.play import engine_state
from games.play import services as games_services
from games.tables.access import deal_public, table_viewable
from tests.games.factories import BotFactory, PlayerFactory, UserFactory
from tests.games.leakcheck import assert_no_leak
from tests.hypothesis_profiles import examples
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.duplicate.deals import rounds_published
from tournaments.duplicate.scoring import DealScore, bye_score, deal_scores
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import Event, Pairing, Round
from tournaments.rounds import running
from tournaments.standings.selectors import event_standings_rows, standings_columns

pytestmark = pytest.mark.django_db

GAMES = ("daguai", "xiaoluzi", "shanghai_doudizhu")


# --- arithmetic -----------------------------------------------------------------------------------


def test_datum_and_matchpoints_of_one_deal() -> None:
    scores = deal_scores({"t1": 10, "t2": -2, "t3": -2, "t4": 6})
    assert scores["t1"] == DealScore(10 - (-2 - 2 + 6) / 3, 6)
    assert scores["t2"].matchpoints == 1 and scores["t3"].matchpoints == 1  # tie: 1 each
    assert scores["t4"].matchpoints == 4
    assert round(sum(s.datum for s in scores.values()), 6) == 0


def test_a_deal_only_one_table_played_scores_nothing_and_an_absent_table_is_left_out() -> None:
    assert deal_scores({1: 40}) == {1: DealScore(0.0, 0)}
    assert deal_scores({}) == {}
    # table 3 ended its match before the deal (absent): the two that played compare
    assert deal_scores({1: 5, 2: -5}) == {1: DealScore(10.0, 2), 2: DealScore(-10.0, 0)}


def test_a_bye_scores_the_average() -> None:
    assert bye_score(5) == DealScore(0.0, 4)
    assert bye_score(0) == DealScore(0.0, 0)


@settings(max_examples=examples(300), deadline=None)
@given(st.dictionaries(st.integers(0, 40), st.integers(-60, 60), min_size=1, max_size=30))
def test_datum_scores_sum_to_zero_and_matchpoints_to_n_n_minus_1(results: dict[int, int]) -> None:
    scores = deal_scores(results)
    n = len(results)
    assert set(scores) == set(results)
    assert abs(sum(s.datum for s in scores.values())) < 1e-6
    assert sum(s.matchpoints for s in scores.values()) == (n * (n - 1) if n > 1 else 0)
    for a in results:  # more points never scores less, either way
        for b in results:
            if results[a] > results[b]:
                assert scores[a].datum > scores[b].datum
                assert scores[a].matchpoints > scores[b].matchpoints
            if results[a] == results[b]:
                assert scores[a] == scores[b]


# --- an event played duplicate --------------------------------------------------------------------


def duplicate_event(
    game: str, tables: int, *, deals: int = 2, scoring: str = "datum", people: bool = False
) -> tuple[Event, Round, dict[int, Any]]:
    """A duplicate event of ``tables`` tables (bots, or people with accounts) and its first round,
    confirmed. Returns the users by player id."""
    event = EventFactory(
        game=game, duplicate=True, duplicate_scoring=scoring, deals_per_match=deals
    )
    unit = UnitFactory()
    users: dict[int, Any] = {}

    def player(n: int) -> Any:
        if not people:
            return BotFactory()
        user = UserFactory()
        p = PlayerFactory(user=user)
        users[p.pk] = user
        return p

    if game == "daguai":
        for t in range(2 * tables):
            events_entries.team_create(
                event=event, name=f"队{t}", players=[player(3 * t + m) for m in range(3)], unit=unit
            )
    else:
        players = [player(n) for n in range(4 * tables)]
        for p in players:
            events_entries.membership_ensure(player=p, unit=unit)
        events_entries.registration_ensure(event=event, players=players)
    round = draw_services.round_create_paired(event=event, confirm=True)
    return event, round, users


def start(round: Round) -> list[Match]:
    """Start the round's tables with the system's bots playing every seat (as rehearsals do)."""
    running.round_tables_start(round=round, bots=True, bot_delay_ms=0)
    return list(
        Match.objects.filter(table__pairing__round=round).order_by("table__pairing__number")
    )


def play_deal(match: Match) -> None:
    """Play the match's current deal to its end (what a worker does) and deal the next one."""
    match.refresh_from_db()
    number = match.current_deal
    assert games_services.bot_deal_play(match_id=match.pk, number=number)
    match.refresh_from_db()
    if match.status == Match.Status.PLAYING and match.current_deal == number:
        games_services.deal_start(match_id=match.pk, number=number + 1)
        match.refresh_from_db()


def play_all(matches: list[Match]) -> None:
    for match in matches:
        for _ in range(30):
            match.refresh_from_db()
            if match.status != Match.Status.PLAYING:
                break
            play_deal(match)


def initial_hands(match: Match) -> dict[int, tuple[tuple[str, ...], ...]]:
    """Each deal's hands as dealt, by deal number, from the engine's replay of the rows."""
    engine: Any = engine_state.engine_match(match, None)
    deals = engine.deals if match.game == "daguai" else engine.match.deals
    return {
        n: tuple(tuple(str(c) for c in hand) for hand in deal.initial_hands)
        for n, deal in enumerate(deals, 1)
    }


@pytest.mark.parametrize("game", GAMES)
def test_every_table_of_a_round_deals_the_same_hands_seat_by_seat(game: str) -> None:
    event, round, _users = duplicate_event(game, 3, deals=3)
    matches = start(round)
    round.refresh_from_db()
    assert round.deal_seed is not None
    assert {m.seed for m in matches} == {round.deal_seed}  # recorded: the round's seed
    play_all(matches)
    # 上海斗地主 deals again after a deal all pass: deal k is the k-th dealt, at every table
    most = max(m.deals.count() for m in matches)
    expected = dealt_deals(game, round.deal_seed, most)
    seen_deals = 0
    for match in matches:
        hands = initial_hands(match)
        rows = {d.number: d.seed for d in match.deals.all()}
        for number, dealt in hands.items():
            want = expected[number - 1]
            assert dealt == tuple(tuple(str(c) for c in h) for h in want.hands), (match, number)
            assert rows[number] == want.seed
            seen_deals += 1
    assert seen_deals >= 3 * 1
    # the next round draws its own seed
    round2 = draw_services.round_create_paired(event=event, confirm=True)
    start(round2)
    round2.refresh_from_db()
    assert round2.deal_seed not in (None, round.deal_seed)


def test_an_event_that_is_not_duplicate_deals_each_table_its_own_cards() -> None:
    event, round, _users = duplicate_event("xiaoluzi", 2)
    Event.objects.filter(pk=event.pk).update(duplicate=False)
    round.event.refresh_from_db()
    matches = start(Round.objects.get(pk=round.pk))
    assert Round.objects.get(pk=round.pk).deal_seed is None
    assert matches[0].seed != matches[1].seed


# --- publication and the standings ----------------------------------------------------------------


def test_a_deal_counts_in_the_standings_only_once_every_table_has_finished_it() -> None:
    event, round, _users = duplicate_event("xiaoluzi", 2, deals=2)
    first, second = start(round)
    before = event_standings_rows(event=event, kind="player")
    assert all(r.points == 0 and r.duplicate == 0 for r in before)
    play_deal(first)  # table 1 finishes deal 1, table 2 still plays it
    deal1 = first.deals.get(number=1)
    assert deal1.status == Deal.Status.FINISHED and any(deal1.points)
    assert rounds_published([round.pk])[round.pk] == 0
    assert not deal_public(deal1)
    from tournaments.results.services import event_tallies_refresh

    event_tallies_refresh(event=event)
    rows = event_standings_rows(event=event, kind="player")
    assert all(r.points == 0 and r.duplicate == 0 and r.deals == 0 for r in rows)
    play_deal(second)  # now both tables finished deal 1
    assert rounds_published([round.pk])[round.pk] == 1
    assert deal_public(deal1)
    event_tallies_refresh(event=event)
    rows = event_standings_rows(event=event, kind="player")
    by_player = {r.player_id: r for r in rows}
    seats = {
        (p.number, s.seat): s.player_id for p in round.pairings.all() for s in p.table.seats.all()
    }
    d1 = first.deals.get(number=1).points
    d2 = second.deals.get(number=1).points
    for seat in range(4):
        a, b = seats[(1, seat)], seats[(2, seat)]
        assert by_player[a].points == d1[seat] and by_player[b].points == d2[seat]
        assert by_player[a].duplicate == d1[seat] - d2[seat]
        assert by_player[b].duplicate == d2[seat] - d1[seat]
        assert by_player[a].deals == 1
    ranked = [r.duplicate for r in rows]
    assert ranked == sorted(ranked, reverse=True)
    assert "duplicate" in standings_columns(event, "player")
    cols = list(standings_columns(event, "player"))
    assert cols.index("duplicate") == cols.index("points") - 1


def test_matchpoints_and_team_sides_of_daguai() -> None:
    event, round, _users = duplicate_event("daguai", 3, deals=1, scoring="matchpoints")
    matches = start(round)
    play_all(matches)
    from tournaments.results.services import event_tallies_refresh

    event_tallies_refresh(event=event)
    rows = event_standings_rows(event=event, kind="team")
    assert sum(r.duplicate for r in rows) == 2 * 3 * 2  # per side: n(n-1) with n = 3 tables
    side_a = {
        p.team_a_id: m for p, m in zip(round.pairings.order_by("number"), matches, strict=True)
    }
    results = {team: m.deals.get(number=1).side_points["A"] for team, m in side_a.items()}
    expected = deal_scores(results)
    by_team = {r.team_id: r for r in rows}
    for team, score in expected.items():
        assert by_team[team].duplicate == score.matchpoints
    units = event_standings_rows(event=event, kind="unit")
    assert units[0].duplicate == 12


def test_a_bye_scores_the_average_matchpoints_of_each_deal() -> None:
    event = EventFactory(game="xiaoluzi", duplicate=True, duplicate_scoring="matchpoints",
                         deals_per_match=1)  # fmt: skip
    players = [BotFactory() for _ in range(9)]  # two tables and a bye
    events_entries.registration_ensure(event=event, players=players)
    round = draw_services.round_create_paired(event=event, confirm=True)
    matches = start(round)
    play_all(matches)
    rows = {r.player_id: r for r in event_standings_rows(event=event, kind="player")}
    bye = round.entries.get(pairing__isnull=True).player_id
    assert rows[bye].duplicate == 1  # 2 tables played the deal: n - 1


# --- hidden information across tables -------------------------------------------------------------


def surfaces(event: Event, round: Round, pairings: list[Pairing]) -> list[str]:
    """Every page and API answer about the event a person may fetch (not the tables)."""
    urls = [
        reverse("tournaments:event_detail", args=[event.pk]),
        reverse("tournaments:round_detail", args=[event.pk, round.number]),
        reverse("tournaments:projector", args=[event.pk]),
    ]
    kinds = ("player", "unit") if event.is_individual else ("team", "player", "unit")
    for kind in kinds:
        urls.append(reverse("tournaments:standings", args=[event.pk]) + f"?kind={kind}")
        urls.append(f"/api/v1/events/{event.pk}/standings/?kind={kind}")
        urls.append(f"/api/v1/events/{event.pk}/standings.csv?kind={kind}")
    urls.append(f"/api/v1/rounds/{round.pk}/")
    for pairing in pairings:
        for seat in pairing.table.seats.all():
            urls.append(reverse("tournaments:player_detail", args=[event.pk, seat.player_id]))
        for team in (pairing.team_a_id, pairing.team_b_id):
            if team is not None:
                urls.append(reverse("tournaments:team_detail", args=[team]))
    urls.append(f"/api/v1/meets/{event.meet_id}/standings/")
    urls.append(reverse("tournaments:meet_detail", args=[event.meet.slug]))
    return urls


CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def fetch(client: Client, urls: list[str]) -> dict[str, tuple[int, bytes]]:
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, url
        # a page's CSRF token is masked anew on every response: the rest must not move
        out[url] = (response.status_code, CSRF.sub(b"", response.content))
    return out


@pytest.mark.parametrize("game", ["xiaoluzi", "daguai"])
def test_a_player_at_table_2_learns_nothing_of_deal_1_from_table_1(game: str) -> None:
    event, round, users = duplicate_event(game, 2, deals=2, people=True)
    first, second = start(round)
    pairings = list(round.pairings.order_by("number"))
    table1, table2 = pairings[0].table, pairings[1].table
    seat2 = table2.seats.get(seat=0)
    viewer = Client()
    viewer.force_login(users[seat2.player_id])
    anonymous = Client()
    outsider = Client()
    outsider.force_login(UserFactory())
    urls = surfaces(event, round, pairings)
    from tournaments.results.services import event_tallies_refresh

    event_tallies_refresh(event=event)  # both tables are playing deal 1
    before = {name: fetch(c, urls) for name, c in
              (("viewer", viewer), ("anonymous", anonymous), ("outsider", outsider))}  # fmt: skip

    play_deal(first)  # table 1 finishes deal 1 (and deals deal 2); table 2 still plays deal 1
    first.refresh_from_db()
    assert first.current_deal == 2
    deal1 = first.deals.get(number=1)
    assert not deal_public(deal1)
    for name, client in (("viewer", viewer), ("anonymous", anonymous), ("outsider", outsider)):
        after = fetch(client, urls)
        for url in urls:
            assert after[url] == before[name][url], (name, url)
        # table 1 itself: its page, its state, its socket are not there for them
        assert client.get(reverse("games:table", args=[table1.pk])).status_code in (403, 404)
        assert client.get(f"/api/v1/tables/{table1.pk}/state/").status_code in (403, 404)
    user2 = users[seat2.player_id]
    assert not table_viewable(table_id=table1.pk, user=user2)
    assert not table_viewable(table_id=table1.pk, user=None)
    # the viewer's own table shows them their own seat only (the existing scan)
    mine = viewer.get(f"/api/v1/tables/{table2.pk}/state/")
    assert mine.status_code == 200
    assert_no_leak(mine.json(), table2, 0)
    # the organizers see the round as it is
    organizer = UserFactory(is_staff=True)
    events_staff.event_organizer_add(event=event, user=organizer)
    assert table_viewable(table_id=table1.pk, user=organizer)

    play_deal(second)  # table 2 finishes deal 1: deal 1 is public, deal 2 not yet
    assert deal_public(deal1)
    assert not table_viewable(table_id=table1.pk, user=user2)
    play_all([first, second])
    assert all(deal_public(d) for d in Deal.objects.filter(match__in=[first, second]))
    assert table_viewable(table_id=table1.pk, user=user2)
    assert table_viewable(table_id=table1.pk, user=None)
    changed = fetch(viewer, urls)
    assert any(changed[u] != before["viewer"][u] for u in urls)  # now the results show


@pytest.mark.django_db(transaction=True)
def test_the_socket_of_another_table_of_a_running_duplicate_round_is_refused() -> None:
    from asgiref.sync import async_to_sync

    from tests.games.live.test_realtime import next_state, session_cookie, socket

    event, round, users = duplicate_event("xiaoluzi", 2, deals=1, people=True)
    first, second = start(round)
    pairings = list(round.pairings.order_by("number"))
    table1, table2 = pairings[0].table, pairings[1].table
    player2 = table2.seats.get(seat=1).player_id
    cookie = session_cookie(users[player2])
    organizer = UserFactory(is_staff=True)
    events_staff.event_organizer_add(event=event, user=organizer)

    async def connects(table: Table, cookie: bytes) -> bool:
        comm = socket(table, cookie)
        connected, _code = await comm.connect()
        if connected:
            state = await next_state(comm)
            assert state["table"]["id"] == table.pk
            await comm.disconnect(timeout=10)
        return bool(connected)

    assert not async_to_sync(connects)(table1, cookie)  # another table of the round
    assert not async_to_sync(connects)(table1, b"")  # anyone might be a player of the round
    assert async_to_sync(connects)(table2, cookie)  # their own table
    assert async_to_sync(connects)(table1, session_cookie(organizer))
    play_all([first, second])
    assert async_to_sync(connects)(table1, cookie)  # every table has ended: open again


def test_the_swiss_draw_of_a_duplicate_event_follows_the_duplicate_standings() -> None:
    from games.models import Player
    from tournaments.standings.selectors import format_swiss_order as swiss_order

    event, round, _users = duplicate_event("xiaoluzi", 2, deals=1)
    play_all(start(round))
    rows = event_standings_rows(event=event, kind="player")
    players = list(Player.objects.filter(pk__in=[r.player_id for r in rows]).order_by("-pk"))
    ordered = swiss_order(event, players)
    assert [p.pk for p in ordered] == [r.player_id for r in rows]
    round2 = draw_services.round_create_paired(event=event, confirm=True)  # drawn through it
    assert round2.pairings.count() == 2


def test_no_record_names_the_rounds_seed_while_a_table_still_plays_its_deals() -> None:
    """The round's seed deals every table's deals: a player whose table has finished may replay
    its deals once published, but no record (which names the seeds) is served before every table
    of the round is done."""
    event, round, users = duplicate_event("xiaoluzi", 2, deals=2, people=True)
    first, second = start(round)
    table2 = round.pairings.get(number=2).table
    viewer = Client()
    viewer.force_login(users[table2.seats.get(seat=0).player_id])
    play_deal(first)
    play_deal(second)  # deal 1 is public; table 1 plays deal 2
    play_deal(second)  # table 2 is done
    second.refresh_from_db()
    assert second.status == Match.Status.FINISHED
    first.refresh_from_db()
    assert first.status == Match.Status.PLAYING
    deal1 = second.deals.get(number=1)
    round.refresh_from_db()
    seed = str(round.deal_seed)
    assert seed == str(first.seed) == str(second.seed)
    assert deal_public(deal1) and seed in deal1.record
    assert viewer.get(f"/deals/{deal1.pk}/replay/").status_code == 200
    for url in (f"/deals/{deal1.pk}/replay/", f"/api/v1/deals/{deal1.pk}/record/"):
        assert seed not in viewer.get(url).content.decode(), url
    play_all([first])
    assert viewer.get(f"/api/v1/deals/{deal1.pk}/record/").status_code == 200
