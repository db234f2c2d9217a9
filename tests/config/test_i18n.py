"""Translations compile without GNU gettext, and the catalog covers the UI in Simplified Chinese."""

from __future__ import annotations

import gettext
import shutil
from pathlib import Path
from typing import Any

import polib
import pytest

from config.env import BASE_DIR
from config.i18n import compile_catalogs

PO = BASE_DIR / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"


def test_fallback_compiler_writes_a_usable_catalog(tmp_path: Path) -> None:
    target = tmp_path / "zh_Hans" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(PO, target / "django.po")
    written = compile_catalogs(tmp_path)
    assert written == [target / "django.mo"]
    catalog = gettext.GNUTranslations(open(target / "django.mo", "rb"))  # noqa: SIM115
    assert catalog.gettext("Meets and events") == "运动会与赛事"
    assert compile_catalogs(tmp_path) == []  # up to date: nothing to do


def test_every_message_is_translated() -> None:
    catalog = polib.pofile(str(PO))
    assert catalog.percent_translated() == 100
    assert not catalog.fuzzy_entries()


@pytest.mark.django_db
def test_a_request_in_english_leaves_the_threads_language_as_it_was(client: Any) -> None:
    """A page asked for in English used to leave English active in the thread that served it, so
    the next thing done there (a test's next call, a task run in place) spoke English."""
    from django.utils import translation

    before = translation.get_language()
    client.cookies["django_language"] = "en"
    assert client.get("/").status_code == 200
    assert translation.get_language() == before
