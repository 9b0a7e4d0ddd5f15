"""A statement's detail on the billing page: lines, credit notes, fapiao, actions."""
from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QInputDialog, QLabel, QMessageBox)

from app.domain.actor import Actor
from app.domain.auth import can
from app.store.db import Database
from app.domain.errors import DomainError
from app.services import billing as svc
from app.services.receivables.statement_detail import statement_detail
from models.choices import StatementKind, StatementStatus

from app.domain.money import format_price, format_quantity

from ui.pages.contracts.figures import money
from ui.kit.dialogs import guard, refused_text
from ui.shell.i18n import choice_label, ui_language
from ui.pages.receivables.tabs import fapiao_facts
from ui.kit.recordpanel import RecordPanel
from ui.shell.operations import apply, run_op
from ui.pages.billing.widgets import _cancellable, _fill
from ui.pages.billing.dialogs import CreditNoteDialog


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
        # one read for the whole panel, its fapiao cover too (app.services.receivables.statement_detail)
        detail = {}

        def fetch(db, key):
            detail["d"] = statement_detail(db, key, language=ui_language())
            return detail["d"].info
        info = self.read(fetch, statement_id)
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
        facts += fapiao_facts(self.db, info, detail["d"].fapiao)  # receivables: 未开票 / 部分开票 / 已开票
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
