#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.exceptions import ImproperlyConfigured

    from config.env import Env

    try:
        Env.from_environ()  # a bad environment variable: one clear line, not a traceback
    except ImproperlyConfigured as exc:
        sys.stderr.write(f"Configuration error: {exc}\n")
        sys.exit(2)

    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
