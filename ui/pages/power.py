"""The power chain on screen: the elevation's A/B power bar, the rack's Power tab (its feeds,
loads, the 80 % rule, N redundancy, its supplies and its room's racks) and the list of panels
and feeds. Everything is read from app.services.power; nothing here decides a rule."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QHBoxLayout, QLabel, QPushButton,
                               QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget)

from models.choices import PowerFeedStatus, PowerFeedType, PowerPhase, PowerSide, RedundancyState

from ui.kit.dialogs import guard
from ui.shell.i18n import choice_label
from ui.widgets.power_bar import kw, problem_lines
from ui.widgets.plain_table import fit_contents

TR_CONTEXT = "PowerView"


def tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    return QCoreApplication.translate(TR_CONTEXT, text, disambiguation, n)


def _table(headers: list[str], name: str) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setObjectName(name)
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectRows)
    t.verticalHeader().setVisible(False)
    fit_contents(t.horizontalHeader())
    t.horizontalHeader().setStretchLastSection(True)
    return t


def _fill(t: QTableWidget, rows: list[list], colours: list[str | None] | None = None) -> None:
    t.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem("" if value is None else str(value))
            if isinstance(value, (int, Decimal)) or (isinstance(value, str) and value[:1].isdigit()):
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            if colours and colours[r]:
                item.setForeground(QBrush(QColor(colours[r])))
            t.setItem(r, c, item)


class RackPowerPanel(QWidget):
    """The racks page's Power tab: the chosen rack's feeds and supplies, and its room's racks."""

    def __init__(self, db, parent=None):
        super().__init__(parent)
        self.db = db
        self.rack_id: int | None = None
        self.setObjectName("rackPower")
        v = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setObjectName("powerTitle")
        self.title.setWordWrap(True)
        v.addWidget(self.title)
        self.feeds = _table([tr("Side"), tr("Feed"), tr("Status"), tr("Breaker"), tr("Load kW"), tr("Load %"),
                             tr("Limit kW"), tr("On failover kW"), tr("Sold to")], "powerFeeds")
        v.addWidget(self.feeds, 1)
        self.problems = QLabel()
        self.problems.setObjectName("powerProblems")
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #c62828")
        v.addWidget(self.problems)
        self.supplies = _table([tr("Device"), tr("Supply"), tr("PDU"), tr("Outlet"), tr("Feed"), tr("Side")],
                               "powerSupplies")
        v.addWidget(self.supplies, 2)
        self.room_label = QLabel()
        self.room_label.setObjectName("powerRoom")
        v.addWidget(self.room_label)
        self.room = _table([tr("Rack"), tr("Load kW"), tr("A kW"), tr("B kW"), tr("N redundancy")], "powerRoomRacks")
        v.addWidget(self.room, 3)
        row = QHBoxLayout()
        self.list_button = QPushButton(tr("Power panels and feeds…"))
        self.list_button.setObjectName("powerList")
        self.list_button.clicked.connect(self.open_list)
        row.addWidget(self.list_button)
        self.feed_ids: list[int] = []
        self.ticket_button = QPushButton(tr("Open a ticket for this feed…"))   # the operations desk (issue 24)
        self.ticket_button.setObjectName("feedTicket")
        self.ticket_button.clicked.connect(self.open_ticket)
        self.feeds.itemSelectionChanged.connect(self.update_actions)
        row.addWidget(self.ticket_button)
        row.addStretch(1)
        v.addLayout(row)
        self.update_actions()

    def current_feed(self) -> int | None:
        rows = self.feeds.selectionModel().selectedRows()
        return self.feed_ids[rows[0].row()] if rows and rows[0].row() < len(self.feed_ids) else None

    def update_actions(self) -> None:
        actor = getattr(self.window(), "actor", None)
        if actor is None:
            self.ticket_button.setEnabled(False)
            return
        guard(self.ticket_button, actor, "raise_tickets", allowed=self.current_feed() is not None,
              tooltip="" if self.current_feed() is not None else tr("Choose a feed first"))

    def open_ticket(self):
        """The Operations page's new-ticket form for the chosen feed, filled in (its rack's site)."""
        feed, window = self.current_feed(), self.window()
        if feed is None or not hasattr(window, "open_ticket_for"):
            return None
        return window.open_ticket_for("power_feed", feed)

    def load_rack(self, rack_id: int | None, panel=None) -> None:
        """`panel`: the rack's RackPowerPanel when the caller read it (a rack click reads every panel at once)."""
        from app.read.power import rack_power_panel
        self.rack_id = rack_id
        if rack_id is None:
            return
        panel = panel if panel is not None else rack_power_panel(self.db, rack_id)
        rp = panel.rack
        self.feed_ids = [f.id for f in rp.feeds]
        self.title.setText(tr("%1: %2 kW typical · N redundancy: %3").replace("%1", rp.rack)
                           .replace("%2", kw(rp.load_w)).replace("%3", choice_label(RedundancyState, rp.redundancy)))
        self.title.setStyleSheet(f"font-weight: bold; color: {QColor(RedundancyState.colour(rp.redundancy)).darker(130).name()}")
        _fill(self.feeds, [[choice_label(PowerSide, f.side), f.label, choice_label(PowerFeedStatus, f.status),
                            f"{f.amperage} A {f.voltage} V", kw(f.load_w), f"{f.pct}", kw(f.limit_w),
                            kw(f.failover_w), f.sold_to or ""] for f in rp.feeds],
              ["#c62828" if f.over else None for f in rp.feeds])
        self.update_actions()
        notes = problem_lines(rp)
        if rp.unconnected:
            notes.append(tr("%n device(s) not plugged into a PDU: counted on every feed of the rack", "",
                             rp.unconnected))
        self.problems.setText("\n".join(notes))
        _fill(self.supplies, [[s.device, s.port, s.pdu, s.outlet, s.feed, choice_label(PowerSide, s.side)]
                              for s in panel.supplies])
        room = panel.room
        self.room_label.setText(
            tr("Room %1: %2 kW; redundant %3, failing %4, one side only %5, no feeds %6")
            .replace("%1", room.room).replace("%2", kw(room.load_w))
            .replace("%3", str(room.count(RedundancyState.OK))).replace("%4", str(room.count(RedundancyState.FAIL)))
            .replace("%5", str(room.count(RedundancyState.SINGLE))).replace("%6", str(room.count(RedundancyState.NONE))))
        order = {RedundancyState.FAIL: 0, RedundancyState.SINGLE: 1, RedundancyState.OK: 2, RedundancyState.NONE: 3}
        racks = sorted(room.racks, key=lambda r: (order.get(r.redundancy, 4), r.ok, r.rack))  # failing first
        _fill(self.room, [[r.rack, kw(r.load_w), kw(r.side_load("A")), kw(r.side_load("B")),
                           choice_label(RedundancyState, r.redundancy)] for r in racks],
              [RedundancyState.colour(r.redundancy) if not r.ok else None for r in racks])

    def refresh(self) -> None:
        if self.rack_id is not None:
            self.load_rack(self.rack_id)

    def open_list(self) -> "PowerListDialog":
        dlg = PowerListDialog(self.db, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        self.list_dialog = dlg
        dlg.open()
        return dlg


class PowerListDialog(QDialog):
    """Every power panel and feed (NetBox's lists), read-only; changes come from the CLI and imports."""

    def __init__(self, db, parent=None):
        super().__init__(parent)
        from app.read.power import list_feeds, list_panels
        self.setObjectName("powerListDialog")
        self.setWindowTitle(tr("Power panels and feeds"))
        self.resize(1000, 560)
        v = QVBoxLayout(self)
        tabs = QTabWidget()
        v.addWidget(tabs)
        panels = _table([tr("Site"), tr("Room"), tr("Panel"), tr("Voltage"), tr("Phase"), tr("Amperage"),
                         tr("UPS"), tr("Feeds")], "powerPanels")
        _fill(panels, [[p.site, p.room or "", p.name, f"{p.voltage} V", choice_label(PowerPhase, p.phase),
                        f"{p.amperage} A", p.ups or "", p.feeds] for p in list_panels(db)])
        tabs.addTab(panels, tr("Panels"))
        feeds = _table([tr("Site"), tr("Panel"), tr("Feed"), tr("Side"), tr("Rack"), tr("Status"), tr("Type"),
                        tr("Phase"), tr("Voltage"), tr("Amperage"), tr("Max utilisation"), tr("Sold to")],
                       "powerFeedList")
        _fill(feeds, [[f.site, f.panel, f.name, choice_label(PowerSide, f.side), f.rack or "",
                       choice_label(PowerFeedStatus, f.status), choice_label(PowerFeedType, f.type),
                       choice_label(PowerPhase, f.phase), f"{f.voltage} V", f"{f.amperage} A",
                       f"{f.max_utilization} %", f.sold_to or ""] for f in list_feeds(db, limit=5000)])
        tabs.addTab(feeds, tr("Feeds"))
        self.tabs = tabs
