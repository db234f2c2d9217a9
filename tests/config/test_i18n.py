"""Translations compile without GNU gettext, and the catalog covers the UI in Simplified Chinese."""

from __future__ import annotations

import gettext
import shutil
from pathlib import Path

import polib

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
