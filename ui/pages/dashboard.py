"""The dashboard page: summary cards, the GPU fleet's charts and the contracts due.

Everything it shows is read in one background operation after the page is first painted.
"""
from __future__ import annotations

import importlib
import logging

from PySide6.QtCore import QAbstractTableModel, QLocale, QModelIndex, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import (QAbstractItemView, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QStyle, QTableView,
                               QVBoxLayout, QWidget)

from app.read import queries
from app.read.viewdata.dashboard import counted_by_fleet, dashboard_data_and
from app.store.db import Database
from models.choices import ContractStatus, GpuState

from ui.shell.i18n import choice_label
from ui.shell.operations import listen
from ui.kit.roles import ALIGN, BACKGROUND, DISPLAY, HORIZONTAL, TOOLTIP

log = logging.getLogger(__name__)

DUE_SHOWN = 300   # rows of the dashboard's "contracts due" table
CARD_POINTS = (16, 14, 12, 11)   # the cards' figures: the largest whose row fits (DashboardPage.fit_cards)


def optional_widget(module: str, name: str):
    """A widget another part of the project provides, or None while it does not exist yet."""
    try:
        return getattr(importlib.import_module(module), name)
    except Exception:  # absent or broken: the page falls back to plain text
        log.warning("%s.%s could not be loaded: plain text instead", module, name, exc_info=True)
        return None


_DUE_ROLES = frozenset({DISPLAY, BACKGROUND, TOOLTIP, ALIGN})
_RIGHT = int(Qt.AlignRight | Qt.AlignVCenter)


class DueModel(QAbstractTableModel):
    """The contracts due: number, end, days left, customer; each row coloured by how soon it ends, its
    tooltip the contract in words. Its cells are made only when the view draws them."""

    COLOURS = {30: "#ffcdd2", 60: "#ffe0b2", 90: "#fff9c4", 180: "#e8f5e9"}

    def __init__(self, headers: list[str], within: str, renewed: str, parent=None):
        super().__init__(parent)
        self.headers, self.within, self.renewed, self.rows = headers, within, renewed, []
        self._brushes: dict[int, object] = {}

    def set_rows(self, rows) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=DISPLAY):
        if int(role) == DISPLAY and orientation == HORIZONTAL:
            return self.headers[section]
        return None

    @staticmethod
    def text(d, column: int) -> str:
        return (d.number, d.end_date.isoformat(), str(d.days_left), d.customer_name)[column]

    def data(self, index, role=DISPLAY):
        role = int(role)   # compared as plain ints (ui/kit/roles.py)
        if role not in _DUE_ROLES or not index.isValid():
            return None
        d, c = self.rows[index.row()], index.column()
        if role == DISPLAY:
            return self.text(d, c)
        if role == BACKGROUND:
            if d.alert not in self._brushes:
                self._brushes[d.alert] = QBrush(QColor(self.COLOURS.get(d.alert, "#ffffff")))
            return self._brushes[d.alert]
        if role == TOOLTIP:
            return " · ".join([self.within.replace("%1", str(d.alert)), d.number, d.customer_name,
                               choice_label(ContractStatus, d.status)] + ([self.renewed] if d.renewed else []))
        return _RIGHT if c == 2 else None


class DashboardPage(QWidget):
    def __init__(self, db: Database, parent=None, actor=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("page_dashboard")
        self.layout_ = QVBoxLayout(self)
        self.cards = QGridLayout()
        self.layout_.addLayout(self.cards)
        from ui.pages.receivables.overdue import OverdueCard  # overdue customers: suspension proposals (issue 11)
        self.overdue = OverdueCard(db, self, actor=actor)
        self.layout_.addWidget(self.overdue)
        if actor is not None:  # GPU capacity for a deal (ui/pages/capacity.py)
            from PySide6.QtWidgets import QPushButton

            cap = QPushButton(self.tr("GPU capacity search…"))
            cap.setObjectName("dashCapacity")
            cap.clicked.connect(self.capacity_search)
            from ui.kit.dialogs import guard

            guard(cap, actor, "draft_contracts")
            bar = QHBoxLayout()
            bar.addWidget(cap)
            bar.addStretch(1)
            self.layout_.addLayout(bar)
        self.charts = None
        # the charts without their own loading: the page reads everything in one background
        # operation after it is first painted (nothing of it delays the window's first paint)
        Charts = optional_widget("ui.widgets.charts", "DashboardWidget")
        if Charts is not None:
            try:
                self.charts = Charts(self)
            except Exception:  # a broken chart widget must not stop the dashboard
                log.exception("the dashboard's charts could not be made: plain text instead")
                self.charts = None
        self.states = QLabel()
        self.states.setWordWrap(True)
        self.states.setObjectName("gpuStates")
        if self.charts is None:
            self.layout_.addWidget(self.states)
            self.layout_.addStretch(1)
        self.due_box = QGroupBox(self.tr("Contracts due (within 180/90/60/30 days)"))
        self.due_box.setToolTip(self.tr("Red: within 30 days; orange: 60; yellow: 90; green: 180"))
        self.due_box.setObjectName("dueBox")
        dv = QVBoxLayout(self.due_box)
        self.due = QTableView()
        self.due.setObjectName("contractsDue")
        self.due_model = DueModel([self.tr("Contract"), self.tr("Ends"), self.tr("Days"), self.tr("Customer")],
                                  self.tr("≤ %1 days"), self.tr("renewal drafted"), self.due)
        self.due.setModel(self.due_model)
        self.due.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.due.verticalHeader().setVisible(False)
        self.due.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.due.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.due.horizontalHeader().setStretchLastSection(True)
        self.due.setWordWrap(False)
        self.due.horizontalHeader().setMinimumSectionSize(30)
        dv.addWidget(self.due)
        self.due_box.setMinimumWidth(280)     # with the charts, within a 1280 px window beside the page list
        if self.charts is not None:     # charts on the left, the contracts due beside them
            if hasattr(self.charts, "soonest"):
                self.charts.soonest.hide()      # the list beside the charts shows them, with room
            row = QHBoxLayout()
            row.addWidget(self.charts, 2)
            row.addWidget(self.due_box, 1)
            self.layout_.addLayout(row, 1)
        else:
            self.layout_.addWidget(self.due_box)
        self.labels: dict[str, QLabel] = {}
        self._card_points = CARD_POINTS[0]
        self.stale = True               # loaded when made (below), again when painted after a change
        self._loading = self._again = False
        self.op = None
        listen(self, self.on_changed)
        self.load_now()

    def load_now(self) -> None:
        """The page's reads started now, on the thread pool, while the window is still being made and painted
        (issue 26: started after the first paint, their round trips came after the window's own work)."""
        self.stale = self.overdue.stale = False
        self.overdue.load()
        self.refresh()

    def capacity_search(self):
        from ui.pages.capacity import open_capacity_dialog

        return open_capacity_dialog(self, self.db, self.actor)

    def on_changed(self, kinds) -> None:
        if self.isVisible():
            self.refresh()
        else:
            self.stale = True

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self.stale:                  # first shown (or changed while hidden): load once painted
            self.stale = False
            QTimer.singleShot(0, self, self.refresh)

    def refresh(self) -> None:
        """Summary, contracts due and chart data in one background operation, shown when done."""
        if self._loading:
            self._again = True          # a change arrived while loading: load once more afterwards
            return
        from ui.shell.operations import run_op
        db = self.db
        want_charts = self.charts is not None and hasattr(self.charts, "set_data")

        def work(_progress):
            from app.services.contracts import contracts_due
            from app.services.operations.queue import desk_counts
            # independent reads side by side, the longest first (issue 26: one after the other they were
            # most of the main window's start across a WAN)
            calls = (lambda: desk_counts(db), lambda: [d for d in contracts_due(db, 180) if d.alert is not None],
                     lambda: queries.summary(db, count_gpus=not want_charts))
            if not want_charts:
                desk, due, summary = db.read_together(*calls)
                return summary, due, None, desk
            charts, desk, due, summary = dashboard_data_and(db, *calls)
            return counted_by_fleet(summary, charts), due, charts, desk

        def done(result):
            import shiboken6
            if not shiboken6.isValid(self):   # the window closed while it loaded
                return
            self._loading = False
            self.show_data(*result)
            if self._again:
                self._again = False
                self.refresh()

        def failed(_exc):
            import shiboken6
            if shiboken6.isValid(self):
                self._loading = False

        self._loading = True
        self.op = run_op(self, work, on_success=done, on_failure=failed, show_progress=False, reads=True)

    def show_data(self, s, due, charts, desk=None) -> None:
        loc = QLocale(QLocale.English)
        cards = [
            ("sites", self.tr("Sites"), loc.toString(s.sites)),
            ("racks", self.tr("Racks (leased)"), f"{loc.toString(s.racks)} ({loc.toString(s.racks_leased)})"),
            ("devices", self.tr("Devices"), loc.toString(s.devices)),
            ("gpus", self.tr("GPUs"), loc.toString(s.gpus)),
            ("customers", self.tr("Customers"), loc.toString(s.customers)),
            ("contracts", self.tr("Active contracts"), loc.toString(s.contracts_active)),
            ("ending", self.tr("Ending in 30/60/90 days"),
             " / ".join(loc.toString(s.contracts_ending[d]) for d in (30, 60, 90))),
        ]
        if desk is not None:   # the operations desk (issue 24): open P1/P2, tickets breaching within the hour
            # one card (the row of cards must fit 1280 px): open P1 / P2 · due within the hour
            cards.append(("tickets", self.tr("P1 / P2 · due in 1 h"),
                          f"{loc.toString(desk.open_p1)} / {loc.toString(desk.open_p2)} · "
                          f"{loc.toString(desk.breaching_within_hour)}"))
        for i, (key, title, value) in enumerate(cards):
            if key not in self.labels:
                box = QGroupBox(title)
                v = QVBoxLayout(box)
                lbl = QLabel()
                lbl.setObjectName(f"card_{key}")
                lbl.setStyleSheet(self._card_style(self._card_points))
                v.addWidget(lbl)
                self.cards.addWidget(box, 0, i)       # one row: the charts get the height
                self.labels[key] = lbl
            self.labels[key].setText(value)
        self.fit_cards()
        self.states.setText(self.tr("GPU fleet by state: ") + ", ".join(
            f"{choice_label(GpuState, k)} {loc.toString(v)}" for k, v in sorted(s.gpus_by_state.items())))
        self.show_due(due)
        if charts is not None:
            try:
                self.charts.set_data(charts)
            except Exception:  # a broken chart must not stop the dashboard
                log.exception("the dashboard's charts could not be drawn")

    @staticmethod
    def _card_style(points: int) -> str:
        return f"font-size: {points}pt; font-weight: bold;"

    def fit_cards(self) -> None:
        """The cards' figures as large as the row of cards lets them be in the room the page has (the
        scroll area's width): the large data's figures (10,000 (2,250), 439 / 1,010 / 1,506) at 16 pt
        made the row wider than a 1280-pixel window, and the page scrolled sideways. Each size's row is
        measured on the texts (the figure's at that size in bold, the title's), not left to a restyle."""
        if not self.labels:
            return
        holder = self.parentWidget()
        margins = self.layout_.contentsMargins()
        room = (holder.width() if holder is not None else self.width()) - margins.left() - margins.right()
        spacing = max(0, self.cards.spacing())
        boxes = [(lbl.parentWidget(), lbl.text()) for lbl in self.labels.values()]
        chosen = CARD_POINTS[-1]
        for points in CARD_POINTS:
            font = QFont(self.font())
            font.setPointSize(points)
            font.setBold(True)
            figure = QFontMetrics(font)
            need = sum(max(figure.horizontalAdvance(text) + 24, box.fontMetrics().horizontalAdvance(box.title()) + 16)
                       for box, text in boxes) + spacing * (len(boxes) - 1)
            if need <= room:
                chosen = points
                break
        if chosen != self._card_points:
            self._card_points = chosen
            for lbl in self.labels.values():
                lbl.setStyleSheet(self._card_style(chosen))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_cards()

    def show_due(self, rows) -> None:
        total = len(rows)
        rows = rows[:DUE_SHOWN]    # the nearest ends; a table of 3,000 rows took 0.3 s on the GUI thread
        self.due_model.set_rows(rows)   # cells made when drawn (DueModel): 300 rows of items took 75-120 ms
        # the three narrow columns as wide as their longest text, measured on the texts themselves: Qt's
        # resizeColumnToContents styled and measured 60 rows a column (130-160 ms on the large data)
        metrics, pad = self.due.fontMetrics(), 2 * self.due.style().pixelMetric(QStyle.PM_FocusFrameHMargin) + 12
        header = self.due.horizontalHeader()
        for c in range(3):
            texts = {self.due_model.headers[c]} | {self.due_model.text(d, c) for d in rows}
            header.resizeSection(c, max(metrics.horizontalAdvance(t) for t in texts) + pad)
        title = self.tr("Contracts due (within 180/90/60/30 days): %1").replace("%1", str(total))
        if total > len(rows):
            title += self.tr(" (%1 shown)").replace("%1", str(len(rows)))
        self.due_box.setTitle(title)
        self.due_box.setToolTip(self.tr("The nearest %1 are listed; the Contracts page has all of them.")
                                .replace("%1", str(len(rows))) if total > len(rows) else "")
