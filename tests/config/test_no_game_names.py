"""Outside engine/, the site never names a game: it asks the registry (docs/adding-a-game.md).

A string literal holding a registered game's key in games/, tournaments/, accounts/, config/,
static/ or templates/ is a place a fourth game would have to be added by hand. Migrations (they
freeze the data as it was) and the demo's data (the demo meet, the simulated hall's sheets) are
the only places allowed to name one.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.registry import registered_keys

ROOT = Path(__file__).resolve().parents[2]
SITE = ("games", "tournaments", "accounts", "config", "static", "templates")
SUFFIXES = {".py", ".html", ".js", ".txt", ".css", ".json"}
#: the demo's data names the games it loads on purpose (the demo meet, and the score sheets the
#: simulated hall's phones enter: a deal as each game's sheet writes it)
ALLOWED = {
    Path("tournaments/events/demo.py"),
    Path("tournaments/events/hall.py"),
    Path("tournaments/management/commands/load_demo.py"),
}


def _site_files() -> list[Path]:
    files = []
    for top in SITE:
        for path in sorted((ROOT / top).rglob("*")):
            relative = path.relative_to(ROOT)
            if path.suffix not in SUFFIXES or "migrations" in relative.parts:
                continue
            if relative in ALLOWED or "__pycache__" in relative.parts:
                continue
            files.append(path)
    return files


def test_no_string_outside_engine_names_a_game() -> None:
    keys = "|".join(re.escape(key) for key in registered_keys())
    literal = re.compile(rf"""(['"`])({keys})\1""")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _site_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line)
    ]
    assert found == [], "\n".join(found)


def test_the_scan_sees_the_site() -> None:
    """The scan reads real files (a scan of nothing would pass)."""
    names = {path.relative_to(ROOT).as_posix() for path in _site_files()}
    assert {
        "static/games/table.js",
        "tournaments/models/__init__.py",
        "games/tables/views.py",
    } <= names
