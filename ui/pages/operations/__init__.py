"""The Operations page: a tab widget of the queue (with the ticket panel), on call now and SLA
credits, maintenance windows and visitors. The SLA sweep's timer and the announcement of one's
notifications run from the main window's start: ui/pages/deskwatch.py."""
from __future__ import annotations

import datetime as dt
import logging

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QPushButton, QTableWidget, QTableWidgetItem,
                               QTabWidget, QVBoxLayout, QWidget)

from app.domain.clock import local_text
from app.domain.money import format_amount
from models.choices import CreditState

from ui.kit.dialogs import error_label, guard
from ui.shell.i18n import choice_label
from ui.shell.operations import apply, listen
from ui.pages.operations.maintenance import MaintenanceTab
from ui.pages.operations.queue import QueueTab, apply_or_show
from ui.pages.operations.visits import VisitsTab
from ui.kit.tableview import select_only_row
from ui.widgets.plain_table import fit_contents

log = logging.getLogger(__name__)
UTC = dt.timezone.utc


class OperationsPage(QTabWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("operationsPage")
        self.queue = QueueTab(db, actor, self)
        self.oncall = OncallTab(db, actor, self)
        self.credits = CreditsTab(db, actor, self)
        self.addTab(self.queue, self.tr("Queue"))
        self.addTab(self.oncall, self.tr("On call"))
        self.addTab(self.credits, self.tr("SLA credits"))
        # read when first shown: opening the page reads the queue only (issue 26)
        self.maintenance = MaintenanceTab(db, actor, self, deferred=True)
        self.visits = VisitsTab(db, actor, self, deferred=True)
        self.addTab(self.maintenance, self.tr("Maintenance"))
        self.addTab(self.visits, self.tr("Visitors"))
        for i in range(self.count()):
            QShortcut(QKeySequence(f"Alt+{i + 1}"), self, activated=lambda i=i: self.setCurrentIndex(i))
        self.holidays_button = QPushButton(self.tr("Holiday year…"))
        self.holidays_button.setObjectName("holidayYearButton")
        self.holidays_button.clicked.connect(self.add_holiday_year)
        guard(self.holidays_button, actor, "manage_sla", tooltip=self.tr("Add a year of China's holidays (Ctrl+Shift+H)"))
        self.sla_button = QPushButton(self.tr("SLA targets…"))
        self.sla_button.setObjectName("slaTargetsButton")
        self.sla_button.clicked.connect(self.edit_sla)
        guard(self.sla_button, actor, "manage_sla",
              tooltip=self.tr("Targets per priority and the calendars' business hours (Ctrl+Shift+L)"))
        corner = QWidget()
        row = QHBoxLayout(corner)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.sla_button)
        row.addWidget(self.holidays_button)
        self.setCornerWidget(corner)
        QShortcut(QKeySequence("Ctrl+Shift+H"), self, activated=self.add_holiday_year)
        QShortcut(QKeySequence("Ctrl+Shift+L"), self, activated=self.edit_sla)

    def edit_sla(self):
        """SLA targets per priority (a service level's or a contract's) and the calendars: administrators."""
        from ui.pages.operations.slaadmin import SlaAdminDialog
        return self._open_for_admin(self.sla_button, SlaAdminDialog)

    def add_holiday_year(self):
        """The SLA calendar's holidays: administrators add a year."""
        from ui.pages.operations.holidays import HolidayYearDialog
        return self._open_for_admin(self.holidays_button, HolidayYearDialog)

    def _open_for_admin(self, button, dialog_class):
        """The dialog behind a corner button, only when the button is enabled (others see why not on it)."""
        if not button.isEnabled():
            return None
        dlg = dialog_class(self.db, self.actor, self)
        dlg.open()
        return dlg

    def add_tab(self, widget: QWidget, title: str) -> int:
        """Another tab of the desk (maintenance windows, visits): one line each where the page is made."""
        return self.addTab(widget, title)

    def open_ticket_for(self, prefill):
        self.setCurrentWidget(self.queue)
        return self.queue.new_ticket(prefill)


class OncallTab(QWidget):
    """Who is on call this week, per site, with the handover notes; my unseen notifications."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("oncallTab")
        self.table = QTableWidget(0, 7)
        self.table.setObjectName("oncallTable")
        self.table.setHorizontalHeaderLabels([self.tr("Week of"), self.tr("Site"), self.tr("Primary"),
                                              self.tr("Secondary"), self.tr("Site manager"), self.tr("Phone"),
                                              self.tr("Handover note")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        fit_contents(self.table.horizontalHeader())
        self.table.horizontalHeader().setStretchLastSection(True)
        self.notes = QTableWidget(0, 3)
        self.notes.setObjectName("myNotifications")
        self.notes.setHorizontalHeaderLabels([self.tr("When"), self.tr("Why"), self.tr("Message")])
        self.notes.verticalHeader().setVisible(False)
        self.notes.setEditTriggers(QTableWidget.NoEditTriggers)
        self.notes.horizontalHeader().setStretchLastSection(True)
        self.seen = QPushButton(self.tr("Mark as seen"))
        self.seen.setObjectName("markSeen")
        guard(self.seen, actor, "work_tickets")
        self.seen.clicked.connect(self.mark_seen)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(self.tr("On call this week")))
        lay.addWidget(self.table, 2)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("My notifications")))
        row.addStretch(1)
        row.addWidget(self.seen)
        lay.addLayout(row)
        lay.addWidget(self.notes, 1)
        listen(self, self._changed)
        self.rows, self.note_rows = [], []

    def showEvent(self, event):
        super().showEvent(event)
        self.load()

    def _changed(self, kinds) -> None:
        if self.isVisible() and (not kinds or "*" in kinds or kinds & {"oncall_shift", "ticket", "user"}):
            self.load()

    def load(self) -> None:
        from app.services.operations.oncall import notifications_for, on_call_now
        self.rows = on_call_now(self.db)
        self.table.setRowCount(len(self.rows))
        for i, r in enumerate(self.rows):
            for c, text in enumerate((str(r.week_start), r.site or r.region_code or "", r.primary, r.secondary or "",
                                      r.manager or "", r.phone or "", r.handover_note or "")):
                self.table.setItem(i, c, QTableWidgetItem(text))
        self.note_rows = notifications_for(self.db, self.actor.id) if self.actor.id else []
        self.notes.setRowCount(len(self.note_rows))
        for i, n in enumerate(self.note_rows):
            for c, text in enumerate((local_text(n.at)[5:16], reason_text(n.reason), n.message)):
                self.notes.setItem(i, c, QTableWidgetItem(text))

    def mark_seen(self) -> None:
        from app.services.operations.oncall import mark_seen
        ids = [n.id for n in self.note_rows]
        if ids:
            apply(lambda: mark_seen(self.db, self.actor, ids))
        self.load()


def reason_text(reason: str) -> str:
    from PySide6.QtCore import QCoreApplication
    if reason == "escalation_1":
        return QCoreApplication.translate("OncallTab", "Escalated to the secondary")
    if reason == "escalation_2":
        return QCoreApplication.translate("OncallTab", "Escalated to the site manager")
    return reason


class CreditsTab(QWidget):
    """SLA credits the breaches proposed; an administrator other than the proposer approves or rejects."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("creditsTab")
        self.table = QTableWidget(0, 8)
        self.table.setObjectName("creditTable")
        self.table.setHorizontalHeaderLabels([self.tr("State"), self.tr("Period"), self.tr("Amount"),
                                              self.tr("Contract"), self.tr("Ticket"), self.tr("Proposed by"),
                                              self.tr("Decided by"), self.tr("Reason")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        self.table.setSelectionMode(QTableWidget.SingleSelection)
        fit_contents(self.table.horizontalHeader())
        self.table.horizontalHeader().setStretchLastSection(True)
        self.approve_btn = QPushButton(self.tr("Approve"))
        self.approve_btn.setObjectName("approveCredit")
        self.reject_btn = QPushButton(self.tr("Reject…"))
        self.reject_btn.setObjectName("rejectCredit")
        self.message = error_label("creditMessage")
        row = QHBoxLayout()
        row.addWidget(self.approve_btn)
        row.addWidget(self.reject_btn)
        row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addLayout(row)
        lay.addWidget(self.message)
        lay.addWidget(self.table, 1)
        self.approve_btn.clicked.connect(self.approve)
        self.reject_btn.clicked.connect(self.reject)
        self.table.itemSelectionChanged.connect(self.update_actions)
        listen(self, self._changed)
        self.rows = []
        self.update_actions()

    def showEvent(self, event):
        super().showEvent(event)
        self.load()

    def _changed(self, kinds) -> None:
        if self.isVisible() and (not kinds or "*" in kinds or kinds & {"sla_credit", "ticket"}):
            self.load()

    def load(self) -> None:
        from app.services.operations.credits import list_credits
        self.rows = list_credits(self.db)
        self.table.setRowCount(len(self.rows))
        for i, r in enumerate(self.rows):
            for c, text in enumerate((choice_label(CreditState, r.state), r.period, format_amount(r.amount), r.contract,
                                      r.ticket or "", r.proposed_by or "", r.decided_by or "", r.reason)):
                self.table.setItem(i, c, QTableWidgetItem(text))
        self.update_actions()

    def current(self):
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.rows[rows[0].row()] if rows and rows[0].row() < len(self.rows) else None

    def select_first_proposed(self) -> bool:
        for i, r in enumerate(self.rows):
            if r.state == CreditState.PROPOSED:
                select_only_row(self.table, i)
                return True
        return False

    def update_actions(self) -> None:
        r = self.current()
        pending = r is not None and r.state == CreditState.PROPOSED
        own = pending and r.proposed_by == self.actor.login
        for b in (self.approve_btn, self.reject_btn):
            guard(b, self.actor, "approve_credits", allowed=pending and not own,
                  tooltip=self.tr("You proposed it: another administrator decides (four eyes)") if own else "")

    def approve(self) -> bool:
        from app.services.operations.credits import approve_credit
        r = self.current()
        if r is None:
            return False
        return self._do(lambda: approve_credit(self.db, self.actor, r.id))

    def reject(self) -> bool:
        from PySide6.QtWidgets import QInputDialog
        from app.services.operations.credits import reject_credit
        r = self.current()
        if r is None:
            return False
        reason, ok = QInputDialog.getText(self, self.tr("Reject"), self.tr("Why is the credit rejected:"))
        if not ok:
            return False
        return self._do(lambda: reject_credit(self.db, self.actor, r.id, reason))

    def _do(self, fn) -> bool:
        if not apply_or_show(fn, self.message):
            return False
        self.load()
        return True
