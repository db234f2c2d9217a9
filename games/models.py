"""The card room's data: players, tables of any registered game, matches, deals, the action log,
and each match's figures after every deal (大怪路子's level ladder).

A table names its game (engine.registry) and its seat count; seats are numbered 0..n-1 in play
order. Points are stored per seat (a JSON list) and per side (a JSON object, for games with fixed
sides); a game's own figures (levels, rating, silver...) are JSON objects keyed as the game's
``figure_specs`` say. No rule of the game is decided here: engine/ decides, and games/services.py
stores what it decided. Integrity lives in the database (constraints) where it can.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine.registry import DEFAULT_GAME
from games.names import table_title

#: The most seats a table may have (the games have 4 or 6); each table knows its own count.
MAX_SEATS = 8


def _seat_check(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{field}__gte": 0, f"{field}__lt": MAX_SEATS}), name=name
    )


class Player(models.Model):
    """A person or a bot who sits at tables. A person may have a login account; a bot never has
    one."""

    name = models.CharField(_("name"), max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_kind = models.CharField(
        _("bot kind"), max_length=32, blank=True, help_text=_("The engine's bot strategy.")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(is_bot=True) | Q(bot_kind=""), name="player_only_bots_have_bot_kind"
            ),
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=True), name="player_bot_has_no_account"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.name} 🤖" if self.is_bot else self.name


class TableMode(models.TextChoices):
    ONLINE = "online", _("online")
    OFFLINE = "offline", _("offline (results entered by a referee)")


class TableStatus(models.TextChoices):
    OPEN = "open", _("open")
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


class Table(models.Model):
    """Seats in play order where matches of one game are played, online (in Luzi) or offline
    (real cards)."""

    Mode = TableMode
    Status = TableStatus

    name = models.CharField(_("name"), max_length=100)
    game = models.CharField(
        _("game"),
        max_length=32,
        default=DEFAULT_GAME,
        help_text=_("The game's key in the registry."),
    )
    seat_count = models.PositiveSmallIntegerField(_("seats"), default=6)
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices, default=Mode.ONLINE)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    players = models.ManyToManyField(Player, through="TableSeat", related_name="tables")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(mode__in=[m.value for m in TableMode]), name="table_mode_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in TableStatus]), name="table_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(seat_count__gte=2, seat_count__lte=MAX_SEATS),
                name="table_seat_count_2_to_8",
            ),
            models.CheckConstraint(condition=~Q(game=""), name="table_game_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        """The table's name as a page shows it, in the active language (see
        games.tables.context)."""
        return table_title(self.name)


class TableSeat(models.Model):
    """One player in one seat of a table (0 .. the table's seat count - 1, in play order)."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="seats"
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "seat"]
        constraints = [
            _seat_check("seat", "tableseat_seat_in_range"),
            models.UniqueConstraint(fields=["table", "seat"], name="tableseat_one_player_per_seat"),
            models.UniqueConstraint(
                fields=["table", "player"], name="tableseat_one_seat_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.seat}: {self.player}"


class MatchStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")
    ABORTED = "aborted", _("aborted")


class MatchEndReason(models.TextChoices):
    DEALS_PLAYED = "deals_played", _("all deals played")
    PASSED_A = "passed_a", _("passed A (过A)")
    ESCAPE = "escape", _("escape during a deal (逃跑)")
    LEFT = "left", _("left between deals")
    RESULT_ENTERED = "result_entered", _("result entered by a referee")
    TIME_UP = "time_up", _("the round's time ran out")


class Match(models.Model):
    """The deals played at a table under one set of rule options, until its deals are played (or
    the game ends it early: 大怪路子's 过A), or someone escapes or leaves."""

    Status = MatchStatus
    EndReason = MatchEndReason

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="matches"
    )
    #: the table's game when the match began (a match never changes game)
    game = models.CharField(_("game"), max_length=32, default=DEFAULT_GAME)
    rule_options = models.JSONField(_("rule options"), default=dict, blank=True)
    deals_per_match = models.PositiveSmallIntegerField(_("deals per match"), default=3)
    base_score = models.PositiveIntegerField(_("base score (底分)"), default=1)
    seed = models.BigIntegerField(_("seed"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    current_deal = models.PositiveSmallIntegerField(_("current deal"), default=0)
    points = models.JSONField(_("points per seat"), default=list, blank=True)
    side_points = models.JSONField(_("points per side"), default=dict, blank=True)
    figures = models.JSONField(
        _("figures"), default=dict, blank=True, help_text=_("The game's own figures now.")
    )
    winner = models.CharField(
        _("winner"), max_length=16, blank=True, help_text=_("The side (or seat) that won.")
    )
    autoplay = models.BooleanField(
        _("autoplay"),
        default=False,
        help_text=_("Every seat is played by the system's bots (simulations and the demo)."),
    )
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=30)
    bot_delay_ms = models.PositiveIntegerField(_("bot think time (ms)"), default=600)
    between_deals_seconds = models.PositiveSmallIntegerField(
        _("pause between deals (s)"), default=5
    )
    left_seat = models.PositiveSmallIntegerField(
        _("seat that left between deals"), null=True, blank=True
    )
    #: an offline table's score sheet as the referee entered it (the game's own JSON format):
    #: what the engine scored, and what the audit scores again
    sheet = models.JSONField(
        _("score sheet"),
        default=dict,
        blank=True,
        help_text=_("An offline table's score sheet as entered, in the game's format."),
    )
    #: the first deal dealt as another deal was (a same-deal challenge), in the game's own JSON
    #: (``Game.deal_setup``); null for a match dealt from its seed alone
    first_deal = models.JSONField(
        _("first deal"),
        null=True,
        blank=True,
        help_text=_("A challenge's first deal: the cards of the deal it plays again."),
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    end_reason = models.CharField(
        _("ended by"), max_length=20, choices=EndReason.choices, blank=True
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(deals_per_match__gte=1), name="match_deals_min_1"),
            models.CheckConstraint(condition=Q(base_score__gte=1), name="match_base_score_min_1"),
            models.CheckConstraint(
                condition=Q(turn_seconds__gte=1), name="match_turn_seconds_min_1"
            ),
            _seat_check("left_seat", "match_left_seat_in_range"),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in MatchStatus]), name="match_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status="finished") | ~Q(end_reason=""),
                name="match_finished_has_end_reason",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=["pending", "playing"]),
                name="match_one_unfinished_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.get_status_display()}"


class DealStatus(models.TextChoices):
    TRIBUTE = "tribute", _("tribute and return (进贡/还贡)")
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")
    ABORTED = "aborted", _("aborted")


class Deal(models.Model):
    """One deal of a match: dealer, level rank, seed, tribute, finishing order, result, points, the
    record."""

    Status = DealStatus

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="deals"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    dealer_seat = models.PositiveSmallIntegerField(_("dealer seat (庄家)"))
    level_rank = models.PositiveSmallIntegerField(
        _("level rank (级牌)"), null=True, blank=True, help_text=_("For games with levels.")
    )
    #: what the engine dealt the deal from (a number, or a game's text such as "<match seed>/2")
    seed = models.CharField(_("seed"), max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    tribute = models.JSONField(_("tribute (进贡/还贡)"), default=dict, blank=True)
    finishing_order = models.JSONField(_("finishing order"), default=list, blank=True)
    result = models.JSONField(_("result"), default=dict, blank=True)
    points = models.JSONField(_("points per seat"), default=list, blank=True)
    side_points = models.JSONField(_("points per side"), default=dict, blank=True)
    record = models.TextField(
        _("record"), blank=True, help_text=_("The engine's full record of the deal.")
    )
    seq = models.PositiveIntegerField(
        _("actions so far"), default=0, help_text=_("The sequence number of the last action.")
    )
    turn_deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"], name="deal_number_unique_per_match"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_min_1"),
            _seat_check("dealer_seat", "deal_dealer_seat_in_range"),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in DealStatus]), name="deal_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} · #{self.number}"


class ActionQuerySet(models.QuerySet["Action"]):
    def update(self, **kwargs: Any) -> int:
        raise TypeError("The action log is append-only: actions cannot be updated.")


class ActionKind(models.TextChoices):
    PLAY = "play", _("play")
    PASS = "pass", _("pass")
    TRIBUTE = "tribute", _("tribute (进贡)")
    RETURN = "return", _("return (还贡)")
    TIMEOUT = "timeout", _("timeout (系统代打)")
    ESCAPE = "escape", _("escape (逃跑)")


class Action(models.Model):
    """One entry of a deal's append-only action log, numbered 1, 2, 3, ... within the deal."""

    Kind = ActionKind

    deal = models.ForeignKey(
        Deal, verbose_name=_("deal"), on_delete=models.CASCADE, related_name="actions"
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    #: the game's action kind (大怪路子: play, pass, tribute, return, timeout, escape; others bid,
    #: declare, ...): the engine checks it, the database only that it is there
    kind = models.CharField(_("kind"), max_length=16)
    cards = models.CharField(_("cards"), max_length=200, blank=True)
    #: the action's other fields as JSON text (上海斗地主's bid value, an escape's kind), "" if none
    extra = models.TextField(_("other fields"), blank=True, default="")
    system = models.BooleanField(
        _("system"), default=False, help_text=_("Played by the system for a seat out of time.")
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    objects = ActionQuerySet.as_manager()

    class Meta:
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        ordering = ["deal", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seq"], name="action_seq_unique_per_deal"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="action_seq_min_1"),
            _seat_check("seat", "action_seat_in_range"),
            models.CheckConstraint(condition=~Q(kind=""), name="action_kind_not_empty"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} seat {self.seat} {self.kind} {self.cards}".rstrip()

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError("The action log is append-only: an action cannot be changed.")
        super().save(*args, **kwargs)


class FigureStep(models.Model):
    """The match's figures after a deal (deal 0: the start of the match), as the game names them
    (大怪路子: ``{"level": {"A": 2, "B": 5}}``), so a ladder can be drawn."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="figure_steps"
    )
    deal_number = models.PositiveSmallIntegerField(_("after deal"))
    figures = models.JSONField(_("figures"), default=dict)

    class Meta:
        verbose_name = _("figures after a deal")
        verbose_name_plural = _("figures after each deal")
        ordering = ["match", "deal_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "deal_number"], name="figurestep_one_per_deal"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} · {self.deal_number}"


class Challenge(models.Model):
    """A same-deal challenge (挑战这副牌): ``player`` plays the cards of a finished deal again,
    in ``seat``, against bots at a practice table; ``points`` are that seat's points in the
    challenge's deal once it is over (null while it is played)."""

    source = models.ForeignKey(
        Deal, verbose_name=_("deal"), on_delete=models.CASCADE, related_name="challenges"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="challenges"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    match = models.OneToOneField(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="challenge"
    )
    points = models.IntegerField(_("points"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at", "id"]
        constraints = [_seat_check("seat", "challenge_seat_in_range")]
        indexes = [models.Index(fields=["source", "seat"], name="challenge_source_seat")]

    def __str__(self) -> str:
        return f"{self.player} · {self.source} · {self.seat}"
