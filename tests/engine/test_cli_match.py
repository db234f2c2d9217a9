"""The command line ``luzi result``, ``escape``, ``simulate`` and ``replay``: a contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.daguai.bots import make_bots, play_deal, play_match
from engine.daguai.deal import Deal
from engine.daguai.match import Match
from engine.daguai.record import Record, match_records

RESULT_KEYS = {
    "outcome", "winner", "multiplier", "payers", "receivers", "tributes",
    "next_dealer", "levels", "passed_a", "points",
}  # fmt: skip


def luzi(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        timeout=120,
        input=stdin,
    )


def error_line(out: subprocess.CompletedProcess[str]) -> str:
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "Traceback" not in out.stderr
    return lines[0]


def test_result_json_keys_and_values():
    out = luzi("result", "--dealer-team", "A", "--levels", "2,2", "--finish", "0,1,2,4", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= RESULT_KEYS
    assert data["outcome"] == "win" and data["winner"] == "A" and data["multiplier"] == 3
    assert data["payers"] == [3, 5] and data["receivers"] == [0, 2]
    assert data["tributes"] == [[3, 2], [5, 0]] and data["next_dealer"] == 0
    assert data["levels"] == {"A": "3", "B": "2"} and data["passed_a"] is False
    assert data["points"] == {"0": 3, "1": -3, "2": 3, "3": -3, "4": 3, "5": -3}


def test_result_draw_passing_a_and_base():
    out = luzi("result", "--dealer-team", "B", "--levels", "2,A", "--finish", "1,0,2,4", "--json")
    data = json.loads(out.stdout)
    assert (data["outcome"], data["winner"], data["multiplier"]) == ("draw", None, 0)
    assert data["tributes"] == [] and set(data["points"].values()) == {0}
    args = ("--dealer-team", "b", "--levels", "2,A", "--finish", "1 3 5", "--base", "10")
    data = json.loads(luzi("result", *args, "--json").stdout)
    assert data["passed_a"] is True and data["points"]["1"] == 60 and data["points"]["0"] == -60


def test_result_text_is_readable():
    out = luzi("result", "--dealer-team", "A", "--levels", "2,2", "--finish", "1,3,5")
    assert out.returncode == 0 and "team B wins" in out.stdout and "进贡" in out.stdout


@pytest.mark.parametrize(
    ("finish", "levels", "team"),
    [
        ("0,0,2,4", "2,2", "A"),  # a seat twice
        ("0,2,6", "2,2", "A"),  # not a seat
        ("0,2,4,1", "2,2", "A"),  # a seat after the deal ended
        ("0,1,2", "2,2", "A"),  # the deal has not ended
        ("0,x", "2,2", "A"),  # not a number
        ("0,2,4", "2,1", "A"),  # a bad level
        ("0,2,4", "2", "A"),  # one level
        ("0,2,4", "2,2", "C"),  # a bad team
    ],
)
def test_result_impossible_input_exits_2_with_one_line(finish, levels, team):
    out = luzi("result", "--dealer-team", team, "--levels", levels, "--finish", finish, "--json")
    assert out.returncode == 2 and out.stdout == ""
    assert error_line(out).startswith("luzi result: error:")


def test_result_missing_argument_exits_2():
    out = luzi("result", "--levels", "2,2", "--finish", "0,2,4")
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_escape_during_and_between_deals():
    data = json.loads(luzi("escape", "--seat", "1", "--finish", "0,2", "--json").stdout)
    assert data["points"] == {"0": 3, "1": -18, "2": 3, "3": 0, "4": 3, "5": 0}
    data = json.loads(luzi("escape", "--seat", "4", "--finish", "", "--base", "2", "--json").stdout)
    assert data["points"] == {"0": 0, "1": 2, "2": 0, "3": 2, "4": -36, "5": 2}
    data = json.loads(luzi("escape", "--seat", "0", "--between-deals", "--json").stdout)
    assert data["points"] == {"0": -3, "1": 1, "2": 0, "3": 1, "4": 0, "5": 1}
    out = luzi("escape", "--seat", "0", "--between-deals")
    assert out.returncode == 0 and "-3" in out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("--seat", "6", "--between-deals"),
        ("--seat", "1", "--finish", "0,2,4"),  # the deal had ended
        ("--seat", "1"),  # neither --finish nor --between-deals
        ("--seat", "1", "--finish", "0", "--between-deals"),
        ("--seat", "1", "--finish", "0", "--base", "-1"),
    ],
)
def test_escape_bad_input_exits_2(args):
    out = luzi("escape", *args)
    assert out.returncode == 2
    assert error_line(out).startswith("luzi escape: error:")


def test_simulate_json_figures():
    out = luzi("simulate", "--deals", "12", "--seed", "4", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["deals"] == 12 and data["deals_per_second"] > 0
    assert data["wins"] + data["draws"] + data["escapes"] == 12
    assert data["plays"] > 0 and set(data["tributes"]) == {"1", "2", "3"}
    assert sum(data["tributes"].values()) == data["wins"]


def test_simulate_mixed_reports_the_heuristic_win_rate_and_text():
    data = json.loads(luzi("simulate", "--deals", "6", "--bots", "mixed", "--json").stdout)
    assert data["heuristic_wins"] + data["random_wins"] == data["wins"]
    out = luzi("simulate", "--deals", "3", "--bots", "random", "--verify-records")
    assert out.returncode == 0 and "deals/s" in out.stdout


def test_simulate_bad_input_exits_2():
    for args in (("--deals", "0"), ("--bots", "smart"), ("--seed", "x")):
        out = luzi("simulate", *args)
        assert out.returncode == 2 and "Traceback" not in out.stderr


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    deal = Deal(seed=4, dealer=2, tributes=[(1, 2)])
    play_deal(deal, make_bots(["heuristic"] * 6))
    path = tmp_path / "deal.json"
    path.write_text(Record.from_deal(deal, event="Cup").dumps(indent=1), encoding="utf-8")
    return path


def test_replay_verifies_and_prints(record_file: Path):
    out = luzi("replay", str(record_file))
    assert out.returncode == 0 and out.stdout.startswith("verified")
    assert "tribute 进贡: seat 1 gave" in out.stdout and "finishing order" in out.stdout
    data = json.loads(luzi("replay", "--json", str(record_file)).stdout)
    assert (
        data["ok"] is True and data["over"] is True and data["result"]["outcome"] in ("win", "draw")
    )
    assert "hand" not in data["view"]
    assert luzi("replay", "-", stdin=record_file.read_text()).returncode == 0


def test_replay_rejects_a_tampered_record_with_exit_1(record_file: Path, tmp_path: Path):
    data = json.loads(record_file.read_text())
    data["actions"][2]["seat"] = (data["actions"][2]["seat"] + 1) % 6
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    out = luzi("replay", "--json", str(bad))
    assert out.returncode == 1
    report = json.loads(out.stdout)
    assert report["ok"] is False and report["index"] == 3 and "action 3" in report["error"]
    assert error_line(out).startswith("luzi replay: rejected: action 3")


def test_replay_malformed_files_exit_2(tmp_path: Path):
    path = tmp_path / "x.json"
    for text in ("{", '{"headers": {"game": "chess"}}', "[]", '"text"'):
        path.write_text(text)
        out = luzi("replay", str(path))
        assert out.returncode == 2, text
        assert error_line(out).startswith("luzi replay: error:")
    out = luzi("replay", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and error_line(out)


def test_replay_a_match(tmp_path: Path):
    match = play_match(Match(seed=5), make_bots(["heuristic"] * 6))
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"deals": [r.to_json() for r in match_records(match)]}))
    out = luzi("replay", "--json", str(path))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["match"]["points"] == {str(s): p for s, p in enumerate(match.points)}
