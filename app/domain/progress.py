"""Progress of a bulk command on a terminal: rows done, rate and time left, on stderr.

Only when stderr is a terminal (a TTY), so that tests, pipes and log files stay clean. The
callable fits both progress hooks: an import's progress(done, total) and an export's progress(done).
"""
from __future__ import annotations

import sys
import time
from typing import TextIO


class TerminalProgress:
    def __init__(self, what: str, total: int | None = None, *, stream: TextIO | None = None,
                 every: float = 0.5):
        self.what = what
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.started = time.monotonic()
        self.shown = 0.0
        self.done = 0
        self.width = 0

    def __call__(self, done: int, total: int | None = None) -> None:
        self.done = done
        if total is not None:
            self.total = total
        now = time.monotonic()
        if now - self.shown >= self.every or (self.total and done >= self.total):
            self.shown = now
            self._show(now)

    def line(self, now: float | None = None) -> str:
        elapsed = max((now or time.monotonic()) - self.started, 1e-9)
        rate = self.done / elapsed
        text = f"{self.what}: {self.done:,}"
        if self.total:
            text += f" of {self.total:,} rows ({100 * self.done / self.total:.0f}%)"
        else:
            text += " rows"
        text += f", {rate:,.0f} rows/s"
        if self.total and rate > 0 and self.done < self.total:
            text += f", {_duration((self.total - self.done) / rate)} left"
        else:
            text += f", {_duration(elapsed)}"
        return text

    def _show(self, now: float) -> None:
        text = self.line(now)
        pad = " " * max(self.width - len(text), 0)
        self.width = len(text)
        self.stream.write(f"\r{text}{pad}")
        self.stream.flush()

    def close(self) -> None:
        """End the progress line (the command's summary then starts on a line of its own)."""
        if self.width:
            self._show(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def terminal_progress(what: str, total: int | None = None, stream: TextIO | None = None) -> TerminalProgress | None:
    """A TerminalProgress when `stream` (stderr by default) is a terminal, else None (no output)."""
    stream = stream if stream is not None else sys.stderr
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return TerminalProgress(what, total, stream=stream) if tty else None
