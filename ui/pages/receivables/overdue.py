"""The dashboard's overdue card: customers overdue past the threshold, suspension proposals a person decides."""
from __future__ import annotations

import logging

from PySide6.QtWidgets import (QGroupBox, QHBoxLayout, QInputDialog,
                               QLabel, QPushButton, QVBoxLayout)

from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError
from app.domain.money import format_amount

from ui.kit.dialogs import error_label, guard, refused_text
from ui.shell.operations import apply, listen
from ui.pages.receivables.widgets import _fill, _table

log = logging.getLogger(__name__)


class OverdueCard(QGroupBox):
    """Customers overdue more than the setting's days: suspension proposals; a person decides."""

    # what changes the proposals: statements, payments and deposits, a decision (on a customer), the setting
    WATCHES = frozenset({"*", "statement", "payment", "deposit", "customer", "setting"})

    def __init__(self, db: Database, parent=None, actor: Actor | None = None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("overdueCard")
        v = QVBoxLayout(self)
        self.summary = QLabel()
        self.summary.setObjectName("card_overdue")
        self.summary.setStyleSheet("font-size: 14pt; font-weight: bold;")
        v.addWidget(self.summary)
        self.table = _table([self.tr("Customer"), self.tr("Overdue"), self.tr("Days"), self.tr("Decision")],
                            "overdueTable")
        self.table.setMaximumHeight(160)
        v.addWidget(self.table)
        row = QHBoxLayout()
        self.suspend = QPushButton(self.tr("&Suspend…"))
        self.suspend.setObjectName("overdue_suspend")
        self.keep = QPushButton(self.tr("&Keep serving…"))
        self.keep.setObjectName("overdue_keep")
        self.suspend.clicked.connect(lambda: self.decide("suspend"))
        self.keep.clicked.connect(lambda: self.decide("keep"))
        row.addWidget(self.suspend)
        row.addWidget(self.keep)
        row.addStretch(1)
        v.addLayout(row)
        self.error = error_label("overdue_error")
        v.addWidget(self.error)
        self.rows = []
        self.stale = True
        self._loading = False
        self.op = None
        self.summary.setText("…")
        listen(self, self.on_changed)

    def on_changed(self, kinds) -> None:
        if not kinds & self.WATCHES:
            return
        self.stale = True
        if self.isVisible():
            self.load()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self.stale:          # first shown (or changed while hidden): load once painted, off the GUI thread
            self.stale = False
            self.load()

    def load(self) -> None:
        """Read the proposals on the thread pool (the aging of every open statement), show them when done."""
        if self._loading:
            return
        from app.services.receivables.overdue import proposals, threshold
        from ui.shell.operations import run_op
        db = self.db

        def work(_progress):
            days = threshold(db)
            return days, proposals(db, days)

        def done(result):
            import shiboken6
            if shiboken6.isValid(self):
                self._loading = False
                self.show_rows(*result)

        def failed(_exc):
            import shiboken6
            if shiboken6.isValid(self):
                self._loading = False
        self._loading = True
        self.op = run_op(self, work, on_success=done, on_failure=failed, show_progress=False, reads=True)

    def refresh(self) -> None:
        """Read and show the proposals now (on this thread)."""
        from app.services.receivables.overdue import proposals, threshold
        days = threshold(self.db)
        self.show_rows(days, proposals(self.db, days))

    def show_rows(self, days: int, rows) -> None:
        from decimal import Decimal
        self.rows = rows
        self.setTitle(self.tr("Overdue more than %1 days: suspension proposals").replace("%1", str(days)))
        total = sum((p.amount for p in self.rows), Decimal("0.00"))
        self.summary.setText(self.tr("%1 customer(s), ¥%2").replace("%1", str(len(self.rows)))
                             .replace("%2", format_amount(total)))
        labels = {"suspend": self.tr("suspend"), "keep": self.tr("keep serving")}
        _fill(self.table, [[p.customer, p.amount, p.days,
                            f"{labels[p.decision]} ({p.decided_by}): {p.reason}" if p.decision else ""]
                           for p in self.rows])
        for b in (self.suspend, self.keep):
            guard(b, self.actor, "run_billing", allowed=bool(self.rows))

    def decide(self, decision: str, reason: str | None = None) -> bool:
        from app.services.receivables.overdue import decide
        r = self.table.currentRow()
        self.error.hide()
        if r < 0 or r >= len(self.rows):
            self.error.setText(self.tr("Select a customer in the list first."))
            self.error.show()
            return False
        p = self.rows[r]
        if reason is None:
            reason, ok = QInputDialog.getText(self, self.tr("Decision on %1").replace("%1", p.customer),
                                              self.tr("Why? (recorded in the audit trail)"))
            if not ok:
                return False
        try:
            apply(lambda: decide(self.db, self.actor, p.customer_id, decision, reason))
        except DomainError as exc:  # the service's refusal is shown
            self.error.setText(refused_text(exc))
            self.error.show()
            return False
        except Exception as exc:  # any other failure is shown too, and logged with its traceback
            log.exception("a receivables dialog failed")
            self.error.setText(refused_text(exc, logged=True))
            self.error.show()
            return False
        self.refresh()
        return True
