"""Units, memberships, meets, events, teams and registrations.

Dependencies point one way: tournaments → games. A pairing puts two teams at a games ``Table`` for a
round: team A takes the seats of the game's first side and team B those of its second, each in its
members' order (大怪路子: seats 0/2/4 and 1/3/5); a team has as many players as a side has seats
(:mod:`tournaments.common.sides`)."""

from __future__ import annotations

from django.apps import apps as django_apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from engine.duplicate import plays_duplicate
from engine.registry import DEFAULT_GAME, get_game, registered_games, registered_keys
from games.models import MAX_SEATS, Player, TableMode
from tournaments.common import sides


def default_placement_points() -> list[int]:
    """A sports meet's placement table: 1st place 7 points, then 5, 4, 3, 2, 1."""
    return [7, 5, 4, 3, 2, 1]


class UnitKind(models.TextChoices):
    COMPANY = "company", _("company")
    DEPARTMENT = "department", _("department")
    OTHER = "other", _("other")


class Unit(models.Model):
    """A company, department or other group players belong to; units nest through ``parent``."""

    Kind = UnitKind

    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.DEPARTMENT)
    parent = models.ForeignKey(
        "self",
        verbose_name=_("part of"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="children",
    )
    #: The meet whose import made the unit (its names are resolved within that meet); none for
    #: a unit made by hand or shared by every meet.
    meet = models.ForeignKey(
        "Meet",
        verbose_name=_("meet"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="units",
    )
    members = models.ManyToManyField(Player, through="Membership", related_name="units")

    class Meta:
        verbose_name = _("unit")
        verbose_name_plural = _("units")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["parent", "name"],
                condition=Q(parent__isnull=False),
                name="unit_name_unique_within_parent",
            ),
            models.UniqueConstraint(
                fields=["name"],
                condition=Q(parent__isnull=True, meet__isnull=True),
                name="unit_top_level_name_unique",
            ),
            models.UniqueConstraint(
                fields=["meet", "name"],
                condition=Q(parent__isnull=True, meet__isnull=False),
                name="unit_top_level_name_unique_per_meet",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="unit_name_not_empty"),
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in UnitKind]), name="unit_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A player's membership of a unit, with an optional employee number."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="memberships"
    )
    unit = models.ForeignKey(
        Unit, verbose_name=_("unit"), on_delete=models.CASCADE, related_name="memberships"
    )
    employee_number = models.CharField(_("employee number"), max_length=32, blank=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["player", "unit"], name="membership_once_per_unit"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.unit}"


class Meet(models.Model):
    """An occasion, such as a company's staff sports meet, holding several events."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    organizer_unit = models.ForeignKey(
        Unit,
        verbose_name=_("host"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="meets",
    )
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True)
    placement_points = models.JSONField(
        _("placement points"),
        default=default_placement_points,
        blank=True,
        help_text=_("Points a unit earns for a team's 1st, 2nd, 3rd ... place in each event."),
    )

    class Meta:
        verbose_name = _("meet")
        verbose_name_plural = _("meets")
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(starts_on__isnull=True)
                | Q(ends_on__isnull=True)
                | Q(ends_on__gte=F("starts_on")),
                name="meet_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        points = self.placement_points
        if not isinstance(points, list) or any(
            not isinstance(p, int) or isinstance(p, bool) or p < 0 for p in points
        ):
            raise ValidationError(
                {"placement_points": _("Use a list of whole numbers, e.g. [7, 5, 4, 3, 2, 1].")}
            )


class TieBreak(models.TextChoices):
    HEAD_TO_HEAD = "head_to_head", _("head-to-head")
    OPPONENTS_POINTS = "opponents_points", _("opponents' points")
    LEVELS_GAINED = "levels_gained", _("levels gained")


def default_tie_break_order() -> list[str]:
    return [
        TieBreak.HEAD_TO_HEAD.value,
        TieBreak.OPPONENTS_POINTS.value,
        TieBreak.LEVELS_GAINED.value,
    ]


def game_choices() -> list[tuple[str, str]]:
    """Every registered game, by key, with its Chinese name (read when a form is built)."""
    return [(game.key, game.name_zh) for game in registered_games()]


class PairingFormat(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("round robin")
    MANUAL = "manual", _("manual")


class DuplicateScoring(models.TextChoices):
    """How a duplicate event scores a deal against the other tables that held the same cards."""

    DATUM = "datum", _("against the datum (points minus the field's average)")
    MATCHPOINTS = "matchpoints", _("matchpoints (2 per table beaten, 1 per tie)")


class EventStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    REGISTRATION = "registration", _("registration")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class Event(models.Model):
    """One competition of a meet: the game, its scoring, the pairing format, its organizers."""

    PairingFormat = PairingFormat
    Status = EventStatus

    meet = models.ForeignKey(
        Meet, verbose_name=_("meet"), on_delete=models.PROTECT, related_name="events"
    )
    name = models.CharField(_("name"), max_length=200)
    game = models.CharField(_("game"), max_length=32, choices=game_choices, default=DEFAULT_GAME)
    base_score = models.PositiveIntegerField(_("base score (底分)"), default=1)
    deals_per_match = models.PositiveSmallIntegerField(_("deals per match"), default=3)
    rule_options = models.JSONField(_("rule options"), default=dict, blank=True)
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text=_(
            "The round clock's length; empty: no clock. When it runs out, online tables finish "
            "the deal in play and deal no new one."
        ),
    )
    pairing_format = models.CharField(
        _("pairing format"), max_length=12, choices=PairingFormat.choices, default="swiss"
    )
    tie_break_order = models.JSONField(
        _("tie-break order"), default=default_tie_break_order, blank=True
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organizers"),
        blank=True,
        related_name="organized_events",
    )
    is_private = models.BooleanField(
        _("private"), default=False, help_text=_("Only its organizers see a private event.")
    )
    bye_points = models.IntegerField(
        _("bye points"),
        default=0,
        help_text=_("Points a team gets for a bye (a bye also counts as a match win)."),
    )
    unit_best = models.PositiveSmallIntegerField(
        _("players counted per unit"),
        default=3,
        help_text=_("Individual events: a unit's standing adds up its best this many players."),
    )
    fill_with_bots = models.BooleanField(
        _("fill tables with bots"),
        default=False,
        help_text=_(
            "Individual events: when the players do not fill the last tables, seat bots there "
            "instead of giving byes."
        ),
    )
    table_mode = models.CharField(
        _("table mode"),
        max_length=10,
        choices=TableMode.choices,
        default=TableMode.ONLINE,
        help_text=_("Online in Luzi, or offline with real cards and a referee."),
    )
    duplicate = models.BooleanField(
        _("duplicate (复式)"),
        default=False,
        help_text=_(
            "Every table of a round plays the same deals (seat by seat), and each deal counts "
            "against the other tables that held the same cards."
        ),
    )
    duplicate_scoring = models.CharField(
        _("duplicate scoring"),
        max_length=12,
        choices=DuplicateScoring.choices,
        default=DuplicateScoring.DATUM,
        blank=True,
        help_text=_("Left empty: against the datum."),
    )
    seed_by_rating = models.BooleanField(
        _("seed by rating"),
        default=False,
        help_text=_(
            "Draw Swiss round 1 by the players' ratings (the top half against the bottom half) "
            "instead of at random, and break ties at the knockout's cut by rating."
        ),
    )
    draw_checked_in_only = models.BooleanField(
        _("draw only those checked in"),
        default=False,
        help_text=_(
            "Each round draws only the players (or teams) checked in for it: an absent player "
            "gets no table, an absent team a bye of 0 points."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    #: Bumped whenever a result the standings read changes, so cached standings know they are old.
    results_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["meet", "name"]
        constraints = [
            models.UniqueConstraint(fields=["meet", "name"], name="event_name_unique_per_meet"),
            models.CheckConstraint(condition=Q(base_score__gte=1), name="event_base_score_min_1"),
            models.CheckConstraint(condition=Q(deals_per_match__gte=1), name="event_deals_min_1"),
            models.CheckConstraint(condition=~Q(game=""), name="event_game_not_empty"),
            models.CheckConstraint(condition=Q(unit_best__gte=1), name="event_unit_best_min_1"),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in EventStatus]), name="event_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(pairing_format__in=[p.value for p in PairingFormat]),
                name="event_pairing_format_valid",
            ),
            models.CheckConstraint(
                condition=Q(table_mode__in=[m.value for m in TableMode]),
                name="event_table_mode_valid",
            ),
            models.CheckConstraint(
                condition=Q(duplicate_scoring__in=[d.value for d in DuplicateScoring]),
                name="event_duplicate_scoring_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_individual(self) -> bool:
        """Whether each player plays for themselves (games whose roles change per deal: 小路子,
        上海斗地主), rather than in teams that hold the game's fixed sides (大怪路子)."""
        return not get_game(self.game).fixed_sides

    @property
    def table_size(self) -> int:
        return get_game(self.game).seat_count

    @property
    def team_size(self) -> int:
        """How many players a team of this event has: the seats of a side of its game (大怪路子:
        3). ValueError for an individual event's game."""
        return sides.team_size(self.game)

    def knockout_stage_exists(self) -> bool:
        """Whether a knockout stage (tournaments.knockout.services) closed the event's group
        stage."""
        stage = django_apps.get_model("tournaments", "KnockoutStage")  # it builds on this module
        return bool(stage.objects.filter(event_id=self.pk).exists())

    def tie_break_labels(self) -> list[str]:
        """Return the tie-breaks' display names in the event's order (unknown names as they are).

        An individual event ranks its players by points, then the game's own figures in the
        game's order, the better average place and more deals (``standings.player_standings``):
        the team tie-breaks do not apply to it."""
        if self.is_individual:
            english = translation.get_language() == "en"
            figures = [
                f.label_en if english else f.label_zh
                for f in get_game(self.game).figure_specs
                if f.holder == "seat"
            ]
            return [*figures, str(_("lower average place")), str(_("more deals"))]
        labels = dict(TieBreak.choices)
        return [str(labels.get(name, name)) for name in self.tie_break_order or []]

    def clean(self) -> None:
        order = self.tie_break_order
        valid = {t.value for t in TieBreak}
        if not isinstance(order, list) or any(item not in valid for item in order):
            raise ValidationError(
                {
                    "tie_break_order": _("Use a list of: %(names)s.")
                    % {"names": ", ".join(sorted(valid))}
                }
            )
        if len(set(order)) != len(order):
            raise ValidationError({"tie_break_order": _("A tie-break may appear only once.")})
        if not isinstance(self.rule_options, dict):
            raise ValidationError({"rule_options": _("Rule options are a JSON object.")})
        if self.game not in registered_keys():
            raise ValidationError({"game": _("Choose one of the games Luzi hosts.")})
        self.clean_duplicate()

    def clean_duplicate(self) -> None:
        """Event.clean's part: a duplicate event is of a game whose dealing is known, and the option
        does not change once a round has started (its deals were dealt one way or the other). An
        empty scoring (a form that does not show the field) is the datum."""
        if not self.duplicate_scoring:
            self.duplicate_scoring = DuplicateScoring.DATUM
        if self.duplicate and not plays_duplicate(self.game):
            raise ValidationError({"duplicate": _("This game cannot be played duplicate.")})
        if not self.pk:
            return
        before = Event.objects.filter(pk=self.pk).values("duplicate", "duplicate_scoring").first()
        if before is None or before["duplicate"] == self.duplicate:
            return
        status = self.rounds.model.Status  # rounds.py builds on this module
        started = self.rounds.exclude(status__in=[status.DRAFT, status.CONFIRMED])
        if started.exists():
            raise ValidationError(
                {
                    "duplicate": _(
                        "A round has started: the event cannot change to or from duplicate."
                    )
                }
            )


class Team(models.Model):
    """An event's team: as many players as a side of the event's game has seats (大怪路子: three),
    in seat order, a name, usually one unit."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(_("name"), max_length=100)
    unit = models.ForeignKey(
        Unit,
        verbose_name=_("unit"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="teams",
    )
    players = models.ManyToManyField(Player, through="TeamMember", related_name="teams")
    withdrawn = models.BooleanField(
        _("withdrawn"),
        default=False,
        help_text=_("A withdrawn team is not paired in later rounds; its results stay."),
    )

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["event", "name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="team_name_unique_per_event"),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A player entered in an event (its registration): a team of the event takes only these
    players, and an organizer of the event reaches only these players in the admin."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="registrations"
    )
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)
    withdrawn = models.BooleanField(
        _("withdrawn"),
        default=False,
        help_text=_(
            "Individual events: a withdrawn player is not seated in later rounds; their results "
            "stay."
        ),
    )

    class Meta:
        verbose_name = _("event registration")
        verbose_name_plural = _("event registrations")
        ordering = ["event", "player__name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="registration_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.event}"


class TeamMember(models.Model):
    """A player's place (order ``0 .. size - 1``) in a team. ``event`` repeats the team's event so
    that the database can refuse a player in two teams of one event, and ``size`` the team size of
    the event's game so that it can refuse a place beyond the team; :meth:`save` copies them (bulk
    writes must set them)."""

    team = models.ForeignKey(
        Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="members"
    )
    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="+", editable=False
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="team_members"
    )
    order = models.PositiveSmallIntegerField(_("order"))
    size = models.PositiveSmallIntegerField(_("team size"), editable=False)

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["team", "order"]
        constraints = [
            models.CheckConstraint(
                condition=Q(order__gte=0, order__lt=F("size"), size__lte=MAX_SEATS // 2),
                name="teammember_order_within_team",
            ),
            models.UniqueConstraint(fields=["team", "order"], name="teammember_order_unique"),
            models.UniqueConstraint(
                fields=["event", "player"], name="teammember_player_once_per_event"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.order + 1}: {self.player}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.size is None:
            self.size = self.team.event.team_size
        super().save(*args, **kwargs)  # type: ignore[arg-type]
