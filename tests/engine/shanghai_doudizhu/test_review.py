"""An independent review of the engine against the rules contract (``docs/shanghai_doudizhu.md``).

Each test is named after the contract line (or the issue's Referee CLI line) it checks and carries a
comment naming the bug it caught.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from engine.cards import Card, format_cards
from engine.cli import main
from engine.errors import EngineError
from engine.shanghai_doudizhu.actions import Action, ActionKind
from engine.shanghai_doudizhu.bots import HeuristicBot, play_deal
from engine.shanghai_doudizhu.deal import Deal
from engine.shanghai_doudizhu.record import Record, RecordError, replay
from engine.shanghai_doudizhu.result import EscapeKind, Factors
from engine.shanghai_doudizhu.rules import FirstBidder, Rules

from .helpers import rig

G = ["--game", "shanghai_doudizhu", "--json"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    data = json.loads(out) if out.strip() else None
    return status, data, err


def one_line(err: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err


def bot_record(seed: str) -> dict[str, Any]:
    deal = Deal(seed=seed)
    play_deal(deal, [HeuristicBot(s) for s in range(4)])
    data: dict[str, Any] = json.loads(Record.from_deal(deal).dumps())
    return data


# -- Referee CLI: "exit ... 1 a 'no' the command reports, 2 malformed input (one line on stderr,
#    never a traceback)" ------------------------------------------------------------------------


def test_cli_replay_a_stored_result_missing_a_key_is_a_reported_no(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # bug: a stored result lacking a key whose replayed value is null (here escape_kind) differed
    # from the replay without any key comparing unequal: IndexError and a traceback
    data = bot_record("review/1")
    del data["result"]["escape_kind"]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "replay", "--json", str(path))
    assert status == 1 and out["ok"] is False
    assert "escape_kind" in out["error"]
    one_line(err)


def test_cli_replay_an_absurd_huangfan_header_is_malformed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # bug: header huangfan 10**30 reached 1 << H and crashed with OverflowError and a traceback
    data = bot_record("review/2")
    data["headers"]["huangfan"] = 10**30
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, _, err = run(capsys, "replay", "--json", str(path))
    assert status == 2 and "huangfan" in err
    one_line(err)
    with pytest.raises(RecordError, match="huangfan"):
        replay(Record.from_json(data))


@pytest.mark.parametrize("command", ["score", "escape"])
def test_cli_score_and_escape_an_absurd_redeals_is_malformed(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # bug: --huangfan multiply --redeals 10**23 crashed with OverflowError and a traceback
    who = ["--landlord", "0", "--winner", "landlord"] if command == "score" else ["--seat", "1"]
    kind = [] if command == "score" else ["--kind", "active"]
    argv = [command, *G, *who, *kind, "--bid", "1", "--huangfan", "multiply"]
    status, _, err = run(capsys, *argv, "--redeals", str(10**23))
    assert status == 2 and "redeals" in err
    one_line(err)
    # under flag the run of all-pass deals is one ×2 however long, so the answer stands
    argv[argv.index("multiply")] = "flag"
    status, data, _ = run(capsys, *argv, "--redeals", str(10**23))
    assert status == 0 and data["points"][0] != 0


def test_factors_huangfan_is_bounded() -> None:
    with pytest.raises(EngineError, match="huangfan"):
        Factors(bid=1, huangfan=10**6)
    with pytest.raises(EngineError, match="huangfan"):
        Deal(seed=1, huangfan=10**6)


# -- "Public to all: hand sizes, bids and passes, the marked card (face up until played), 摊打
#    hands, declared sets, every play. The kitty is seen only by the landlord (by all after 摊打)."


_TOKEN = re.compile(r"(?<![0-9A-Z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Z])|(?<![A-Z])[SB]J(?![A-Z])")


def _seen(view: dict[str, Any]) -> set[str]:
    return set(_TOKEN.findall(json.dumps(view, ensure_ascii=False)))


def _allowed(deal: Deal, seat: int | None) -> set[str]:
    allowed = {str(c) for c in deal.pile} | {str(deal.marked_card)}
    allowed |= {str(c) for p in deal.declared for c in p.cards}
    if deal.open_hand and deal.landlord is not None:
        allowed |= {str(c) for c in deal.hands[deal.landlord]} | {str(c) for c in deal.kitty}
    if seat is not None:
        allowed |= {str(c) for c in deal.hands[seat]}
        if seat == deal.landlord:
            allowed |= {str(c) for c in deal.kitty}
    return allowed


@pytest.mark.parametrize("seed", range(12))
def test_views_never_show_a_hidden_card(seed: int) -> None:
    # checked right: every card token in a view is the seat's own, played, marked, declared, or
    # shown by 摊打 (the kitty too for the landlord), at every step of bot deals with timeouts
    rng = random.Random(seed)
    deal = Deal(seed=f"views/{seed}")
    bots = [HeuristicBot(f"{seed}/{s}") for s in range(4)]
    while not deal.over:
        assert _seen(deal.public_view()) <= _allowed(deal, None)
        for s in range(4):
            assert _seen(deal.private_view(s)) <= _allowed(deal, s)
        seat = deal.turn
        assert seat is not None
        if rng.random() < 0.15:
            deal.timeout(seat)
        else:
            deal.apply(bots[seat].act(deal, seat))
    for s in range(4):
        assert _seen(deal.private_view(s)) <= _allowed(deal, s)


def test_views_show_the_kitty_and_hand_to_all_only_after_open_hand() -> None:
    # checked right: before 摊打 no farmer sees the kitty; after 摊打 everyone sees hand and kitty
    for choice in (False, True):
        deal = rig({0: "3H"}, kitty="BJ BJ SJ SJ 2S 2H 2D 2C", marked=(0, "3H"))
        deal.apply(Action.bid(0, 3))
        for s in (1, 2, 3):
            assert deal.private_view(s)["kitty"] is None
        deal.apply(Action.open(0, choice))
        for s in (1, 2, 3):
            view = deal.private_view(s)
            assert (view["kitty"] == "BJ BJ SJ SJ 2S 2H 2D 2C") is choice
            assert (view["landlord_hand"] == format_cards(deal.hand(0))) is choice


# -- "A bid of 3 ends the bidding at once." ----------------------------------------------------


def test_cli_escape_during_bidding_with_a_bid_of_3_is_malformed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # bug: escape --bid 3 without --landlord was settled as an escape during the bidding, though a
    # 3 ends the bidding at once and fixes the landlord
    status, _, err = run(capsys, "escape", *G, "--seat", "1", "--kind", "active", "--bid", "3")
    assert status == 2 and "--landlord" in err
    one_line(err)
    status, data, _ = run(capsys, "escape", *G, "--seat", "1", "--kind", "active", "--bid", "2")
    assert status == 0 and data["points"] == [2, -7, 2, 2]


# -- "deal.apply(action) checks legality and raises IllegalActionError that names the action"
#    (STYLE.md); the bid is "1, 2 or 3", 摊打 and 打/不打 are yes or no ------------------------


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        (ActionKind.BID, {"value": 4}),
        (ActionKind.BID, {"value": 0}),
        (ActionKind.OPEN, {"value": 3}),
        (ActionKind.FIGHT, {"value": -1}),
        (ActionKind.PASS, {"value": 2}),
        (ActionKind.PLAY, {}),
        (ActionKind.PASS, {"cards": (Card.parse("3H"),)}),
        (ActionKind.PLAY, {"cards": (Card.parse("3H"),), "escape": EscapeKind.ACTIVE}),
        (ActionKind.ESCAPE, {}),
        (ActionKind.ESCAPE, {"escape": EscapeKind.ACTIVE, "system": True}),
    ],
)
def test_an_action_that_no_record_could_hold_is_refused(
    kind: ActionKind, fields: dict[str, Any]
) -> None:
    # bug: Action(ActionKind.OPEN, 0, 3) was applied as 摊打 (bool(3)) and Action(BID, 0, 4) as a
    # bid of 4, leaving records that Record.loads then refused
    with pytest.raises(EngineError):
        Action(kind, 0, **fields)


def test_a_bid_of_4_never_reaches_the_deal() -> None:
    deal = rig({0: "3H"}, marked=(0, "3H"))
    with pytest.raises(EngineError):
        deal.apply(Action(ActionKind.BID, 0, 4))
    assert deal.highest == 0 and deal.actions == []


# -- "2 full decks with jokers: 108 cards, every card exactly twice. Each seat gets 25 cards; 8
#    form the kitty (底牌)." ----------------------------------------------------------------------


def test_a_hand_made_deal_is_a_whole_deal_of_25_25_25_25_and_8() -> None:
    # bug: hand-made deals (and so the hands header of a record) took hands of any size, so a
    # record giving a seat 40 cards and the kitty none replayed as verified
    full = rig()
    hands = [list(full.hands[s]) for s in range(4)]
    kitty = list(full.kitty)
    hands[0] += kitty
    with pytest.raises(EngineError, match="25"):
        Deal(hands=hands, kitty=[], marked=(0, hands[0][0]))
    with pytest.raises(EngineError, match="25"):
        Deal(hands=[h[:24] for h in full.hands], kitty=kitty, marked=(0, full.hands[0][0]))
    Deal(hands=full.hands, kitty=kitty, marked=(0, full.hands[0][0]))  # the whole deal is fine


def test_replay_refuses_a_record_whose_hands_are_not_a_deal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = rig()
    data = json.loads(Record.from_deal(deal).dumps())
    data["headers"]["hands"][0] += " " + data["headers"]["kitty"]
    data["headers"]["kitty"] = ""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, _, err = run(capsys, "replay", "--json", str(path))
    assert status == 2 and "25" in err
    one_line(err)


# -- "option `first_bidder`: `marked_card` | `rotate` (the seat after the previous deal's first
#    bidder starts ...; the marked card is a random card of that seat's hand)" --------------------


def test_under_marked_card_the_holder_of_the_marked_card_bids_first() -> None:
    # bug: Deal(first_bidder=2) (a record's first_bidder header) under first_bidder=marked_card
    # let seat 2 bid first and drew the marked card from his hand, whoever the seed's draw named
    with pytest.raises(EngineError, match="rotate"):
        Deal(seed=5, first_bidder=2)
    deal = Deal(seed=5, rules=Rules(first_bidder=FirstBidder.ROTATE), first_bidder=2)
    assert deal.first_bidder == deal.marked_seat == 2


def test_under_rotate_the_marked_card_is_in_the_first_bidders_hand() -> None:
    # bug: a hand-made deal given first_bidder=1 and a marked card of seat 0 let seat 0 bid first
    full = rig()
    rotate = Rules(first_bidder=FirstBidder.ROTATE)
    with pytest.raises(EngineError, match="first bidder"):
        Deal(
            hands=full.hands,
            kitty=full.kitty,
            marked=(0, full.hands[0][0]),
            first_bidder=1,
            rules=rotate,
        )
    deal = Deal(hands=full.hands, kitty=full.kitty, first_bidder=1, rules=rotate)
    assert deal.first_bidder == deal.marked_seat == 1 and deal.turn == 1


# -- Result and scoring, Escapes, Rating: every row and option through the referee CLI, worked by
#    hand from the contract's formulas (checked right) -----------------------------------------

_SCORE = ["--landlord", "1", "--bid"]


@pytest.mark.parametrize(
    ("argv", "points", "rating"),
    [
        # 报到 打, farmers win: all 0; rating still moves, unless report_loss_rating=void
        ([*_SCORE, "2", "--winner", "farmers", "--report", "play"], [0] * 4, [1, -3, 1, 1]),
        (
            [*_SCORE, "2", "--winner", "farmers", "--report", "play"]
            + ["--report-loss-rating", "void"],
            [0] * 4,
            [0] * 4,
        ),
        # 报到 不打: b·D·2^(H+J), 双报到 ×2, never the 摊打 factor
        ([*_SCORE, "2", "--winner", "landlord", "--report", "no_play"], [-2, 6, -2, -2], None),
        (
            [*_SCORE, "2", "--winner", "landlord", "--report", "double_no_play"],
            [-4, 12, -4, -4],
            None,
        ),
        (
            [*_SCORE, "3", "--head-bid", "--open-hand", "--winner", "landlord"]
            + ["--report", "no_play"],
            [-4, 12, -4, -4],
            [-1, 3, -1, -1],
        ),
        # per_set: 打 win ×2n: 4·2·(2·2) = 32
        (
            [*_SCORE, "3", "--head-bid", "--open-hand", "--winner", "landlord"]
            + ["--report", "double_play", "--double-report", "per_set"],
            [-32, 96, -32, -32],
            None,
        ),
        # 荒番: flag and queue ×2 once, multiply ×2 per all-pass deal
        ([*_SCORE, "1", "--winner", "landlord", "--redeals", "3"], [-2, 6, -2, -2], None),
        (
            [*_SCORE, "1", "--winner", "landlord", "--redeals", "3", "--huangfan", "queue"],
            [-2, 6, -2, -2],
            None,
        ),
        (
            [*_SCORE, "1", "--winner", "landlord", "--redeals", "3", "--huangfan", "multiply"],
            [-8, 24, -8, -8],
            None,
        ),
        # farmers win with 荒番 + 标记王, base 5: 5·1·4 = 20
        (
            [*_SCORE, "1", "--winner", "farmers", "--redeals", "1", "--marked-joker"]
            + ["--base", "5"],
            [20, -60, 20, 20],
            [1, -3, 1, 1],
        ),
    ],
)
def test_result_and_scoring_rows_through_the_cli(
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    points: list[int],
    rating: list[int] | None,
) -> None:
    status, data, _ = run(capsys, "score", *G, *argv)
    assert status == 0 and data["points"] == points
    if rating is not None:
        assert data["rating"] == rating


@pytest.mark.parametrize(
    ("argv", "points", "rating"),
    [
        # during the bidding: each other player b·g·2^(H+J), g = max(1, highest bid)
        (["--seat", "2", "--kind", "disconnect"], [1, 1, -3, 1], [1, 1, -3, 1]),
        (["--seat", "2", "--kind", "timeouts"], [1, 1, -3, 1], [1, 1, -3, 1]),
        (["--seat", "2", "--kind", "active"], [1, 1, -4, 1], [1, 1, -3, 1]),
        (
            ["--seat", "2", "--kind", "active", "--bid", "2", "--redeals", "1", "--marked-joker"],
            [8, 8, -27, 8],
            [1, 1, -3, 1],
        ),
        # a farmer escapes: the landlord gets 3f of a landlord win, the farmers f of a farmers win
        (
            ["--seat", "2", "--kind", "timeouts", "--landlord", "0", "--bid", "2"],
            [6, 2, -10, 2],
            [3, 1, -1, 1],
        ),
        # the landlord escapes: each farmer gets his win, 2; ⌈1.1·6⌉ = 7
        (
            ["--seat", "0", "--kind", "active", "--landlord", "0", "--bid", "2"],
            [-7, 2, 2, 2],
            [-3, 1, 1, 1],
        ),
        # after 报到 打 a farmer's W is 0; the landlord's is 3·4·2·2 = 48; ⌈52.8⌉ = 53
        (
            ["--seat", "1", "--kind", "active", "--landlord", "0", "--bid", "3", "--head-bid"]
            + ["--open-hand", "--report", "play"],
            [48, -53, 0, 0],
            [3, -1, 1, 1],
        ),
        (
            ["--seat", "0", "--kind", "timeouts", "--landlord", "0", "--bid", "3", "--head-bid"]
            + ["--open-hand", "--report", "double_play"],
            [0, 0, 0, 0],
            [-3, 1, 1, 1],
        ),
        # S = 12: ceil pays 14, half_up 13, once on the total
        (
            ["--seat", "0", "--kind", "active", "--landlord", "0", "--bid", "1", "--base", "4"],
            [-14, 4, 4, 4],
            [-3, 1, 1, 1],
        ),
        (
            ["--seat", "0", "--kind", "active", "--landlord", "0", "--bid", "1", "--base", "4"]
            + ["--active-escape-rounding", "half_up"],
            [-13, 4, 4, 4],
            [-3, 1, 1, 1],
        ),
        (
            ["--seat", "0", "--kind", "active", "--landlord", "0", "--bid", "1", "--base", "4"]
            + ["--active-escape-percent", "150"],
            [-18, 4, 4, 4],
            [-3, 1, 1, 1],
        ),
    ],
)
def test_escape_rows_through_the_cli(
    capsys: pytest.CaptureFixture[str], argv: list[str], points: list[int], rating: list[int]
) -> None:
    status, data, _ = run(capsys, "escape", *G, *argv)
    assert status == 0 and data["points"] == points and data["rating"] == rating


# -- The whole settlement, recomputed from the deal's actions alone with the contract's formulas
#    (an oracle independent of result.py; checked right) -----------------------------------------


def _oracle(deal: Deal) -> tuple[list[int], list[int]]:
    b, h, j = deal.base, deal.huangfan, int(deal.marked_card.is_joker)
    bids: dict[int, int] = {}
    landlord = None
    head = opened = False
    reported, fight = 0, None
    last_player = None
    escape = None
    for a in deal.actions:
        if a.kind is ActionKind.BID:
            bids[a.seat] = a.value
        elif a.kind is ActionKind.OPEN:
            opened = bool(a.value)
        elif a.kind is ActionKind.REPORT:
            reported = sum(1 for c in a.cards if c.is_joker) // 4 + len(
                {c.rank for c in a.cards if not c.is_joker}
            )
        elif a.kind is ActionKind.FIGHT:
            fight = bool(a.value)
        elif a.kind is ActionKind.PLAY:
            last_player = a.seat
        elif a.kind is ActionKind.ESCAPE:
            escape = (a.seat, a.escape)
    if deal.landlord is not None:
        landlord = deal.landlord
        head = len(bids) == 1 and bids.get(deal.first_bidder) == 3
    d = max(bids.values(), default=0)
    t = int(opened)
    big_d = 4 if head else d
    if escape is None and deal.timeouts and max(deal.timeouts) >= deal.rules.timeouts_to_escape:
        escape = (max(range(4), key=lambda s: deal.timeouts[s]), EscapeKind.TIMEOUTS)
    if escape is not None:
        seat, kind = escape
        if landlord is None:
            wins = [b * max(1, d) * 2 ** (h + j)] * 4
            rating = [1] * 4
            rating[seat] = -3
        else:
            if fight is None:
                reported = 0
            n = 2 if reported == 1 else 4 if reported else 1
            win_l = 3 * b * big_d * 2 ** (h + j + t) * (n if fight else 1)
            win_f = 0 if reported and fight else b * d * 2 ** (h + j + t)
            wins = [win_l if p == landlord else win_f for p in range(4)]
            rating = [3 if p == landlord else 1 for p in range(4)]
            rating[seat] = -3 if seat == landlord else -1
        wins[seat] = 0
        total = sum(wins)
        pays = (110 * total + 99) // 100 if kind is EscapeKind.ACTIVE else total
        wins[seat] = -pays
        return wins, rating
    if landlord is None:
        return [0] * 4, [0] * 4
    if fight is False:
        f = b * big_d * 2 ** (h + j) * (1 if reported == 1 else 2)
        sign = 1
    elif last_player == landlord:
        report = (2 if reported == 1 else 4) if reported and fight else 1
        f = b * big_d * 2 ** (h + j + t) * report
        sign = 1
    else:
        f = 0 if reported and fight else b * d * 2 ** (h + j + t)
        sign = -1
    points = [-sign * f] * 4
    points[landlord] = 3 * sign * f
    rating = [-sign] * 4
    rating[landlord] = 3 * sign
    return points, rating


@pytest.mark.parametrize("seed", range(100))
def test_every_settlement_equals_the_contracts_formulas(seed: int) -> None:
    rng = random.Random(seed)
    huangfan = rng.choice([0, 0, 1])
    deal = Deal(seed=f"oracle/{seed}", huangfan=huangfan)
    bots = [HeuristicBot(f"o{seed}/{s}") for s in range(4)]
    escape_at = rng.choice([None, None, rng.randrange(1, 40)])
    step = 0
    while not deal.over:
        step += 1
        seat = deal.turn
        assert seat is not None
        if step == escape_at:
            deal.escape(rng.randrange(4), rng.choice(list(EscapeKind)))
        elif rng.random() < 0.05:
            deal.timeout(seat)
        else:
            deal.apply(bots[seat].act(deal, seat))
    assert deal.result is not None
    points, rating = _oracle(deal)
    assert list(deal.result.points) == points and list(deal.result.rating) == rating
