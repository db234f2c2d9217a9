"""The referee command line: ``luzi CMD --game shanghai_doudizhu --json ...`` through engine.cli."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.shanghai_doudizhu.bots import HeuristicBot, play_deal
from engine.shanghai_doudizhu.deal import Deal
from engine.shanghai_doudizhu.match import Match
from engine.shanghai_doudizhu.record import Record, match_records

G = ["--game", "shanghai_doudizhu", "--json"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    data = json.loads(out) if out.strip() else None
    return status, data, err


def malformed(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("3H 4H 5S 6D 7C", {"type": "straight", "key": "7", "size": 5}),
        ("AS 2S 3S 4S 5S", {"type": "straight", "key": "5", "size": 5}),
        ("SJ SJ", {"type": "pair", "key": "SJ", "size": 2}),
        ("9S 9H 9D BJ BJ", {"type": "triple_pair", "key": "9", "size": 5}),
        ("3H 3S 4H 4S 5H 5S", {"type": "pair_straight", "key": "5", "size": 6}),
        ("KH KS KD AH AS AD", {"type": "triple_straight", "key": "A", "size": 6}),
        ("3H 3S 3D 4H 4S 4D 6C 6C 7H 7H", {"type": "airplane", "key": "4", "size": 10}),
        ("2S 2H 2D 2C 2S", {"type": "bomb", "key": "2", "size": 5}),
        ("SJ SJ BJ BJ", {"type": "bomb", "key": None, "size": 4}),
        ("7D", {"type": "single", "key": "7", "size": 1}),
        ("10D 10H 10S", {"type": "triple", "key": "10", "size": 3}),
    ],
)
def test_hand(capsys: pytest.CaptureFixture[str], cards: str, expected: dict[str, Any]) -> None:
    status, data, _ = run(capsys, "hand", *G, cards)
    assert status == 0
    assert {k: data[k] for k in ("type", "key", "size")} == expected


def test_hand_no_play_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "hand", *G, "SJ BJ")
    assert status == 1 and "error" in data


def test_hand_malformed(capsys: pytest.CaptureFixture[str]) -> None:
    assert "3 copies" in malformed(capsys, "hand", *G, "3H 3H 3H")
    assert "unknown card" in malformed(capsys, "hand", *G, "3X")
    malformed(capsys, "hand", *G)


def test_beats(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "beats", *G, "2S", "AS")
    assert status == 0 and data["beats"] is True
    status, data, _ = run(capsys, "beats", *G, "4S 5S 6S 7S 8S 9S", "3S 4S 5S 6S 7S")
    assert status == 0 and data["beats"] is False
    status, data, _ = run(capsys, "beats", *G, "3S 3H 3D 3C", "SJ SJ")
    assert data["beats"] is True
    status, data, _ = run(capsys, "beats", *G, "2S 2H 2D 2C", "3S 3H 3D 3C 3S")
    assert data["beats"] is False
    status, _, _ = run(capsys, "beats", *G, "SJ BJ", "3S")
    assert status == 1


def test_plays(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "plays", *G, "--over", "3S 3H", "4S 4H 5S 5S 5H 5D")
    assert status == 0
    assert [(p["type"], p["key"]) for p in data["plays"]] == [
        ("pair", "4"),
        ("pair", "5"),
        ("bomb", "5"),
    ]
    status, data, _ = run(capsys, "plays", *G, "--no-bombs", "--over", "3S 3H", "5S 5S 5H 5D")
    assert [(p["type"], p["key"]) for p in data["plays"]] == [("pair", "5")]
    status, data, _ = run(capsys, "plays", *G, "--declared", "SJ SJ BJ BJ", "SJ SJ BJ BJ 3S")
    assert sorted(p["cards"] for p in data["plays"]) == ["3S", "SJ SJ BJ BJ"]
    assert "whole 报到 sets" in malformed(capsys, "plays", *G, "--declared", "SJ SJ", "SJ SJ BJ BJ")


def test_plays_leading_33_cards(capsys: pytest.CaptureFixture[str]) -> None:
    deal = Deal(seed=1)
    hand = " ".join(str(c) for c in [*deal.hands[0], *deal.kitty])
    status, data, _ = run(capsys, "plays", *G, hand)
    assert status == 0 and data["count"] == len(data["plays"]) > 0


def score(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    status, data, _ = run(capsys, "score", *G, *extra)
    assert status == 0
    return data  # type: ignore[no-any-return]


def test_score_examples(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--landlord", "0", "--base", "1"]
    data = score(capsys, *base, "--winner", "landlord", "--bid", "2")
    assert data["points"] == [6, -2, -2, -2] and data["rating"] == [3, -1, -1, -1]
    data = score(capsys, *base, "--winner", "landlord", "--bid", "3", "--head-bid", "--open-hand")
    assert data["points"] == [24, -8, -8, -8]
    data = score(capsys, *base, "--winner", "farmers", "--bid", "3", "--head-bid", "--open-hand")
    assert data["points"] == [-18, 6, 6, 6] and data["rating"] == [-3, 1, 1, 1]
    data = score(
        capsys,
        *base,
        "--winner",
        "landlord",
        "--bid",
        "3",
        "--head-bid",
        "--open-hand",
        "--redeals",
        "1",
        "--marked-joker",
        "--report",
        "double_play",
    )
    assert data["points"] == [384, -128, -128, -128]
    data = score(
        capsys,
        "--landlord",
        "2",
        "--base",
        "2",
        "--winner",
        "landlord",
        "--bid",
        "1",
        "--report",
        "no_play",
    )
    assert data["points"] == [-2, -2, 6, -2]
    data = score(capsys, *base, "--winner", "farmers", "--bid", "1", "--report", "play")
    assert data["points"] == [0, 0, 0, 0] and data["rating"] == [-3, 1, 1, 1]
    data = score(capsys, *base, "--winner", "landlord", "--bid", "1", "--redeals", "3")
    assert data["points"] == [6, -2, -2, -2]  # 荒番 does not stack
    data = score(
        capsys,
        *base,
        "--winner",
        "landlord",
        "--bid",
        "1",
        "--redeals",
        "3",
        "--huangfan",
        "multiply",
    )
    assert data["points"] == [24, -8, -8, -8]


def test_score_all_pass(capsys: pytest.CaptureFixture[str]) -> None:
    data = score(capsys, "--all-pass")
    assert data["points"] == [0, 0, 0, 0] and data["rating"] == [0, 0, 0, 0]


def test_score_malformed(capsys: pytest.CaptureFixture[str]) -> None:
    malformed(
        capsys, "score", *G, "--landlord", "0", "--winner", "landlord", "--bid", "2", "--head-bid"
    )
    malformed(
        capsys, "score", *G, "--landlord", "0", "--winner", "landlord", "--bid", "3", "--open-hand"
    )
    malformed(
        capsys,
        "score",
        *G,
        "--landlord",
        "0",
        "--winner",
        "farmers",
        "--bid",
        "3",
        "--report",
        "no_play",
    )
    malformed(capsys, "score", *G, "--landlord", "4", "--winner", "landlord", "--bid", "1")
    malformed(capsys, "score", *G, "--landlord", "0", "--winner", "landlord", "--bid", "4")
    malformed(capsys, "score", *G, "--winner", "landlord", "--bid", "1")
    malformed(
        capsys, "score", *G, "--landlord", "0", "--winner", "landlord", "--bid", "1", "--base", "0"
    )


def test_escape(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(
        capsys,
        "escape",
        *G,
        "--seat",
        "1",
        "--kind",
        "disconnect",
        "--base",
        "1",
        "--landlord",
        "0",
        "--bid",
        "2",
    )
    assert status == 0 and data["points"] == [6, -10, 2, 2] and data["rating"] == [3, -1, 1, 1]
    status, data, _ = run(
        capsys,
        "escape",
        *G,
        "--seat",
        "1",
        "--kind",
        "active",
        "--base",
        "1",
        "--landlord",
        "0",
        "--bid",
        "2",
    )
    assert data["points"] == [6, -11, 2, 2]
    status, data, _ = run(
        capsys,
        "escape",
        *G,
        "--seat",
        "0",
        "--kind",
        "timeouts",
        "--base",
        "1",
        "--landlord",
        "0",
        "--bid",
        "1",
        "--report",
        "play",
    )
    assert data["points"] == [0, 0, 0, 0] and data["rating"] == [-3, 1, 1, 1]
    status, data, _ = run(capsys, "escape", *G, "--seat", "3", "--kind", "active", "--base", "1")
    assert data["points"] == [1, 1, 1, -4] and data["rating"] == [1, 1, 1, -3]
    status, data, _ = run(
        capsys,
        "escape",
        *G,
        "--seat",
        "3",
        "--kind",
        "disconnect",
        "--base",
        "1",
        "--bid",
        "2",
        "--redeals",
        "1",
    )
    assert data["points"] == [4, 4, 4, -12]


def test_escape_malformed(capsys: pytest.CaptureFixture[str]) -> None:
    malformed(capsys, "escape", *G, "--seat", "1", "--kind", "rage", "--base", "1")
    malformed(capsys, "escape", *G, "--seat", "1", "--kind", "active", "--landlord", "0")
    malformed(capsys, "escape", *G, "--seat", "1", "--kind", "active", "--head-bid", "--bid", "3")


def test_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(
        capsys,
        "simulate",
        "--game",
        "shanghai_doudizhu",
        "--deals",
        "5",
        "--seed",
        "3",
        "--json",
        "--verify-records",
    )
    assert status == 0 and data["deals"] == 5 and data["deals_per_second"] > 0
    assert data["zero_sum"] and data["records_verified"] == 5
    malformed(capsys, "simulate", *G, "--deals", "0")


def test_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal(seed=9)
    play_deal(deal, [HeuristicBot(s) for s in range(4)])
    path = tmp_path / "deal.json"
    path.write_text(Record.from_deal(deal).dumps(), encoding="utf-8")
    status, data, _ = run(capsys, "replay", "--json", str(path))  # the record names the game
    assert status == 0 and data["ok"] and data["result"] == deal.result.to_json()  # type: ignore[union-attr]
    bad = Record.from_deal(deal).to_json()
    bad["result"]["points"] = [9, 9, 9, -27]
    path.write_text(json.dumps(bad), encoding="utf-8")
    status, data, err = run(capsys, "replay", "--json", str(path))
    assert status == 1 and not data["ok"] and err.count("\n") == 1
    path.write_text("{", encoding="utf-8")
    malformed(capsys, "replay", *G, str(path))
    malformed(capsys, "replay", *G, str(tmp_path / "missing.json"))


def test_replay_match(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from engine.shanghai_doudizhu.bots import play_match

    match = play_match(Match(seed=2), [HeuristicBot(s) for s in range(4)])
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"deals": [r.to_json() for r in match_records(match)]}))
    status, data, _ = run(capsys, "replay", *G, str(path))
    assert status == 0 and data["match"]["points"] == match.points
