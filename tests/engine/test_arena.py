"""``luzi arena``: duplicate seating, the report's shape, the log, and bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.arena import play_duplicate, seats_of, summarize
from engine.registry import get_game


def luzi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=300
    )


def test_a_run_reports_each_kind_with_an_interval_wins_and_think_times(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    args = ["arena", "--game", "xiaoluzi", "--a", "random", "--b", "heuristic"]
    out = luzi(*args, "--deals", "6", "--seed", "s", "--log", str(log), "--json")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""  # no progress bar when stderr is not a terminal
    report = json.loads(out.stdout)
    assert report["game"] == "xiaoluzi" and report["deals"] == 6
    assert set(report["kinds"]) == {"random", "heuristic"}
    for row in report["kinds"].values():
        lo, hi = row["ci95"]
        assert lo <= row["mean_points"] <= hi
        assert 0 <= row["won"] <= 6
        assert 0 <= row["think_ms_median"] <= row["think_ms_max"]
        assert 0 <= row["think_ms_mean"] <= row["think_ms_max"]
    won = report["kinds"]["random"]["won"] + report["kinds"]["heuristic"]["won"]
    assert won + report["drawn"] == 6
    # the same run again from its log: the same report
    assert len(log.read_text().splitlines()) == 6
    again = luzi(*args, "--from-log", str(log), "--json")
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    assert summary["diff"] == report["diff"] and summary["drawn"] == report["drawn"]
    for kind, row in summary["kinds"].items():  # think times are kept to 0.01 ms in a log
        assert row["mean_points"] == report["kinds"][kind]["mean_points"]
        assert row["won"] == report["kinds"][kind]["won"]


def test_a_resumed_run_plays_only_the_deals_its_log_lacks(tmp_path: Path) -> None:
    """A run stopped after 2 of 5 deals, carried on by --resume: 5 deals in the log, each once,
    and the same report as one run of 5."""
    args = ["arena", "--game", "xiaoluzi", "--a", "random", "--b", "heuristic", "--seed", "r"]
    log = tmp_path / "run.jsonl"
    first = luzi(*args, "--deals", "2", "--log", str(log), "--json")
    assert first.returncode == 0, first.stderr
    resumed = luzi(*args, "--deals", "5", "--log", str(log), "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    deals = [json.loads(line)["deal"] for line in log.read_text().splitlines()]
    assert sorted(deals) == [1, 2, 3, 4, 5]
    whole = json.loads(luzi(*args, "--deals", "5", "--json").stdout)
    report = json.loads(resumed.stdout)
    assert report["deals"] == 5 and report["diff"] == whole["diff"]
    # nothing left to play: the log is reported as it is
    again = luzi(*args, "--deals", "5", "--log", str(log), "--resume", "--json")
    assert json.loads(again.stdout)["diff"] == whole["diff"]
    assert len(log.read_text().splitlines()) == 5


def test_a_gzip_log_is_written_read_and_resumed(tmp_path: Path) -> None:
    import gzip

    args = ["arena", "--game", "xiaoluzi", "--a", "random", "--b", "heuristic", "--seed", "g"]
    log = tmp_path / "run.jsonl.gz"
    assert luzi(*args, "--deals", "2", "--log", str(log)).returncode == 0
    resumed = luzi(*args, "--deals", "3", "--log", str(log), "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    with gzip.open(log, "rt", encoding="utf-8") as handle:  # two gzip members, read as one
        assert sorted(json.loads(line)["deal"] for line in handle) == [1, 2, 3]
    summary = luzi(*args, "--from-log", str(log), "--json")
    assert json.loads(summary.stdout)["diff"] == json.loads(resumed.stdout)["diff"]


@pytest.mark.parametrize("name", ["run.jsonl", "run.jsonl.gz"])
def test_a_log_cut_short_by_a_killed_run_keeps_its_whole_deals_and_resumes(
    tmp_path: Path, name: str
) -> None:
    """A run killed while writing leaves its last gzip member without its end (the log is
    flushed line by line, closed only at the end), or half a line: the whole deals before it
    are reported, and --resume plays the rest and leaves a whole log."""
    import gzip
    import zlib

    args = ["arena", "--game", "xiaoluzi", "--a", "random", "--b", "heuristic", "--seed", "k"]
    log = tmp_path / name
    assert luzi(*args, "--deals", "2", "--log", str(log)).returncode == 0
    assert luzi(*args, "--deals", "3", "--log", str(tmp_path / "x")).returncode == 0
    line = (tmp_path / "x").read_text().splitlines()[2] + "\n"
    with log.open("ab") as handle:
        if name.endswith(".gz"):  # deal 3 written and flushed, then the process killed
            writer = zlib.compressobj(wbits=31)
            handle.write(writer.compress(line.encode()) + writer.flush(zlib.Z_SYNC_FLUSH))
        else:  # killed in the middle of deal 3's line
            handle.write(line[:20].encode())
    kept = luzi(*args, "--from-log", str(log), "--json")
    assert kept.returncode == 0, kept.stderr
    assert json.loads(kept.stdout)["deals"] == (3 if name.endswith(".gz") else 2)
    resumed = luzi(*args, "--deals", "4", "--log", str(log), "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    whole = json.loads(luzi(*args, "--deals", "4", "--json").stdout)
    assert json.loads(resumed.stdout)["diff"] == whole["diff"]
    opener = gzip.open if name.endswith(".gz") else open
    with opener(log, "rt", encoding="utf-8") as handle:  # a whole log again
        assert sorted(json.loads(line)["deal"] for line in handle) == [1, 2, 3, 4]


def test_two_workers_give_the_same_points_as_one() -> None:
    args = ["arena", "--game", "shanghai_doudizhu", "--a", "random", "--b", "heuristic"]
    one = json.loads(luzi(*args, "--deals", "3", "--seed", "w", "--json").stdout)
    two = json.loads(luzi(*args, "--deals", "3", "--seed", "w", "--workers", "2", "--json").stdout)
    assert one["diff"] == two["diff"]
    assert {k: v["won"] for k, v in one["kinds"].items()} == {
        k: v["won"] for k, v in two["kinds"].items()
    }


@pytest.mark.parametrize("game_key", ["daguai", "xiaoluzi", "shanghai_doudizhu"])
def test_duplicate_seating_puts_each_kind_in_every_seat_once(game_key: str) -> None:
    game = get_game(game_key)
    first, second = seats_of(game, 0), seats_of(game, 1)
    for kind in (0, 1):
        assert sorted(first[kind] + second[kind]) == list(range(game.seat_count))
    if game.fixed_sides:  # 大怪路子: a kind takes a whole side
        assert first[0] == game.side_seats("A") and first[1] == game.side_seats("B")


def test_the_same_kind_on_both_sides_draws_every_deal() -> None:
    """The heuristic against itself on duplicated deals: the luck cancels exactly."""
    outcomes = [play_duplicate("daguai", "heuristic", "heuristic", "d", n, 10) for n in (1, 2)]
    report = summarize("daguai", "heuristic", "heuristic", outcomes, budget_ms=10)
    assert report["drawn"] == 2 and report["diff"]["a_minus_b"] == 0
    assert set(report["kinds"]) == {"heuristic:a", "heuristic:b"}


def test_a_zero_sum_game_gives_the_kinds_opposite_points() -> None:
    outcome = play_duplicate("shanghai_doudizhu", "random", "heuristic", "z", 1, 10)
    assert outcome.points["a"] == -outcome.points["b"]
    assert outcome.think_ms["a"] and outcome.think_ms["b"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "unknown game"),
        (["--a", "genius"], "unknown bot kind"),
        (["--deals", "0"], "--deals must be at least 1"),
        (["--deals", "many"], "invalid int value"),
        (["--budget-ms", "-5"], "--budget-ms must be above 0"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--clock", "sundial"], "invalid choice"),
        (["--from-log", "/nonexistent/run.jsonl"], "cannot read the log"),
        (["--resume"], "--resume needs --log"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], message: str) -> None:
    out = luzi("arena", *args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_a_log_that_is_not_an_arena_log_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hello": 1}\n')
    out = luzi("arena", "--from-log", str(bad))
    assert out.returncode == 2 and "not an arena log" in out.stderr


@pytest.mark.parametrize("entry", ["python -m engine", "luzi"])
def test_output_cut_off_by_its_reader_ends_quietly(entry: str) -> None:
    """``luzi arena ... | head -1``: the reader goes away before the report is written; the
    command ends with status 1 and no traceback, whether run as the console script or as
    ``python -m engine``."""
    import os

    script = Path(sys.executable).with_name("luzi")
    command = [sys.executable, "-m", "engine"] if entry != "luzi" else [str(script)]
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write to the pipe now fails (EPIPE)
    try:
        out = subprocess.run(
            [*command, "arena", "--game", "xiaoluzi", "--a", "random", "--b", "heuristic",
             "--deals", "2", "--seed", "p"],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=300, check=False,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert out.returncode == 1
    assert out.stderr == ""


def test_the_arena_is_listed_in_the_command_lines_help() -> None:
    out = luzi("--help")
    assert out.returncode == 0
    assert "arena" in out.stdout and "duplicated deals" in out.stdout
