"""The referee command line ``luzi ... --game xiaoluzi``: the exact commands and JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.xiaoluzi.bots import make_bots, play_deal, play_match
from engine.xiaoluzi.deal import Deal
from engine.xiaoluzi.match import Match
from engine.xiaoluzi.record import Record, match_json


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Run ``luzi ARGV --game xiaoluzi --json``: the status, the JSON printed, stderr."""
    code = main([argv[0], "--game", "xiaoluzi", "--json", *argv[1:]])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    if code == 2:
        assert out == "" and len(err.strip().splitlines()) == 1, err
    return code, json.loads(out) if out.strip() else None, err


# -- hand --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "kind", "rank"),
    [
        ("AS", "single", "A"),
        ("BJ", "single", "BJ"),
        ("SJ", "single", "SJ"),
        ("10H", "single", "10"),
        ("TH", "single", "10"),
        ("9S BJ", "pair", "9"),
        ("BJ SJ", "pair", "SJ"),
        ("QS QH SJ", "triple", "Q"),
        ("QS SJ BJ", "triple", "Q"),
        ("KS KH KD BJ", "four", "K"),
        ("KS KH SJ BJ", "four", "K"),
        ("7H 7D SJ", "triple", "7"),
        ("7D SJ BJ", "triple", "7"),
        ("7H 7D SJ BJ", "four", "7"),
        ("BJ SJ 9S", "triple", "9"),
        ("8s,8h,8d,8c", "four", "8"),
        ("小王 大王", "pair", "SJ"),
    ],
)
def test_hand(capsys, cards, kind, rank):
    code, data, _ = run(capsys, "hand", cards)
    assert code == 0 and data["type"] == kind and data["rank"] == rank


@pytest.mark.parametrize("cards", ["9S 8S", "9S 8D BJ", "8S 8H 8D 8C 9S", ""])
def test_hand_no_play_exits_1(capsys, cards):
    code, data, _ = run(capsys, "hand", cards)
    assert code == 1 and "error" in data


@pytest.mark.parametrize("cards", ["7S", "7C", "2H", "6D 8S", "9S 9S", "BJ 大王", "BJ 大怪", "XX"])
def test_hand_malformed_exits_2(capsys, cards):
    code, _, _ = run(capsys, "hand", cards)
    assert code == 2


def test_hand_option_no_joker_sevens(capsys):
    code, _, _ = run(capsys, "hand", "--no-joker-sevens", "7H 7D SJ")
    assert code == 1


def test_hand_text_output(capsys):
    assert main(["hand", "--game", "xiaoluzi", "QS SJ BJ"]) == 0
    assert "triple" in capsys.readouterr().out


# -- beats -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "over", "beats"),
    [
        ("BJ", "SJ", True),
        ("SJ", "AS", True),
        ("AS", "KS", True),
        ("AS", "AH", False),
        ("BJ SJ", "AS AH", True),
        ("AS BJ", "AH AD", False),
        ("AH AD", "AS BJ", False),
        ("AS AH", "8S", False),
        ("9S 9H 9D 9C", "8S 8H 8D 8C", True),
        ("7H 7D SJ BJ", "8S 8H 8D 8C", False),
        ("8S 8H 8D", "7H 7D SJ", True),
        ("AS AH AD AC", "KS KH KD", False),
    ],
)
def test_beats(capsys, play, over, beats):
    code, data, _ = run(capsys, "beats", play, over)
    assert code == 0 and data["beats"] is beats


def test_beats_a_card_in_both_plays_is_malformed(capsys):
    code, _, _ = run(capsys, "beats", "AS BJ", "KS BJ")
    assert code == 2


def test_beats_no_play_exits_1(capsys):
    code, data, _ = run(capsys, "beats", "AS KS", "8S")
    assert code == 1 and "error" in data


# -- plays -------------------------------------------------------------------------------------


def test_plays_leading_and_over(capsys):
    code, data, _ = run(capsys, "plays", "8S 8H BJ")
    assert code == 0 and data["count"] == 7 and data["over"] is None
    assert [p["cards"] for p in data["plays"]][:3] == ["8S", "8H", "BJ"]
    code, data, _ = run(capsys, "plays", "--over", "7H 7D", "8S 8H BJ")
    assert code == 0
    assert [(p["type"], p["rank"], p["cards"]) for p in data["plays"]] == [
        ("pair", "8", "8S 8H"),
        ("pair", "8", "8S BJ"),
        ("pair", "8", "8H BJ"),
    ]
    code, data, _ = run(capsys, "plays", "--over", "BJ", "AS KS")
    assert code == 0 and data["count"] == 0


def test_plays_errors(capsys):
    assert run(capsys, "plays", "8S 8S")[0] == 2
    assert run(capsys, "plays", "--over", "8S", "8S 9S")[0] == 2
    assert run(capsys, "plays", "--over", "8S 9S", "AS")[0] == 1


# -- declare -----------------------------------------------------------------------------------


def test_declare_nobody(capsys):
    code, data, _ = run(capsys, "declare", "--holder-7h", "2", "--answers", "n,n,n,n")
    assert code == 0
    assert data["asked"] == [["declare", 2], ["declare", 3], ["declare", 0], ["declare", 1]]
    assert data["mode"] == "none" and data["declarer"] is None and data["counter"] is None
    assert data["leader"] == 2 and data["bystanders"] == []


def test_declare_declared(capsys):
    code, data, _ = run(capsys, "declare", "--holder-7h", "1", "--answers", "n,y,n,n,n")
    assert code == 0
    assert data["asked"] == [
        ["declare", 1],
        ["declare", 2],
        ["counter", 3],
        ["counter", 0],
        ["counter", 1],
    ]
    assert data["mode"] == "declared" and data["declarer"] == 2 and data["counter"] is None
    assert data["leader"] == 2 and data["bystanders"] == []


def test_declare_countered(capsys):
    code, data, _ = run(capsys, "declare", "--holder-7h", "3", "--answers", "y,n,y")
    assert code == 0
    assert data["asked"] == [["declare", 3], ["counter", 0], ["counter", 1]]
    assert (data["mode"], data["declarer"], data["counter"]) == ("countered", 3, 1)
    assert data["leader"] == 1 and data["bystanders"] == [0, 2]


def test_declare_the_7h_holder_may_counter(capsys):
    code, data, _ = run(capsys, "declare", "--holder-7h", "0", "--answers", "n,n,y,n,y")
    assert code == 0 and data["counter"] == 0 and data["declarer"] == 2
    assert data["bystanders"] == [1, 3]


def test_declare_bad_answers(capsys):
    assert run(capsys, "declare", "--holder-7h", "0", "--answers", "n,n,n,n,y")[0] == 1
    assert run(capsys, "declare", "--holder-7h", "0", "--answers", "n,n")[0] == 2
    assert run(capsys, "declare", "--holder-7h", "0", "--answers", "n,maybe")[0] == 2
    assert run(capsys, "declare", "--holder-7h", "4", "--answers", "n,n,n,n")[0] == 2


# -- score -------------------------------------------------------------------------------------


def score(capsys, *args: str) -> tuple[int, Any]:
    code, data, _ = run(capsys, "score", *args)
    return code, data


def test_score_mode_none(capsys):
    code, data = score(
        capsys, "--mode", "none", "--finish", "2,0,3", "--cards-played", "8,5,8,8",
        "--base", "2", "--silver", "10",
    )  # fmt: skip
    assert code == 0
    assert data["points"] == [2, -4, 4, -2] and data["silver"] == [10, -20, 20, -10]
    assert data["slam"] is False


def test_score_declared_and_its_slams(capsys):
    args = ["--mode", "declared", "--declarer", "1", "--finish"]
    code, data = score(capsys, *args, "1", "--cards-played", "3,8,2,1")
    assert (data["points"], data["slam"]) == ([-1, 3, -1, -1], False)
    code, data = score(capsys, *args, "1", "--cards-played", "0,8,0,0", "--silver", "5")
    assert (data["points"], data["silver"], data["slam"]) == (
        [-2, 6, -2, -2],
        [-10, 30, -10, -10],
        True,
    )
    code, data = score(capsys, *args, "0", "--cards-played", "8,1,3,2")
    assert (data["points"], data["slam"]) == ([2, -6, 2, 2], True)
    code, data = score(capsys, *args, "0", "--cards-played", "8,2,3,2")
    assert (data["points"], data["slam"]) == ([1, -3, 1, 1], False)


def test_score_countered_and_its_slams(capsys):
    args = ["--mode", "countered", "--declarer", "0", "--counter", "2", "--finish"]
    code, data = score(capsys, *args, "0", "--cards-played", "8,0,2,0")
    assert (data["points"], data["slam"]) == ([4, 0, -4, 0], False)
    code, data = score(capsys, *args, "0", "--cards-played", "8,0,1,0")
    assert (data["points"], data["slam"]) == ([8, 0, -8, 0], True)
    code, data = score(capsys, *args, "2", "--cards-played", "0,0,8,0")
    assert (data["points"], data["slam"]) == ([-8, 0, 8, 0], True)
    code, data = score(capsys, *args, "2", "--cards-played", "2,0,8,0")
    assert (data["points"], data["slam"]) == ([-4, 0, 4, 0], False)


def test_score_slam_count_plays(capsys):
    code, data = score(
        capsys, "--mode", "declared", "--declarer", "0", "--finish", "2",
        "--cards-played", "1,0,3,2", "--slam-count", "plays",
    )  # fmt: skip
    assert code == 0 and data["slam"] is True and data["points"] == [-6, 2, 2, 2]


@pytest.mark.parametrize(
    "args",
    [
        ["--mode", "none", "--finish", "2,0", "--cards-played", "8,5,8,0"],
        ["--mode", "declared", "--finish", "1", "--cards-played", "3,8,2,1"],
        ["--mode", "declared", "--declarer", "1", "--finish", "1", "--cards-played", "3,8,2"],
        ["--mode", "declared", "--declarer", "1", "--finish", "1", "--cards-played", "3,7,2,1"],
        ["--mode", "countered", "--declarer", "0", "--counter", "2", "--finish", "1",
         "--cards-played", "0,8,0,0"],
        ["--mode", "maybe", "--finish", "1", "--cards-played", "0,8,0,0"],
        ["--mode", "none", "--finish", "2,0,5", "--cards-played", "8,5,8,0"],
        ["--mode", "none", "--finish", "2,0,3", "--cards-played", "8,5,8,0", "--base", "0"],
        ["--mode", "none", "--finish", "2,0,3", "--cards-played", "8,x,8,0"],
    ],
)  # fmt: skip
def test_score_malformed(capsys, args):
    assert score(capsys, *args)[0] == 2


# -- escape ------------------------------------------------------------------------------------


def escape(capsys, *args: str) -> tuple[int, Any]:
    code, data, _ = run(capsys, "escape", *args)
    return code, data


def test_escape_table(capsys):
    base = ["--base", "2", "--silver", "5"]
    code, data = escape(capsys, "--seat", "1", "--mode", "none", "--finish", "", *base)
    assert code == 0 and data["points"] == [2, -12, 2, 2] and data["silver"] == [5, -30, 5, 5]
    code, data = escape(capsys, "--seat", "1", "--mode", "none", "--finish", "3", *base)
    assert data["points"] == [2, -12, 2, 4]
    code, data = escape(capsys, "--seat", "2", "--mode", "declared", "--declarer", "2",
                        "--finish", "")  # fmt: skip
    assert data["points"] == [1, 1, -9, 1]
    code, data = escape(capsys, "--seat", "0", "--mode", "declared", "--declarer", "2",
                        "--finish", "")  # fmt: skip
    assert data["points"] == [-6, 0, 3, 0]
    code, data = escape(capsys, "--seat", "3", "--mode", "countered", "--declarer", "1",
                        "--counter", "3", "--finish", "")  # fmt: skip
    assert data["points"] == [0, 4, 0, -12]


def test_escape_between_deals(capsys):
    code, data = escape(capsys, "--seat", "2", "--between-deals", "--base", "3", "--silver", "4")
    assert code == 0 and data["points"] == [3, 3, -9, 3] and data["silver"] == [4, 4, -12, 4]


def test_escape_refused_for_a_seat_that_cannot_escape(capsys):
    code, data = escape(capsys, "--seat", "3", "--mode", "none", "--finish", "3")
    assert code in (1, 2) and (data is None or "error" in data)
    code, data = escape(capsys, "--seat", "0", "--mode", "countered", "--declarer", "1",
                        "--counter", "3", "--finish", "")  # fmt: skip
    assert code in (1, 2)


def test_escape_malformed(capsys):
    assert escape(capsys, "--seat", "7", "--between-deals")[0] == 2
    assert escape(capsys, "--seat", "1")[0] == 2
    assert escape(capsys, "--seat", "1", "--mode", "declared", "--finish", "")[0] == 2


# -- simulate and replay -----------------------------------------------------------------------


def test_simulate(capsys):
    code, data, _ = run(capsys, "simulate", "--deals", "20", "--seed", "5")
    assert code == 0 and data["deals"] == 20 and data["deals_per_second"] > 0
    assert sum(data["modes"].values()) + data["escapes"] == 20


def test_replay_a_deal_record(capsys, tmp_path: Path):
    deal = Deal(seed=4)
    play_deal(deal, make_bots(["random"] * 4, seed=4))
    path = tmp_path / "deal.json"
    path.write_text(Record.from_deal(deal).dumps(), encoding="utf-8")
    # as engine.cli finds the game from the record's headers, without --game
    code = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert data["ok"] is True and data["result"] == deal.result.to_json()


def test_replay_rejects_a_bad_record(capsys, tmp_path: Path):
    deal = Deal(seed=4)
    play_deal(deal, make_bots(["heuristic"] * 4, seed=4))
    data = Record.from_deal(deal).to_json()
    data["result"]["points"] = [1, 1, 1, 1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = main(["replay", str(path), "--json"])
    out, _ = capsys.readouterr()
    assert code == 1 and json.loads(out)["ok"] is False


def test_replay_a_match_record(capsys, tmp_path: Path):
    match = play_match(Match(seed=9), make_bots(["heuristic"] * 4, seed=9))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match_json(match)), encoding="utf-8")
    code, data, _ = run(capsys, "replay", str(path))
    assert code == 0 and data["match"]["points"] == match.points


def test_replay_malformed(capsys, tmp_path: Path):
    path = tmp_path / "junk.json"
    path.write_text("{", encoding="utf-8")
    assert run(capsys, "replay", str(path))[0] == 2
    assert run(capsys, "replay", str(tmp_path / "missing.json"))[0] == 2


def test_an_unknown_command_or_option_is_malformed(capsys):
    assert run(capsys, "shuffle")[0] == 2
    assert run(capsys, "hand", "--level", "2", "AS")[0] == 2
