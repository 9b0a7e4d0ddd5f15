"""Find N free U: a dialog that asks app.read.freespace and lists the racks that fit.

Choosing a candidate opens its elevation at the range (the main window answers `openRange`),
or the place-a-device form prefilled with the rack, face and lowest unit (`placeRange`).
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QFormLayout, QHBoxLayout,
                               QLabel, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem,
                               QVBoxLayout)

from app.read import queries
from app.store.db import Database
from app.domain.errors import DomainError, ValidationError
from app.read.freespace import FreeRange, find_free_units
from models.choices import Face

from ui.shell.i18n import choice_label
from ui.shell.operations import listen
from ui.kit.dialogs import refused_text
from ui.kit.tableview import select_only_row
from ui.widgets.plain_table import fit_contents

LIMIT = 200


class FindFreeUnitsDialog(QDialog):
    openRange = Signal(int, str, int, int)      # rack id, face, from unit, to unit
    placeRange = Signal(int, str, int, object)  # rack id, face, lowest unit, device type id or None

    def __init__(self, db: Database, parent=None):
        super().__init__(parent)
        self.db = db
        self.results: list[FreeRange] = []
        self.setObjectName("findFreeUnits")
        self.setWindowTitle(self.tr("Find free U"))
        layout = QVBoxLayout(self)
        layout.addLayout(self._form(db))
        self._results(layout)
        self.table.itemSelectionChanged.connect(self._update)
        self._update()
        self.resize(720, 480)
        self.searched = False
        listen(self, self._changed)

    def _form(self, db: Database) -> QFormLayout:
        """What to look for: device type or units, where, for whom, which face."""
        form = QFormLayout()
        self.device_type = QComboBox()
        self.device_type.setObjectName("deviceType")
        self.device_type.addItem(self.tr("(any: units only)"), None)
        self.types = {t.id: t for t in queries.device_type_sizes(db)}
        for tid, label in queries.options(db, "device_type"):
            if tid in self.types and self.types[tid].u_height > 0:
                self.device_type.addItem(label, tid)
        self.device_type.setToolTip(self.tr("Takes the type's height and depth, and leaves out racks whose power "
                                            "capacity cannot take its typical draw"))
        self.device_type.currentIndexChanged.connect(self._type_chosen)
        form.addRow(self.tr("Device type"), self.device_type)
        self.units = QSpinBox()
        self.units.setObjectName("units")
        self.units.setRange(1, 60)
        self.units.setValue(4)
        self.units.setSuffix(" U")
        form.addRow(self.tr("Contiguous units"), self.units)
        self.scope = QComboBox()
        self.scope.setObjectName("scope")
        self.scope.addItem(self.tr("(whole fleet)"), None)
        for sid, label in queries.options(db, "site"):
            self.scope.addItem(self.tr("Site %1").replace("%1", label), ("site", sid))
        for rid, label in queries.options(db, "room"):
            self.scope.addItem(self.tr("Room %1").replace("%1", label), ("room", rid))
        form.addRow(self.tr("Where"), self.scope)
        self.customer = QComboBox()
        self.customer.setObjectName("customer")
        self.customer.addItem(self.tr("(our own equipment)"), None)
        for cid, name in queries.options(db, "customer"):
            self.customer.addItem(name, cid)
        self.customer.setToolTip(self.tr("A rack leased to a customer takes only that customer's devices; "
                                         "other customers' reservations are never offered"))
        form.addRow(self.tr("For"), self.customer)
        row = QHBoxLayout()
        self.face = QComboBox()
        self.face.setObjectName("face")
        for v in Face.values():
            self.face.addItem(choice_label(Face, v), v)
        row.addWidget(self.face)
        self.full_depth = QCheckBox(self.tr("Full depth (both faces free)"))
        self.full_depth.setObjectName("fullDepth")
        self.full_depth.setChecked(True)
        self.full_depth.toggled.connect(lambda on: self.face.setEnabled(not on))
        self.face.setEnabled(False)
        row.addWidget(self.full_depth)
        row.addStretch(1)
        form.addRow(self.tr("Face"), row)
        return form

    def _results(self, layout: QVBoxLayout) -> None:
        """The search button, the candidate ranges, the status line and the buttons under them."""
        self.search_btn = QPushButton(self.tr("Search"))
        self.search_btn.setObjectName("search")
        self.search_btn.setDefault(True)
        self.search_btn.clicked.connect(self.search)
        layout.addWidget(self.search_btn, 0, Qt.AlignLeft)
        self.table = QTableWidget(0, 6)
        self.table.setObjectName("candidates")
        self.table.setHorizontalHeaderLabels([self.tr("Site"), self.tr("Room"), self.tr("Rack"), self.tr("Lessee"),
                                              self.tr("Range"), self.tr("Free (U)")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        fit_contents(self.table.horizontalHeader())
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _i: self.open_selected())
        layout.addWidget(self.table, 1)
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        buttons = QHBoxLayout()
        self.open_btn = QPushButton(self.tr("Open elevation"))
        self.open_btn.setObjectName("openElevation")
        self.open_btn.clicked.connect(self.open_selected)
        self.place_btn = QPushButton(self.tr("Place a device here…"))
        self.place_btn.setObjectName("placeHere")
        self.place_btn.clicked.connect(self.place_selected)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.reject)
        buttons.addWidget(self.open_btn)
        buttons.addWidget(self.place_btn)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout.addLayout(buttons)

    # a placement (or anything else that fills units) changes the answer: ask again, keep the rack chosen
    REFRESH_ON = frozenset({"device", "rack", "rack_reservation", "reservation", "space_lease", "cage", "*"})

    def _changed(self, kinds) -> None:
        if not self.searched or not (set(kinds) & self.REFRESH_ON):
            return
        was = self.selected()
        self.search()
        if was is not None:
            for r, c in enumerate(self.results):
                if c.rack_id == was.rack_id:
                    select_only_row(self.table, r)
                    break

    def choose_type(self, type_id: int) -> None:
        self.device_type.setCurrentIndex(max(0, self.device_type.findData(type_id)))

    def _type_chosen(self) -> None:
        t = self.types.get(self.device_type.currentData())
        self.units.setEnabled(t is None)
        self.full_depth.setEnabled(t is None)
        if t is not None:
            self.units.setValue(t.units)
            self.full_depth.setChecked(t.full_depth)

    def search(self) -> list[FreeRange]:
        self.searched = True
        scope = self.scope.currentData()
        kw = {}
        if scope is not None:
            kw["site_id" if scope[0] == "site" else "room_id"] = scope[1]
        try:
            self.results = find_free_units(self.db, self.units.value(), customer_id=self.customer.currentData(),
                                           full_depth=self.full_depth.isChecked(), face=self.face.currentData(),
                                           device_type_id=self.device_type.currentData(), limit=LIMIT, **kw)
        except ValidationError as exc:
            self.results = []
            self.status.setText(refused_text(exc))
        except DomainError as exc:
            self.results = []
            self.status.setText(refused_text(exc))
        else:
            if len(self.results) >= LIMIT:
                self.status.setText(self.tr("%1 or more racks fit; the best %1 are listed. Choose a site or a room "
                                            "to narrow the search.").replace("%1", str(LIMIT)))
            else:
                self.status.setText(self.tr("%1 rack(s) with %2 contiguous free U, best fit first.")
                                    .replace("%1", str(len(self.results))).replace("%2", str(self.units.value()))
                                    if self.results else
                                    self.tr("No rack has %1 contiguous free U there.")
                                    .replace("%1", str(self.units.value())))
        self.table.setRowCount(len(self.results))
        for r, c in enumerate(self.results):
            face = self.tr("both faces") if self.full_depth.isChecked() else choice_label(Face, c.face)
            cells = [c.site_code, c.room_name, c.rack_name, c.lessee_name or "—",
                     f"U{c.u_from}–U{c.u_to} ({face})", str(c.free_units)]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 5:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(r, col, item)
        if self.results:
            select_only_row(self.table, 0)
        self._update()
        return self.results

    def selected(self) -> FreeRange | None:
        rows = self.table.selectionModel().selectedRows()
        return self.results[rows[0].row()] if rows and rows[0].row() < len(self.results) else None

    def _update(self) -> None:
        has = self.selected() is not None
        self.open_btn.setEnabled(has)
        self.place_btn.setEnabled(has)

    def _face(self, c: FreeRange) -> str:
        return Face.FRONT if self.full_depth.isChecked() else c.face

    def open_selected(self) -> None:
        c = self.selected()
        if c is not None:
            self.openRange.emit(c.rack_id, self._face(c), c.u_from, c.u_to)

    def place_selected(self) -> None:
        c = self.selected()
        if c is not None:
            self.openRange.emit(c.rack_id, self._face(c), c.u_from, c.u_to)
            self.placeRange.emit(c.rack_id, self._face(c), c.u_from, self.device_type.currentData())
