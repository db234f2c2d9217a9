"""No request to any URL of the site or the API is a server error, and every API error is JSON
(issues 11 and 25).

Every URL pattern is found by walking Django's resolver (so a pattern added later is walked too)
and requested as an anonymous visitor, a player seated at a table, an organizer and a superuser
(the superuser walks the admin), with malformed path values (0, -1, abc, 20 and 25 digits,
unicode, NUL), malformed bodies (invalid JSON, JSON nested 1000 and 5000 deep, wrong types, huge
numbers, NUL, floats, nested junk, a junk upload), query strings (NUL among them) and methods the
route does not expect (PUT, PATCH, DELETE, OPTIONS, HEAD); then hypothesis posts generated JSON
to the endpoints that read JSON. Every answer must be below 500. On PostgreSQL too, which refuses
a NUL where SQLite stores it. Bounded: about a minute on SQLite (more on a loaded machine).
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Table, TableSeat
from games.play.services import match_start
from tests.games.factories import BotFactory, PlayerFactory, UserFactory
from tests.hypothesis_profiles import examples
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add
from tournaments.results.services import result_submit
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db

MAX_ID = str(2**63 - 1)
#: Path values: each is put in place of one path parameter at a time.
PATH_VALUES = [
    "0",
    MAX_ID,  # matches <id:...>, no such row
    str(2**63),  # one past: no match
    "9" * 20,  # 20 digits: past a 64-bit integer
    "9" * 25,  # was an OverflowError on SQLite
    "-1",
    "abc",
    "1.5",
    "%D9%A3",  # ٣, an Arabic-Indic digit
    "%F0%9F%98%80",  # 😀
    "%00",
    "%E2%80%AE1",  # right-to-left override
    "..%2F..%2Fetc",
]
#: JSON nested 1000 deep, about Python's recursion limit (the parser's own limit is not reached).
DEEP_BODIES = ["[" * 1000 + "]" * 1000, '{"a": ' * 1000 + "1" + "}" * 1000]
NUL_BODY = '{"action": "play", "cards": "\\u0000", "seq": 0, "reason": "\\u0000"}'
#: Raw JSON bodies (content type application/json).
JSON_BODIES = [
    "",
    "{",
    "[1,",
    "null",
    "[]",
    '"text"',
    "1e400",
    "-1e400",
    "NaN",
    '{"a": Infinity}',
    "[" * 5000 + "]" * 5000,  # deeper than the parser's recursion
    *DEEP_BODIES,
    '{"action": "play", "cards": ' + "[" * 1000 + "]" * 1000 + ', "seq": 0}',
    NUL_BODY,
    '{"action": "play", "cards": "\\u0000", "seq": 0}',
    '{"action": ["play"], "cards": 5, "seq": {"a": 1}}',
    '{"action": "play", "cards": "3H", "seq": 1e400}',
    '{"action": "pass", "seq": 0.5}',
    '{"action": "pass", "seq": -1}',
    '{"action": "pass", "seq": 99999999999999999999999999}',
    '{"first_dealer": 0, "deals": [{"finish": [1e400]}]}',
    '{"first_dealer": 0, "deals": [{"finish": [0.9, 2.2, 4.7]}]}',
    '{"first_dealer": 1e400, "deals": "x"}',
    '{"first_dealer": 0, "deals": [{"finish": [[[[]]]], "escape": {"x": []}, "leave": "\\u0000"}]}',
    '{"first_dealer": 0, "deals": [[]]}',
    '{"first_dealer": 0, "deals": [{"finish": [0, 2, 4]}]}',
    '{"reason": "\\u0000"}',
    '{"reason": ["x"]}',
    '{"reason": "' + "x" * 600 + '"}',
    '{"code": "\\u0000", "username": {"a": 1}}',
    '{"\\ud800": "lone surrogate"}',
]
#: Form bodies (application/x-www-form-urlencoded).
FORM_BODIES: list[dict[str, str]] = [
    {},
    {"round": "abc", "submission": "abc", "action": "confirm"},
    {"round": "9" * 25, "submission": "9" * 25, "action": "reject"},
    {"round": "-1", "count": "9" * 18, "a1": "abc", "b1": "9" * 25, "mode1": "\x00"},
    {"action": "submit", "first_dealer": "1e400", "deals": "0 2 4\n1e400\nescape"},
    {"action": "submit", "first_dealer": "0", "deals": "0 2 4 " + "9" * 5000},
    {"step": "import"},
    {"code": "\x00", "username": "\x00", "password": "\x00", "next": "javascript:alert(1)"},
    {"language": "\x00", "next": "//evil.example"},
    {"team": "abc", "kind": "\x00", "dry_run": "abc", "create_units": "\x00"},
    {"reason": "\x00" * 10, "force": "1"},
]
#: Query strings for GET (every pattern, real ids).
QUERIES = [
    "kind=%00&page=99999999999999999999999&%ff%fe=%ff",
    "kind=player&kind=unit&format=abc",
    "round=abc&team=-1&since=abc&seq=1e400&dry_run=abc&next=javascript:alert(1)",
    "o=abc&p=-1&q=%00&all=1&e=1&id__gt=abc&pk__in=x,y",
]


@dataclass
class World:
    ids: dict[str, str]
    users: dict[str, Any]


@pytest.fixture
def world() -> World:
    """An offline event (a running round, a result waiting) and an online table with a player
    who has an account; an organizer of the event; a superuser."""
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    teams = [TeamFactory(event=event, unit=UnitFactory()) for _ in range(2)]
    organizer, checker = UserFactory(), UserFactory()
    event_organizer_add(event=event, user=organizer)
    event_organizer_add(event=event, user=checker)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    pairing = round_.pairings.get()
    submission = result_submit(
        pairing=pairing, user=checker, first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )
    player_user = UserFactory()
    table = Table.objects.create(name="线上桌")
    for seat in range(6):
        person = PlayerFactory(user=player_user) if seat == 0 else BotFactory()
        TableSeat.objects.create(table=table, seat=seat, player=person)
    match_start(table=table, seed=7)
    superuser = UserFactory(is_staff=True, is_superuser=True)
    player = teams[0].players.order_by("pk").first()
    return World(
        ids={
            "event": str(event.pk),
            "meet": str(event.meet_id),
            "slug": event.meet.slug,
            "round": str(round_.pk),
            "number": str(round_.number),
            "pairing": str(pairing.pk),
            "submission": str(submission.pk),
            "team": str(teams[0].pk),
            "player": str(player.pk),
            "table": str(table.pk),
            "content_type": str(ContentType.objects.get_for_model(Table).pk),
        },
        users={
            "anonymous": None,
            "player": player_user,
            "organizer": organizer,
            "super": superuser,
        },
    )


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    """4xx answers are logged as warnings by the thousand: keep only errors."""
    loggers = [logging.getLogger(n) for n in ("django.request", "django.security")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    yield
    for lg, level in zip(loggers, levels, strict=True):
        lg.setLevel(level)


def url_patterns() -> list[tuple[str, URLPattern]]:
    """Every URL pattern of the site, its full route as written (route or regex parts)."""

    def walk(resolver: URLResolver, prefix: str) -> Iterator[tuple[str, URLPattern]]:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), pattern

    return list(walk(get_resolver(), ""))


PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>[^)]*\)")


def real_value(route: str, name: str, world: World) -> str:
    """An existing object's id (or slug, ...) for parameter ``name`` of ``route``."""
    ids = world.ids
    by_name = {
        "number": ids["number"],
        "player": ids["player"],
        "pairing": ids["pairing"],
        "table_id": ids["table"],
        "team_id": ids["team"],
        "slug": ids["slug"],
        "action": "confirm",
        "content_type_id": ids["content_type"],
        "app_label": "games",
        "url": "nothing/here/",
    }
    if name in by_name:
        return by_name[name]
    if route.startswith("admin/r/"):  # the admin's "view on site" shortcut
        return ids["table"]
    if name in ("object_id", "id"):  # admin/<app>/<model>/<object_id>/...: its first row
        app, model = route.split("/")[1:3]
        first = apps.get_model(app, model)._default_manager.order_by("pk").first()
        return str(first.pk) if first else "1"
    if route.startswith("api/v1/tables/") and route.endswith("/results/"):
        return ids["pairing"]
    kinds = {"events": "event", "rounds": "round", "tables": "table", "teams": "team"}
    kinds |= {"results": "submission", "meets": "meet"}
    before = re.search(rf"([\w-]+)/<(?:\w+:)?{name}>", route)  # events/<id:pk>: an event
    # a parameter added later that this map does not know yet is still walked, with id 1
    return ids.get(kinds.get(before.group(1) if before else "", ""), "1")


def fill(route: str, world: World, malformed: tuple[str, str] | None = None) -> str:
    """The URL of ``route`` with real values, except ``malformed`` = (parameter, value)."""

    def value(match: re.Match[str]) -> str:
        name = match.group("name") or match.group("group")
        if malformed is not None and malformed[0] == name:
            return malformed[1]
        return real_value(route, name, world)

    path = PARAM.sub(value, route)
    return "/" + path.replace("^", "").replace("$", "")


def params(route: str) -> list[str]:
    return [m.group("name") or m.group("group") for m in PARAM.finditer(route)]


class Failures:
    def __init__(self) -> None:
        self.items: list[str] = []
        self.count = 0

    def check(self, client: Client, method: str, url: str, **kwargs: Any) -> int:
        """Request ``url``; note a server error. Returns the status."""
        self.count += 1
        response = getattr(client, method)(url, **kwargs)
        if response.status_code >= 500:
            body = repr(kwargs.get("data"))[:120]
            error = ""
            if getattr(response, "exc_info", None):
                error = f"{response.exc_info[0].__name__}: {response.exc_info[1]}"[:200]
            self.items.append(f"{method.upper()} {url} {body} -> {response.status_code} {error}")
        elif (
            url.startswith("/api/v1/")  # (the schema answers in its own format, YAML or JSON)
            and response.status_code >= 400
            and not response["Content-Type"].startswith("application/json")
        ):  # an API error is JSON
            self.items.append(f"{method.upper()} {url} -> {response['Content-Type']}")
        return response.status_code


def client_as(world: World, who: str) -> Client:
    client = Client(raise_request_exception=False)
    user = world.users[who]
    if user is not None:
        client.force_login(user)
    return client


def relogin(client: Client, world: World, who: str, url: str) -> None:
    """Logging out (a junk POST to a logout URL does) ends the session: log in again."""
    if "logout" in url and world.users[who] is not None:
        client.force_login(world.users[who])


def junk_upload() -> dict[str, Any]:
    upload = io.BytesIO(b"PK\x03\x04" + b"\x00\xff" * 64)
    upload.name = "players.xlsx"
    return {"file": upload, "dry_run": "1"}


#: The round controls of the organizer's dashboard (events/<id>/manage/rounds/<action>/).
ACTIONS = ["pair", "confirm", "start", "complete", "tables"]
#: Path values that pass the <id:...> converter: requested with every method and body.
MATCHING_PATH_VALUES = ["0", MAX_ID]
#: The bad ids every kind of user requests (GET) in place of an <id:...> (the URL patterns refuse
#: all but "0"; the anonymous walk requests all of PATH_VALUES).
BAD_IDS = ["0", MAX_ID, "-1", "abc", "9" * 20, "%00"]
#: Methods a route may not expect, each requested once with a NUL and a deep JSON body.
WRONG_METHODS = ["put", "patch", "delete", "options", "head"]
#: Path values for the admin's <path:object_id> (its own views parse them).
ADMIN_PATH_VALUES = ["9" * 25, "abc"]


def path_values(route: str, name: str, who: str) -> list[str]:
    if route.startswith("admin/"):
        return ADMIN_PATH_VALUES
    converter = re.search(rf"<(\w+):{name}>", route)
    if who == "anonymous" or converter is None or converter.group(1) != "id":
        return PATH_VALUES
    return BAD_IDS


def fuzz_route(client: Client, world: World, who: str, route: str, failures: Failures) -> None:
    """Request one route: each path parameter malformed in turn, then real ids with malformed
    query strings and bodies (JSON under /api/, forms elsewhere)."""
    admin = route.startswith("admin/")
    for name in params(route):
        for value in path_values(route, name, who):
            url = fill(route, world, (name, value))
            failures.check(client, "get", url)
            if (
                value in ("0", MAX_ID, "abc")
                and not admin
                and (who == "anonymous" or value in MATCHING_PATH_VALUES)
            ):
                failures.check(client, "post", url, data=FORM_BODIES[1])
                relogin(client, world, who, url)
    url = fill(route, world)
    got = failures.check(client, "get", url)
    if got not in (302, 405):
        for query in QUERIES[3:] if admin else QUERIES:
            failures.check(client, "get", f"{url}?{query}")
    if admin:
        if route.endswith(("/change/", "/add/")):
            failures.check(client, "post", url, data=FORM_BODIES[2])
            failures.check(client, "put", url, data=FORM_BODIES[3])
            failures.check(client, "delete", url)
        return
    for method in WRONG_METHODS:  # the view's own answer to the method, no body
        failures.check(client, method, url)
        relogin(client, world, who, url)
    for body in (NUL_BODY, DEEP_BODIES[0]):
        failures.check(client, "patch", url, data=body, content_type="application/json")
        relogin(client, world, who, url)
    probe = failures.check(client, "post", url, data="{", content_type="application/json")
    relogin(client, world, who, url)
    if probe == 405:
        return  # refused before any body is read
    if route.startswith("api/"):
        for body in JSON_BODIES if who != "anonymous" else [*JSON_BODIES[:10], *DEEP_BODIES]:
            failures.check(client, "post", url, data=body, content_type="application/json")
        failures.check(client, "put", url, data="[]", content_type="application/json")
        failures.check(client, "delete", url)
    else:
        # each action of a <str:action> route (the organizer's round controls) gets every form
        actions = ACTIONS if "action" in params(route) else [None]
        for action in actions:
            target = url if action is None else fill(route, world, ("action", action))
            for form in FORM_BODIES:
                failures.check(client, "post", target, data=form)
                relogin(client, world, who, target)
    if "import" in route:
        failures.check(client, "post", url, data=junk_upload())


@pytest.mark.parametrize("who", ["anonymous", "player", "organizer", "super"])
def test_no_url_answers_a_server_error(world: World, who: str) -> None:
    client = client_as(world, who)
    failures = Failures()
    for route, _pattern in url_patterns():
        if route.startswith("admin/") and who in ("anonymous", "player"):
            if route.endswith("<path:object_id>/change/"):
                failures.check(client, "get", fill(route, world, ("object_id", "9" * 25)))
            continue  # the login page for them
        if who == "super" and not route.startswith("admin/"):
            continue  # the organizer's walk reaches the same code
        fuzz_route(client, world, who, route, failures)
    assert failures.count > 300, failures.count
    assert not failures.items, "\n".join(failures.items)


JSON_ROUTES = [
    "api/v1/tables/<id:table_id>/actions/",
    "api/v1/tables/<id:table_id>/check/",
    "api/v1/tables/<id:pk>/results/",
    "api/v1/results/<id:pk>/reject/",
    "api/v1/rounds/<id:pk>/complete/",
]
KEYS = ["action", "cards", "seq", "first_dealer", "deals", "finish", "escape", "leave", "reason"]
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["play", "pass", "return", "3H 3H", "\x00", "0 2 4"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=examples(150),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    route=st.sampled_from(JSON_ROUTES),
    who=st.sampled_from(["player", "organizer"]),
    body=st.dictionaries(st.sampled_from(KEYS), JSON_VALUES, max_size=5) | JSON_VALUES,
)
def test_generated_json_bodies_answer_below_500(
    world: World, route: str, who: str, body: Any
) -> None:
    assert route in {r for r, _ in url_patterns()}
    client = client_as(world, who)
    text = json.dumps(body, allow_nan=True)  # NaN and Infinity too: the parser must refuse them
    response = client.post(fill(route, world), data=text, content_type="application/json")
    assert response.status_code < 500, (route, who, text)
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
