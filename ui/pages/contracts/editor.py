"""The contract form: create a draft contract or edit one (the header, the items editor of
ui/pages/contracts/items.py, the totals and the terms side by side); a refused save keeps the input
and shows the service's message beside the field."""
from __future__ import annotations

import datetime as dt
import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QLabel, QLineEdit,
                               QMessageBox, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget)

from app.domain.actor import Actor
from app.domain.errors import Conflict, DomainError, RuleViolation, ValidationError
from app.domain.rating import local_today
from app.read import queries
from app.services import contracts as svc
from app.store.db import Database
from models.choices import ContractStatus, ItemKind, ServiceLevel

from ui.kit.dialogs import date_edit, error_label, field_box, get_date, guard, options_combo, refused_text, set_date
from ui.pages.contracts.figures import terms_html, totals_html
from ui.pages.contracts.items import ContractItemsEditor, item_dict
from ui.shell.i18n import choice_label
from ui.shell.operations import apply


class ContractDialog(ContractItemsEditor, QDialog):
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
        head, head_v = self._build_header()
        items_box = self._build_items_box()
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

    def _build_header(self) -> tuple[QGroupBox, QVBoxLayout]:
        """The header's fields (customer, subsidiary, who signs and serves, term, title, language,
        service level, terms); the totals go under them."""
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
        return head, head_v

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
            out.append(terms_html(terms, sp.description))
        return "".join(out)

    def _options(self, kind: str, optional: bool = False) -> QComboBox:
        return options_combo(self.db, kind, self.tr("(none)") if optional else None)

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
