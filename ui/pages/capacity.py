"""The capacity search dialog (from Contracts and the dashboard): search free GPU nodes for a
window, see the offers best fit first with every term's price side by side, hold an offer, make
and preview its quote (报价单), and make the draft contract from it. The rules are the services'
(app/services/capacity/); this dialog only asks and shows."""
from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox,
                               QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from models.choices import Fabric, PriceTerm

from app.domain.actor import Actor
from app.domain.errors import DomainError
from app.domain.money import format_amount, format_price
from app.store.db import Database
from ui.kit.dialogs import date_edit, get_date, guard, options_combo, refused_text
from ui.shell.i18n import choice_label
from ui.shell.messages import translate_message
from ui.shell.operations import run_op
from ui.kit.tableview import select_only_row

ANY_TRAINING = "__training8__"


class CapacityDialog(QDialog):
    """Search → offers → hold → quote PDF → draft contract."""

    contractMade = Signal(int)

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("capacityDialog")
        self.setWindowTitle(self.tr("Capacity search"))
        self.result = None
        self.hold = None
        self.quote = None
        self.contract = None
        self.busy = False  # a write (hold, quote, contract) is running on the background runner
        layout = QVBoxLayout(self)
        layout.addWidget(self._request_box(db))
        self._results(layout)
        layout.addLayout(self._actions(db))
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        QShortcut(QKeySequence("Ctrl+Return"), self, activated=self.search)
        QShortcut(QKeySequence("Ctrl+H"), self, activated=self.hold_offer)
        self.resize(1180, 720)
        self.update_buttons()

    def _request_box(self, db: Database) -> QGroupBox:
        """What is wanted, where, when and for whom, and the Search button."""
        ask = QGroupBox(self.tr("Request"))
        form = QFormLayout(ask)
        top = QHBoxLayout()
        self.model = QComboBox()
        self.model.setObjectName("capModel")
        self.model.setEditable(True)
        self.model.addItem(self.tr("any 8-GPU training model"), ANY_TRAINING)
        from app.read import queries

        for _value, label in queries.options(db, "gpu_model"):
            self.model.addItem(label, label)
        self.model.setToolTip(self.tr("a model, or several separated by commas (e.g. H100 and Ascend 910B in one search)"))
        self.count = QSpinBox()
        self.count.setObjectName("capCount")
        self.count.setRange(1, 100000)
        self.count.setValue(8)
        self.unit = QComboBox()
        self.unit.setObjectName("capUnit")
        self.unit.addItem(self.tr("GPUs"), "gpu")
        self.unit.addItem(self.tr("nodes"), "node")
        self.scope = QComboBox()
        self.scope.setObjectName("capScope")
        for value, text in (("anywhere", self.tr("anywhere (one site)")), ("fabric", self.tr("in one fabric")),
                            ("domain", self.tr("in one scale-up domain"))):
            self.scope.addItem(text, value)
        top.addWidget(self.count)
        top.addWidget(self.unit)
        top.addWidget(self.model, 1)
        top.addWidget(self.scope)
        form.addRow(self.tr("Wanted"), top)
        where = QHBoxLayout()
        self.region = QLineEdit()
        self.region.setObjectName("capRegion")
        self.region.setPlaceholderText(self.tr("region code or name, e.g. 460100 or 海口市"))
        self.site = QLineEdit()
        self.site.setObjectName("capSite")
        self.site.setPlaceholderText(self.tr("site code"))
        where.addWidget(self.region, 2)
        where.addWidget(self.site, 1)
        form.addRow(self.tr("Where"), where)
        when = QHBoxLayout()
        self.start = date_edit(dt.date.today(), name="capStart")
        self.months = QSpinBox()
        self.months.setObjectName("capMonths")
        self.months.setRange(0, 120)
        self.months.setValue(3)
        self.months.setSpecialValueText(self.tr("open-ended"))
        self.months.setSuffix(self.tr(" month(s)"))
        when.addWidget(QLabel(self.tr("from")))
        when.addWidget(self.start)
        when.addWidget(QLabel(self.tr("for")))
        when.addWidget(self.months)
        when.addStretch(1)
        form.addRow(self.tr("When"), when)
        who = QHBoxLayout()
        self.customer = options_combo(db, "customer")
        self.customer.setObjectName("capCustomer")
        self.subsidiary = options_combo(db, "subsidiary", self.tr("(the site's subsidiary)"))
        self.subsidiary.setObjectName("capSubsidiary")
        who.addWidget(self.customer, 2)
        who.addWidget(QLabel(self.tr("signed by")))
        who.addWidget(self.subsidiary, 1)
        form.addRow(self.tr("Customer"), who)
        self.search_btn = QPushButton(self.tr("&Search"))
        self.search_btn.setObjectName("capSearch")
        self.search_btn.setDefault(True)
        self.search_btn.clicked.connect(self.search)
        form.addRow("", self.search_btn)
        return ask

    def _results(self, layout: QVBoxLayout) -> None:
        """The offers above their terms, and the line that says what happened."""
        split = QSplitter(Qt.Vertical)
        self.offers = self._table("capOffers", [self.tr("Model"), self.tr("Where"), self.tr("Fabric"), self.tr("Site"),
                                                self.tr("GPUs"), self.tr("Nodes"), self.tr("Racks"),
                                                self.tr("Free there"), self.tr("Nodes offered")])
        self.offers.itemSelectionChanged.connect(self.show_terms)
        split.addWidget(self.offers)
        self.terms = self._table("capTerms", [self.tr("Term"), self.tr("Price"), self.tr("First month"),
                                              self.tr("Period (excl. VAT)"), self.tr("VAT"), self.tr("Total"),
                                              self.tr("In words")])
        split.addWidget(self.terms)
        layout.addWidget(split, 1)
        self.message = QLabel()
        self.message.setObjectName("capMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextSelectableByMouse)
        layout.addWidget(self.message)

    def _actions(self, db: Database) -> QHBoxLayout:
        """The term and a rack add-on; hold, quote and contract."""
        actions = QHBoxLayout()
        self.term = QComboBox()
        self.term.setObjectName("capTerm")
        for v in PriceTerm.values():
            self.term.addItem(choice_label(PriceTerm, v), v)
        self.term.setCurrentIndex(PriceTerm.values().index(PriceTerm.MONTHLY))
        self.rack_addon = options_combo(db, "rack", self.tr("(no rack)"))
        self.rack_addon.setObjectName("capRack")
        self.hold_btn = QPushButton(self.tr("&Hold offer"))
        self.hold_btn.setObjectName("capHold")
        self.hold_btn.clicked.connect(self.hold_offer)
        self.quote_btn = QPushButton(self.tr("&Quote PDF…"))
        self.quote_btn.setObjectName("capQuote")
        self.quote_btn.clicked.connect(self.make_quote)
        self.contract_btn = QPushButton(self.tr("Make &contract"))
        self.contract_btn.setObjectName("capContract")
        self.contract_btn.clicked.connect(self.make_contract)
        actions.addWidget(QLabel(self.tr("Term")))
        actions.addWidget(self.term)
        actions.addWidget(QLabel(self.tr("Add a rack")))
        actions.addWidget(self.rack_addon, 1)
        actions.addWidget(self.hold_btn)
        actions.addWidget(self.quote_btn)
        actions.addWidget(self.contract_btn)
        return actions

    def _table(self, name: str, headers: list[str]) -> QTableWidget:
        from ui.widgets.plain_table import plain_table

        return plain_table(headers, name, single=True, fit=True)

    # --- the request ------------------------------------------------------------------------

    def request(self):
        from app.services.capacity.search import CapacityRequest

        text = self.model.currentText().strip()
        data = self.model.currentData() if self.model.findText(text) >= 0 else None
        training = data == ANY_TRAINING
        models = () if training else tuple(m.strip() for m in text.split(",") if m.strip())
        months = self.months.value() or None
        return CapacityRequest(count=self.count.value(), models=models, training8=training, unit=self.unit.currentData(),
                               scope=self.scope.currentData(), region=self.region.text().strip() or None,
                               site=self.site.text().strip() or None, start=get_date(self.start), months=months,
                               price_subsidiary_id=self.subsidiary.currentData())

    def search(self) -> None:
        from app.services.capacity.search import search_capacity

        try:  # one deal per dialog: a hold made stays with it while the person searches again
            self.result = search_capacity(self.db, self.request())
        except DomainError as exc:  # a refusal: said in the dialog (refused_text logs it)
            self.result = None
            self._say(refused_text(exc), error=True)
            self._fill_offers()
            return
        self._fill_offers()
        if self.result.offers:
            end = self.result.end.isoformat() if self.result.end else self.tr("open-ended")
            self._say(self.tr("%n offer(s), best fit first, free %1 – %2", "", len(self.result.offers))
                      .replace("%1", self.result.start.isoformat()).replace("%2", end))
        else:
            self._say(translate_message(self.result.shortfall or ""), error=True)

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #c62828;" if error else "")
        self.update_buttons()

    def _fill_offers(self) -> None:
        offers = self.result.offers if self.result else ()
        self.offers.setRowCount(len(offers))
        for r, o in enumerate(offers):
            fabric = choice_label(Fabric, o.fabric) if o.fabric else "—"
            cells = [f"{o.model} ({o.vendor})", o.group, fabric, o.site, str(o.gpus), str(len(o.nodes)), str(o.racks),
                     str(o.free_in_group), self._nodes_text(o.nodes)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 8:  # the whole list (it wraps; the tooltip keeps it whole at any width)
                    item.setToolTip("\n".join(t for t in (text, self._marks_tip(o)) if t))
                if c in (4, 5, 6, 7):
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.offers.setItem(r, c, item)
        self.offers.setWordWrap(True)
        self.offers.resizeRowsToContents()  # a long list of marked nodes wraps instead of being cut off
        if offers:
            select_only_row(self.offers, 0)
        self.show_terms()

    def _marks_tip(self, o) -> str:
        tips = []
        if o.reduced:
            tips.append(self.tr("Offered nodes marked \u201creduced power redundancy\u201d stay up on one "
                                "power side while a maintenance window works on the other."))
        if o.degraded:
            tips.append(self.tr("Offered nodes marked \u201cdegraded power\u201d are in a rack whose side kept "
                                "cannot carry the rack's load while a maintenance window works on the other side: "
                                "offered last."))
        return "\n".join(tips)

    def _nodes_text(self, nodes) -> str:
        """The nodes offered, those with the same power marks together, each group's mark said once:
        "h-01, h-02; h-05, h-06 (degraded power: MW-000002)" (one mark per node cut the cell off)."""
        groups: list[tuple[tuple, list[str]]] = []
        for n in nodes:
            key = (n.degraded, () if n.degraded else n.reduced)
            if groups and groups[-1][0] == key:
                groups[-1][1].append(n.device)
            else:
                groups.append((key, [n.device]))
        return "; ".join(self._marked(", ".join(names), *key) for key, names in groups)

    def _marked(self, names: str, degraded: tuple, reduced: tuple) -> str:
        """Servers offered, and the maintenance windows that leave them on one power side."""
        if degraded:
            return self.tr("%1 (degraded power: %2)").replace("%1", names).replace("%2", ", ".join(degraded))
        if not reduced:
            return names
        return self.tr("%1 (reduced power redundancy: %2)").replace("%1", names).replace("%2", ", ".join(reduced))

    def offer(self):
        if not self.result or not self.result.offers:
            return None
        row = self.offers.currentRow()
        return self.result.offers[row] if 0 <= row < len(self.result.offers) else self.result.offers[0]

    def show_terms(self) -> None:
        o = self.offer()
        terms = o.terms if o else ()
        self.terms.setRowCount(len(terms))
        for r, t in enumerate(terms):
            price = format_price(t.unit_price)
            if t.term == PriceTerm.HYBRID:
                price += self.tr(" incl. %1 h, %2 / h beyond").replace("%1", format_price(t.included_hours or 0)) \
                    .replace("%2", format_price(t.hourly_rate or 0))
            cells = [choice_label(PriceTerm, t.term), price, format_amount(t.first_month), format_amount(t.amount),
                     format_amount(t.vat), format_amount(t.total), t.in_words]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if 1 < c < 6:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.terms.setItem(r, c, item)
        self.update_buttons()

    def update_buttons(self) -> None:
        offer = self.offer() if hasattr(self, "offers") else None
        idle = not self.busy
        guard(self.hold_btn, self.actor, "draft_contracts", allowed=idle and offer is not None and self.hold is None,
              tooltip=self.tr("hold the selected offer's nodes for the customer (Ctrl+H)"))
        guard(self.quote_btn, self.actor, "draft_contracts", allowed=idle and self.hold is not None and self.contract is None,
              tooltip=self.tr("price the held nodes (and a rack) on the chosen term, and preview the PDF"))
        guard(self.contract_btn, self.actor, "draft_contracts", allowed=idle and self.quote is not None and self.contract is None,
              tooltip=self.tr("the customer accepted: make the draft contract naming the held nodes' GPUs"))

    # --- writes: on the background runner (ui/shell/operations.run_op), progress shown, refusals
    # said in the dialog and logged (refused_text); the buttons wait while one runs ----------------

    def _write(self, work, label: str, done) -> None:
        self.busy = True
        self.update_buttons()
        self._say(label)

        def succeeded(result) -> None:
            self.busy = False
            done(result)
            self.update_buttons()

        def failed(exc: BaseException) -> None:
            self.busy = False
            self._say(refused_text(exc), error=True)

        self.write_op = run_op(self, lambda _progress: work(), label=label, on_success=succeeded, on_failure=failed)

    def hold_offer(self) -> None:
        from app.services.capacity.holds import hold_capacity

        o = self.offer()
        if o is None or self.hold is not None or self.busy:
            return
        db, actor, start, end = self.db, self.actor, self.result.start, self.result.end
        customer = self.customer.currentData()
        subsidiary = self.subsidiary.currentData() or o.subsidiary_id
        self._write(lambda: hold_capacity(db, actor, customer_id=customer, subsidiary_id=subsidiary,
                                          node_ids=list(o.node_ids), start=start, end=end, gpu_model_id=o.model_id),
                    self.tr("Holding %1 GPUs on %2 nodes…").replace("%1", str(o.gpus)).replace("%2", str(len(o.nodes))),
                    self._held)

    def _held(self, hold) -> None:
        from app.domain.clock import local_text

        self.hold = hold
        self._say(self.tr("Hold %1: %2 GPUs on %3 nodes, held until %4").replace("%1", hold.number)
                  .replace("%2", str(hold.gpus)).replace("%3", str(len(hold.node_ids)))
                  .replace("%4", local_text(hold.expires_at)))

    def make_quote(self, preview: bool = True) -> None:
        from app.services.capacity.quotes import AddOn, create_quote
        from models.choices import PriceProduct

        if self.hold is None or self.busy:
            return
        rack = self.rack_addon.currentData()
        add_ons = (AddOn(PriceProduct.RACK, rack_id=rack),) if rack else ()
        lang = "en" if self._english() else "zh"
        db, actor, hold, term = self.db, self.actor, self.hold.number, self.term.currentData()
        self._write(lambda: create_quote(db, actor, hold=hold, term=term, add_ons=add_ons, language=lang),
                    self.tr("Making the quote of hold %1…").replace("%1", hold),
                    lambda quote: self._quoted(quote, lang, preview))

    def _quoted(self, quote, lang: str, preview: bool) -> None:
        self.quote = quote
        self._say(self.tr("Quote %1: %2 for the period, first month %3; valid until %4")
                  .replace("%1", quote.number).replace("%2", "¥" + format_amount(quote.totals.total))
                  .replace("%3", "¥" + format_amount(quote.first_month.total))
                  .replace("%4", quote.valid_until.isoformat()))
        if preview:
            from ui.kit.pdfpreview import print_document_preview

            self.preview_op = print_document_preview(self, self.db, self.actor, "quote", quote.number, language=lang)

    def _english(self) -> bool:
        from ui.shell.i18n import ui_language

        return ui_language() == "en"

    def make_contract(self) -> None:
        from app.services.capacity.quotes import accept_quote

        if self.quote is None or self.contract is not None or self.busy:
            return
        db, actor, number = self.db, self.actor, self.quote.number
        self._write(lambda: accept_quote(db, actor, number),
                    self.tr("Making the draft contract from quote %1…").replace("%1", number), self._contracted)

    def _contracted(self, contract) -> None:
        self.contract = contract
        self._say(self.tr("Draft contract %1 made from quote %2; submit it for approval")
                  .replace("%1", contract.number).replace("%2", self.quote.number))
        self.contractMade.emit(contract.id)


def open_capacity_dialog(parent: QWidget, db: Database, actor: Actor, on_contract=None) -> CapacityDialog:
    dlg = CapacityDialog(db, actor, parent)
    if on_contract is not None:
        dlg.contractMade.connect(on_contract)
    dlg.setAttribute(Qt.WA_DeleteOnClose)
    dlg.show()
    return dlg

