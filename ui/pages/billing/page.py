"""The billing page: the monthly run (dry run, run, run and issue) and the statements list."""
from __future__ import annotations


from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (QDateEdit, QFileDialog, QGroupBox,
                               QHBoxLayout, QHeaderView, QLabel, QListWidget, QListWidgetItem,
                               QMessageBox, QPushButton, QSplitter, QVBoxLayout,
                               QWidget)

from app.domain.actor import Actor
from app.domain.auth import can
from app.store.db import Database
from app.services import billing as svc


from ui.pages.contracts.figures import money
from ui.kit.dialogs import guard, last_month, refused_text
from ui.shell.i18n import ui_language
from ui.kit.listview import ListPage
from ui.pages.receivables.tabs import receivables_tabs
from ui.shell.operations import listen, run_op
from ui.pages.billing.widgets import _cancellable, _fill, _table
from ui.pages.billing.dialogs import HandoverDialog
from ui.pages.billing.panel import StatementPanel
from ui.widgets.plain_table import fit_contents


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
        # codes, counts and amounts as wide as they are: the customer gets the rest
        fit_contents(self.run_table.horizontalHeader(), *range(1, 7))
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
        self.list.openRecord.connect(lambda _k, id_: self.open_statement(id_))
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

    def open_statement(self, statement_id: int) -> None:
        """Enter or a double-click: the row's first click has already shown it; read it once, not twice."""
        if self.panel.info is None or self.panel.info.id != statement_id:
            self.panel.show_statement(statement_id)

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
