"""The receivables tabs beside the statements: payments, a customer's balance, deposits, fapiao, aging."""
from __future__ import annotations

import datetime as dt
import logging

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QLabel, QMessageBox, QTabWidget,
                               QWidget)

from app.domain.actor import Actor
from app.domain.clock import local_today
from app.store.db import Database
from app.domain.money import format_amount
from models.choices import DepositKind, FapiaoType, PaymentKind, PaymentMethod

from ui.shell.i18n import choice_label
from ui.shell.operations import listen
from ui.pages.receivables.widgets import _choice, _edit, _fill, _lang, _Section, _table

log = logging.getLogger(__name__)


class PaymentsSection(_Section):
    def __init__(self, db, actor, parent=None):
        super().__init__(db, actor, parent)
        self.customer, self.amount = _edit("pay_customer", self.tr("credit code or name")), _edit("pay_amount", "0.00")
        self.date = _edit("pay_date", "YYYY-MM-DD", local_today().isoformat())
        self.ref = _edit("pay_ref", self.tr("bank reference (流水号)"))
        self.method = QComboBox()
        self.method.setObjectName("pay_method")
        for m in PaymentMethod.values():
            self.method.addItem(choice_label(PaymentMethod, m), m)
        self.hold = QCheckBox(self.tr("Keep as credit (do not allocate)"))
        self.hold.setObjectName("pay_hold")
        row = QHBoxLayout()
        row.addWidget(self.form("record", self.tr("Record a bank receipt"), [
            (self.tr("Customer"), self.customer), (self.tr("Amount"), self.amount), (self.tr("Date"), self.date),
            (self.tr("Reference"), self.ref), (self.tr("Method"), self.method), ("", self.hold)],
            self.tr("&Record receipt"), self.record))
        self.alloc_statement, self.alloc_amount = _edit("alloc_statement"), _edit("alloc_amount", self.tr("all"))
        row.addWidget(self.form("allocate", self.tr("Allocate the selected payment"), [
            (self.tr("Statement no."), self.alloc_statement), (self.tr("Amount"), self.alloc_amount)],
            self.tr("&Allocate"), self.allocate))
        self.reason = _edit("reverse_reason")
        row.addWidget(self.form("reverse", self.tr("Reverse the selected payment"), [
            (self.tr("Reason"), self.reason)], self.tr("Re&verse"), self.reverse))
        self.v.addLayout(row)
        self.table = _table([self.tr("Payment"), self.tr("Kind"), self.tr("Customer"), self.tr("Credit code"),
                             self.tr("Date"), self.tr("Amount"), self.tr("Payer"), self.tr("Reference"),
                             self.tr("Method"), self.tr("Reverses"), self.tr("Reason"), self.tr("Allocated"),
                             self.tr("Unallocated"), self.tr("Statements"), self.tr("Recorded by")], "paymentsTable")
        self.v.addWidget(self.table, 1)

    def selected(self) -> str:
        r = self.table.currentRow()
        if r < 0:
            raise ValueError(self.tr("Select a payment in the list first."))
        return self.table.item(r, 0).text()

    def record(self) -> str:
        from app.services.receivables import record_payment
        info = record_payment(self.db, self.actor, self.customer.text(), self.amount.text(), self.date.text(),
                              self.ref.text(), method=self.method.currentData(), allocate=not self.hold.isChecked())
        self.amount.clear()
        self.ref.clear()
        return info.describe()

    def allocate(self) -> str:
        from app.services.receivables import allocate_payment
        return allocate_payment(self.db, self.actor, self.selected(), self.alloc_statement.text(),
                                self.alloc_amount.text().strip() or None).describe()

    def reverse(self) -> str:
        from app.services.receivables import reverse_payment
        pid = self.selected()
        if not self.reason.text().strip():
            from app.domain.errors import ValidationError
            raise ValidationError({"reason": self.tr("Say why the payment is reversed.")})
        if QMessageBox.question(self, self.tr("Reverse payment"),
                                self.tr("Reverse payment %1 by a counter-entry? Its statements are open again.")
                                .replace("%1", pid)) != QMessageBox.Yes:
            return ""
        info = reverse_payment(self.db, self.actor, pid, self.reason.text())
        self.reason.clear()
        return self.tr("Payment %1 reversed.").replace("%1", f"P{info.id}")

    def reload(self) -> None:
        from app.services.receivables import export_payments_rows
        rows = export_payments_rows(self.db)[1]     # the export's codes; the reader sees their names
        for row in rows:
            row[1], row[8] = choice_label(PaymentKind, row[1]), choice_label(PaymentMethod, row[8])
        _fill(self.table, rows)


class BalanceSection(_Section):
    def __init__(self, db, actor, parent=None):
        super().__init__(db, actor, parent)
        self.customer = _edit("balance_customer", self.tr("credit code or name"))
        self.v.addWidget(self.form("balance", self.tr("Customer balance"), [(self.tr("Customer"), self.customer)],
                                   self.tr("&Show"), self.show_balance, permission="read"))
        self.figures = QLabel()
        self.figures.setObjectName("balanceFigures")
        self.figures.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.v.addWidget(self.figures)
        self.table = _table([self.tr("Customer"), self.tr("Contract"), self.tr("Kind"), self.tr("Amount received"),
                             self.tr("Applied"), self.tr("Refunded"), self.tr("Balance")], "balanceDeposits")
        self.v.addWidget(self.table, 1)

    def show_balance(self) -> str:
        from app.services.receivables.deposits import balances
        from app.services.receivables import customer_balance
        b = customer_balance(self.db, self.customer.text())
        rows = [(self.tr("Billed (statements less credit notes)"), b.billed),
                (self.tr("Received (receipts less reversals)"), b.received),
                (self.tr("Deposits and prepayments applied"), b.deposits_applied),
                (self.tr("Balance owed"), b.balance), (self.tr("Open statements"), b.open_statements),
                (self.tr("Credit balance (unallocated)"), b.credit)]
        self.figures.setText(f"<b>{b.customer}</b><br>" + "<br>".join(
            f"{label}: ¥{format_amount(v)}" for label, v in rows))
        _fill(self.table, [[d.customer, d.contract or "", choice_label(DepositKind, d.kind), d.received, d.applied,
                            d.refunded, d.balance] for d in balances(self.db, b.customer_id)])
        return ""


class DepositsSection(_Section):
    def __init__(self, db, actor, parent=None):
        super().__init__(db, actor, parent)
        row = QHBoxLayout()
        self.customer, self.amount = _edit("dep_customer", self.tr("credit code or name")), _edit("dep_amount", "0.00")
        self.kind, self.contract = _choice("dep_kind", DepositKind), _edit("dep_contract", self.tr("optional"))
        self.ref = _edit("dep_ref", self.tr("optional"))
        row.addWidget(self.form("receive", self.tr("Receive"), [
            (self.tr("Customer"), self.customer), (self.tr("Kind"), self.kind), (self.tr("Amount"), self.amount),
            (self.tr("Contract"), self.contract), (self.tr("Reference"), self.ref)], self.tr("R&eceive"), self.receive))
        self.statement, self.apply_kind = _edit("apply_statement"), _choice("apply_kind", DepositKind)
        self.apply_amount = _edit("apply_amount", self.tr("all"))
        row.addWidget(self.form("apply", self.tr("Apply to a statement"), [
            (self.tr("Statement no."), self.statement), (self.tr("Kind"), self.apply_kind),
            (self.tr("Amount"), self.apply_amount)], self.tr("App&ly"), self.apply))
        self.r_customer, self.r_kind = _edit("refund_customer", self.tr("credit code or name")), _choice(
            "refund_kind", DepositKind)
        self.r_contract, self.r_amount = _edit("refund_contract", self.tr("optional")), _edit("refund_amount",
                                                                                               self.tr("all"))
        self.r_reason = _edit("refund_reason")
        row.addWidget(self.form("refund", self.tr("Refund"), [
            (self.tr("Customer"), self.r_customer), (self.tr("Kind"), self.r_kind),
            (self.tr("Contract"), self.r_contract), (self.tr("Amount"), self.r_amount),
            (self.tr("Reason"), self.r_reason)], self.tr("Refu&nd"), self.refund))
        self.v.addLayout(row)
        self.table = _table([self.tr("Customer"), self.tr("Contract"), self.tr("Kind"), self.tr("Amount received"),
                             self.tr("Applied"), self.tr("Refunded"), self.tr("Balance")], "depositsTable")
        self.v.addWidget(self.table, 1)

    def receive(self) -> str:
        from app.services.receivables.deposits import receive_deposit
        info = receive_deposit(self.db, self.actor, self.customer.text(), self.amount.text(),
                               kind=self.kind.currentData(), contract=self.contract.text().strip() or None,
                               ref=self.ref.text())
        self.amount.clear()
        return info.describe()

    def apply(self) -> str:
        from app.services.receivables.deposits import apply_deposit
        done = apply_deposit(self.db, self.actor, self.statement.text(), kind=self.apply_kind.currentData(),
                             amount=self.apply_amount.text().strip() or None)
        return "\n".join(e.describe() for e in done)

    def refund(self) -> str:
        from app.services.receivables.deposits import refund_deposit
        return refund_deposit(self.db, self.actor, self.r_customer.text(), kind=self.r_kind.currentData(),
                              contract=self.r_contract.text().strip() or None,
                              amount=self.r_amount.text().strip() or None, reason=self.r_reason.text()).describe()

    def reload(self) -> None:
        from app.services.receivables.deposits import balances
        _fill(self.table, [[d.customer, d.contract or "", choice_label(DepositKind, d.kind), d.received, d.applied,
                            d.refunded, d.balance] for d in balances(self.db)])


class FapiaoSection(_Section):
    def __init__(self, db, actor, parent=None):
        super().__init__(db, actor, parent)
        row = QHBoxLayout()
        self.statement, self.number = _edit("fp_statement"), _edit("fp_number", self.tr("20 digits"))
        self.date = _edit("fp_date", "YYYY-MM-DD", local_today().isoformat())
        self.amount, self.tax = _edit("fp_amount", self.tr("without tax")), _edit("fp_tax", "0.00")
        self.type = _choice("fp_type", FapiaoType)
        self.type.insertItem(0, self.tr("(the customer's profile)"), None)
        self.type.setCurrentIndex(0)
        row.addWidget(self.form("add", self.tr("Record a fapiao for a statement"), [
            (self.tr("Statement no."), self.statement), (self.tr("Fapiao no."), self.number), (self.tr("Date"), self.date),
            (self.tr("Amount"), self.amount), (self.tr("Tax"), self.tax), (self.tr("Type"), self.type)],
            self.tr("&Add fapiao"), self.add))
        self.credit_note, self.red_number = _edit("red_credit_note"), _edit("red_number", self.tr("20 digits"))
        self.original = _edit("red_original", self.tr("the fapiao it reverses"))
        self.red_amount, self.red_tax = _edit("red_amount", self.tr("the credit note's")), _edit("red_tax")
        row.addWidget(self.form("red", self.tr("Record a red-letter fapiao for a credit note"), [
            (self.tr("Credit note"), self.credit_note), (self.tr("Fapiao no."), self.red_number),
            (self.tr("Original fapiao"), self.original), (self.tr("Amount"), self.red_amount),
            (self.tr("Tax"), self.red_tax)], self.tr("Record red-le&tter"), self.red))
        self.v.addLayout(row)
        self.table = _table([self.tr("Fapiao no."), self.tr("Kind"), self.tr("Date"), self.tr("Type"),
                             self.tr("Statement"), self.tr("Customer"), self.tr("Credit code"), self.tr("Amount"),
                             self.tr("Tax"), self.tr("Total"), self.tr("Reverses"), self.tr("Statement fapiao status"),
                             self.tr("Note"), self.tr("Recorded by")], "fapiaoTable")
        self.v.addWidget(self.table, 1)

    def add(self) -> str:
        from app.services.receivables.fapiao import add_fapiao, statement_fapiao_status
        from models.choices import FapiaoStatus
        info = add_fapiao(self.db, self.actor, self.statement.text(), self.number.text(), self.date.text(),
                          self.amount.text(), self.tax.text(), fapiao_type=self.type.currentData())
        status = statement_fapiao_status(self.db, info.statement)[0]
        self.number.clear()
        return f"{info.describe()} — {choice_label(FapiaoStatus, status)}"

    def red(self) -> str:
        from app.services.receivables.fapiao import add_red_fapiao
        amount, tax = self.red_amount.text().strip() or None, self.red_tax.text().strip() or None
        return add_red_fapiao(self.db, self.actor, self.credit_note.text(), self.red_number.text(),
                              self.original.text(), amount=amount, tax=tax).describe()

    def reload(self) -> None:
        from app.services.receivables.fapiao import export_fapiao_rows
        _fill(self.table, export_fapiao_rows(self.db)[1])


class AgingSection(_Section):
    def __init__(self, db, actor, parent=None):
        super().__init__(db, actor, parent)
        self.as_of = _edit("aging_as_of", "YYYY-MM-DD", local_today().isoformat())
        row = QHBoxLayout()
        row.addWidget(self.form("aging", self.tr("Aging"), [(self.tr("As of"), self.as_of)], self.tr("R&efresh"),
                                self.reload_now, permission="read"))
        row.addWidget(self.form("aging_file", self.tr("Aging report"), [], self.tr("E&xport aging (PDF or XLSX)…"),
                                lambda: self.export_aging(), permission="print"))
        self.period = _edit("summary_period", "YYYY-MM", local_today().strftime("%Y-%m"))
        row.addWidget(self.form("summary", self.tr("Monthly receivables summary"), [(self.tr("Period"), self.period)],
                                self.tr("Monthly &summary (PDF or XLSX)…"), lambda: self.export_summary(),
                                permission="print"))
        self.v.addLayout(row)
        from app.services.receivables import BUCKET_LABELS, BUCKETS
        zh = self.tr("Customer") != "Customer"
        self.table = _table([self.tr("Subsidiary"), self.tr("Customer")]
                            + [BUCKET_LABELS[b][0 if zh else 1] for b in BUCKETS]
                            + [self.tr("Total"), self.tr("Credit balance (unallocated)")], "agingTable")
        self.v.addWidget(self.table, 1)

    def _path(self, name: str) -> str:
        from PySide6.QtWidgets import QFileDialog
        path, _f = QFileDialog.getSaveFileName(self, self.tr("Save as"), name, "PDF (*.pdf);;Excel (*.xlsx)")
        return path

    def export_aging(self, path: str | None = None) -> str:
        from app.services.receivables import print_receivables_report
        as_of = dt.date.fromisoformat(self.as_of.text().strip())
        path = path or self._path(f"aging-{as_of}.pdf")
        if not path:
            return ""
        print_receivables_report(self.db, self.actor, "aging", path, as_of=as_of, language=_lang(self))
        return self.tr("Wrote %1").replace("%1", path)

    def export_summary(self, path: str | None = None) -> str:
        from app.services.receivables.summary import print_summary
        period = self.period.text().strip()
        path = path or self._path(f"receivables-{period}.pdf")
        if not path:
            return ""
        print_summary(self.db, self.actor, period, path, language=_lang(self))
        return self.tr("Wrote %1").replace("%1", path)

    def reload_now(self) -> str:
        from app.services.receivables import BUCKETS, aging
        ag = aging(self.db, dt.date.fromisoformat(self.as_of.text().strip()))
        _fill(self.table, [[r.subsidiary, r.customer] + [r.buckets[b] for b in BUCKETS] + [r.total, r.credit]
                           for r in ag.rows])
        return ""

    def reload(self) -> None:
        try:
            self.reload_now()
        except ValueError:   # the as-of date is being typed: the table keeps what it showed
            logging.getLogger(__name__).debug("aging as of %r: not a date yet", self.as_of.text())


class ReceivablesTabs(QTabWidget):
    """Payments, balance, deposits, fapiao, aging: the receivables tab of the billing page."""

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.setObjectName("receivablesTabs")
        self.sections = {"payments": PaymentsSection(db, actor, self), "balance": BalanceSection(db, actor, self),
                         "deposits": DepositsSection(db, actor, self), "fapiao": FapiaoSection(db, actor, self),
                         "aging": AgingSection(db, actor, self)}
        for key, label in (("payments", self.tr("&Payments")), ("balance", self.tr("Customer &balance")),
                           ("deposits", self.tr("&Deposits")), ("fapiao", self.tr("&Fapiao")),
                           ("aging", self.tr("A&ging"))):
            self.addTab(self.sections[key], label)
        self.loaded: set[str] = set()
        self.currentChanged.connect(lambda *_: self.load_current())
        listen(self, self._changed)

    def _changed(self, _kinds) -> None:
        if self.isVisible():
            self.load_current(True)
        else:
            self.loaded.clear()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.load_current()

    def load_current(self, again: bool = False) -> None:
        key = list(self.sections)[self.currentIndex()]
        if again or key not in self.loaded:
            self.loaded.add(key)
            self.sections[key].reload()


def receivables_tabs(page, statements: QWidget) -> QTabWidget:
    """The billing page's body: its statements, and the receivables beside them as a second tab."""
    tabs = QTabWidget(page)
    tabs.setObjectName("billingTabs")
    tabs.addTab(statements, QCoreApplication.translate("ReceivablesTabs", "&Statements"))
    page.receivables = ReceivablesTabs(page.db, page.actor, tabs)
    tabs.addTab(page.receivables, QCoreApplication.translate("ReceivablesTabs", "&Receivables"))
    return tabs


def fapiao_facts(db: Database, info, cover: tuple | None = None) -> list[str]:
    """The statement panel's line on its fapiao: status and what is invoiced of what (issued only);
    `cover` (status, invoiced, target) when the caller has read it already (statement_detail)."""
    from app.services.receivables.fapiao import statement_fapiao_status
    from models.choices import FapiaoStatus
    if info.status != "issued":
        return []
    status, invoiced, target = cover or statement_fapiao_status(db, info.id)
    text = QCoreApplication.translate("ReceivablesTabs", "Fapiao: %1 (¥%2 of ¥%3)")
    return [text.replace("%1", choice_label(FapiaoStatus, status)).replace("%2", format_amount(invoiced))
            .replace("%3", format_amount(target))]
