from __future__ import annotations

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_models_and_migrations_agree() -> None:
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # exits 1 on a missing one
    assert "No changes detected" in out.getvalue()
