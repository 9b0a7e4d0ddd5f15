"""Contracts: the list, a detail panel with the lifecycle moves, and the draft editor.

Every change goes through app.services.contracts. Which buttons a contract offers, and why one
is disabled (the tooltip), is the service's answer (available_actions): the panel decides nothing.
A refused save keeps the input and shows the service's message beside the field.
"""
from __future__ import annotations

import html

import datetime as dt
from decimal import Decimal

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeySequence
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox,
                               QHBoxLayout, QHeaderView, QLabel, QLineEdit, QMessageBox, QPlainTextEdit,
                               QPushButton, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.read import queries
from app.domain.rating import local_today
from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import Conflict, DomainError, RuleViolation, ValidationError
from app.services import contracts as svc
from models.choices import ContractStatus, ItemKind, PriceUnit, ServiceLevel, TaxCategory

from ui.kit.dialogs import (ReasonDialog, date_edit, error_label, field_box, get_date, options_combo, parse_decimal,
                      guard, refused_text, set_date, why_not_text)
from ui.shell.i18n import choice_label
from ui.kit.listview import ListPage
from ui.kit.recordpanel import RecordPanel
from ui.shell.operations import apply, listen, run_op


# The buttons' words. Which of them a contract offers, and why one is refused, is the contract
# service's answer (app.services.contracts.available_actions); no rule lives here.
MOVES = [
    ("submit", "Submit for approval"),
    ("reject", "Reject…"),
    ("approve", "Approve"),
    ("activate", "Activate"),
    ("suspend", "Suspend…"),
    ("resume", "Resume"),
    ("expire", "Expire"),
    ("terminate", "Terminate…"),
]

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


def money(value) -> str:
    if value is None:
        return ""
    from app.domain.money import format_cny

    return format_cny(value)  # app/domain/money.py: half-up, never through a float (2.675 → 2.68)


def plain(value) -> str:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        text = format(value.normalize(), "f")
        return text
    return str(value)


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


TR_CONTEXT = "ContractTotals"   # the module's tr(): the totals' words, shared by the form and the panel


def tr(text: str, n: int = -1) -> str:
    return QCoreApplication.translate(TR_CONTEXT, text, "", n)


def totals_html(t, skipped: int = 0) -> str:
    """The totals as a small table (the form and the detail panel show the same)."""
    rows = [(tr("Monthly recurring"), money(t.monthly)), (tr("One-off"), money(t.one_off)),
            (tr("Whole term (excl. VAT)"), money(t.term_value)), (tr("VAT"), money(t.vat)),
            (f"<b>{tr('Total (incl. VAT)')}</b>", f"<b>{money(t.total)}</b>"),
            (tr("In words"), t.in_words)]
    if t.expected_usage:  # an hourly (or hybrid) GPU draft: what full use over the window bills
        rows += [(tr("GPU-hours at full use (excl. VAT)"), money(t.expected_usage)),
                 (f"<b>{tr('Expected total (incl. VAT)')}</b>", f"<b>{money(t.expected_total)}</b>"),
                 (tr("In words"), t.expected_in_words)]
    html = "<table cellspacing='0' cellpadding='1'>" + "".join(
        f"<tr><td>{label}</td><td align='right'>&nbsp;&nbsp;{value}</td></tr>" for label, value in rows) + "</table>"
    notes = []
    if t.usage_based:
        notes.append(tr("Usage (GPU-hours, power over the allowance) is billed as used, on top."))
    if skipped:
        notes.append(tr("%n item(s) with errors are not counted.", skipped))
    if notes:
        html += "<p style='color:#666'>" + "<br>".join(notes) + "</p>"
    return html


class ContractDialog(QDialog):
    """Create a draft contract or edit one: the header and an items editor."""

    def __init__(self, db: Database, actor: Actor, contract_id: int | None = None, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.contract_id = db, actor, contract_id
        self.setObjectName("contractDialog")
        self.version: int | None = None
        self.saved: svc.ContractInfo | None = None
        self.items: list[dict] = []
        self.item_errors: dict[int, dict[str, str]] = {}
        self.current = -1
        self._loading = False
        self.setWindowTitle(self.tr("New contract") if contract_id is None else self.tr("Edit contract"))
        layout = QVBoxLayout(self)

        # --- header
        head = QGroupBox(self.tr("Contract"))
        head_v = QVBoxLayout(head)
        form = QFormLayout()
        head_v.addLayout(form)
        head_v.addStretch(1)
        self.header: dict[str, QWidget] = {}
        self.header_errors: dict[str, QLabel] = {}

        def row(key, label, w):
            w.setObjectName(f"edit_{key}")
            err = error_label(f"error_{key}")
            form.addRow(label, field_box(w, err))
            self.header[key], self.header_errors[key] = w, err
        self.number = QLabel(self.tr("(numbered when saved)"))
        self.number.setObjectName("contractNumber")
        form.addRow(self.tr("Number"), self.number)
        customers = options_combo(self.db, "customer", self.tr("(choose a customer)"))
        row("customer_id", self.tr("Customer *"), customers)
        row("subsidiary_id", self.tr("Subsidiary *"), self._options("subsidiary"))
        # who signs: the subsidiary operating the items' sites (proposed, warned when they span
        # several); who serves: the coverage of the customer's region (app.services.contracts.signing)
        self.signer_hint = QLabel()
        self.signer_hint.setObjectName("signerHint")
        self.signer_hint.setWordWrap(True)
        form.addRow("", self.signer_hint)
        self.proposal = None
        self.coverage_hint = QLabel()
        self.coverage_hint.setObjectName("coverageHint")
        self.coverage_hint.setWordWrap(True)
        form.addRow("", self.coverage_hint)
        self.team = None
        self.header["customer_id"].currentIndexChanged.connect(self._customer_changed)
        self.header["subsidiary_id"].currentIndexChanged.connect(self._show_coverage)
        self.header["customer_id"].currentIndexChanged.connect(self._term_changed)
        start = local_today().replace(day=1) + dt.timedelta(days=32)
        start = start.replace(day=1)
        row("start_date", self.tr("Start *"), date_edit(start))
        row("end_date", self.tr("End *"), date_edit(start.replace(year=start.year + 1) - dt.timedelta(days=1)))
        row("title", self.tr("Title"), QLineEdit())
        lang = QComboBox()
        lang.addItem(self.tr("Chinese"), "zh")
        lang.addItem(self.tr("English"), "en")
        row("language", self.tr("Language"), lang)
        level = QComboBox()
        level.addItem(self.tr("(none)"), None)
        for v in ServiceLevel.values():
            level.addItem(choice_label(ServiceLevel, v), v)
        row("service_level", self.tr("Service level"), level)
        for key in ("start_date", "end_date"):
            self.header[key].dateChanged.connect(self._term_changed)
        terms = QPlainTextEdit()
        terms.setTabChangesFocus(True)
        terms.setFixedHeight(56)
        row("terms", self.tr("Terms"), terms)

        # --- items
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
        for c in (0, 2, 3, 4):
            self.items_table.horizontalHeader().setSectionResizeMode(c, QHeaderView.ResizeToContents)
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

        self.totals = QLabel()
        self.totals.setObjectName("contractTotals")
        self.totals.setTextFormat(Qt.RichText)
        self.totals.setWordWrap(True)
        head_v.addWidget(self.totals)

        split = QSplitter(Qt.Horizontal)
        split.addWidget(head)
        split.addWidget(items_box)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        layout.addWidget(split, 1)
        self.message = error_label("formMessage")
        layout.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Save).setText(self.tr("Save draft"))
        self.buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        if contract_id is not None:
            self.load()
        else:
            self.add_item()
        self._customer_changed()
        self._term_changed()
        guard(self.buttons.button(QDialogButtonBox.Save), actor, "draft_contracts")
        self.resize(1180, 640)

    def _customer_changed(self, *_) -> None:
        """The customer's region decides who serves it and the response time (not who signs)."""
        from app.services.contracts.signing import serving_team
        customer_id = self.header["customer_id"].currentData()
        try:
            self.team = serving_team(self.db, customer_id)
        except DomainError:
            self.team = None
        if customer_id is None:
            text, warn = "", False
        elif self.team is None:
            text, warn = self.tr("No subsidiary covers the customer's region: no serving team or response time."), True
        else:
            text = self.tr("Served by %1 for the customer's region %2 (%3 h response).").replace(
                "%1", self.team.subsidiary_name).replace("%2", self.team.region_name) \
                .replace("%3", str(self.team.response_hours))
            warn = False
        self.coverage_hint.setText(("⚠ " if warn else "") + text)
        self.coverage_hint.setStyleSheet("color: #b26a00;" if warn else "color: #2e7d32;")

    def _show_coverage(self, *_) -> None:
        """Who signs: the subsidiary operating the items' sites (app.services.contracts.signing); proposed for a new
        contract, and a warning when the items span several subsidiaries or another one is chosen."""
        if not hasattr(self, "signer_hint"):
            return
        from app.services.contracts.signing import signer_for_items
        try:
            specs, _errors = self.item_specs()
            proposal = signer_for_items(self.db, specs)
        except (DomainError, ValueError):
            return
        sub = self.header["subsidiary_id"]
        if (self.contract_id is None and proposal.proposed is not None and not proposal.spans_several
                and proposal != self.proposal):
            sub.blockSignals(True)
            sub.setCurrentIndex(sub.findData(proposal.proposed))
            sub.blockSignals(False)
        self.proposal = proposal
        chosen = sub.currentData()
        sites = ", ".join(proposal.sites)
        if not proposal.subsidiaries:
            text, warn = self.tr("The signer is the subsidiary operating the site of the racks or GPUs."), False
        elif proposal.spans_several:
            text = self.tr("The items are at sites of several subsidiaries (%1: %2); each signs its own contract.") \
                .replace("%1", "、".join(n for _i, n in proposal.subsidiaries)).replace("%2", sites)
            warn = True
        elif chosen != proposal.proposed:
            text = self.tr("The items are at %1's sites (%2): %1 signs.").replace(
                "%1", proposal.subsidiaries[0][1]).replace("%2", sites)
            warn = True
        else:
            text = self.tr("%1 signs: it operates %2.").replace("%1", proposal.subsidiaries[0][1]).replace("%2", sites)
            warn = False
        self.signer_hint.setText(("⚠ " if warn else "") + text)
        self.signer_hint.setStyleSheet("color: #b26a00;" if warn else "color: #2e7d32;")

    def _term_changed(self, *_) -> None:
        """The rack picker offers the racks free for the term (for this customer)."""
        try:
            start, end = get_date(self.header["start_date"]), get_date(self.header["end_date"])
        except ValidationError:
            return
        if start is None or end is None or end < start:
            return
        from app.read.viewdata import racks_free_for
        free = racks_free_for(self.db, start, end, self.header["customer_id"].currentData(), self.contract_id)
        w: QComboBox = self.item_edit["rack_id"]
        chosen = {it["rack_id"] for it in self.items if it.get("rack_id")}
        labels = dict(free)
        missing = chosen - set(labels)
        if missing:   # a rack an item already names stays listed, marked, so nothing is lost
            names = dict(queries.options(self.db, "rack"))
            for rid in missing:
                labels[rid] = self.tr("%1 (not free for the term)").replace("%1", names.get(rid, str(rid)))
        self._loading = True
        w.blockSignals(True)
        keep = w.currentData()
        w.clear()
        w.addItem(self.tr("(none)"), None)
        for rid, label in labels.items():
            w.addItem(label, rid)
        i = w.findData(keep)
        w.setCurrentIndex(i if i >= 0 else 0)
        w.blockSignals(False)
        self._loading = False
        w.setToolTip(self.tr("%n rack(s) free from %1 to %2", "", len(free))
                     .replace("%1", start.isoformat()).replace("%2", end.isoformat()))
        self.show_totals()

    def show_totals(self) -> None:
        """Monthly recurring, one-off, the whole term, VAT and the total in 大写 (app.services.contracts.totals)."""
        if not hasattr(self, "totals"):
            return
        from app.services.contracts.totals import totals_of_draft
        try:
            start, end = get_date(self.header["start_date"]), get_date(self.header["end_date"])
            specs, errors = self.item_specs()
        except (ValidationError, ValueError):
            start = None
        if start is None or end is None or end < start:
            self.totals.setText("")
            return
        bad = {int(k[6:k.index("]")]) for k in errors if k.startswith("items[")}
        specs = [sp for n, sp in enumerate(specs, start=1) if n not in bad]
        try:
            t = totals_of_draft(self.db, specs, start, end)
        except RuleViolation as exc:   # no VAT rate for a line: said, as billing says it (never 0 %)
            self.totals.setText(f"<span style='color:#c62828'>{html.escape(refused_text(exc))}</span>")
            return
        except (DomainError, ValueError, ArithmeticError):
            self.totals.setText("")
            return
        self.totals.setText(totals_html(t, len(bad)) + self._terms_html(specs, start, end))
        self._show_coverage()

    def _terms_html(self, specs, start, end) -> str:
        """Each GPU item of a model on every term of the price list, side by side
        (app.services.capacity.prices.compare_terms), so the terms can be compared before choosing."""
        from app.services.capacity.prices import compare_terms
        from models.choices import PriceTerm

        out = []
        for sp in specs:
            if sp.kind != ItemKind.GPU or not sp.gpu_model_id:
                continue
            model_id = sp.gpu_model_id
            count = int(sp.quantity)
            try:
                terms = compare_terms(self.db, gpu_model_id=model_id, subsidiary_id=self.header["subsidiary_id"].currentData(),
                                      count=count, start=start, end=end)
            except (DomainError, ValueError, ArithmeticError):
                continue
            if not terms:
                continue
            rows = "".join(f"<tr><td>{choice_label(PriceTerm, f.term)}</td><td align='right'>&nbsp;{money(f.total)}</td>"
                           f"<td>&nbsp;{f.in_words}</td></tr>" for f in terms)
            out.append(f"<p><b>{tr('Terms side by side (incl. VAT)')}</b> · {sp.description}</p>"
                       f"<table cellspacing='0' cellpadding='1'>{rows}</table>")
        return "".join(out)

    def _options(self, kind: str, optional: bool = False) -> QComboBox:
        return options_combo(self.db, kind, self.tr("(none)") if optional else None)

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

    # --- load and save ----------------------------------------------------------------
    def load(self) -> None:
        info = svc.get_contract(self.db, self.contract_id)
        rec = queries.record(self.db, "contract", self.contract_id) or {}
        self.version = info.version
        self.number.setText(info.number)
        h = self.header
        for key, value in (("subsidiary_id", info.subsidiary_id), ("customer_id", info.customer_id),
                           ("language", info.language), ("service_level", rec.get("service_level"))):
            i = h[key].findData(value)
            h[key].setCurrentIndex(i if i >= 0 else 0)
        h["subsidiary_id"].setEnabled(False)
        h["customer_id"].setEnabled(False)
        set_date(h["start_date"], info.start_date)
        set_date(h["end_date"], info.end_date)
        h["title"].setText(info.title or "")
        h["terms"].setPlainText(rec.get("terms") or "")
        self.items, self.item_errors = [], {}
        self.items_table.setRowCount(0)
        for it in info.items:
            self.add_item(item_dict(self.db, it))
        if self.items:
            self.show_item(0)
        edit = next(a for a in svc.available_actions(info, self.actor) if a.key == "edit")
        if not edit.applies:
            self.show_message(self.tr("Contract %1 is %2: only drafts are edited; a signed contract changes by amendment.")
                              .replace("%1", info.number).replace("%2", choice_label(ContractStatus, info.status)))
            self.buttons.button(QDialogButtonBox.Save).setEnabled(False)

    def header_values(self) -> dict:
        h = self.header
        return {"subsidiary_id": h["subsidiary_id"].currentData(), "customer_id": h["customer_id"].currentData(),
                "start_date": get_date(h["start_date"]), "end_date": get_date(h["end_date"]),
                "title": h["title"].text().strip() or None, "language": h["language"].currentData(),
                "service_level": h["service_level"].currentData(),
                "terms": h["terms"].toPlainText().strip() or None}

    def clear_errors(self) -> None:
        for lbl in list(self.header_errors.values()) + list(self.item_err.values()):
            lbl.hide()
        self.message.hide()
        self.item_errors = {}
        for r in range(len(self.items)):
            self._summary(r)

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()

    def show_errors(self, errors: dict[str, str]) -> None:
        unplaced = []
        first_item = None
        for key, msg in errors.items():
            if key in self.header_errors:
                self.header_errors[key].setText(msg)
                self.header_errors[key].show()
            elif key.startswith("items[") and "]." in key:
                n = int(key[6:key.index("]")])
                field = key[key.index("].") + 2:]
                field = {"gpu_ids": "gpu_serials", "device_id": "rack_id"}.get(field, field)
                if field not in self.item_edit:
                    unplaced.append(self.tr("item %1: %2").replace("%1", str(n)).replace("%2", f"{field}: {msg}"))
                    field = "description"
                self.item_errors.setdefault(n - 1, {})[field] = msg
                first_item = n - 1 if first_item is None else first_item
            else:
                unplaced.append(msg if key in ("", "items") else f"{key}: {msg}")
        for r in range(len(self.items)):
            self._summary(r)
        if first_item is not None and first_item < len(self.items):
            self.show_item(first_item)
            unplaced.insert(0, self.tr("%n item(s) need attention (marked red).", "", len(self.item_errors)))
        if unplaced:
            self.show_message("\n".join(unplaced))

    def save(self) -> bool:
        self.clear_errors()
        values = self.header_values()
        items, errors = self.item_specs()
        if values["subsidiary_id"] is None:
            errors["subsidiary_id"] = self.tr("required")
        if values["customer_id"] is None:
            errors["customer_id"] = self.tr("required")
        if errors:
            self.show_errors(errors)
            return False
        try:
            if self.contract_id is None:
                self.saved = apply(lambda: svc.create_contract(self.db, self.actor, items=items, **values))
            else:
                self.saved = apply(lambda: svc.update_draft(
                    self.db, self.actor, self.contract_id, self.version, title=values["title"],
                    start_date=values["start_date"], end_date=values["end_date"], terms=values["terms"],
                    service_level=values["service_level"], language=values["language"], items=items))
        except ValidationError as exc:
            self.show_errors(exc.errors)
            return False
        except Conflict as exc:
            answer = QMessageBox.question(self, self.tr("Changed by someone else"),
                                          exc.message + "\n\n" + self.tr("Reload the contract now? Your edits will be lost."))
            if answer == QMessageBox.Yes:
                self.load()
            else:
                self.show_message(exc.message)
            return False
        except DomainError as exc:
            self.show_message(refused_text(exc))
            return False
        self.accept()
        return True


class ContractPanel(RecordPanel):
    """The selected contract: header, items, lifecycle buttons, renew/amend, Print / PDF."""

    opened = Signal(int)     # a contract to select (e.g. a new renewal)

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(db, actor, "contract", self.tr("Choose a contract"),
                         [self.tr("Kind"), self.tr("Description"), self.tr("Quantity"), self.tr("Price"),
                          self.tr("Service start")], "contractItems", parent=parent)
        self.items = self.table
        self.actions: dict[str, svc.ContractAction] = {}
        self.totals = QLabel()
        self.totals.setObjectName("contractPanelTotals")
        self.totals.setTextFormat(Qt.RichText)
        self.totals.setWordWrap(True)
        self.body.addWidget(self.totals)
        self.add_buttons([("edit", self.tr("Edit draft…"), self.edit)]
                         + [(key, self.tr(label), lambda _=False, k=key: self.ask_move(k)) for key, label in MOVES]
                         + [("renew", self.tr("Renew…"), self.ask_renew), ("amend", self.tr("Amend…"), self.ask_amend),
                            ("print", self.tr("Print / PDF…"), self.print_pdf)], per_row=4)

    def show_contract(self, contract_id: int | None) -> None:
        info = self.read(svc.get_contract, contract_id)
        if info is None:
            return
        colour = ContractStatus.colour(info.status) if hasattr(ContractStatus, "colour") else "#333"
        self.title.setText(f"{info.number}  {info.title or ''}")
        facts = [
            self.tr("Customer: %1").replace("%1", info.customer_name),
            self.tr("Status: %1").replace("%1", f"<b style='color:{colour}'>{choice_label(ContractStatus, info.status)}</b>"),
            self.tr("Term: %1 – %2").replace("%1", info.start_date.isoformat()).replace("%2", info.end_date.isoformat()),
            self.tr("Language: %1").replace("%1", self.tr("Chinese") if info.language == "zh" else self.tr("English")),
        ]
        if info.revision > 1:
            facts.append(self.tr("Revision %1, effective %2").replace("%1", str(info.revision))
                         .replace("%2", info.effective_date.isoformat() if info.effective_date else "—"))
        if info.renewal_of_id:
            old = queries.record(self.db, "contract", info.renewal_of_id)
            facts.append(self.tr("Renews %1").replace("%1", old["number"] if old else "?"))
        self.facts.setText(" · ".join(facts))
        self.items.setRowCount(len(info.items))
        for r, it in enumerate(info.items):
            cells = [choice_label(ItemKind, it.kind), it.description, plain(it.quantity),
                     f"{money(it.unit_price)} {choice_label(PriceUnit, it.price_unit)}",
                     (it.service_start or info.start_date).isoformat()]
            for c, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setToolTip(text)
                if c in (2, 3):
                    cell.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.items.setItem(r, c, cell)
        from app.services.contracts.totals import totals_of_contract
        try:
            self.totals.setText(totals_html(totals_of_contract(self.db, info.id)))
        except RuleViolation as exc:   # no VAT rate for a line: said, as billing says it (never 0 %)
            self.totals.setText(f"<span style='color:#c62828'>{html.escape(refused_text(exc))}</span>")
        self.update_buttons()

    def cleared(self) -> None:
        self.totals.setText("")

    def update_buttons(self) -> None:
        """Offer what the contract's status starts from; enable what the service allows, else say why."""
        self.actions = {a.key: a for a in svc.available_actions(self.info, self.actor)}
        for key, button in self.buttons.items():
            a = self.actions.get(key)
            if a is None:
                continue
            button.setVisible(a.applies)
            button.setEnabled(a.allowed)
            button.setToolTip("" if a.allowed else (why_not_text(self.actor, a.permission) or a.reason or ""))

    # --- actions --------------------------------------------------------------------
    def edit(self) -> None:
        if self.info is None:
            return
        dlg = ContractDialog(self.db, self.actor, self.info.id, self)
        if dlg.exec():
            self.show_contract(self.info.id)

    def ask_move(self, key: str):
        if self.info is None:
            return None
        reason = last_day = None
        if key in ("reject", "suspend", "terminate"):
            title = self.buttons[key].text().rstrip("…")
            prompt = self.tr("%1 contract %2. The reason goes into the audit trail.").replace("%1", title) \
                .replace("%2", self.info.number)
            dlg = ReasonDialog(title, prompt, self,
                               date_label=self.tr("Last day of service") if key == "terminate" else None,
                               date_value=min(local_today(), self.info.end_date))
            if not dlg.exec():
                return None
            reason, last_day = dlg.value()
        elif key in ("activate", "expire", "approve"):
            text = {"activate": self.tr("Activate %1? Its racks and GPUs are leased to %2 now."),
                    "expire": self.tr("Expire %1? Its racks and GPUs are released to %2's end date."),
                    "approve": self.tr("Approve %1 for %2?")}[key]
            if QMessageBox.question(self, self.buttons[key].text(),
                                    text.replace("%1", self.info.number).replace("%2", self.info.customer_name)
                                    ) != QMessageBox.Yes:
                return None
        return self.do_move(key, reason=reason, last_day=last_day)

    def do_move(self, key: str, *, reason: str | None = None, last_day: dt.date | None = None):
        info = self.info
        db, actor = self.db, self.actor
        fns = {"submit": lambda: svc.submit_contract(db, actor, info.id, info.version),
               "reject": lambda: svc.reject_contract(db, actor, info.id, reason, info.version),
               "approve": lambda: svc.approve_contract(db, actor, info.id, info.version),
               "activate": lambda: svc.activate_contract(db, actor, info.id, expected_version=info.version),
               "suspend": lambda: svc.suspend_contract(db, actor, info.id, reason, info.version),
               "resume": lambda: svc.resume_contract(db, actor, info.id, info.version),
               "expire": lambda: svc.expire_contract(db, actor, info.id, expected_version=info.version),
               "terminate": lambda: svc.terminate_contract(db, actor, info.id, reason, last_day=last_day,
                                                           expected_version=info.version)}
        fn = fns[key]
        return run_op(self, lambda progress: fn(), label=self.tr("Updating the contract…"),
                      on_success=lambda i: self.show_contract(i.id),
                      on_failure=self.refused)

    def refused(self, exc: BaseException) -> None:
        if isinstance(exc, Conflict):
            answer = QMessageBox.question(self, self.tr("Changed by someone else"),
                                          exc.message + "\n\n" + self.tr("Reload the contract now?"))
            if answer == QMessageBox.Yes and self.info is not None:
                self.show_contract(self.info.id)
                return
        self.message.setText(refused_text(exc))
        self.message.show()

    def ask_renew(self) -> None:
        if self.info is None:
            return
        dlg = QDialog(self)
        dlg.setObjectName("renewDialog")
        dlg.setWindowTitle(self.tr("Renew %1").replace("%1", self.info.number))
        form = QFormLayout(dlg)
        start = date_edit(self.info.end_date + dt.timedelta(days=1), name="renewStart")
        end = date_edit(self.info.end_date.replace(year=self.info.end_date.year + 1), name="renewEnd")
        form.addRow(self.tr("Start"), start)
        form.addRow(self.tr("End"), end)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.button(QDialogButtonBox.Ok).setText(self.tr("Renew"))
        bb.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        bb.accepted.connect(dlg.accept)
        bb.rejected.connect(dlg.reject)
        form.addRow(bb)
        if dlg.exec():
            self.renew(get_date(start), get_date(end))

    def renew(self, start: dt.date, end: dt.date) -> svc.ContractInfo | None:
        return self._follow_on(lambda: svc.renew_contract(self.db, self.actor, self.info.id,
                                                          start_date=start, end_date=end))

    def _follow_on(self, make) -> svc.ContractInfo | None:
        """A contract made from this one (renewal, amendment): opened, or the refusal shown."""
        try:
            new = apply(make)
        except DomainError as exc:
            self.refused(exc)
            return None
        self.opened.emit(new.id)
        return new

    def ask_amend(self) -> None:
        if self.info is None:
            return
        dlg = ReasonDialog(self.tr("Amend %1").replace("%1", self.info.number),
                           self.tr("A new revision takes over on its effective date; edit its items, then submit it."),
                           self, date_label=self.tr("Effective date"),
                           date_value=max(local_today(), self.info.start_date + dt.timedelta(days=1)))
        if dlg.exec():
            reason, eff = dlg.value()
            self.amend(eff, reason)

    def amend(self, effective: dt.date, reason: str) -> svc.ContractInfo | None:
        return self._follow_on(lambda: svc.amend_contract(self.db, self.actor, self.info.id,
                                                          effective_date=effective, reason=reason))

    def print_pdf(self):
        if self.info is None or not self.actions.get("print") or not self.actions["print"].allowed:
            return None
        from ui.kit.pdfpreview import print_document_preview
        return print_document_preview(self, self.db, self.actor, "contract", self.info.id,
                                      title=self.tr("Contract %1").replace("%1", self.info.number),
                                      on_ready=lambda d: setattr(self, "preview", d))


class ContractsPage(QSplitter):
    """The contract list beside the selected contract."""

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(Qt.Horizontal, parent)
        self.db, self.actor = db, actor
        self.setObjectName("page_contracts")
        self.list = ListPage(db, actor, "contract", self)
        self.list.new_record = self.new_contract          # Ctrl+N
        act = self.list._action("new", self.tr("New contract…"), self.new_contract, "draft_contracts")
        first = self.list.toolbar.actions()[0]
        self.list.toolbar.removeAction(act)
        self.list.toolbar.insertAction(first, act)
        cap = self.list._action("capacity", self.tr("Capacity search…"), self.capacity_search, "draft_contracts")
        cap.setShortcut(QKeySequence("Ctrl+Shift+F"))
        self.list.update_actions()
        self.list.openRecord.connect(lambda _k, id_: self.panel.show_contract(id_))
        self.panel = ContractPanel(db, actor, self)
        self.panel.opened.connect(self.open_new)
        self.addWidget(self.list)
        self.addWidget(self.panel)
        self.setStretchFactor(0, 1)
        self.setStretchFactor(1, 1)
        self.setSizes([830, 440])
        from ui.kit.listview import size_list_in_splitter
        size_list_in_splitter(self, self.list, 0, share=0.58, least=0.45)
        self.list.view.selectionModel().selectionChanged.connect(lambda *_: self.follow())
        listen(self, self.on_changed)

    def follow(self) -> None:
        self.panel.show_contract(self.list.view.current_id())

    def on_changed(self, kinds) -> None:
        if self.panel.info is not None and ("*" in kinds or "contract" in kinds):
            self.panel.show_contract(self.panel.info.id)

    def new_contract(self) -> ContractDialog | None:
        if not self.list.can_do("new"):
            return None
        dlg = ContractDialog(self.db, self.actor, None, self)
        if dlg.exec() and dlg.saved is not None:
            self.open_new(dlg.saved.id)
        return dlg

    def capacity_search(self):
        """GPU capacity for a deal: search, hold, quote, draft contract (ui/pages/capacity.py)."""
        from ui.pages.capacity import open_capacity_dialog

        return open_capacity_dialog(self, self.db, self.actor, on_contract=self.open_new)

    def open_new(self, contract_id: int) -> None:
        self.list.refresh()
        self.list.select_record(contract_id)
        self.panel.show_contract(contract_id)
