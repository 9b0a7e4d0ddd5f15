"""Billing: the monthly run (dry run, run, run and issue), statements and their detail.

The run goes through app.services.billing.run_billing on the thread pool with progress and
cancel; a cancelled run writes nothing. Statements: issue drafts, credit notes, fapiao
numbers, PDF preview/print, and the statements export (CSV/XLSX).
"""
from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, QDateTime, QTime, Qt
from PySide6.QtWidgets import (QCheckBox, QDateEdit, QDateTimeEdit, QDialog, QDialogButtonBox, QFileDialog, QGroupBox,
                               QHBoxLayout, QHeaderView, QInputDialog, QLabel, QListWidget, QListWidgetItem,
                               QMessageBox, QPushButton, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget, QFormLayout, QLineEdit)

from app.domain.actor import Actor
from app.domain.auth import can
from app.store.db import Database
from app.domain.errors import DomainError, ValidationError
from app.services import billing as svc
from models.choices import StatementKind, StatementStatus

from app.domain.clock import TZ as SHANGHAI_TZ
from app.domain.money import AmountError, format_price, format_quantity, parse_money

from ui.pages.contracts import money
from ui.kit.dialogs import error_label, guard, last_month, refused_text
from ui.shell.i18n import choice_label, ui_language
from ui.kit.listview import ListPage
from ui.pages.receivables.tabs import fapiao_facts, receivables_tabs
from ui.kit.recordpanel import RecordPanel
from ui.shell.operations import Cancelled, apply, listen, run_op
from ui.widgets.plain_table import plain_table


def _cancellable(progress):
    """(progress for the service, cancelled() for the service): Cancel stops the service cleanly."""
    flag = [False]

    def prog(done, total=0):
        try:
            progress(done, total)
        except Cancelled:
            flag[0] = True
    return prog, lambda: flag[0]


def _table(headers: list[str], name: str) -> QTableWidget:
    return plain_table(headers, name)


def _fill(t: QTableWidget, rows: list[list[str]], right: tuple[int, ...] = ()) -> None:
    t.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if c in right:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            t.setItem(r, c, item)


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
        from app.services import handover as handovers

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


class StatementPanel(RecordPanel):
    """One statement: lines, totals, 大写, credit notes; issue, credit, fapiao, PDF."""

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(db, actor, "statement", self.tr("Choose a statement"),
                         [self.tr("Contract"), self.tr("Description"), self.tr("Quantity"), self.tr("Unit"),
                          self.tr("Unit price"), self.tr("Amount"), self.tr("Tax rate"), self.tr("Tax")],
                         "statementLines", parent=parent)
        self.lines = self.table
        self.totals = QLabel()
        self.totals.setObjectName("statementTotals")
        self.totals.setTextFormat(Qt.RichText)
        self.totals.setWordWrap(True)
        self.body.addWidget(self.totals)
        self.add_buttons([("issue", self.tr("Issue"), self.issue),
                          ("credit", self.tr("Credit note…"), self.ask_credit),
                          ("rebill", self.tr("Rebill credited lines"), self.rebill),
                          ("fapiao", self.tr("Record fapiao no.…"), self.ask_fapiao),
                          ("print", self.tr("Preview / Print PDF…"), self.print_pdf)])

    def cleared(self) -> None:
        self.totals.setText("")

    def show_statement(self, statement_id: int | None) -> None:
        # lines in the reader's language, as a document in it prints them (app/domain/wording.py, billing docs)
        info = self.read(lambda db, key: svc.get_statement(db, key, language=ui_language()), statement_id)
        if info is None:
            return
        kind = choice_label(StatementKind, info.kind)
        self.title.setText(f"{kind} {info.number}" if info.number else
                           self.tr("%1 draft #%2").replace("%1", kind).replace("%2", str(info.id)))
        colour = StatementStatus.colour(info.status)
        facts = [self.tr("Customer: %1").replace("%1", info.customer_name),
                 self.tr("Period: %1").replace("%1", info.period),
                 self.tr("Status: %1").replace("%1", f"<b style='color:{colour}'>{choice_label(StatementStatus, info.status)}</b>")]
        if info.issued_at:
            from app.domain.clock import TZ as SHANGHAI
            at = info.issued_at if info.issued_at.tzinfo else info.issued_at.replace(tzinfo=dt.timezone.utc)
            facts.append(self.tr("Issued: %1").replace("%1", at.astimezone(SHANGHAI).strftime("%Y-%m-%d")))
        if info.fapiao_no:
            facts.append(self.tr("Fapiao no.: %1").replace("%1", info.fapiao_no))
        facts += fapiao_facts(self.db, info)  # receivables: 未开票 / 部分开票 / 已开票
        if info.original_number:
            facts.append(self.tr("Credits %1").replace("%1", info.original_number))
        if info.reason:
            facts.append(self.tr("Reason: %1").replace("%1", info.reason))
        if info.credit_notes:
            facts.append(self.tr("Credit notes: %1").replace("%1", ", ".join(info.credit_notes)))
        if info.rebills_id:
            facts.append(self.tr("Rebills %1").replace("%1", info.rebills_number or f"#{info.rebills_id}"))
        self.facts.setText(" · ".join(facts))
        _fill(self.lines, [[ln.contract_number, ln.description + (f"  ({ln.note})" if ln.note else ""),
                            format_quantity(ln.quantity), ln.unit, format_price(ln.unit_price), money(ln.amount),
                            f"{ln.tax_rate * 100:.0f}%", money(ln.tax)] for ln in info.lines], right=(2, 4, 5, 6, 7))
        for r, ln in enumerate(info.lines):
            self.lines.item(r, 1).setToolTip(ln.description + (f"\n{ln.note}" if ln.note else ""))
        self.totals.setText(self.tr("Subtotal %1 · Tax %2 · <b>Total %3</b><br>Amount in words: <b>%4</b>")
                            .replace("%1", money(info.subtotal)).replace("%2", money(info.tax))
                            .replace("%3", money(info.total)).replace("%4", info.total_in_words))
        b = self.buttons
        is_statement = info.kind == StatementKind.STATEMENT
        b["issue"].setVisible(info.status == StatementStatus.DRAFT and is_statement)
        guard(b["issue"], self.actor, "run_billing")
        b["credit"].setVisible(info.status == StatementStatus.ISSUED and is_statement)
        guard(b["credit"], self.actor, "run_billing")
        b["rebill"].setVisible(info.status == StatementStatus.ISSUED and is_statement and bool(info.credit_notes))
        guard(b["rebill"], self.actor, "run_billing")
        b["fapiao"].setVisible(info.status == StatementStatus.ISSUED)
        guard(b["fapiao"], self.actor, "run_billing")
        b["print"].setVisible(True)
        guard(b["print"], self.actor, "print")

    def refused(self, exc: BaseException) -> None:
        self.message.setText(refused_text(exc))
        self.message.show()

    def issue(self):
        if self.info is None:
            return None
        db, actor, sid = self.db, self.actor, self.info.id

        def work(progress):
            prog, cancelled = _cancellable(progress)
            return svc.issue_statements(db, actor, statement_ids=[sid], progress=prog, cancelled=cancelled)

        def done(result):
            self.show_statement(sid)
            if result.skipped:
                self.message.setText("; ".join(result.skipped))
                self.message.show()
        return run_op(self, work, label=self.tr("Issuing…"), on_success=done,
                      on_failure=self.refused)

    def ask_credit(self) -> None:
        if self.info is None:
            return
        dlg = CreditNoteDialog(self.info, self)
        if dlg.exec():
            self.credit(dlg.reason.text().strip(), dlg.line_ids(), dlg.amount.text().strip() or None,
                        waive=dlg.waive.isChecked())

    def credit(self, reason: str, line_ids: list[int] | None = None,
               amount: str | None = None, *, waive: bool = False) -> svc.StatementInfo | None:
        try:
            cn = apply(lambda: svc.credit_statement(self.db, self.actor, self.info.id, reason, line_ids=line_ids,
                                                    amount=amount, waive=waive))
        except DomainError as exc:
            self.refused(exc)
            return None
        self.show_statement(self.info.id)
        QMessageBox.information(self, self.tr("Credit note"), self.tr("Credit note %1 issued for %2.")
                                .replace("%1", cn.number or "").replace("%2", money(cn.total)))
        return cn

    def rebill(self):
        """Bill the credited lines again, as their next revision, on a new draft statement."""
        if self.info is None:
            return None
        db, actor, sid = self.db, self.actor, self.info.id

        def work(progress):
            return svc.rebill_statement(db, actor, sid)

        def done(summary):
            self.show_statement(sid)
            new = ", ".join(st.number or self.tr("draft #%1").replace("%1", str(st.id)) for st in summary.statements)
            self.message.setText(self.tr("Rebilled %1 line(s) on %2.").replace("%1", str(summary.lines_created))
                                 .replace("%2", new or "—"))
            self.message.show()
        return run_op(self, work, label=self.tr("Rebilling…"), on_success=done,
                      on_failure=self.refused)

    def ask_fapiao(self) -> None:
        if self.info is None:
            return
        text, ok = QInputDialog.getText(self, self.tr("Fapiao number"),
                                        self.tr("The fapiao number issued for %1:").replace("%1", self.info.number or ""),
                                        text=self.info.fapiao_no or "")
        if ok:
            self.record_fapiao(text)

    def record_fapiao(self, text: str) -> bool:
        try:
            apply(lambda: svc.record_fapiao(self.db, self.actor, self.info.id, text))
        except DomainError as exc:
            self.refused(exc)
            return False
        self.show_statement(self.info.id)
        return True

    def print_pdf(self):
        if self.info is None or not can(self.actor, "print"):
            return None
        from ui.kit.pdfpreview import print_document_preview
        title = self.info.number or self.tr("draft #%1").replace("%1", str(self.info.id))
        return print_document_preview(self, self.db, self.actor, "statement", self.info.id,
                                      title=self.tr("Statement %1").replace("%1", title),
                                      on_ready=lambda d: setattr(self, "preview", d))


class BillingPage(QWidget):
    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("page_billing")
        self.summary: svc.RunSummary | None = None
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 6, 6, 0)
        bar.addWidget(QLabel(self.tr("Period")))
        self.period = QDateEdit()
        self.period.setObjectName("period")
        self.period.setDisplayFormat("yyyy-MM")
        self.period.setCalendarPopup(True)
        y, m = (int(x) for x in last_month().split("-"))
        self.period.setDate(QDate(y, m, 1))
        bar.addWidget(self.period)
        self.buttons: dict[str, QPushButton] = {}
        for key, text, perm, slot in (
                ("dry", self.tr("Dry run"), "read", lambda: self.run(dry_run=True)),
                ("run", self.tr("Run"), "run_billing", lambda: self.run()),
                ("run_issue", self.tr("Run and issue"), "run_billing", lambda: self.run(issue=True)),
                ("issue", self.tr("Issue the period's drafts"), "run_billing", self.issue_period),
                ("handover", self.tr("Handovers…"), "read", self.ask_handover),
                ("export", self.tr("Export statements…"), "export", lambda: self.export())):
            b = QPushButton(text)
            b.setObjectName(f"billing_{key}")
            b.clicked.connect(slot)
            guard(b, actor, perm)
            self.buttons[key] = b
            bar.addWidget(b)
        bar.addStretch(1)
        v.addLayout(bar)
        self.period.dateChanged.connect(lambda *_: self.period_changed())
        self.period_changed()

        self.result_box = QGroupBox(self.tr("Run result"))
        rb = QVBoxLayout(self.result_box)
        self.result = QLabel(self.tr("Choose a month and press Dry run to see what a run would bill."))
        self.result.setObjectName("runResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextSelectableByMouse)
        rb.addWidget(self.result)
        rsplit = QSplitter(Qt.Horizontal)
        self.run_table = _table([self.tr("Customer"), self.tr("Subsidiary"), self.tr("Lines"), self.tr("Subtotal"),
                                 self.tr("Tax"), self.tr("Total"), self.tr("Number")], "runStatements")
        self.run_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        for c in range(1, 7):     # codes, counts and amounts as wide as they are: the customer gets the rest
            self.run_table.horizontalHeader().setSectionResizeMode(c, QHeaderView.ResizeToContents)
        self.warnings = QListWidget()
        self.warnings.setObjectName("runWarnings")
        self.warnings.setWordWrap(True)
        rsplit.addWidget(self.run_table)
        rsplit.addWidget(self.warnings)
        rsplit.setStretchFactor(0, 3)
        rsplit.setStretchFactor(1, 2)
        rb.addWidget(rsplit, 1)

        self.list = ListPage(db, actor, "statement", self)
        self.panel = StatementPanel(db, actor, self)
        self.list.openRecord.connect(lambda _k, id_: self.panel.show_statement(id_))
        self.list.view.selectionModel().selectionChanged.connect(
            lambda *_: self.panel.show_statement(self.list.view.current_id()))
        lower = QSplitter(Qt.Horizontal)
        lower.addWidget(self.list)
        lower.addWidget(self.panel)
        lower.setStretchFactor(0, 2)
        lower.setStretchFactor(1, 3)
        lower.setSizes([520, 760])
        from ui.kit.listview import size_list_in_splitter
        size_list_in_splitter(lower, self.list, 0, share=0.5, least=0.4)
        outer = QSplitter(Qt.Vertical)
        outer.setObjectName("billingSplit")
        outer.addWidget(self.result_box)
        outer.addWidget(lower)
        outer.setStretchFactor(0, 1)
        outer.setStretchFactor(1, 3)
        v.addWidget(receivables_tabs(self, outer), 1)  # statements | receivables (ui/pages/receivables/tabs.py)
        listen(self, self.on_changed)

    def ask_handover(self) -> None:
        HandoverDialog(self.db, self.actor, self).exec()

    def period_changed(self) -> None:
        """A real run only for a month that has ended in Shanghai; the dry run previews any begun month."""
        period = self.period_text()
        ended = svc.period_has_ended(period)
        why = "" if ended else self.tr("%1 has not ended; it can be billed from %2 00:00 (Asia/Shanghai). "
                                       "A dry run shows it now, provisionally.").replace("%1", period) \
            .replace("%2", svc.billable_from(period).isoformat())
        for key in ("run", "run_issue"):
            guard(self.buttons[key], self.actor, "run_billing", allowed=ended, tooltip=why)

    def period_text(self) -> str:
        d = self.period.date()
        return f"{d.year():04d}-{d.month():02d}"

    def on_changed(self, kinds) -> None:
        if self.panel.info is not None and kinds & {"*", "statement", "payment", "deposit", "fapiao"}:  # its paid and fapiao state
            self.panel.show_statement(self.panel.info.id)

    def run(self, *, dry_run: bool = False, issue: bool = False):
        period = self.period_text()
        db, actor, lang = self.db, self.actor, ui_language()

        def work(progress):
            prog, cancelled = _cancellable(progress)
            progress(0, 1)
            return svc.run_billing(db, actor, period, dry_run=dry_run, issue=issue, progress=prog,
                                   cancelled=cancelled, language=lang)   # its warnings in the reader's words
        label = (self.tr("Dry run for %1…") if dry_run else self.tr("Billing %1…")).replace("%1", period)
        return run_op(self, work, label=label, on_success=self.show_summary, on_failure=self.refused)

    def refused(self, exc: BaseException) -> None:
        self.result.setText(f"<span style='color:#c62828'>{refused_text(exc)}</span>")

    def show_summary(self, s: svc.RunSummary) -> None:
        self.summary = s
        loc_period = s.period
        if s.cancelled:
            head = self.tr("Billing run %1 cancelled; nothing was written.").replace("%1", loc_period)
        elif not s.lines_created:
            head = (self.tr("%1: nothing to bill; every line already exists (%2 from earlier runs).")
                    .replace("%2", str(s.skipped_existing)) if s.skipped_existing
                    else self.tr("%1: nothing to bill.")).replace("%1", loc_period)
        else:
            head = (self.tr("%1 (dry run, nothing written): would create %2 line(s) on %3 new and %4 existing draft statement(s).")
                    if s.dry_run else
                    self.tr("%1: created %2 line(s) on %3 new and %4 existing draft statement(s).")) \
                .replace("%1", loc_period).replace("%2", str(s.lines_created)) \
                .replace("%3", str(s.statements_created)).replace("%4", str(s.statements_extended))
            head += " " + self.tr("Subtotal %1 + tax %2 = %3.").replace("%1", money(s.subtotal)) \
                .replace("%2", money(s.tax)).replace("%3", money(s.total))
            if s.skipped_existing:
                head += " " + self.tr("%1 line(s) were billed by earlier runs.").replace("%1", str(s.skipped_existing))
        if s.held:
            head += " " + self.tr("%1 line(s) held back: see the warnings.").replace("%1", str(s.held))
        if s.issued:
            head += " " + self.tr("Issued %1: %2").replace("%1", str(len(s.issued))).replace("%2", ", ".join(s.issued))
        if s.rebilled:
            head += " " + self.tr("%1 line(s) rebill credited lines.").replace("%1", str(s.rebilled))
        if s.provisional_until is not None:
            from app.domain.clock import TZ as SHANGHAI
            head = self.tr("PROVISIONAL: %1 has not ended; usage metered up to %2 only.") \
                .replace("%1", loc_period).replace("%2", s.provisional_until.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M")) \
                + " " + head
        if not s.cancelled:
            head += " " + self.tr("%1 draft statement(s) of %2 pending issue.").replace("%1", str(s.pending_drafts)) \
                .replace("%2", loc_period)
        self.result.setText(head)
        _fill(self.run_table, [[st.customer_name, st.subsidiary_code, str(len(st.lines)), money(st.subtotal),
                                money(st.tax), money(st.total), st.number or ""] for st in s.statements],
              right=(2, 3, 4, 5))
        self.warnings.clear()
        for w in s.warnings:
            item = QListWidgetItem("⚠ " + w)
            item.setForeground(Qt.darkYellow)
            self.warnings.addItem(item)
        if not s.warnings:
            self.warnings.addItem(self.tr("No warnings: meters and leases are complete."))

    def issue_period(self):
        period = self.period_text()
        if QMessageBox.question(self, self.tr("Issue statements"),
                                self.tr("Issue every draft statement of %1? Issued statements take their numbers "
                                        "and never change.").replace("%1", period)) != QMessageBox.Yes:
            return None
        db, actor = self.db, self.actor

        def work(progress):
            prog, cancelled = _cancellable(progress)
            return svc.issue_statements(db, actor, period=period, progress=prog, cancelled=cancelled)

        def done(r):
            text = self.tr("%1 statement(s) issued.").replace("%1", str(len(r.issued)))
            if r.issued:
                text += " " + ", ".join(n for _i, n, _t in r.issued)
            if r.skipped:
                text += "\n" + "\n".join(r.skipped)
            self.result.setText(text)
        return run_op(self, work, label=self.tr("Issuing…"), on_success=done,
                      on_failure=self.refused)

    def export(self, path: str | None = None):
        if not can(self.actor, "export"):
            return None
        if not path:
            path, _f = QFileDialog.getSaveFileName(self, self.tr("Export statements"), "statements.xlsx",
                                                   self.tr("Excel (*.xlsx);;CSV (*.csv)"))
            if not path:
                return None
        from app.importexport import run_export
        db, actor = self.db, self.actor
        fmt = "xlsx" if path.lower().endswith(".xlsx") else "csv"

        def work(progress):
            prog, cancelled = _cancellable(progress)
            return run_export(db, actor, "statements", path, fmt, progress=lambda n: prog(n, 0), cancelled=cancelled)

        def done(r):
            self.result.setText(r.summary() if hasattr(r, "summary") else str(r))
        return run_op(self, work, label=self.tr("Exporting…"), on_success=done,
                      on_failure=self.refused)
