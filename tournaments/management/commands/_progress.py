"""A progress bar for management commands: redrawn in place on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """Draw ``label [#####.....] done/total`` on ``stream`` (stderr by default)."""

    def __init__(self, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.tty = self.stream.isatty()
        self.last = (-1, -1)
        self.last_line = 0.0

    def update(self, done: int, total: int, label: str | None = None) -> None:
        if label is not None:
            self.label = label
        if (done, total) == self.last and (self.tty or time.monotonic() - self.last_line < 10):
            return
        self.last = (done, total)
        filled = self.width if total == 0 else self.width * done // total
        line = f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total}"
        if self.tty:
            self.stream.write("\r" + line)
        else:
            self.stream.write(line + "\n")
            self.last_line = time.monotonic()
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
