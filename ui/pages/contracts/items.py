"""The items editor of the contract form: the items' table, the form of the item chosen, and the
items as the contract service's ItemSpec (with the errors found before asking it)."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.read import queries
from app.services import contracts as svc
from app.store.db import Database
from models.choices import ItemKind, PriceUnit, TaxCategory

from ui.kit.dialogs import date_edit, error_label, field_box, get_date, parse_decimal, set_date
from ui.pages.contracts.figures import plain
from ui.shell.i18n import choice_label
from ui.widgets.plain_table import fit_contents


# item fields shown per kind (besides kind, description, price, unit, quantity, tax, service start/end)
ITEM_EXTRA = {
    ItemKind.RACK: ("rack_id", "u_from", "u_to", "cage_id", "power_allowance_kw", "kwh_price"),  # no range: whole rack
    ItemKind.HOSTING: ("rack_id", "u_from", "u_to"),
    ItemKind.GPU: ("gpu_model_id", "gpu_serials", "included_hours", "hourly_rate"),
    ItemKind.BANDWIDTH: ("mbps",),
    ItemKind.MAINTENANCE: (), ItemKind.ONE_OFF: (), ItemKind.DISCOUNT: (),
    ItemKind.XCONNECT: ("setup_price",),  # + the monthly fee as unit price, the count as quantity
    ItemKind.POWER: ("rack_id", "kwh_price"),  # circuits: quantity × fee, and kWh of the circuits sold
}
DECIMAL_FIELDS = ("unit_price", "quantity", "power_allowance_kw", "kwh_price", "included_hours", "hourly_rate",
                  "setup_price")
INT_FIELDS = ("u_from", "u_to", "mbps")


def item_dict(db: Database, it: svc.ItemInfo) -> dict:
    d = {k: getattr(it, k) for k in ("kind", "description", "description_en", "unit_price", "price_unit", "quantity",
                                     "tax_category", "rack_id", "u_from", "u_to", "device_id", "gpu_model_id", "service_start",
                                     "service_end", "power_allowance_kw", "kwh_price", "included_hours",
                                     "hourly_rate", "mbps", "cage_id", "setup_price")}
    serials = queries.gpu_serials(db, it.gpu_ids)
    d["gpu_serials"] = ", ".join(serials[g] for g in it.gpu_ids if g in serials)
    for k in DECIMAL_FIELDS + INT_FIELDS:
        d[k] = plain(d[k])
    return d


def new_item() -> dict:
    return {"kind": ItemKind.RACK, "description": "", "description_en": "", "unit_price": "", "price_unit": PriceUnit.MONTH,
            "quantity": "1", "tax_category": None, "rack_id": None, "u_from": "", "u_to": "", "device_id": None,
            "gpu_model_id": None, "gpu_serials": "", "service_start": None, "service_end": None,
            "power_allowance_kw": "", "kwh_price": "", "included_hours": "", "hourly_rate": "", "mbps": "",
            "cage_id": None, "setup_price": ""}


class ContractItemsEditor:
    """The items half of ContractDialog (a mixin: the dialog holds the state, self.items, self.current
    and self.item_errors, and the header it reads)."""

    def _build_items_box(self) -> QGroupBox:
        """The items' table with Add and Remove, beside the form of the item chosen."""
        items_box = QGroupBox(self.tr("Items"))
        ib = QHBoxLayout(items_box)
        left = QVBoxLayout()
        self.items_table = QTableWidget(0, 5)
        self.items_table.setObjectName("itemsTable")
        self.items_table.setHorizontalHeaderLabels([self.tr("Kind"), self.tr("Description"), self.tr("Quantity"),
                                                    self.tr("Unit price"), self.tr("Unit")])
        self.items_table.setSelectionBehavior(QTableWidget.SelectRows)
        self.items_table.setSelectionMode(QTableWidget.SingleSelection)
        self.items_table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.items_table.verticalHeader().setVisible(False)
        fit_contents(self.items_table.horizontalHeader(), 0, 2, 3, 4)
        self.items_table.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.items_table.currentCellChanged.connect(lambda r, *_: self.show_item(r))
        left.addWidget(self.items_table)
        brow = QHBoxLayout()
        self.add_button = QPushButton(self.tr("Add item"))
        self.add_button.setObjectName("addItem")
        self.add_button.clicked.connect(lambda: self.add_item())
        self.remove_button = QPushButton(self.tr("Remove item"))
        self.remove_button.setObjectName("removeItem")
        self.remove_button.clicked.connect(self.remove_item)
        brow.addWidget(self.add_button)
        brow.addWidget(self.remove_button)
        brow.addStretch(1)
        left.addLayout(brow)
        ib.addLayout(left, 3)
        self.item_form_box = QWidget()
        self.item_form = QFormLayout(self.item_form_box)
        self.item_form.setContentsMargins(0, 0, 0, 0)
        self.item_edit: dict[str, QWidget] = {}
        self.item_err: dict[str, QLabel] = {}
        self._build_item_form()
        ib.addWidget(self.item_form_box, 2)
        # the English description is for Chinese contracts (an English one's description is English)
        self.header["language"].currentIndexChanged.connect(
            lambda _i: self._visibility(self.items[self.current]) if 0 <= self.current < len(self.items) else None)
        return items_box

    def _build_item_form(self) -> None:
        f = self.item_form

        def add(key, label, w):
            w.setObjectName(f"item_{key}")
            err = error_label(f"itemError_{key}")
            f.addRow(label, field_box(w, err))
            self.item_edit[key], self.item_err[key] = w, err
            if isinstance(w, QLineEdit):
                w.textChanged.connect(lambda _t, k=key: self._edited(k))
            elif isinstance(w, QComboBox):
                w.currentIndexChanged.connect(lambda _i, k=key: self._edited(k))
            else:
                w.dateChanged.connect(lambda _d, k=key: self._edited(k))
        kind = QComboBox()
        for v in ItemKind.values():
            kind.addItem(choice_label(ItemKind, v), v)
        add("kind", self.tr("Kind"), kind)
        add("description", self.tr("Description *"), QLineEdit())
        add("description_en", self.tr("Description in English"), QLineEdit())
        self.item_edit["description_en"].setPlaceholderText(
            self.tr("for English documents of a Chinese contract; empty: made from the kind and object"))
        add("unit_price", self.tr("Unit price (CNY) *"), QLineEdit())
        add("price_unit", self.tr("Priced"), QComboBox())
        add("quantity", self.tr("Quantity"), QLineEdit())
        tax = QComboBox()
        tax.addItem(self.tr("(by kind)"), None)
        for v in TaxCategory.values():
            tax.addItem(choice_label(TaxCategory, v), v)
        add("tax_category", self.tr("Tax category"), tax)
        add("rack_id", self.tr("Rack"), self._options("rack", optional=True))
        add("u_from", self.tr("From unit"), QLineEdit())
        add("u_to", self.tr("To unit"), QLineEdit())
        add("cage_id", self.tr("Cage (instead of a rack)"), self._options("cage", optional=True))
        add("gpu_model_id", self.tr("GPU model"), self._options("gpu_model", optional=True))
        serials = QLineEdit()
        serials.setPlaceholderText(self.tr("or named GPUs: serials, comma separated"))
        add("gpu_serials", self.tr("Named GPUs"), serials)
        add("service_start", self.tr("Service start (handover)"),
            date_edit(optional=True, default=lambda: get_date(self.header["start_date"])))
        add("service_end", self.tr("Service end"), date_edit(optional=True, default=lambda: get_date(self.header["end_date"])))
        add("power_allowance_kw", self.tr("Power allowance (kW)"), QLineEdit())
        add("kwh_price", self.tr("Price per kWh over it"), QLineEdit())
        add("included_hours", self.tr("Included GPU-hours"), QLineEdit())
        add("hourly_rate", self.tr("Hourly rate beyond"), QLineEdit())
        add("mbps", self.tr("Mbps"), QLineEdit())
        add("setup_price", self.tr("Installation price each"), QLineEdit())
        self.item_edit["service_start"].setToolTip(self.tr("Billing starts at handover; empty = the contract's start"))

    # --- items ----------------------------------------------------------------------
    def add_item(self, values: dict | None = None) -> int:
        self.items.append(dict(new_item(), **(values or {})))
        r = self.items_table.rowCount()
        self.items_table.insertRow(r)
        self._summary(r)
        self.items_table.setCurrentCell(r, 0)
        self.show_item(r)
        return r

    def remove_item(self) -> None:
        r = self.items_table.currentRow()
        if r < 0:
            return
        self.items.pop(r)
        self.item_errors = {}
        self.items_table.removeRow(r)
        self.current = -1
        self.show_item(min(r, len(self.items) - 1))
        self.show_totals()

    def _summary(self, r: int) -> None:
        it = self.items[r]
        cells = [choice_label(ItemKind, it["kind"]), it["description"], it["quantity"], it["unit_price"],
                 choice_label(PriceUnit, it["price_unit"])]
        bad = bool(self.item_errors.get(r))
        for c, text in enumerate(cells):
            cell = QTableWidgetItem(text or "")
            if c in (2, 3):
                cell.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            if bad:
                cell.setBackground(QBrush(QColor("#ffebee")))
            self.items_table.setItem(r, c, cell)
        self.show_totals()

    def show_item(self, r: int) -> None:
        self.current = r
        self.item_form_box.setEnabled(r >= 0)
        self.remove_button.setEnabled(r >= 0)
        if r < 0 or r >= len(self.items):
            return
        if self.items_table.currentRow() != r:
            self.items_table.setCurrentCell(r, 0)
        it = self.items[r]
        self._loading = True
        try:
            self._fill_units(it["kind"])
            for key, w in self.item_edit.items():
                value = it.get(key)
                if isinstance(w, QComboBox):
                    i = w.findData(value)
                    w.setCurrentIndex(i if i >= 0 else 0)
                    if key == "price_unit" and i < 0:
                        it[key] = w.currentData()
                elif isinstance(w, QLineEdit):
                    w.setText(value or "")
                else:
                    set_date(w, value)
        finally:
            self._loading = False
        self._visibility(it)
        errs = self.item_errors.get(r, {})
        for key, lbl in self.item_err.items():
            lbl.setText(errs.get(key, ""))
            lbl.setVisible(key in errs)

    def _fill_units(self, kind: str) -> None:
        w: QComboBox = self.item_edit["price_unit"]
        keep = w.currentData()
        w.blockSignals(True)
        w.clear()
        for v in PriceUnit.values():
            if v in svc.UNITS_BY_KIND.get(kind, ()):
                w.addItem(choice_label(PriceUnit, v), v)
        i = w.findData(keep)
        w.setCurrentIndex(i if i >= 0 else 0)
        w.blockSignals(False)

    def _visibility(self, it: dict) -> None:
        extra = set(ITEM_EXTRA.get(it["kind"], ()))
        for key in ("rack_id", "u_from", "u_to", "cage_id", "gpu_model_id", "gpu_serials", "power_allowance_kw", "kwh_price",
                    "included_hours", "hourly_rate", "mbps", "setup_price"):
            shown = key in extra
            if key in ("included_hours", "hourly_rate"):
                shown = shown and it["price_unit"] == PriceUnit.HYBRID
            if key == "rack_id" and it["kind"] == ItemKind.HOSTING:
                shown = True
            self.item_form.setRowVisible(self.item_edit[key].parentWidget(), shown)
        self.item_form.setRowVisible(self.item_edit["description_en"].parentWidget(),
                                     self.header["language"].currentData() != "en")

    def _edited(self, key: str) -> None:
        if self._loading or not (0 <= self.current < len(self.items)):
            return
        w = self.item_edit[key]
        it = self.items[self.current]
        if isinstance(w, QComboBox):
            it[key] = w.currentData()
        elif isinstance(w, QLineEdit):
            it[key] = w.text()
        else:
            it[key] = get_date(w)
        if key == "kind":
            self._loading = True
            self._fill_units(it["kind"])
            it["price_unit"] = self.item_edit["price_unit"].currentData()
            self._loading = False
        if key in ("kind", "price_unit"):
            self._visibility(it)
        self._summary(self.current)

    def item_specs(self) -> tuple[list[svc.ItemSpec], dict[str, str]]:
        specs, errors = [], {}
        all_serials = [s for it in self.items for s in it["gpu_serials"].replace("，", ",").split(",") if s.strip()]
        ids = queries.gpu_ids_by_serial(self.db, all_serials)
        for n, it in enumerate(self.items, start=1):
            extra = set(ITEM_EXTRA.get(it["kind"], ())) | ({"rack_id"} if it["kind"] == ItemKind.HOSTING else set())
            vals: dict = {}
            for key in DECIMAL_FIELDS + INT_FIELDS:
                if key not in ("unit_price", "quantity") and key not in extra:
                    continue
                try:
                    v = parse_decimal(it[key])
                except ValueError:
                    errors[f"items[{n}].{key}"] = self.tr("a number, e.g. 12.5")
                    continue
                if key in INT_FIELDS and v is not None:
                    if v % 1:
                        errors[f"items[{n}].{key}"] = self.tr("a whole number")
                        continue
                    v = int(v)
                vals[key] = v
            gpu_ids: tuple[int, ...] = ()
            if it["kind"] == ItemKind.GPU and it["gpu_serials"].strip():
                serials = [s.strip() for s in it["gpu_serials"].replace("，", ",").split(",") if s.strip()]
                unknown = [s for s in serials if s not in ids]
                if unknown:
                    errors[f"items[{n}].gpu_serials"] = self.tr("no GPU with serial %1").replace("%1", ", ".join(unknown))
                gpu_ids = tuple(ids[s] for s in serials if s in ids)
            if vals.get("unit_price") is None:
                errors.setdefault(f"items[{n}].unit_price", self.tr("required"))
            specs.append(svc.ItemSpec(
                kind=it["kind"], description=it["description"].strip(),
                description_en=(it.get("description_en") or "").strip() or None,
                unit_price=vals.get("unit_price") or Decimal(0),
                price_unit=it["price_unit"], quantity=vals.get("quantity") or Decimal(1),
                tax_category=it["tax_category"],
                rack_id=it["rack_id"] if "rack_id" in extra else None,
                u_from=vals.get("u_from"), u_to=vals.get("u_to"),
                cage_id=it.get("cage_id") if "cage_id" in extra else None,
                device_id=it.get("device_id") if it["kind"] == ItemKind.HOSTING else None,
                gpu_model_id=it["gpu_model_id"] if it["kind"] == ItemKind.GPU else None, gpu_ids=gpu_ids,
                service_start=it["service_start"], service_end=it["service_end"],
                power_allowance_kw=vals.get("power_allowance_kw"), kwh_price=vals.get("kwh_price"),
                included_hours=vals.get("included_hours") if it["price_unit"] == PriceUnit.HYBRID else None,
                hourly_rate=vals.get("hourly_rate") if it["price_unit"] == PriceUnit.HYBRID else None,
                mbps=vals.get("mbps"),
                setup_price=vals.get("setup_price") if it["kind"] == ItemKind.XCONNECT else None))
        return specs, errors
