"""The Operations page's maintenance tab: the windows of this week (or every open one), who each
affects and how (worked out by app/services/operations/maintenance.py, never typed), the moves
confirm / start / complete / cancel, and the notice PDF (维护通知) of the chosen customer."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QInputDialog, QLabel, QPushButton, QSplitter,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from app.domain.clock import local_midnight, local_text, local_today
from app.domain.errors import DomainError
from models.choices import ImpactLevel, MaintenanceState, MaintenanceTarget

from ui.kit.dialogs import guard, refused_text
from ui.shell.i18n import choice_label
from ui.shell.operations import apply, listen
from ui.widgets.plain_table import plain_table
from ui.kit.shown import ReadWhenShown
from ui.kit.tableview import select_only_row


def _table(headers: list[str], name: str):
    return plain_table(headers, name, single=True, fit=True)


def _coloured(text: str, colour: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    c = QColor(colour)
    item.setBackground(c)
    item.setForeground(Qt.white if c.lightness() < 128 else Qt.black)
    return item


class MaintenanceTab(ReadWhenShown, QWidget):
    """Maintenance windows, their impact per customer and object, moves and the notice PDF. `deferred`
    (a tab of the Operations page): read when first shown, not when the page is made."""

    watches = frozenset({"maintenance", "power_feed", "space_lease"})

    def __init__(self, db, actor, parent=None, *, deferred: bool = False):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("maintenanceTab")
        self.windows, self.impacts, self.loaded = [], [], False
        self.last_pdf: Path | None = None
        top = QHBoxLayout()
        self.scope = QComboBox()
        self.scope.setObjectName("scope")
        self.scope.addItem(self.tr("Today and the next 7 days"), "week")
        self.scope.addItem(self.tr("Every open window"), "open")
        self.scope.addItem(self.tr("Every window"), "all")
        refresh = QPushButton(self.tr("Refresh"))
        refresh.setShortcut(QKeySequence.Refresh)
        top.addWidget(QLabel(self.tr("Show")))
        top.addWidget(self.scope)
        top.addStretch(1)
        top.addWidget(refresh)
        self.table = _table([self.tr("Reference"), self.tr("State"), self.tr("Site"), self.tr("Starts"),
                             self.tr("Ends"), self.tr("Worked on"), self.tr("Work"), self.tr("Customers"),
                             self.tr("Worst impact"), self.tr("Notice")], "windowTable")
        self.impact = _table([self.tr("Customer"), self.tr("Object"), self.tr("Impact"), self.tr("Contract"),
                              self.tr("Why")], "impactTable")
        self.impact_title = QLabel()
        self.impact_title.setObjectName("impactTitle")
        lower = QWidget()
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.impact_title)
        ll.addWidget(self.impact, 1)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.table)
        split.addWidget(lower)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        bar = QHBoxLayout()
        bar.addWidget(self._plan_button())
        self.confirm_btn = QPushButton(self.tr("Confirm and give notice"))
        self.confirm_btn.setObjectName("confirmButton")
        self.start_btn = QPushButton(self.tr("Work started"))
        self.start_btn.setObjectName("startButton")
        self.complete_btn = QPushButton(self.tr("Work completed"))
        self.complete_btn.setObjectName("completeButton")
        self.cancel_btn = QPushButton(self.tr("Cancel…"))
        self.cancel_btn.setObjectName("cancelButton")
        self.notice_btn = QPushButton(self.tr("Print notice…"))
        self.notice_btn.setObjectName("noticeButton")
        self.notice_btn.setToolTip(self.tr("The maintenance notice of the customer chosen below (Ctrl+P)"))
        QShortcut(QKeySequence.Print, self, activated=self.print_notice)
        self.lang = QComboBox()
        self.lang.setObjectName("noticeLanguage")
        self.lang.addItem("中文", "zh")
        self.lang.addItem("English", "en")
        for w in (self.confirm_btn, self.start_btn, self.complete_btn, self.cancel_btn):
            bar.addWidget(w)
        bar.addStretch(1)
        bar.addWidget(self.notice_btn)
        bar.addWidget(self.lang)
        self.message = QLabel()
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #c62828")
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        lay.addLayout(bar)
        lay.addWidget(self.message)
        refresh.clicked.connect(self.load)
        self.scope.currentIndexChanged.connect(self.load)
        self.table.itemSelectionChanged.connect(self.show_impact)
        self.impact.itemSelectionChanged.connect(self.update_actions)
        self.confirm_btn.clicked.connect(lambda: self.move("confirm"))
        self.start_btn.clicked.connect(lambda: self.move("start"))
        self.complete_btn.clicked.connect(lambda: self.move("complete"))
        self.cancel_btn.clicked.connect(lambda: self.move("cancel"))
        self.notice_btn.clicked.connect(self.print_notice)
        listen(self, self._changed)
        if not deferred:
            self.load()

    def load(self) -> None:
        """The scope's windows and the chosen one's impact, in one read (app/services/operations/maintenance_read)."""
        from app.services.operations.maintenance import maintenance_view
        self.loaded = True
        keep = self.current().id if self.current() else None
        scope = self.scope.currentData()
        if scope == "week":
            today = local_today()
            view = maintenance_view(self.db, local_midnight(today), local_midnight(today + dt.timedelta(days=8)),
                                    keep=keep)
        else:
            view = maintenance_view(self.db, open_only=scope == "open", keep=keep)
        rows = self.windows = view.windows
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            notice = (self.tr("Emergency") if r.emergency else self.tr("In time") if r.in_time
                      else self.tr("Late") if r.noticed_at else self.tr("Not given yet"))
            cells = [r.reference, None, r.site, local_text(r.planned_start)[:16], local_text(r.planned_end)[:16],
                     f"{choice_label(MaintenanceTarget, r.target_kind)} {r.target}", r.title, str(r.customers),
                     None, notice]
            for c, text in enumerate(cells):
                self.table.setItem(i, c, QTableWidgetItem(text or ""))
            self.table.setItem(i, 1, _coloured(choice_label(MaintenanceState, r.state), MaintenanceState.colour(r.state)))
            worst = r.worst or ImpactLevel.NONE
            self.table.setItem(i, 8, _coloured(choice_label(ImpactLevel, worst), ImpactLevel.colour(worst)))
            if r.emergency or (r.noticed_at and not r.in_time):
                self.table.item(i, 9).setForeground(QColor("#c62828"))
        self.table.blockSignals(True)      # the chosen window's impact came with the list: not read again
        self.table.clearSelection()
        for i, r in enumerate(rows):
            if r.id == view.chosen:
                select_only_row(self.table, i)
                break
        self.table.blockSignals(False)
        self._fill_impact(self.current(), view.impacts)

    def current(self):
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.windows[rows[0].row()] if rows and rows[0].row() < len(self.windows) else None

    def current_impact(self):
        rows = self.impact.selectionModel().selectedRows() if self.impact.selectionModel() else []
        return self.impacts[rows[0].row()] if rows and rows[0].row() < len(self.impacts) else None

    def show_impact(self) -> None:
        """The chosen window's impact, read (a window chosen in the list)."""
        from app.services.operations.maintenance import impact_of
        w = self.current()
        self._fill_impact(w, impact_of(self.db, w.id) if w else [])

    def _fill_impact(self, w, impacts) -> None:
        from app.documents.maintenance import EFFECT
        from ui.shell.i18n import ui_language
        zh = ui_language() == "zh"
        self.impacts = impacts
        if w:
            self.impact_title.setText(self.tr("%1 affects %2 customer(s)").replace("%1", w.reference)
                                      .replace("%2", str(len({i.customer_id for i in self.impacts}))))
        else:
            self.impact_title.setText(self.tr("No maintenance window in this view"))
        self.impact.setRowCount(len(self.impacts))
        for i, r in enumerate(self.impacts):
            kind = {"rack": self.tr("Rack"), "device": self.tr("Device"),
                    "cross_connect": self.tr("Cross-connect")}.get(r.object_type, r.object_type)
            why = EFFECT[r.impact][0] if zh else r.why  # the operator's reason is worded in English
            for c, text in enumerate([r.customer, f"{kind} {r.object_label}", None, r.contract or "", why]):
                self.impact.setItem(i, c, QTableWidgetItem(text or ""))
            self.impact.setItem(i, 2, _coloured(choice_label(ImpactLevel, r.impact), ImpactLevel.colour(r.impact)))
        if self.impacts:
            select_only_row(self.impact, 0)
        self.update_actions()

    def update_actions(self) -> None:
        w = self.current()
        moves = MaintenanceState.TRANSITIONS.get(w.state, frozenset()) if w else frozenset()
        none = "" if w else self.tr("Choose a maintenance window first")
        guard(self.confirm_btn, self.actor, "plan_maintenance", allowed=MaintenanceState.CONFIRMED in moves,
              tooltip=none)
        guard(self.start_btn, self.actor, "plan_maintenance", allowed=MaintenanceState.IN_PROGRESS in moves,
              tooltip=none)
        guard(self.complete_btn, self.actor, "plan_maintenance", allowed=MaintenanceState.COMPLETED in moves,
              tooltip=none)
        guard(self.cancel_btn, self.actor, "plan_maintenance", allowed=MaintenanceState.CANCELLED in moves,
              tooltip=none)
        guard(self.notice_btn, self.actor, "print", allowed=self.current_impact() is not None,
              tooltip="" if self.current_impact() else self.tr("Choose an affected customer first"))

    def _plan_button(self) -> QPushButton:
        self.plan_btn = QPushButton(self.tr("Plan maintenance…"))
        self.plan_btn.setObjectName("planButton")
        self.plan_btn.setShortcut(QKeySequence("Ctrl+Shift+W"))
        self.plan_btn.setToolTip("Ctrl+Shift+W")
        guard(self.plan_btn, self.actor, "plan_maintenance")
        self.plan_btn.clicked.connect(self.plan)
        return self.plan_btn

    def plan(self):
        """The plan-a-window form; the window it plans is chosen in the list (shown in every scope)."""
        from ui.pages.operations.planform import PlanMaintenanceDialog
        dlg = PlanMaintenanceDialog(self.db, self.actor, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        dlg.planned.connect(self._planned)
        self.form = dlg
        dlg.open()
        return dlg

    def _planned(self, window_id: int) -> None:
        every_open = self.scope.findData("open")
        if self.scope.currentIndex() != every_open:
            self.scope.setCurrentIndex(every_open)     # reads the list (currentIndexChanged)
        else:
            self.load()
        for i, w in enumerate(self.windows):
            if w.id == window_id:
                select_only_row(self.table, i)
                break

    def move(self, what: str, reason: str | None = None) -> bool:
        from app.services.operations import maintenance as M
        w = self.current()
        if w is None:
            return False
        if what == "cancel" and reason is None:
            reason, ok = QInputDialog.getText(self, self.tr("Cancel %1").replace("%1", w.reference),
                                              self.tr("Why is the work cancelled? (the customers were told of it)"))
            if not ok:
                return False
        fn = {"confirm": lambda: M.confirm_maintenance(self.db, self.actor, w.id),
              "start": lambda: M.start_maintenance(self.db, self.actor, w.id),
              "complete": lambda: M.complete_maintenance(self.db, self.actor, w.id),
              "cancel": lambda: M.cancel_maintenance(self.db, self.actor, w.id, reason or "")}[what]
        self.message.clear()
        try:
            apply(fn)
        except DomainError as exc:
            self.message.setText(refused_text(exc))
            return False
        return True

    def print_notice(self, on_ready=None):
        """Build the chosen customer's notice on a background thread (the document registry records
        the print), then preview it."""
        from ui.kit.pdfpreview import print_document_preview
        w, i = self.current(), self.current_impact()
        if w is None or i is None:
            return None

        def ready(dialog) -> None:
            self.last_pdf = dialog.path
            if on_ready:
                on_ready(dialog)
        return print_document_preview(self, self.db, self.actor, "maintenance_notice", (w.id, i.customer_id),
                                      language=self.lang.currentData(), on_ready=ready,
                                      title=self.tr("Maintenance notice %1").replace("%1", w.reference))
