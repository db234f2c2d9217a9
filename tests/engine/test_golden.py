"""Golden records: deals recorded once by bots (seed, actions, result) under tests/golden/<game>/.

Stored records are replayed by ``verify_records`` for as long as they are kept, so every later
version of a game must replay each of these files to exactly the stored result. Never regenerate
them to make this test pass: a difference is a change of the rules' behaviour.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import cli
from engine.errors import EngineError
from engine.registry import get_game

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
FILES = sorted(GOLDEN.glob("*/*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def records_of(data: dict) -> list[dict]:
    return data["deals"] if "deals" in data else [data["record"]]


def test_there_are_golden_records_of_daguai():
    assert len([f for f in FILES if f.parent.name == "daguai"]) >= 5


@pytest.mark.parametrize("game", ["xiaoluzi", "shanghai_doudizhu"])
def test_there_are_golden_matches_of_every_other_game(game):
    files = [f for f in FILES if f.parent.name == game]
    assert len(files) >= 2
    # one of them holds the system's plays for seats out of time
    assert any('"system": true' in f.read_text(encoding="utf-8") for f in files)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_deal_replays_to_its_stored_result(path):
    data = load(path)
    assert data["game"] == path.parent.name
    game = get_game(data["game"])
    for record in records_of(data):
        assert record["headers"]["game"] == game.key
        assert record["result"] is not None
        replayed = game.replay_record(record)
        assert replayed["result"] == record["result"]
        assert replayed["actions"] == record["actions"]
        assert replayed["over"]


@pytest.mark.parametrize(
    "path", [f for f in FILES if "deals" in load(f)], ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_every_match_replays_to_its_stored_points_and_figures(path):
    data = load(path)
    game = get_game(data["game"])
    state = game.replay_match(data["deals"], left=data["left"])
    stored = data["match"]
    assert list(state.points) == stored["points"]
    assert state.figures() == stored["figures"]
    assert (state.end_reason, state.winner) == (stored["end"], stored["winner"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_referee_command_line_verifies_them(path, tmp_path, capsys):
    data = load(path)
    records = records_of(data)
    body = {"deals": records, "left": data["left"]} if "deals" in data else records[0]
    file = tmp_path / "record.json"
    file.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
    assert cli.main(["replay", str(file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


@pytest.mark.parametrize("path", FILES[:2], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_changed_golden_record_is_caught(path):
    data = load(path)
    game = get_game(data["game"])
    record = copy.deepcopy(records_of(data)[0])
    first = record["result"]
    record["result"] = {**first, "points": {k: v + 1 for k, v in first["points"].items()}}
    with pytest.raises(EngineError, match="differs"):
        game.replay_record(record)
