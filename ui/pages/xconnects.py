"""Cross-connects: the list (state, ends, medium, circuit, dates), moves along the lifecycle and
the LOA/CFA PDF. The allowed moves come from app/services/xconnects.py (the screen only asks)."""
from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QComboBox, QDateEdit, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QVBoxLayout, QWidget)

from app.domain.clock import local_today
from app.domain.errors import DomainError
from models.choices import XconnectMedium, XconnectPeer, XconnectState

from ui.kit.dialogs import date_edit, get_date, guard, refused_text
from ui.shell.i18n import choice_label
from ui.shell.operations import apply, listen, run_op
from ui.pages.rackforms import _RackForm
from ui.kit.rowsmodel import RowsModel, rows_view
from ui.kit.tableview import select_only_row

SHOWN = 2000  # rows listed; the filter narrows a larger book


class XconnectsPage(QWidget):
    """The cross-connect list with a state filter and a search, a move bar and the LOA button."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("xconnectsPage")
        self.rows = []
        top = QHBoxLayout()
        self.state = QComboBox()
        self.state.setObjectName("stateFilter")
        self.state.addItem(self.tr("All states"), None)
        for v in XconnectState.values():
            self.state.addItem(choice_label(XconnectState, v), v)
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setPlaceholderText(self.tr("Reference, circuit id, customer or carrier"))
        refresh = QPushButton(self.tr("Refresh"))
        self.order_btn = QPushButton(self.tr("Order a cross-connect…"))
        self.order_btn.setObjectName("orderButton")
        guard(self.order_btn, actor, "manage_dcim")
        self.order_btn.clicked.connect(self.order)
        top.addWidget(self.order_btn)
        top.addWidget(QLabel(self.tr("State")))
        top.addWidget(self.state)
        top.addWidget(self.search, 1)
        top.addWidget(refresh)
        headers = [self.tr("Reference"), self.tr("State"), self.tr("Customer"), self.tr("Customer port"),
                   self.tr("Meet-me room"), self.tr("Far end"), self.tr("Medium"), self.tr("Circuit id"),
                   self.tr("Ordered on"), self.tr("Installed on"), self.tr("Active from"),
                   self.tr("Disconnected on"),
                   self.tr("Contract")]
        self.model = RowsModel(headers, self._cells, self._colours)
        self.table = rows_view(self.model, "xconnectTable")
        bar = self._move_bar()
        self.message = QLabel()
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #c62828")
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        lay.addLayout(bar)
        lay.addWidget(self.message)
        refresh.clicked.connect(self.load)
        self.state.currentIndexChanged.connect(self.load)
        self.search.returnPressed.connect(self.load)
        self.table.selectionModel().selectionChanged.connect(self.update_actions)
        self.move_btn.clicked.connect(self.move)
        self.loa_btn.clicked.connect(self.loa)
        listen(self, self._changed)
        self.loaded = False
        self.update_actions()

    def _move_bar(self) -> QHBoxLayout:
        """Under the list: move the chosen cross-connect (to, on, note, circuit id), its LOA, a ticket."""
        bar = QHBoxLayout()
        self.move_to = QComboBox()
        self.move_to.setObjectName("moveTo")
        self.on = QDateEdit()
        self.on.setObjectName("moveOn")
        self.on.setCalendarPopup(True)
        self.on.setDisplayFormat("yyyy-MM-dd")
        today = local_today()
        self.on.setDate(QDate(today.year, today.month, today.day))
        self.note = QLineEdit()
        self.note.setObjectName("moveNote")
        self.note.setPlaceholderText(self.tr("Work note (ticket, who patched it)"))
        self.circuit = QLineEdit()
        self.circuit.setObjectName("moveCircuit")
        self.circuit.setPlaceholderText(self.tr("Circuit id"))
        self.move_btn = QPushButton(self.tr("Move"))
        self.move_btn.setObjectName("moveButton")
        self.loa_btn = QPushButton(self.tr("LOA PDF…"))
        self.loa_btn.setObjectName("loaButton")
        self.loa_lang = QComboBox()  # carriers abroad ask for it in English
        self.loa_lang.setObjectName("loaLanguage")
        self.loa_lang.addItem("中文", "zh")
        self.loa_lang.addItem("English", "en")
        self.ticket_btn = QPushButton(self.tr("Open a ticket for this…"))   # the operations desk (issue 24)
        self.ticket_btn.setObjectName("ticketButton")
        self.ticket_btn.clicked.connect(self.open_ticket)
        for w in (QLabel(self.tr("Move to")), self.move_to, QLabel(self.tr("on")), self.on, self.note, self.circuit,
                  self.move_btn, self.loa_btn, self.loa_lang, self.ticket_btn):
            bar.addWidget(w)
        return bar

    def showEvent(self, event):  # the list loads when the page is first shown, not with the window
        super().showEvent(event)
        if not self.loaded:
            self.load()

    def _changed(self, changes) -> None:
        kinds = getattr(changes, "kinds", changes)
        if self.loaded and (not kinds or "*" in kinds or "cross_connect" in kinds):
            self.load()

    def load(self) -> None:
        from app.services.xconnects import list_cross_connects
        self.loaded = True
        keep = self.current().id if self.current() else None
        self.rows = list_cross_connects(self.db, state=self.state.currentData(), text=self.search.text() or None,
                                        limit=SHOWN)
        self.model.set_rows(self.rows)
        for i, r in enumerate(self.rows):
            if r.id == keep:
                select_only_row(self.table, i)
        self.update_actions()

    def _cells(self, r) -> list[str]:
        peer = f"{r.peer_name or ''} ({choice_label(XconnectPeer, r.peer_kind)})"
        if r.peer_port:
            peer += f" {r.peer_port}"
        mmr = "/".join(x for x in (r.mmr_panel, r.mmr_port) if x)
        return [r.reference, choice_label(XconnectState, r.state), r.customer, r.a_end, mmr, peer,
                choice_label(XconnectMedium, r.medium), r.circuit_id or "", str(r.ordered_date),
                str(r.installed_date or ""), str(r.active_date or ""), str(r.disconnected_date or ""),
                r.contract or ""]

    @staticmethod
    def _colours(r, column: int) -> tuple[str | None, str | None]:
        if column != 1:
            return None, None
        colour = QColor(XconnectState.colour(r.state))
        return colour.name(), "#ffffff" if colour.lightness() < 128 else "#000000"

    def current(self):
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.rows[rows[0].row()] if rows and rows[0].row() < len(self.rows) else None

    def select(self, reference: str) -> None:
        for i, r in enumerate(self.rows):
            if r.reference == reference:
                select_only_row(self.table, i)
                return

    def update_actions(self) -> None:
        r = self.current()
        self.move_to.clear()
        for v in (r.moves if r else []):
            self.move_to.addItem(choice_label(XconnectState, v), v)
        final = r is not None and not r.moves
        guard(self.move_btn, self.actor, "manage_dcim", allowed=bool(r and r.moves),
              tooltip=self.tr("Disconnected is final: order a new cross-connect") if final
              else ("" if r else self.tr("Choose a cross-connect first")))
        self.move_to.setEnabled(self.move_btn.isEnabled())
        guard(self.loa_btn, self.actor, "print", allowed=r is not None,
              tooltip="" if r else self.tr("Choose a cross-connect first"))
        guard(self.ticket_btn, self.actor, "raise_tickets", allowed=r is not None)

    def open_ticket(self):
        """The Operations page's new-ticket form for the chosen cross-connect."""
        r, window = self.current(), self.window()
        if r is None or not hasattr(window, "open_ticket_for"):
            return None
        return window.open_ticket_for("cross_connect", r.id)

    def move(self):
        from app.services.xconnects import move_cross_connect
        r, to = self.current(), self.move_to.currentData()
        if r is None or to is None:
            return None
        q = self.on.date()
        on = dt.date(q.year(), q.month(), q.day())
        note, circuit = self.note.text().strip() or None, self.circuit.text().strip() or None
        self.message.clear()

        def work(_progress):
            return move_cross_connect(self.db, self.actor, r.id, to, on=on, note=note, circuit_id=circuit,
                                      expected_version=r.version)

        def done(_version) -> None:
            self.note.clear()
            self.circuit.clear()  # the operation announces the change: the list reloads

        def failed(exc) -> None:
            self.message.setText(refused_text(exc))
        return run_op(self, work, label=self.tr("Moving the cross-connect…"), on_success=done, on_failure=failed,
                      changes={"cross_connect"}, show_progress=False)

    def order(self) -> "OrderDialog":
        dlg = OrderDialog(self.db, self.actor, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        self.order_form = dlg
        dlg.open()
        return dlg

    def loa(self, on_ready=None):
        from ui.kit.pdfpreview import print_document_preview
        r = self.current()
        if r is None:
            return None
        return print_document_preview(self, self.db, self.actor, "loa", r.reference,
                                      language=self.loa_lang.currentData(), on_ready=on_ready,
                                      title=self.tr("LOA/CFA %1").replace("%1", r.reference))


class OrderDialog(_RackForm):
    """Order a cross-connect: the customer's rack, panel and port, the meet-me room port, the far
    end, the medium, and the contract item that sells it. The service checks everything."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("xconnectOrderDialog")
        self.setWindowTitle(self.tr("Order a cross-connect"))
        self.saved_id = None
        self.row("customer_id", self.tr("Customer *"), self.options("customer", False))
        rack = self.row("rack", self.tr("Rack *"), QLineEdit())
        rack.setPlaceholderText(self.tr("SITE/ROOM/RACK or asset tag"))
        self.row("panel", self.tr("Patch panel *"), QLineEdit())
        self.row("port", self.tr("Port *"), QLineEdit())
        self.row("mmr", self.tr("Meet-me room panel/port"), QLineEdit())
        kind = self.row("peer_kind", self.tr("Far end *"), QComboBox())
        for v in XconnectPeer.values():
            kind.addItem(choice_label(XconnectPeer, v), v)
        self.row("peer_name", self.tr("Carrier or cloud"), QLineEdit())
        self.row("peer_customer_id", self.tr("Other customer"), self.options("customer", True))
        self.row("peer_port", self.tr("Far-end port"), QLineEdit())
        medium = self.row("medium", self.tr("Medium *"), QComboBox())
        for v in XconnectMedium.values():
            medium.addItem(choice_label(XconnectMedium, v), v)
        self.row("circuit_id", self.tr("Circuit id"), QLineEdit())
        self.row("contract", self.tr("Contract (number, item position)"), QLineEdit()).setPlaceholderText(
            "SH-2026-0001, 2")
        self.row("ordered_date", self.tr("Ordered on *"), date_edit(local_today()))
        self.row("work_note", self.tr("Work note"), QLineEdit())
        kind.currentIndexChanged.connect(self._peer_fields)
        self._peer_fields()
        self.finish(self.tr("Order"))

    def _peer_fields(self) -> None:
        customer = self.editors["peer_kind"].currentData() == XconnectPeer.CUSTOMER
        for key, shown in (("peer_name", not customer), ("peer_customer_id", customer)):
            self.form.setRowVisible(self.editors[key].parentWidget(), shown)

    def write(self) -> int:
        from app.domain.errors import ValidationError
        from app.services.contracts import get_contract
        from app.services.racknames import find_rack
        from app.services.xconnects import order_cross_connect
        e = self.editors
        try:
            rack_id = find_rack(self.db, e["rack"].text().strip()) if e["rack"].text().strip() else None
        except DomainError as exc:  # the lookup's own message, on the field
            raise ValidationError({"rack": refused_text(exc)}) from None
        if rack_id is None:
            raise ValidationError({"rack": self.tr("name the customer's rack")})
        item_id = None
        text = e["contract"].text().strip()
        if text:
            number, _, pos = text.partition(",")
            ids = [it.id for it in get_contract(self.db, number.strip()).items]  # in the contract's order
            try:
                item_id = ids[int(pos.strip() or "1") - 1]
            except (ValueError, IndexError):
                raise ValidationError({"contract": self.tr("the contract has items 1 to %1")
                                      .replace("%1", str(len(ids)))}) from None
        panel, _, port = e["mmr"].text().strip().rpartition("/")
        customer = e["peer_kind"].currentData() == XconnectPeer.CUSTOMER
        return order_cross_connect(
            self.db, self.actor, customer_id=e["customer_id"].currentData(), rack_id=rack_id,
            panel=e["panel"].text(), port=e["port"].text(), mmr_panel=panel or None, mmr_port=port or None,
            peer_kind=e["peer_kind"].currentData(), peer_name=None if customer else e["peer_name"].text(),
            peer_customer_id=e["peer_customer_id"].currentData() if customer else None,
            peer_port=e["peer_port"].text(), medium=e["medium"].currentData(), circuit_id=e["circuit_id"].text(),
            contract_item_id=item_id, ordered_date=get_date(e["ordered_date"]), work_note=e["work_note"].text())

    def save(self) -> None:
        from app.domain.errors import DomainError, ValidationError
        self.clear_errors()
        try:
            self.saved_id = apply(self.write)
        except ValidationError as exc:
            self.show_errors({("rack" if k == "rack_id" else k): v for k, v in exc.errors.items()})
            return
        except DomainError as exc:
            self.show_message(refused_text(exc))
            return
        self.accept()
