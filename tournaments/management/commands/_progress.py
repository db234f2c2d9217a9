"""A progress bar for management commands, drawn by tqdm: redrawn in place on a terminal, a plain
line at most every ten seconds otherwise (a log file, CI)."""

from __future__ import annotations

import sys
from typing import TextIO

from tqdm import tqdm


class _Lines:
    """A stream for tqdm that turns its redraws into plain lines (for logs, not terminals)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        text = text.replace("\r", "").strip("\n")
        if text.strip():
            self.stream.write(text + "\n")

    def flush(self) -> None:
        self.stream.flush()


class ProgressBar:
    """``label |#####     | done/total`` on ``stream`` (stderr by default), fed with totals as
    they come: ``update(done, total)`` may be called with the same or a new total any time."""

    def __init__(self, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.bar = tqdm(
            total=0,
            desc=label,
            file=self.stream if self.tty else _Lines(self.stream),
            ncols=len(label) + width + 16,
            ascii=True,
            dynamic_ncols=False,
            nrows=20,  # one bar: never hidden, even when the terminal reports no size
            leave=True,
            mininterval=0.1 if self.tty else 10.0,
            bar_format="{desc} |{bar}| {n_fmt}/{total_fmt}",
        )

    def update(self, done: int, total: int, label: str | None = None) -> None:
        if label is not None and label != self.bar.desc:
            self.bar.set_description_str(label, refresh=False)
        if total != self.bar.total:
            self.bar.total = total
        if done != self.bar.n:
            self.bar.update(done - self.bar.n)  # drawn at most every mininterval
            if done >= total:
                self.bar.refresh()  # the end is always shown, once

    def close(self) -> None:
        self.bar.close()
