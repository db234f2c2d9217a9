"""Every legal play of a hand, built from its rank counts (never by enumerating subsets).

Contract: ``docs/shanghai_doudizhu.md``, sections *Plays*, *Bomb limits* and *报到*. Plays are
listed once per multiset of ranks (suits never matter); the cards of each listed play are the
lowest suits (S H D C) the hand holds of each rank. ``bombs=False`` leaves out every bomb (a
farmer at his limit); ``declared`` are the landlord's declared 报到 sets, whose cards go out
only whole, alone, as one bomb.

>>> from engine.cards import parse_cards
>>> [str(p) for p in legal_plays(parse_cards("3H 3S 4H 4S 5H 5S"), Play.parse("7H 7S"))]
[]
>>> len(legal_plays(parse_cards("3H 4H 5H 6H 7H 7S")))
7
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from engine.cards import Card, Rank
from engine.shanghai_doudizhu.plays import (
    JOKER_BOMB_SIZE,
    Play,
    PlayType,
    chain_rank,
    power,
    sort_key,
)

__all__ = ["Shape", "declared_ranks", "legal_plays", "legal_shapes", "play_of", "report_sets"]

_SJ = int(Rank.SMALL_JOKER)
_BJ = int(Rank.BIG_JOKER)
_ACE = int(Rank.ACE)
_NATURAL = tuple(range(2, 15))
_ALL_RANKS = tuple(range(2, 17))
_P: tuple[int, ...] = tuple(power(r) if r >= 2 else 0 for r in range(17))
_R: tuple[Rank, ...] = tuple(Rank(max(r, 2)) for r in range(17))
# chain position -> rank value
_POS_RANK: tuple[int, ...] = tuple(int(chain_rank(p)) if p else 0 for p in range(15))
_SEQ_TYPE = {1: PlayType.STRAIGHT, 2: PlayType.PAIR_STRAIGHT, 3: PlayType.TRIPLE_STRAIGHT}
_SEQ_MIN = {1: 5, 2: 3, 3: 2}

#: A play without its cards: (type, key, key rank or None, run length, [(rank, count), ...]).
Shape = tuple[PlayType, int, Rank | None, int, list[tuple[int, int]]]


def report_sets(hand: Sequence[Card]) -> list[Play]:
    """The 报到 sets (可报到牌) of a hand: the four jokers, and every rank held 7 or 8 times, whole.

    >>> from engine.cards import parse_cards
    >>> [str(p) for p in report_sets(parse_cards("SJ SJ BJ BJ 3H"))]
    ['SJ SJ BJ BJ']
    """
    by_rank = _by_rank(hand)
    sets: list[Play] = []
    if len(by_rank[_SJ]) == 2 and len(by_rank[_BJ]) == 2:
        sets.append(Play(PlayType.BOMB, (*by_rank[_SJ], *by_rank[_BJ]), 0, None, 1))
    for r in _NATURAL:
        if len(by_rank[r]) >= 7:
            sets.append(Play(PlayType.BOMB, tuple(by_rank[r]), power(r), Rank(r), 1))
    sets.sort(key=lambda p: p.bomb_strength)
    return sets


def declared_ranks(declared: Sequence[Play]) -> frozenset[int]:
    """The ranks locked by declared sets (both joker ranks for the four jokers)."""
    return frozenset(c.rank for p in declared for c in p.cards)


def _by_rank(hand: Sequence[Card]) -> list[list[Card]]:
    by_rank: list[list[Card]] = [[] for _ in range(17)]
    for card in sorted(hand, key=lambda c: c.code):
        by_rank[card.rank].append(card)
    return by_rank


def legal_shapes(
    hand: Sequence[Card],
    over: Play | None = None,
    *,
    bombs: bool = True,
    declared: Sequence[Play] = (),
) -> list[Shape]:
    """The legal plays of :func:`legal_plays` as shapes (type, key, key rank, run length,
    [(rank, count), ...]), without choosing cards: what a bot scans cheaply."""
    cnt = [0] * 17
    for card in hand:
        cnt[card.rank] += 1
    for r in declared_ranks(declared):
        cnt[r] = 0
    shapes = list(_lead(cnt, bombs) if over is None else _follow(cnt, over, bombs))
    if bombs:
        for p in declared:
            if over is None or p.beats(over):
                parts = sorted(Counter(c.rank for c in p.cards).items())
                shapes.append(
                    (PlayType.BOMB, p.key, p.key_rank, 1, [(int(r), n) for r, n in parts])
                )
    return shapes


def play_of(hand: Sequence[Card], shape: Shape) -> Play:
    """The play of ``shape`` made of ``hand``'s cards (lowest suits first)."""
    return _build(_by_rank(hand), shape)


def _build(by_rank: list[list[Card]], shape: Shape) -> Play:
    kind, key, key_rank, length, parts = shape
    cards: list[Card] = []
    for r, n in parts:
        cards.extend(by_rank[r][:n])
    cards.sort(key=sort_key)
    return Play(kind, tuple(cards), key, key_rank, length)


def legal_plays(
    hand: Sequence[Card],
    over: Play | None = None,
    *,
    bombs: bool = True,
    declared: Sequence[Play] = (),
) -> list[Play]:
    """Every play of ``hand`` that may lead (``over`` is ``None``) or beat ``over``.

    ``bombs`` is whether the seat may still play a bomb; ``declared`` its declared 报到 sets.
    """
    by_rank = _by_rank(hand)
    return [_build(by_rank, s) for s in legal_shapes(hand, over, bombs=bombs, declared=declared)]


def _lead(cnt: list[int], bombs: bool) -> Iterator[Shape]:
    for r in _ALL_RANKS:
        c = cnt[r]
        if c >= 1:
            yield (PlayType.SINGLE, _P[r], _R[r], 1, [(r, 1)])
        if c >= 2:
            yield (PlayType.PAIR, _P[r], _R[r], 1, [(r, 2)])
        if c >= 3:
            yield (PlayType.TRIPLE, _P[r], _R[r], 1, [(r, 3)])
    yield from _triple_pairs(cnt, 0)
    for m in (1, 2, 3):
        yield from _runs(cnt, m, _SEQ_MIN[m], 14, 0)
    yield from _airplanes(cnt, None, 0)
    if bombs:
        yield from _bombs(cnt, (0, 0))


def _follow(cnt: list[int], over: Play, bombs: bool) -> Iterator[Shape]:
    kind = over.type
    if kind is PlayType.BOMB:
        if bombs:
            yield from _bombs(cnt, over.bomb_strength)
        return
    key = over.key
    if kind in (PlayType.SINGLE, PlayType.PAIR, PlayType.TRIPLE):
        n = over.size
        for r in _ALL_RANKS:
            if cnt[r] >= n and _P[r] > key:
                yield (kind, _P[r], _R[r], 1, [(r, n)])
    elif kind is PlayType.TRIPLE_PAIR:
        yield from _triple_pairs(cnt, key)
    elif kind is PlayType.AIRPLANE:
        yield from _airplanes(cnt, over.length, key)
    else:
        m = over.size // over.length
        yield from _runs(cnt, m, over.length, over.length, key)
    if bombs:
        yield from _bombs(cnt, (0, 0))


def _triple_pairs(cnt: list[int], above: int) -> Iterator[Shape]:
    for t in _NATURAL:
        if cnt[t] >= 3 and _P[t] > above:
            for p in _ALL_RANKS:
                if p != t and cnt[p] >= 2:
                    yield (PlayType.TRIPLE_PAIR, _P[t], _R[t], 1, [(t, 3), (p, 2)])


def _run_starts(cnt: list[int], m: int) -> list[int]:
    """For each chain position p, how many consecutive positions from p hold ``m`` cards each
    (the run reaching position 14 from position 1 needs the A group twice)."""
    pos = [cnt[_POS_RANK[p]] >= m if p else False for p in range(15)]
    reach = [0] * 16
    for p in range(14, 0, -1):
        reach[p] = reach[p + 1] + 1 if pos[p] else 0
    if reach[1] >= 13 and cnt[_ACE] < 2 * m:
        reach[1] = 13  # A on both ends needs the A group twice
    return reach


def _runs(cnt: list[int], m: int, shortest: int, longest: int, above: int) -> Iterator[Shape]:
    kind = _SEQ_TYPE[m]
    reach = _run_starts(cnt, m)
    for start in range(1, 15):
        top_len = min(reach[start], longest)
        for length in range(shortest, top_len + 1):
            end = start + length - 1
            if end <= above:
                continue
            if start == 1 and length == 13:
                continue  # the same ranks as 2..A, which reads as key A
            if length == 14:
                parts = [(_POS_RANK[p], m) for p in range(2, 14)] + [(_ACE, 2 * m)]
            else:
                parts = [(_POS_RANK[p], m) for p in range(start, end + 1)]
            yield (kind, end, chain_rank(end), length, parts)


def _airplanes(cnt: list[int], only: int | None, above: int) -> Iterator[Shape]:
    treach = _run_starts(cnt, 3)
    preach = _run_starts(cnt, 2)
    for tstart in range(1, 15):
        for k in range(2, min(treach[tstart], 6) + 1):
            if only is not None and k != only:
                continue
            tend = tstart + k - 1
            if tend <= above:
                continue
            tranks = {_POS_RANK[p] for p in range(tstart, tend + 1)}
            for pstart in range(1, 16 - k):
                if preach[pstart] < k:
                    continue
                pranks = [_POS_RANK[p] for p in range(pstart, pstart + k)]
                if tranks.intersection(pranks):
                    continue
                parts = [(r, 3) for r in sorted(tranks)] + [(r, 2) for r in pranks]
                yield (PlayType.AIRPLANE, tend, chain_rank(tend), k, parts)


def _bombs(cnt: list[int], above: tuple[int, int]) -> Iterator[Shape]:
    for r in _NATURAL:
        for size in range(4, cnt[r] + 1):
            if (size, _P[r]) > above:
                yield (PlayType.BOMB, _P[r], _R[r], 1, [(r, size)])
    if cnt[_SJ] == 2 and cnt[_BJ] == 2 and above < (JOKER_BOMB_SIZE, 0):
        yield (PlayType.BOMB, 0, None, 1, [(_SJ, 2), (_BJ, 2)])
