"""The console's SLA sweep and the announcement of one's own notifications (`DeskWatch`): started with
the main window, so kept apart from the Operations page's tabs, which are imported when that page is
first shown (issue 26: their import was ≈ 0.1-0.2 s of the main window's start)."""
from __future__ import annotations

import datetime as dt
import logging

from PySide6.QtCore import QObject, QTimer, Signal

from app.domain.auth import can
from app.domain.errors import DomainError
from ui.shell.operations import apply, run_op

log = logging.getLogger(__name__)

SWEEP_MS = 60_000


class DeskWatch(QObject):
    """The console's SLA sweep (for whoever works tickets) and the announcement of one's own
    notifications in the status bar (escalations: who has that duty is told in their console)."""

    announced = Signal(str)

    def __init__(self, window, db, actor):
        super().__init__(window)
        self.db, self.actor, self.window = db, actor, window
        self.shown: set[int] = set()
        self.timer = QTimer(self)
        self.timer.setObjectName("slaSweep")
        self.timer.setInterval(SWEEP_MS)
        self.timer.timeout.connect(self.run_in_background)
        self.timer.start()
        self.op = None
        self.busy = False

    def run_in_background(self) -> None:
        """The timer's sweep on the thread pool (the window never waits on it); its announcements
        come back on the GUI thread."""
        if self.busy:
            return
        self.busy = True
        db, actor, shown = self.db, self.actor, set(self.shown)

        def work(_progress):
            return self._sweep(db, actor, shown, None)

        def done(messages):
            self.busy = False
            self._announce(messages)

        def failed(exc):
            self.busy = False
            log.info("SLA sweep failed or refused: %s", exc)
        self.op = run_op(self.window, work, on_success=done, on_failure=failed, show_progress=False)

    @staticmethod
    def _sweep(db, actor, shown: set[int], now) -> list[tuple[int, str]]:
        from app.services.operations.oncall import notifications_for
        from app.services.operations.sla import check_sla
        if can(actor, "work_tickets"):
            check_sla(db, actor, now)
        if actor.id is None:
            return []
        return [(n.id, n.message) for n in notifications_for(db, actor.id) if n.id not in shown]

    def run(self, now: dt.datetime | None = None) -> list[str]:
        """The sweep now, on the GUI thread (what the timer does in the background)."""
        try:
            found = apply(lambda: self._sweep(self.db, self.actor, self.shown, now))
        except DomainError as exc:
            log.info("SLA sweep refused: %s", exc.message)
            found = []
        return self._announce(found)

    def _announce(self, found) -> list[str]:
        messages = []
        for nid, message in found:
            if nid not in self.shown:
                self.shown.add(nid)
                messages.append(message)
        for m in messages:
            self.announced.emit(m)
            bar = self.window.statusBar() if hasattr(self.window, "statusBar") else None
            if bar is not None:
                bar.showMessage("⚠ " + m, 60_000)
        return messages
