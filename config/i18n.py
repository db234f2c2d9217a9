"""Compile the project's gettext catalogs (.po → .mo) without GNU gettext.

`manage.py compilemessages` needs `msgfmt`; a fresh machine may not have it. `python -m config.i18n`
compiles every locale/*/LC_MESSAGES/*.po with polib instead, so `make` works either way.
"""

from __future__ import annotations

import sys
from pathlib import Path

from config.env import BASE_DIR


def compile_catalogs(locale_dir: Path = BASE_DIR / "locale", *, force: bool = False) -> list[Path]:
    """Compile each .po under ``locale_dir`` whose .mo is missing or older; return the .mo files
    written."""
    import polib

    written = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        catalog = polib.pofile(str(po_path))
        catalog.save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


def main() -> int:
    for mo_path in compile_catalogs(force="--force" in sys.argv):
        print(f"compiled {mo_path.relative_to(BASE_DIR)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
