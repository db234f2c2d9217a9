"""A duplicate event's rounds created before seeds were drawn with the round get theirs now, so
the deal sheets page (a read) never has to draw one (issue 28: reads never write)."""

import secrets

from django.db import migrations


def draw(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    for round in Round.objects.filter(event__duplicate=True, deal_seed__isnull=True):
        round.deal_seed = secrets.randbits(62)
        round.save(update_fields=["deal_seed"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_teammember_size")]

    operations = [migrations.RunPython(draw, migrations.RunPython.noop)]
