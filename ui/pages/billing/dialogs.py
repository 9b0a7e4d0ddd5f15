"""The billing page's dialogs: a credit note (in full or by line), a handover of items to the customer."""
from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, QDateTime, QTime, Qt
from PySide6.QtWidgets import (QCheckBox, QDateTimeEdit, QDialog, QDialogButtonBox, QListWidget, QListWidgetItem,
                               QMessageBox, QFormLayout, QLineEdit)

from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError, ValidationError
from app.services import billing as svc

from app.domain.clock import TZ as SHANGHAI_TZ
from app.domain.money import AmountError, parse_money

from ui.pages.contracts.figures import money
from ui.kit.dialogs import error_label, guard, refused_text
from ui.shell.operations import apply


class CreditNoteDialog(QDialog):
    """A reason and the lines to credit (all by default)."""

    def __init__(self, info: svc.StatementInfo, parent=None):
        super().__init__(parent)
        self.info = info
        self.setObjectName("creditNoteDialog")
        self.setWindowTitle(self.tr("Credit note for %1").replace("%1", info.number or ""))
        form = QFormLayout(self)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        form.addRow(self.tr("Reason *"), self.reason)
        self.amount = QLineEdit()
        self.amount.setObjectName("creditAmount")
        self.amount.setPlaceholderText(self.tr("empty: credit the lines in full (they may be rebilled)"))
        form.addRow(self.tr("Partial amount"), self.amount)
        # "wrong, bill again" (the default) or "waived, do not bill again" (an SLA waiver, a bad debt)
        self.waive = QCheckBox(self.tr("Waive: never bill these lines again (SLA waiver, bad debt)"))
        self.waive.setObjectName("creditWaive")
        form.addRow("", self.waive)
        self.lines = QListWidget()
        self.lines.setObjectName("creditLines")
        for ln in info.lines:
            item = QListWidgetItem(f"{ln.description}   {money(ln.amount)}")
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked)
            item.setData(Qt.UserRole, ln.id)
            self.lines.addItem(item)
        form.addRow(self.tr("Lines to credit"), self.lines)
        self.error = error_label("creditError")
        form.addRow(self.error)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.button(QDialogButtonBox.Ok).setText(self.tr("Issue credit note"))
        bb.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        bb.accepted.connect(self._accept)
        bb.rejected.connect(self.reject)
        form.addRow(bb)
        self.resize(620, 420)

    def line_ids(self) -> list[int]:
        return [self.lines.item(i).data(Qt.UserRole) for i in range(self.lines.count())
                if self.lines.item(i).checkState() == Qt.Checked]

    def _accept(self) -> None:
        if not self.reason.text().strip():
            self.error.setText(self.tr("A credit note says why."))
        elif not self.line_ids():
            self.error.setText(self.tr("Choose at least one line."))
        elif self.amount.text().strip() and self.waive.isChecked():
            self.error.setText(self.tr("A waiver credits the lines in full: leave the partial amount empty."))
        elif self.amount.text().strip() and len(self.line_ids()) != 1:
            self.error.setText(self.tr("A partial amount credits exactly one line: tick only that line."))
        elif self.amount.text().strip() and self.partial_amount() is None:
            self.error.setText(self.tr("A partial amount is a positive amount in yuan and fen, e.g. 1200.50."))
        else:
            if self.confirm():
                self.accept()
            return
        self.error.show()

    def partial_amount(self):
        """The partial amount as typed, read by the one grammar of money (app.domain.money.parse_money:
        ¥ or ￥, thousands separators, to the fen), None when it is not a positive amount."""
        try:
            d = parse_money(self.amount.text(), places=2)
        except AmountError:
            return None
        return d if d is not None and d > 0 else None

    def confirmation_text(self) -> str:
        """What the credit note will take off: each line's amount and VAT, and the total (the
        service decides; a line credited in part before is reversed for what is left of it)."""
        from decimal import Decimal
        from app.domain.rating import tax_for
        ids = set(self.line_ids())
        lines = [ln for ln in self.info.lines if ln.id in ids]
        partial = self.partial_amount() if self.amount.text().strip() else None
        rows, total = [], Decimal("0.00")
        for ln in lines:
            if partial is not None:
                amount = -partial if ln.amount > 0 else partial
                tax = tax_for(amount, ln.tax_rate)
                rows.append(self.tr("Part of “%1”: %2 + VAT %3").replace("%1", ln.description)
                            .replace("%2", money(amount)).replace("%3", money(tax)))
            else:
                amount, tax = -ln.amount, -ln.tax
                rows.append(self.tr("“%1”: %2 + VAT %3").replace("%1", ln.description)
                            .replace("%2", money(amount)).replace("%3", money(tax)))
            total += amount + tax
        head = self.tr("Issue a credit note against %1 for %2 (incl. VAT)?").replace(
            "%1", self.info.number or "").replace("%2", money(total))
        tail = self.tr("Reason: %1").replace("%1", self.reason.text().strip())
        if partial is not None:
            note = self.tr("The rest of the line stays billed; nothing is rebilled.")
        elif self.waive.isChecked():
            note = self.tr("The lines are waived: reversed in full and never billed again.")
        else:
            note = self.tr("The lines are reversed in full; they may be rebilled afterwards.")
        return "\n".join([head, ""] + rows + ["", tail, note])

    def confirm(self) -> bool:
        box = QMessageBox(QMessageBox.Question, self.tr("Confirm credit note"), self.confirmation_text(),
                          QMessageBox.Yes | QMessageBox.No, self)
        box.setObjectName("creditConfirm")
        box.button(QMessageBox.Yes).setText(self.tr("Issue credit note"))
        box.button(QMessageBox.No).setText(self.tr("Back"))
        box.setDefaultButton(QMessageBox.No)
        return box.exec() == QMessageBox.Yes


class HandoverDialog(QDialog):
    """Items of contracts in force awaiting their handover (billing nothing): record one."""

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        from app.services.contracts import handover as handovers

        self.db, self.actor, self.svc = db, actor, handovers
        self.setObjectName("handoverDialog")
        self.setWindowTitle(self.tr("Awaiting handover"))
        form = QFormLayout(self)
        self.items = QListWidget()
        self.items.setObjectName("handoverItems")
        for a in handovers.awaiting_handover(db):
            item = QListWidgetItem(f"{a.contract_number} #{a.position}  {a.description} — {a.customer_name}  "
                                   + self.tr("planned %1").replace("%1", a.planned_start.isoformat()))
            item.setData(Qt.UserRole, (a.contract_number, a.position))
            self.items.addItem(item)
        if self.items.count():
            self.items.setCurrentRow(0)
        form.addRow(self.tr("Items"), self.items)
        self.at = QDateTimeEdit()
        self.at.setObjectName("handoverAt")
        self.at.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.at.setCalendarPopup(True)
        now = dt.datetime.now(SHANGHAI_TZ).replace(second=0, microsecond=0, tzinfo=None)
        self.at.setDateTime(QDateTime(QDate(now.year, now.month, now.day), QTime(now.hour, now.minute)))
        form.addRow(self.tr("Handed over at (Asia/Shanghai)"), self.at)
        self.note = QLineEdit()
        self.note.setObjectName("handoverNote")
        self.note.setPlaceholderText(self.tr("evidence: signed handover form, ticket, who received it"))
        form.addRow(self.tr("Evidence *"), self.note)
        self.error = error_label("handoverError")
        form.addRow(self.error)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.button(QDialogButtonBox.Ok).setText(self.tr("Record handover"))
        bb.button(QDialogButtonBox.Cancel).setText(self.tr("Close"))
        guard(bb.button(QDialogButtonBox.Ok), actor, "approve_contracts", allowed=self.items.count() > 0)
        bb.accepted.connect(self.record)
        bb.rejected.connect(self.reject)
        form.addRow(bb)
        self.resize(680, 380)

    def record(self):
        """Record the chosen item's handover; returns its HandoverInfo, or None (the refusal is shown)."""
        current = self.items.currentItem()
        if current is None:
            self.error.setText(self.tr("Choose an item."))
            self.error.show()
            return None
        number, position = current.data(Qt.UserRole)
        q = self.at.dateTime()
        d, t = q.date(), q.time()
        at = dt.datetime(d.year(), d.month(), d.day(), t.hour(), t.minute(), tzinfo=SHANGHAI_TZ)
        try:
            info = apply(lambda: self.svc.record_handover(self.db, self.actor, number, position, at, self.note.text()))
        except ValidationError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            return None
        except DomainError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            return None
        self.items.takeItem(self.items.row(current))
        self.note.clear()
        self.error.hide()
        return info
