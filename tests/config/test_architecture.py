"""The import rules of docs/architecture.md, checked against the code: each app's rooms sit in
one order and a room imports only the rooms below it (an import inside a function counts); the
entry points (pages, APIs, admin, commands, sockets, tasks, the round runner) sit on top and no
room imports them; games knows nothing of the apps built on it."""

from __future__ import annotations

from tests.config.test_import_cycles import _graph

#: Each app's rooms, lowest first (docs/architecture.md draws them).
ROOMS: dict[str, tuple[str, ...]] = {
    "games": (
        "names",
        "signals",
        "models",
        "state_cache",
        "tables",
        "live",
        "play",
        "offline",
        "replay",
    ),
    "tournaments": (
        "common",
        "models",
        "formats",
        "events",
        "duplicate",
        "results",
        "standings",
        "rounds",
        "draw",
        "knockout",
    ),
}

#: Entry points: modules (by their last name) and packages that only the outside calls.
ENTRY_MODULES = frozenset(
    {
        "views",
        "apis",
        "pages",
        "dashboard",
        "manage",
        "deals_api",
        "demo",
        "hall",  # the simulated hall of a venue's day (manage.py simulate_hall)
        "running",
        "consumers",
        "tasks",
        "urls",
        "api_urls",
        "routing",
        "admin",
        "apps",
    }
)
ENTRY_PACKAGES = frozenset({"web", "admin", "management", "templatetags"})


def _room(module: str) -> tuple[str, str] | None:
    """(app, room) of a module of a layered app, None for an entry point or another app."""
    parts = module.split(".")
    app = parts[0]
    if app not in ROOMS or len(parts) < 2:
        return None
    if parts[1] in ENTRY_PACKAGES or parts[-1] in ENTRY_MODULES:
        return None
    return app, parts[1]


def _is_entry(module: str) -> bool:
    parts = module.split(".")
    if parts[0] not in ROOMS or len(parts) < 2:
        return False
    return parts[1] in ENTRY_PACKAGES or parts[-1] in ENTRY_MODULES


def _breaches() -> list[str]:
    found = []
    for module, imports in sorted(_graph().items()):
        room = _room(module)
        if room is None:
            continue
        app, here = room
        order = ROOMS[app]
        assert here in order, f"{module}: room {here!r} is not in docs/architecture.md's order"
        for target in sorted(imports):
            if _is_entry(target):
                found.append(f"{module} imports the entry point {target}")
                continue
            other = _room(target)
            if other is None or other[0] != app:
                continue
            if order.index(other[1]) > order.index(here):
                found.append(f"{module} ({here}) imports {target} ({other[1]}), a room above it")
    return found


def test_every_room_imports_only_the_rooms_below_it() -> None:
    assert _breaches() == []


def test_every_module_is_in_a_room_or_an_entry_point() -> None:
    """A new package must take its place in the order (and in docs/architecture.md)."""
    for module in _graph():
        parts = module.split(".")
        if parts[0] in ROOMS and len(parts) > 1 and not _is_entry(module):
            assert parts[1] in ROOMS[parts[0]], module


def test_games_knows_nothing_of_the_apps_built_on_it() -> None:
    for module, imports in _graph().items():
        if module.split(".")[0] == "games":
            assert not {t for t in imports if t.split(".")[0] == "tournaments"}, module


def test_the_apps_rooms_reach_games_through_its_rooms_not_its_entry_points() -> None:
    """(An entry point may build on another: the players' admin extends games' admin.)"""
    for module, imports in _graph().items():
        if module.split(".")[0] == "tournaments" and not _is_entry(module):
            entries = {t for t in imports if t.split(".")[0] == "games" and _is_entry(t)}
            assert not entries, module


def test_the_rules_catch_a_breach() -> None:
    """The check is not vacuous: the graph holds the imports it judges, and a room importing
    one above it is a breach."""
    graph = _graph()
    assert "tournaments.rounds.services" in graph["tournaments.draw.services"]
    assert _room("tournaments.rounds.services") == ("tournaments", "rounds")
    assert _room("tournaments.rounds.dashboard") is None
    order = ROOMS["tournaments"]
    assert order.index("draw") > order.index("rounds")


def test_the_core_rooms_reach_the_formats_only_through_their_hooks() -> None:
    """Duplicate play and the knockout stage plug into ordinary events through tournaments.formats
    (registered in tournaments.apps): no module of results, standings, rounds or draw but their
    entry points imports either format."""
    core = ("results", "standings", "rounds", "draw")
    formats = ("tournaments.duplicate", "tournaments.knockout")
    found = []
    asked = False
    for module, imports in sorted(_graph().items()):
        room = _room(module)
        if room is None or room[0] != "tournaments" or room[1] not in core:
            continue
        asked = asked or "tournaments.formats" in imports
        found += [
            f"{module} imports {t}" for t in sorted(imports) if t.split(".")[:2] in _split(formats)
        ]
    assert found == []
    assert asked  # the graph holds the imports: the core rooms do ask the hooks


def _split(modules: tuple[str, ...]) -> list[list[str]]:
    return [m.split(".") for m in modules]
