"""A record's History: its audit events, newest first, a page at a time, named in the reader's
language; an event opens its detail (the audit page's event dialog). One widget for every kind of
record (device, rack, GPU, customer, contract, statement, user), fed by app.audit.query.object_history."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPushButton,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.audit.query import HISTORY_TYPES, event_detail, object_history
from app.store.db import Database
from models.choices import Outcome

from ui.kit.auditevent import AuditEventDialog
from ui.shell.i18n import choice_label


class HistoryView(QWidget):
    """Read when first shown (or by `load()`); "Older events" reads the next page."""

    loaded = Signal(int)            # the record's events in all

    def __init__(self, db: Database, kind: str, object_id, parent=None):
        super().__init__(parent)
        self.db, self.kind, self.object_id = db, kind, object_id
        self.setObjectName("historyView")
        self.total: int | None = None
        self.oldest: int | None = None
        self.table = QTableWidget(0, 5)
        self.table.setObjectName("historyTable")
        self.table.setHorizontalHeaderLabels([self.tr("Time"), self.tr("User"), self.tr("Action"),
                                              self.tr("Reason"), self.tr("Changes")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.cellDoubleClicked.connect(lambda r, _c: self.open_event(r))
        self.count = QLabel()
        self.count.setObjectName("historyCount")
        self.more = QPushButton(self.tr("Older events"))
        self.more.setObjectName("historyMore")
        self.more.clicked.connect(self.load_more)
        self.more.hide()
        self.open_button = QPushButton(self.tr("Event detail…"))
        self.open_button.setObjectName("historyOpen")
        self.open_button.clicked.connect(lambda: self.open_event(self.table.currentRow()))
        row = QHBoxLayout()
        row.addWidget(self.count, 1)
        row.addWidget(self.open_button)
        row.addWidget(self.more)
        v = QVBoxLayout(self)
        v.addWidget(self.table, 1)
        v.addLayout(row)
        self.event_dialog = None

    def showEvent(self, event) -> None:
        if self.total is None:
            self.load()
        super().showEvent(event)

    def load(self) -> None:
        self.table.setRowCount(0)
        self.oldest = None
        self._read(None)

    def load_more(self) -> None:
        if self.oldest is not None:
            self._read(self.oldest)

    def _read(self, before) -> None:
        from ui.shell.i18n import ui_language
        page = object_history(self.db, self.kind, self.object_id, lang=ui_language(), before_seq=before)
        self.total = page.total
        first = self.table.rowCount()
        self.table.setRowCount(first + len(page.rows))
        for i, ev in enumerate(page.rows):
            cells = (ev.local_time, ev.actor_name if ev.actor_name == ev.actor_login
                     else f"{ev.actor_name} ({ev.actor_login})", ev.action_name, ev.reason or "", ev.changes)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text if c != 2 else f"{text} ({ev.action})")
                item.setData(Qt.UserRole, ev.seq)
                if c == 2 and ev.outcome != Outcome.SUCCESS:
                    item.setForeground(Qt.red)
                    item.setToolTip(f"{text} ({ev.action}) — {choice_label(Outcome, ev.outcome)}")
                self.table.setItem(first + i, c, item)
        if page.rows:
            self.oldest = page.rows[-1].seq
        if first == 0:        # time, user, action and reason fit; the changes take the rest (whole in the tooltip)
            for c in range(4):
                self.table.resizeColumnToContents(c)
                self.table.setColumnWidth(c, min(max(self.table.columnWidth(c), 60), 260))
        self.more.setVisible(page.more)
        self.open_button.setEnabled(self.table.rowCount() > 0)
        self.count.setText(self.tr("%1 of %2 events, newest first").replace("%1", str(self.table.rowCount()))
                           .replace("%2", str(page.total)) if page.total else self.tr("No audit events for this record."))
        self.loaded.emit(page.total)

    def seq_at(self, row: int):
        item = self.table.item(row, 0)
        return item.data(Qt.UserRole) if item is not None else None

    def open_event(self, row: int):
        seq = self.seq_at(row)
        if seq is None:
            return None
        ev = event_detail(self.db, int(seq))
        if ev is None:
            return None
        dlg = AuditEventDialog(ev, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        if dlg.open_button is not None:       # already on this record
            dlg.open_button.hide()
        self.event_dialog = dlg
        dlg.open()
        return dlg


def has_history(kind: str) -> bool:
    return kind in HISTORY_TYPES


class HistoryDialog(QDialog):
    """A record's History on its own (from a list's context menu, for records shown in a panel)."""

    def __init__(self, db: Database, kind: str, object_id, title: str, parent=None):
        super().__init__(parent)
        self.setObjectName("historyDialog")
        self.setWindowTitle(self.tr("History: %1").replace("%1", title))
        v = QVBoxLayout(self)
        self.view = HistoryView(db, kind, object_id, self)
        v.addWidget(self.view, 1)
        bb = QDialogButtonBox(QDialogButtonBox.Close)
        bb.button(QDialogButtonBox.Close).setText(self.tr("Close"))
        bb.rejected.connect(self.reject)
        v.addWidget(bb)
        self.resize(820, 460)
