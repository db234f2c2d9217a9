"""Ratings: every rated match in the order its result came in, each player's rating per game, and
every change of a rating (the history a profile draws).

Two scopes are kept side by side: ``all`` counts every event's matches (seeding reads it, and
those who may see every event), ``public`` only public events' matches, which is all a page or an
API shows to anyone else, so nothing of a private event leaks through a number.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Player
from tournaments.models import Event, Pairing


class Scope(models.TextChoices):
    ALL = "all", _("every event")
    PUBLIC = "public", _("public events")


class RatingBook(models.Model):
    """One row per game: locked while its ratings are computed, and hands out match numbers."""

    game = models.CharField(max_length=32, unique=True)
    next_seq = models.PositiveBigIntegerField(default=1)
    version = models.PositiveBigIntegerField(default=0)


class RatedMatch(models.Model):
    """A finished pairing's match as the ratings read it: its teams (player ids) and their ranks
    (0 first, equal ranks shared), numbered per game in the order results came in (``seq``); a
    corrected result keeps its number, and the matches after it are computed again."""

    pairing = models.OneToOneField(Pairing, on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32)
    seq = models.PositiveBigIntegerField()
    public = models.BooleanField()
    played_at = models.DateTimeField()
    teams = models.JSONField()
    ranks = models.JSONField()

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="ratedmatch_seq_once_per_game"),
        ]
        indexes = [models.Index(fields=["game", "public"], name="ratedmatch_private")]


class Rating(models.Model):
    """A player's rating in one game and scope after every match rated so far."""

    Scope = Scope

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=32)
    scope = models.CharField(max_length=6, choices=Scope.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField(_("rating"))
    matches = models.PositiveIntegerField(_("matches"))
    last_seq = models.PositiveBigIntegerField()
    last_played_at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game", "scope"], name="rating_once_per_player_game_scope"
            ),
            models.CheckConstraint(
                condition=Q(scope__in=[s.value for s in Scope]), name="rating_scope_valid"
            ),
        ]
        indexes = [models.Index(fields=["game", "scope", "-display"], name="rating_board")]


class RatingChange(models.Model):
    """A player's rating right after one rated match (one row per player, match and scope)."""

    rated_match = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32)
    scope = models.CharField(max_length=6, choices=Scope.choices)
    seq = models.PositiveBigIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()
    matches = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["rated_match", "player", "scope"], name="ratingchange_once"
            ),
        ]
        indexes = [
            models.Index(fields=["player", "game", "scope", "seq"], name="ratingchange_history"),
            models.Index(fields=["game", "scope", "seq"], name="ratingchange_replay"),
        ]
