"""The referee command line ``luzi hand``, ``beats`` and ``plays``: a contract other tools use."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def luzi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=60
    )


def test_hand_json():
    out = luzi("hand", "--json", "3H 3S 3D BJ 4C")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["type"] == "four_with_one" and data["rank"] == "3"


@pytest.mark.parametrize(
    ("cards", "level", "kind", "rank"),
    [
        ("AH 2S 3D 4C 5H", "2", "straight", "5"),
        ("7H 8S 9D 10C JH", "8", "straight", "J"),
        ("9H 9S 9D 5C 5H", "2", "full_house", "9"),
        ("2H 7H 8H JH KH", "5", "flush", "K"),
        ("BJ SJ", "2", "pair", "SJ"),
        ("BJ", "2", "single", "BJ"),
        ("♥10 TH 10H 10S 10D", "A", "five_of_a_kind", "10"),
        ("4H 5H 6H 7H BJ", "2", "straight_flush", "7"),
    ],
)
def test_hand_types_and_ranks(cards, level, kind, rank):
    data = json.loads(luzi("hand", "--level", level, "--json", cards).stdout)
    assert (data["type"], data["rank"]) == (kind, rank)


def test_hand_that_makes_no_play_exits_1_with_an_error_object():
    out = luzi("hand", "--json", "3H 4S")
    assert out.returncode == 1
    assert "error" in json.loads(out.stdout)
    out = luzi("hand", "3H 3S 3D 3C")
    assert out.returncode == 1 and "not a play" in out.stdout


def test_hand_text_is_readable():
    out = luzi("hand", "3H 3S 3D BJ 4C")
    assert out.returncode == 0
    assert "四带一" in out.stdout and "four with one" in out.stdout


def test_beats():
    data = json.loads(luzi("beats", "--json", "4H 4S", "3H 3D").stdout)
    assert data["beats"] is True
    data = json.loads(luzi("beats", "--json", "--level", "3", "3H 3S", "AH AD").stdout)
    assert data["beats"] is True
    out = luzi("beats", "--json", "BJ BJ", "3H")
    assert out.returncode == 0 and json.loads(out.stdout)["beats"] is False
    out = luzi("beats", "--json", "3H 4S", "3H")
    assert out.returncode == 1 and "error" in json.loads(out.stdout)


def test_plays_leading_and_following():
    out = luzi("plays", "--json", "3H 3S 4H")
    data = json.loads(out.stdout)
    assert out.returncode == 0
    assert data["count"] == 3
    assert {(p["type"], p["rank"]) for p in data["plays"]} == {
        ("single", "3"),
        ("single", "4"),
        ("pair", "3"),
    }
    data = json.loads(luzi("plays", "--json", "--over", "3D 3C", "3H 3S 4H").stdout)
    assert data["count"] == 0
    text = luzi("plays", "--over", "3D 3C", "3H 3S 4H").stdout
    assert "要不起" in text


@pytest.mark.parametrize(
    "args",
    [
        ("hand", "3X"),
        ("hand", "--level", "Z", "3H"),
        ("hand", "--level", "BJ", "3H"),
        ("hand", ""),
        ("hand", "3H 3H 3H 3H"),  # four copies of one card: the pack has three
        ("beats", "3H"),
        ("plays", " ".join(["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH"] * 3 + ["QH"])),
        ("plays", "--over", "ZZ", "3H"),
        ("nonsense",),
        (),
    ],
)
def test_malformed_input_exits_2_with_one_line(args):
    out = luzi(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "Traceback" not in out.stderr
