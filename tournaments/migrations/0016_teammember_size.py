"""A team's size follows from the event's game (issue 27): each member row carries the team size
(the seats of one side of the game) and the database refuses a place beyond it, instead of the
fixed ``order < 3``."""

from django.db import migrations, models
from django.db.models import F, Q


def sizes_fill(apps, schema_editor):  # type: ignore[no-untyped-def]
    from engine.errors import EngineError
    from engine.registry import get_game

    TeamMember = apps.get_model("tournaments", "TeamMember")
    Event = apps.get_model("tournaments", "Event")
    for event_id, game in (
        Event.objects.filter(teams__isnull=False).distinct().values_list("pk", "game")
    ):
        try:
            chosen = get_game(game)
            size = len(chosen.side_seats(chosen.sides[0]))
        except (EngineError, IndexError):  # a game no longer registered: the teams as they are
            size = 3
        TeamMember.objects.filter(event_id=event_id).update(size=size)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_event_seed_by_rating"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="teammember",
            name="teammember_order_0_to_2",
        ),
        migrations.AddField(
            model_name="teammember",
            name="size",
            field=models.PositiveSmallIntegerField(
                default=0, editable=False, verbose_name="team size"
            ),
            preserve_default=False,
        ),
        migrations.RunPython(sizes_fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="teammember",
            constraint=models.CheckConstraint(
                condition=Q(order__gte=0, order__lt=F("size"), size__lte=4),
                name="teammember_order_within_team",
            ),
        ),
    ]
